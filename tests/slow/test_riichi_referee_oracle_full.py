"""The Riichi referee against all 1,879 majiang-core hands of /work/shared/oracles/settle/riichi_rounds.jsonl.gz
(tests/unit/test_riichi_referee_oracle.py runs a sample): every event legal, every decision point's options
and every settlement alike. About 90 s of pure Python; `make test-slow` (marker slow)."""

from __future__ import annotations

from collections import Counter

import pytest
from riichi_rounds import ORACLE, check_hand, records

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not ORACLE.exists(), reason="shared oracle data not present")]
HANDS = 1879


def test_every_hand_agrees_with_majiang_core() -> None:
    counts: Counter[str] = Counter()
    problems = [p for rec in records() for p in check_hand(rec, counts)]
    assert problems == []
    assert counts["hands"] == counts["hands settled alike"] == HANDS
    assert counts["decision points"] == counts["decision points agreeing"] > 170_000
