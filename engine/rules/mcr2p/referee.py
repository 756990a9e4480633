"""The two-player table's referee (二人麻将): the one-winner replay (engine.rules.round) with two seats,
characters and honours, no flowers; the dealer sits East and the other player at the seat the option
`non_dealer_seat` names (West when "any", as the rule set's payments seat it). The win is settled by
the rule set's payments (the other player pays total + 8, engine.rules.mcr.payments.two_player).

From the log: self-drawn, 杠上开花, 抢杠和, the last tile, 和绝张, 天和 (the dealer's dealt hand, before
any discard) and 地和 (the other player's first draw, nothing claimed or declared before). A ready
declaration (报听, 天听) has no event in the log, so it is never scored. A drawn game settles nothing.
"""

from __future__ import annotations

from engine.hand import Wind
from engine.rules.mcr2p.facts import TILE_KINDS
from engine.rules.mcr2p.options import TwoPlayerOptions
from engine.rules.round import Table
from engine.rules.round_log import table_referee


def table(options: TwoPlayerOptions | None = None) -> Table:
    opts = options if options is not None else TwoPlayerOptions()
    other = Wind.WEST if opts.non_dealer_seat == "any" else Wind[opts.non_dealer_seat.upper()]
    return Table("mcr2p", opts, seats_n=2, tiles=frozenset(TILE_KINDS), flowers=False, other_wind=other)


# The referee on the contract (engine.referee): a HandLog in, SeatActions and a Settlement out.
REFEREE = table_referee(lambda log: table(log.options))
