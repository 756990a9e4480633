"""tests/unit/test_riichi3_referee_oracle.py on 3,000 sanma hands played by riichienv (seeds 1,000 on, so
none is the sample's), 500 of them with every decision compared."""

from __future__ import annotations

from collections import Counter

import pytest

pytest.importorskip("riichienv")

from riichienv_sanma import check  # noqa: E402

pytestmark = pytest.mark.slow
HANDS = 3000
DECIDED = 500


def test_three_thousand_sanma_hands_agree_with_riichienv() -> None:
    counts: Counter[str] = Counter()
    problems = [p for i in range(HANDS) for p in check(1000 + i, i < DECIDED, counts)]
    assert problems[:20] == []
    assert counts["hands"] == HANDS
