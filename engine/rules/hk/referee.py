"""The Hong Kong referee: a hand's log replayed on the one-winner table (engine.rules.round) and the win
settled by the rule set's payments (`Scoring.payments`: the options' payment rule, 包 where played).

From the log, never from a flag: the flowers (the winner's FlowerTile events, `flower_tiles`), 杠上开花
(the replacement after the winner's kong) and 杠上杠 (after two kongs in a row), 抢杠, 海底捞月 (the last
tile drawn or discarded), 天胡 and 地胡 (the non-dealer's first draw, or the dealer's first discard,
nothing declared before), and 包 (`liable`): the player who discarded the tile the winner claimed for
its third dragon set (大三元), its fourth wind set (大四喜), or its fourth exposed meld, the twelfth
exposed tile (十二张落地); passed only where the rule set plays 包 (option `liability`). A drawn game
settles nothing. The log's DrawnGame is accepted once the wall is empty (no tiles kept back).
"""

from __future__ import annotations

from typing import Any

from engine.hand import MeldKind, Wind
from engine.rules.hk.options import HkOptions
from engine.rules.round import Table
from engine.rules.round_log import dealer_won_or_drawn, table_referee
from engine.tiles import DRAGONS, WINDS


class HkTable(Table):
    def liable_seat(self, seat: int) -> int | None:
        """Who let `seat` complete 大三元, 大四喜 or 十二张落地 by a discard it claimed (None: nobody)."""
        s = self.seats[seat]
        for kinds, need in ((DRAGONS, 3), (WINDS, 4)):
            count = 0
            for m, fed in zip(s.melds, s.melds_from, strict=True):
                if m.kind != MeldKind.CHOW and m.first in kinds:
                    count += 1
                    if count == need and fed is not None:
                        return fed
        exposed = [fed for m, fed in zip(s.melds, s.melds_from, strict=True) if not m.concealed]
        if len(exposed) == 4 and exposed[3] is not None:
            return exposed[3]
        return None

    def extend_context(self, seat: int, discarder: int | None, kw: dict[str, Any]) -> None:
        if self.flowers:
            flowers = self.seats[seat].flowers
            kw["flowers"] = len(flowers)
            kw["flower_tiles"] = tuple(sorted(flowers))
        if kw.get("replacement_tile") and self.turn_kongs >= 2:
            kw["kong_on_kong"] = True
        if (discarder == self.dealer and seat != self.dealer and self.seats[self.dealer].discarded == 1
                and not self.interrupted and not any(x.melds for x in self.seats)):
            kw["earthly"] = True  # 地胡 on the dealer's first discard
        if getattr(self.options, "liability", False):
            liable = self.liable_seat(seat)
            if liable is not None:
                kw["liable"] = self.relative(seat, liable)


def table(options: HkOptions | None = None, prevalent: Wind = Wind.EAST) -> HkTable:
    opts = options if options is not None else HkOptions()
    return HkTable("hk", opts, prevalent=prevalent, flowers=opts.flowers)


# The referee on the contract (engine.referee): a HandLog in, SeatActions and a Settlement out.
REFEREE = table_referee(lambda log: table(log.options, log.prevalent_wind), dealer_won_or_drawn)
