"""The process-starting tests of tests/unit/test_analysis.py (the console scripts, fresh processes)."""

from __future__ import annotations


def test_cold_memos_filled_from_many_threads_agree_with_serial() -> None:
    """In a fresh process (empty memos), four threads fill the tables at once; the answers must
    equal the ones computed again afterwards from the warm tables."""
    import subprocess
    import sys
    from pathlib import Path

    script = """
import random, sys, threading
sys.setswitchinterval(1e-6)  # switch threads as often as possible
from engine import analysis
from engine.hand import make_hand
rng = random.Random(12)
wall = [t for t in range(34) for _ in range(4)]
hands = [make_hand(sorted(rng.sample(wall, n)), sizes=(13, 14)) for n in [13, 14] * 150]
results = [None] * len(hands)
def work(k):
    for i in range(k, len(hands), 4):
        results[i] = analysis.analyze(hands[i], ())
threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
for t in threads: t.start()
for t in threads: t.join()
assert all(r == analysis.analyze(h, ()) for r, h in zip(results, hands))
print("ok", len(analysis._VECS))
"""
    out = subprocess.run([sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[2],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")


