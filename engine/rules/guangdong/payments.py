"""Who pays what for a 推倒胡 win.

Seats are winds, East the dealer; with fewer than four players the seats are the first winds (East,
South; East, South, West) and play passes between them in that order. A seat given relative to the
winner (ClaimedFrom) is LEFT = the player before it in turn (上家), RIGHT = the one after it (下家),
ACROSS = the one opposite (four players only); with two players any of them names the other player.

The hand's points = base x the multiple (scoring.py: the multipliers, plus what horses, 马跟杠 and
节节高 add). A self-draw (a win on a replacement tile
included) costs every other player 2 x points; a robbed kong is scored as a self-draw (S1) and, with
抢杠全包, the robbed player pays all of it (else every other player pays 2 x points); with 杠爆全包 the player
who discarded the fourth tile of the kong pays all of a replacement-tile win; a win on a discard costs
the discarder 1 x points. 跟庄 adds: the dealer pays every other player follow_dealer_points x base.
"""

from __future__ import annotations

from engine.errors import BadContextError
from engine.hand import ClaimedFrom, Wind

SEATS = (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH)


def seats(players: int) -> tuple[Wind, ...]:
    return SEATS[:players]


def seat_from(seat: Wind, rel: ClaimedFrom, players: int, field: str) -> Wind:
    """The seat `rel` of `seat` at a table of `players` (BAD_CONTEXT naming `field` where there is none)."""
    if players == 2:
        return Wind((seat + 1) % 2)
    if rel == ClaimedFrom.ACROSS and players == 3:
        raise BadContextError(f"{field}: ACROSS names no seat at a three-player table (LEFT or RIGHT)", field)
    offset = {ClaimedFrom.LEFT: players - 1, ClaimedFrom.RIGHT: 1, ClaimedFrom.ACROSS: 2}[rel]
    return Wind((seat + offset) % players)


def win_payments(*, winner: Wind, players: int, points: int, self_drawn: bool, robbed: Wind | None,
                 rob_pays_all: bool, feeder: Wind | None, discarder: Wind | None, follow_dealer: int
                 ) -> tuple[tuple[int, int], ...]:
    """Every seat's signed change as (seat wind, amount), East first. `robbed`: the robbed kong's owner (a robbed kong,
    paid as a self-draw: `self_drawn` is true; with `rob_pays_all` the robbed player pays every share);
    `feeder`: the player paying all of a replacement-tile win (杠爆全包); `discarder`: a win on a discard;
    `follow_dealer`: what the dealer pays each other player for 跟庄 (0: none)."""
    table = seats(players)
    delta = dict.fromkeys(table, 0)
    others = [s for s in table if s != winner]

    def pay(frm: Wind, to: Wind, amount: int) -> None:
        delta[frm] -= amount
        delta[to] += amount

    share = 2 * points
    if robbed is not None and rob_pays_all:
        pay(robbed, winner, share * len(others))
    elif self_drawn:
        if feeder is not None:
            pay(feeder, winner, share * len(others))
        else:
            for s in others:
                pay(s, winner, share)
    elif discarder is not None:
        pay(discarder, winner, points)
    if follow_dealer:
        for s in table:
            if s != Wind.EAST:
                pay(Wind.EAST, s, follow_dealer)
    return tuple((int(s), delta[s]) for s in table)
