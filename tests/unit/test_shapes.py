"""Winning shapes: the per-suit memo against an independent enumeration on every suit key, the
complete-suit table, the fast completeness check, and decompositions of hand-picked hands."""

from __future__ import annotations

import random
from collections import defaultdict
from itertools import combinations_with_replacement, product

import pytest

from engine.hand import kong, make_hand, pung
from engine.shapes import (
    COMPLETE_SUITS,
    KNITTED_PATTERNS,
    SetKind,
    ShapeKind,
    decompositions,
    honors_knitted_pattern,
    is_complete,
    is_complete_counts,
    is_seven_pairs,
    is_standard_complete,
    is_thirteen_orphans,
    suit_splits,
)
from engine.tiles import NUM_KINDS, TERMINALS_AND_HONORS, parse_tiles, to_counts


def enumerate_splits(ranks: int, chows: bool) -> dict[tuple[int, ...], set[tuple]]:
    """Every key reachable by stacking up to four sets and at most one pair, with its splits.

    Built forwards (sets -> key), unlike the memo's search (key -> sets), so the two are independent.
    """
    sets = [(SetKind.PUNG, r) for r in range(ranks)]
    if chows:
        sets += [(SetKind.CHOW, r) for r in range(ranks - 2)]
    out: dict[tuple[int, ...], set[tuple]] = defaultdict(set)
    for n in range(5):
        for combo in combinations_with_replacement(sets, n):
            for pair in [None, *range(ranks)]:
                key = [0] * ranks
                for kind, r in combo:
                    for k in ((r, r + 1, r + 2) if kind == SetKind.CHOW else (r, r, r)):
                        key[k] += 1
                split = list(combo)
                if pair is not None:
                    key[pair] += 2
                    split.append((SetKind.PAIR, pair))
                if max(key) <= 4:
                    out[tuple(key)].add(tuple(sorted(split)))
    return out


def all_keys(ranks: int) -> list[tuple[int, ...]]:
    return [k for k in product(range(5), repeat=ranks) if sum(k) <= 14]


@pytest.fixture(scope="module")
def suit_enumeration() -> dict[tuple[int, ...], set[tuple]]:
    return enumerate_splits(9, chows=True)


def test_memo_agrees_with_enumeration_on_every_suit_key(suit_enumeration: dict) -> None:
    keys = all_keys(9)
    assert len(keys) == 405350
    try:
        for key in keys:
            assert set(suit_splits(key)) == suit_enumeration.get(key, set()), key
    finally:
        suit_splits.cache_clear()  # the sweep would otherwise keep 400k entries alive


def test_honour_splits_agree_with_enumeration() -> None:
    honours = enumerate_splits(7, chows=False)
    for key in all_keys(7):
        assert set(suit_splits(key + (0, 0), True)) == honours.get(key, set()), key
    suit_splits.cache_clear()


def test_complete_table_agrees_with_the_memo(suit_enumeration: dict) -> None:
    complete = {k: (2 if any(SetKind.PAIR in (kind for kind, _ in s) for s in splits) else 0)
                for k, splits in suit_enumeration.items()}
    assert complete == COMPLETE_SUITS
    assert COMPLETE_SUITS[(1, 1, 4, 1, 1, 0, 0, 0, 0)] == 2  # 123 + 33 + 345
    assert (1, 1, 1, 1, 0, 0, 0, 0, 0) not in COMPLETE_SUITS


def slow_is_complete(counts: list[int], melds: int, allow_quads: bool) -> bool:
    """Reference: the standard shape through the memo, special shapes through their own checks."""
    def standard(c: list[int]) -> bool:
        pairs = 0
        for base in (0, 9, 18):
            key = tuple(c[base:base + 9])
            if sum(key) and not suit_splits(key):  # type: ignore[arg-type]
                return False
            pairs += sum(key) % 3 == 2
        hon = tuple(c[27:]) + (0, 0)
        if sum(hon) and not suit_splits(hon, True):  # type: ignore[arg-type]
            return False
        return pairs + (sum(hon) % 3 == 2) == 1

    if standard(counts):
        return True
    if melds <= 1 and sum(counts) == 14 - 3 * melds:
        for pat in KNITTED_PATTERNS:
            if all(counts[t] for t in pat):
                rest = counts[:]
                for t in pat:
                    rest[t] -= 1
                if standard(rest):
                    return True
    return not melds and (is_seven_pairs(counts, allow_quads) or is_thirteen_orphans(counts)
                          or honors_knitted_pattern(counts) is not None)


