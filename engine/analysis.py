"""Shanten, waits, useful tiles and discard advice.

Shanten has pymahjonggb's `MahjongShanten` meaning: -1 complete, 0 waiting, n tiles away.
The standard shape uses the usual count: with S sets (declared melds included), B partial
sets (two tiles of a set: a pair, two neighbours, two with a gap) and P = 1 if a pair is kept
apart, shanten = 8 - 2S - min(B, 4 - S) - P. Equivalently, at most four groups are counted,
a set worth 2 and a partial set 1, plus 1 for the pair.

Why it is fast: a suit's contribution depends only on its nine counts. For each suit key we
keep a vector f[p][k] = the best value (2 per set, 1 per partial set, +1 for the pair if p) its
tiles give when at most k groups (0-4) are counted. Vectors of two parts combine by a max-plus
convolution, which is associative; the distinct vectors (69 over every suit key) are interned
as small integers, and the combination of two ids is memoized. A hand then costs four dictionary
look-ups (three suits and the honours), three combination look-ups and one table read.
Special shapes (seven pairs, thirteen orphans, honours-and-knitted, knitted straight) are read
from per-suit summaries kept in the same memo entry. Discard advice asks this of every 13-tile
hand a 14-tile one leaves; a discard changes one part, so `Discarding` works out what the other
parts give together once per hand, and each discard combines only its own part with that.
All memos fill on first use; they are the only mutable state, and a value is fully built
before it is published, so readers on other threads see either nothing or the final value.

Every per-part value above is read from the tables mapped by `engine.tables` (computed by this
module's own search, `*_dfs`, at build time, for every key a hand can hold); the search and its memos
only answer keys outside the tables (a fifth copy) or a process running without the file. The memo
of part/rest combinations for useful tiles (`_UMASK`) stays per process, bounded (`_UMASK_LIMIT`), and
so does what a 13-tile analysis finds from the hand alone (`_HAND13`: a waiting hand is asked about again
after every discard, with only the visible tiles changed).

Waits are checked against `engine.shapes` (the complete-suit table and its DFS for a fifth
copy), not derived from shanten; the tests cross-check the two.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import permutations
from typing import Final

from engine.errors import TileCountError, TooManyCopiesError
from engine.hand import Hand
from engine.registry import REGISTRY
from engine.results import Analysis, DiscardOption, TileCount
from engine.shapes import COMPLETE_SUITS, ShapeKind, _suit_splits_dfs, is_complete_counts
from engine.tables import TABLES
from engine.tables.loader import SuitTable
from engine.tile_kinds import NUM_KINDS, SEARCH_MAX_TILES, TERMINALS_AND_HONORS, suit_of
from engine.tiles import format_tile, to_counts

Key = tuple[int, ...]  # nine counts for a suit, seven for the honours
# A part's additions (`_plus`): its plus id, and the ranks whose addition leads to each other class.
Plus = tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]

# Module globals are Final where never rebound: compiled code keeps them in C statics instead of reading the
# module's dict on each use (the tables and memos below are filled in place, never replaced).
_NEG: Final = -64  # "no pair taken from this part": stays negative after any sum of real values
_S: Final = 1 << 16  # bound of the class ids; the stride of a class id in `_UMASK`'s key
_ALL_KINDS: Final = frozenset(range(NUM_KINDS))

_lock = REGISTRY.lock("analysis.lock")
_VECS: Final[list[tuple[int, ...]]] = REGISTRY.table("analysis.vecs", [])  # id -> (f0[0..4], f1[0..4])
_VEC_IDS: Final[dict[tuple[int, ...], int]] = REGISTRY.table("analysis.vec_ids", {})
# id -> standard shanten with 0..4 declared melds
_REG: Final[list[tuple[int, ...]]] = REGISTRY.table("analysis.reg", [])
_PART_CID: Final[dict[Key, int]] = REGISTRY.table("analysis.part_cid", {})  # part key -> class id of its vector
# [a][b]: the class id of classes a and b combined, -1 (or past the row's end) not yet worked out. A list
# of rows, not a dict keyed by a * _S + b: a compiled read is two list reads, with no key to build.
_COMB: Final[list[list[int]]] = REGISTRY.table("analysis.comb", [])
# Per part key: (class id, pairs counting a four as two, pairs, orphan kinds, orphan pair,
# present ranks in residue classes 0/1/2 (1-4-7, 2-5-8, 3-6-9), class ids of what is left
# when a residue class is taken out for a knitted straight; zeros / own id for honours).
_INFO: Final[dict[Key, tuple[int, ...]]] = REGISTRY.table("analysis.info", {})
_INFO_SHARED: Final[dict[tuple[int, ...], tuple[int, ...]]] = REGISTRY.table("analysis.info_shared", {})
_PLUS: Final[dict[Key, tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]]] = REGISTRY.table("analysis.plus", {})
_PLUS_IDS: Final[dict[tuple[tuple[int, tuple[int, ...]], ...], int]] = REGISTRY.table("analysis.plus_ids", {})
# Table answers of `_plus` already decoded: one analysis asks for the same part's additions for every
# discard of another part (about four times per distinct discard). Bounded: emptied when full.
_PLUS_DECODED_LIMIT: Final = 1 << 14  # entries (~3 MB at most)
_PLUS_DECODED: Final[dict[Key, tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]]] = REGISTRY.table(
    "analysis.plus_decoded", {}, limit=_PLUS_DECODED_LIMIT)
# A part's parts with one copy fewer (`_down`): what discard advice asks of each discard, by the part's key.
# Bounded: emptied when full.
_DOWN_LIMIT: Final = 1 << 13  # entries (~6 MB at most)
Down = tuple[Key, tuple[int, ...], Plus, tuple[int, int]]  # key, `_info`, `_plus`, `_pair_masks`
_DOWN: Final[dict[Key, tuple[Down | None, ...]]] = REGISTRY.table("analysis.down", {}, limit=_DOWN_LIMIT)
# A suit's knitted-straight rests' additions (`_knit_rests`), by the suit's key. Bounded: emptied when full.
_KNIT_RESTS_LIMIT: Final = 1 << 13  # entries (~2 MB at most)
_KNIT_RESTS: Final[dict[Key, tuple[Plus, ...]]] = REGISTRY.table("analysis.knit_rests", {}, limit=_KNIT_RESTS_LIMIT)
_UMASK_LIMIT: Final = 1 << 16  # entries; the memo is emptied when it reaches this (~6 MB at most)
# (plus id, other class, melds, target) -> useful ranks of the part, as bits
_UMASK: Final[dict[int, int]] = REGISTRY.table("analysis.umask", {}, limit=_UMASK_LIMIT)
# What a 13-tile analysis works out from the hand alone (see `_thirteen`), by the concealed counts, the
# number of melds and the rule set's shapes: a waiting hand is analysed again after every discard at its
# table with only the visible tiles changed. Bounded: emptied when full.
_HAND13_LIMIT = 1 << 12  # entries (~2 MB at most)
Thirteen = tuple[int, tuple[tuple[ShapeKind, int], ...], tuple[int, ...], tuple[int, ...], bool]
_HAND13: Final[dict[tuple[tuple[int, ...], int, bool, frozenset[ShapeKind] | None], Thirteen]] = REGISTRY.table(
    "analysis.hand13", {}, limit=_HAND13_LIMIT)
_FALLBACK_PLUS_IDS: Final = 1 << 32  # plus ids of keys outside the tables start here (the tables' ids are smaller)
# key -> ranks held an odd number of times / once, as bits
_PAIR_MASKS: Final[dict[Key, tuple[int, int]]] = REGISTRY.table("analysis.pair_masks", {})
# The tiles of each 9-bit mask of part j (j = 3: the honours), ascending.
_CHUNKS: Final = tuple(tuple(tuple(9 * j + r for r in range(9) if m >> r & 1) for m in range(512)) for j in range(4))
_COMPLETIONS: Final[dict[Key, tuple[int | None, tuple[int, ...], tuple[int, ...]]]] = REGISTRY.table(
    "analysis.completions", {})

# The shapes as compiled constants: compared by identity in the loops below (every shape value there is
# one of these members), never looked up on the class per use.
_STANDARD: Final = ShapeKind.STANDARD
_SEVEN_PAIRS: Final = ShapeKind.SEVEN_PAIRS
_THIRTEEN_ORPHANS: Final = ShapeKind.THIRTEEN_ORPHANS
_HONORS_KNITTED: Final = ShapeKind.HONORS_KNITTED
_KNITTED_STRAIGHT: Final = ShapeKind.KNITTED_STRAIGHT

_PERMS: Final = tuple(permutations(range(3)))  # residue class given to each suit in a knitted pattern
_PATTERNS: Final = {p: tuple(9 * s + p[s] + 3 * j for s in range(3) for j in range(3)) for p in _PERMS}
_ORPHANS: Final = TERMINALS_AND_HONORS


# ---------------------------------------------------------------------------------------------
# Group vectors and their combination


def _intern(vec: tuple[int, ...]) -> int:
    cid = _VEC_IDS.get(vec)
    if cid is None:
        with _lock:
            cid = _VEC_IDS.get(vec)
            if cid is None:
                cid = len(_VECS)
                if cid >= _S:
                    raise RuntimeError("too many group vectors")  # cannot happen: values are bounded
                _VECS.append(vec)
                _REG.append(tuple(8 - 2 * m - max(vec[4 - m], vec[9 - m]) for m in range(5)))
                _COMB.append([])
                _VEC_IDS[vec] = cid  # published last: readers never see a half-built entry
    return cid


def _minus(key: Key, ranks: tuple[int, ...]) -> Key:
    out = list(key)
    for r in ranks:
        out[r] -= 1
    return tuple(out)


# The tables' two parts, Final as the module's other globals (see above).
_SUIT_TABLE: Final[SuitTable | None] = TABLES.suits if TABLES is not None else None
_HONOR_TABLE: Final[SuitTable | None] = TABLES.honors if TABLES is not None else None


def _table(key: Key) -> SuitTable | None:
    return _SUIT_TABLE if len(key) == 9 else _HONOR_TABLE


def _vector_dfs(key: Key) -> tuple[int, ...]:
    return _VECS[_part_cid_dfs(key)]


def _part_cid_dfs(key: Key) -> int:
    """Class id of a part's vector: best group values by the number of groups counted and whether
    the part gives the pair.

    The lowest tile present either stays alone or starts a set, a partial set or the pair;
    recursing on what is left enumerates every decomposition (memoized per key; only the small
    class id is stored, the vectors themselves are shared).
    """
    cid = _PART_CID.get(key)
    if cid is not None:
        return cid
    if min(key) < 0 or sum(key) > SEARCH_MAX_TILES:  # the search would not end, or recurse too deep
        raise TileCountError(f"counts: a part of {key} cannot be searched: each count 0 or more, at most "
                             f"{SEARCH_MAX_TILES} tiles in a suit", "counts")
    i = next((r for r, n in enumerate(key) if n), None)
    vec: tuple[int, ...]
    if i is None:
        vec = (0, 0, 0, 0, 0, _NEG, _NEG, _NEG, _NEG, _NEG)
    else:
        suited = len(key) == 9
        n = key[i]
        rest = _vector_dfs(_minus(key, (i,)))  # the lowest tile left alone
        best = list(rest)
        groups: list[tuple[int, tuple[int, ...]]] = []
        if n >= 3:
            groups.append((2, (i, i, i)))
        if n >= 2:
            groups.append((1, (i, i)))
        if suited:
            if i <= 6 and key[i + 1] and key[i + 2]:
                groups.append((2, (i, i + 1, i + 2)))
            if i <= 7 and key[i + 1]:
                groups.append((1, (i, i + 1)))
            if i <= 6 and key[i + 2]:
                groups.append((1, (i, i + 2)))
        for value, ranks in groups:
            sub = _vector_dfs(_minus(key, ranks))
            for k in range(1, 5):
                if sub[k - 1] + value > best[k]:
                    best[k] = sub[k - 1] + value
                if sub[4 + k] + value > best[5 + k]:
                    best[5 + k] = sub[4 + k] + value
        if n >= 2:  # the pair, outside the four groups
            sub = _vector_dfs(_minus(key, (i, i)))
            for k in range(5):
                if sub[k] + 1 > best[5 + k]:
                    best[5 + k] = sub[k] + 1
        vec = tuple(v if j < 5 or v > 0 else _NEG for j, v in enumerate(best))
    cid = _intern(vec)
    _PART_CID[key] = cid
    return cid


def _comb_fill(a: int, b: int) -> int:
    va, vb = _VECS[a], _VECS[b]
    g = [0] * 10
    for k in range(5):
        g[k] = max(va[i] + vb[k - i] for i in range(k + 1))
        v = max(max(va[5 + i] + vb[k - i], va[i] + vb[5 + k - i]) for i in range(k + 1))
        g[5 + k] = v if v > 0 else _NEG
    cid = _intern(tuple(g))
    with _lock:
        row = _COMB[a]
        if len(row) <= b:
            row.extend([-1] * (b + 1 - len(row)))
        row[b] = cid
    return cid


def _c(a: int, b: int) -> int:
    row = _COMB[a]
    if b < len(row):
        y = row[b]
        if y >= 0:
            return y
    return _comb_fill(a, b)


def _preload(vectors: list[tuple[int, ...]], combine: bytes) -> None:
    """Class ids numbered as the tables file numbers them, and the combination of every two (the
    file's vectors are closed under combination), so no class is interned under load."""
    for vec in vectors:
        if _intern(vec) != len(_VECS) - 1:
            raise RuntimeError("the tables file repeats a group vector")
    n = len(vectors)
    for a in range(n):
        _COMB[a].extend(combine[a * n:(a + 1) * n])


if TABLES is not None:
    _preload(TABLES.vectors, TABLES.combine)


def _info(key: Key) -> tuple[int, ...]:
    """A part's summary: (class id, pairs counting a four as two, pairs, orphan kinds, orphan pair,
    knitted ranks present per residue 0/1/2, class ids of the rest per residue)."""
    table = _table(key)
    if table is not None:
        found = table.part_summary(key)
        if found is not None:
            return found
    info = _INFO.get(key)
    if info is not None:
        return info
    info = _info_dfs(key)
    _INFO[key] = info
    return info


def _info_dfs(key: Key) -> tuple[int, ...]:
    cid = _part_cid_dfs(key)
    pairs_q = sum(n // 2 for n in key)
    pairs = sum(1 for n in key if n >= 2)
    ends: tuple[int, ...]
    if len(key) == 9:
        ends = (key[0], key[8])
        res = tuple(sum(1 for r in (j, j + 3, j + 6) if key[r]) for j in range(3))
    else:
        ends = key
        res = (0, 0, 0)
    # class ids of the key less one copy of each present rank of residue class 0/1/2 (knitted straight)
    ks = tuple(_part_cid_dfs(_minus(key, tuple(r for r in (j, j + 3, j + 6) if key[r]))) if len(key) == 9
               else cid for j in range(3))
    info = (cid, pairs_q, pairs, sum(1 for n in ends if n), int(any(n >= 2 for n in ends))) + res + ks
    return _INFO_SHARED.setdefault(info, info)  # few distinct summaries: share them across keys


def _parts(c: Sequence[int]) -> tuple[tuple[Key, ...], tuple[tuple[int, ...], ...]]:
    keys = (tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]), tuple(c[27:34]))
    return keys, (_info(keys[0]), _info(keys[1]), _info(keys[2]), _info(keys[3]))


