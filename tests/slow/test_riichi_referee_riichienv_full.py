"""tests/unit/test_riichi_referee_riichienv.py on 3,000 hands of three and of four players played by
riichienv (seeds 1,000 on, so none is the sample's), 500 of each with every decision compared."""

from __future__ import annotations

from collections import Counter

import pytest

pytest.importorskip("riichienv")

from riichienv_hands import check  # noqa: E402

pytestmark = pytest.mark.slow
HANDS = 3000
DECIDED = 500


@pytest.mark.parametrize("players", [3, 4])
def test_three_thousand_hands_agree_with_riichienv(players: int) -> None:
    counts: Counter[str] = Counter()
    problems = [p for i in range(HANDS) for p in check(1000 + i, i < DECIDED, counts, players)]
    assert problems[:20] == []
    assert counts["hands"] == HANDS
