"""Points and payments of a win: base points and limits, who pays whom, honba, riichi sticks and pao.

Base points: fu x 2^(han + 2), at most a mangan (2,000); 6-7 han haneman (3,000), 8-10 baiman
(4,000), 11-12 sanbaiman (6,000), 13+ a counted yakuman (8,000; sanbaiman with counted_yakuman off;
26+ a double one, 16,000, with counted_double_yakuman);
a yakuman 8,000 per multiple. With kiriage_mangan, 1,920 (4 han 30 fu, 3 han 60 fu) becomes a mangan.
On a discard the discarder pays 6x (the winner is the dealer, East) or 4x the base; self-drawn, every
other seat pays 2x (the dealer, or everyone when the dealer wins) or 1x; each payment rounded up to 100.
Honba: 300 per counter, from the discarder or 100 from each payer. Riichi sticks: 1,000 each to the winner.

Three players (sanma): seats East, South, West. A discard is paid as in four-player. A self-draw with
tsumo loss (ツモ損, Tenhou's and Mahjong Soul's default) is paid by the two others as in four-player, the
absent North's share lost, honba 100 from each (a discarder pays 200 a counter: `mahjong` 2.1's
three-player scores and riichienv's sanma agree); without it (Mahjong Soul's 北家折半) the North's share
is split between them: a non-dealer's win costs the dealer 2.5x and the other 1.5x the base, the
dealer's win 3x from each (each rounded up to 100), honba 150 from each (a discarder pays 300).

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


def base_points(han: int, fu: int, yakuman: int, counted_yakuman: bool, kiriage: bool,
                counted_double: bool = False) -> int:
    if yakuman:
        return YAKUMAN_BASE * yakuman
    if han >= 13 and counted_yakuman:
        return 2 * YAKUMAN_BASE if han >= 26 and counted_double else YAKUMAN_BASE
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


def seat_of(winner: Wind, source: ClaimedFrom, players: int = 4) -> int:
    """The seat wind of the player at `source` relative to the winner: left is the one before in turn, right
    the one after (three players: no one across)."""
    return (wind_index(winner) + (_SEATS_ON if players == 4 else _SEATS_ON_3)[claimed_index(source)]) % players


# seats from the winner to the player at each ClaimedFrom (NONE, LEFT, ACROSS, RIGHT): right is the next
_SEATS_ON: Final = (0, 3, 2, 1)
_SEATS_ON_3: Final = (0, 2, 0, 1)  # three players: ACROSS is refused (context.py)


def tsumo_shares(base: int, me: int, players: int, tsumo_loss: bool) -> list[int]:
    """What each seat pays on a self-draw of `base` by seat `me` (0 for the winner)."""
    dealer = me == 0
    out = [0] * players
    for seat in range(players):
        if seat == me:
            continue
        if players == 3 and not tsumo_loss:
            if dealer:
                out[seat] = _up(3 * base)
            else:
                out[seat] = _up((5 * base + 1) // 2) if seat == 0 else _up((3 * base + 1) // 2)
        else:
            out[seat] = _up(2 * base) if (dealer or seat == 0) else _up(base)
    return out


def pay(base: int, winner: Wind, discarder: int | None, honba: int, sticks: int,
        liable: int | None = None, liable_base: int = 0, players: int = 4, tsumo_loss: bool = True
        ) -> tuple[int, list[int]]:
    """(the hand's value before honba and sticks, every seat's signed change by seat wind).

    `discarder`: seat wind of the player who dealt in (None: self-drawn). `liable`/`liable_base`: a pao seat
    and the base points of the yakuman it answers for. `players`: 4, or 3 (seats East South West;
    `tsumo_loss` says how a self-draw is paid)."""
    me = wind_index(winner)
    dealer = me == 0
    change = [0] * players
    value = 0
    if liable is not None and liable_base:
        part = liable_base // 2 if discarder is not None else liable_base
        base -= part
        owed = part * (6 if dealer else 4) if discarder is not None else sum(
            tsumo_shares(part, me, players, tsumo_loss))
        change[me] += owed
        change[liable] -= owed
        value += owed
    per_honba = 150 if players == 3 and not tsumo_loss else 100
    if discarder is not None or base == 0:
        payer = discarder if base else liable
        assert payer is not None
        amount = _up(base * (6 if dealer else 4))
        # a counter is worth what all the payers of a self-draw pay for it (four players 300; three 200, or
        # 300 without tsumo loss), paid by the discarder, or by a liable seat paying a whole self-draw
        honba_owed = per_honba * (players - 1) * honba
        change[me] += amount + honba_owed + 1000 * sticks
        change[payer] -= amount + honba_owed
        return value + amount, change
    shares = tsumo_shares(base, me, players, tsumo_loss)
    total = 0
    for seat in range(players):
        if seat == me:
            continue
        owed = shares[seat]
        change[seat] -= owed + per_honba * honba
        total += owed
    change[me] += total + per_honba * (players - 1) * honba + 1000 * sticks
    return value + total, change
