"""`python -m bench.engine_mix` plays the load test's MCR games against the service in process and reports,
per operation, the calls it timed. Timings are information, not a test: this checks that every call of the
games was counted once, under the right operation, and that each was a miss the service worked on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.engine_mix import operation
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

pytestmark = pytest.mark.integration


def test_engine_mix_counts_every_call_under_its_operation(tmp_path: Path) -> None:
    out = tmp_path / "mix.json"
    proc = subprocess.run([sys.executable, "-m", "bench.engine_mix", "--tables", "4", "--games", "8", "--seed", "5",
                           "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    r = json.loads(out.read_text())
    assert r["games"] == 8 and r["tables"] == 4, r
    ops = r["operations"]
    assert set(ops) == {"Evaluate", "Analyze 13", "Analyze 14"}, ops
    assert sum(o["calls"] for o in ops.values()) == r["calls"], r
    assert abs(sum(o["share"] for o in ops.values()) - 1.0) < 0.01, ops
    for name, o in ops.items():
        # every call was a miss: the service reported the work it did after the limits, inside the whole call
        assert 0 < o["work_mean_us"] <= o["mean_us"], (name, o)
        assert o["p50_us"] <= o["p90_us"] and o["back_to_back_mean_us"] > 0, (name, o)
    assert "Analyze 14" in proc.stdout, proc.stdout


def test_operation_names_the_hand_size_with_kongs_as_three() -> None:
    tiles = [pb.TILE_M1] * 3 + [pb.TILE_P2] * 3 + [pb.TILE_S3] * 3 + [pb.TILE_EAST] * 2
    kong = pb.Meld(kind=pb.MELD_KIND_KONG, tiles=[pb.TILE_WHITE] * 4)
    assert operation("Analyze", pb.AnalyzeRequest(hand=pb.Hand(concealed=tiles, melds=[kong]))) == "Analyze 14"
    assert operation("Analyze", pb.AnalyzeRequest(hand=pb.Hand(concealed=tiles[:10], melds=[kong]))) == "Analyze 13"
    assert operation("Evaluate", pb.EvaluateRequest()) == "Evaluate"