def _knit_rests(key: Key) -> tuple[Plus, ...]:
    """For residue class 0, 1 and 2 of a suit, the additions (`_plus`) of what a knitted straight leaves
    of it: the suit less one copy of each present rank of that class (its class id is in the suit's
    summary, `_info`). Memoized per key (bounded)."""
    found = _KNIT_RESTS.get(key)
    if found is not None:
        return found
    found = tuple([_plus(_minus(key, tuple([r for r in (residue, residue + 3, residue + 6) if key[r]])))
                   for residue in range(3)])
    if len(_KNIT_RESTS) >= _KNIT_RESTS_LIMIT:
        _KNIT_RESTS.clear()
    _KNIT_RESTS[key] = found
    return found


# ---------------------------------------------------------------------------------------------
# Shanten


def shanten(counts: Sequence[int], n_melds: int = 0, allow_quad_pairs: bool = True) -> int:
    """Combined shanten of the concealed counts (13 or 14 tiles less 3 per declared meld).

    Special shapes only without melds, the knitted straight also with one meld (as pymahjonggb).
    """
    c = tuple(counts)
    a = _info(c[0:9])
    b = _info(c[9:18])
    d = _info(c[18:27])
    h = _info(c[27:34])
    best = _REG[_c(_c(_c(a[0], b[0]), d[0]), h[0])][n_melds]
    if n_melds > 1 or best < 0:
        return best
    if n_melds == 0:
        v = 6 - (a[1] + b[1] + d[1] + h[1]) if allow_quad_pairs else _distinct_pairs(a, b, d, h, c)
        if v < best:
            best = v
        v = 13 - (a[3] + b[3] + d[3] + h[3]) - (1 if a[4] or b[4] or d[4] or h[4] else 0)
        if v < best:
            best = v
    present = _present(a, b, d)
    if n_melds == 0:
        v = 13 - _top(present) - h[3]
        if v < best:
            best = v
    for perm, p in zip(_PERMS, present, strict=True):
        if 8 - p < best:  # the rest needs at least -1 more
            v = 9 - p + _ks_rest_shanten(a, b, d, perm, h[0], n_melds)
            if v < best:
                best = v
    return best


