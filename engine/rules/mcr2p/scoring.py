"""Scoring one decomposition, and the rule set object: the MCR principles as one mechanism over the table.

Fans are tried highest first (points, then id). A fan already counted removes the fans it
excludes: outright for hand-scoped fans, or only the occurrences lying inside its sets for
set-scoped ones (幺九刻, 箭刻, 门风刻, 四归一, 一般高, 连六, 老少副). Identical occurrences (same
fan, same set contents) count once. Combination fans (sequences of chows or pungs) obey the
account-once rule: an occurrence is admitted only if its sets are not yet joined to each other
by an earlier combination, i.e. the counted combinations form a forest over the sets.
"""

from __future__ import annotations

from collections import defaultdict

from engine.errors import BadTileError, ContradictoryContextError, MissingWinningTileError
from engine.hand import Hand, WinContext, Wind
from engine.results import Evaluation, FanDef, FanHit, Scoring
from engine.rules.mcr2p.facts import TILE_KINDS, Facts, waiting_tiles
from engine.rules.mcr2p.fans import FANS, SPECS, FanSpec, Occ
from engine.shapes import Decomposition, decompositions
from engine.tiles import format_tile, tile_name

MIN_POINTS = 8
ALLOW_QUAD_PAIRS = True

_ORDER: tuple[FanSpec, ...] = tuple(sorted(SPECS, key=lambda s: (-s.fan.points, s.fan.id)))
_SCOPE: dict[int, str] = {s.fan.id: s.scope for s in SPECS}


def _dedupe(f: Facts, occs: list[Occ]) -> list[Occ]:
    """Non-identical principle: the same fan on sets of the same content counts once."""
    seen: set[tuple] = set()
    out = []
    for o in occs:
        key = (tuple(sorted((f.sets[i].kind, f.sets[i].first) for i in o.sets)), o.tiles)
        if key not in seen:
            seen.add(key)
            out.append(o)
    return out


class _Forest:
    """Union-find over set indices for the account-once principle."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def root(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def admit(self, sets: tuple[int, ...]) -> bool:
        roots = [self.root(i) for i in sets]
        if len(set(roots)) != len(roots):
            return False
        for r in roots[1:]:
            self.parent[r] = roots[0]
        return True


def score_decomposition(f: Facts) -> Scoring:
    excluded: set[int] = set()  # hand-scoped fans removed outright
    fenced: dict[int, list[frozenset[int]]] = defaultdict(list)  # set-scoped fan -> set groups it may not use
    forest = _Forest(len(f.sets))
    hits: list[FanHit] = []
    for spec in _ORDER:
        fid = spec.fan.id
        if fid in excluded:
            continue
        occs = spec.find(f)
        if not occs:
            continue
        occs = _dedupe(f, occs)
        if fenced.get(fid):
            occs = [o for o in occs if not any(set(o.sets) <= g for g in fenced[fid])]
        if spec.combo:
            occs = [o for o in occs if forest.admit(o.sets)]
        if not occs:
            continue
        covered = frozenset(i for o in occs for i in o.sets) or frozenset(f.all_sets)
        for x in spec.fan.excludes:
            if _SCOPE[x] == "sets":
                fenced[x].append(covered)
            else:
                excluded.add(x)
        tiles = tuple(t for o in occs for t in (o.tiles or tuple(t for i in o.sets for t in f.sets[i].tiles)))
        hits.append(FanHit(spec.fan, len(occs), tuple(sorted({i for o in occs for i in o.sets})), tiles))
    hits.sort(key=lambda h: (-h.fan.points, h.fan.id))
    total = sum(h.points for h in hits)  # no flower fan in this table, so flowers never add
    return Scoring(tuple(hits), total, total >= MIN_POINTS, f.dec)


def check_context(hand: Hand, ctx: WinContext) -> None:
    """Situations the two-player table makes impossible (beyond engine.hand.validate_context)."""
    first_turn = "heavenly" if ctx.heavenly else ("earthly" if ctx.earthly else "")
    if first_turn and hand.melds:
        raise ContradictoryContextError(
            f"{first_turn}: a first-turn win has no declared set (a kong after the deal voids it)", first_turn)
    if ctx.earthly and not ctx.self_drawn:
        raise ContradictoryContextError("earthly and self_drawn: 地胡 is won on the non-dealer's first draw",
                                        "earthly")
    if ctx.heavenly and ctx.seat_wind != Wind.EAST:
        raise ContradictoryContextError("heavenly and seat_wind: 天胡 is the dealer's, who sits East", "heavenly")
    if ctx.earthly and ctx.seat_wind == Wind.EAST:
        raise ContradictoryContextError("earthly and seat_wind: 地胡 is a non-dealer's, and East is the dealer",
                                        "earthly")
    if ctx.heavenly and ctx.ready_declared:
        raise ContradictoryContextError("heavenly and ready_declared: the dealer wins on the deal, before any "
                                        "ready declaration", "ready_declared")
    if first_turn and ctx.last_wall_tile:
        raise ContradictoryContextError(f"{first_turn} and last_wall_tile: a first-turn win is not on the last tile",
                                        "last_wall_tile")


class TwoPlayerRules:
    """二人麻将: characters and honours, the seed's 61-fan table."""

    name = "mcr2p"
    min_points = MIN_POINTS
    allow_quad_pairs = ALLOW_QUAD_PAIRS
    tile_kinds: frozenset[int] = TILE_KINDS
    fans: tuple[FanDef, ...] = FANS

    def check_tiles(self, hand: Hand) -> None:
        where = [("concealed", t) for t in hand.concealed]
        where += [(f"melds[{i}].tiles", t) for i, m in enumerate(hand.melds) for t in m.tiles]
        if hand.winning_tile is not None:
            where.append(("winning_tile", hand.winning_tile))
        for field, t in where:
            if t not in TILE_KINDS:
                raise BadTileError(f"{field}: {format_tile(t)} ({tile_name(t)}) is not played in mcr2p, "
                                   "which uses characters and honours only", field)

    def evaluate(self, hand: Hand, context: WinContext) -> Evaluation:
        if hand.winning_tile is None:
            raise MissingWinningTileError("winning_tile: evaluating a win needs the winning tile", "winning_tile")
        self.check_tiles(hand)
        check_context(hand, context)
        decs: list[Decomposition] = decompositions(hand, ALLOW_QUAD_PAIRS)
        if not decs:
            return Evaluation(False)
        waits = waiting_tiles(hand, ALLOW_QUAD_PAIRS)
        scored = [score_decomposition(Facts(hand, context, d, waits)) for d in decs]
        # Best first: highest total; ties keep engine.shapes' decomposition order.
        ranked = [s for _, s in sorted(enumerate(scored), key=lambda p: (-p[1].total, p[0]))]
        return Evaluation(True, ranked[0], tuple(ranked[1:]))
