"""Scoring a 推倒胡 win: the shapes with ghosts (engine.wildcards), the multipliers, horses, payments."""

from __future__ import annotations

from collections.abc import Sequence

from engine import analysis, shapes, wildcards
from engine.errors import BadContextError, BadMeldError, BadTileError, ContradictoryContextError
from engine.hand import ClaimedFrom, Hand, MeldKind, WinContext, Wind
from engine.registry import REGISTRY
from engine.results import Analysis, DiscardOption, Evaluation, FanDef, FanHit, Scoring, TileCount
from engine.rules.guangdong.fans import TABLE, Fan
from engine.rules.guangdong.options import GuangdongOptions, HorseStart
from engine.rules.guangdong.payments import seat_from, seats, win_payments
from engine.shapes import Decomposition, SetKind, ShapeKind, TileSet
from engine.tiles import NUM_KINDS, check_tiles, format_tile, is_honor, is_suited, offset_in_suit, suit_of, tile_name

SHAPES = frozenset({ShapeKind.STANDARD, ShapeKind.SEVEN_PAIRS, ShapeKind.THIRTEEN_ORPHANS})
MAX_HORSES = 20
MAX_STREAK = 100
SUITED = frozenset(range(27))
ALL = frozenset(range(NUM_KINDS))


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


def _check_tiles_played(hand: Hand, opts: GuangdongOptions) -> None:
    if opts.honors:
        return
    where = [("hand.concealed", t) for t in hand.concealed]
    where += [(f"hand.melds[{i}].tiles", t) for i, m in enumerate(hand.melds) for t in m.tiles]
    if hand.winning_tile is not None:
        where.append(("hand.winning_tile", hand.winning_tile))
    for name, t in where:
        if is_honor(t):
            raise BadTileError(f"{name}: {format_tile(t)} ({tile_name(t)}) is not played: honours are off "
                               "(options.guangdong.honors false)", name)


def _check_melds(hand: Hand, opts: GuangdongOptions) -> None:
    if opts.chow_melds:
        return
    for i, m in enumerate(hand.melds):
        if m.kind == MeldKind.CHOW:
            raise BadMeldError(f"hand.melds[{i}]: 推倒胡 declares no chow (options.guangdong.chow_melds false)",
                               f"hand.melds[{i}].kind")


def check_hand(hand: Hand, opts: GuangdongOptions) -> None:
    _check_tiles_played(hand, opts)
    _check_melds(hand, opts)


def check_context(hand: Hand, ctx: WinContext, opts: GuangdongOptions) -> None:
    """Beyond engine.hand.validate_context: the seat is at the table, the win is one the options allow,
    the horses are tiles in play, the seats named exist."""
    check_hand(hand, opts)
    if ctx.seat_wind >= opts.players:
        raise BadContextError(f"context.seat_wind: {ctx.seat_wind.name.lower()} is not at a {opts.players}-player "
                              f"table ({', '.join(s.name.lower() for s in seats(opts.players))})", "context.seat_wind")
    if opts.self_draw_only and not (ctx.self_drawn or ctx.robbing_kong):
        raise ContradictoryContextError("context.self_drawn: this table wins only by self-draw or robbing a kong "
                                        "(options.guangdong.self_draw_only)", "context.self_drawn")
    if len(ctx.horse_tiles) > MAX_HORSES:
        raise BadContextError(f"context.horse_tiles: {len(ctx.horse_tiles)} horses, at most {MAX_HORSES}",
                              "context.horse_tiles")
    check_tiles(ctx.horse_tiles, "context.horse_tiles")
    if not opts.honors:
        for i, t in enumerate(ctx.horse_tiles):
            if is_honor(t):
                raise BadTileError(f"context.horse_tiles[{i}]: {format_tile(t)} is not played: honours are off",
                                   f"context.horse_tiles[{i}]")
    if ctx.kong_fed_by != ClaimedFrom.NONE and not ctx.replacement_tile:
        raise ContradictoryContextError("context.kong_fed_by: names the feeder of the kong a replacement-tile win "
                                        "follows, but replacement_tile is false", "context.kong_fed_by")
    if ctx.kong_fed_by != ClaimedFrom.NONE and not any(m.kind == MeldKind.KONG and not m.concealed
                                                       for m in hand.melds):
        raise ContradictoryContextError("context.kong_fed_by: a fed kong is an exposed kong, and the hand declares "
                                        "none", "context.kong_fed_by")
    for name in ("discarded_by", "kong_fed_by"):
        rel = getattr(ctx, name)
        if rel != ClaimedFrom.NONE:
            seat_from(ctx.seat_wind, rel, opts.players, f"context.{name}")
    if ctx.self_drawn and ctx.discarded_by != ClaimedFrom.NONE:
        raise ContradictoryContextError("context.discarded_by: a self-drawn tile was discarded by nobody",
                                        "context.discarded_by")
    streak = ctx.streak
    if type(streak) is not int or not 0 <= streak <= MAX_STREAK:
        raise BadContextError(f"context.streak: {streak!r} is out of range 0..{MAX_STREAK}", "context.streak")
    if streak and not opts.streak_value:
        raise BadContextError("context.streak: 节节高 is not played at this table (options.guangdong.streak_value "
                              "is 0)", "context.streak")