def _ks_rest_shanten(a: tuple[int, ...], b: tuple[int, ...], d: tuple[int, ...], perm: tuple[int, ...],
                     honors_cid: int, n_melds: int) -> int:
    """Standard shanten of what a knitted pattern leaves, the pattern counting as three sets."""
    whole = _c(_c(_c(a[8 + perm[0]], b[8 + perm[1]]), d[8 + perm[2]]), honors_cid)
    return _REG[whole][n_melds + 3]


def _by_shape(keys: tuple[Key, ...], infos: tuple[tuple[int, ...], ...], n_melds: int,
              allow_quad_pairs: bool, whole: int = -1) -> tuple[tuple[ShapeKind, int], ...]:
    """Each shape's shanten; `whole`: the class id of the four parts combined, if the caller has it."""
    a, b, d, h = infos
    reg = _REG[whole if whole >= 0 else _c(_c(_c(a[0], b[0]), d[0]), h[0])][n_melds]
    if n_melds > 1:
        return ((_STANDARD, reg),)
    present = _present(a, b, d)
    ks = _ks_best(infos, present, n_melds)[0]
    if n_melds == 1:
        return ((_STANDARD, reg), (_KNITTED_STRAIGHT, ks))
    sp = 6 - (a[1] + b[1] + d[1] + h[1]) if allow_quad_pairs else _distinct_pairs(a, b, d, h, _concat(keys))
    orphans = 13 - (a[3] + b[3] + d[3] + h[3]) - (1 if a[4] or b[4] or d[4] or h[4] else 0)
    return ((_STANDARD, reg), (_SEVEN_PAIRS, sp), (_THIRTEEN_ORPHANS, orphans),
            (_HONORS_KNITTED, 13 - _top(present) - h[3]), (_KNITTED_STRAIGHT, ks))


