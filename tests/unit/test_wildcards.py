"""Wildcards against brute-force substitution: every assignment of the J wildcards (a ghost may stand
for itself, and for a fifth copy), each substituted hand judged by the engine's plain, wildcard-free
functions (`suit_splits` by search, `is_seven_pairs`, `is_thirteen_orphans`, `analysis.shanten_by_shape`).

The substitution ranges over the kinds that can matter, shape by shape (a sound cut, checked below
against all 34 kinds where that is affordable):
- standard shape: a wildcard in a set with a real tile stands within two ranks of it (same suit) or
  for its honour; the sets made of wildcards alone can all be read as pungs / the pair of one kind no
  real tile is near (`fresh`), which keeps every part complete. Shanten likewise: a wildcard in a group
  with a real tile is near it, groups of wildcards alone read as pungs, pairs or two-tile partials of
  `fresh`.
- seven pairs: a wildcard pairs with a real kind or with another wildcard (up to four fresh kinds).
- thirteen orphans: a wildcard stands for an orphan.

make test runs a few hundred hands per J; `-m slow` runs 10,000 per J for the win check, for waits and
shanten of 13 tiles and for shanten of 14 tiles (`SLOW`, `SLOW_ANALYSIS`).
"""

from __future__ import annotations

import json
import random
import struct
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement, product
from pathlib import Path

import pytest

from engine import analysis, tables
from engine import wildcards as W
from engine.hand import Hand, make_hand, pung
from engine.shapes import SetKind, ShapeKind, decompositions, is_seven_pairs, is_thirteen_orphans, suit_splits
from engine.tables import format as F
from engine.tables.loader import read_header
from engine.tiles import NUM_KINDS, TERMINALS_AND_HONORS, WHITE, parse_tiles
from tablebuild import builder

ALL = tuple(range(NUM_KINDS))
ORPHANS = TERMINALS_AND_HONORS
SHAPES = [W.WildShapes(sp, to, q) for sp in (False, True) for to in (False, True) for q in (True, False)
          if sp or q]


# ---------------------------------------------------------------------------------------------
# The plain path: wildcard-free judgements of a substituted hand (any counts)


def plain_standard(counts: Sequence[int]) -> bool:
    pairs = 0
    for base in (0, 9, 18):
        key = tuple(counts[base:base + 9])
        if not any(key):
            continue
        if not suit_splits(key):  # type: ignore[arg-type]
            return False
        pairs += sum(key) % 3 == 2
    for n in counts[27:34]:  # honours: pungs and a pair of each kind, by residue (any count)
        if n % 3 == 1:
            return False
        pairs += n % 3 == 2
    return pairs == 1


def plain_complete(counts: list[int], n_melds: int, shapes: W.WildShapes) -> bool:
    if plain_standard(counts):
        return True
    if n_melds:
        return False
    if shapes.seven_pairs and is_seven_pairs(counts, shapes.allow_quad_pairs):
        return True
    return shapes.thirteen_orphans and is_thirteen_orphans(counts)


# ---------------------------------------------------------------------------------------------
# Brute-force substitution


def near(real: Sequence[int]) -> list[int]:
    """Kinds a wildcard in a set with a real tile can stand for."""
    out = set()
    for t in range(NUM_KINDS):
        if real[t]:
            if t >= 27:
                out.add(t)
            else:
                base = t - t % 9
                out.update(k for k in range(t - 2, t + 3) if base <= k < base + 9)
    return sorted(out)


def fresh(real: Sequence[int], n: int) -> list[int]:
    """n kinds no real tile is within two ranks of (absent honours first); fewer if there are none."""
    taken = set(near(real))
    return [t for t in list(range(27, 34)) + list(range(27)) if t not in taken][:n]


def assignments(kinds: Sequence[int], j: int) -> Iterator[tuple[int, ...]]:
    return combinations_with_replacement(sorted(set(kinds)), j)


def candidates(real: Sequence[int], shape: str, full: bool) -> list[int]:
    if full:
        return list(ALL)
    if shape == "standard":
        return near(real) + fresh(real, 1) if fresh(real, 1) else list(ALL)
    if shape == "seven_pairs":
        return [t for t in ALL if real[t]] + fresh(real, 4)
    return list(ORPHANS)


