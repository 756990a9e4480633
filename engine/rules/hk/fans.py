"""The Hong Kong faan table as data, each row beside the predicate that finds it.

A predicate returns the fan's occurrences in one decomposition (`Occ`: the sets it was scored on, or
the tiles to highlight when it is not tied to sets); an empty list means the fan is not there. What a
counted fan excludes is data in its row, applied by the one mechanism of engine.rules.principles.
Ids are this rule set's own (`Fan`), in the order of the table; values are faan; a `limit` row
scores the limit the options set (8, 10 or 13 faan) and replaces every other fan.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import NamedTuple

from engine.rules.hk.facts import Facts
from engine.rules.model import FanRow, FanTable, Scope
from engine.shapes import ShapeKind
from engine.tiles import DRAGONS, WINDS


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


LIMIT = 13  # the value a limit row declares; scoring replaces it by HkOptions.limit

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
), Fan)


class Occ(NamedTuple):
    """One occurrence of a fan: the sets it covers; `tiles` only when they are not the sets' tiles."""

    sets: tuple[int, ...]
    tiles: tuple[int, ...] = ()


NONE: list[Occ] = []


def whole(f: Facts, cond: bool) -> list[Occ]:
    """A fan of the whole hand (thirteen orphans has no sets: its 14 tiles are shown)."""
    if not cond:
        return NONE
    return [Occ(f.all_sets, () if f.sets else tuple(f.dec.knitted))]


def situation(f: Facts, cond: bool) -> list[Occ]:
    """A fan of the way the hand was won, shown on the winning tile."""
    return [Occ((), (f.h.win,))] if cond else NONE


def each(sets: tuple[int, ...]) -> list[Occ]:
    return [Occ((i,)) for i in sets]


# ---------------------------------------------------------------------------------------------
# One predicate per fan


def no_flowers(f: Facts) -> list[Occ]:
    return [Occ(())] if f.h.no_flowers else NONE


def seat_flower(f: Facts) -> list[Occ]:
    return [Occ(())] * f.h.seat_flowers


def flower_set(f: Facts) -> list[Occ]:
    return [Occ(())] * f.h.flower_groups


def self_drawn(f: Facts) -> list[Occ]:
    return situation(f, f.h.ctx.self_drawn)


def concealed_hand(f: Facts) -> list[Occ]:
    return situation(f, f.h.concealed_hand)


def last_tile(f: Facts) -> list[Occ]:
    return situation(f, f.h.ctx.last_wall_tile)


def replacement_tile(f: Facts) -> list[Occ]:
    return situation(f, f.h.ctx.replacement_tile)


def robbing_kong(f: Facts) -> list[Occ]:
    return situation(f, f.h.ctx.robbing_kong)


def all_chows(f: Facts) -> list[Occ]:
    return whole(f, f.standard and len(f.chows) == 4)


def all_pungs(f: Facts) -> list[Occ]:
    return whole(f, f.standard and len(f.pungs) == 4)


def mixed_one_suit(f: Facts) -> list[Occ]:
    return whole(f, len(f.h.suits) == 1 and f.h.has_honours)


def all_one_suit(f: Facts) -> list[Occ]:
    return whole(f, len(f.h.suits) == 1 and not f.h.has_honours)


def dragon_pung(f: Facts) -> list[Occ]:
    return each(f.dragon_pungs)


def seat_wind(f: Facts) -> list[Occ]:
    return each(f.pungs_of(f.h.seat_wind_tile))


def prevalent_wind(f: Facts) -> list[Occ]:
    return each(f.pungs_of(f.h.prevalent_wind_tile))


def small_dragons(f: Facts) -> list[Occ]:
    pair = f.pair
    if len(f.dragon_pungs) == 2 and pair is not None and f.first(pair) in DRAGONS:
        return [Occ(f.dragon_pungs + (pair,))]
    return NONE


def great_dragons(f: Facts) -> list[Occ]:
    return [Occ(f.dragon_pungs)] if len(f.dragon_pungs) == 3 else NONE


def small_winds(f: Facts) -> list[Occ]:
    pair = f.pair
    if len(f.wind_pungs) == 3 and pair is not None and f.first(pair) in WINDS:
        return [Occ(f.wind_pungs + (pair,))]
    return NONE


def great_winds(f: Facts) -> list[Occ]:
    return [Occ(f.wind_pungs)] if len(f.wind_pungs) == 4 else NONE


def all_honours(f: Facts) -> list[Occ]:
    return whole(f, f.h.all_honours)


def mixed_orphans(f: Facts) -> list[Occ]:
    return whole(f, f.standard and f.h.orphans_only and f.h.has_honours and not f.h.all_honours)


def orphans(f: Facts) -> list[Occ]:
    return whole(f, f.standard and f.h.all_terminals)


def thirteen_orphans(f: Facts) -> list[Occ]:
    return whole(f, f.dec.kind == ShapeKind.THIRTEEN_ORPHANS)


_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def nine_gates(f: Facts) -> list[Occ]:
    h = f.h
    if not f.standard or h.hand.melds or len(h.suits) != 1 or h.has_honours:
        return NONE
    base = 9 * next(iter(h.suits))
    return whole(f, all(h.counts[base + r] >= n for r, n in enumerate(_NINE_GATES)))


def four_concealed_pungs(f: Facts) -> list[Occ]:
    return [Occ(f.concealed_pungs)] if f.standard and len(f.concealed_pungs) == 4 else NONE


def all_kongs(f: Facts) -> list[Occ]:
    return [Occ(f.kongs)] if len(f.kongs) == 4 else NONE


def heavenly_hand(f: Facts) -> list[Occ]:
    return situation(f, f.h.ctx.heavenly)


def earthly_hand(f: Facts) -> list[Occ]:
    return situation(f, f.h.ctx.earthly)


PREDICATES: dict[Fan, Callable[[Facts], list[Occ]]] = {
    F.NO_FLOWERS: no_flowers,
    F.SEAT_FLOWER: seat_flower,
    F.FLOWER_SET: flower_set,
    F.SELF_DRAWN: self_drawn,
    F.CONCEALED_HAND: concealed_hand,
    F.LAST_TILE: last_tile,
    F.REPLACEMENT_TILE: replacement_tile,
    F.ROBBING_KONG: robbing_kong,
    F.ALL_CHOWS: all_chows,
    F.ALL_PUNGS: all_pungs,
    F.MIXED_ONE_SUIT: mixed_one_suit,
    F.ALL_ONE_SUIT: all_one_suit,
    F.DRAGON_PUNG: dragon_pung,
    F.SEAT_WIND: seat_wind,
    F.PREVALENT_WIND: prevalent_wind,
    F.SMALL_DRAGONS: small_dragons,
    F.GREAT_DRAGONS: great_dragons,
    F.SMALL_WINDS: small_winds,
    F.GREAT_WINDS: great_winds,
    F.ALL_HONOURS: all_honours,
    F.MIXED_ORPHANS: mixed_orphans,
    F.ORPHANS: orphans,
    F.THIRTEEN_ORPHANS: thirteen_orphans,
    F.NINE_GATES: nine_gates,
    F.FOUR_CONCEALED_PUNGS: four_concealed_pungs,
    F.ALL_KONGS: all_kongs,
    F.HEAVENLY_HAND: heavenly_hand,
    F.EARTHLY_HAND: earthly_hand,
}
# 鸡胡 has no predicate: scoring adds it when nothing but flower fans was counted.
