"""Scoring a 推倒胡 win (RULE_SET.score): the readings with ghosts (engine.wildcards), the multipliers, horses,
payments.

`score` reads the hand (`decompose`; a four-ghost win that makes no shape is read as held), asks the
predicates registered `of_hand` once and the others once per reading (predicates.py), and scores here the
rows named in `in_scoring`: the base win (推倒胡), the horses (中马, 马跟杠), 节节高 and 跟庄. The value a row
carries is its multiplier at this table (`value`: the row's default, or the option that prices it). The
table has no exclusions (豪华七对 in place of 七对 is its predicate's), so no Principles pass is needed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import shapes, wildcards
from engine.hand import ClaimedFrom, Hand, MeldKind, WinContext, Wind
from engine.registry import REGISTRY
from engine.results import Evaluation, FanDef, FanHit, Scoring
from engine.rules.guangdong.facts import Facts, four_concealed, four_ghosts_reading
from engine.rules.guangdong.fans import TABLE, Fan
from engine.rules.guangdong.options import GuangdongOptions, HorseStart
from engine.rules.guangdong.payments import seat_from, win_payments
from engine.rules.guangdong.predicates import PREDICATES
from engine.rules.model import Occurrence, Scope
from engine.shapes import Decomposition, ShapeKind
from engine.tiles import is_suited, offset_in_suit

SHAPES = frozenset({ShapeKind.STANDARD, ShapeKind.SEVEN_PAIRS, ShapeKind.THIRTEEN_ORPHANS})

Find = Callable[[Facts], list[Occurrence]]
# The predicates (fan id, predicate) asked once per hand (registered `of_hand`) and once per reading, in
# registration order.
_OF_HAND: tuple[tuple[int, Find], ...] = tuple((p.id, p.find) for p in PREDICATES if p.hints.get("of_hand"))
_OF_READING: tuple[tuple[int, Find], ...] = tuple((p.id, p.find) for p in PREDICATES if not p.hints.get("of_hand"))
# The rows that multiply the hand (every one but the bonuses: horses, 马跟杠, 节节高, 跟庄, counted apart).
_MULTIPLYING = frozenset(int(row.id) for row in TABLE.rows if row.scope is not Scope.BONUS)
# The option that prices a row at this table (`value`); any other row is worth its own value.
_PRICED_BY: dict[int, str] = {
    Fan.KONG_BLOOM: "kong_bloom_multiplier",
    Fan.FOUR_GHOSTS: "four_ghosts_multiplier",
    Fan.ALL_PUNGS: "all_pungs_multiplier",
    Fan.ONE_SUIT: "one_suit_multiplier",
    Fan.LUXURY_SEVEN_PAIRS: "luxury_seven_pairs_multiplier",
    Fan.THIRTEEN_ORPHANS: "thirteen_orphans_multiplier",
}
_ROW_VALUE: dict[int, int] = {int(row.id): row.value for row in TABLE.rows}


def wild_shapes(opts: GuangdongOptions) -> wildcards.WildShapes:
    return wildcards.WildShapes(opts.seven_pairs, opts.thirteen_orphans, allow_quad_pairs=True)


def allowed_shapes(opts: GuangdongOptions) -> frozenset[ShapeKind]:
    return frozenset({ShapeKind.STANDARD} | ({ShapeKind.SEVEN_PAIRS} if opts.seven_pairs else set())
                     | ({ShapeKind.THIRTEEN_ORPHANS} if opts.thirteen_orphans else set()))


def decompose(hand: Hand, opts: GuangdongOptions) -> list[Decomposition]:
    """With ghosts, engine.wildcards; without, the plain engine.shapes (same answers, tested), so a table
    without ghosts never builds the wildcard tables."""
    if opts.ghosts:
        return wildcards.decompositions_wild(hand, frozenset(opts.ghosts), wild_shapes(opts))
    allowed = allowed_shapes(opts)
    return [d for d in shapes.decompositions(hand, allow_quad_pairs=True) if d.kind in allowed]


def horse_position(tile: int) -> int:
    """0-3: which seat, counted from the start seat, a horse tile names (1 5 9 East Red: 0; 2 6 South
    Green: 1; 3 7 West White: 2; 4 8 North: 3)."""
    if is_suited(tile):
        return offset_in_suit(tile) % 4
    return (0, 1, 2, 3, 0, 1, 2)[offset_in_suit(tile)]


def horses_hit(horses: Sequence[int], winner: Wind, players: int, start: HorseStart) -> int:
    """How many horse tiles name the winner's seat (a position naming a seat not at the table hits nobody)."""
    first = winner if start == HorseStart.WINNER else Wind.EAST
    return sum(1 for t in horses if (first + horse_position(t)) % 4 == winner and winner < players)


