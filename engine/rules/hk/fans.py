"""The Hong Kong faan table as data; `predicates.py` holds one predicate per row, registered with `@fan(Fan.X)`
under the row's name (鸡胡, 七抢一 and 八仙过海 are scored by scoring.py itself).

What a counted fan excludes is data in its row, applied by the one mechanism of engine.rules.principles.
Ids are this rule set's own (`Fan`), in the order of the table; values are faan; a `limit` row scores
the limit the options set (8, 10 or 13 faan) and replaces every other fan.
"""

from __future__ import annotations

from enum import IntEnum

from engine.rules.model import FanRow, FanTable, Scope


class Fan(IntEnum):
    CHICKEN_HAND = 1
    NO_FLOWERS = 2
    SEAT_FLOWER = 3
    FLOWER_SET = 4
    SELF_DRAWN = 5
    CONCEALED_HAND = 6
    LAST_TILE = 7
    REPLACEMENT_TILE = 8
    ROBBING_KONG = 9
    ALL_CHOWS = 10
    ALL_PUNGS = 11
    MIXED_ONE_SUIT = 12
    ALL_ONE_SUIT = 13
    DRAGON_PUNG = 14
    SEAT_WIND = 15
    PREVALENT_WIND = 16
    SMALL_DRAGONS = 17
    GREAT_DRAGONS = 18
    SMALL_WINDS = 19
    GREAT_WINDS = 20
    ALL_HONOURS = 21
    MIXED_ORPHANS = 22
    ORPHANS = 23
    THIRTEEN_ORPHANS = 24
    NINE_GATES = 25
    FOUR_CONCEALED_PUNGS = 26
    ALL_KONGS = 27
    HEAVENLY_HAND = 28
    EARTHLY_HAND = 29
    SEVEN_PAIRS = 30
    KONG_ON_KONG = 31
    SEVEN_FLOWERS = 32
    EIGHT_FLOWERS = 33


# Off under the default options (each needs its option): tests/unit/test_hk_options.py covers them.
OPTIONAL_FANS = frozenset({Fan.SEVEN_PAIRS, Fan.KONG_ON_KONG, Fan.SEVEN_FLOWERS, Fan.EIGHT_FLOWERS})


LIMIT = 13  # the value a limit row declares; scoring replaces it by HkOptions.limit
# Rows 30-33 are optional: each declares the value of the table cited for it (tests/unit/test_hk_options.py), and
# scoring values it at its option's faan (HkOptions.seven_pairs_faan, kong_on_kong_faan, seven_flowers_faan,
# eight_flowers_faan).

