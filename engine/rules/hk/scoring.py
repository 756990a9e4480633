"""Scoring a Hong Kong win (`score`, RULE_SET.score): every decomposition through the table, the limit, points
and payments.

Every predicate of predicates.py is asked about each decomposition (the dispatch `_PREDICATES` is derived from
PREDICATES once, at import); engine.rules.principles applies the exclusions of fans.py; a limit hand keeps only
its limit fans. Scored here, not by a predicate (PREDICATES.in_scoring): 鸡胡, when nothing but flower fans was
counted, and the flower hands 七抢一 and 八仙过海 (`flower_hand`), which win whatever the tiles. The tiles a
fan shows follow from its row (`_shown`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from engine import analysis
from engine.hand import Hand, MeldKind, WinContext
from engine.registry import REGISTRY
from engine.results import Analysis, Evaluation, FanDef, FanHit, Scoring
from engine.rules.hk.facts import Facts, HandFacts
from engine.rules.hk.fans import TABLE, Fan
from engine.rules.hk.options import HkOptions, payments, points_for
from engine.rules.hk.predicates import PREDICATES
from engine.rules.model import Occurrence, Scope, shown_tiles
from engine.rules.principles import Principles
from engine.shapes import Decomposition, SetKind, ShapeKind, TileSet, decompositions
from engine.tiles import NUM_FLOWERS

SHAPES = frozenset({ShapeKind.STANDARD, ShapeKind.THIRTEEN_ORPHANS})
SHAPES_WITH_PAIRS = SHAPES | {ShapeKind.SEVEN_PAIRS}
PRINCIPLES = Principles(TABLE.rows)
LIMIT_FANS = frozenset(int(r.id) for r in TABLE if r.limit)
FLOWER_FANS = frozenset(int(r.id) for r in TABLE if r.scope == Scope.BONUS)  # not counted toward min_faan
# What a fan on no set shows (its row's scope): a fan of the situation the winning tile, a flower fan nothing.
_SITUATIONAL = frozenset(int(r.id) for r in TABLE if r.scope == Scope.SITUATION)
# The dispatch, derived from the one registry: (fan id, predicate) in registration order.
_PREDICATES: Final = tuple((p.id, p.find) for p in PREDICATES)


def fan_defs(options: HkOptions) -> dict[int, FanDef]:
    """The table's fans as the options value them: the limit rows at the limit, the optional rows (七对, 杠上杠,
    七抢一, 八仙过海) at their options' faan."""
    return _fan_defs(options.limit, options.seven_pairs_faan, options.kong_on_kong_faan, options.seven_flowers_faan,
                     options.eight_flowers_faan)


@REGISTRY.memo("hk.scoring.fan_defs")
@cache
def _fan_defs(limit: int, seven_pairs: int, kong_on_kong: int, seven_flowers: int, eight_flowers: int
              ) -> dict[int, FanDef]:
    optional = {Fan.SEVEN_PAIRS: seven_pairs, Fan.KONG_ON_KONG: kong_on_kong, Fan.SEVEN_FLOWERS: seven_flowers,
                Fan.EIGHT_FLOWERS: eight_flowers}
    out = {}
    for row in TABLE:
        d = TABLE.def_by_id[int(row.id)]
        value = limit if row.limit else optional.get(Fan(row.id), d.points)
        out[int(row.id)] = d if value == d.points else FanDef(d.id, d.name, d.name_zh, value, d.excludes,
                                                              d.description)
    return out


def _order(h: FanHit) -> tuple[int, int]:
    return (-h.fan.points, h.fan.id)


def score_decomposition(f: Facts, options: HkOptions) -> Scoring:
    """One decomposition scored: faan (the limit applied), points, and the payments of a win that meets
    the minimum (none for one that does not: it cannot be won)."""
    raw: dict[int, list[Occurrence]] = {}
    for fid, find in _PREDICATES:
        occs = find(f)
        if occs:
            raw[fid] = occs
    if not options.kong_on_kong_faan:  # 杠上杠 not priced: the win is a plain 杠上开花
        raw.pop(Fan.KONG_ON_KONG, None)
    kept = PRINCIPLES.apply(raw)
    if LIMIT_FANS.intersection(kept):  # a limit hand replaces every other fan
        kept = {fid: occs for fid, occs in kept.items() if fid in LIMIT_FANS}
    defs = fan_defs(options)
    hits = []
    for fid, occs in kept.items():
        tiles = tuple(t for o in occs for t in _shown(f, fid, o))
        hits.append(FanHit(defs[fid], len(occs), tuple(sorted({i for o in occs for i in o})), tiles))
    hand_faan = sum(h.points for h in hits if h.fan.id not in FLOWER_FANS)
    if not any(h.fan.id not in FLOWER_FANS for h in hits):
        hits.append(FanHit(defs[Fan.CHICKEN_HAND], 1, f.all_sets))
    hits.sort(key=_order)
    if any(h.fan.id in LIMIT_FANS for h in hits):
        total = hand_faan = options.limit
    else:
        total = min(options.limit, sum(h.points for h in hits))
    meets = hand_faan >= options.min_faan
    return _scoring(tuple(hits), total, meets, f.dec, f.h.ctx, options)


