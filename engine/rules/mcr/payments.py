"""Who pays what for an MCR win: the competition rule, base 8.

The WMO's "Mahjong Competition Rules" (2006), "How to Add Points During Competitions" (the rule the
Mahjong International League's Chinese Official Mahjong rules keep): on a win by discard the discarder
pays the hand's points plus 8 and each of the other two pays 8; on a self-drawn win each of the three pays
the points plus 8. The points are the whole total, flowers (Flower Tiles, one point each) included.

The discarder comes from `WinContext.discarded_by`, relative to the winner (LEFT: the player before the
winner in turn order East, South, West, North; ACROSS; RIGHT: the player after), the winner's seat being
`seat_wind`; robbing a kong counts as a discard by the player whose kong was robbed. A win not self-drawn
that names no discarder has no payments (the points still say what the hand is worth), as in Hong Kong;
a self-drawn win naming a discarder is CONTRADICTORY_CONTEXT (engine.rules.mcr.scoring.evaluate). A hand
below the 8-point minimum cannot be won and has no payments.

The four-player rule is `engine.rules.mcr.scoring.payments` (compiled with the scoring, it runs for every
decomposition); the two-player table (engine.rules.mcr2p) pays by the same base between its two players:
`two_player` here. `seat_of` names the discarder's seat.
"""

from __future__ import annotations

from typing import Final

from engine.hand import ClaimedFrom, Wind

BASE: Final = 8
SEATS: Final = (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH)
# Seats after the winner's, in turn order, of the player a ClaimedFrom names (NONE: nobody).
_OFFSET: Final = (0, 3, 2, 1)  # by ClaimedFrom value: NONE, LEFT, ACROSS, RIGHT


def seat_of(winner: Wind, discarded_by: ClaimedFrom) -> Wind:
    """The seat of the player `discarded_by` names, relative to the winner (LEFT: the one before)."""
    return SEATS[(int(winner) + _OFFSET[int(discarded_by)]) % 4]


def two_player(total: int, winner: Wind, loser: Wind) -> tuple[tuple[int, int], ...]:
    """The two-player table: the other player pays the points plus 8, self-drawn or on a discard (the
    seed's write-up names no payment rule; the base-8 rule applied between two players). East first."""
    amount = total + BASE
    paid = ((int(winner), amount), (int(loser), -amount))
    return paid if winner < loser else (paid[1], paid[0])
