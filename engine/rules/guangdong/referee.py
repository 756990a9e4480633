"""The Guangdong 推倒胡 referee: a hand's log replayed on the one-winner table (engine.rules.round) with
2-4 players (option `players`), 136 tiles or 108 (`honors`), no flowers, chows only with `chow_melds`.

Kong money, paid when the kong is made, in base points (S1, bangkaow.com's 推倒胡 rules, 2024: 直杠
"每家1倍, 均由点杠者出", 补杠 "每家出1倍"; S3, the 星辰广东麻将 推倒胡 page, tsave.cn 2018: 暗杠 2 from each,
点杠 3 from the feeder, 补杠 1 from each): an exposed kong 1 per other player, all from the player who
discarded the fourth tile; a concealed kong 2 from each other player; an added kong 1 from each other
player. A robbed kong never happened: its money goes back. A drawn game settles nothing (S1: 荒牌不结算),
so the kong money of the hand goes back too.

The win is settled by the rule set's payments (`Scoring.payments`) with the context derived from the
log: self-drawn, 杠上开花 (the replacement after the winner's kong), 杠爆 (`kong_fed_by`: that kong was
claimed from a discard, whose discarder pays all with 杠爆全包), the robbed kong (抢杠全包), 跟庄
(`follow_dealer`: the other players' first discards all the dealer's first discard, nothing claimed or
declared before), the horses (买马: the tiles of the Win event's `horses`, drawn from the wall).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.hand import Wind
from engine.rules.guangdong.options import GuangdongOptions
from engine.rules.round import Table
from engine.rules.round_log import dealer_won_or_drawn, table_referee
from engine.tiles import HONORS, NUM_KINDS

KONG_MONEY = MappingProxyType({"concealed": 2, "added": 1, "added_later": 1})  # from each other player, base points


@dataclass
class GuangdongTable(Table):
    kong_lines: dict[tuple[int, int], list[int]] = field(default_factory=dict)  # (declarer, tile) -> its transfers

    def on_kong(self, seat: int, tile: int, kind: str, fed_by: int | None) -> None:
        base = self.options.base_points
        start = len(self.transfers)
        if kind == "exposed" and fed_by is not None:
            self.pay("kong", fed_by, seat, (self.seats_n - 1) * base, "exposed")
        else:
            for other in range(self.seats_n):
                if other != seat:
                    self.pay("kong", other, seat, KONG_MONEY[kind] * base, kind)
        self.kong_lines[(seat, tile)] = list(range(start, len(self.transfers)))

    def give_back(self, lines: list[int], detail: str) -> None:
        for i in lines:
            t = self.transfers[i]
            if t.payee is not None:
                self.pay("kong_refund", t.payee, t.payer, t.amount, detail)

    def on_robbed(self, owner: int, tile: int) -> None:
        self.give_back(self.kong_lines.pop((owner, tile), []), "robbed")

    def on_wall_end(self) -> None:
        for lines in self.kong_lines.values():
            self.give_back(lines, "drawn_game")
        self.kong_lines = {}

    def extend_context(self, seat: int, discarder: int | None, kw: dict[str, Any]) -> None:
        if kw.get("replacement_tile") and self.kong_feeder is not None:
            kw["kong_fed_by"] = self.relative(seat, self.kong_feeder)
        first = self.first_discards
        if (len(first) == self.seats_n and first[0][0] == self.dealer
                and all(tile == first[0][1] for _, tile in first) and self.options.follow_dealer_points):
            kw["follow_dealer"] = True


def table(options: GuangdongOptions | None = None) -> GuangdongTable:
    opts = options if options is not None else GuangdongOptions()
    tiles = frozenset(range(NUM_KINDS)) if opts.honors else frozenset(t for t in range(NUM_KINDS) if t not in HONORS)
    return GuangdongTable("guangdong", opts, seats_n=opts.players, tiles=tiles, flowers=False,
                          chows=opts.chow_melds, other_wind=Wind.SOUTH)


# The referee on the contract (engine.referee): a HandLog in, SeatActions and a Settlement out.
REFEREE = table_referee(lambda log: table(log.options), dealer_won_or_drawn)
