"""The Riichi referee's fast paths against their plain ones.

`completes_near` (a discard is tried as a seat's winning tile only when some shape could take it) answers as
`completes` on random hands of every size a seat holds, near-complete ones included.

A seat's waits are worked out once per change of its
tiles (`Table.waits_of`, cached on a version the tile changes bump) instead of at every look. A table whose
`waits_of` works them out afresh every time is replayed in lockstep with the real one over hands of the
shared oracle file (majiang-core 1.4.1, MIT): after every event both say the same Legal, the same furiten and
ron flags and the same ready seats, and settle alike."""

from __future__ import annotations

import random
from typing import Any

import pytest
from riichi_rounds import ORACLE, hand_log, records

from engine import shapes
from engine.referee import HandLog
from engine.rules.riichi import referee as rr
from engine.tile_kinds import TERMINALS_AND_HONORS

COMPILED = not rr.__file__.endswith(".py")
interpreted_only = pytest.mark.skipif(
    COMPILED, reason="a compiled Table takes no interpreted subclass: this runs in `make test`'s pure-Python pass "
    "(PURE_TESTS); compiled, the oracle tests hold it")


class PlainTable(rr.Table):
    def waits_of(self, seat: int) -> frozenset[int]:
        return frozenset(rr.waits(self.seats[seat].counts))


def _state(t: rr.Table) -> tuple[Any, ...]:
    return (t.legal(), tuple(s.can_ron for s in t.seats), tuple(t.may_ron(i) for i in range(rr.SEATS)),
            tuple(t.ready(i) for i in range(rr.SEATS)))


def lockstep(log: HandLog) -> int:
    fast, plain = rr.Table(log), PlainTable(log)
    for i, ev in enumerate(log.events):
        fast.apply(i, ev)
        plain.apply(i, ev)
        assert _state(fast) == _state(plain), (i, ev)
    if fast.phase == rr.Phase.OVER:
        assert fast.settlement() == plain.settlement()
    return len(log.events)


@interpreted_only
@pytest.mark.skipif(not ORACLE.exists(), reason="shared oracle data not present")
def test_oracle_hands_replay_alike() -> None:
    recs = list(records())
    events = sum(lockstep(hand_log(rec)) for rec in random.Random(11).sample(recs, 80))
    assert events > 80 * 40


def _random_counts(rng: random.Random) -> list[int]:
    """A seat's concealed tiles (1, 4, 7, 10 or 13): half of them a tile short of a pair and sets (so that
    some tiles complete them), half of them random."""
    size = rng.choice((1, 4, 7, 10, 13))
    while True:
        counts = [0] * 34
        if rng.random() < 0.5:
            groups = [[rng.randrange(34)] * 2]
            for _ in range((size - 1) // 3):
                kind = rng.randrange(34)
                groups.append([kind, kind + 1, kind + 2] if kind < 27 and kind % 9 < 7 and rng.random() < 0.6
                              else [kind] * 3)
            for t in (t for g in groups for t in g):
                counts[t] += 1
            counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
        else:
            for _ in range(size):
                counts[rng.randrange(34)] += 1
        if max(counts) <= 4:
            return counts


def test_completes_near_answers_as_completes() -> None:
    rng = random.Random(3)
    wins = 0
    for _ in range(4000):
        counts = _random_counts(rng)
        for tile in range(34):
            if counts[tile] < 4:
                want = rr.completes(counts, tile)
                assert rr.completes_near(counts, tile) == want, (counts, tile)
                wins += want
    assert wins > 500  # winning tiles were among the cases


def _complete_plain(counts: list[int]) -> bool:
    n = sum(counts)
    return n % 3 == 2 and (shapes.is_standard_complete(counts)
                           or n == 14 and (shapes.is_seven_pairs(counts, False) or shapes.is_thirteen_orphans(counts)))


def test_complete_answers_as_the_shapes_module() -> None:
    rng = random.Random(5)
    seen = {"pairs": 0, "orphans": 0, "standard": 0}
    for i in range(20000):
        counts = [0] * 34
        kind = i % 4
        if kind == 0:  # seven pairs, some with a quad or a triple slipped in
            for t in rng.sample(range(34), 7):
                counts[t] = 2
            if rng.random() < 0.3:
                a, b = rng.sample([t for t in range(34) if counts[t]], 2)
                counts[a] += 1
                counts[b] -= 1
        elif kind == 1:  # thirteen orphans, sometimes one orphan swapped for a simple
            for t in TERMINALS_AND_HONORS:
                counts[t] = 1
            counts[rng.choice(TERMINALS_AND_HONORS)] += 1
            if rng.random() < 0.3:
                counts[rng.choice(TERMINALS_AND_HONORS)] -= 1
                counts[rng.choice([t for t in range(27) if t % 9 not in (0, 8)])] += 1
        else:
            counts = _random_counts(rng)
            counts[rng.randrange(34)] += 1
        if max(counts) > 4 or min(counts) < 0:
            continue
        want = _complete_plain(counts)
        assert rr.complete(counts) == want, counts
        if want:
            seen["pairs" if kind == 0 else "orphans" if kind == 1 else "standard"] += 1
    assert min(seen.values()) > 100, seen
