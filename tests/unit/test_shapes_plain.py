"""engine.shapes.decompositions (the fast path: per-suit options read from the mapped split tables, kept in a
bounded memo, the winning tile's holders picked from each split) against a plain search written here: each
suit split by the depth-first search (`_suit_splits_dfs`, itself checked against an enumeration in
tests/unit/test_shapes.py), the suits joined with itertools.product, every set built as a new TileSet.

Same list, in the same order (the rule sets break ties by it), on thousands of seeded hands: the Riichi and
MCR generators (melds, kongs, seven pairs, thirteen orphans, knitted shapes), random hands of random sets
(several splits per suit, fours, honours), with and without a winning tile, both `allow_quad_pairs`; with
the memo warm, emptied, and with the tables switched off (the search fills the memo instead).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import product

import pytest

from bench import mcr_cases, riichi_cases
from engine import shapes
from engine.hand import Hand, MeldKind, make_hand
from engine.shapes import (
    Decomposition,
    SetKind,
    ShapeKind,
    TileSet,
    decompositions,
    honors_knitted_pattern,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straight_rests,
)
from engine.tiles import NUM_KINDS, to_counts

_MELD_KIND = {MeldKind.CHOW: SetKind.CHOW, MeldKind.PUNG: SetKind.PUNG, MeldKind.KONG: SetKind.KONG}


def _plain_splits(counts: list[int]) -> list[list[tuple[SetKind, int]]]:
    """Every split of concealed counts into sets and one pair: per suit by search, joined in tile order."""
    per_suit = []
    for base in (0, 9, 18, 27):
        key = tuple(counts[base:base + 9]) if base < 27 else tuple(counts[27:34]) + (0, 0)
        if not any(key):
            per_suit.append([()])
            continue
        per_suit.append([tuple((k, base + r) for k, r in split)
                         for split in shapes._suit_splits_dfs(key, base == 27)])  # type: ignore[arg-type]
    out = []
    for combo in product(*per_suit):
        sets = [s for split in combo for s in split]
        pairs = [s for s in sets if s[0] == SetKind.PAIR]
        if len(pairs) != 1:
            continue
        body = sorted((s for s in sets if s[0] != SetKind.PAIR), key=lambda s: (s[1], s[0]))
        out.append(body + pairs)
    return out


def _holds(kind: SetKind, first: int, win: int) -> int | None:
    if kind == SetKind.CHOW:
        return win - first if first <= win <= first + 2 else None
    return 0 if first == win else None


def plain_decompositions(hand: Hand, allow_quad_pairs: bool) -> list[Decomposition]:
    counts = to_counts(hand.all_concealed())
    win = hand.winning_tile
    melds = [TileSet(_MELD_KIND[m.kind], m.tiles[0], m.concealed, i) for i, m in enumerate(hand.melds)]
    out = []
    for split in _plain_splits(counts):
        sets = [TileSet(k, f) for k, f in split]
        if win is None:
            out.append(Decomposition(ShapeKind.STANDARD, tuple(melds + sets), (), None))
            continue
        # one per distinct concealed set holding the winning tile, (kind, tile) order, marked in its first copy
        for k, f in sorted({(k, f) for k, f in split if _holds(k, f, win) is not None}):
            i = split.index((k, f))
            placed = list(sets)
            placed[i] = TileSet(k, f, win_offset=_holds(k, f, win))
            out.append(Decomposition(ShapeKind.STANDARD, tuple(melds + placed), (), win))
    if len(melds) <= 1:
        for pat, rest in knitted_straight_rests(counts):
            for split in _plain_splits(rest):
                if len(split) + len(melds) != 2:
                    continue
                variants = []
                if win is not None and rest[win]:
                    seen = set()
                    for i, (k, f) in enumerate(split):  # in the split's order, distinct sets
                        off = _holds(k, f, win)
                        if off is not None and (k, f) not in seen:
                            seen.add((k, f))
                            variants.append([TileSet(kk, ff, win_offset=off if j == i else None)
                                             for j, (kk, ff) in enumerate(split)])
                else:
                    variants.append([TileSet(k, f) for k, f in split])
                for v in variants:
                    body = sorted((s for s in v if s.kind != SetKind.PAIR), key=lambda s: (s.first, s.kind))
                    pair = [s for s in v if s.kind == SetKind.PAIR]
                    out.append(Decomposition(ShapeKind.KNITTED_STRAIGHT, tuple(melds + body + pair), pat, win))
    if not melds:
        if is_seven_pairs(counts, allow_quad_pairs):
            pairs = []
            marked = False
            for t in range(NUM_KINDS):
                for _ in range(counts[t] // 2):
                    mark = t == win and not marked
                    marked = marked or mark
                    pairs.append(TileSet(SetKind.PAIR, t, win_offset=0 if mark else None))
            out.append(Decomposition(ShapeKind.SEVEN_PAIRS, tuple(pairs), (), win))
        if is_thirteen_orphans(counts):
            out.append(Decomposition(ShapeKind.THIRTEEN_ORPHANS, (), tuple(hand.all_concealed()), win))
        if honors_knitted_pattern(counts) is not None:
            out.append(Decomposition(ShapeKind.HONORS_KNITTED, (), tuple(hand.all_concealed()), win))
    return out


def _random_hands(n: int, seed: int) -> Iterator[Hand]:
    """Hands of random sets (pungs and chows, often of few ranks: several splits per suit, fours), won on any
    of their tiles or analysed without a winning tile."""
    rng = random.Random(seed)
    made = 0
    while made < n:
        suit = 9 * rng.randrange(3)
        tiles: list[int] = []
        for _ in range(4):
            if rng.random() < 0.15:
                tiles += [27 + rng.randrange(7)] * 3
            elif rng.random() < 0.6:  # crowd one suit's low ranks: 111222333-like keys
                first = suit + rng.randrange(3)
                tiles += [first, first + 1, first + 2] if rng.random() < 0.7 else [first] * 3
            else:
                first = 9 * rng.randrange(3) + rng.randrange(7)
                tiles += [first, first + 1, first + 2] if rng.random() < 0.7 else [first] * 3
        tiles += [rng.choice(tiles) if rng.random() < 0.5 else rng.randrange(NUM_KINDS)] * 2
        if max(to_counts(tiles)) > 4:
            continue
        made += 1
        if rng.random() < 0.2:
            yield make_hand(tiles, sizes=(14,))
        else:
            win = tiles.pop(rng.randrange(14))
            yield make_hand(tiles, winning_tile=win, sizes=(14,))


def _hands() -> list[Hand]:
    hands = [c.hand for c in riichi_cases.generate(1500, 31)]
    hands += [c.hand for c in mcr_cases.cases(1500, 32)]
    hands += list(_random_hands(2500, 33))
    return hands


def _check(hands: list[Hand], clear_each: bool = False) -> int:
    compared = 0
    for hand in hands:
        for quads in (False, True):
            if clear_each:
                shapes._suit_options.cache_clear()
            fast = decompositions(hand, quads)
            plain = plain_decompositions(hand, quads)
            assert [repr(d) for d in fast] == [repr(d) for d in plain], str(hand)
            assert fast == plain
            compared += len(fast)
    return compared


@pytest.fixture(scope="module")
def hands() -> list[Hand]:
    return _hands()


def test_decompositions_equal_the_plain_search(hands: list[Hand]) -> None:
    assert _check(hands) > 10000
    assert {d.kind for h in hands for d in decompositions(h, True)} == set(ShapeKind)  # every shape met


def test_decompositions_equal_the_plain_search_with_the_memo_emptied(hands: list[Hand]) -> None:
    _check(hands[::7], clear_each=True)


def test_decompositions_equal_the_plain_search_without_tables(hands: list[Hand],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shapes, "TABLES", None)
    shapes._suit_options.cache_clear()
    try:
        _check(hands[::5])
    finally:
        shapes._suit_options.cache_clear()  # no option built by search outlives the test
