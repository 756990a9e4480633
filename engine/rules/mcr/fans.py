"""The 81 MCR fans (plus the oracle's combined-kong fan) as a fan table (engine.rules.model): data only.

Each row: official id (`Fan`), English name exactly as pymahjonggb prints it in verbose mode,
Chinese name, points per occurrence, `excludes` (fans not counted when this one is: the rules' 不计
lists) and `excludes_on_sets` (fans not counted *on the sets this fan was scored on*, the non-repeat
principle applied per set, e.g. a prevalent-wind pung is not also a pung of terminals or honours),
and where the fan is scored (`scope`: which kind of predicate finds it, predicates.py). The predicates are
in predicates.py, one per row; engine.rules.principles applies the exclusions.

Id 82 "Concealed Kong and Melded Kong" (明暗杠, 5 points) is not one of the 81: pymahjonggb scores one
concealed plus one melded kong as this single fan instead of Concealed Kong (2) + Melded Kong (1).
We follow it so totals agree; it sits outside 1-81 so official ids stay official.
"""

from __future__ import annotations

from enum import IntEnum

from engine.registry import REGISTRY
from engine.results import FanDef
from engine.rules.model import FanRow, FanTable, Scope


class Fan(IntEnum):
    """The official fan ids (1-81) and pymahjonggb's combined-kong fan (82)."""

    BIG_FOUR_WINDS = 1
    BIG_THREE_DRAGONS = 2
    ALL_GREEN = 3
    NINE_GATES = 4
    FOUR_KONGS = 5
    SEVEN_SHIFTED_PAIRS = 6
    THIRTEEN_ORPHANS = 7
    ALL_TERMINALS = 8
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
    GREATER_HONORS_AND_KNITTED_TILES = 20
    ALL_EVEN_PUNGS = 21
    FULL_FLUSH = 22
    PURE_TRIPLE_CHOW = 23
    PURE_SHIFTED_PUNGS = 24
    UPPER_TILES = 25
    MIDDLE_TILES = 26
    LOWER_TILES = 27
    PURE_STRAIGHT = 28
    THREE_SUITED_TERMINAL_CHOWS = 29
    PURE_SHIFTED_CHOWS = 30
    ALL_FIVE = 31
    TRIPLE_PUNG = 32
    THREE_CONCEALED_PUNGS = 33
    LESSER_HONORS_AND_KNITTED_TILES = 34
    KNITTED_STRAIGHT = 35
    UPPER_FOUR = 36
    LOWER_FOUR = 37
    BIG_THREE_WINDS = 38
    MIXED_STRAIGHT = 39
    REVERSIBLE_TILES = 40
    MIXED_TRIPLE_CHOW = 41
    MIXED_SHIFTED_PUNGS = 42
    CHICKEN_HAND = 43
    LAST_TILE_DRAW = 44
    LAST_TILE_CLAIM = 45
    OUT_WITH_REPLACEMENT_TILE = 46
    ROBBING_THE_KONG = 47
    ALL_PUNGS = 48
    HALF_FLUSH = 49
    MIXED_SHIFTED_CHOWS = 50
    ALL_TYPES = 51
    MELDED_HAND = 52
    TWO_CONCEALED_KONGS = 53
    TWO_DRAGONS_PUNGS = 54
    OUTSIDE_HAND = 55
    FULLY_CONCEALED_HAND = 56
    TWO_MELDED_KONGS = 57
    LAST_TILE = 58
    DRAGON_PUNG = 59
    PREVALENT_WIND = 60
    SEAT_WIND = 61
    CONCEALED_HAND = 62
    ALL_CHOWS = 63
    TILE_HOG = 64
    DOUBLE_PUNG = 65
    TWO_CONCEALED_PUNGS = 66
    CONCEALED_KONG = 67
    ALL_SIMPLES = 68
    PURE_DOUBLE_CHOW = 69
    MIXED_DOUBLE_CHOW = 70
    SHORT_STRAIGHT = 71
    TWO_TERMINAL_CHOWS = 72
    PUNG_OF_TERMINALS_OR_HONORS = 73
    MELDED_KONG = 74
    ONE_VOIDED_SUIT = 75
    NO_HONORS = 76
    EDGE_WAIT = 77
    CLOSED_WAIT = 78
    SINGLE_WAIT = 79
    SELF_DRAWN = 80
    FLOWER_TILES = 81
    CONCEALED_KONG_AND_MELDED_KONG = 82


