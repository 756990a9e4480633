"""What Legal offers, the replay accepts: whole hands of every rule set played in process with each step
chosen at random among the actions `engine.referee.legal` offers (tests/support/referee_play.py), each
turned into its event and the log replayed again; every hand ends (a win or a drawn game) and settles with
nets and pot summing to zero and one evaluation per win."""

from __future__ import annotations

import pytest
from referee_play import play

from engine import referee as r
from engine.rules.guangdong.options import GuangdongOptions
from engine.rules.hk.options import HkOptions
from engine.rules.riichi.options import RiichiOptions

CASES = [("riichi", None), ("riichi", RiichiOptions(players=3)), ("sichuan", None), ("mcr", None), ("mcr2p", None),
         ("hk", None), ("hk", HkOptions(flowers=False)), ("guangdong", None),
         ("guangdong", GuangdongOptions(players=3))]


@pytest.mark.parametrize("rule_set, options", CASES, ids=lambda c: c if isinstance(c, str) else "opts")
def test_every_offered_action_is_accepted_and_the_hand_settles(rule_set: str, options: object) -> None:
    endings: set[str] = set()
    for seed in range(12):
        log = play(rule_set, seed, options)
        out = r.settle(log)
        assert sum(m.net for m in out.seats) + out.pot == 0, (rule_set, seed)
        wins = [e for e in log.events if isinstance(e, r.Win)]
        assert len(out.wins) == len(wins) and all(e.is_win for e in out.wins)
        endings.add(type(log.events[-1]).__name__)
    assert endings  # hands ended by a win or a drawn game
