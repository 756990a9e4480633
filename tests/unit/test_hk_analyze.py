"""hk's Analyze plays only hk's winning shapes: the standard shape and thirteen orphans. Hong Kong faan has
no seven pairs and no knitted hands (全不靠, 组合龙), so a hand one tile from those is not ready in hk, its
shanten by shape lists only hk's shapes, and discard advice counts only them.

Checked against the plain path on seeded hands (many of them near seven pairs or knitted shapes): the
shanten is the least of `analysis.shanten_by_shape` over hk's shapes, and the waits of a 13-tile hand are
the kinds whose draw gives a hand with a decomposition of an hk shape (`shapes.decompositions`); and the
way users reach it: the `mjsvc batch` console script from another directory.
"""

from __future__ import annotations

import random

from engine import analysis, api, shapes
from engine.hand import Hand, make_hand
from engine.rules.hk.scoring import SHAPES
from engine.shapes import ShapeKind
from engine.tiles import NUM_KINDS, TERMINALS_AND_HONORS, parse_tiles, to_counts

HK_SHAPES = {ShapeKind.STANDARD, ShapeKind.THIRTEEN_ORPHANS}
KNITTED = parse_tiles("147m258p369s") + parse_tiles("ESWNCFP")  # 全不靠 material: knitted ranks and honours


def test_hk_plays_the_standard_shape_and_thirteen_orphans_only() -> None:
    assert set(SHAPES) == HK_SHAPES


def test_a_seven_pairs_wait_is_not_a_wait_in_hk() -> None:
    hand = make_hand(parse_tiles("1144m2255p3366sE"), sizes=(13,))
    mcr = api.analyze(hand, (), "mcr")
    hk = api.analyze(hand, (), "hk")
    assert mcr.shanten == 0 and [t.tile for t in mcr.waits] == parse_tiles("E")
    assert {k for k, _ in hk.shanten_by_shape} == HK_SHAPES
    assert hk.shanten == 3 and hk.waits == ()


def test_a_knitted_win_is_not_complete_in_hk() -> None:
    tiles = parse_tiles("147m258p369s") + parse_tiles("ESWNC")  # 全不靠 (MCR), 14 tiles
    hand = make_hand(tiles, sizes=(14,))
    mcr = api.analyze(hand, (), "mcr")
    hk = api.analyze(hand, (), "hk")
    assert mcr.shanten == -1
    # standard: 8; thirteen orphans: 1m 9s E S W N C held, 13 - 7 = 6
    assert dict(hk.shanten_by_shape) == {ShapeKind.STANDARD: 8, ShapeKind.THIRTEEN_ORPHANS: 6}
    assert hk.shanten == 6
    for option in hk.discards:  # every discard's shanten counts hk's shapes only
        c = to_counts(tiles)
        c[option.tile] -= 1
        assert option.shanten == min(v for k, v in analysis.shanten_by_shape(c) if k in HK_SHAPES)


def _seeded_hands(rng: random.Random, n: int, size: int) -> list[list[int]]:
    """A quarter each: plain draws, near the standard shape (sets and a pair, one tile changed), near
    seven pairs, near knitted shapes / thirteen orphans."""
    wall = [t for t in range(NUM_KINDS) for _ in range(4)]
    out = []
    while len(out) < n:
        kind = len(out) % 4
        if kind == 0:
            tiles = rng.sample(wall, size)
        elif kind == 3:
            tiles = [rng.randrange(NUM_KINDS)] * 2
            while len(tiles) < 14:
                f = rng.randrange(NUM_KINDS)
                tiles += [f, f + 1, f + 2] if f < 27 and f % 9 <= 6 and rng.random() < 0.6 else [f] * 3
            tiles = tiles[:14]
            tiles[rng.randrange(14)] = rng.randrange(NUM_KINDS)
            tiles = tiles[:size]
        elif kind == 1:
            pairs = rng.sample(range(NUM_KINDS), 7)
            tiles = [t for t in pairs for _ in range(2)][:size]
            tiles[rng.randrange(size)] = rng.randrange(NUM_KINDS)
        else:
            pool = KNITTED + list(TERMINALS_AND_HONORS)
            tiles = rng.sample(pool, size)
        if max(to_counts(tiles)) <= 4:
            out.append(sorted(tiles))
    return out


def _wins_in_hk(tiles: list[int], win: int) -> bool:
    hand = Hand(tuple(tiles), (), win)
    return any(d.kind in HK_SHAPES for d in shapes.decompositions(hand))


def test_hk_analysis_matches_the_plain_path_on_seeded_hands() -> None:
    rng = random.Random(14)
    ready = 0
    for tiles in _seeded_hands(rng, 240, 13):
        a = api.analyze(make_hand(tiles, sizes=(13,)), (), "hk")
        by_shape = analysis.shanten_by_shape(to_counts(tiles))
        assert {k for k, _ in a.shanten_by_shape} == HK_SHAPES
        assert a.shanten == min(v for k, v in by_shape if k in HK_SHAPES), tiles
        waits = tuple(t for t in range(NUM_KINDS) if _wins_in_hk(tiles, t))
        assert tuple(t.tile for t in a.waits) == (waits if a.shanten == 0 else ()), tiles
        ready += a.shanten == 0
    for tiles in _seeded_hands(rng, 60, 14):
        a = api.analyze(make_hand(tiles, sizes=(14,)), (), "hk")
        for option in a.discards:
            c = to_counts(tiles)
            c[option.tile] -= 1
            assert option.shanten == min(v for k, v in analysis.shanten_by_shape(c) if k in HK_SHAPES), tiles
    assert ready  # some hands are ready in hk