def bf_win(real: list[int], j: int, n_melds: int, shapes: W.WildShapes, full: bool = False) -> bool:
    """Is some assignment of the j wildcards a winning hand?"""
    groups = [("standard", W.WildShapes(False, False, shapes.allow_quad_pairs))]
    if not n_melds:
        if shapes.seven_pairs:
            groups.append(("seven_pairs", W.WildShapes(True, False, shapes.allow_quad_pairs)))
        if shapes.thirteen_orphans:
            groups.append(("orphans", W.WildShapes(False, True, shapes.allow_quad_pairs)))
    for shape, only in groups:
        for a in assignments(candidates(real, shape, full), j):
            c = real[:]
            for t in a:
                c[t] += 1
            if plain_complete(c, n_melds, only):
                return True
    return False


def bf_waits(real: list[int], j: int, wild: Sequence[int], n_melds: int, shapes: W.WildShapes,
             full: bool = False) -> tuple[int, ...]:
    """Every kind whose draw wins: a wild kind drawn is one more wildcard."""
    out = []
    for t in ALL:
        if t in wild:
            if bf_win(real, j + 1, n_melds, shapes, full):
                out.append(t)
            continue
        real[t] += 1
        if bf_win(real, j, n_melds, shapes, full):
            out.append(t)
        real[t] -= 1
    return tuple(out)


_PLAIN_SHAPES = {"standard": ShapeKind.STANDARD, "seven_pairs": ShapeKind.SEVEN_PAIRS,
                 "orphans": ShapeKind.THIRTEEN_ORPHANS}


def bf_shanten(real: list[int], j: int, n_melds: int, shapes: W.WildShapes, full: bool = False) -> int:
    """The least plain shanten (of the accepted shapes) over every assignment."""
    best = 99
    wanted = [("standard", "standard")]
    if not n_melds:
        if shapes.seven_pairs:
            wanted.append(("seven_pairs", "seven_pairs"))
        if shapes.thirteen_orphans:
            wanted.append(("orphans", "orphans"))
    for cand_shape, shape in wanted:
        kind = _PLAIN_SHAPES[shape]
        for a in assignments(candidates(real, cand_shape, full), j):
            c = real[:]
            for t in a:
                c[t] += 1
            for k, v in analysis.shanten_by_shape(c, n_melds, shapes.allow_quad_pairs):
                if k == kind and v < best:
                    best = v
    return best


# ---------------------------------------------------------------------------------------------
# Brute-force substitution part by part: the parts of a hand (three suits, the honours) are judged
# independently by the plain functions, so every assignment of x wildcards to one part's kinds is tried
# on that part alone (all its kinds, a fifth copy included); the hand is complete when the parts are,
# with the J wildcards shared out and exactly one pair. Affordable for every J, so this is the oracle
# of the 10,000-hand runs; the whole-hand substitution above checks it on smaller runs.

PARTS = ((0, 9), (9, 18), (18, 27), (27, 34))
MEMO = 1 << 20  # entries per memo of the walks below (bounded: an evicted entry is walked again)


def part_complete(c: Sequence[int]) -> bool:
    if len(c) == 9:
        return not any(c) or bool(suit_splits(tuple(c)))  # type: ignore[arg-type]
    return all(n % 3 != 1 for n in c) and sum(1 for n in c if n % 3 == 2) <= 1


@lru_cache(maxsize=MEMO)
def part_complete_with(key: tuple[int, ...], x: int) -> bool:
    """Does some assignment of exactly x wildcards to the part's kinds complete it? Every assignment is
    one kind plus an assignment of x - 1, so the search walks them all, sharing what repeats."""
    if x == 0:
        return part_complete(key)
    return any(part_complete_with(key[:r] + (key[r] + 1,) + key[r + 1:], x - 1) for r in range(len(key)))


