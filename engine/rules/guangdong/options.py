"""The options of the Guangdong 推倒胡 rule set, each with its default and where rule sheets differ.

Sources (read for their facts, nothing copied):
- S1: "广东麻将推倒胡的玩法和规则", bangkaow.com (2024-07, https://www.bangkaow.com/xxyw/202407/1475549.html):
  no chow; a win on a discard is 1x and only the discarder pays; a self-draw is 2x and all three pay; a
  robbed kong is scored as the winner's self-draw and the robbed player pays for all three; a win on a
  kong's replacement tile (杠开) is a self-draw, not doubled, and after a kong fed by a discard (点杠) the
  feeder pays that self-draw for everyone.
- S2: the room options of public game-server code for 广东推倒胡 found by text search (the index names no
  repository): 无鬼 / 白板做鬼 / 翻鬼 (and 红中当鬼, 翻双鬼), 无鬼加倍, 七小对 x2, 四鬼胡牌 with a "2倍"
  choice, 杠上花 x2, 抢杠全包, 杠爆全包 (scored x3 there: the feeder pays three shares), 跟庄,
  no / 2 / 4 / 6 / 8 horses, 可抢杠胡, 不带字牌, 2-4 players.
- S3: the 推倒胡 and 潮汕 rooms of guogeer/gofishing-game (GitHub, demo/mahjong/internal/guangdong.go and
  chaoshan.go; read for the rules they score, nothing copied): a horse hit is worth a fixed amount (the
  win's base) unless 马跟底分 makes it worth the hand's points; 马跟杠: each horse hit also scores the
  winner's kongs again (a concealed kong 2, an exposed or added kong 1); 节节高: each consecutive dealer win
  before this one adds to the win (2 per streak where the plain win is 2, i.e. one more base); the 潮汕
  table prices the big hands over the plain win (2): 对对胡 4, 清一色 6, 七对 6, 豪华七对 10, 十三幺 26.
Where they differ the option says so; the defaults follow S1 for payments and S2's usual room choices
for the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, ClassVar

from engine.errors import BadOptionError
from engine.rules.model import Options, Wire, option
from engine.tiles import NUM_KINDS, format_tile, is_honor


class HorseStart(IntEnum):
    """Which seat a horse tile's first position (1, 5, 9, East, Red) names (the proto's GuangdongHorseStart)."""

    WINNER = 1  # counted from the winner: 1 5 9 East Red are the winner's horses (common 推倒胡 rooms)
    DEALER = 2  # counted from the dealer (East): 1 5 9 East Red hit East, 2 6 South Green the next seat ...


PLAYERS = (2, 3, 4)
KONG_BLOOM = (1, 2)
FOUR_GHOSTS = (1, 2)


@dataclass(frozen=True)
class GuangdongOptions(Options):
    rule_set: ClassVar[str] = "guangdong"

    ghosts: tuple[int, ...] = option((), "the wild kinds (鬼牌), as tile indices: none (无鬼), white (白板鬼), red "
                                     "(红中鬼), the tile after the flipped indicator (翻鬼) or the two after it "
                                     "(翻双鬼); empty: no ghosts")
    seven_pairs: bool = option(True, "seven pairs (七对) wins; a four of a kind counts as two pairs")
    thirteen_orphans: bool = option(True, "thirteen orphans (十三幺) wins (ghosts may stand in)")
    four_ghosts_win: bool = option(True, "holding four ghosts wins at once (四鬼胡牌), whatever the rest")
    self_draw_only: bool = option(True, "win only by self-draw or robbing a kong (S1, S2's default); false: also "
                                  "on discards")
    chow_melds: bool = option(False, "declared chows allowed (推倒胡 plays pungs and kongs only: S1, S2)")
    honors: bool = option(True, "the honours are played (136 tiles); false: 108 tiles (S2's 不带字牌)")
    no_ghost_double: bool = option(True, "无鬼加倍: a win holding no ghost, when ghosts are played, is x2 (S2)")
    seven_pairs_double: bool = option(True, "七对 x2 (S2's 七小对 x2; x1 where a sheet prices it plain)")
    kong_bloom_multiplier: int = option(2, "杠上开花 multiplier: 2 (S2's 杠上花 x2) or 1 (S1: not doubled)",
                                        choices=KONG_BLOOM)
    rob_kong_pays_all: bool = option(True, "抢杠全包: the robbed player pays the self-draw for everyone (S1, "
                                     "S2); false: the robbed kong is still scored as a self-draw (S1) and every "
                                     "other player pays their own share")
    kong_burst_pays_all: bool = option(True, "杠爆全包: a win on the replacement tile of a kong fed by a "
                                       "discard is paid for everyone by the feeder (S1, S2)")
    four_ghosts_multiplier: int = option(1, "四鬼胡牌 multiplier, 1 or 2 (S2's 2倍 choice)", choices=FOUR_GHOSTS)
    players: int = option(4, "players at the table (2-4); seats are East, South, West, North in that order",
                          choices=PLAYERS)
    base_points: int = option(1, "底分: the unit every payment is counted in (1-1000)")
    horse_start: HorseStart = option(HorseStart.WINNER, "which seat the horses' first position names (winner or "
                                     "dealer)")
    follow_dealer_points: int = option(1, "跟庄: what the dealer pays each other player, in base points (0-100)")
    horse_value: int = option(0, "买马: 0, each horse hit adds the hand's multiple once more (S3's 马跟底分; the "
                              "default); 1-100, each horse hit adds that many base points to the multiple, whatever "
                              "the hand (S3's fixed horse: 1)")
    horse_kongs: bool = option(False, "马跟杠 (S3): each horse hit also adds the winner's kongs to the multiple, a "
                               "concealed kong 2, an exposed or added kong 1")
    streak_value: int = option(0, "节节高 (S3): each win of context.streak (the winner's consecutive dealer wins "
                               "before this one) adds this many base points to the multiple; 0: not played "
                               "(0-100)")
    all_pungs_multiplier: int = option(1, "碰碰胡 (four pungs or kongs and a pair) multiplies the win by this "
                                       "(1-100; S3's 潮汕 table: 2)")
    one_suit_multiplier: int = option(1, "清一色 (one suit, no honours; ghosts as what they stand for) multiplies "
                                      "the win by this (1-100; S3's 潮汕 table: 3)")
    luxury_seven_pairs_multiplier: int = option(0, "豪华七对 (seven pairs counting a four of a kind): 0, scored "
                                                "as 七对 (the default); 1-100, this multiplier in place of 七对's "
                                                "(S3's 潮汕 table: 5)")
    thirteen_orphans_multiplier: int = option(1, "十三幺 multiplies the win by this (1-100; S3's 潮汕 table: 13)")

    @classmethod
    def from_wire(cls, name: str, value: Any, field: str, wire: Wire) -> Any:
        """`ghosts` is a list of Tile values on the wire (BAD_TILE naming `field[i]` for one that is no tile);
        every other option is as the wire numbers it."""
        return wire.tiles(value, field) if name == "ghosts" else value

    def __post_init__(self) -> None:
        where = "options.guangdong.ghosts"
        ghosts = self.ghosts
        if isinstance(ghosts, list):
            ghosts = tuple(ghosts)
        if not isinstance(ghosts, tuple):
            raise BadOptionError(f"{where}: expected a list of tiles, got {ghosts!r}", where)
        for i, t in enumerate(ghosts):
            if type(t) is not int or not 0 <= t < NUM_KINDS:
                raise BadOptionError(f"{where}[{i}]: {t!r} is not a tile index (0..33)", f"{where}[{i}]")
            if t in ghosts[:i]:
                raise BadOptionError(f"{where}[{i}]: {format_tile(t)} is listed twice", f"{where}[{i}]")
            if not self.honors and is_honor(t):
                raise BadOptionError(f"{where}[{i}]: {format_tile(t)} is an honour, and honours are not played "
                                     "(options.guangdong.honors false)", f"{where}[{i}]")
        object.__setattr__(self, "ghosts", tuple(sorted(ghosts)))
        for name, low, high in (("base_points", 1, 1000), ("follow_dealer_points", 0, 100), ("horse_value", 0, 100),
                                ("streak_value", 0, 100), ("all_pungs_multiplier", 1, 100),
                                ("one_suit_multiplier", 1, 100), ("luxury_seven_pairs_multiplier", 0, 100),
                                ("thirteen_orphans_multiplier", 1, 100)):
            value = getattr(self, name)
            if type(value) is not int or not low <= value <= high:
                raise BadOptionError(f"options.guangdong.{name}: {value!r} is out of range {low}..{high}",
                                     f"options.guangdong.{name}")
        try:
            object.__setattr__(self, "horse_start", HorseStart(self.horse_start))
        except ValueError:
            raise BadOptionError(f"options.guangdong.horse_start: {self.horse_start!r} is not a horse start (1 winner, "
                                 "2 dealer)", "options.guangdong.horse_start") from None


DEFAULT_OPTIONS = GuangdongOptions()
