"""Scoring a Hong Kong win: every decomposition through the table, the limit, points and payments."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine import analysis
from engine.errors import BadContextError, ContradictoryContextError
from engine.hand import ClaimedFrom, Hand, MeldKind, WinContext, Wind
from engine.registry import REGISTRY
from engine.results import Analysis, Evaluation, FanDef, FanHit, Scoring
from engine.rules.hk.facts import Facts, HandFacts
from engine.rules.hk.fans import TABLE, Fan
from engine.rules.hk.options import HkOptions, payments, points_for
from engine.rules.hk.predicates import PREDICATES, Occ
from engine.rules.model import Scope
from engine.rules.principles import Principles
from engine.shapes import Decomposition, SetKind, ShapeKind, TileSet, decompositions
from engine.tiles import DRAGONS, NUM_FLOWERS, WINDS

SHAPES = frozenset({ShapeKind.STANDARD, ShapeKind.THIRTEEN_ORPHANS})
SHAPES_WITH_PAIRS = SHAPES | {ShapeKind.SEVEN_PAIRS}
PRINCIPLES = Principles(TABLE.rows)
LIMIT_FANS = frozenset(int(r.id) for r in TABLE if r.limit)
FLOWER_FANS = frozenset(int(r.id) for r in TABLE if r.scope == Scope.BONUS)  # not counted toward min_faan
_PREDICATES = tuple((int(fan), find) for fan, find in PREDICATES.items())


def _sets(occ: Occ) -> tuple[int, ...]:
    return occ.sets


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
    raw: dict[int, list[Occ]] = {}
    for fid, find in _PREDICATES:
        occs = find(f)
        if occs:
            raw[fid] = occs
    if not options.kong_on_kong_faan:  # 杠上杠 not priced: the win is a plain 杠上开花
        raw.pop(Fan.KONG_ON_KONG, None)
    kept = PRINCIPLES.apply(raw, sets_of=_sets)
    if LIMIT_FANS.intersection(kept):  # a limit hand replaces every other fan
        kept = {fid: occs for fid, occs in kept.items() if fid in LIMIT_FANS}
    defs = fan_defs(options)
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
    return _scoring(tuple(hits), total, meets, f.dec, f.h.ctx, options)


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


def liability_situation(hand: Hand) -> bool:
    """包 applies: three dragon sets (大三元), four wind sets (大四喜) or four exposed melds (十二张落地)."""
    counts = hand.counts()
    return (all(counts[t] >= 3 for t in DRAGONS) or all(counts[t] >= 3 for t in WINDS)
            or sum(1 for m in hand.melds if not m.concealed) == 4)


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
    if ctx.liable != ClaimedFrom.NONE:
        if type(ctx.liable) is not ClaimedFrom:
            raise BadContextError(f"liable: {ctx.liable!r} is not a seat relative to the winner (left, across, right)",
                                  "liable")
        if not options.liability:
            raise BadContextError("liable: 包 is not played at this table (options.hk.liability is false)", "liable")
        if not liability_situation(hand):
            raise ContradictoryContextError("liable: 包 needs three dragon sets (大三元), four wind sets (大四喜) or "
                                            "four exposed melds (十二张落地), and this hand has none", "liable")
    if type(ctx.kong_on_kong) is not bool:
        raise BadContextError(f"kong_on_kong: expected true or false, got {ctx.kong_on_kong!r}", "kong_on_kong")
    if ctx.kong_on_kong:
        if not options.kong_on_kong_faan:
            raise BadContextError("kong_on_kong: 杠上杠 is not priced at this table (options.hk.kong_on_kong_faan is "
                                  "0)", "kong_on_kong")
        if not ctx.replacement_tile or sum(1 for m in hand.melds if m.is_kong) < 2:
            raise ContradictoryContextError("kong_on_kong: 杠上杠 is a win on a replacement tile (replacement_tile) "
                                            "after two kongs, and the hand declares fewer", "kong_on_kong")
    if type(ctx.flower_win) is not bool:
        raise BadContextError(f"flower_win: expected true or false, got {ctx.flower_win!r}", "flower_win")
    if ctx.flower_win:
        if not options.flower_hand:
            raise BadContextError("flower_win: 花胡 is not played at this table (options.hk.flower_hand is false)",
                                  "flower_win")
        held = len(ctx.flower_tiles)
        if not ((held == NUM_FLOWERS and ctx.self_drawn) or (held == NUM_FLOWERS - 1 and not ctx.self_drawn)):
            raise ContradictoryContextError(f"flower_win: a flower hand is all eight flowers self-drawn (八仙过海) or "
                                            f"seven robbing the eighth, not self-drawn (七抢一); flower_tiles holds "
                                            f"{held}, self_drawn is {str(ctx.self_drawn).lower()}", "flower_win")
        if ctx.robbing_kong or ctx.replacement_tile or ctx.kong_on_kong:
            raise ContradictoryContextError("flower_win: a flower hand is won on a flower, not on a robbed kong or a "
                                            "kong's replacement tile", "flower_win")


def shapes_of(options: HkOptions) -> frozenset[ShapeKind]:
    return SHAPES_WITH_PAIRS if options.seven_pairs_faan else SHAPES


def score(hand: Hand, ctx: WinContext, options: HkOptions) -> Evaluation:
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
