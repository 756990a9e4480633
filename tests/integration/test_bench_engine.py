"""The benchmark harness: op-module discovery, row shape, table and target lines (no timings asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.__main__ import op_modules, table, target_lines

ROOT = Path(__file__).resolve().parents[2]


def test_discovery_finds_every_ops_module() -> None:
    names = [m.__name__ for m in op_modules()]
    assert "bench.ops_engine" in names
    assert names == sorted(names) and all(n.startswith("bench.ops_") for n in names)
    assert [m.__name__ for m in op_modules("engine")] == ["bench.ops_engine"]


def test_engine_rows_and_report() -> None:
    from bench import ops_engine

    rows = ops_engine.rows(8, seed=1)
    assert {(r["op"], r["impl"]) for r in rows} >= {
        ("win_check", "mjsvc"), ("win_check", "mahjong"), ("shanten", "mjsvc"), ("shanten", "pymahjonggb"),
        ("shanten", "mahjong"), ("waits", "mjsvc"), ("waits", "mahjong"), ("waits", "pymahjonggb")}
    assert all(set(r) == {"op", "impl", "median_us"} and r["median_us"] > 0 for r in rows)
    text = table(rows)
    assert text.splitlines()[0].split() == ["op", "impl", "median", "us", "ours", "/", "impl"]
    lines = target_lines(rows, list(ops_engine.TARGETS))
    assert len(lines) == len(ops_engine.TARGETS) and all(" -> " in line for line in lines)


def test_waiting_hands_are_waiting() -> None:
    import random

    from bench.ops_engine import waiting_hands
    from engine import analysis
    from engine.tiles import to_counts

    for hand in waiting_hands(random.Random(2), 50):
        assert len(hand) == 13 and analysis.shanten(to_counts(hand)) == 0


def test_json_output() -> None:
    out = subprocess.run([sys.executable, "-m", "bench", "--only", "engine", "--n", "5", "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert {r["impl"] for r in rows} == {"mjsvc", "mahjong", "pymahjonggb"}


def test_targets_on_a_named_row() -> None:
    rows = [{"op": "x", "impl": "mjsvc", "median_us": 30.0}, {"op": "x", "impl": "mjsvc_cached", "median_us": 1.5},
            {"op": "x", "impl": "anchor", "median_us": 2.0}]
    lines = target_lines(rows, [("x", "anchor", 10.0), ("x", "anchor", 1.0, "mjsvc_cached"),
                                ("x", "anchor", 0.5, "mjsvc_cached"), ("x", "absent", 1.0, "mjsvc_cached")])
    assert lines[0].endswith("30.00 vs 20.00 us -> MISSED") and lines[0].startswith("target x: ours <= 10 x anchor")
    assert lines[1] == "target x: mjsvc_cached <= 1 x anchor: 1.50 vs 2.00 us -> met"
    assert lines[2].endswith("-> MISSED") and lines[3].endswith("not measured")