def _hit(fan: Fan, value: int, count: int = 1) -> FanHit:
    row = TABLE[fan]
    return FanHit(FanDef(int(fan), row.name, row.native, value, (), row.description), count)


def _four_ghosts(hand: Hand) -> Decomposition:
    """A four-ghost win on a hand that is not otherwise complete: the melds, the concealed tiles as held."""
    melds = tuple(TileSet(_SET_KIND[m.kind], m.tiles[0], m.concealed, i) for i, m in enumerate(hand.melds))
    return Decomposition(ShapeKind.STANDARD, melds, hand.all_concealed(), hand.winning_tile)


def kong_units(hand: Hand) -> int:
    """马跟杠's kong value of the winner's kongs (S3): a concealed kong 2, an exposed or added kong 1."""
    return sum(2 if m.concealed else 1 for m in hand.melds if m.kind == MeldKind.KONG)


def big_hands(d: Decomposition, opts: GuangdongOptions) -> list[FanHit]:
    """The big-hand multipliers a room set above 1 (and 七对 / 豪华七对) that this decomposition scores."""
    out: list[FanHit] = []
    if d.kind == ShapeKind.SEVEN_PAIRS:
        firsts = [s.first for s in d.sets]
        if opts.luxury_seven_pairs_multiplier and len(set(firsts)) < len(firsts):
            out.append(_hit(Fan.LUXURY_SEVEN_PAIRS, opts.luxury_seven_pairs_multiplier))
        elif opts.seven_pairs_double:
            out.append(_hit(Fan.SEVEN_PAIRS, 2))
    complete = d.kind == ShapeKind.SEVEN_PAIRS or (d.kind == ShapeKind.STANDARD and len(d.sets) == 5)
    if opts.all_pungs_multiplier > 1 and d.kind == ShapeKind.STANDARD and len(d.sets) == 5 \
            and all(s.kind in (SetKind.PUNG, SetKind.KONG) for s in d.sets[:4]):
        out.append(_hit(Fan.ALL_PUNGS, opts.all_pungs_multiplier))
    if opts.one_suit_multiplier > 1 and complete:
        made = [t for s in d.sets for t in s.tiles]
        if not any(is_honor(t) for t in made) and len({suit_of(t) for t in made}) == 1:
            out.append(_hit(Fan.ONE_SUIT, opts.one_suit_multiplier))
    if opts.thirteen_orphans_multiplier > 1 and d.kind == ShapeKind.THIRTEEN_ORPHANS:
        out.append(_hit(Fan.THIRTEEN_ORPHANS, opts.thirteen_orphans_multiplier))
    return out


def score(hand: Hand, ctx: WinContext, opts: GuangdongOptions) -> Evaluation:
    wild = frozenset(opts.ghosts)
    held = hand.counts()
    ghosts_held = sum(held[t] for t in wild)
    concealed_ghosts = sum(1 for t in hand.all_concealed() if t in wild)
    decs = decompose(hand, opts)
    four = opts.four_ghosts_win and concealed_ghosts >= 4
    if not decs:
        if not four:
            return Evaluation(False)
        decs = [_four_ghosts(hand)]
    winner = ctx.seat_wind
    players = opts.players
    robbing = ctx.robbing_kong
    bloom = ctx.replacement_tile
    # 杠爆全包: the context names who fed the kong (the meld's claimed seat is not part of a cached answer)
    feeder_rel = ctx.kong_fed_by if bloom and opts.kong_burst_pays_all else ClaimedFrom.NONE
    situation: list[FanHit] = [_hit(Fan.WIN, 1)]
    if robbing:
        situation.append(_hit(Fan.ROBBING_KONG, 1))
    elif ctx.self_drawn:
        situation.append(_hit(Fan.SELF_DRAWN, 1))
    else:
        situation.append(_hit(Fan.DISCARD_WIN, 1))
    multiple = 1
    if wild and not ghosts_held and opts.no_ghost_double:
        situation.append(_hit(Fan.NO_GHOSTS, 2))
        multiple *= 2
    if bloom:
        situation.append(_hit(Fan.KONG_BLOOM, opts.kong_bloom_multiplier))
        multiple *= opts.kong_bloom_multiplier
        if feeder_rel != ClaimedFrom.NONE:
            situation.append(_hit(Fan.KONG_BURST, 1))
    if four:
        situation.append(_hit(Fan.FOUR_GHOSTS, opts.four_ghosts_multiplier))
        multiple *= opts.four_ghosts_multiplier
    hits = horses_hit(ctx.horse_tiles, winner, players, opts.horse_start)
    if hits:
        situation.append(_hit(Fan.HORSES, opts.horse_value or 1, hits))
    # 马跟杠 and 节节高 add to the multiple whatever the decomposition
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
    robbed = seat_from(winner, ctx.discarded_by, players, "context.discarded_by") \
        if robbing and ctx.discarded_by != ClaimedFrom.NONE else None
    discarder = seat_from(winner, ctx.discarded_by, players, "context.discarded_by") \
        if not robbing and not ctx.self_drawn and ctx.discarded_by != ClaimedFrom.NONE else None
    feeder = seat_from(winner, feeder_rel, players, "context.kong_fed_by") \
        if feeder_rel != ClaimedFrom.NONE else None
    scorings = []
    for d in decs:
        fans = list(situation)
        m = multiple
        for big in big_hands(d, opts):
            fans.append(big)
            m *= big.fan.points
        fans.sort(key=lambda h: h.fan.id)
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


