"""`python -m bench.referee` times what it says: the same oracle logs through our referee and through
majiang-core in Node, each log first settled to majiang-core's recorded money, and refuses to time a log whose
money differs. Timings are information, not a test."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / "bench" / "referee_node"


@pytest.fixture(scope="module")
def node_modules() -> None:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("Node is not installed")
    if not (NODE_DIR / "node_modules" / "@kobalab" / "majiang-core").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=NODE_DIR, check=True, capture_output=True,
                       timeout=300)


def test_both_sides_time_the_same_logs(tmp_path: Path, node_modules: None) -> None:
    proc = subprocess.run([sys.executable, "-m", "bench.referee", "--logs", "6", "--rounds", "1", "--out",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    r = json.loads((tmp_path / "referee.json").read_text())
    assert r["logs"] == 6 and r["majiang_core"] == "1.4.1"
    for op in ("settle", "legal"):
        s = r[op]
        assert s["ratio_of_medians"] == pytest.approx(s["ours_median_us"] / s["majiang_core_median_us"])
    assert "| Settle, whole hand |" in (tmp_path / "referee.md").read_text()


def test_a_log_that_settles_differently_is_not_timed() -> None:
    import bench.referee as b

    rec = next(b.riichi_rounds.records())
    wrong = dict(rec, settlement=dict(rec["settlement"], net=[n + 100 for n in rec["settlement"]["net"]]))
    with pytest.raises(SystemExit, match="not timing a wrong answer"):
        b.ours([wrong], 1)
