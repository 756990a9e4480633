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

from operator import attrgetter

from engine.errors import ContradictoryContextError, MissingWinningTileError
from engine.hand import Hand, WinContext, Wind
from engine.results import Evaluation, FanHit, Scoring
from engine.rules.mcr.payments import two_player
from engine.rules.mcr2p.facts import Facts, waiting_tiles
from engine.rules.mcr2p.fans import FIND, TABLE, Occ
from engine.rules.principles import Forest, Principles
from engine.shapes import Decomposition, decompositions

MIN_POINTS = 8
ALLOW_QUAD_PAIRS = True
# The seats of a two-player table: the dealer sits East, the other player at one seat the table agrees
# on (ruling 11); which one changes no fan, so any non-East seat is accepted as the non-dealer's.
DEALER_SEAT = Wind.EAST

PRINCIPLES = Principles(TABLE.rows)
_ORDER = sorted(FIND, key=lambda fid: (-TABLE[fid].value, fid))
_SETS_OF = attrgetter("sets")


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


def loser_seat(winner: Wind, non_dealer_seat: str) -> Wind:
    """The other player's seat (ruling 12): East when the non-dealer wins; when the dealer wins, the
    non-dealer's seat the option names, or West (the seed's code: 闲家为西) when it names none."""
    if winner != DEALER_SEAT:
        return DEALER_SEAT
    return Wind.WEST if non_dealer_seat == "any" else Wind[non_dealer_seat.upper()]


def score_decomposition(f: Facts, loser: Wind | None = None) -> Scoring:
    """One decomposition scored; a win that meets the minimum has its payments (`loser`: the other player's
    seat; None: no payments)."""
    raw: dict[int, list[Occ]] = {}
    for fid in _ORDER:
        occs = FIND[fid](f)
        if occs:
            raw[fid] = _dedupe(f, occs)
    counted = PRINCIPLES.apply(raw, Forest(len(f.sets)), _SETS_OF)
    hits: list[FanHit] = []
    for fid, occs in counted.items():
        tiles = tuple(t for o in occs for t in (o.tiles or tuple(t for i in o.sets for t in f.sets[i].tiles)))
        hits.append(FanHit(TABLE.def_by_id[fid], len(occs), tuple(sorted({i for o in occs for i in o.sets})), tiles))
    hits.sort(key=lambda h: (-h.fan.points, h.fan.id))
    total = sum(h.points for h in hits)  # no flower fan in this table, so flowers never add
    meets = total >= MIN_POINTS
    paid = two_player(total, f.ctx.seat_wind, loser) if meets and loser is not None else ()
    return Scoring(tuple(hits), total, meets, f.dec, payments=paid)


def check_context(hand: Hand, ctx: WinContext, options: object = None) -> None:
    """Situations the two-player table makes impossible (beyond engine.hand.validate_context)."""
    if ctx.heavenly_ready and any(not m.concealed for m in hand.melds):
        raise ContradictoryContextError(
            "heavenly_ready: 天听 is declared on the deal, before any tile can be claimed, so a hand with a "
            "claimed meld cannot hold it", "heavenly_ready")
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


def evaluate(hand: Hand, context: WinContext, options: object = None) -> Evaluation:
    """Every decomposition scored, best first (tiles and context already checked by the RuleSet)."""
    if hand.winning_tile is None:
        raise MissingWinningTileError("winning_tile: evaluating a win needs the winning tile", "winning_tile")
    decs: list[Decomposition] = decompositions(hand, ALLOW_QUAD_PAIRS)
    if not decs:
        return Evaluation(False)
    waits = waiting_tiles(hand, ALLOW_QUAD_PAIRS)
    loser = loser_seat(context.seat_wind, getattr(options, "non_dealer_seat", "any"))
    scored = [score_decomposition(Facts(hand, context, d, waits), loser) for d in decs]
    # Best first: highest total; ties keep engine.shapes' decomposition order.
    ranked = [s for _, s in sorted(enumerate(scored), key=lambda p: (-p[1].total, p[0]))]
    return Evaluation(True, ranked[0], tuple(ranked[1:]))
