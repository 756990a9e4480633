"""One predicate per row of the Hong Kong table (`fans.py`), compiled with mypyc (setup.py COMPILED).

A predicate returns the fan's occurrences in one decomposition (`Occ`: the sets it was scored on, or the
tiles to highlight when it is not tied to sets); an empty list means the fan is not there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from engine.registry import REGISTRY
from engine.rules.hk.facts import Facts
from engine.rules.hk.fans import Fan
from engine.shapes import ShapeKind
from engine.tiles import DRAGONS, WINDS

F = Fan


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


def seven_pairs(f: Facts) -> list[Occ]:
    return whole(f, f.dec.kind == ShapeKind.SEVEN_PAIRS)


def kong_on_kong(f: Facts) -> list[Occ]:
    return situation(f, f.h.ctx.kong_on_kong)


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
    F.SEVEN_PAIRS: seven_pairs,
    F.KONG_ON_KONG: kong_on_kong,
}
# 七抢一 and 八仙过海 have no predicate either: a flower hand is scored apart (scoring.flower_hand).
# 鸡胡 has no predicate: scoring adds it when nothing but flower fans was counted.

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("hk.predicates", NONE=NONE, PREDICATES=PREDICATES)
