"""The two-player fan table as data (the package contract: engine/rules/model.py): the ids and one row each.

Each row: this rule set's own id (`Fan`: 1-61 in the order of the seed's table, 88 points first), English
name (pymahjonggb's MCR name where the fan exists there), Chinese name as in the seed's table, points,
`excludes` (不计), `excludes_on_sets` (not counted on the excluding fan's sets), `combo` (a combination of
sets under the account-once rule) and where it is scored. The predicate of each row is in predicates.py;
the exclusions are applied by the mechanism every rule set shares (engine.rules.principles; see the package
docstring).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from types import MappingProxyType

from engine.results import FanDef
from engine.rules.model import FanRow, FanTable, Scope


class Fan(IntEnum):
    """This rule set's own fan ids: 1-61 in the order of the seed's table (88 points first)."""

    BIG_FOUR_WINDS = 1
    BIG_THREE_DRAGONS = 2
    NINE_GATES = 3
    BIG_SEVEN_STARS = 4
    FOUR_KONGS = 5
    SEVEN_SHIFTED_PAIRS = 6
    HEAVENLY_HAND = 7
    EARTHLY_HAND = 8
    LITTLE_FOUR_WINDS = 9
    LITTLE_THREE_DRAGONS = 10
    ALL_HONORS = 11
    FOUR_CONCEALED_PUNGS = 12
    PURE_TERMINAL_CHOWS = 13
    QUADRUPLE_CHOW = 14
    FOUR_PURE_SHIFTED_PUNGS = 15
    FOUR_PURE_SHIFTED_CHOWS = 16
    THREE_KONGS = 17
    ALL_TERMINALS_AND_HONORS = 18
    SEVEN_PAIRS = 19
    FULL_FLUSH = 20
    PURE_TRIPLE_CHOW = 21
    PURE_SHIFTED_PUNGS = 22
    PURE_STRAIGHT = 23
    PURE_SHIFTED_CHOWS = 24
    HEAVENLY_READY = 25
    THREE_CONCEALED_PUNGS = 26
    UPPER_FOUR = 27
    LOWER_FOUR = 28
    BIG_THREE_WINDS = 29
    LAST_TILE_DRAW = 30
    LAST_TILE_CLAIM = 31
    OUT_WITH_REPLACEMENT_TILE = 32
    ROBBING_THE_KONG = 33
    ALL_PUNGS = 34
    TWO_CONCEALED_KONGS = 35
    HALF_FLUSH = 36
    MELDED_HAND = 37
    TWO_DRAGONS_PUNGS = 38
    OUTSIDE_HAND = 39
    FULLY_CONCEALED_HAND = 40
    TWO_MELDED_KONGS = 41
    LAST_TILE = 42
    DRAGON_PUNG = 43
    SEAT_WIND = 44
    CONCEALED_HAND = 45
    ALL_CHOWS = 46
    TILE_HOG = 47
    TWO_CONCEALED_PUNGS = 48
    CONCEALED_KONG = 49
    ALL_SIMPLES = 50
    READY_DECLARATION = 51
    PURE_DOUBLE_CHOW = 52
    SHORT_STRAIGHT = 53
    TWO_TERMINAL_CHOWS = 54
    PUNG_OF_TERMINALS_OR_HONORS = 55
    MELDED_KONG = 56
    EDGE_WAIT = 57
    CLOSED_WAIT = 58
    SINGLE_WAIT = 59
    SELF_DRAWN = 60
    TWO_FIVE_EIGHT_PAIR = 61



F = Fan
_HAND, _SETS, _SITUATION = Scope.HAND, Scope.SETS, Scope.SITUATION

# Exclusions of a fan counted per set (its scope SETS) are `excludes_on_sets`: only its occurrences inside the
# excluding fan's sets go.
TABLE = FanTable("points", (
    # 88
    FanRow(F.BIG_FOUR_WINDS, "Big Four Winds", "大四喜", 88,
           excludes=(F.LITTLE_FOUR_WINDS, F.BIG_THREE_WINDS, F.ALL_PUNGS),
           excludes_on_sets=(F.SEAT_WIND, F.PUNG_OF_TERMINALS_OR_HONORS), scope=_HAND),
    FanRow(F.BIG_THREE_DRAGONS, "Big Three Dragons", "大三元", 88,
           excludes=(F.TWO_DRAGONS_PUNGS,),
           excludes_on_sets=(F.DRAGON_PUNG, F.PUNG_OF_TERMINALS_OR_HONORS), scope=_HAND),
    FanRow(F.NINE_GATES, "Nine Gates", "九莲宝灯", 88,
           excludes=(F.FULL_FLUSH, F.CONCEALED_HAND, F.SELF_DRAWN, F.FULLY_CONCEALED_HAND), scope=_HAND),
    FanRow(F.BIG_SEVEN_STARS, "Big Seven Stars", "大七星", 88,
           excludes=(F.SEVEN_PAIRS, F.OUTSIDE_HAND, F.SINGLE_WAIT, F.CONCEALED_HAND, F.SELF_DRAWN, F.ALL_HONORS,
               F.FULLY_CONCEALED_HAND), scope=_HAND),
    FanRow(F.FOUR_KONGS, "Four Kongs", "四杠", 88,
           excludes=(F.THREE_KONGS, F.TWO_MELDED_KONGS, F.MELDED_KONG, F.SINGLE_WAIT, F.TWO_CONCEALED_KONGS,
               F.CONCEALED_KONG, F.ALL_PUNGS), scope=_HAND),
    FanRow(F.SEVEN_SHIFTED_PAIRS, "Seven Shifted Pairs", "连七对", 88,
           excludes=(F.SEVEN_PAIRS, F.SINGLE_WAIT, F.CONCEALED_HAND, F.SELF_DRAWN, F.FULL_FLUSH,
               F.FULLY_CONCEALED_HAND), scope=_HAND),
    FanRow(F.HEAVENLY_HAND, "Heavenly Hand", "天胡", 88,
           excludes=(F.EDGE_WAIT, F.CLOSED_WAIT, F.SINGLE_WAIT, F.FULLY_CONCEALED_HAND, F.LAST_TILE, F.SELF_DRAWN),
               scope=_HAND),
    FanRow(F.EARTHLY_HAND, "Earthly Hand", "地胡", 88, excludes=(F.SELF_DRAWN, F.FULLY_CONCEALED_HAND), scope=_HAND),
    # 64
    FanRow(F.LITTLE_FOUR_WINDS, "Little Four Winds", "小四喜", 64,
           excludes=(F.BIG_THREE_WINDS,),
           excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_HAND),
    FanRow(F.LITTLE_THREE_DRAGONS, "Little Three Dragons", "小三元", 64,
           excludes=(F.TWO_DRAGONS_PUNGS,),
           excludes_on_sets=(F.DRAGON_PUNG, F.PUNG_OF_TERMINALS_OR_HONORS), scope=_HAND),
    FanRow(F.ALL_HONORS, "All Honors", "字一色", 64,
           excludes=(F.ALL_PUNGS, F.ALL_TERMINALS_AND_HONORS, F.OUTSIDE_HAND),
           excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_HAND),
    FanRow(F.FOUR_CONCEALED_PUNGS, "Four Concealed Pungs", "四暗刻", 64,
           excludes=(F.CONCEALED_HAND, F.ALL_PUNGS, F.THREE_CONCEALED_PUNGS, F.TWO_CONCEALED_PUNGS,
               F.FULLY_CONCEALED_HAND), scope=_HAND),
    FanRow(F.PURE_TERMINAL_CHOWS, "Pure Terminal Chows", "一色双龙会", 64,
           excludes=(F.ALL_CHOWS, F.SEVEN_PAIRS, F.FULL_FLUSH, F.TWO_FIVE_EIGHT_PAIR),
           excludes_on_sets=(F.PURE_DOUBLE_CHOW, F.TWO_TERMINAL_CHOWS), scope=_HAND, combo=True),
    # 48
    FanRow(F.QUADRUPLE_CHOW, "Quadruple Chow", "一色四同顺", 48,
           excludes=(F.PURE_SHIFTED_PUNGS, F.PURE_TRIPLE_CHOW, F.SEVEN_PAIRS),
           excludes_on_sets=(F.PURE_DOUBLE_CHOW, F.TILE_HOG), scope=_HAND, combo=True),
    FanRow(F.FOUR_PURE_SHIFTED_PUNGS, "Four Pure Shifted Pungs", "一色四节高", 48,
           excludes=(F.PURE_TRIPLE_CHOW, F.PURE_SHIFTED_PUNGS, F.ALL_PUNGS), scope=_HAND, combo=True),
    # 32
    FanRow(F.FOUR_PURE_SHIFTED_CHOWS, "Four Pure Shifted Chows", "一色四步高", 32,
           excludes=(F.PURE_SHIFTED_CHOWS,), scope=_HAND, combo=True),
    FanRow(F.THREE_KONGS, "Three Kongs", "三杠", 32,
           excludes=(F.TWO_MELDED_KONGS, F.MELDED_KONG, F.TWO_CONCEALED_KONGS, F.CONCEALED_KONG), scope=_HAND),
    FanRow(F.ALL_TERMINALS_AND_HONORS, "All Terminals and Honors", "混幺九", 32,
           excludes=(F.ALL_PUNGS, F.OUTSIDE_HAND),
           excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_HAND),
    # 24
    FanRow(F.SEVEN_PAIRS, "Seven Pairs", "七对", 24,
           excludes=(F.CONCEALED_HAND, F.FULLY_CONCEALED_HAND, F.SINGLE_WAIT), scope=_HAND),
    FanRow(F.FULL_FLUSH, "Full Flush", "清一色", 24, scope=_HAND),
    FanRow(F.PURE_TRIPLE_CHOW, "Pure Triple Chow", "一色三同顺", 24,
           excludes=(F.PURE_SHIFTED_PUNGS,),
           excludes_on_sets=(F.PURE_DOUBLE_CHOW,), scope=_HAND, combo=True),
    FanRow(F.PURE_SHIFTED_PUNGS, "Pure Shifted Pungs", "一色三节高", 24,
           excludes=(F.PURE_TRIPLE_CHOW,), scope=_HAND, combo=True),
    # 16
    FanRow(F.PURE_STRAIGHT, "Pure Straight", "清龙", 16,
           excludes_on_sets=(F.SHORT_STRAIGHT, F.TWO_TERMINAL_CHOWS), scope=_HAND, combo=True),
    FanRow(F.PURE_SHIFTED_CHOWS, "Pure Shifted Chows", "一色三步高", 16, scope=_HAND, combo=True),
    FanRow(F.HEAVENLY_READY, "Heavenly Ready", "天听", 16, excludes=(F.READY_DECLARATION,), scope=_SITUATION),
    FanRow(F.THREE_CONCEALED_PUNGS, "Three Concealed Pungs", "三暗刻", 16,
           excludes=(F.TWO_CONCEALED_PUNGS,), scope=_HAND),
    # 12
    FanRow(F.UPPER_FOUR, "Upper Four", "大于五", 12, scope=_HAND),
    FanRow(F.LOWER_FOUR, "Lower Four", "小于五", 12, scope=_HAND),
    FanRow(F.BIG_THREE_WINDS, "Big Three Winds", "三风刻", 12,
           excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_HAND),
    # 8
    FanRow(F.LAST_TILE_DRAW, "Last Tile Draw", "妙手回春", 8, excludes=(F.SELF_DRAWN,), scope=_SITUATION),
    FanRow(F.LAST_TILE_CLAIM, "Last Tile Claim", "海底捞月", 8, scope=_SITUATION),
    FanRow(F.OUT_WITH_REPLACEMENT_TILE, "Out with Replacement Tile", "杠上开花", 8,
           excludes=(F.SELF_DRAWN,), scope=_SITUATION),
    FanRow(F.ROBBING_THE_KONG, "Robbing The Kong", "抢杠胡", 8, excludes=(F.LAST_TILE,), scope=_SITUATION),
    # 6
    FanRow(F.ALL_PUNGS, "All Pungs", "碰碰胡", 6, scope=_HAND),
    FanRow(F.TWO_CONCEALED_KONGS, "Two Concealed Kongs", "双暗杠", 6,
           excludes=(F.CONCEALED_KONG, F.TWO_CONCEALED_PUNGS), scope=_HAND),
    FanRow(F.HALF_FLUSH, "Half Flush", "混一色", 6, scope=_HAND),
    FanRow(F.MELDED_HAND, "Melded Hand", "全求人", 6, excludes=(F.SINGLE_WAIT,), scope=_HAND),
    FanRow(F.TWO_DRAGONS_PUNGS, "Two Dragons Pungs", "双箭刻", 6,
           excludes_on_sets=(F.DRAGON_PUNG, F.PUNG_OF_TERMINALS_OR_HONORS), scope=_HAND),
    # 4
    FanRow(F.OUTSIDE_HAND, "Outside Hand", "全带幺", 4, scope=_HAND),
    FanRow(F.FULLY_CONCEALED_HAND, "Fully Concealed Hand", "不求人", 4, excludes=(F.SELF_DRAWN,), scope=_SITUATION),
    FanRow(F.TWO_MELDED_KONGS, "Two Melded Kongs", "双明杠", 4, excludes=(F.MELDED_KONG,), scope=_HAND),
    FanRow(F.LAST_TILE, "Last Tile", "和绝张", 4, scope=_SITUATION),
    # 2
    FanRow(F.DRAGON_PUNG, "Dragon Pung", "箭刻", 2, excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_SETS),
    FanRow(F.SEAT_WIND, "Seat Wind", "门风刻", 2, excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_SETS),
    FanRow(F.CONCEALED_HAND, "Concealed Hand", "门前清", 2, scope=_SITUATION),
    FanRow(F.ALL_CHOWS, "All Chows", "平胡", 2, scope=_HAND),
    FanRow(F.TILE_HOG, "Tile Hog", "四归一", 2, scope=_SETS),
    FanRow(F.TWO_CONCEALED_PUNGS, "Two Concealed Pungs", "双暗刻", 2, scope=_HAND),
    FanRow(F.CONCEALED_KONG, "Concealed Kong", "暗杠", 2, scope=_HAND),
    FanRow(F.ALL_SIMPLES, "All Simples", "断幺", 2, scope=_HAND),
    FanRow(F.READY_DECLARATION, "Ready Declaration", "报听", 2, scope=_SITUATION),
    # 1
    FanRow(F.PURE_DOUBLE_CHOW, "Pure Double Chow", "一般高", 1, scope=_SETS, combo=True),
    FanRow(F.SHORT_STRAIGHT, "Short Straight", "连六", 1, scope=_SETS, combo=True),
    FanRow(F.TWO_TERMINAL_CHOWS, "Two Terminal Chows", "老少副", 1, scope=_SETS, combo=True),
    FanRow(F.PUNG_OF_TERMINALS_OR_HONORS, "Pung of Terminals or Honors", "幺九刻", 1, scope=_SETS),
    FanRow(F.MELDED_KONG, "Melded Kong", "明杠", 1, scope=_HAND),
    FanRow(F.EDGE_WAIT, "Edge Wait", "边张", 1, scope=_HAND),
    FanRow(F.CLOSED_WAIT, "Closed Wait", "坎张", 1, scope=_HAND),
    FanRow(F.SINGLE_WAIT, "Single Wait", "单钓将", 1, scope=_HAND),
    FanRow(F.SELF_DRAWN, "Self-Drawn", "自摸", 1, scope=_SITUATION),
    FanRow(F.TWO_FIVE_EIGHT_PAIR, "Two-Five-Eight Pair", "二五八将", 1, scope=_HAND),
), Fan)
FANS: tuple[FanDef, ...] = TABLE.defs
BY_ZH: Mapping[str, FanDef] = MappingProxyType({f.name_zh: f for f in FANS})