def analyze(hand: Hand, visible: Sequence[int], opts: GuangdongOptions) -> Analysis:
    """Shanten, waits, useful tiles and discard advice with the ghosts as wildcards (engine.wildcards)."""
    check_hand(hand, opts)
    kinds = ALL if opts.honors else SUITED
    if not opts.ghosts:  # the plain analysis over the shapes this table plays (no wildcard tables needed)
        return analysis.analyze(hand, visible, tile_kinds=kinds, allow_quad_pairs=True, shapes=allowed_shapes(opts))
    a = wildcards.analyze_wild(hand, visible, opts.ghosts, kinds, wild_shapes(opts))
    return _four_ghosts_route(a, hand, visible, opts, kinds) if opts.four_ghosts_win else a


def _four_ghosts_route(a: Analysis, hand: Hand, visible: Sequence[int], opts: GuangdongOptions,
                       kinds: frozenset[int]) -> Analysis:
    """Analyze with 四鬼胡牌 (four_ghosts_win): four ghosts in hand win whatever the rest (see `score`), so a
    13-tile hand holding k ghosts is also max(3 - k, 0) ghost draws from ready: with three, a ghost is a
    wait; with four, every tile is. The shape analysis (engine.wildcards) knows only the shapes, so the
    route is merged here (shanten_by_shape stays the shapes'). Found by tests/unit/test_waits_differential.py."""
    held = hand.counts()
    seen = [0] * NUM_KINDS
    for t in visible:
        seen[t] += 1
    ghosts = sorted(opts.ghosts)
    k = sum(1 for t in hand.all_concealed() if t in opts.ghosts)

    def tc(t: int, held_: Sequence[int], seen_: Sequence[int]) -> TileCount:
        return TileCount(t, max(0, 4 - held_[t] - seen_[t]), held_[t] >= 4)

    def merge(shanten: int, waits: tuple[TileCount, ...], useful: tuple[TileCount, ...], k13: int,
              held_: Sequence[int], seen_: Sequence[int]
              ) -> tuple[int, tuple[TileCount, ...], tuple[TileCount, ...]]:
        if sum(4 - held_[g] for g in ghosts) < 4 - k13:  # not enough ghosts left in the wall
            return shanten, waits, useful
        route = max(3 - k13, 0)
        if route > shanten:
            return shanten, waits, useful
        extra = [tc(t, held_, seen_) for t in (sorted(kinds) if k13 >= 4 else ghosts) if t in kinds]
        if route < shanten:
            new = tuple(extra)
            return route, (new if route == 0 else ()), new
        base = useful  # at shanten 0 the useful tiles are the waits
        have = {x.tile for x in base}
        merged = tuple(sorted(base + tuple(x for x in extra if x.tile not in have), key=lambda x: x.tile))
        return shanten, (merged if shanten == 0 else ()), merged

    if hand.size == 13:
        s, waits, useful = merge(a.shanten, a.waits, a.useful_tiles, k, held, seen)
        return Analysis(s, a.shanten_by_shape, waits, useful, sum(t.remaining for t in useful))
    options = []
    for o in a.discards:
        h2, s2 = list(held), list(seen)
        h2[o.tile] -= 1
        s2[o.tile] += 1
        s13, _, useful = merge(o.shanten, (), o.useful_tiles, k - (o.tile in opts.ghosts), h2, s2)
        options.append(DiscardOption(o.tile, s13, useful, sum(t.remaining for t in useful)))
    options.sort(key=lambda o: (o.shanten, -o.useful_count, o.tile))
    best = -1 if k >= 4 else min([a.shanten] + [o.shanten for o in options])
    return Analysis(best, a.shanten_by_shape, discards=tuple(options))


_SET_KIND = {MeldKind.CHOW: SetKind.CHOW, MeldKind.PUNG: SetKind.PUNG, MeldKind.KONG: SetKind.KONG}

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("guangdong.scoring", _SET_KIND=_SET_KIND)