def _shown(f: Facts, fid: int, o: Occurrence) -> tuple[int, ...]:
    """The tiles an occurrence shows: its own (`Showing`), else the tiles of its sets; on no set, the winning tile
    for a fan of the situation, the decomposition's own tiles for one of the hand (thirteen orphans, which has no
    sets), nothing for a flower fan."""
    shown = shown_tiles(o)
    if shown:
        return shown
    if o:
        return tuple([t for i in o for t in f.sets[i].tiles])
    if fid in _SITUATIONAL:
        return (f.h.win,)
    return () if fid in FLOWER_FANS else tuple(f.dec.knitted)


def _scoring(hits: tuple[FanHit, ...], total: int, meets: bool, dec: Decomposition, ctx: WinContext,
             options: HkOptions) -> Scoring:
    points = points_for(total, options.points_table)
    paid = payments(points, ctx.seat_wind, ctx.self_drawn, ctx.discarded_by, options, ctx.liable) if meets else ()
    return Scoring(hits, total, meets, dec, points=points, payments=tuple([(int(w), amount) for w, amount in paid]))


def flower_fan(ctx: WinContext) -> Fan:
    """The flower hand a checked context.flower_win claims: 八仙过海 (all eight flowers, the eighth self-drawn) or
    七抢一 (seven flowers, the eighth robbed from the player who drew it: not self-drawn)."""
    return Fan.EIGHT_FLOWERS if len(ctx.flower_tiles) == NUM_FLOWERS else Fan.SEVEN_FLOWERS


def flower_hand(hand: Hand, ctx: WinContext, fan: Fan, options: HkOptions) -> Scoring:
    """A flower hand: its one fan (the limit caps it), whatever the tiles; the decomposition lists the melds as
    sets and every concealed tile, the winning tile included, in `knitted` (the tiles are not judged)."""
    d = fan_defs(options)[fan]
    melds = tuple(TileSet(_SET_KIND[m.kind], m.tiles[0], m.concealed, i) for i, m in enumerate(hand.melds))
    dec = Decomposition(ShapeKind.STANDARD, melds, hand.all_concealed(), hand.winning_tile)
    return _scoring((FanHit(d, 1),), min(options.limit, d.points), True, dec, ctx, options)


_SET_KIND = {MeldKind.CHOW: SetKind.CHOW, MeldKind.PUNG: SetKind.PUNG, MeldKind.KONG: SetKind.KONG}


def shapes_of(options: HkOptions) -> frozenset[ShapeKind]:
    return SHAPES_WITH_PAIRS if options.seven_pairs_faan else SHAPES


def score(hand: Hand, ctx: WinContext, options: HkOptions) -> Evaluation:
    """The entry point (RULE_SET.score): a flower hand as claimed, else every decomposition of the shapes the
    options play, best first (tiles and context already checked by the RuleSet)."""
    if ctx.flower_win:  # the win is the flower hand: the tiles are not judged
        return Evaluation(True, flower_hand(hand, ctx, flower_fan(ctx), options))
    shapes = shapes_of(options)
    decs: list[Decomposition] = [d for d in decompositions(hand, False) if d.kind in shapes]
    if not decs:
        return Evaluation(False)
    h = HandFacts(hand, ctx, options.flowers)
    scored = [score_decomposition(Facts(h, d), options) for d in decs]
    # Best first: the highest faan; ties keep engine.shapes' decomposition order.
    ranked = [s for _, s in sorted(enumerate(scored), key=lambda p: (-p[1].total, p[0]))]
    return Evaluation(True, ranked[0], tuple(ranked[1:]))


def analyze(hand: Hand, visible: Sequence[int], options: HkOptions) -> Analysis:
    """The shared analysis over the shapes this table plays (seven pairs with seven_pairs_faan)."""
    return analysis.analyze(hand, visible, allow_quad_pairs=False, shapes=shapes_of(options))

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("hk.scoring", _SET_KIND=_SET_KIND)
