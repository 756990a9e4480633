"""The Sichuan fan tables as data (the package contract: engine/rules/model.py): the ids and one row each.

Each row: this rule set's own id (`Fan`), English and Chinese names, fan, `excludes` and where it is
scored. The predicate of each row is in predicates.py. Exclusions are data (`excludes`): when a row
counts, the rows it excludes do not (rows are tried from the most fan down, ties by id). Ids are this
rule set's own and never reused: MIL 1-10, shared situational rows 7-9 and 11, Chengdu 20-40.

MIL (Mahjong International League rules as dcmshi/sichuan-mahjong scores them): every row adds.
Chengdu (the 血战到底 page of the scmj client's rule sheet, QuiQiJingFeng/M2_CLIENT
cocosstudio/games/scmj/scmjRuleListLayer.csd): the hand patterns (基本番) are not added up, only the
largest counts ("不重复计算，只计最大番型"), written as exclusions: each pattern excludes every other
pattern worth no more (ties: the later id). 根, 杠上花, 杠上炮, 抢杠胡 add to it.

`MIL_ROWS` and `CHENGDU_ROWS` are each variant's rows (option `variant`); `TABLE` is the whole catalogue
(ListFans lists both variants' rows).
"""

from __future__ import annotations

from enum import IntEnum

from engine.rules.model import FanRow, FanTable, Scope


class Fan(IntEnum):
    # MIL
    KONG = 1
    ROOT = 2
    ALL_PUNGS = 3
    GOLDEN_WAIT = 4
    FULL_FLUSH = 5
    SEVEN_PAIRS = 6
    WIN_AFTER_KONG = 7  # also Chengdu
    SHOOT_AFTER_KONG = 8  # also Chengdu
    ROBBING_THE_KONG = 9  # also Chengdu
    UNDER_THE_SEA = 10
    SELF_DRAWN = 11  # both, with the option self_draw = ADD_FAN
    # Chengdu
    BASIC_WIN = 20
    CD_ALL_PUNGS = 21
    CD_FULL_FLUSH = 22
    TERMINALS = 23
    CD_SEVEN_PAIRS = 24
    GOLDEN_HOOK = 25
    PURE_PUNGS = 26
    TWO_FIVE_EIGHT_PUNGS = 27
    DRAGON_SEVEN_PAIRS = 28
    PURE_SEVEN_PAIRS = 29
    PURE_TERMINALS = 30
    TWO_FIVE_EIGHT_GOLDEN_HOOK = 31
    PURE_GOLDEN_HOOK = 32
    PURE_DRAGON_SEVEN_PAIRS = 33
    EIGHTEEN_ARHATS = 34
    PURE_EIGHTEEN_ARHATS = 35
    HEAVENLY = 36
    EARTHLY = 37
    CD_ROOT = 38
    CONCEALED_HAND = 39
    ALL_SIMPLES = 40


# ---------------------------------------------------------------------------------------------
# Rows shared by both tables (situations)

WIN_AFTER_KONG = FanRow(Fan.WIN_AFTER_KONG, "Win After Kong", "杠上花", 1, scope=Scope.SITUATION,
                        description="won on the replacement tile drawn after a kong")
SHOOT_AFTER_KONG = FanRow(Fan.SHOOT_AFTER_KONG, "Shoot After Kong", "杠上炮", 1, scope=Scope.SITUATION,
                          description="won on the tile a player discarded right after declaring a kong")
ROBBING_THE_KONG = FanRow(Fan.ROBBING_THE_KONG, "Robbing the Kong", "抢杠胡", 1, scope=Scope.SITUATION,
                          description="won on the tile another player added to a pung to make a kong")
SELF_DRAWN = FanRow(Fan.SELF_DRAWN, "Self-Drawn", "自摸", 1, scope=Scope.SITUATION,
                    description="self-drawn win, counted only with the option self_draw = ADD_FAN (自摸加番)")


# ---------------------------------------------------------------------------------------------
# MIL: every row adds

MIL_ROWS: tuple[FanRow, ...] = (
    FanRow(Fan.KONG, "Kong", "杠", 1, scope=Scope.SETS,
           description="+1 per declared kong (exposed, added or concealed)"),
    FanRow(Fan.ROOT, "Root", "根", 1,
           description="+1 per four of a kind among all the hand's tiles that is not a declared kong"),
    FanRow(Fan.ALL_PUNGS, "All Pungs", "对对胡", 1, description="four pungs or kongs and a pair"),
    FanRow(Fan.GOLDEN_WAIT, "Golden Wait", "金钩钓", 1,
           description="all pungs, and the winning tile completed the pair"),
    FanRow(Fan.FULL_FLUSH, "Full Flush", "清一色", 2, description="every tile of one suit"),
    FanRow(Fan.SEVEN_PAIRS, "Seven Pairs", "七对", 2,
           description="seven pairs; a four of a kind counts as two pairs (and adds a Root: 龙七对)"),
    WIN_AFTER_KONG,
    SHOOT_AFTER_KONG,
    ROBBING_THE_KONG,
    FanRow(Fan.UNDER_THE_SEA, "Under the Sea", "海底", 1, scope=Scope.SITUATION,
           description="won on the last tile of the wall, drawn or discarded"),
    SELF_DRAWN,
)


