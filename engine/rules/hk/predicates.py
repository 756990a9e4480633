"""One predicate per row of the Hong Kong table (`fans.py`), each registered with `@fan(Fan.X)` beside its rule;
compiled with mypyc (setup.py COMPILED).

A predicate returns the fan's occurrences in one decomposition (engine.rules.model.Occurrence: the set indices it
was scored on; [] = not there, n items = counted n times): the whole hand (`whole`), a group of sets, each set
(`each`), or no set in particular: a fan of the situation (`situation`), shown on the winning tile, a flower fan,
shown on no tile, and thirteen orphans, which has no sets and shows its own tiles (scoring.py derives the tiles
a fan shows from its row's scope). Everything they read is in facts.py. Three rows are scored by scoring.py
itself (`in_scoring`): 鸡胡, the fallback when nothing but flower fans was counted, and the flower hands 七抢一
and 八仙过海, which win whatever the tiles. Exclusions are never written here; they are fans.py's data.
"""

from __future__ import annotations

from typing import Final

from engine.registry import REGISTRY
from engine.rules.hk.facts import Facts
from engine.rules.hk.fans import TABLE, Fan
from engine.rules.model import Occurrence, Predicates
from engine.shapes import ShapeKind
from engine.tiles import DRAGONS, WINDS

PREDICATES: Final = Predicates(TABLE, in_scoring=(Fan.CHICKEN_HAND, Fan.SEVEN_FLOWERS, Fan.EIGHT_FLOWERS))
fan: Final = PREDICATES.fan

NONE: list[Occurrence] = []  # not there (never written)
ONCE: list[Occurrence] = [()]  # once, on no set (never written)


# ---------------------------------------------------------------------------------------------
# Small helpers the predicates share


def whole(f: Facts, cond: bool) -> list[Occurrence]:
    """A fan of the whole hand: on all its sets (thirteen orphans has none: scoring shows its 14 tiles)."""
    return [f.all_sets] if cond else NONE


def situation(cond: bool) -> list[Occurrence]:
    """A fan of the way the hand was won: on no set (scoring shows it on the winning tile: its row's scope)."""
    return ONCE if cond else NONE


def each(sets: tuple[int, ...]) -> list[Occurrence]:
    """Once per set."""
    return [(i,) for i in sets]


# ---------------------------------------------------------------------------------------------
# One predicate per fan, in the order of the table


@fan(Fan.NO_FLOWERS)
def no_flowers(f: Facts) -> list[Occurrence]:
    return ONCE if f.h.no_flowers else NONE


@fan(Fan.SEAT_FLOWER)
def seat_flower(f: Facts) -> list[Occurrence]:
    return ONCE * f.h.seat_flowers


@fan(Fan.FLOWER_SET)
def flower_set(f: Facts) -> list[Occurrence]:
    return ONCE * f.h.flower_groups


@fan(Fan.SELF_DRAWN)
def self_drawn(f: Facts) -> list[Occurrence]:
    return situation(f.h.ctx.self_drawn)


@fan(Fan.CONCEALED_HAND)
def concealed_hand(f: Facts) -> list[Occurrence]:
    return situation(f.h.concealed_hand)


@fan(Fan.LAST_TILE)
def last_tile(f: Facts) -> list[Occurrence]:
    return situation(f.h.ctx.last_wall_tile)


@fan(Fan.REPLACEMENT_TILE)
def replacement_tile(f: Facts) -> list[Occurrence]:
    return situation(f.h.ctx.replacement_tile)


@fan(Fan.ROBBING_KONG)
def robbing_kong(f: Facts) -> list[Occurrence]:
    return situation(f.h.ctx.robbing_kong)


@fan(Fan.ALL_CHOWS)
def all_chows(f: Facts) -> list[Occurrence]:
    return whole(f, f.standard and len(f.chows) == 4)


@fan(Fan.ALL_PUNGS)
def all_pungs(f: Facts) -> list[Occurrence]:
    return whole(f, f.standard and len(f.pungs) == 4)


@fan(Fan.MIXED_ONE_SUIT)
def mixed_one_suit(f: Facts) -> list[Occurrence]:
    return whole(f, len(f.h.suits) == 1 and f.h.has_honours)


