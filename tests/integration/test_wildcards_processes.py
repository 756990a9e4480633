"""The process-starting tests of tests/unit/test_wildcards.py (the console scripts, fresh processes)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from engine import tables
from engine.tables import format as F
from engine.tables.loader import open_tables, read_header
from engine.tiles import NUM_KINDS


def near(real: Sequence[int]) -> list[int]:
    """Kinds a wildcard in a set with a real tile can stand for."""
    out = set()
    for t in range(NUM_KINDS):
        if real[t]:
            if t >= 27:
                out.add(t)
            else:
                base = t - t % 9
                out.update(k for k in range(t - 2, t + 3) if base <= k < base + 9)
    return sorted(out)

def fresh(real: Sequence[int], n: int) -> list[int]:
    """n kinds no real tile is within two ranks of (absent honours first); fewer if there are none."""
    taken = set(near(real))
    return [t for t in list(range(27, 34)) + list(range(27)) if t not in taken][:n]


def _file_without_wild_sections(path: Path) -> Path:
    """A copy of the tables file as written before it held the need tables (same payload and SHA-256,
    the two sections left out of the header)."""
    assert tables.TABLES is not None
    data = Path(tables.TABLES.path).read_bytes()
    header, start = read_header(data)
    for name in (F.WILD_SUIT_NEED, F.WILD_HONOR_NEED):
        del header["sections"][name]
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    head = F.MAGIC + struct.pack("<I", len(text)) + text
    new_start = -(-len(head) // F.ALIGN) * F.ALIGN
    path.write_bytes(head + bytes(new_start - len(head)) + data[start:])
    return path

_ANSWERS = ("from engine import wildcards as W; from engine.tiles import parse_tiles, to_counts, WHITE; "
            "c = to_counts(parse_tiles('13m46p789s999sEEPP')); d = to_counts(parse_tiles('13m46p789s99sEEPP')); "
            "print(W.need_tables_origin()); print(W.is_complete_wild(c, [WHITE]), W.waits_wild(d, [WHITE]))")


@pytest.mark.parametrize("setting", ["old file", "off", "missing"])
def test_without_need_tables_in_the_file_they_are_built_in_process(tmp_path: Path, setting: str) -> None:
    """An old tables file (no wild sections), tables switched off, or no file: the process builds the
    need tables itself and answers the same."""
    if tables.TABLES is None:
        pytest.skip(f"no tables file: {tables.PROBLEM}")
    value = {"old file": lambda: str(_file_without_wild_sections(tmp_path / "old.bin")), "off": lambda: "off",
             "missing": lambda: str(tmp_path / "missing.bin")}[setting]()
    if setting == "old file":
        old = open_tables(value)
        assert old.wild_suit_need is None and old.wild_honor_need is None and old.sha256 == tables.TABLES.sha256
        status = subprocess.run([sys.executable, "-c", "import engine.tables as t; print(t.status())"], cwd="/",
                                env=dict(os.environ, MJSVC_SUIT_TABLES=value), capture_output=True, text=True,
                                check=True).stdout
        assert "mapped read-only" in status and "no wildcard need tables in it" in status
    env = dict(os.environ, MJSVC_SUIT_TABLES=value)
    out = subprocess.run([sys.executable, "-c", _ANSWERS], env=env, cwd="/", capture_output=True, text=True,
                         check=True).stdout.splitlines()
    mapped = subprocess.run([sys.executable, "-c", _ANSWERS], cwd="/", capture_output=True, text=True,
                            check=True).stdout.splitlines()
    assert out[0] == "built in this process" and mapped[0].startswith("read from ")
    assert out[1] == mapped[1] == "True (1, 13, 23, 26, 27, 33)"  # 2m 5p 6s 9s E, and a white (wild)


def test_the_servers_warm_up_loads_the_need_tables() -> None:
    """mjsvc's warm-up (run in the fork server before it forks the workers) loads the need tables, so
    the workers share that copy instead of each making its own on its first ghost."""
    if tables.TABLES is None:
        pytest.skip(f"no tables file: {tables.PROBLEM}")
    code = ("from engine import wildcards as W; from mjsvc import worker; assert not W._TABLES; "
            "print(worker.warm_up(), W.need_tables_origin())")
    out = subprocess.run([sys.executable, "-c", code], cwd="/", capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"True read from {tables.TABLES.path}"