def _attaining(infos: tuple[tuple[int, ...], ...], n_melds: int, allow_quad_pairs: bool,
               whole: int) -> tuple[int, list[tuple[ShapeKind, int]], list[tuple[int, ...]]]:
    """The combined shanten, the shapes that reach it (a knitted straight that cannot is not
    worked out) and the knitted assignments that do, for discard advice where the other shapes'
    values are not reported. `whole`: the class id of the four parts combined."""
    a, b, d, h = infos
    reg = _REG[whole][n_melds]
    if n_melds > 1:
        return reg, [(_STANDARD, reg)], []
    present = _present(a, b, d)
    top = _top(present)
    sp = to = hk = ks = 99  # shapes not played with a meld, or not worked out
    low = reg
    if n_melds == 0:
        sp = 6 - (a[1] + b[1] + d[1] + h[1]) if allow_quad_pairs else _distinct_pairs(a, b, d, h, None)
        to = 13 - (a[3] + b[3] + d[3] + h[3]) - (1 if a[4] or b[4] or d[4] or h[4] else 0)
        hk = 13 - top - h[3]
        low = low if low < sp else sp
        low = low if low < to else to
        low = low if low < hk else hk
    perms: list[tuple[int, ...]] = []
    if 8 - top <= low:  # only a knitted straight reaching the best of the others matters
        ks, perms = _ks_best(infos, present, n_melds, low)
        if ks < low:
            low = ks
    shapes = []  # only those reaching `low`, in `_by_shape`'s order: no pair built for the others
    if reg == low:
        shapes.append((_STANDARD, reg))
    if sp == low:
        shapes.append((_SEVEN_PAIRS, sp))
    if to == low:
        shapes.append((_THIRTEEN_ORPHANS, to))
    if hk == low:
        shapes.append((_HONORS_KNITTED, hk))
    if ks == low:
        shapes.append((_KNITTED_STRAIGHT, ks))
    return low, shapes, perms


def _concat(keys: tuple[Key, ...]) -> tuple[int, ...]:
    return keys[0] + keys[1] + keys[2] + keys[3]


def _distinct_pairs(a: tuple[int, ...], b: tuple[int, ...], d: tuple[int, ...], h: tuple[int, ...],
                    counts: Sequence[int] | None) -> int:
    """Seven-pairs shanten when the pairs must be of seven different kinds: 6 - pairs, plus one for each
    kind short of seven. `counts` None: the kinds are not known (only where the rule sets that need this
    never call: _attaining serves the rule sets that play every shape)."""
    pairs = a[2] + b[2] + d[2] + h[2]
    if counts is None:
        return 6 - pairs
    kinds = len(counts) - counts.count(0)
    return 6 - pairs + (7 - kinds if kinds < 7 else 0)


def _top(present: tuple[int, ...]) -> int:
    """The most knitted-pattern tiles of any assignment (`max(present)`, without the builtin's generic call)."""
    top = 0
    for p in present:
        if p > top:
            top = p
    return top


def _present(a: tuple[int, ...], b: tuple[int, ...], d: tuple[int, ...]) -> tuple[int, ...]:
    """Knitted-pattern tiles present, for each residue assignment in `_PERMS` order."""
    a5, a6, a7, b5, b6, b7, d5, d6, d7 = a[5], a[6], a[7], b[5], b[6], b[7], d[5], d[6], d[7]
    return (a5 + b6 + d7, a5 + b7 + d6, a6 + b5 + d7, a6 + b7 + d5, a7 + b5 + d6, a7 + b6 + d5)


def _ks_best(infos: tuple[tuple[int, ...], ...], present: tuple[int, ...],
             n_melds: int, bound: int = 98) -> tuple[int, list[tuple[int, ...]]]:
    """Knitted-straight shanten and the residue assignments that reach it; (99, []) when none
    reaches `bound` or better.

    The rest of the hand needs at least -1 more, so assignments go from the most pattern
    tiles down and stop once the rest cannot reach the best found (or the bound).
    """
    a, b, d, h = infos
    best, perms = bound, []
    p = _top(present)
    while p >= 0 and 8 - p <= best:  # from the most pattern tiles down, while they could reach `best`
        for i in range(6):
            if present[i] != p:
                continue
            if 8 - p > best:
                break
            perm = _PERMS[i]
            v = 9 - p + _ks_rest_shanten(a, b, d, perm, h[0], n_melds)
            if v < best:
                best, perms = v, [perm]
            elif v == best:
                perms.append(perm)
        p -= 1
    return (best, perms) if perms else (99, perms)


def shanten_by_shape(counts: Sequence[int], n_melds: int = 0,
                     allow_quad_pairs: bool = True) -> tuple[tuple[ShapeKind, int], ...]:
    """Shanten of each shape that applies (standard always; the special ones as in `shanten`)."""
    keys, infos = _parts(counts)
    return _by_shape(keys, infos, n_melds, allow_quad_pairs)


# ---------------------------------------------------------------------------------------------
# Useful tiles


def _plus(key: Key) -> Plus:
    """Ranks whose addition changes the part's class, grouped by the class they lead to, with
    an id shared by every key with the same groups (the key of the `_UMASK` memo)."""
    decoded = _PLUS_DECODED.get(key)
    if decoded is not None:
        return decoded
    table = _table(key)
    if table is not None:
        tabled = table.additions_of(key)
        if tabled is not None:
            if len(_PLUS_DECODED) >= _PLUS_DECODED_LIMIT:
                _PLUS_DECODED.clear()
            _PLUS_DECODED[key] = tabled
            return tabled
    found = _PLUS.get(key)
    if found is None:
        plus = _plus_dfs(key)
        pid = _PLUS_IDS.get(plus)
        if pid is None:
            with _lock:
                pid = _PLUS_IDS.setdefault(plus, _FALLBACK_PLUS_IDS + len(_PLUS_IDS))
        found = (pid, plus)
        _PLUS[key] = found
    return found


def _plus_dfs(key: Key) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """`_plus` groups by search, in the order of their lowest rank."""
    own = _part_cid_dfs(key)
    groups: dict[int, list[int]] = {}
    for r, n in enumerate(key):
        if n < 4:
            cid = _part_cid_dfs(key[:r] + (n + 1,) + key[r + 1:])
            if cid != own:
                groups.setdefault(cid, []).append(r)
    return tuple((cid, tuple(rs)) for cid, rs in groups.items())


