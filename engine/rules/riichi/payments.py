"""Points and payments of a win: base points and limits, who pays whom, honba, riichi sticks and pao.

Base points: fu x 2^(han + 2), at most a mangan (2,000); 6-7 han haneman (3,000), 8-10 baiman
(4,000), 11-12 sanbaiman (6,000), 13+ a counted yakuman (8,000; sanbaiman with counted_yakuman off);
a yakuman 8,000 per multiple. With kiriage_mangan, 1,920 (4 han 30 fu, 3 han 60 fu) becomes a mangan.
On a discard the discarder pays 6x (the winner is the dealer, East) or 4x the base; self-drawn, every
other seat pays 2x (the dealer, or everyone when the dealer wins) or 1x; each payment rounded up to 100.
Honba: 300 per counter, from the discarder or 100 from each payer. Riichi sticks: 1,000 each to the winner.

Pao (liability) for daisangen and daisuushii: the seat that fed the last dragon / wind set pays for that
yakuman (its multiple, at most 2): all of it on a self-draw, half of it on another's discard (the
discarder pays the rest). When that yakuman is all the hand scores and it is self-drawn, the liable seat
pays the honba too.
"""

from __future__ import annotations

from typing import Final

from engine.hand import ClaimedFrom, Wind
from engine.rules.riichi.facts import claimed_index, wind_index

YAKUMAN_BASE: Final = 8000


def base_points(han: int, fu: int, yakuman: int, counted_yakuman: bool, kiriage: bool) -> int:
    if yakuman:
        return YAKUMAN_BASE * yakuman
    if han >= 13 and counted_yakuman:
        return YAKUMAN_BASE
    if han >= 11:
        return 6000
    if han >= 8:
        return 4000
    if han >= 6:
        return 3000
    base = fu << (2 + han)
    if kiriage and base == 1920:
        return 2000
    return min(base, 2000)


def _up(x: int) -> int:
    return -(-x // 100) * 100


def seat_of(winner: Wind, source: ClaimedFrom) -> int:
    """The seat wind of the player at `source` relative to the winner: left is the one before in turn."""
    return (wind_index(winner) + _SEATS_ON[claimed_index(source)]) % 4


# seats from the winner to the player at each ClaimedFrom (NONE, LEFT, ACROSS, RIGHT): right is the next
_SEATS_ON: Final = (0, 3, 2, 1)


def pay(base: int, winner: Wind, discarder: int | None, honba: int, sticks: int,
        liable: int | None = None, liable_base: int = 0) -> tuple[int, list[int]]:
    """(the hand's value before honba and sticks, every seat's signed change by seat wind).

    `discarder`: seat wind of the player who dealt in (None: self-drawn). `liable`/`liable_base`: a pao seat
    and the base points of the yakuman it answers for."""
    me = wind_index(winner)
    dealer = me == 0
    change = [0, 0, 0, 0]
    value = 0
    if liable is not None and liable_base:
        part = liable_base // 2 if discarder is not None else liable_base
        base -= part
        owed = part * (6 if dealer else 4)
        change[me] += owed
        change[liable] -= owed
        value += owed
    if discarder is not None or base == 0:
        payer = discarder if base else liable
        assert payer is not None
        amount = _up(base * (6 if dealer else 4))
        change[me] += amount + 300 * honba + 1000 * sticks
        change[payer] -= amount + 300 * honba
        return value + amount, change
    from_dealer = _up(2 * base)
    from_other = _up(base)
    total = 0
    for seat in range(4):
        if seat == me:
            continue
        owed = from_dealer if (dealer or seat == 0) else from_other
        change[seat] -= owed + 100 * honba
        total += owed
    change[me] += total + 300 * honba + 1000 * sticks
    return value + total, change