def test_fast_completeness_check_agrees_with_reference() -> None:
    rng = random.Random(8)
    wall = [t for t in range(NUM_KINDS) for _ in range(4)]
    winners = 0
    for i in range(6000):
        melds = rng.choice((0, 0, 0, 1, 2, 4))
        if i % 2:
            tiles = rng.sample(wall, 14 - 3 * melds)
        else:  # near-complete: sets and a pair, sometimes a knitted run, one tile swapped at random
            tiles = []
            if melds <= 1 and rng.random() < 0.3:
                tiles += list(rng.choice(KNITTED_PATTERNS))
            while len(tiles) < 12 - 3 * melds:
                first = 9 * rng.randrange(3) + rng.randrange(7)
                tiles += [first, first + 1, first + 2] if rng.random() < 0.6 else [rng.randrange(NUM_KINDS)] * 3
            tiles = tiles[:12 - 3 * melds] + [rng.randrange(NUM_KINDS)] * 2
            if rng.random() < 0.3:
                tiles[rng.randrange(len(tiles))] = rng.randrange(NUM_KINDS)
        counts = to_counts(tiles)
        if max(counts) > 4:
            continue
        for quads in (True, False):
            got = is_complete_counts(counts, melds, quads)
            assert got == slow_is_complete(counts, melds, quads), (tiles, melds, quads)
            winners += got
    assert winners > 300


def test_special_shapes_complete() -> None:
    assert is_complete_counts(to_counts(parse_tiles("19m19p19sESWNCFPP")))
    assert is_complete_counts(to_counts(parse_tiles("147m258p369sESWNC")))
    assert is_complete_counts(to_counts(parse_tiles("1133m5577p99sEECC")))
    assert is_complete_counts(to_counts(parse_tiles("1111m33m5577p99sEE")))  # a four as two pairs
    assert not is_complete_counts(to_counts(parse_tiles("1111m33m5577p99sEE")), allow_quad_pairs=False)
    assert not is_complete_counts(to_counts(parse_tiles("147m258p369sC")), 2)  # knitted needs <= 1 meld
    # A (never valid) fifth honour reads as pung + pair, not as a set.
    five = to_counts(parse_tiles("123m456m789m123p"))
    five[27] = 5
    assert is_standard_complete(five)
    five[28] = 2
    assert not is_standard_complete(five)


def decomp(text: str, melds: tuple = (), win: str | None = None, quads: bool = True) -> list:
    hand = make_hand(parse_tiles(text), melds, None if win is None else parse_tiles(win)[0],
                     sizes=(14,))
    found = decompositions(hand, quads)
    assert bool(found) == is_complete(hand, quads)
    return found


def test_seven_pairs_with_a_four() -> None:
    found = decomp("1111m2233m445566p")
    kinds = sorted(d.kind for d in found)
    assert kinds == [ShapeKind.SEVEN_PAIRS, ShapeKind.STANDARD]
    pairs = next(d for d in found if d.kind == ShapeKind.SEVEN_PAIRS)
    assert [s.first for s in pairs.sets] == [0, 0, 1, 2, 12, 13, 14]
    assert [d.kind for d in decomp("1111m2233m445566p", quads=False)] == [ShapeKind.STANDARD]
    assert decomp("1111m2233m4455p EE", quads=False) == []


def test_thirteen_orphans_and_honours_knitted() -> None:
    [orphans] = decomp("19m19p19sESWNCFP", win="E")
    assert orphans.kind == ShapeKind.THIRTEEN_ORPHANS and len(orphans.knitted) == 14
    [knitted] = decomp("147m258p369sESWN", win="C")
    assert knitted.kind == ShapeKind.HONORS_KNITTED and len(knitted.knitted) == 14
    [fewer] = decomp("14m25p36sESWNCFP", win="7m")
    assert fewer.kind == ShapeKind.HONORS_KNITTED
    assert decomp("14m25p37sESWNCFP", win="7m") == []  # 3s and 7s are not knitted


def test_knitted_straight_without_and_with_a_meld() -> None:
    [ks] = decomp("147m258p369s123mE", win="E")
    assert ks.kind == ShapeKind.KNITTED_STRAIGHT
    assert ks.knitted == tuple(parse_tiles("147m258p369s"))
    assert [(s.kind, s.first, s.win_offset) for s in ks.sets] == [(SetKind.CHOW, 0, None), (SetKind.PAIR, 27, 0)]
    [melded] = decomp("147m258p369sC", (pung(27),), win="C")
    assert melded.kind == ShapeKind.KNITTED_STRAIGHT
    meld, pair = melded.sets
    assert (meld.kind, meld.meld_index, meld.concealed) == (SetKind.PUNG, 0, False)
    assert (pair.kind, pair.first, pair.win_offset) == (SetKind.PAIR, 31, 0)
    # A winning tile that could sit in the knitted part or in a set is placed in the set.
    [inside] = decomp("47m258p369s123mEE", win="1m")
    assert [(s.kind, s.win_offset) for s in inside.sets] == [(SetKind.CHOW, 0), (SetKind.PAIR, None)]