def _umask_fill(k: int, plus: tuple[tuple[int, tuple[int, ...]], ...], o: int, n_melds: int, target: int) -> int:
    mask = 0
    for cid, ranks in plus:
        if _REG[_c(o, cid)][n_melds] < target:
            for r in ranks:
                mask |= 1 << r
    if len(_UMASK) >= _UMASK_LIMIT:
        _UMASK.clear()  # bounded: hands never seen do not grow it without end
    _UMASK[k] = mask
    return mask


def _down(key: Key) -> tuple[Down | None, ...]:
    """For each rank of a part, the part with one copy of it fewer: (its key, its summary `_info`, its
    additions `_plus`, its `_pair_masks`); None for a rank not held. Discard advice reads a discard's
    part here by rank, without building, hashing or decoding the new key's facts per discard."""
    found = _DOWN.get(key)
    if found is not None:
        return found
    out: list[Down | None] = []
    for r, n in enumerate(key):
        if n > 0:
            less = key[:r] + (n - 1,) + key[r + 1:]
            out.append((less, _info(less), _plus(less), _pair_masks(less)))
        else:
            out.append(None)
    found = tuple(out)
    if len(_DOWN) >= _DOWN_LIMIT:
        _DOWN.clear()
    _DOWN[key] = found
    return found


def _others(cids: Sequence[int]) -> list[int]:
    """For each of the four parts, the class id of the other three combined."""
    a, b, d, h = cids
    ab, dh = _c(a, b), _c(d, h)
    return [_c(b, dh), _c(a, dh), _c(ab, h), _c(ab, d)]


def _regular_useful(others: list[int], pluses: list[Plus], n_melds: int, target: int) -> int:
    """Bit mask of the tiles that bring the standard shanten below `target`, given for each of the four
    parts the class of the other three combined (`_others`) and its additions (`_plus`)."""
    if target <= -1:  # -1 is the least shanten
        return 0
    mask = 0
    for j in range(4):
        pid, groups = pluses[j]
        mask |= _umask(pid, groups, others[j], n_melds, target) << (9 * j)
    return mask


def _umask(pid: int, groups: tuple[tuple[int, tuple[int, ...]], ...], o: int, n_melds: int, target: int) -> int:
    """The ranks of a part (additions `pid`, `groups`: `_plus`) whose draw brings the standard shanten
    below `target` when the other three parts combine to class `o`, as bits. They depend on nothing else,
    so they are memoized per (plus id, other class, melds, target)."""
    k = ((pid * _S + o) << 7) + n_melds * 16 + target  # targets stay below 16 (13 tiles are at most 13 away)
    m = _UMASK.get(k)
    if m is None:
        return _umask_fill(k, groups, o, n_melds, target)
    return m


def _pair_masks(key: Key) -> tuple[int, int]:
    """Bits of the ranks held an odd number of times, and of those held once (seven-pairs draws)."""
    table = _table(key)
    if table is not None:
        tabled = table.pair_masks(key)
        if tabled is not None:
            return tabled
    found = _PAIR_MASKS.get(key)
    if found is None:
        found = (sum(1 << r for r, n in enumerate(key) if n % 2 == 1), sum(1 << r for r, n in enumerate(key) if n == 1))
        _PAIR_MASKS[key] = found
    return found


def _has_four(c: Sequence[int]) -> bool:
    """Some count is four or more (`4 in c` compares objects one by one; this compares ints)."""
    for n in c:  # noqa: SIM110 (no generator: this loop compiles to C)
        if n >= 4:
            return True
    return False


def _mask_tiles(mask: int) -> tuple[int, ...]:
    """The tiles of a 34-bit mask, ascending."""
    ch = _CHUNKS
    return ch[0][mask & 511] + ch[1][(mask >> 9) & 511] + ch[2][(mask >> 18) & 511] + ch[3][mask >> 27]


def _useful(c: Sequence[int], keys: tuple[Key, ...], infos: tuple[tuple[int, ...], ...], n_melds: int,
            allow_quad_pairs: bool, by_shape: Sequence[tuple[ShapeKind, int]], target: int) -> tuple[int, ...]:
    """Tiles (with fewer than four in hand) that lower the shanten of some shape now at `target`,
    ascending."""
    return _mask_tiles(_useful_mask(c, keys, infos, n_melds, allow_quad_pairs, by_shape, target, None, True, None))


def _useful_mask(c: Sequence[int], keys: tuple[Key, ...], infos: tuple[tuple[int, ...], ...], n_melds: int,
                 allow_quad_pairs: bool, by_shape: Sequence[tuple[ShapeKind, int]], target: int,
                 ks_perms: list[tuple[int, ...]] | None, quads: bool, parts: Discarding | None) -> int:
    """`_useful` as a 34-bit mask (bit t: tile t). Discard advice gives what it has worked out already:
    `ks_perms`, the knitted assignments reaching `target` (None: found here); `quads` False, no count is
    four; `parts`, the hand's parts as its discards see them (`Discarding`; None: the plain path)."""
    out = 0
    for shape, value in by_shape:
        if value != target:
            continue
        if shape is _STANDARD:
            if parts is None:
                out |= _regular_useful(_others([infos[0][0], infos[1][0], infos[2][0], infos[3][0]]),
                                       [_plus(keys[0]), _plus(keys[1]), _plus(keys[2]), _plus(keys[3])],
                                       n_melds, target)
            elif target > -1:  # -1 is the least shanten
                out |= parts.useful_bits(n_melds, target)
        elif shape is _SEVEN_PAIRS:
            sel = 0 if allow_quad_pairs else 1
            if parts is None:
                for j in range(4):
                    pm = _pair_masks(keys[j])
                    out |= (pm[0] if sel == 0 else pm[1]) << (9 * j)  # by name: see `Discarding.pair_bits`
            else:
                out |= parts.pair_bits(sel)
            if not allow_quad_pairs and len(c) - list(c).count(0) < 7:  # a new kind helps too
                for t in range(NUM_KINDS):
                    if not c[t]:
                        out |= 1 << t
        elif shape is _THIRTEEN_ORPHANS:
            has_pair = any(c[t] >= 2 for t in _ORPHANS)
            for t in _ORPHANS:
                if not (has_pair and c[t]):
                    out |= 1 << t
        elif shape is _HONORS_KNITTED:
            present = _present(infos[0], infos[1], infos[2])
            top = _top(present)
            for p, n in zip(_PERMS, present, strict=True):
                if n == top:
                    for t in _PATTERNS[p]:
                        if not c[t]:
                            out |= 1 << t
            for t in range(27, 34):
                if not c[t]:
                    out |= 1 << t
        else:
            perms = ks_perms if ks_perms is not None else _ks_best(infos, _present(*infos[:3]), n_melds)[1]
            for p in perms:
                missing = [t for t in _PATTERNS[p] if not c[t]]
                for t in missing:
                    out |= 1 << t
                # what the pattern leaves of each suit (its class id from the summary), the honours whole
                p0, p1, p2 = p
                out |= _regular_useful(
                    _others([infos[0][8 + p0], infos[1][8 + p1], infos[2][8 + p2], infos[3][0]]),
                    [_knit_rests(keys[0])[p0], _knit_rests(keys[1])[p1], _knit_rests(keys[2])[p2], _plus(keys[3])],
                    n_melds + 3, target - len(missing))
    if quads and _has_four(c):
        for t, n in enumerate(c):
            if n >= 4:
                out &= ~(1 << t)
    return out