F = Fan
_HAND, _SETS, _SITUATION, _BONUS = Scope.HAND, Scope.SETS, Scope.SITUATION, Scope.BONUS

TABLE = FanTable(
    "points",
    (
        # 88 points
        FanRow(
            F.BIG_FOUR_WINDS,
            "Big Four Winds",
            "大四喜",
            88,
            excludes=(F.BIG_THREE_WINDS, F.ALL_PUNGS, F.PREVALENT_WIND, F.SEAT_WIND, F.PUNG_OF_TERMINALS_OR_HONORS),
            scope=_SETS,
        ),
        FanRow(
            F.BIG_THREE_DRAGONS,
            "Big Three Dragons",
            "大三元",
            88,
            excludes=(F.TWO_DRAGONS_PUNGS, F.DRAGON_PUNG),
            scope=_SETS,
        ),
        FanRow(F.ALL_GREEN, "All Green", "绿一色", 88, excludes=(F.HALF_FLUSH, F.ONE_VOIDED_SUIT), scope=_HAND),
        FanRow(
            F.NINE_GATES,
            "Nine Gates",
            "九莲宝灯",
            88,
            excludes=(F.FULL_FLUSH, F.FULLY_CONCEALED_HAND, F.CONCEALED_HAND, F.ONE_VOIDED_SUIT, F.NO_HONORS),
            excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,),
            scope=_SETS,
        ),
        FanRow(
            F.FOUR_KONGS,
            "Four Kongs",
            "四杠",
            88,
            excludes=(
                F.THREE_KONGS,
                F.ALL_PUNGS,
                F.TWO_CONCEALED_KONGS,
                F.TWO_MELDED_KONGS,
                F.CONCEALED_KONG,
                F.MELDED_KONG,
                F.SINGLE_WAIT,
                F.CONCEALED_KONG_AND_MELDED_KONG,
            ),
            scope=_SETS,
        ),
        FanRow(
            F.SEVEN_SHIFTED_PAIRS,
            "Seven Shifted Pairs",
            "连七对",
            88,
            excludes=(
                F.SEVEN_PAIRS,
                F.FULL_FLUSH,
                F.FULLY_CONCEALED_HAND,
                F.CONCEALED_HAND,
                F.ONE_VOIDED_SUIT,
                F.NO_HONORS,
                F.SINGLE_WAIT,
            ),
            scope=_SETS,
        ),
        FanRow(
            F.THIRTEEN_ORPHANS,
            "Thirteen Orphans",
            "十三幺",
            88,
            excludes=(F.ALL_TERMINALS_AND_HONORS, F.ALL_TYPES, F.FULLY_CONCEALED_HAND, F.CONCEALED_HAND, F.SINGLE_WAIT),
            scope=_SETS,
        ),
        # 64 points
        FanRow(
            F.ALL_TERMINALS,
            "All Terminals",
            "清幺九",
            64,
            excludes=(
                F.ALL_TERMINALS_AND_HONORS,
                F.ALL_PUNGS,
                F.OUTSIDE_HAND,
                F.DOUBLE_PUNG,
                F.PUNG_OF_TERMINALS_OR_HONORS,
                F.NO_HONORS,
            ),
            scope=_HAND,
        ),
        FanRow(
            F.LITTLE_FOUR_WINDS,
            "Little Four Winds",
            "小四喜",
            64,
            excludes=(F.BIG_THREE_WINDS, F.PUNG_OF_TERMINALS_OR_HONORS),
            scope=_SETS,
        ),
        FanRow(
            F.LITTLE_THREE_DRAGONS,
            "Little Three Dragons",
            "小三元",
            64,
            excludes=(F.TWO_DRAGONS_PUNGS, F.DRAGON_PUNG),
            scope=_SETS,
        ),
        FanRow(
            F.ALL_HONORS,
            "All Honors",
            "字一色",
            64,
            excludes=(
                F.ALL_TERMINALS_AND_HONORS,
                F.ALL_PUNGS,
                F.OUTSIDE_HAND,
                F.PUNG_OF_TERMINALS_OR_HONORS,
                F.ONE_VOIDED_SUIT,
            ),
            scope=_HAND,
        ),
        FanRow(
            F.FOUR_CONCEALED_PUNGS,
            "Four Concealed Pungs",
            "四暗刻",
            64,
            excludes=(F.ALL_PUNGS, F.FULLY_CONCEALED_HAND, F.CONCEALED_HAND),
            scope=_SETS,
        ),
        FanRow(
            F.PURE_TERMINAL_CHOWS,
            "Pure Terminal Chows",
            "一色双龙会",
            64,
            excludes=(
                F.FULL_FLUSH,
                F.ALL_CHOWS,
                F.PURE_DOUBLE_CHOW,
                F.TWO_TERMINAL_CHOWS,
                F.ONE_VOIDED_SUIT,
                F.NO_HONORS,
            ),
            scope=_SETS,
        ),
        # 48 points
        FanRow(
            F.QUADRUPLE_CHOW,
            "Quadruple Chow",
            "一色四同顺",
            48,
            excludes=(F.PURE_TRIPLE_CHOW, F.PURE_SHIFTED_PUNGS, F.TILE_HOG, F.PURE_DOUBLE_CHOW),
            scope=_SETS,
        ),
        FanRow(
            F.FOUR_PURE_SHIFTED_PUNGS,
            "Four Pure Shifted Pungs",
            "一色四节高",
            48,
            excludes=(F.PURE_SHIFTED_PUNGS, F.ALL_PUNGS),
            scope=_SETS,
        ),
        # 32 points
        FanRow(
            F.FOUR_PURE_SHIFTED_CHOWS,
            "Four Pure Shifted Chows",
            "一色四步高",
            32,
            excludes=(F.PURE_SHIFTED_CHOWS, F.SHORT_STRAIGHT, F.TWO_TERMINAL_CHOWS),
            scope=_SETS,
        ),
        FanRow(
            F.THREE_KONGS,
            "Three Kongs",
            "三杠",
            32,
            excludes=(
                F.TWO_CONCEALED_KONGS,
                F.TWO_MELDED_KONGS,
                F.CONCEALED_KONG,
                F.MELDED_KONG,
                F.CONCEALED_KONG_AND_MELDED_KONG,
            ),
            scope=_SETS,
        ),
        FanRow(
            F.ALL_TERMINALS_AND_HONORS,
            "All Terminals and Honors",
            "混幺九",
            32,
            excludes=(F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS),
            scope=_HAND,
        ),
        # 24 points
        FanRow(
            F.SEVEN_PAIRS,
            "Seven Pairs",
            "七对",
            24,
            excludes=(F.FULLY_CONCEALED_HAND, F.CONCEALED_HAND, F.SINGLE_WAIT),
            scope=_SETS,
        ),
        FanRow(
            F.GREATER_HONORS_AND_KNITTED_TILES,
            "Greater Honors and Knitted Tiles",
            "七星不靠",
            24,
            excludes=(
                F.LESSER_HONORS_AND_KNITTED_TILES,
                F.ALL_TYPES,
                F.FULLY_CONCEALED_HAND,
                F.CONCEALED_HAND,
                F.SINGLE_WAIT,
            ),
            scope=_SETS,
        ),
        FanRow(
            F.ALL_EVEN_PUNGS,
            "All Even Pungs",
            "全双刻",
            24,
            excludes=(F.ALL_PUNGS, F.ALL_SIMPLES, F.NO_HONORS),
            scope=_SETS,
        ),
        FanRow(F.FULL_FLUSH, "Full Flush", "清一色", 24, excludes=(F.ONE_VOIDED_SUIT, F.NO_HONORS), scope=_HAND),
        FanRow(
            F.PURE_TRIPLE_CHOW,
            "Pure Triple Chow",
            "一色三同顺",
            24,
            excludes=(F.PURE_SHIFTED_PUNGS, F.PURE_DOUBLE_CHOW),
            scope=_SETS,
        ),
        FanRow(F.PURE_SHIFTED_PUNGS, "Pure Shifted Pungs", "一色三节高", 24, scope=_SETS),
        FanRow(F.UPPER_TILES, "Upper Tiles", "全大", 24, excludes=(F.UPPER_FOUR, F.NO_HONORS), scope=_HAND),
        FanRow(F.MIDDLE_TILES, "Middle Tiles", "全中", 24, excludes=(F.ALL_SIMPLES, F.NO_HONORS), scope=_HAND),
        FanRow(F.LOWER_TILES, "Lower Tiles", "全小", 24, excludes=(F.LOWER_FOUR, F.NO_HONORS), scope=_HAND),
        # 16 points
        FanRow(
            F.PURE_STRAIGHT, "Pure Straight", "清龙", 16, excludes=(F.SHORT_STRAIGHT, F.TWO_TERMINAL_CHOWS), scope=_SETS
        ),
        FanRow(
            F.THREE_SUITED_TERMINAL_CHOWS,
            "Three-Suited Terminal Chows",
            "三色双龙会",
            16,
            excludes=(F.ALL_CHOWS, F.MIXED_DOUBLE_CHOW, F.TWO_TERMINAL_CHOWS, F.NO_HONORS),
            scope=_SETS,
        ),
        FanRow(F.PURE_SHIFTED_CHOWS, "Pure Shifted Chows", "一色三步高", 16, scope=_SETS),
        FanRow(F.ALL_FIVE, "All Five", "全带五", 16, excludes=(F.ALL_SIMPLES, F.NO_HONORS), scope=_SETS),
        FanRow(F.TRIPLE_PUNG, "Triple Pung", "三同刻", 16, scope=_SETS),
        FanRow(F.THREE_CONCEALED_PUNGS, "Three Concealed Pungs", "三暗刻", 16, scope=_SETS),
        # 12 points
        FanRow(
            F.LESSER_HONORS_AND_KNITTED_TILES,
            "Lesser Honors and Knitted Tiles",
            "全不靠",
            12,
            excludes=(F.ALL_TYPES, F.FULLY_CONCEALED_HAND, F.CONCEALED_HAND, F.SINGLE_WAIT),
            scope=_SETS,
        ),
        FanRow(F.KNITTED_STRAIGHT, "Knitted Straight", "组合龙", 12, scope=_SETS),
        FanRow(F.UPPER_FOUR, "Upper Four", "大于五", 12, excludes=(F.NO_HONORS,), scope=_HAND),
        FanRow(F.LOWER_FOUR, "Lower Four", "小于五", 12, excludes=(F.NO_HONORS,), scope=_HAND),
        FanRow(
            F.BIG_THREE_WINDS,
            "Big Three Winds",
            "三风刻",
            12,
            excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,),
            scope=_SETS,
        ),
        # 8 points
        FanRow(F.MIXED_STRAIGHT, "Mixed Straight", "花龙", 8, scope=_SETS),
        FanRow(F.REVERSIBLE_TILES, "Reversible Tiles", "推不倒", 8, excludes=(F.ONE_VOIDED_SUIT,), scope=_HAND),
        FanRow(F.MIXED_TRIPLE_CHOW, "Mixed Triple Chow", "三色三同顺", 8, scope=_SETS),
        FanRow(F.MIXED_SHIFTED_PUNGS, "Mixed Shifted Pungs", "三色三节高", 8, scope=_SETS),
        FanRow(F.CHICKEN_HAND, "Chicken Hand", "无番和", 8, scope=_HAND),
        FanRow(F.LAST_TILE_DRAW, "Last Tile Draw", "妙手回春", 8, excludes=(F.SELF_DRAWN,), scope=_SITUATION),
        FanRow(F.LAST_TILE_CLAIM, "Last Tile Claim", "海底捞月", 8, scope=_SITUATION),
        FanRow(
            F.OUT_WITH_REPLACEMENT_TILE,
            "Out with Replacement Tile",
            "杠上开花",
            8,
            excludes=(F.SELF_DRAWN,),
            scope=_SITUATION,
        ),
        FanRow(F.ROBBING_THE_KONG, "Robbing The Kong", "抢杠和", 8, excludes=(F.LAST_TILE,), scope=_SITUATION),
        # 6 points
        FanRow(F.ALL_PUNGS, "All Pungs", "碰碰和", 6, scope=_SETS),
        FanRow(F.HALF_FLUSH, "Half Flush", "混一色", 6, excludes=(F.ONE_VOIDED_SUIT,), scope=_HAND),
        FanRow(F.MIXED_SHIFTED_CHOWS, "Mixed Shifted Chows", "三色三步高", 6, scope=_SETS),
        FanRow(F.ALL_TYPES, "All Types", "五门齐", 6, scope=_HAND),
        FanRow(F.MELDED_HAND, "Melded Hand", "全求人", 6, excludes=(F.SINGLE_WAIT,), scope=_SITUATION),
        FanRow(
            F.TWO_CONCEALED_KONGS,
            "Two Concealed Kongs",
            "双暗杠",
            6,
            excludes=(F.TWO_CONCEALED_PUNGS, F.CONCEALED_KONG),
            scope=_SETS,
        ),
        FanRow(F.TWO_DRAGONS_PUNGS, "Two Dragons Pungs", "双箭刻", 6, excludes=(F.DRAGON_PUNG,), scope=_SETS),
        # 4 points
        FanRow(F.OUTSIDE_HAND, "Outside Hand", "全带幺", 4, scope=_SETS),
        FanRow(F.FULLY_CONCEALED_HAND, "Fully Concealed Hand", "不求人", 4, excludes=(F.SELF_DRAWN,), scope=_SITUATION),
        FanRow(F.TWO_MELDED_KONGS, "Two Melded Kongs", "双明杠", 4, excludes=(F.MELDED_KONG,), scope=_SETS),
        FanRow(F.LAST_TILE, "Last Tile", "和绝张", 4, scope=_SITUATION),
        # 2 points
        FanRow(F.DRAGON_PUNG, "Dragon Pung", "箭刻", 2, scope=_SETS),
        FanRow(
            F.PREVALENT_WIND,
            "Prevalent Wind",
            "圈风刻",
            2,
            excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,),
            scope=_SETS,
        ),
        FanRow(F.SEAT_WIND, "Seat Wind", "门风刻", 2, excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_SETS),
        FanRow(F.CONCEALED_HAND, "Concealed Hand", "门前清", 2, scope=_SITUATION),
        FanRow(F.ALL_CHOWS, "All Chows", "平和", 2, excludes=(F.NO_HONORS,), scope=_SETS),
        FanRow(F.TILE_HOG, "Tile Hog", "四归一", 2, scope=_SETS),
        FanRow(F.DOUBLE_PUNG, "Double Pung", "双同刻", 2, scope=_SETS),
        FanRow(F.TWO_CONCEALED_PUNGS, "Two Concealed Pungs", "双暗刻", 2, scope=_SETS),
        FanRow(F.CONCEALED_KONG, "Concealed Kong", "暗杠", 2, scope=_SETS),
        FanRow(F.ALL_SIMPLES, "All Simples", "断幺", 2, excludes=(F.NO_HONORS,), scope=_HAND),
        # 1 points
        FanRow(F.PURE_DOUBLE_CHOW, "Pure Double Chow", "一般高", 1, scope=_SETS),
        FanRow(F.MIXED_DOUBLE_CHOW, "Mixed Double Chow", "喜相逢", 1, scope=_SETS),
        FanRow(F.SHORT_STRAIGHT, "Short Straight", "连六", 1, scope=_SETS),
        FanRow(F.TWO_TERMINAL_CHOWS, "Two Terminal Chows", "老少副", 1, scope=_SETS),
        FanRow(F.PUNG_OF_TERMINALS_OR_HONORS, "Pung of Terminals or Honors", "幺九刻", 1, scope=_SETS),
        FanRow(F.MELDED_KONG, "Melded Kong", "明杠", 1, scope=_SETS),
        FanRow(F.ONE_VOIDED_SUIT, "One Voided Suit", "缺一门", 1, scope=_HAND),
        FanRow(F.NO_HONORS, "No Honors", "无字", 1, scope=_HAND),
        FanRow(F.EDGE_WAIT, "Edge Wait", "边张", 1, scope=_SETS),
        FanRow(F.CLOSED_WAIT, "Closed Wait", "嵌张", 1, scope=_SETS),
        FanRow(F.SINGLE_WAIT, "Single Wait", "单钓将", 1, scope=_SETS),
        FanRow(F.SELF_DRAWN, "Self-Drawn", "自摸", 1, scope=_SITUATION),
        FanRow(F.FLOWER_TILES, "Flower Tiles", "花牌", 1, scope=_BONUS),
        # pymahjonggb's extra fan, see the module docstring
        FanRow(
            F.CONCEALED_KONG_AND_MELDED_KONG,
            "Concealed Kong and Melded Kong",
            "明暗杠",
            5,
            excludes=(F.CONCEALED_KONG, F.MELDED_KONG),
            scope=_SETS,
        ),
    ),
    Fan,
)

FANS: tuple[FanDef, ...] = TABLE.defs
BY_ID: dict[int, FanDef] = TABLE.def_by_id

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("mcr.fans", BY_ID=BY_ID)
