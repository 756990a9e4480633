"""`python -m bench.service_cost` runs what it reports: the three servers (bare floor, our server on cache
hits, our server with the engine every call) each measured once a round, in a shuffled order, over Play and
unary, and its ratios computed from those rounds. Timings are information, not a test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration


def test_service_cost_measures_each_server_each_round(tmp_path: Path) -> None:
    out = tmp_path / "cost.json"
    proc = subprocess.run([sys.executable, "-m", "bench.service_cost", "--only", "evaluate", "--rounds", "2",
                           "--duration", "0.3", "--warmup", "0.1", "--spins", "--paced-rate", "0", "--no-stages",
                           "--seed", "3", "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    r = json.loads(out.read_text())
    assert r["rounds"] == 2 and r["order"] == "shuffled per case and round, seed 3", r
    assert set(r["per_message"]) == {"evaluate play", "evaluate unary"}, r["per_message"].keys()
    for label, row in r["per_message"].items():
        rounds = row["rounds"]
        assert len(rounds) == 2, (label, rounds)
        for one in rounds:
            assert set(one) == {"floor", "hit", "engine"} and all(v > 0 for v in one.values()), (label, one)
        ratios = sorted(x["hit"] / x["floor"] for x in rounds)
        assert ratios[0] - 0.01 <= row["hit_over_floor"] <= ratios[-1] + 0.01, (label, row)
        assert row["work_in_worker_us"] > 0, (label, row)  # the engine server did the work, by its own account
    # every round's log line names a server; each server appears once per case and round
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("round ")]
    assert len(lines) == 2 * 2 * 3, proc.stderr[-3000:]