def useful_tiles(counts: Sequence[int], n_melds: int = 0, allow_quad_pairs: bool = True) -> tuple[int, ...]:
    """Tiles whose draw lowers the shanten of a 13-tile hand (tiles held four times are skipped;
    at shanten 0 these are the waits, less any fifth copy)."""
    keys, infos = _parts(counts)
    by_shape = _by_shape(keys, infos, n_melds, allow_quad_pairs)
    target = min(v for _, v in by_shape)
    return tuple(sorted(_useful(counts, keys, infos, n_melds, allow_quad_pairs, by_shape, target)))


# ---------------------------------------------------------------------------------------------
# Waits, checked against the winning shapes


def _part_status(key: Key) -> int | None:
    """0: sets only, 2: sets and one pair, None: not complete. Counts may reach 5 (a fifth copy)."""
    if len(key) == 9:
        if max(key) <= 4:
            return COMPLETE_SUITS.get(key)  # type: ignore[arg-type]
        return (2 if sum(key) % 3 == 2 else 0) if _suit_splits_dfs(key) else None  # type: ignore[arg-type]
    pairs = 0
    for n in key:
        if n % 3 == 1:
            return None
        if n % 3 == 2:
            pairs += 1
    return 0 if pairs == 0 else (2 if pairs == 1 else None)


def _completions(key: Key) -> tuple[int | None, tuple[int, ...], tuple[int, ...]]:
    """The key's status, and the ranks whose addition makes it complete without / with a pair."""
    table = _table(key)
    if table is not None:
        tabled = table.completions(key)
        if tabled is not None:
            return tabled
    found = _COMPLETIONS.get(key)
    if found is None:
        found = _completions_dfs(key)
        _COMPLETIONS[key] = found
    return found


def _completions_dfs(key: Key) -> tuple[int | None, tuple[int, ...], tuple[int, ...]]:
    to0, to2 = [], []
    for r, n in enumerate(key):
        st = _part_status(key[:r] + (n + 1,) + key[r + 1:])
        if st == 0:
            to0.append(r)
        elif st == 2:
            to2.append(r)
    return (_part_status(key), tuple(to0), tuple(to2))


def _standard_waits(keys: Sequence[Key], out: set[int]) -> None:
    """Adds the tiles that complete the standard shape: a part may take the tile only if the other three
    are complete already, with one pair among all four."""
    comps = [_completions(k) for k in keys]
    incomplete, pairs_all = -1, 0
    for j in range(4):
        status = comps[j][0]
        if status is None:
            if incomplete >= 0:  # two parts not complete: one tile cannot finish both
                return
            incomplete = j
        elif status == 2:
            pairs_all += 1
    for j in range(4):
        if incomplete >= 0 and j != incomplete:  # another part is not complete
            continue
        _, to_sets, to_pair = comps[j]
        pairs = pairs_all - 1 if comps[j][0] == 2 else pairs_all  # among the other three
        if pairs <= 1:
            first = 9 * j
            for r in (to_pair if pairs == 0 else to_sets):
                out.add(first + r)


def waits(counts: Sequence[int], n_melds: int = 0, allow_quad_pairs: bool = True) -> tuple[int, ...]:
    """Tiles that complete the concealed counts (including a fifth copy of a tile held four times)."""
    keys, infos = _parts(counts)
    return tuple(sorted(_waits(counts, keys, infos, n_melds, allow_quad_pairs,
                               _by_shape(keys, infos, n_melds, allow_quad_pairs))))


def _waits(c: Sequence[int], keys: tuple[Key, ...], infos: tuple[tuple[int, ...], ...], n_melds: int,
           allow_quad_pairs: bool, by_shape: Sequence[tuple[ShapeKind, int]]) -> set[int]:
    out: set[int] = set()
    _standard_waits(keys, out)
    special = [(s, v) for s, v in by_shape if s is not _STANDARD and v == 0]
    if special:
        cl = list(c)
        for t in _useful(c, keys, infos, n_melds, allow_quad_pairs, special, 0):
            cl[t] += 1
            if is_complete_counts(cl, n_melds, allow_quad_pairs):
                out.add(t)
            cl[t] -= 1
    return out


# ---------------------------------------------------------------------------------------------
# The analysis a client asks for


def _allowed(by_shape: Sequence[tuple[ShapeKind, int]],
             shapes: frozenset[ShapeKind] | None) -> tuple[tuple[ShapeKind, int], ...]:
    """The shapes a rule set plays (all when `shapes` is None)."""
    if shapes is None:
        return tuple(by_shape)
    return tuple([sv for sv in by_shape if sv[0] in shapes])


def shanten_for(counts: Sequence[int], n_melds: int, shapes: frozenset[ShapeKind],
                allow_quad_pairs: bool = True) -> int:
    """Combined shanten over the shapes a rule set plays (`shanten` counts every shape)."""
    keys, infos = _parts(counts)
    return min([v for k, v in _by_shape(keys, infos, n_melds, allow_quad_pairs) if k in shapes])


def shanten_by_shape_for(hand: Hand, shapes: frozenset[ShapeKind] | None = None,
                         allow_quad_pairs: bool = True) -> dict[ShapeKind, int]:
    """Shanten of each shape a rule set plays, for a 13- or 14-tile hand (-1: complete)."""
    keys, infos = _parts(to_counts(hand.all_concealed()))
    return dict(_allowed(_by_shape(keys, infos, len(hand.melds), allow_quad_pairs), shapes))


_EVERY_SHAPE: Final = frozenset(ShapeKind)