def kong_units(hand: Hand) -> int:
    """马跟杠's kong value of the winner's kongs (S3): a concealed kong 2, an exposed or added kong 1."""
    return sum(2 if m.concealed else 1 for m in hand.melds if m.kind == MeldKind.KONG)


def value(fan: int, opts: GuangdongOptions) -> int:
    """What one occurrence of a row scored by a predicate is worth at this table: the option that prices it
    (the big hands, 杠上开花, 四鬼胡牌), else the row's own value."""
    name = _PRICED_BY.get(fan)
    return _ROW_VALUE[fan] if name is None else int(getattr(opts, name))


def _hit(fan: int, value: int, count: int = 1) -> FanHit:
    row = TABLE.by_id[int(fan)]
    return FanHit(FanDef(int(fan), row.name, row.native, value, (), row.description), count)


def _found(predicates: tuple[tuple[int, Find], ...], f: Facts) -> list[FanHit]:
    """The hits of the predicates that find their fan in `f`, each with its value at this table."""
    out: list[FanHit] = []
    for fid, find in predicates:
        occurrences = find(f)
        if occurrences:
            out.append(_hit(fid, value(fid, f.opts), len(occurrences)))
    return out


def score(hand: Hand, ctx: WinContext, opts: GuangdongOptions) -> Evaluation:
    """The entry point (RULE_SET.score): every reading scored, most points first (tiles and context already
    checked: context.py)."""
    decs = decompose(hand, opts)
    if not decs:  # 四鬼胡牌 wins whatever the other tiles
        if not (opts.four_ghosts_win and four_concealed(hand, frozenset(opts.ghosts))):
            return Evaluation(False)
        decs = [four_ghosts_reading(hand)]
    facts = Facts(hand, ctx, opts, decs[0])
    winner = ctx.seat_wind
    players = opts.players
    robbing = ctx.robbing_kong
    situation = [_hit(Fan.WIN, 1)] + _found(_OF_HAND, facts)
    hits = horses_hit(ctx.horse_tiles, winner, players, opts.horse_start)
    if hits:
        situation.append(_hit(Fan.HORSES, opts.horse_value or 1, hits))
    # 马跟杠 and 节节高 add to the multiple whatever the reading
    added = 0
    kongs = kong_units(hand) if opts.horse_kongs else 0
    if hits and kongs:
        situation.append(_hit(Fan.HORSE_KONGS, kongs, hits))
        added += hits * kongs
    if ctx.streak:
        situation.append(_hit(Fan.STREAK, opts.streak_value, ctx.streak))
        added += opts.streak_value * ctx.streak
    follow = opts.follow_dealer_points * opts.base_points if ctx.follow_dealer else 0
    if ctx.follow_dealer:
        situation.append(_hit(Fan.FOLLOW_DEALER, 1))
    # 杠爆全包: the context names who fed the kong (the meld's claimed seat is not part of a cached answer)
    feeder_rel = ctx.kong_fed_by if ctx.replacement_tile and opts.kong_burst_pays_all else ClaimedFrom.NONE
    robbed = seat_from(winner, ctx.discarded_by, players, "context.discarded_by") \
        if robbing and ctx.discarded_by != ClaimedFrom.NONE else None
    discarder = seat_from(winner, ctx.discarded_by, players, "context.discarded_by") \
        if not robbing and not ctx.self_drawn and ctx.discarded_by != ClaimedFrom.NONE else None
    feeder = seat_from(winner, feeder_rel, players, "context.kong_fed_by") \
        if feeder_rel != ClaimedFrom.NONE else None
    scorings = []
    for d in decs:
        fans = situation + _found(_OF_READING, facts if d is facts.dec else facts.reading(d))
        fans.sort(key=lambda h: h.fan.id)
        m = 1
        for h in fans:
            if h.fan.id in _MULTIPLYING:
                m *= h.fan.points ** h.count
        # each horse hit adds the hand's multiple again (马跟底分) or a fixed value (horse_value)
        total = m + hits * (opts.horse_value or m) + added
        points = opts.base_points * total
        pays = win_payments(winner=winner, players=players, points=points, self_drawn=ctx.self_drawn or robbing,
                            robbed=robbed, rob_pays_all=opts.rob_kong_pays_all, feeder=feeder, discarder=discarder,
                            follow_dealer=follow)
        scorings.append(Scoring(tuple(fans), total, True, d, points=points, payments=pays))
    ranked = sorted(range(len(scorings)), key=lambda i: -scorings[i].points)
    best = scorings[ranked[0]]
    return Evaluation(True, best, tuple(scorings[i] for i in ranked[1:]))


# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("guangdong.scoring", _PRICED_BY=_PRICED_BY, _ROW_VALUE=_ROW_VALUE)
