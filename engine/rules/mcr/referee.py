"""The MCR referee: a hand's log replayed on the one-winner table (engine.rules.round) and settled by
the competition rule's payments (`Scoring.payments`, engine.rules.mcr.payments: base 8).

From the log, never from a flag: the flowers (the winner's FlowerTile events: Flower Tiles, one point
each), 和绝张 (the winning tile's three other copies already shown: discards not claimed and exposed
melds), 妙手回春 / 海底捞月 (the last wall tile drawn, or the discard after it), 杠上开花 (the draw
after the winner's own kong, not a flower's replacement), 抢杠和 (a win on an added kong's tile, which
never counts 和绝张), the seat and prevalent winds. A drawn game settles nothing.
"""

from __future__ import annotations

from typing import Any

from engine.hand import Wind
from engine.rules.mcr.options import McrOptions
from engine.rules.round import Table
from engine.rules.round_log import table_referee


class McrTable(Table):
    def extend_context(self, seat: int, discarder: int | None, kw: dict[str, Any]) -> None:
        flowers = self.seats[seat].flowers
        kw["flowers"] = len(flowers)
        kw["flower_tiles"] = tuple(sorted(flowers))
        if kw.get("robbing_kong"):
            kw.pop("last_of_kind", None)


def table(options: McrOptions | None = None, prevalent: Wind = Wind.EAST) -> McrTable:
    return McrTable("mcr", options if options is not None else McrOptions(), prevalent=prevalent)


# The referee on the contract (engine.referee): a HandLog in, SeatActions and a Settlement out.
REFEREE = table_referee(lambda log: table(log.options, log.prevalent_wind))