def part_outcomes(key: tuple[int, ...], j: int) -> frozenset[tuple[int, bool]]:
    """(x, holds the pair) for every x <= j such that some assignment of x wildcards to the part's kinds
    makes it complete."""
    return frozenset((x, (sum(key) + x) % 3 == 2) for x in range(j + 1) if part_complete_with(key, x))


def enumerated_outcomes(key: tuple[int, ...], j: int) -> frozenset[tuple[int, bool]]:
    """`part_outcomes` by listing every multiset of wildcards (the check of the shared search)."""
    out = set()
    for x in range(j + 1):
        for a in combinations_with_replacement(range(len(key)), x):
            c = list(key)
            for r in a:
                c[r] += 1
            if part_complete(c):
                out.add((x, sum(c) % 3 == 2))
                break
    return frozenset(out)


def _share(options: Sequence[Iterable[tuple[int, int]]], j: int) -> set[tuple[int, int]]:
    """(wildcards used, pairs) reachable by one option per position, wildcards at most j."""
    reach = {(0, 0)}
    for opts in options:
        reach = {(w + x, p + q) for w, p in reach for x, q in opts if w + x <= j and p + q <= 1}
    return reach


def parts_win(real: Sequence[int], j: int, n_melds: int, shapes: W.WildShapes) -> bool:
    if sum(real) + j + 3 * n_melds != 14:
        return False
    outcomes = [[(x, int(p)) for x, p in part_outcomes(tuple(real[a:b]), j)] for a, b in PARTS]
    if (j, 1) in _share(outcomes, j):
        return True
    if n_melds:
        return False
    if shapes.seven_pairs:  # every kind, every count of wildcards on it: a pair (or two) or nothing
        per_kind = []
        for t in ALL:
            ok = [(x, 0) for x in range(j + 1) if (real[t] + x) % 2 == 0
                  and (shapes.allow_quad_pairs or real[t] + x in (0, 2))]
            per_kind.append(ok)
        if (j, 0) in _share(per_kind, j):
            return True
    if shapes.thirteen_orphans:  # every orphan once or twice (one twice), nothing else
        per_kind = []
        for t in ALL:
            if t in ORPHANS:
                per_kind.append([(x, int(real[t] + x == 2)) for x in range(j + 1) if real[t] + x in (1, 2)])
            else:
                per_kind.append([(0, 0)] if not real[t] else [])
        if (j, 1) in _share(per_kind, j):
            return True
    return False


def parts_waits(real: list[int], j: int, wild: Sequence[int], n_melds: int, shapes: W.WildShapes) -> tuple[int, ...]:
    out = []
    for t in ALL:
        if t in wild:
            if parts_win(real, j + 1, n_melds, shapes):
                out.append(t)
            continue
        real[t] += 1
        if parts_win(real, j, n_melds, shapes):
            out.append(t)
        real[t] -= 1
    return tuple(out)


@lru_cache(maxsize=MEMO)
def part_best(key: tuple[int, ...], x: int) -> tuple[int, ...]:
    """The engine's group vector of the part, best over every assignment of exactly x wildcards to its
    kinds (one kind plus an assignment of x - 1: every assignment is walked, what repeats is shared)."""
    if x == 0:
        return analysis._vector_dfs(key)
    subs = [part_best(key[:r] + (key[r] + 1,) + key[r + 1:], x - 1) for r in range(len(key))]
    return tuple(max(v) for v in zip(*subs, strict=True))


def part_vectors(key: tuple[int, ...], j: int) -> tuple[tuple[int, ...], ...]:
    """For x = 0..j: `part_best`."""
    return tuple(part_best(key, x) for x in range(j + 1))


def enumerated_vectors(key: tuple[int, ...], j: int) -> tuple[tuple[int, ...], ...]:
    """`part_vectors` by listing every multiset of wildcards (the check of the shared search)."""
    rows = []
    for x in range(j + 1):
        best: list[int] | None = None
        for a in combinations_with_replacement(range(len(key)), x):
            c = list(key)
            for r in a:
                c[r] += 1
            v = analysis._vector_dfs(tuple(c))
            best = list(v) if best is None else [max(p, q) for p, q in zip(best, v, strict=True)]
        assert best is not None
        rows.append(tuple(best))
    return tuple(rows)


