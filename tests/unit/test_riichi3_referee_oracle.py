"""The three-player Riichi referee against hands played by riichienv 0.4.11's own game engine (Apache-2.0;
Mahjong Soul's sanma; tests/support/riichienv_sanma.py drives it and turns its mjai log into our HandLog):
every event riichienv played is legal for us, every hand settles to riichienv's points seat by seat (dealer,
round wind, honba, sticks and scores vary with the seed), and at every decision riichienv put to a seat our
Legal offers the same: wins on a discard or a North set aside, self-drawn wins, pungs, open, concealed and
added kongs, kita, nine terminals, riichi and the discards.

A seeded sample runs here; tests/slow/test_riichi3_referee_oracle_full.py plays 3,000 hands (500 of them
with every decision compared)."""

from __future__ import annotations

from collections import Counter

import pytest

pytest.importorskip("riichienv")

from riichienv_sanma import check  # noqa: E402

SETTLED = 200
DECIDED = 25


def test_a_sample_of_sanma_hands_agrees_with_riichienv() -> None:
    counts: Counter[str] = Counter()
    problems = [p for seed in range(SETTLED) for p in check(seed, seed < DECIDED, counts)]
    assert problems == []
    assert counts["hands"] == SETTLED and counts["wins"] > SETTLED // 3 and counts["drawn games"] > 10
    assert counts["kita"] > SETTLED and counts["decisions"] > 40 * DECIDED
