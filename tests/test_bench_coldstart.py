"""`python -m bench.coldstart` (in `make loadtest`) runs as an operator would run it: a short run of each kind
against fresh servers, the report complete. Timings are not checked (they are information, not a test);
what is checked is that the tool measures what it says: a fresh run and a warm run on the same server, a
SIGKILLed worker replaced, every call answered."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration


def test_coldstart_fresh_warm_and_killed_worker(tmp_path: Path) -> None:
    out = tmp_path / "results"
    proc = subprocess.run(
        [sys.executable, "-m", "bench.coldstart", "--runs", "1", "--kill-at", "2", "--warm-run", "--rate", "60",
         "--tables", "12", "--duration", "5", "--connections", "2", "--out", str(out), "--note", "test"],
        capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads((out / "coldstart.json").read_text())
    assert report["meta"]["rate"] == 60 and report["meta"]["server"].endswith("mjsvc")
    fresh, killed = report["runs"]
    # the fresh run, then the same load again on the same server
    assert fresh["kill_at_s"] is None and fresh["serving_s"] > 0 and fresh["calls"] > 100
    assert fresh["errors"] == {} and fresh["windows"], fresh
    warm = fresh["warm"]
    assert warm is not None and warm["calls"] > 100 and warm["errors"] == {} and warm["windows"], warm
    assert len(fresh["memory_after_start"]) == 2 and all(m["pss_mb"] > 0 for m in fresh["memory_after_start"])
    assert len(warm["memory_after_run"]) == 2
    # the killed worker: replaced, no call lost (broken streams are reopened, not errors); no warm run after it
    assert killed["killed"]["pid"] > 0 and killed["killed"].get("replaced_ready_s", 0) > killed["killed"]["at_s"]
    assert killed["errors"] == {} and killed["warm"] is None, killed
    text = (out / "coldstart.md").read_text()
    assert "| 1 warm: same server, next 5 s |" in text and "- run 1 warm: " in text
    assert "killed at" in text