def comb(va: Sequence[int], vb: Sequence[int]) -> tuple[int, ...]:
    g = [0] * 10
    for k in range(5):
        g[k] = max(va[i] + vb[k - i] for i in range(k + 1))
        g[5 + k] = max(max(va[5 + i] + vb[k - i], va[i] + vb[5 + k - i]) for i in range(k + 1))
    return tuple(g)


def parts_shanten(real: Sequence[int], j: int, n_melds: int, shapes: W.WildShapes) -> int:
    cur: list[tuple[int, ...]] | None = None
    for a, b in PARTS:
        rows = part_vectors(tuple(real[a:b]), j)
        if cur is None:
            cur = list(rows)
            continue
        cur = [tuple(max(vals) for vals in zip(*[comb(cur[w - x], rows[x]) for x in range(w + 1)], strict=True))
               for w in range(j + 1)]
    assert cur is not None
    v = cur[j]
    best = 8 - 2 * n_melds - max(v[4 - n_melds], v[9 - n_melds])
    if n_melds:
        return best
    if shapes.seven_pairs:  # the engine's 6 - pairs, best over the wildcards' kinds
        gain = [[(x, (real[t] + x) // 2 if shapes.allow_quad_pairs else int(real[t] + x >= 2))
                 for x in range(j + 1)] for t in ALL]
        best = min(best, 6 - _best_sum(gain, j))
    if shapes.thirteen_orphans:  # the engine's 13 - orphan kinds - (a pair of one)
        for pair in (0, 1):
            gain = []
            for t in ORPHANS:
                gain.append([(x, int(real[t] + x >= 1)) for x in range(j + 1)])
            base = _best_sum(gain, j) if not pair else max(
                (_best_sum(gain[:i] + [[(x, 1) for x in range(j + 1) if real[t] + x >= 2]] + gain[i + 1:], j)
                 for i, t in enumerate(ORPHANS)), default=-99)
            best = min(best, 13 - base - pair)
    return best


def _best_sum(options: Sequence[Sequence[tuple[int, int]]], j: int) -> int:
    """Largest total value, one (wildcards, value) option per position, wildcards at most j."""
    reach = {0: 0}
    for opts in options:
        nxt: dict[int, int] = {}
        for w, v in reach.items():
            for x, g in opts:
                if w + x <= j and nxt.get(w + x, -999) < v + g:
                    nxt[w + x] = v + g
        reach = nxt
    return max(reach.values()) if reach else -999


# ---------------------------------------------------------------------------------------------
# Seeded hands


def random_real(rng: random.Random, size: int, banned: Sequence[int]) -> list[int]:
    """Real tiles (no wild kind): half plain draws, half built from sets, pairs and partial sets."""
    wall = [t for t in ALL if t not in banned for _ in range(4)]
    while True:
        if rng.random() < 0.4:
            tiles = rng.sample(wall, size)
        else:
            tiles = []
            while len(tiles) < size + 2:
                r = rng.random()
                if r < 0.35:
                    f = 9 * rng.randrange(3) + rng.randrange(7)
                    tiles += [f, f + 1, f + 2]
                elif r < 0.6:
                    tiles += [rng.choice(wall)] * rng.choice((2, 3))
                elif r < 0.8:
                    f = 9 * rng.randrange(3) + rng.randrange(7)
                    tiles += [f, f + rng.choice((1, 2))]
                elif r < 0.9:
                    tiles += rng.sample(ORPHANS, rng.randrange(2, 8))
                else:
                    tiles.append(rng.choice(wall))
            rng.shuffle(tiles)
            tiles = tiles[:size]
        counts = [0] * NUM_KINDS
        for t in tiles:
            counts[t] += 1
        if max(counts) <= 4 and not any(counts[t] for t in banned):
            return counts


def wild_kinds(rng: random.Random, j: int) -> list[int]:
    """One ghost kind for J <= 4 (white half the time), two kinds for J = 8 (翻双鬼)."""
    if j <= 4:
        return [WHITE if rng.random() < 0.5 else rng.randrange(NUM_KINDS)]
    first = rng.randrange(NUM_KINDS)
    return [first, (first + 1) % NUM_KINDS]


def hands(seed: int, n: int, j: int, size: int) -> Iterator[tuple[list[int], list[int], int, W.WildShapes]]:
    """(counts with the wildcards held as their kinds, wild kinds, melds, shapes)."""
    rng = random.Random(seed * 100 + j)
    for _ in range(n):
        wild = wild_kinds(rng, j)
        melds = rng.choice((0, 0, 0, 1, 2)) if size - j >= 6 else 0
        real = random_real(rng, size - 3 * melds - j, wild)
        counts = real[:]
        for i in range(j):
            counts[wild[i % len(wild)]] += 1
        yield counts, wild, melds, rng.choice(SHAPES)


# ---------------------------------------------------------------------------------------------
# The table itself


def check_suit_table(stride: int) -> int:
    table = W.suit_need_table()
    checked = 0
    for idx, key in enumerate(product(range(5), repeat=9)):
        if sum(key) > W.MAX_PART_TILES or idx % stride:
            continue
        packed = table[idx]
        assert W.sets_need(packed) == min(W.NEED_CAP, W.plain_suit_need(key, False)), key
        assert W.pair_need(packed) == min(W.NEED_CAP, W.plain_suit_need(key, True)), key
        checked += 1
    return checked


def test_suit_table_matches_the_plain_search() -> None:
    assert check_suit_table(211) > 1800


@pytest.mark.slow
def test_suit_table_matches_the_plain_search_on_every_key() -> None:
    assert check_suit_table(1) == 405350


def test_honor_table_matches_the_plain_search() -> None:
    table = W.honor_need_table()
    for idx, key in enumerate(product(range(5), repeat=7)):
        if sum(key) > W.MAX_PART_TILES or idx % 7:
            continue
        assert W.sets_need(table[idx]) == min(W.NEED_CAP, W.plain_suit_need(key, False)), key
        assert W.pair_need(table[idx]) == min(W.NEED_CAP, W.plain_suit_need(key, True)), key


def test_need_tables_come_from_the_install_time_file() -> None:
    """With the tables file in place (make builds it) the need tables are read from it, not built, and
    they are byte for byte what the builders compute (every key; the plain search checks the builders
    above, on every key under -m slow)."""
    t = tables.TABLES
    if t is None:
        pytest.skip(f"no tables file: {tables.PROBLEM}")
    assert t.wild_suit_need is not None and t.wild_honor_need is not None
    assert W.need_tables_origin() == f"read from {t.path}"
    assert W.suit_need_table() == bytes(t.wild_suit_need) == W.build_suit_need_table()
    assert W.honor_need_table() == bytes(t.wild_honor_need) == W.build_honor_need_table()
    assert t.sources == builder.source_digest()  # wildcards.py is one of the file's sources


def _file_without_wild_sections(path: Path) -> Path:
    """A copy of the tables file as written before it held the need tables (same payload and SHA-256,
    the two sections left out of the header)."""
    assert tables.TABLES is not None
    data = Path(tables.TABLES.path).read_bytes()
    header, start = read_header(data)
    for name in (F.WILD_SUIT_NEED, F.WILD_HONOR_NEED):
        del header["sections"][name]
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    head = F.MAGIC + struct.pack("<I", len(text)) + text
    new_start = -(-len(head) // F.ALIGN) * F.ALIGN
    path.write_bytes(head + bytes(new_start - len(head)) + data[start:])
    return path


_ANSWERS = ("from engine import wildcards as W; from engine.tiles import parse_tiles, to_counts, WHITE; "
            "c = to_counts(parse_tiles('13m46p789s999sEEPP')); d = to_counts(parse_tiles('13m46p789s99sEEPP')); "
            "print(W.need_tables_origin()); print(W.is_complete_wild(c, [WHITE]), W.waits_wild(d, [WHITE]))")


def test_builds_are_deterministic_and_sized() -> None:
    assert W.build_honor_need_table() == W.honor_need_table()
    assert len(W.suit_need_table()) == W.SUIT_KEYS == 5 ** 9
    empty = W.suit_need_table()[0]
    assert (W.sets_need(empty), W.pair_need(empty)) == (0, 2)


# ---------------------------------------------------------------------------------------------
# Against brute force


def check_win(n: int, seed: int, j: int, whole: bool = False) -> int:
    """Table against the part-wise substitution (and the whole-hand one if asked); the number of wins."""
    wins = 0
    for counts, wild, melds, shapes in hands(seed, n, j, 14):
        real, jj = W.split_wild(counts, wild)
        assert jj == j
        got = W.is_complete_wild(counts, wild, melds, shapes)
        assert got == parts_win(real, j, melds, shapes), (counts, wild, melds, shapes)
        if whole:
            assert got == bf_win(real, j, melds, shapes), (counts, wild, melds, shapes)
        wins += got
    return wins


def check_waits_and_shanten(n: int, seed: int, j: int, whole: bool = False) -> None:
    for counts, wild, melds, shapes in hands(seed, n, j, 13):
        real, _ = W.split_wild(counts, wild)
        waits = W.waits_wild(counts, wild, melds, shapes)
        shanten = W.shanten_wild(counts, wild, melds, shapes)
        case = (counts, wild, melds, shapes)
        assert waits == parts_waits(real, j, wild, melds, shapes), case
        assert shanten == parts_shanten(real, j, melds, shapes), case
        assert (shanten == 0) == bool(waits) or shanten == 0 and all(counts[t] >= 4 for t in waits), case
        if whole:
            assert waits == bf_waits(real, j, wild, melds, shapes), case
            assert shanten == bf_shanten(real, j, melds, shapes), case


def check_shanten_14(n: int, seed: int, j: int, whole: bool = False) -> None:
    for counts, wild, melds, shapes in hands(seed, n, j, 14):
        real, _ = W.split_wild(counts, wild)
        got = W.shanten_wild(counts, wild, melds, shapes)
        assert got == parts_shanten(real, j, melds, shapes), (counts, wild, melds, shapes)
        assert (got == -1) == W.is_complete_wild(counts, wild, melds, shapes)
        if whole:
            assert got == bf_shanten(real, j, melds, shapes), (counts, wild, melds, shapes)


JS = [0, 1, 2, 3, 4, 8]
FAST = {0: 300, 1: 300, 2: 300, 3: 200, 4: 200, 8: 50}
FAST_ANALYSIS = {0: 150, 1: 120, 2: 60, 3: 30, 4: 20, 8: 2}
WHOLE = {0: 100, 1: 100, 2: 40, 3: 8, 4: 4, 8: 0}
SLOW = 10000


@pytest.mark.parametrize("j", JS)
def test_win_check_matches_brute_force(j: int) -> None:
    wins = check_win(FAST[j], seed=1, j=j)
    assert 0 < wins < FAST[j]  # both answers occur


@pytest.mark.parametrize("j", JS)
def test_waits_and_shanten_match_brute_force(j: int) -> None:
    check_waits_and_shanten(FAST_ANALYSIS[j], seed=2, j=j)


@pytest.mark.parametrize("j", JS)
def test_shanten_of_14_tiles_matches_brute_force(j: int) -> None:
    check_shanten_14(FAST_ANALYSIS[j], seed=3, j=j)


@pytest.mark.parametrize("j", [0, 1, 2, 3, 4])
def test_part_wise_oracle_matches_whole_hand_substitution(j: int) -> None:
    """The part-wise brute force against substitution into the whole hand (fewer hands: it is slow)."""
    check_win(WHOLE[j] * 3, seed=4, j=j, whole=True)
    check_waits_and_shanten(max(WHOLE[j] // 3, 2), seed=5, j=j, whole=True)


def test_the_shared_search_lists_every_assignment() -> None:
    """The part-wise oracle's shared search equals listing every multiset of wildcards, on parts of
    seeded hands, J up to 4."""
    rng = random.Random(8)
    for _ in range(60):
        real = random_real(rng, 10, [])
        j = rng.choice((1, 2, 3, 4))
        for a, b in PARTS:
            key = tuple(real[a:b])
            assert part_outcomes(key, j) == enumerated_outcomes(key, j)
            assert part_vectors(key, j) == enumerated_vectors(key, j)


def test_the_cut_in_kinds_loses_nothing() -> None:
    """The whole-hand substitution over the kinds that can matter equals the one over all 34 kinds."""
    for j in (1, 2):
        for counts, wild, melds, shapes in hands(6, 30, j, 14):
            real, _ = W.split_wild(counts, wild)
            assert bf_win(real, j, melds, shapes) == bf_win(real, j, melds, shapes, full=True)
        for counts, wild, melds, shapes in hands(7, 4, j, 13):
            real, _ = W.split_wild(counts, wild)
            assert bf_shanten(real, j, melds, shapes) == bf_shanten(real, j, melds, shapes, full=True)
            assert bf_waits(real, j, wild, melds, shapes) == bf_waits(real, j, wild, melds, shapes, full=True)


# The slow runs: 10,000 seeded hands per J for the win check, for waits and shanten of 13 tiles, and
# for shanten of 14 tiles (run on the compiled engine: the walks' leaves are its plain search).
SLOW_ANALYSIS = {0: 10000, 1: 10000, 2: 10000, 3: 10000, 4: 10000, 8: 10000}


@pytest.mark.slow
@pytest.mark.parametrize("j", JS)
def test_win_check_matches_brute_force_10000(j: int) -> None:
    check_win(SLOW, seed=11, j=j)


@pytest.mark.slow
@pytest.mark.parametrize("j", JS)
def test_waits_and_shanten_match_brute_force_slow(j: int) -> None:
    check_waits_and_shanten(SLOW_ANALYSIS[j], seed=12, j=j)


@pytest.mark.slow
@pytest.mark.parametrize("j", JS)
def test_shanten_of_14_tiles_matches_brute_force_slow(j: int) -> None:
    check_shanten_14(SLOW_ANALYSIS[j], seed=13, j=j)


@pytest.mark.slow
@pytest.mark.parametrize("j", [0, 1, 2, 3, 4])
def test_part_wise_oracle_matches_whole_hand_substitution_slow(j: int) -> None:
    check_win(WHOLE[j] * 30, seed=14, j=j, whole=True)
    check_waits_and_shanten(WHOLE[j] * 3, seed=15, j=j, whole=True)


def test_fifth_copy_is_what_the_table_computes() -> None:
    """A wildcard may stand for a kind held four times: 1111m + ghost reads as a pung and a pair."""
    counts = [0] * NUM_KINDS
    for t in (0, 0, 0, 0, 9, 10, 11, 12, 13, 14, 15, 16, 17):
        counts[t] += 1
    counts[WHITE] += 1
    assert W.is_complete_wild(counts, [WHITE])
    assert not W.is_complete_wild(counts, [])


# ---------------------------------------------------------------------------------------------
# Decompositions and analysis


def to_hand(counts: list[int], wild: Sequence[int], n_melds: int, rng: random.Random, winning: bool = True) -> Hand:
    tiles = [t for t in ALL for _ in range(counts[t])]
    free = [t for t in ALL if not counts[t] and t not in wild]
    melds = [pung(t) for t in rng.sample(free, n_melds)]
    win = None
    if winning:
        win = rng.choice(tiles)
        tiles.remove(win)
    return make_hand(tiles, melds, win, sizes=(13, 14))


@pytest.mark.parametrize("j", JS)
def test_decompositions_say_what_each_wildcard_stood_for(j: int) -> None:
    rng = random.Random(20 + j)
    seen_win = 0
    for counts, wild, melds, shapes in hands(21, 150 if j < 8 else 15, j, 14):
        hand = to_hand(counts, wild, melds, rng)
        ds = W.decompositions_wild(hand, wild, shapes)
        assert bool(ds) == W.is_complete_wild(counts, wild, melds, shapes), hand
        assert len(set(ds)) == len(ds)
        for d in ds:
            seen_win += 1
            if d.kind == ShapeKind.THIRTEEN_ORPHANS:
                assert sorted(d.knitted) == sorted(set(d.knitted) | set(ORPHANS)) or len(set(d.knitted)) == 13
                continue
            concealed = [s for s in d.sets if s.meld_index is None]
            assert len(d.sets) - len(concealed) == melds
            held = sorted(t for s in concealed for t in s.held)
            assert held == sorted(hand.all_concealed()), d
            wilds = [w for s in concealed for w in s.wild]
            assert len(wilds) == j and all(w in wild for w in wilds)
            for s in concealed:
                assert len(s.wild) == len(s.wild_as)
                assert all(a in s.tiles for a in s.wild_as)
                if s.kind == SetKind.CHOW:
                    assert s.first < 27 and s.first % 9 <= 6
            if d.kind == ShapeKind.STANDARD:
                assert [s.kind for s in d.sets].count(SetKind.PAIR) == 1 and d.sets[-1].kind == SetKind.PAIR
                assert len(d.sets) == 5
            marked = [s for s in d.sets if s.win_offset is not None]
            assert len(marked) == 1 and marked[0].held[marked[0].win_offset] == hand.winning_tile
    assert seen_win


def test_without_wildcards_the_standard_decompositions_are_the_engines() -> None:
    rng = random.Random(30)
    for counts, wild, melds, shapes in hands(31, 200, 0, 14):
        hand = to_hand(counts, wild, melds, rng)
        ours = {tuple((s.kind, s.first, s.win_offset, s.meld_index) for s in d.sets)
                for d in W.decompositions_wild(hand, (), shapes) if d.kind == ShapeKind.STANDARD}
        theirs = {tuple((s.kind, s.first, s.win_offset, s.meld_index) for s in d.sets)
                  for d in decompositions(hand) if d.kind == ShapeKind.STANDARD}
        assert ours == theirs, hand


def test_two_ghosts_decomposition_example() -> None:
    """White is wild: 13m 46p 789s 999s EE + two whites, won on a white."""
    hand = make_hand(parse_tiles("13m46p789s999sEEP"), (), WHITE, sizes=(14,))
    ds = W.decompositions_wild(hand, [WHITE])
    text = {str(d) for d in ds}
    assert "standard: chow 123m! P=2m, chow 456p P=5p, chow 789s, pung 999s, pair EE" in text
    assert "standard: chow 123m P=2m, chow 456p! P=5p, chow 789s, pung 999s, pair EE" in text
    assert all(sorted(w for s in d.sets for w in s.wild) == [WHITE, WHITE] for d in ds)


@pytest.mark.parametrize("j", [0, 1, 2, 4])
def test_analysis_with_wildcards(j: int) -> None:
    rng = random.Random(40 + j)
    for counts, wild, melds, shapes in hands(41, 10, j, 13):
        hand = to_hand(counts, wild, melds, rng, winning=False)
        a = W.analyze_wild(hand, (), wild, ALL, shapes)
        real, _ = W.split_wild(counts, wild)
        assert a.shanten == parts_shanten(real, j, melds, shapes)
        if a.shanten == 0:
            assert tuple(t.tile for t in a.waits) == parts_waits(real[:], j, wild, melds, shapes)
        else:
            useful = []
            for t in ALL:
                if counts[t] >= 4:
                    continue
                if t in wild:
                    if parts_shanten(real, j + 1, melds, shapes) < a.shanten:
                        useful.append(t)
                    continue
                real[t] += 1
                if parts_shanten(real, j, melds, shapes) < a.shanten:
                    useful.append(t)
                real[t] -= 1
            assert tuple(t.tile for t in a.useful_tiles) == tuple(useful)
    for counts, wild, melds, shapes in hands(42, 3, j, 14):
        hand = to_hand(counts, wild, melds, rng)
        a = W.analyze_wild(hand, (), wild, ALL, shapes)
        assert a.shanten == W.shanten_wild(counts, wild, melds, shapes)
        assert {o.tile for o in a.discards} == {t for t in ALL if counts[t]}
        for o in a.discards:
            after = counts[:]
            after[o.tile] -= 1
            real, jj = W.split_wild(after, wild)
            assert o.shanten == parts_shanten(real, jj, melds, shapes)
        assert a.discards[0].shanten == min(o.shanten for o in a.discards)
