"""Scoring a Hong Kong win: every decomposition through the table, the limit, points and payments."""

from __future__ import annotations

from functools import cache

from engine.errors import BadContextError, ContradictoryContextError
from engine.hand import ClaimedFrom, Hand, WinContext, Wind
from engine.results import Evaluation, FanDef, FanHit, Scoring
from engine.rules.hk.facts import Facts, HandFacts
from engine.rules.hk.fans import TABLE, Fan
from engine.rules.hk.options import HkOptions, payments, points_for
from engine.rules.hk.predicates import PREDICATES, Occ
from engine.rules.model import Scope
from engine.rules.principles import Principles
from engine.shapes import Decomposition, ShapeKind, decompositions

SHAPES = frozenset({ShapeKind.STANDARD, ShapeKind.THIRTEEN_ORPHANS})
PRINCIPLES = Principles(TABLE.rows)
LIMIT_FANS = frozenset(int(r.id) for r in TABLE if r.limit)
FLOWER_FANS = frozenset(int(r.id) for r in TABLE if r.scope == Scope.BONUS)  # not counted toward min_faan
_PREDICATES = tuple((int(fan), find) for fan, find in PREDICATES.items())


def _sets(occ: Occ) -> tuple[int, ...]:
    return occ.sets


@cache
def fan_defs(limit: int) -> dict[int, FanDef]:
    """The table's fans with the limit rows valued at `limit` (what a limit hand scores under the options)."""
    out = {}
    for row in TABLE:
        d = TABLE.def_by_id[int(row.id)]
        out[int(row.id)] = FanDef(d.id, d.name, d.name_zh, limit, d.excludes, d.description) if row.limit else d
    return out


def _order(h: FanHit) -> tuple[int, int]:
    return (-h.fan.points, h.fan.id)


def score_decomposition(f: Facts, options: HkOptions) -> Scoring:
    """One decomposition scored: faan (the limit applied), points, and the payments of a win that meets
    the minimum (none for one that does not: it cannot be won)."""
    raw: dict[int, list[Occ]] = {}
    for fid, find in _PREDICATES:
        occs = find(f)
        if occs:
            raw[fid] = occs
    kept = PRINCIPLES.apply(raw, sets_of=_sets)
    if LIMIT_FANS.intersection(kept):  # a limit hand replaces every other fan
        kept = {fid: occs for fid, occs in kept.items() if fid in LIMIT_FANS}
    defs = fan_defs(options.limit)
    hits = []
    for fid, occs in kept.items():
        tiles = tuple(t for o in occs for t in (o.tiles or tuple(t for i in o.sets for t in f.sets[i].tiles)))
        hits.append(FanHit(defs[fid], len(occs), tuple(sorted({i for o in occs for i in o.sets})), tiles))
    hand_faan = sum(h.points for h in hits if h.fan.id not in FLOWER_FANS)
    if not any(h.fan.id not in FLOWER_FANS for h in hits):
        hits.append(FanHit(defs[Fan.CHICKEN_HAND], 1, f.all_sets))
    hits.sort(key=_order)
    if any(h.fan.id in LIMIT_FANS for h in hits):
        total = hand_faan = options.limit
    else:
        total = min(options.limit, sum(h.points for h in hits))
    meets = hand_faan >= options.min_faan
    points = points_for(total, options.points_table)
    ctx = f.h.ctx
    paid = payments(points, ctx.seat_wind, ctx.self_drawn, ctx.discarded_by, options) if meets else ()
    return Scoring(tuple(hits), total, meets, f.dec, points=points,
                   payments=tuple([(int(w), amount) for w, amount in paid]))


def check_context(hand: Hand, ctx: WinContext, options: HkOptions) -> None:
    """Situations Hong Kong rules make impossible, beyond engine.hand.validate_context."""
    if ctx.flower_tiles and not options.flowers:
        raise ContradictoryContextError("flower_tiles: the game is played without flowers (options.hk.flowers is "
                                        "false)", "flower_tiles")
    if ctx.flowers and ctx.flowers != len(ctx.flower_tiles):
        raise BadContextError(f"flowers: hk scores which flowers the winner holds (the seat's own, complete groups); "
                              f"give them in flower_tiles (flowers says {ctx.flowers}, flower_tiles holds "
                              f"{len(ctx.flower_tiles)})", "flower_tiles")
    if ctx.self_drawn and ctx.discarded_by != ClaimedFrom.NONE:
        raise ContradictoryContextError("discarded_by and self_drawn: a self-drawn tile was discarded by no one",
                                        "discarded_by")
    first_turn = "heavenly" if ctx.heavenly else ("earthly" if ctx.earthly else "")
    if first_turn and hand.melds:
        raise ContradictoryContextError(f"{first_turn}: a first-turn win has no declared set (a kong voids it)",
                                        first_turn)
    if ctx.heavenly and ctx.seat_wind != Wind.EAST:
        raise ContradictoryContextError("heavenly and seat_wind: 天胡 is the dealer's, who sits East", "heavenly")
    if ctx.earthly and ctx.seat_wind == Wind.EAST:
        raise ContradictoryContextError("earthly and seat_wind: 地胡 is a non-dealer's, and East is the dealer",
                                        "earthly")
    if first_turn and (ctx.last_wall_tile or ctx.replacement_tile or ctx.robbing_kong):
        raise ContradictoryContextError(f"{first_turn}: a first-turn win is not on the last tile, a replacement tile "
                                        "or a robbed kong", first_turn)


def score(hand: Hand, ctx: WinContext, options: HkOptions) -> Evaluation:
    decs: list[Decomposition] = [d for d in decompositions(hand, False) if d.kind in SHAPES]
    if not decs:
        return Evaluation(False)
    h = HandFacts(hand, ctx, options.flowers)
    scored = [score_decomposition(Facts(h, d), options) for d in decs]
    # Best first: the highest faan; ties keep engine.shapes' decomposition order.
    ranked = [s for _, s in sorted(enumerate(scored), key=lambda p: (-p[1].total, p[0]))]
    return Evaluation(True, ranked[0], tuple(ranked[1:]))
