"""The Riichi referee against hands played by riichienv 0.4.11's own game engine (Apache-2.0;
tests/support/riichienv_hands.py drives it and turns its mjai log into our HandLog): three players under
Mahjong Soul's rule, four under Tenhou's. Every event riichienv played is legal for us, every hand settles to
riichienv's points seat by seat (dealer, round wind, honba, sticks and scores vary with the seed), and at
every decision riichienv put to a seat our Legal offers the same: wins on a discard, a robbed kong or a North
set aside, self-drawn wins, chows, pungs, open, concealed and added kongs, kita, nine terminals, riichi and
the discards.

A seeded sample runs here; tests/slow/test_riichi_referee_riichienv_full.py plays 3,000 hands of each (500
of them with every decision compared). The four-player hands are a second oracle beside majiang-core's
(tests/unit/test_riichi_referee_oracle.py), with more kongs and abortive draws."""

from __future__ import annotations

from collections import Counter

import pytest

pytest.importorskip("riichienv")

from riichienv_hands import check  # noqa: E402

SETTLED = 200
DECIDED = 25


@pytest.mark.parametrize("players", [3, 4])
def test_a_sample_of_hands_agrees_with_riichienv(players: int) -> None:
    counts: Counter[str] = Counter()
    problems = [p for seed in range(SETTLED) for p in check(seed, seed < DECIDED, counts, players)]
    assert problems == []
    assert counts["hands"] == SETTLED and counts["wins"] > SETTLED // 3 and counts["drawn games"] > 10
    assert counts["decisions"] > 40 * DECIDED and counts["kongs"] > 10
    assert (counts["kita"] > SETTLED) == (players == 3)
