"""`python -m bench.instructions` counts the instructions one call of the service executes, with valgrind. The
counts are information, not a test: this checks that cachegrind's summary is read right, and (slow: every
child runs under valgrind) that a short real run counts each operation of the load test's traffic, the same
on a second run, with discard advice the dearest."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.instructions import instructions

pytestmark = pytest.mark.integration

SUMMARY = """\
==4242== Cachegrind, a high-precision tracing profiler
==4242== Command: python -m bench.instructions --child /tmp/r.pickle Evaluate 1
==4242==
==4242== I   refs:      1,234,567,890
"""


def test_the_count_is_read_from_cachegrinds_summary() -> None:
    assert instructions(SUMMARY) == 1_234_567_890
    assert instructions("==1== I refs: 7\n") == 7
    with pytest.raises(RuntimeError, match="no instruction count"):
        instructions("==4242== Command: python\n")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind (Debian: valgrind)")
def test_a_short_run_counts_every_operation_the_same_twice(tmp_path: Path) -> None:
    runs = []
    for i in range(2):
        out = tmp_path / f"instructions{i}.json"
        proc = subprocess.run([sys.executable, "-m", "bench.instructions", "--games", "10", "--requests", "200",
                               "--out", str(out)], capture_output=True, text=True, timeout=1800)
        assert proc.returncode == 0, proc.stderr[-3000:]
        runs.append(json.loads(out.read_text()))
    ops = [r["operations"] for r in runs]
    assert set(ops[0]) == {"Evaluate", "Analyze 13", "Analyze 14"}, ops[0]
    for name, first in ops[0].items():
        again = ops[1][name]
        assert first["requests"] == again["requests"] > 0
        assert first["instructions_per_call"] > 10_000, (name, first)
        assert abs(first["instructions_per_call"] - again["instructions_per_call"]) < 0.02 * again[
            "instructions_per_call"], (name, first, again)
    assert ops[0]["Analyze 14"]["instructions_per_call"] > ops[0]["Analyze 13"]["instructions_per_call"], ops[0]
