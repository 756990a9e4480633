"""Scoring one decomposition, and the rule set object: the MCR principles as one mechanism over the table.

Every predicate of the table is asked about the decomposition; identical occurrences (same fan, same
set contents) count once; then the mechanism every rule set shares (engine.rules.principles) decides
what counts: fans visited highest first (points, then id), a counted fan removing the fans it excludes
outright (`excludes`) or only the occurrences lying inside its sets (`excludes_on_sets`: 幺九刻, 箭刻,
门风刻, 四归一, 一般高, 连六, 老少副), and combination fans (sequences of chows or pungs) obeying the
account-once rule: an occurrence is admitted only if its sets are not yet joined to each other by an
earlier combination, i.e. the counted combinations form a forest over the sets.
"""

from __future__ import annotations

from engine.errors import MissingWinningTileError
from engine.hand import Hand, WinContext, Wind
from engine.registry import REGISTRY
from engine.results import Evaluation, FanHit, Scoring
from engine.rules.mcr.payments import two_player
from engine.rules.mcr2p.facts import Facts, waiting_tiles
from engine.rules.mcr2p.fans import TABLE
from engine.rules.mcr2p.options import DEALER_SEAT, TwoPlayerOptions
from engine.rules.mcr2p.predicates import PREDICATES
from engine.rules.model import Occurrence, Scope, shown_tiles
from engine.rules.principles import Forest, Principles
from engine.shapes import Decomposition, decompositions

MIN_POINTS = 8
ALLOW_QUAD_PAIRS = True

PRINCIPLES = Principles(TABLE.rows)
# The predicates, most points first (then by id); the fans shown on the winning tile (their row's scope).
_ORDER = sorted(PREDICATES, key=lambda p: (-p.row.value, p.id))
_SITUATIONAL = frozenset(int(row.id) for row in TABLE.rows if row.scope is Scope.SITUATION)


def _dedupe(f: Facts, occs: list[Occurrence]) -> list[Occurrence]:
    """Non-identical principle: the same fan on sets of the same content counts once."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for o in occs:
        key = (tuple(sorted((f.sets[i].kind, f.sets[i].first) for i in o)), shown_tiles(o))
        if key not in seen:
            seen.add(key)
            out.append(o)
    return out


def loser_seat(winner: Wind, non_dealer_seat: str) -> Wind:
    """The other player's seat (ruling 12): East when the non-dealer wins; when the dealer wins, the
    non-dealer's seat the option names, or West (the seed's code: 闲家为西) when it names none."""
    if winner != DEALER_SEAT:
        return DEALER_SEAT
    return Wind.WEST if non_dealer_seat == "any" else Wind[non_dealer_seat.upper()]


def score_decomposition(f: Facts, loser: Wind | None = None) -> Scoring:
    """One decomposition scored; a win that meets the minimum has its payments (`loser`: the other player's
    seat; None: no payments)."""
    raw: dict[int, list[Occurrence]] = {}
    for p in _ORDER:
        occs = p.find(f)
        if occs:
            raw[p.id] = _dedupe(f, occs)
    counted = PRINCIPLES.apply(raw, Forest(len(f.sets)))
    hits: list[FanHit] = []
    for fid, occs in counted.items():
        tiles = tuple(t for o in occs for t in _shown(f, fid, o))
        hits.append(FanHit(TABLE.def_by_id[fid], len(occs), tuple(sorted({i for o in occs for i in o})), tiles))
    hits.sort(key=lambda h: (-h.fan.points, h.fan.id))
    total = sum(h.points for h in hits)  # no flower fan in this table, so flowers never add
    meets = total >= MIN_POINTS
    paid = two_player(total, f.ctx.seat_wind, loser) if meets and loser is not None else ()
    return Scoring(tuple(hits), total, meets, f.dec, payments=paid)


def _shown(f: Facts, fid: int, o: Occurrence) -> tuple[int, ...]:
    """The tiles an occurrence shows: its own (`Showing`), the winning tile for a fan of the situation, else
    the tiles of its sets."""
    return shown_tiles(o) or ((f.win,) if fid in _SITUATIONAL else tuple(t for i in o for t in f.sets[i].tiles))


def score(hand: Hand, context: WinContext, options: TwoPlayerOptions | None = None) -> Evaluation:
    """The entry point (RULE_SET.score): every decomposition scored, best first (tiles and context already
    checked by the RuleSet)."""
    if hand.winning_tile is None:
        raise MissingWinningTileError("winning_tile: evaluating a win needs the winning tile", "winning_tile")
    decs: list[Decomposition] = decompositions(hand, ALLOW_QUAD_PAIRS)
    if not decs:
        return Evaluation(False)
    waits = waiting_tiles(hand, ALLOW_QUAD_PAIRS)
    loser = loser_seat(context.seat_wind, "any" if options is None else options.non_dealer_seat)
    scored = [score_decomposition(Facts(hand, context, d, waits), loser) for d in decs]
    # Best first: highest total; ties keep engine.shapes' decomposition order.
    ranked = [s for _, s in sorted(enumerate(scored), key=lambda p: (-p[1].total, p[0]))]
    return Evaluation(True, ranked[0], tuple(ranked[1:]))

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("mcr2p.scoring", _ORDER=_ORDER)
