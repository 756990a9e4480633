"""Who pays what for a Sichuan win: the win itself and the kong money it unwinds.

Seats are winds, East the dealer, play passing East -> South -> West -> North. A seat given relative
to another (ClaimedFrom) is LEFT = the player before it in turn (上家), RIGHT = the one after it,
ACROSS = the one opposite.

The win: on a self-draw every player still in (not the winner, not in `seats_out`) pays the value
(+1 with 自摸加底); on a discard, or a robbed kong, the discarder alone pays the value.

Kong money (刮风下雨), as both sheets charge it when the kong is declared: a concealed kong 2 from each
player still in, an exposed kong 2 from the player who discarded its fourth tile, an added kong 1
from each player still in when its fourth tile was freshly drawn, nothing when it was held from an
earlier turn. A robbed kong never happened, so its money goes back to each payer; on 杠上炮 MIL
refunds it the same way, while 呼叫转移 (Chengdu's default) hands all of it to the winner.
Players still in at the kong are those still in at the win: nobody can win between a kong and the
discard that follows it. 一炮多响: the kong money moves once, with the win of the first winner in turn
order after the discarder (`kong_money_taker`); the other winners' wins move none of it.

点杠花当炮 (option kong_bloom_payer = FEEDER): a self-draw on the replacement tile of a kong fed by a
discard is paid by the feeder alone, the value as on a discard.
"""

from __future__ import annotations

from engine.hand import ClaimedFrom, PriorKong, Wind
from engine.registry import REGISTRY

SEATS = (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH)
_OFFSET = {ClaimedFrom.LEFT: 3, ClaimedFrom.ACROSS: 2, ClaimedFrom.RIGHT: 1}


def seat_from(seat: Wind, rel: ClaimedFrom) -> Wind:
    """The seat that is `rel` of `seat` (LEFT: the one playing just before it)."""
    return Wind((seat + _OFFSET[rel]) % 4)


def relative(seat: Wind, other: Wind) -> ClaimedFrom:
    """`other` seen from `seat` (the inverse of seat_from); `other` must differ from `seat`."""
    return {3: ClaimedFrom.LEFT, 2: ClaimedFrom.ACROSS, 1: ClaimedFrom.RIGHT}[(other - seat) % 4]


def still_in(winner: Wind, seats_out: tuple[Wind, ...]) -> tuple[Wind, ...]:
    """The players who can still pay: everyone but the winner and the seats out."""
    return tuple(s for s in SEATS if s != winner and s not in seats_out)


def kong_money_taker(discarder: Wind, winners: tuple[Wind, ...]) -> Wind:
    """一炮多响: of several players winning on one discard, the one whose win moves the discarder's kong
    money (呼叫转移's transfer, or a refund): the first in turn order after the discarder."""
    return min(winners, key=lambda s: (s - discarder) % 4)


def kong_money(kind: PriorKong, declarer: Wind, supplier: Wind | None, paying: tuple[Wind, ...]) -> dict[Wind, int]:
    """What each seat paid the declarer for the kong (payer -> amount). `paying`: seats still in,
    the declarer's own seat excluded."""
    payers = [s for s in paying if s != declarer]
    if kind == PriorKong.CONCEALED:
        return {s: 2 for s in payers}
    if kind == PriorKong.ADDED:
        return {s: 1 for s in payers}
    if kind == PriorKong.EXPOSED and supplier is not None:
        return {supplier: 2}
    return {}


def win_payments(
    *,
    winner: Wind,
    value: int,
    self_drawn: bool,
    add_base: bool,
    discarder: Wind | None,
    seats_out: tuple[Wind, ...],
    kong: PriorKong,
    kong_declarer: Wind | None,
    kong_supplier: Wind | None,
    kong_to_winner: bool,
) -> tuple[tuple[Wind, int], ...]:
    """Every seat's signed change, East first. The kong, if any, was declared by `kong_declarer`
    (the discarder on 杠上炮, the robbed player on 抢杠); `kong_to_winner`: 呼叫转移 instead of a refund."""
    delta = dict.fromkeys(SEATS, 0)

    def pay(frm: Wind, to: Wind, amount: int) -> None:
        delta[frm] -= amount
        delta[to] += amount

    if self_drawn:
        for s in still_in(winner, seats_out):
            pay(s, winner, value + (1 if add_base else 0))
    elif discarder is not None:
        pay(discarder, winner, value)
    if kong != PriorKong.NONE and kong_declarer is not None:
        # those still in when the kong was declared: the seats still in now, plus the winner
        paying = tuple(s for s in SEATS if s not in seats_out)
        paid = kong_money(kong, kong_declarer, kong_supplier, paying)
        for payer, amount in paid.items():
            pay(kong_declarer, winner if kong_to_winner else payer, amount)
    return tuple((s, delta[s]) for s in SEATS)

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("sichuan.payments", _OFFSET=_OFFSET)