# ---------------------------------------------------------------------------------------------
# Chengdu: the largest hand pattern counts alone (the sheet's 基本番, smallest first, each excluding
# every other pattern worth no more, ties: the later id); roots and situations add

CHENGDU_ROWS: tuple[FanRow, ...] = (
    FanRow(Fan.BASIC_WIN, "Basic Win", "平胡", 0, (), description="four sets and a pair"),
    FanRow(Fan.CD_ALL_PUNGS, "All Pungs", "对对胡", 1, (Fan.BASIC_WIN,),
           description="four pungs or kongs and a pair"),
    FanRow(Fan.CD_FULL_FLUSH, "Full Flush", "清一色", 2,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS, Fan.GOLDEN_HOOK),
           description="every tile of one suit"),
    FanRow(Fan.TERMINALS, "Terminals in Every Set", "带幺九", 2,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_SEVEN_PAIRS, Fan.GOLDEN_HOOK),
           description="every set and the pair hold a 1 or a 9"),
    FanRow(Fan.CD_SEVEN_PAIRS, "Seven Pairs", "七对", 2, (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.GOLDEN_HOOK),
           description="seven pairs, nothing declared"),
    FanRow(Fan.GOLDEN_HOOK, "Golden Hook", "金钩钓", 2, (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS),
           description="four declared pungs or kongs, won on the pair to the last standing tile"),
    FanRow(Fan.PURE_PUNGS, "Pure All Pungs", "清对", 3,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_FULL_FLUSH, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS,
            Fan.GOLDEN_HOOK, Fan.TWO_FIVE_EIGHT_PUNGS),
           description="清一色 and 对对胡"),
    FanRow(Fan.TWO_FIVE_EIGHT_PUNGS, "Two-Five-Eight Pungs", "将对", 3,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_FULL_FLUSH, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS,
            Fan.GOLDEN_HOOK),
           description="对对胡 of 2s, 5s and 8s only"),
    FanRow(Fan.DRAGON_SEVEN_PAIRS, "Dragon Seven Pairs", "龙七对", 4,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_FULL_FLUSH, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS,
            Fan.GOLDEN_HOOK, Fan.PURE_PUNGS, Fan.TWO_FIVE_EIGHT_PUNGS, Fan.PURE_SEVEN_PAIRS, Fan.PURE_TERMINALS,
            Fan.TWO_FIVE_EIGHT_GOLDEN_HOOK, Fan.PURE_GOLDEN_HOOK),
           description="seven pairs holding a four of a kind (that four is not also a 根)"),
    FanRow(Fan.PURE_SEVEN_PAIRS, "Pure Seven Pairs", "清七对", 4,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_FULL_FLUSH, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS,
            Fan.GOLDEN_HOOK, Fan.PURE_PUNGS, Fan.TWO_FIVE_EIGHT_PUNGS, Fan.PURE_TERMINALS,
            Fan.TWO_FIVE_EIGHT_GOLDEN_HOOK, Fan.PURE_GOLDEN_HOOK),
           description="清一色 and 七对"),
    FanRow(Fan.PURE_TERMINALS, "Pure Terminals in Every Set", "清幺九", 4,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_FULL_FLUSH, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS,
            Fan.GOLDEN_HOOK, Fan.PURE_PUNGS, Fan.TWO_FIVE_EIGHT_PUNGS, Fan.TWO_FIVE_EIGHT_GOLDEN_HOOK,
            Fan.PURE_GOLDEN_HOOK),
           description="清一色 and 带幺九"),
    FanRow(Fan.TWO_FIVE_EIGHT_GOLDEN_HOOK, "Two-Five-Eight Golden Hook", "将金钩钓", 4,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_FULL_FLUSH, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS,
            Fan.GOLDEN_HOOK, Fan.PURE_PUNGS, Fan.TWO_FIVE_EIGHT_PUNGS, Fan.PURE_GOLDEN_HOOK),
           description="金钩钓 of 2s, 5s and 8s only"),
    FanRow(Fan.PURE_GOLDEN_HOOK, "Pure Golden Hook", "清金钩钓", 4,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_FULL_FLUSH, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS,
            Fan.GOLDEN_HOOK, Fan.PURE_PUNGS, Fan.TWO_FIVE_EIGHT_PUNGS),
           description="清一色 and 金钩钓"),
    FanRow(Fan.PURE_DRAGON_SEVEN_PAIRS, "Pure Dragon Seven Pairs", "清龙七对", 5,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_FULL_FLUSH, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS,
            Fan.GOLDEN_HOOK, Fan.PURE_PUNGS, Fan.TWO_FIVE_EIGHT_PUNGS, Fan.DRAGON_SEVEN_PAIRS,
            Fan.PURE_SEVEN_PAIRS, Fan.PURE_TERMINALS, Fan.TWO_FIVE_EIGHT_GOLDEN_HOOK, Fan.PURE_GOLDEN_HOOK,
            Fan.HEAVENLY, Fan.EARTHLY),
           description="清一色 and 龙七对 (its four is not also a 根)"),
    FanRow(Fan.HEAVENLY, "Heavenly Hand", "天胡", 5,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_FULL_FLUSH, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS,
            Fan.GOLDEN_HOOK, Fan.PURE_PUNGS, Fan.TWO_FIVE_EIGHT_PUNGS, Fan.DRAGON_SEVEN_PAIRS,
            Fan.PURE_SEVEN_PAIRS, Fan.PURE_TERMINALS, Fan.TWO_FIVE_EIGHT_GOLDEN_HOOK, Fan.PURE_GOLDEN_HOOK,
            Fan.EARTHLY),
           description="the dealer wins on the deal (option heavenly_earthly)"),
    FanRow(Fan.EARTHLY, "Earthly Hand", "地胡", 5,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_FULL_FLUSH, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS,
            Fan.GOLDEN_HOOK, Fan.PURE_PUNGS, Fan.TWO_FIVE_EIGHT_PUNGS, Fan.DRAGON_SEVEN_PAIRS,
            Fan.PURE_SEVEN_PAIRS, Fan.PURE_TERMINALS, Fan.TWO_FIVE_EIGHT_GOLDEN_HOOK, Fan.PURE_GOLDEN_HOOK),
           description="a non-dealer wins on the first draw (option heavenly_earthly)"),
    FanRow(Fan.EIGHTEEN_ARHATS, "Eighteen Arhats", "十八罗汉", 6,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_FULL_FLUSH, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS,
            Fan.GOLDEN_HOOK, Fan.PURE_PUNGS, Fan.TWO_FIVE_EIGHT_PUNGS, Fan.DRAGON_SEVEN_PAIRS,
            Fan.PURE_SEVEN_PAIRS, Fan.PURE_TERMINALS, Fan.TWO_FIVE_EIGHT_GOLDEN_HOOK, Fan.PURE_GOLDEN_HOOK,
            Fan.PURE_DRAGON_SEVEN_PAIRS, Fan.HEAVENLY, Fan.EARTHLY),
           description="金钩钓 with four kongs (its four kongs are not also 根)"),
    FanRow(Fan.PURE_EIGHTEEN_ARHATS, "Pure Eighteen Arhats", "清十八罗汉", 8,
           (Fan.BASIC_WIN, Fan.CD_ALL_PUNGS, Fan.CD_FULL_FLUSH, Fan.TERMINALS, Fan.CD_SEVEN_PAIRS,
            Fan.GOLDEN_HOOK, Fan.PURE_PUNGS, Fan.TWO_FIVE_EIGHT_PUNGS, Fan.DRAGON_SEVEN_PAIRS,
            Fan.PURE_SEVEN_PAIRS, Fan.PURE_TERMINALS, Fan.TWO_FIVE_EIGHT_GOLDEN_HOOK, Fan.PURE_GOLDEN_HOOK,
            Fan.PURE_DRAGON_SEVEN_PAIRS, Fan.HEAVENLY, Fan.EARTHLY, Fan.EIGHTEEN_ARHATS),
           description="清一色 and 十八罗汉"),
    FanRow(Fan.CD_ROOT, "Root", "根", 1,
           description="+1 per four of a kind, declared kong or not (less those 龙七对 / 十八罗汉 price)"),
    WIN_AFTER_KONG,
    SHOOT_AFTER_KONG,
    ROBBING_THE_KONG,
    SELF_DRAWN,
    FanRow(Fan.CONCEALED_HAND, "Concealed Hand", "门清", 1,
           description="nothing declared, self-drawn (option concealed_simples, 门清中张)"),
    FanRow(Fan.ALL_SIMPLES, "All Simples", "中张", 1,
           description="no 1 or 9 anywhere (option concealed_simples, 门清中张)"),
)

# The whole catalogue: MIL's rows, then Chengdu's not already listed (the four shared situations).
TABLE = FanTable("fan", MIL_ROWS + tuple(r for r in CHENGDU_ROWS if r not in MIL_ROWS), Fan)