def held_counts(hand: Hand) -> list[int]:
    """Copies of each kind the player holds: concealed (with any winning tile) and in melds."""
    held = to_counts(hand.all_concealed())
    for meld in hand.melds:
        for t in meld.tiles:
            held[t] = held[t] + 1
    return held


def seen_counts(held: Sequence[int], visible: Sequence[int]) -> list[int]:
    """Copies of each kind in `visible`; a kind seen and held more than four times in all is refused
    (TOO_MANY_COPIES on `visible`): the table cannot show it, so the count of what is left would be made up."""
    if not visible:
        return [0] * NUM_KINDS
    seen = to_counts(visible)
    for t in range(NUM_KINDS):
        if seen[t] and held[t] + seen[t] > 4:
            raise TooManyCopiesError(f"visible: {format_tile(t)} {seen[t]} times, with the {held[t]} held that "
                                     f"makes {held[t] + seen[t]}; a kind has 4 copies", "visible")
    return seen


def analyze(hand: Hand, visible: Sequence[int], tile_kinds: frozenset[int] = _ALL_KINDS,
            allow_quad_pairs: bool = True, shapes: frozenset[ShapeKind] | None = None) -> Analysis:
    """Shanten, waits and useful tiles of a 13-tile hand; discard advice for a 14-tile one.

    `remaining` counts copies not in the player's hand or melds and not in `visible`;
    only tiles in `tile_kinds` are offered as waits or useful tiles; `shapes`: the winning shapes the
    rule set plays (None: all), the only ones reported and considered.
    """
    size = hand.size
    if size not in (13, 14):
        raise TileCountError(f"concealed: an analysed hand has 13 or 14 tiles (kongs as 3), got {size}", "concealed")
    c = to_counts(hand.all_concealed())
    m = len(hand.melds)
    held = c[:]  # copies the player holds: concealed (with any winning tile) and melds
    for meld in hand.melds:
        for t in meld.tiles:
            held[t] = held[t] + 1
    seen = seen_counts(held, visible)
    if size == 13:
        shanten, shanten_by_shape, waits13, useful13, same = _thirteen(c, m, allow_quad_pairs, shapes)
        wait_tc = _tile_counts(waits13, tile_kinds, held, seen)
        useful_tc = wait_tc if same else _tile_counts(useful13, tile_kinds, held, seen)
        return Analysis(shanten, shanten_by_shape, wait_tc, useful_tc, sum(t.remaining for t in useful_tc))
    keys, infos = _parts(c)
    if shapes is None and not allow_quad_pairs:
        # discard advice's `_attaining` (every shape, no set given) counts seven pairs' kinds only with
        # four-as-two-pairs allowed; every rule set that forbids it names its shapes, any other caller gets
        # them named
        shapes = _EVERY_SHAPE
    by_shape = _by_shape(keys, infos, m, allow_quad_pairs)
    if shapes is not None:
        by_shape = _allowed(by_shape, shapes)
    best = min(v for _, v in by_shape)
    # Each tile's TileCount is the same for every discard except the discarded tile's own (one
    # fewer held, one more seen: same remaining, not all held), so build the row once.
    row: list[TileCount | None] = [None] * NUM_KINDS
    for t in tile_kinds:
        gone = held[t] + seen[t]
        row[t] = _TILE_COUNTS[t][4 - gone if gone < 4 else 0][held[t] >= 4]
    quads = _has_four(c)  # a discard only lowers counts: none is four after it unless one is now
    parts = Discarding(keys, infos)
    downs = (_down(keys[0]), _down(keys[1]), _down(keys[2]), _down(keys[3]))
    options = []
    for d in range(NUM_KINDS):
        if not c[d]:
            continue
        j = suit_of(d)  # only the discarded tile's part changes
        less = downs[j][d - 9 * j]
        if less is None:  # cannot happen: the tile is held
            continue
        c[d] = c[d] - 1  # not -=: an augmented item assignment goes through the generic number protocol
        key, info = less[0], less[1]
        keys13 = _replaced(keys, j, key)
        infos13 = _replaced(infos, j, info)
        whole = parts.discard(j, less)
        if shapes is None:
            s13, shape13, ks_perms = _attaining(infos13, m, allow_quad_pairs, whole)
        else:
            every = _allowed(_by_shape(keys13, infos13, m, allow_quad_pairs, whole), shapes)
            s13 = min([v for _, v in every])
            shape13 = [sv for sv in every if sv[1] == s13]
            ks_perms = None
        found: list[TileCount] = []
        left = 0  # copies of the useful tiles left (the discarded copy's own entry below keeps its count)
        if s13 == 0:  # ready: the useful tiles are the waits
            for t in sorted(_waits(c, keys13, infos13, m, allow_quad_pairs, shape13)):
                x = row[t]
                if x is not None:
                    found.append(x)
                    left += x.remaining
        else:  # the mask's tiles read chunk by chunk, ascending: no tuple of tiles in between
            mask = _useful_mask(c, keys13, infos13, m, allow_quad_pairs, shape13, s13, ks_perms, quads, parts)
            for k in range(4):
                for t in _CHUNKS[k][mask >> 9 * k & 511]:
                    x = row[t]
                    if x is not None:
                        found.append(x)
                        left += x.remaining
        c[d] = c[d] + 1
        tc = tuple(found)
        own = row[d]
        if own is not None and own.all_copies_held and own in tc:  # the discarded copy is no longer held
            own = _TILE_COUNTS[d][own.remaining][False]
            tc = tuple(own if t.tile == d else t for t in tc)
        options.append(DiscardOption(d, s13, tc, left))
    options.sort(key=_best_first)
    return Analysis(best, by_shape, discards=tuple(options))


def _best_first(o: DiscardOption) -> int:
    """Discard advice's order as one int (compared in C): the lower shanten, then more copies of useful
    tiles left (at most 4 x 34 < 1024), then the lower tile."""
    return (o.shanten * 1024 - o.useful_count) * 64 + o.tile