def test_winning_tile_position_splits_decompositions() -> None:
    found = decomp("123m456p789sEEE1m", win="1m")
    assert len(found) == 2
    holders = sorted((s.kind, s.win_offset) for d in found for s in d.sets if s.win_offset is not None)
    assert holders == [(SetKind.CHOW, 0), (SetKind.PAIR, 0)]
    # Nine gates on 5m: one split only, the winning tile in the pair.
    [nine] = decomp("1112345678999m", win="5m")
    assert [(s.kind, s.first) for s in nine.sets if s.win_offset is not None] == [(SetKind.PAIR, 4)]
    # Claimed melds come first, flagged as not concealed; the concealed kong stays concealed.
    [melded] = decomp("123m45p99s", (kong(27, concealed=True), pung(28)), win="6p")
    assert [(s.kind, s.concealed, s.meld_index) for s in melded.sets[:2]] == [
        (SetKind.KONG, True, 0), (SetKind.PUNG, False, 1)]
    assert melded.sets[-1].kind == SetKind.PAIR


def test_every_decomposition_uses_the_hand_exactly() -> None:
    rng = random.Random(9)
    for _ in range(300):
        tiles: list[int] = []
        for _ in range(4):
            first = 9 * rng.randrange(3) + rng.randrange(7)
            tiles += [first, first + 1, first + 2] if rng.random() < 0.7 else [first] * 3
        tiles += [rng.randrange(NUM_KINDS)] * 2
        if max(to_counts(tiles)) > 4:
            continue
        win = tiles.pop(rng.randrange(14))
        hand = make_hand(tiles, winning_tile=win, sizes=(14,))
        found = decompositions(hand)
        assert found
        seen = set()
        for d in found:
            used = [t for s in d.sets for t in s.tiles] + list(d.knitted)
            assert sorted(used) == sorted(tiles + [win])
            assert sum(s.win_offset is not None for s in d.sets) <= 1
            seen.add(str(d) + repr([s.win_offset for s in d.sets]))
        assert len(seen) == len(found)  # distinct


def test_orphans_constant() -> None:
    assert len(TERMINALS_AND_HONORS) == 13


def test_declared_meld_sets_table_agrees_with_the_plain_construction() -> None:
    """`shapes._MELD_SETS` (built once, read by list index) against the set built from the meld directly."""
    from engine import shapes
    from engine.hand import MeldKind

    for kind in MeldKind:
        for concealed in (False, True):
            for index in range(4):
                for first in range(NUM_KINDS):
                    plain = shapes.TileSet(shapes._MELD_SET_KIND[kind], first, concealed, index)
                    assert shapes._MELD_SETS[kind][concealed][index][first] == plain
    hand = make_hand(parse_tiles("123m5p"), [pung(27), kong(31, concealed=True), pung(9)], parse_tiles("5p")[0])
    assert shapes._meld_sets(hand) == [shapes.TileSet(shapes.SetKind.PUNG, 27, False, 0),
                                       shapes.TileSet(shapes.SetKind.KONG, 31, True, 1),
                                       shapes.TileSet(shapes.SetKind.PUNG, 9, False, 2)]


def test_suit_codes_counted_with_the_tiles_agree_with_suit_code() -> None:
    """`decompositions` counts each block's `suit_code` as it counts the tiles (`_CODE_UNIT` per copy) and
    hands them to `_standard_splits`: the sums against `suit_code`, and the splits with the counted codes
    against the splits that compute them, on random tile multisets (complete or not)."""
    from engine import shapes

    rng = random.Random(2026)
    for _ in range(3000):
        n = rng.randrange(1, 15)
        counts = [0] * NUM_KINDS
        codes = [0, 1, 2, 3]
        for t in rng.choices(range(NUM_KINDS), k=n):
            if counts[t] == 4:
                continue
            counts[t] += 1
            codes[t // 9 if t < 27 else 3] += shapes._CODE_UNIT[t]
        assert codes == [shapes.suit_code(counts, b) for b in range(4)]
        win = rng.choice([t for t in range(NUM_KINDS) if counts[t]] or [None])
        assert shapes._standard_splits(counts, win, True, *codes) == shapes._standard_splits(counts, win)
