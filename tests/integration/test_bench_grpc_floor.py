"""`python -m bench.grpc_floor` measures what it says: every message echoed, both sides' CPU counted, and the
machine's ceiling derived from them. Timings are information, not a test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration


def test_grpc_floor_echoes_and_counts_both_sides(tmp_path: Path) -> None:
    out = tmp_path / "floor.json"
    proc = subprocess.run([sys.executable, "-m", "bench.grpc_floor", "--rate", "200", "--tables", "10",
                           "--duration", "2", "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    r = json.loads(out.read_text())
    # 10 tables at 200/s for 2 s: about 400 round trips, each answered (a lost echo would hang the table)
    assert 300 <= r["messages"] <= 420, r
    assert r["server_us_per_message"] > 0 and r["client_us_per_message"] > 0, r
    ceiling = r["cores"] / (r["server_us_per_message"] + r["client_us_per_message"]) * 1e6
    assert abs(r["most_messages_per_s_on_these_cores"] - ceiling) <= 1, r
    assert "messages/s on" in proc.stdout