def _replaced(parts: tuple[tuple[int, ...], ...], j: int, part: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The four parts (or their summaries) with part j replaced: one new tuple, no slices."""
    a, b, d, h = parts
    if j == 0:
        return part, b, d, h
    if j == 1:
        return a, part, d, h
    if j == 2:
        return a, b, part, h
    return a, b, d, part


class Discarding:
    """A 14-tile hand's parts as its discards see them. A discard changes one part, j, to a part of class
    x: the 13-tile hand's combined class is then one combination (of x with the other three parts, worked
    out once), and its standard shape's useful tiles (`useful_bits`) three more (x with each pair of the
    other parts, also worked out once) with the new part's additions given with the discard (from
    `_down`): four combinations per discard and no look-up, instead of nine combinations and four `_plus`.
    `rest` is what `_others` gives for the whole hand. Combining classes is commutative and associative
    (a max-plus convolution), so the parts' order does not change a class. The plain path
    (`_regular_useful`) is the reference the tests hold it to."""

    def __init__(self, keys: tuple[Key, ...], infos: tuple[tuple[int, ...], ...]) -> None:
        a, b, d, h = infos[0][0], infos[1][0], infos[2][0], infos[3][0]
        ab, ad, ah, bd, bh, dh = _c(a, b), _c(a, d), _c(a, h), _c(b, d), _c(b, h), _c(d, h)
        self.rest = [_c(b, dh), _c(a, dh), _c(ab, h), _c(ab, d)]  # [j]: the three parts other than j
        # [j][i], i != j: the two parts other than i and j
        self.apart = [[-1, dh, bh, bd], [dh, -1, ah, ad], [bh, ah, -1, ab], [bd, ad, ab, -1]]
        self.base = [_plus(keys[0]), _plus(keys[1]), _plus(keys[2]), _plus(keys[3])]
        masks = [_pair_masks(keys[0]), _pair_masks(keys[1]), _pair_masks(keys[2]), _pair_masks(keys[3])]
        self.odd = masks[0][0] | masks[1][0] << 9 | masks[2][0] << 18 | masks[3][0] << 27  # the hand's pair bits
        self.single = masks[0][1] | masks[1][1] << 9 | masks[2][1] << 18 | masks[3][1] << 27
        self.j, self.x, self.plus = 0, a, self.base[0]  # the discard last set
        self.masks = masks[0]

    def discard(self, j: int, part: Down) -> int:
        """Part j becomes `part` (an entry of `_down`): the class of the hand."""
        x = part[1][0]
        self.j, self.x, self.plus, self.masks = j, x, part[2], part[3]
        return _c(self.rest[j], x)

    def pair_bits(self, sel: int) -> int:
        """`_pair_masks` of the hand the last discard left, as tile bits: sel 0 the odd counts, 1 the
        single ones."""
        j = self.j
        if sel == 0:  # each field read by name: a fixed-size tuple indexed by a variable is boxed first
            return self.odd & ~(511 << 9 * j) | self.masks[0] << 9 * j
        return self.single & ~(511 << 9 * j) | self.masks[1] << 9 * j

    def useful_bits(self, n_melds: int, target: int) -> int:
        """`_regular_useful` of the hand the last discard left (target above -1): each part's ranks from
        the class of the other three combined and its additions, read here without building lists."""
        j, x, rest, apart = self.j, self.x, self.rest, self.apart[self.j]
        mask = 0
        for i in range(4):
            if i == j:
                pid, groups = self.plus
                mask |= _umask(pid, groups, rest[j], n_melds, target) << (9 * i)
            else:
                pid, groups = self.base[i]
                mask |= _umask(pid, groups, _c(apart[i], x), n_melds, target) << (9 * i)
        return mask


def _thirteen(c: list[int], m: int, allow_quad_pairs: bool, shapes: frozenset[ShapeKind] | None) -> Thirteen:
    """A 13-tile hand's shanten, its shanten by shape, its waits, its useful tiles (both ascending) and
    whether the two are the same: all `analyze` needs besides the visible tiles. Kept in `_HAND13`."""
    key = (tuple(c), m, allow_quad_pairs, shapes)
    found = _HAND13.get(key)
    if found is not None:
        return found
    keys, infos = _parts(c)
    by_shape = _by_shape(keys, infos, m, allow_quad_pairs)
    if shapes is not None:
        by_shape = _allowed(by_shape, shapes)
    best = min(v for _, v in by_shape)
    wait_set, useful = _advice(c, keys, infos, m, allow_quad_pairs, by_shape, best)
    found = (best, by_shape, tuple(sorted(wait_set)), tuple(sorted(useful)), useful is wait_set)
    if len(_HAND13) >= _HAND13_LIMIT:
        _HAND13.clear()
    _HAND13[key] = found
    return found


def _advice(c: Sequence[int], keys: tuple[Key, ...], infos: tuple[tuple[int, ...], ...], m: int,
            allow_quad_pairs: bool, by_shape: Sequence[tuple[ShapeKind, int]],
            best: int) -> tuple[Collection[int], Collection[int]]:
    """(waits, useful tiles) of a 13-tile hand; at shanten 0 the useful tiles are the waits."""
    if best == 0:
        w = _waits(c, keys, infos, m, allow_quad_pairs, by_shape)
        return w, w
    return (), _useful(c, keys, infos, m, allow_quad_pairs, by_shape, best)


# TileCounts are immutable, so one shared instance per (tile, remaining, all held) saves building them per call.
# Typed as tuples of any length: a fixed-size tuple is held unboxed in compiled code, and indexing it by a
# variable boxes it into a new tuple first.
_TILE_COUNTS: Final[tuple[tuple[tuple[TileCount, ...], ...], ...]] = tuple(
    tuple((TileCount(t, r, False), TileCount(t, r, True)) for r in range(5)) for t in range(NUM_KINDS))


def _tile_counts(tiles: Collection[int], tile_kinds: frozenset[int], held: Sequence[int],
                 seen: Sequence[int]) -> tuple[TileCount, ...]:
    """TileCounts by tile index."""
    out = []
    for t in sorted(tiles):
        if t not in tile_kinds:
            continue
        gone = held[t] + seen[t]
        out.append(_TILE_COUNTS[t][4 - gone if gone < 4 else 0][held[t] >= 4])
    return tuple(out)


def useful_for(counts: Sequence[int], n_melds: int, shapes: frozenset[ShapeKind],
               allow_quad_pairs: bool = True) -> tuple[int, ...]:
    """`useful_tiles` over the shapes a rule set plays: tiles (fewer than four in `counts`) whose draw
    lowers the combined shanten of those shapes. `counts` may hold fewer than 13 tiles (the tiles a rule
    set keeps, e.g. Sichuan's two suits): the missing tiles are junk to exchange."""
    keys, infos = _parts(counts)
    every = _allowed(_by_shape(keys, infos, n_melds, allow_quad_pairs), shapes)
    target = min([v for _, v in every])
    return _useful(counts, keys, infos, n_melds, allow_quad_pairs, every, target)

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("analysis", _PATTERNS=_PATTERNS)
