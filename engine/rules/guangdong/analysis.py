"""Analyze under 推倒胡 (RULE_SET.analyze): shanten, waits, useful tiles and discard advice with the ghosts as
wildcards (engine.wildcards), and 四鬼胡牌's route to a win merged in."""

from __future__ import annotations

from collections.abc import Sequence

from engine import analysis, wildcards
from engine.hand import Hand
from engine.results import Analysis, DiscardOption, TileCount
from engine.rules.guangdong.context import check_hand
from engine.rules.guangdong.options import GuangdongOptions
from engine.rules.guangdong.scoring import allowed_shapes, wild_shapes
from engine.tiles import NUM_KINDS

SUITED = frozenset(range(27))
ALL = frozenset(range(NUM_KINDS))


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