@fan(Fan.ALL_ONE_SUIT)
def all_one_suit(f: Facts) -> list[Occurrence]:
    return whole(f, len(f.h.suits) == 1 and not f.h.has_honours)


@fan(Fan.DRAGON_PUNG)
def dragon_pung(f: Facts) -> list[Occurrence]:
    return each(f.dragon_pungs)


@fan(Fan.SEAT_WIND)
def seat_wind(f: Facts) -> list[Occurrence]:
    return each(f.pungs_of(f.h.seat_wind_tile))


@fan(Fan.PREVALENT_WIND)
def prevalent_wind(f: Facts) -> list[Occurrence]:
    return each(f.pungs_of(f.h.prevalent_wind_tile))


@fan(Fan.SMALL_DRAGONS)
def small_dragons(f: Facts) -> list[Occurrence]:
    pair = f.pair
    if len(f.dragon_pungs) == 2 and pair is not None and f.first(pair) in DRAGONS:
        return [f.dragon_pungs + (pair,)]
    return NONE


@fan(Fan.GREAT_DRAGONS)
def great_dragons(f: Facts) -> list[Occurrence]:
    return [f.dragon_pungs] if len(f.dragon_pungs) == 3 else NONE


@fan(Fan.SMALL_WINDS)
def small_winds(f: Facts) -> list[Occurrence]:
    pair = f.pair
    if len(f.wind_pungs) == 3 and pair is not None and f.first(pair) in WINDS:
        return [f.wind_pungs + (pair,)]
    return NONE


@fan(Fan.GREAT_WINDS)
def great_winds(f: Facts) -> list[Occurrence]:
    return [f.wind_pungs] if len(f.wind_pungs) == 4 else NONE


@fan(Fan.ALL_HONOURS)
def all_honours(f: Facts) -> list[Occurrence]:
    return whole(f, f.h.all_honours)


@fan(Fan.MIXED_ORPHANS)
def mixed_orphans(f: Facts) -> list[Occurrence]:
    return whole(f, f.standard and f.h.orphans_only and f.h.has_honours and not f.h.all_honours)


@fan(Fan.ORPHANS)
def orphans(f: Facts) -> list[Occurrence]:
    return whole(f, f.standard and f.h.all_terminals)


@fan(Fan.THIRTEEN_ORPHANS)
def thirteen_orphans(f: Facts) -> list[Occurrence]:
    return whole(f, f.dec.kind == ShapeKind.THIRTEEN_ORPHANS)


_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@fan(Fan.NINE_GATES)
def nine_gates(f: Facts) -> list[Occurrence]:
    h = f.h
    if not f.standard or h.hand.melds or len(h.suits) != 1 or h.has_honours:
        return NONE
    base = 9 * next(iter(h.suits))
    return whole(f, all(h.counts[base + r] >= n for r, n in enumerate(_NINE_GATES)))


@fan(Fan.FOUR_CONCEALED_PUNGS)
def four_concealed_pungs(f: Facts) -> list[Occurrence]:
    return [f.concealed_pungs] if f.standard and len(f.concealed_pungs) == 4 else NONE


@fan(Fan.ALL_KONGS)
def all_kongs(f: Facts) -> list[Occurrence]:
    return [f.kongs] if len(f.kongs) == 4 else NONE


@fan(Fan.HEAVENLY_HAND)
def heavenly_hand(f: Facts) -> list[Occurrence]:
    return situation(f.h.ctx.heavenly)


@fan(Fan.EARTHLY_HAND)
def earthly_hand(f: Facts) -> list[Occurrence]:
    return situation(f.h.ctx.earthly)


@fan(Fan.SEVEN_PAIRS)
def seven_pairs(f: Facts) -> list[Occurrence]:
    return whole(f, f.dec.kind == ShapeKind.SEVEN_PAIRS)


@fan(Fan.KONG_ON_KONG)
def kong_on_kong(f: Facts) -> list[Occurrence]:
    return situation(f.h.ctx.kong_on_kong)


# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("hk.predicates", NONE=NONE, ONCE=ONCE)
