"""`python -m bench.coldstart` (in `make loadtest`) runs as an operator would run it: a short run of each kind
against fresh servers, the report complete. Timings are not checked (they are information, not a test);
what is checked is that the tool measures what it says: a fresh run and a warm run on the same server, a
SIGKILLed worker replaced, every call answered."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench import coldstart

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
    # CPU per call of the server and of the load generator, both measured (60 calls/s needs far less than a core)
    assert fresh["cpu"]["server_us_per_call"] > 0 and fresh["cpu"]["client_us_per_call"] > 0, fresh["cpu"]
    assert 0 < fresh["cpu"]["cores_needed_at_offered_rate"] < 1, fresh["cpu"]
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
    assert "saturated machine" not in text


def test_cpu_budget_names_a_rate_the_machine_cannot_carry() -> None:
    samples = [{"server_cores": 1.2, "client_cores": 0.6, "other_cores": 0.0}] * 4
    budget = coldstart.cpu_budget(samples, rps=1500.0, offered=3000.0)
    assert budget["server_us_per_call"] == 800.0 and budget["client_us_per_call"] == 400.0
    assert budget["cores_needed_at_offered_rate"] == 3.6
    run: dict[str, Any] = {
           "kill_at_s": None, "killed": None, "serving_s": 1.0, "all_workers_ready_s": 1.2, "calls": 45000,
           "rps": 1500.0, "errors": {}, "latency_ms": {"p50": 1.0, "p99": 9.0}, "windows": [], "per_second": [],
           "cpu": budget, "other_cores": 0.0, "memory_after_start": [], "memory_after_run": [], "warm": None}
    meta = {"tables": 200, "rate": 3000.0, "duration": 30.0, "workers": 2, "when": "now", "machine": "m", "note": ""}
    text = coldstart.markdown([run], meta)
    assert "| 800 + 400 |" in text and "| 1500 |" in text
    saturated = "needs about 3.6 cores" in text
    assert saturated == ((os.cpu_count() or 1) < 3.6), text
