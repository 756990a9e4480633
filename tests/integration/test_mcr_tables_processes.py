"""The process-starting tests of tests/unit/test_mcr_tables.py (the console scripts, fresh processes)."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from bench.mcr_cases import cases
from engine import tables
from engine.rules.mcr import RULE_SET

pytestmark = pytest.mark.skipif(tables.TABLES is None, reason=f"no tables file: {tables.PROBLEM}")


def test_a_fresh_process_meets_no_miss_on_the_tabled_lookups() -> None:
    """Hands never seen, scored in a fresh process: every tabled look-up answers from its table (the
    memos behind them stay as they were), and the answers are the scoring's own."""
    code = """
import sys
from bench.mcr_cases import cases
from engine import shapes
from engine.rules.mcr import RULE_SET, facts, scoring
from engine.rules.mcr import predicates as P
behind = [P.tile_fans.memo, P.situation_fans.memo, scoring._searched_combinations, scoring._matching,
          facts._suit_status, facts._suit_waits, facts._open_suit_waits, shapes.suit_splits]
before = [m.cache_info().currsize for m in behind]
for c in cases(400, 8675309):
    RULE_SET.evaluate(c.hand, c.ctx)
after = [m.cache_info().currsize for m in behind]
print(before == after, before, after)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.startswith("True"), out.stdout


def test_answers_are_the_same_without_the_mcr_tables() -> None:
    """The same hands scored with the MCR tables and, in a process whose file lacks them, by the memos."""
    selected = list(cases(300, 31337))
    here = [repr(RULE_SET.evaluate(c.hand, c.ctx)) for c in selected]
    code = """
import sys
from bench.mcr_cases import cases
from engine.rules.mcr import RULE_SET
from engine.rules.mcr import tables as mcr_tables
assert mcr_tables.TILE_FAN_TABLE is None, mcr_tables.status()
for c in cases(300, 31337):
    print(repr(RULE_SET.evaluate(c.hand, c.ctx)))
"""
    env = dict(os.environ, MJSVC_SUIT_TABLES="off")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.splitlines() == here


def test_a_stale_mcr_part_is_not_read(tmp_path: Path) -> None:
    """A file whose MCR part was computed from other sources: the suit part is still mapped, the MCR
    look-ups fill memos, and the status line says why."""
    assert tables.TABLES is not None
    path = tmp_path / "suits.bin"
    shutil.copyfile(tables.TABLES.path, path)
    data = bytearray(path.read_bytes())
    (length,) = struct.unpack("<I", data[8:12])
    header = json.loads(bytes(data[12:12 + length]))
    old = header["parts"]["mcr"]
    new = ("0" if old[0] != "0" else "1") + old[1:]  # same length: the header keeps its size
    text = bytes(data[12:12 + length]).replace(old.encode(), new.encode())
    data[12:12 + length] = text
    path.write_bytes(bytes(data))
    code = ("from engine import tables; from engine.rules.mcr import tables as t, predicates as P;"
            "print(tables.TABLES is not None, t.TILE_FAN_TABLE is None, P.tile_fans.table is None);"
            "print(t.status())")
    env = dict(os.environ, MJSVC_SUIT_TABLES=str(path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env,
                         cwd=Path(__file__).resolve().parents[2])
    first, status = out.stdout.splitlines()
    assert first == "True True True"
    assert "stale" in status