F = Fan
TABLE = FanTable("faan", (
    FanRow(F.CHICKEN_HAND, "Chicken Hand", "鸡胡", 0, scope=Scope.HAND,
           description="a win with no faan from its tiles or the way it was won (flowers aside)"),
    FanRow(F.NO_FLOWERS, "No Flowers", "无花", 1, scope=Scope.BONUS,
           description="no flower or season tile (only when the game plays flowers)"),
    FanRow(F.SEAT_FLOWER, "Seat Flower", "正花", 1, scope=Scope.BONUS,
           description="each flower or season of the seat's number (East 1 ... North 4) outside a complete group"),
    FanRow(F.FLOWER_SET, "Complete Flower Group", "一台花", 2, scope=Scope.BONUS,
           description="all four flowers, or all four seasons; each group"),
    FanRow(F.SELF_DRAWN, "Self-Drawn", "自摸", 1, scope=Scope.SITUATION),
    FanRow(F.CONCEALED_HAND, "Concealed Hand", "门前清", 1, scope=Scope.SITUATION,
           description="nothing claimed from another player (concealed kongs allowed)"),
    FanRow(F.LAST_TILE, "Win on the Last Tile", "海底捞月", 1, scope=Scope.SITUATION,
           description="the last tile of the wall, drawn or discarded"),
    FanRow(F.REPLACEMENT_TILE, "Win on a Kong's Replacement Tile", "杠上开花", 1, scope=Scope.SITUATION,
           description="self-drawn from the dead wall after a kong; 自摸 is counted as well"),
    FanRow(F.ROBBING_KONG, "Robbing a Kong", "抢杠", 1, scope=Scope.SITUATION),
    FanRow(F.ALL_CHOWS, "All Chows", "平胡", 1, description="four chows and a pair"),
    FanRow(F.ALL_PUNGS, "All Pungs", "对对胡", 3, description="four pungs or kongs and a pair"),
    FanRow(F.MIXED_ONE_SUIT, "Mixed One Suit", "混一色", 3, description="one suit and honours"),
    FanRow(F.ALL_ONE_SUIT, "All One Suit", "清一色", 7, description="one suit, no honours"),
    FanRow(F.DRAGON_PUNG, "Dragon Pung", "箭刻", 1, scope=Scope.SETS, description="each pung or kong of dragons"),
    FanRow(F.SEAT_WIND, "Seat Wind", "门风", 1, scope=Scope.SETS, description="a pung or kong of the seat's wind"),
    FanRow(F.PREVALENT_WIND, "Prevalent Wind", "圈风", 1, scope=Scope.SETS,
           description="a pung or kong of the round's wind"),
    FanRow(F.SMALL_DRAGONS, "Small Three Dragons", "小三元", 5, excludes=(F.DRAGON_PUNG,),
           description="two dragon pungs and a dragon pair (their 箭刻 included)"),
    FanRow(F.GREAT_DRAGONS, "Great Three Dragons", "大三元", 8, excludes=(F.DRAGON_PUNG,),
           description="three dragon pungs (their 箭刻 included)"),
    FanRow(F.SMALL_WINDS, "Small Four Winds", "小四喜", 10, description="three wind pungs and a wind pair"),
    FanRow(F.GREAT_WINDS, "Great Four Winds", "大四喜", LIMIT, limit=True, description="four wind pungs"),
    FanRow(F.ALL_HONOURS, "All Honours", "字一色", 10,
           excludes=(F.ALL_PUNGS, F.MIXED_ONE_SUIT, F.MIXED_ORPHANS), description="honours only"),
    FanRow(F.MIXED_ORPHANS, "Mixed Orphans", "混幺九", 4, excludes=(F.ALL_PUNGS,),
           description="terminals and honours only, both present (its 对对胡 included)"),
    FanRow(F.ORPHANS, "Orphans", "清幺九", 10, excludes=(F.ALL_PUNGS, F.MIXED_ORPHANS),
           description="terminals only"),
    FanRow(F.THIRTEEN_ORPHANS, "Thirteen Orphans", "十三幺", LIMIT, limit=True),
    FanRow(F.NINE_GATES, "Nine Gates", "九莲宝灯", LIMIT, limit=True,
           description="concealed 1112345678999 of one suit plus any tile of it"),
    FanRow(F.FOUR_CONCEALED_PUNGS, "Four Concealed Pungs", "四暗刻", LIMIT, limit=True,
           description="坎坎胡: four pungs or kongs formed in the hand (a pung completed by a discard is not)"),
    FanRow(F.ALL_KONGS, "All Kongs", "十八罗汉", LIMIT, limit=True, description="four kongs and a pair"),
    FanRow(F.HEAVENLY_HAND, "Heavenly Hand", "天胡", LIMIT, limit=True, scope=Scope.SITUATION,
           description="the dealer wins on the deal"),
    FanRow(F.EARTHLY_HAND, "Earthly Hand", "地胡", LIMIT, limit=True, scope=Scope.SITUATION,
           description="a non-dealer wins on the dealer's first discard or on the first draw, nothing claimed"),
    FanRow(F.SEVEN_PAIRS, "Seven Pairs", "七对", 4,
           description="seven different pairs; a win only with option seven_pairs_faan, valued at it"),
    FanRow(F.KONG_ON_KONG, "Kong on Kong", "杠上杠", 8, scope=Scope.SITUATION,
           excludes=(F.REPLACEMENT_TILE,),
           description="the replacement tile of a kong declared on another kong's replacement tile "
                       "(context.kong_on_kong); option kong_on_kong_faan, in place of 杠上开花"),
    FanRow(F.SEVEN_FLOWERS, "Seven Flowers Robbing the Eighth", "七抢一", 3,
           description="option flower_hand: seven flowers held and the eighth robbed from the player who drew it; "
                       "wins whatever the tiles, valued at seven_flowers_faan"),
    FanRow(F.EIGHT_FLOWERS, "Eight Flowers", "八仙过海", 8,
           description="option flower_hand: all eight flowers, the eighth self-drawn; wins whatever the tiles, "
                       "valued at eight_flowers_faan"),
), Fan)
