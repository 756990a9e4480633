"""The Riichi referee against whole hands played by majiang-core 1.4.1 (MIT;
/work/shared/oracles/settle/riichi_rounds.jsonl.gz, format in its README): every hand's log replays with each
event legal, settles to the record's net seat by seat, honba and sticks after it and whether the dealer
continues; and at every decision point the record kept (its `legal`, `ron_blocked`), our Legal offers the
same: the seats that may ron (robbing a kong too), those in furiten, pung, open kong and chow claims, the
self-drawn win, nine terminals, the riichi discards, the kongs in turn and the discards after a call (swap
calling removed).

A seeded sample runs here; all 1,879 hands run in tests/slow/test_riichi_referee_oracle_full.py."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from riichi_rounds import ORACLE, check_hand, expected_vs_ours, hand_log, net_by_wind, records

from engine import referee

pytestmark = pytest.mark.skipif(not ORACLE.exists(), reason="shared oracle data not present")
SAMPLE = 150
def sample() -> list[dict[str, Any]]:
    recs = list(records())
    rng = random.Random(20260601)
    return rng.sample(recs, SAMPLE)


def test_a_sample_of_hands_agrees_with_majiang_core() -> None:
    counts: Counter[str] = Counter()
    problems = [p for rec in sample() for p in check_hand(rec, counts)]
    assert problems == []
    assert counts["hands settled alike"] == SAMPLE and counts["decision points"] > 10 * SAMPLE


def test_the_public_entry_points_answer_as_the_replay() -> None:
    """legal(prefix) and settle(log) through engine.referee (the rule set's registered referee) answer as the
    step-by-step replay the sample uses."""
    rng = random.Random(7)
    for rec in rng.sample(sample(), 8):
        log = hand_log(rec)
        s = referee.settle(log)
        assert [m.net for m in s.seats] == net_by_wind(rec)
        assert sum(m.net for m in s.seats) + s.pot == 0
        for upto in sorted(rng.sample(range(1, len(rec["events"])), 5)):
            e = rec["events"][upto - 1]
            assert expected_vs_ours(rec, e, referee.legal(hand_log(rec, upto))) == []
