"""The process-starting tests of tests/unit/test_tables.py (the console scripts, fresh processes)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import tables
from engine.tables.loader import open_tables

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(tables.TABLES is None, reason=f"no suit tables: {tables.PROBLEM}")


def _damaged_copy(tmp_path: Path, at: int) -> str:
    assert tables.TABLES is not None
    path = tmp_path / "suits.bin"
    shutil.copyfile(tables.TABLES.path, path)
    with open(path, "r+b") as f:
        f.seek(at)
        byte = f.read(1)
        f.seek(at)
        f.write(bytes([byte[0] ^ 1]))
    return str(path)

def _engine_status(env: dict[str, str]) -> str:
    code = "import engine.analysis, engine.tables as t; print(t.status())"
    return subprocess.run([sys.executable, "-c", code], env=env, cwd="/", capture_output=True, text=True,
                          check=True).stdout.strip()


def test_a_process_without_the_file_says_why_and_still_answers(tmp_path: Path) -> None:
    env = dict(os.environ, MJSVC_SUIT_TABLES=str(tmp_path / "missing.bin"))
    assert "not found" in _engine_status(env)
    env["MJSVC_SUIT_TABLES"] = _damaged_copy(tmp_path, 0)
    assert "bad magic" in _engine_status(env)
    env["MJSVC_SUIT_TABLES"] = "off"
    code = ("import engine.tables as t; from engine import analysis as A; "
            "from engine.tiles import parse_tiles, to_counts; "
            "print(t.TABLES, A.waits(to_counts(parse_tiles('1112345678999m'))))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd="/", capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["None", "(0,", "1,", "2,", "3,", "4,", "5,", "6,", "7,", "8)"]


@pytest.mark.slow
def test_the_build_is_deterministic(tmp_path: Path) -> None:
    """A second build gives the installed file byte for byte (and so the same SHA-256)."""
    assert tables.TABLES is not None
    out = tmp_path / "again.bin"
    subprocess.run([sys.executable, "-m", "tablebuild", str(out)], cwd=ROOT, check=True)
    assert out.read_bytes() == Path(tables.TABLES.path).read_bytes()


@pytest.mark.slow
def test_serve_builds_missing_tables_once_into_the_cache_directory(tmp_path: Path) -> None:
    """What `mjsvc serve` does before starting workers when the package holds no tables file."""
    code = ("import logging, os, engine.tables as t; logging.basicConfig(level='INFO');"
            "t.TABLES, t.PROBLEM = None, 'simulated: no file in the package';"
            "from mjsvc import suit_tables; suit_tables.prepare(); print(os.environ['MJSVC_SUIT_TABLES'])")
    env = {k: v for k, v in os.environ.items() if k != "MJSVC_SUIT_TABLES"}
    env["MJSVC_CACHE_DIR"] = str(tmp_path)
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd="/", capture_output=True, text=True, check=True)
    path = Path(out.stdout.strip())
    assert path.parent == tmp_path and path.name.startswith("suits-")
    assert "building them once into" in out.stderr and "workers map" in out.stderr
    assert open_tables(str(path)).sha256 == tables.TABLES.sha256  # type: ignore[union-attr]
