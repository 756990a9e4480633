"""The 推倒胡 checks of a hand and its context, beyond the shared ones (engine.hand.validate_context).

`check_hand` (the tiles and melds this table plays; Analyze asks it too) and `check_context`
(RULE_SET.check_context: the seat is at the table, the win is one the options allow, the horses are
tiles in play, the seats named exist, 节节高 is played).
"""

from __future__ import annotations

from engine.errors import BadContextError, BadMeldError, BadTileError, ContradictoryContextError
from engine.hand import ClaimedFrom, Hand, MeldKind, WinContext
from engine.rules.guangdong.options import GuangdongOptions
from engine.rules.guangdong.payments import seat_from, seats
from engine.tiles import check_tiles, format_tile, is_honor, tile_name

MAX_HORSES = 20
MAX_STREAK = 100


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
    """No honour when honours are off (BAD_TILE), no declared chow unless chow_melds (BAD_MELD)."""
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
