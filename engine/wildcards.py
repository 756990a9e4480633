"""Wildcards (鬼牌 / 赖子): win check, waits, shanten and useful tiles of a hand holding J wildcards.

Which tile kinds are wild is the caller's (a rule set's option or a request's). Wildcards are held as
the tiles they are; here they are taken out of the concealed counts (`split_wild`), leaving the real
counts and J. Declared melds are never wild: a ghost in a meld is its own kind.

A wildcard stands for any kind, its own included, even where that makes a fifth copy of a kind: the
table method below computes exactly that, and the brute-force oracle in the tests (every assignment of
the J wildcards) is run with that reading. A rule set that wants to forbid a fifth copy must say so.

The method is table-based, not substitution. A suit's part of a hand depends only on its nine real
counts, and so does how many wildcards it needs to become complete: sets only (`sets`) or sets plus
the one pair (`pair`). `build_suit_need_table` tabulates both for every suit key a hand can hold
(counts 0-4, at most 14 tiles), `build_honor_need_table` the same for the seven honours (no chows).
A hand is complete with its J wildcards when the parts' needs, the pair taken in the cheapest part,
add up to at most J (what is left over is a multiple of 3: pungs made of wildcards alone). Waits
change one part at a time; seven pairs and thirteen orphans need counting only.

Both builders are pure functions of nothing (deterministic): setup.py's build writes them into the
install-time tables file (`engine/tables/suits.bin`, sections `wild.suit_need` / `wild.honor_need`,
SHA-256 checked) and a process reads them from there on first use; without that file (or with one
written before it held them) the process builds them itself, with the same bytes (tested).
Each table is a `bytes` indexed by the base-5 number of the counts (first rank most significant); a
byte holds the two needs, each capped at `NEED_CAP` (more than any hand holds wildcards).

Shanten with wildcards is the least shanten over every assignment of the wildcards (the oracle's
definition): per part, the best group values a part reaches with up to w wildcards placed in its
groups (`_wild_vectors`, memoized per part key), combined across parts while sharing the J wildcards.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from engine.errors import TileCountError
from engine.hand import Hand, MeldKind
from engine.registry import REGISTRY
from engine.results import Analysis, DiscardOption, TileCount
from engine.shapes import Decomposition, SetKind, ShapeKind, TileSet
from engine.tables import TABLES
from engine.tile_kinds import (
    EAST,
    NUM_KINDS,
    P1,
    S1,
    SEARCH_MAX_TILES,
    TERMINALS_AND_HONORS,
    is_suited,
    suit_first,
    suit_of,
)

NEED_CAP: Final = 15  # a stored need above this reads as 15: no hand holds that many wildcards
_PAIR_SHIFT: Final = 4
_SETS_MASK: Final = 0x0F
SUIT_KEYS: Final = 5 ** 9  # entries of a suit table (counts 0-4 of nine ranks)
HONOR_KEYS: Final = 5 ** 7
MAX_PART_TILES: Final = 14
_W9: Final = tuple(5 ** (8 - r) for r in range(9))  # place value of each rank in a suit index
_W7: Final = tuple(5 ** (6 - r) for r in range(7))
_PLACE: Final = _W9 + _W9 + _W9 + _W7  # index offset of one more tile of each kind within its part's table
_ORPHANS: Final = TERMINALS_AND_HONORS
_ORPHAN_SET: Final = frozenset(_ORPHANS)
_IS_ORPHAN: Final = tuple(t in _ORPHAN_SET for t in range(NUM_KINDS))
_NON_ORPHANS: Final = tuple(t for t in range(NUM_KINDS) if t not in _ORPHAN_SET)
_NEG: Final = -64
_MELD_SET_KIND: Final = {MeldKind.CHOW: SetKind.CHOW, MeldKind.PUNG: SetKind.PUNG, MeldKind.KONG: SetKind.KONG}


@dataclass(frozen=True, slots=True)
class WildShapes:
    """Which winning shapes a wildcard check accepts (the standard shape always)."""

    seven_pairs: bool = True
    thirteen_orphans: bool = True
    allow_quad_pairs: bool = True  # a four of a kind counts as two of the seven pairs


# ---------------------------------------------------------------------------------------------
# The need tables


def _pack(sets: int, pair: int) -> int:
    return min(sets, NEED_CAP) | min(pair, NEED_CAP) << _PAIR_SHIFT


def sets_need(packed: int) -> int:
    """Wildcards a part needs to be sets only (from a table byte)."""
    return packed & _SETS_MASK


def pair_need(packed: int) -> int:
    """Wildcards a part needs to be sets and the pair (from a table byte)."""
    return packed >> _PAIR_SHIFT


def build_suit_need_table() -> bytes:
    """For every suit key (nine counts 0-4, at most 14 tiles), the wildcards it needs without and with
    the pair. Keys are visited in increasing index order (an odometer over the counts, last rank
    fastest), so every key a set is taken from is already known.

    The lowest real tile must sit in some set (or the pair) of a completion; every such set is tried
    with each of its other tiles real when held, else a wildcard. Using a held real tile rather than a
    wildcard never costs more (swap them), so that choice loses no completion.
    """
    big = 4 * NEED_CAP
    sets: list[int] = [big] * SUIT_KEYS  # needs while building, as plain ints
    pair: list[int] = [big] * SUIT_KEYS
    sets[0] = 0
    pair[0] = 2
    out = bytearray(b"\xff" * SUIT_KEYS)
    out[0] = _pack(0, 2)
    w = _W9
    key = [0] * 9
    total = 0
    for idx in range(1, SUIT_KEYS):
        r = 8
        while key[r] == 4:  # odometer step
            key[r] = 0
            total -= 4
            r -= 1
        key[r] += 1
        total += 1
        if total > MAX_PART_TILES:
            continue
        i = 0
        while not key[i]:
            i += 1
        c = key[i]
        one = w[i]
        # a set of the lowest tile and two wildcards; the pair of it and a wildcard
        sub = idx - one
        b0 = sets[sub] + 2
        b2 = pair[sub] + 2
        p2 = sets[sub] + 1
        if c >= 2:  # two of it and a wildcard; the pair of two
            sub = idx - 2 * one
            if sets[sub] + 1 < b0:
                b0 = sets[sub] + 1
            if pair[sub] + 1 < b2:
                b2 = pair[sub] + 1
            if sets[sub] < p2:
                p2 = sets[sub]
            if c >= 3:  # a pung of three
                sub = idx - 3 * one
                if sets[sub] < b0:
                    b0 = sets[sub]
                if pair[sub] < b2:
                    b2 = pair[sub]
        if i <= 7 and key[i + 1]:  # with the next rank and a wildcard; the whole chow
            sub = idx - one - w[i + 1]
            if sets[sub] + 1 < b0:
                b0 = sets[sub] + 1
            if pair[sub] + 1 < b2:
                b2 = pair[sub] + 1
            if i <= 6 and key[i + 2]:
                sub -= w[i + 2]
                if sets[sub] < b0:
                    b0 = sets[sub]
                if pair[sub] < b2:
                    b2 = pair[sub]
        if i <= 6 and key[i + 2]:  # with the rank after next and a wildcard
            sub = idx - one - w[i + 2]
            if sets[sub] + 1 < b0:
                b0 = sets[sub] + 1
            if pair[sub] + 1 < b2:
                b2 = pair[sub] + 1
        if p2 < b2:
            b2 = p2
        sets[idx] = b0
        pair[idx] = b2
        out[idx] = _pack(b0, b2)
    return bytes(out)


# One honour kind held 0-4 times: wildcards for sets only, and for sets and the pair.
_HONOR_NEED: Final = ((0, 2), (2, 1), (1, 0), (0, 2), (2, 1))


def build_honor_need_table() -> bytes:
    """The same for the seven honours: each kind on its own (pungs and the pair only)."""
    table = bytearray(b"\xff" * HONOR_KEYS)
    key = [0] * 7
    total = 0
    for idx in range(HONOR_KEYS):
        if idx:
            r = 6
            while key[r] == 4:
                key[r] = 0
                total -= 4
                r -= 1
            key[r] += 1
            total += 1
        if total > MAX_PART_TILES:
            continue
        sets = 0
        extra = 2
        for c in key:
            s, p = _HONOR_NEED[c]
            sets += s
            if p - s < extra:
                extra = p - s
        table[idx] = _pack(sets, sets + extra)
    return bytes(table)


_build_lock = REGISTRY.lock("wildcards.build_lock")
# [suit table, honour table] once loaded: the hot paths read them from here
_TABLES: Final[list[bytes]] = REGISTRY.table("wildcards.tables", [])
_ORIGIN: Final[list[str]] = REGISTRY.table("wildcards.origin", [])  # where they came from (`need_tables_origin`)


def _tables() -> list[bytes]:
    if not _TABLES:
        with _build_lock:
            if not _TABLES:
                suit, honors, origin = _load_or_build()
                _ORIGIN.append(origin)
                _TABLES.extend((suit, honors))  # published last: a reader sees both or neither
    return _TABLES


def _load_or_build() -> tuple[bytes, bytes, str]:
    """The need tables from the install-time tables file (`engine.tables`, built by setup.py) when it
    holds them; else (no file, switched off, or a file written before it held them) built here.

    The mapped sections are copied once into `bytes` (2 MB, about a millisecond): the compiled hot
    paths index a `bytes` in a few nanoseconds, a `memoryview` over the mapping costs 20-30x that per
    look-up (README "Wildcards"), which would double the win check."""
    t = TABLES
    if t is not None and t.wild_suit_need is not None and t.wild_honor_need is not None:
        return bytes(t.wild_suit_need), bytes(t.wild_honor_need), f"read from {t.path}"
    return build_suit_need_table(), build_honor_need_table(), "built in this process"


def need_tables_origin() -> str:
    """Where this process's need tables came from (loading them if not yet done)."""
    _tables()
    return _ORIGIN[0]


def suit_need_table() -> bytes:
    """The suit table (from the install-time file, else built once per process on first use)."""
    return _tables()[0]


def honor_need_table() -> bytes:
    return _tables()[1]


def suit_index(counts: list[int], base: int) -> int:
    """Base-5 index of the nine counts from `base` (each 0-4)."""
    return (((((((counts[base] * 5 + counts[base + 1]) * 5 + counts[base + 2]) * 5 + counts[base + 3]) * 5
               + counts[base + 4]) * 5 + counts[base + 5]) * 5 + counts[base + 6]) * 5 + counts[base + 7]) * 5 \
        + counts[base + 8]


def honor_index(counts: list[int]) -> int:
    return (((((counts[27] * 5 + counts[28]) * 5 + counts[29]) * 5 + counts[30]) * 5 + counts[31]) * 5
            + counts[32]) * 5 + counts[33]


# ---------------------------------------------------------------------------------------------
# The plain path: the same needs by a memoized search over any counts (a fifth copy included).
# Used where a part falls outside the tables (a wait on a fifth copy) and by the tests.


@REGISTRY.memo("wildcards.plain_suit_need")
@cache
def plain_suit_need(key: tuple[int, ...], pair: bool) -> int:
    """Least wildcards making a suit key sets only (pair False) or sets and one pair, by search."""
    i = next((r for r, n in enumerate(key) if n), None)
    if i is None:
        return 2 if pair else 0
    honors = len(key) == 7
    best = 99

    def sub(ranks: Iterable[int]) -> tuple[int, ...]:
        out = list(key)
        for r in ranks:
            out[r] -= 1
        return tuple(out)

    c = key[i]
    options: list[tuple[tuple[int, ...], int]] = [((i,), 2)]
    if c >= 2:
        options.append(((i, i), 1))
    if c >= 3:
        options.append(((i, i, i), 0))
    if not honors:
        if i <= 7 and key[i + 1]:
            options.append(((i, i + 1), 1))
        if i <= 6 and key[i + 2]:
            options.append(((i, i + 2), 1))
        if i <= 6 and key[i + 1] and key[i + 2]:
            options.append(((i, i + 1, i + 2), 0))
    for ranks, wild in options:
        best = min(best, plain_suit_need(sub(ranks), pair) + wild)
    if pair:
        best = min(best, plain_suit_need(sub((i,)), False) + 1)
        if c >= 2:
            best = min(best, plain_suit_need(sub((i, i)), False))
    return best


# ---------------------------------------------------------------------------------------------
# Win check


def split_wild(counts: Sequence[int], wild: Collection[int]) -> tuple[list[int], int]:
    """The real counts (wild kinds emptied) and the number of wildcards."""
    real = list(counts)
    j = 0
    for t in wild:
        j += real[t]
        real[t] = 0
    if not 0 <= j <= SEARCH_MAX_TILES:  # the placements of the wildcards are searched for each count up to j
        raise TileCountError(f"counts: {j} wildcards; 0 to {SEARCH_MAX_TILES} can be placed", "counts")
    return real, j


def _in_tables(c: list[int], lo: int, hi: int) -> bool:
    """Every count from lo to hi is 0-4 (a plain loop: compiled, it is far cheaper than max())."""
    for i in range(lo, hi):  # noqa: SIM110 (no generator: this loop compiles to C)
        if c[i] > 4:
            return False
    return True


def _part_packed(real: list[int], part: int) -> int:
    """The table byte of one part (0-2 suits, 3 honours); the plain search outside the tables."""
    if part < 3:
        base = 9 * part
        if _in_tables(real, base, base + 9):
            return (_TABLES or _tables())[0][suit_index(real, base)]
        key = tuple(real[base:base + 9])
    else:
        if _in_tables(real, 27, 34):
            return (_TABLES or _tables())[1][honor_index(real)]
        key = tuple(real[27:34])
    return _pack(plain_suit_need(key, False), plain_suit_need(key, True))


def standard_need(real: list[int]) -> int:
    """Least wildcards making the real counts four sets (less the declared melds) and a pair."""
    if _in_tables(real, 0, NUM_KINDS):  # every part is in the tables
        t = _TABLES or _tables()
        suit = t[0]
        return _combine(suit[suit_index(real, 0)], suit[suit_index(real, 9)], suit[suit_index(real, 18)],
                        t[1][honor_index(real)])
    return _combine(_part_packed(real, 0), _part_packed(real, 1), _part_packed(real, 2), _part_packed(real, 3))


def _combine(a: int, b: int, d: int, h: int) -> int:
    """Wildcards the four parts need together: sets everywhere, and the pair where it costs least."""
    sa, sb, sd, sh = a & _SETS_MASK, b & _SETS_MASK, d & _SETS_MASK, h & _SETS_MASK
    extra = (a >> _PAIR_SHIFT) - sa
    e = (b >> _PAIR_SHIFT) - sb
    if e < extra:
        extra = e
    e = (d >> _PAIR_SHIFT) - sd
    if e < extra:
        extra = e
    e = (h >> _PAIR_SHIFT) - sh
    if e < extra:
        extra = e
    return sa + sb + sd + sh + extra


def seven_pairs_need(real: Sequence[int], allow_quad_pairs: bool) -> int | None:
    """Wildcards completing seven pairs from the real counts (None: no number will). Left-over
    wildcards pair with each other (as kinds not otherwise used when fours are not two pairs)."""
    odd = 0
    singles = 0
    for n in real:
        if n & 1:
            odd += 1
        if n == 1:
            singles += 1
        elif n > 2 and not allow_quad_pairs:
            return None
    return odd if allow_quad_pairs else singles


def thirteen_orphans_need(real: list[int]) -> int | None:
    """Wildcards completing thirteen orphans (None: a real tile no wildcard can fix)."""
    pairs = 0
    kinds = 0
    for t in range(NUM_KINDS):
        n = real[t]
        if not n:
            continue
        if t not in _ORPHAN_SET or n > 2:
            return None
        kinds += 1
        if n == 2:
            pairs += 1
    if pairs > 1:
        return None
    return 13 - kinds + (1 - pairs)


def is_complete_wild(counts: Sequence[int], wild: Collection[int], n_melds: int = 0,
                     shapes: WildShapes = WildShapes()) -> bool:
    """Do the concealed counts (the winning tile included), with the wild kinds as wildcards, form a
    winning shape with `n_melds` declared melds?

    The hot path of the wildcard engine, written for the compiled form: one pass over the counts
    gives the four parts' table indices and the tile count, the wildcards' own counts are taken out of
    their part's index (no copy of the counts), the four table bytes are combined inline, and seven
    pairs / thirteen orphans are counted in one more pass, skipping the wild kinds by a bit mask."""
    c: list[int] = counts if isinstance(counts, list) else list(counts)
    total = 0
    i0 = 0
    i1 = 0
    i2 = 0
    for k in range(9):
        a = c[k]
        b = c[9 + k]
        d = c[18 + k]
        if a > 4 or b > 4 or d > 4:
            return _complete_outside_tables(c, wild, n_melds, shapes)
        i0 = i0 * 5 + a
        i1 = i1 * 5 + b
        i2 = i2 * 5 + d
        total += a + b + d
    ih = 0
    for k in range(27, 34):
        h = c[k]
        if h > 4:
            return _complete_outside_tables(c, wild, n_melds, shapes)
        ih = ih * 5 + h
        total += h
    if total + 3 * n_melds != 14:
        return False
    j = 0
    mask = 0  # the wild kinds, one bit each (a kind named twice counts once)
    for t in wild:
        bit = 1 << t
        if mask & bit:
            continue
        mask |= bit
        n = c[t]
        if n:
            j += n
            off = n * _PLACE[t]
            if t < P1:
                i0 -= off
            elif t < S1:
                i1 -= off
            elif t < EAST:
                i2 -= off
            else:
                ih -= off
    tables = _TABLES if _TABLES else _tables()
    suit = tables[0]
    if _combine(suit[i0], suit[i1], suit[i2], tables[1][ih]) <= j:
        return True
    if n_melds or not (shapes.seven_pairs or shapes.thirteen_orphans):
        return False
    return _specials_complete(c, mask, j, shapes)


def _complete_outside_tables(c: list[int], wild: Collection[int], n_melds: int, shapes: WildShapes) -> bool:
    """A count above 4 (a fifth copy): the plain search instead of the tables."""
    if sum(c) + 3 * n_melds != 14:
        return False
    real, j = split_wild(c, wild)
    return complete_real(real, j, n_melds, shapes)


def _specials_complete(c: list[int], mask: int, j: int, shapes: WildShapes) -> bool:
    """Seven pairs or thirteen orphans with j wildcards, the kinds in `mask` (wild) left out: the
    needs of `seven_pairs_need` and `thirteen_orphans_need`, counted without a copy; thirteen orphans
    stops at the first real tile that is not an orphan (most hands hold one)."""
    if shapes.seven_pairs:
        if shapes.allow_quad_pairs:
            odd = 0
            for t in range(NUM_KINDS):
                if c[t] & 1 and not mask >> t & 1:
                    odd += 1
            if odd <= j:
                return True
        else:
            singles = 0
            for t in range(NUM_KINDS):
                n = c[t]
                if n and not mask >> t & 1:
                    if n > 2:
                        singles = j + 1
                        break
                    if n == 1:
                        singles += 1
            if singles <= j:
                return True
    if not shapes.thirteen_orphans:
        return False
    for t in _NON_ORPHANS:
        if c[t] and not mask >> t & 1:
            return False
    kinds = 0
    pairs = 0
    for t in _ORPHANS:
        n = c[t]
        if n and not mask >> t & 1:
            if n > 2:
                return False
            kinds += 1
            if n == 2:
                pairs += 1
    return pairs <= 1 and 13 - kinds + 1 - pairs <= j


def complete_real(real: list[int], j: int, n_melds: int, shapes: WildShapes) -> bool:
    """`is_complete_wild` on the real counts and the number of wildcards."""
    if (sum(real) + j + 3 * n_melds) != 14:
        return False
    if standard_need(real) <= j:
        return True
    if n_melds:
        return False
    if shapes.seven_pairs:
        need = seven_pairs_need(real, shapes.allow_quad_pairs)
        if need is not None and need <= j:
            return True
    if shapes.thirteen_orphans:
        need = thirteen_orphans_need(real)
        if need is not None and need <= j:
            return True
    return False


_PART_OF: Final = tuple(suit_of(t) for t in range(NUM_KINDS))


def waits_wild(counts: Sequence[int], wild: Collection[int], n_melds: int = 0,
               shapes: WildShapes = WildShapes()) -> tuple[int, ...]:
    """Every kind whose draw completes the 13-tile concealed counts (a drawn wild kind is a wildcard).

    Only the drawn tile's part changes: its table byte is read at the part's index plus the drawn
    rank's place value, the other parts' bytes are read once. Seven pairs and thirteen orphans change
    by counting. A wait on a fifth copy of a kind held four times is listed, as
    `engine.analysis.waits` lists it.
    """
    real, j = split_wild(counts, wild)
    mask = 0
    for t in wild:
        mask |= 1 << t
    tiles = 0
    odd = 0
    singles = 0
    over_two = False
    others = False  # a real tile no wildcard can make an orphan
    for t in range(NUM_KINDS):
        n = real[t]
        if n:
            tiles += n
            if n & 1:
                odd += 1
            if n == 1:
                singles += 1
            elif n > 2:
                over_two = True
            if not _IS_ORPHAN[t]:
                others = True
    if tiles + j + 3 * n_melds != 13:
        return ()
    in_tables = _in_tables(real, 0, NUM_KINDS)
    tables = _TABLES if _TABLES else _tables()
    idx = [suit_index(real, 0), suit_index(real, 9), suit_index(real, 18), honor_index(real)]
    sets = [0, 0, 0, 0]
    extra = [0, 0, 0, 0]
    for p in range(4):
        pk = _part_packed(real, p)
        sets[p] = pk & _SETS_MASK
        extra[p] = (pk >> _PAIR_SHIFT) - sets[p]
    all_sets = sets[0] + sets[1] + sets[2] + sets[3]
    # the cheapest pair among the other three parts, for each part
    other_extra = [0, 0, 0, 0]
    for p in range(4):
        m = 99
        for q in range(4):
            if q != p and extra[q] < m:
                m = extra[q]
        other_extra[p] = m
    specials = not n_melds and (shapes.seven_pairs or shapes.thirteen_orphans)
    orphans_only = specials and shapes.thirteen_orphans and not others
    out: list[int] = []
    for t in range(NUM_KINDS):
        if mask >> t & 1:
            continue
        p = _PART_OF[t]
        n = real[t]
        if in_tables and n < 4:
            packed = tables[1 if p == 3 else 0][idx[p] + _PLACE[t]]
        else:
            real[t] += 1
            packed = _part_packed(real, p)
            real[t] -= 1
        s0 = packed & _SETS_MASK
        e = (packed >> _PAIR_SHIFT) - s0
        o = other_extra[p]
        if all_sets - sets[p] + s0 + (e if e < o else o) <= j:
            out.append(t)
            continue
        if specials:
            if shapes.seven_pairs:
                if shapes.allow_quad_pairs:
                    if (odd - 1 if n & 1 else odd + 1) <= j:
                        out.append(t)
                        continue
                elif not over_two and n != 2 and (singles - 1 if n == 1 else singles + 1) <= j:
                    out.append(t)
                    continue
            if orphans_only and _IS_ORPHAN[t]:
                real[t] += 1
                need = thirteen_orphans_need(real)
                real[t] -= 1
                if need is not None and need <= j:
                    out.append(t)
    if mask:
        # one more wildcard: complete when some kind completes, or with the extra wildcard alone
        m = extra[0]
        for p in range(1, 4):
            if extra[p] < m:
                m = extra[p]
        if out or all_sets + m <= j + 1 or (not n_melds and _special_complete(real, j + 1, shapes)):
            for t in range(NUM_KINDS):
                if mask >> t & 1:
                    out.append(t)
            out.sort()
    return tuple(out)


def _special_complete(real: list[int], j: int, shapes: WildShapes) -> bool:
    if shapes.seven_pairs:
        need = seven_pairs_need(real, shapes.allow_quad_pairs)
        if need is not None and need <= j:
            return True
    if shapes.thirteen_orphans:
        need = thirteen_orphans_need(real)
        if need is not None and need <= j:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Shanten with wildcards: the least over every assignment of the wildcards


Vec = tuple[int, ...]  # f0[0..4], f1[0..4]: best group value with at most k groups, without / with the pair
_EMPTY_VEC: Final[Vec] = (0, 0, 0, 0, 0, _NEG, _NEG, _NEG, _NEG, _NEG)
_vec_lock = REGISTRY.lock("wildcards.vec_lock")
_WILD_VECS: Final[dict[tuple[tuple[int, ...], int], tuple[Vec, ...]]] = REGISTRY.table("wildcards.wild_vecs", {})


def _add_group(best: list[int], sub: Vec, value: int) -> None:
    for k in range(1, 5):
        v = sub[k - 1] + value
        if v > best[k]:
            best[k] = v
        v = sub[4 + k] + value
        if v > best[5 + k]:
            best[5 + k] = v


def _add_pair(best: list[int], sub: Vec) -> None:
    for k in range(5):
        v = sub[k] + 1
        if v > best[5 + k]:
            best[5 + k] = v


def _minus(key: tuple[int, ...], ranks: Iterable[int]) -> tuple[int, ...]:
    out = list(key)
    for r in ranks:
        out[r] -= 1
    return tuple(out)


def _wild_vectors(key: tuple[int, ...], j: int) -> tuple[Vec, ...]:
    """For w = 0..j: the best group values of a part's real tiles with up to w wildcards placed in
    groups that hold a real tile (a set 2, a partial set 1 within the groups counted, the pair 1),
    exactly `engine.analysis`'s vector of the part after the best assignment of those wildcards."""
    found = _WILD_VECS.get((key, j))
    if found is not None:
        return found
    if min(key) < 0 or sum(key) > SEARCH_MAX_TILES or not 0 <= j <= SEARCH_MAX_TILES:  # the search would not end
        raise TileCountError(f"counts: a part of {key} with {j} wildcards cannot be searched: each count 0 or "
                             f"more, at most {SEARCH_MAX_TILES} tiles in a suit and as many wildcards", "counts")
    i = next((r for r, n in enumerate(key) if n), None)
    if i is None:
        out = tuple(_EMPTY_VEC for _ in range(j + 1))
    else:
        suited = len(key) == 9
        c = key[i]
        # groups holding the lowest real tile: (value, ranks taken, wildcards), value 2 set, 1 partial
        groups: list[tuple[int, tuple[int, ...], int]] = [(2, (i,), 2), (1, (i,), 1)]
        if c >= 2:
            groups += [(2, (i, i), 1), (1, (i, i), 0)]
        if c >= 3:
            groups.append((2, (i, i, i), 0))
        if suited:
            if i <= 7 and key[i + 1]:
                groups += [(2, (i, i + 1), 1), (1, (i, i + 1), 0)]
            if i <= 6 and key[i + 2]:
                groups += [(2, (i, i + 2), 1), (1, (i, i + 2), 0)]
            if i <= 6 and key[i + 1] and key[i + 2]:
                groups.append((2, (i, i + 1, i + 2), 0))
        pairs: list[tuple[tuple[int, ...], int]] = [((i,), 1)] + ([((i, i), 0)] if c >= 2 else [])
        alone = _wild_vectors(_minus(key, (i,)), j)
        subs: dict[tuple[int, ...], tuple[Vec, ...]] = {}
        rows = []
        for w in range(j + 1):
            best = list(alone[w])
            for value, ranks, wild in groups:
                if wild <= w:
                    sv = subs.get(ranks)
                    if sv is None:
                        sv = subs[ranks] = _wild_vectors(_minus(key, ranks), j)
                    _add_group(best, sv[w - wild], value)
            for ranks, wild in pairs:
                if wild <= w:
                    sv = subs.get(ranks)
                    if sv is None:
                        sv = subs[ranks] = _wild_vectors(_minus(key, ranks), j)
                    _add_pair(best, sv[w - wild])
            rows.append(tuple(v if k < 5 or v > 0 else _NEG for k, v in enumerate(best)))
        out = tuple(rows)
    with _vec_lock:
        _WILD_VECS[(key, j)] = out
    return out


@REGISTRY.memo("wildcards.wild_only")
@cache
def _wild_only(w: int) -> Vec:
    """Groups made of w wildcards alone: a set (3) 2, a partial set (2) 1, the pair (2) 1."""
    best = [0] * 5 + [_NEG] * 5
    for s in range(w // 3 + 1):
        for b in range(0, (w - 3 * s) // 2 + 1):
            for p in (0, 1):
                if 3 * s + 2 * b + 2 * p > w:
                    continue
                for k in range(s + b, 5):
                    v = 2 * s + b + p
                    slot = 5 * p + k
                    if p and v <= 0:
                        continue
                    if v > best[slot]:
                        best[slot] = v
    return tuple(best)


def _comb(va: Vec, vb: Vec) -> Vec:
    g = [0] * 10
    for k in range(5):
        g[k] = max(va[i] + vb[k - i] for i in range(k + 1))
        v = max(max(va[5 + i] + vb[k - i], va[i] + vb[5 + k - i]) for i in range(k + 1))
        g[5 + k] = v if v > 0 else _NEG
    return tuple(g)


def _max_vec(a: Vec, b: Vec) -> Vec:
    return tuple(x if x >= y else y for x, y in zip(a, b, strict=True))


# Rows (one vector per number of wildcards 0..j) are interned as small ids, and the combination of two
# rows is memoized on their ids, as engine.analysis does for its vectors: after warm-up a hand's value
# costs four part look-ups and four combination look-ups.
_ROWS: Final[list[tuple[Vec, ...]]] = REGISTRY.table("wildcards.rows", [])
_ROW_IDS: Final[dict[tuple[Vec, ...], int]] = REGISTRY.table("wildcards.row_ids", {})
_PART_ROW: Final[dict[tuple[tuple[int, ...], int], int]] = REGISTRY.table("wildcards.part_row", {})
_ROW_COMB: Final[dict[int, int]] = REGISTRY.table("wildcards.row_comb", {})
_STRIDE: Final = 1 << 20


def _row_id(rows: tuple[Vec, ...]) -> int:
    rid = _ROW_IDS.get(rows)
    if rid is None:
        with _vec_lock:
            rid = _ROW_IDS.get(rows)
            if rid is None:
                rid = len(_ROWS)
                if rid >= _STRIDE:
                    raise RuntimeError("too many wildcard rows")  # cannot happen: values are bounded
                _ROWS.append(rows)
                _ROW_IDS[rows] = rid  # published last
    return rid


def _part_row(key: tuple[int, ...], j: int) -> int:
    rid = _PART_ROW.get((key, j))
    if rid is None:
        rid = _row_id(_wild_vectors(key, j))
        _PART_ROW[(key, j)] = rid
    return rid


def _comb_rows(a: int, b: int) -> int:
    k = a * _STRIDE + b
    rid = _ROW_COMB.get(k)
    if rid is None:
        ra, rb = _ROWS[a], _ROWS[b]
        out = []
        for w in range(len(ra)):
            acc = _comb(ra[w], rb[0])
            for x in range(1, w + 1):
                acc = _max_vec(acc, _comb(ra[w - x], rb[x]))
            out.append(acc)
        rid = _row_id(tuple(out))
        _ROW_COMB[k] = rid
    return rid


def _standard_value(real: Sequence[int], j: int) -> Vec:
    """The best group vector of the whole hand over every placement of the j wildcards."""
    cur = _row_id(tuple(_wild_only(w) for w in range(j + 1)))
    cur = _comb_rows(cur, _part_row(tuple(real[0:9]), j))
    cur = _comb_rows(cur, _part_row(tuple(real[9:18]), j))
    cur = _comb_rows(cur, _part_row(tuple(real[18:27]), j))
    cur = _comb_rows(cur, _part_row(tuple(real[27:34]), j))
    return _ROWS[cur][j]


def standard_shanten_wild(real: Sequence[int], j: int, n_melds: int = 0) -> int:
    vec = _standard_value(real, j)
    return 8 - 2 * n_melds - max(vec[4 - n_melds], vec[9 - n_melds])


def seven_pairs_shanten_wild(real: Sequence[int], j: int, allow_quad_pairs: bool = True) -> int:
    if allow_quad_pairs:
        pairs = sum(n // 2 for n in real)
        odd = sum(1 for n in real if n % 2)
    else:
        pairs = sum(1 for n in real if n >= 2)
        odd = sum(1 for n in real if n == 1)
    used = min(j, odd)
    return 6 - (pairs + used + (j - used) // 2)


def thirteen_orphans_shanten_wild(real: Sequence[int], j: int) -> int:
    kinds = sum(1 for t in _ORPHANS if real[t])
    has_pair = any(real[t] >= 2 for t in _ORPHANS)
    gain = min(j, 13 - kinds + (0 if has_pair else 1))
    return 13 - kinds - (1 if has_pair else 0) - gain


def shanten_by_shape_wild(counts: Sequence[int], wild: Collection[int], n_melds: int = 0,
                          shapes: WildShapes = WildShapes()) -> tuple[tuple[ShapeKind, int], ...]:
    """Shanten of each accepted shape (standard; seven pairs and thirteen orphans without melds)."""
    real, j = split_wild(counts, wild)
    return _by_shape(real, j, n_melds, shapes)


def _by_shape(real: Sequence[int], j: int, n_melds: int, shapes: WildShapes) -> tuple[tuple[ShapeKind, int], ...]:
    out = [(ShapeKind.STANDARD, standard_shanten_wild(real, j, n_melds))]
    if not n_melds:
        if shapes.seven_pairs:
            out.append((ShapeKind.SEVEN_PAIRS, seven_pairs_shanten_wild(real, j, shapes.allow_quad_pairs)))
        if shapes.thirteen_orphans:
            out.append((ShapeKind.THIRTEEN_ORPHANS, thirteen_orphans_shanten_wild(real, j)))
    return tuple(out)


def shanten_wild(counts: Sequence[int], wild: Collection[int], n_melds: int = 0,
                 shapes: WildShapes = WildShapes()) -> int:
    """The least shanten over every assignment of the wildcards, over the accepted shapes."""
    return min(v for _, v in shanten_by_shape_wild(counts, wild, n_melds, shapes))


def useful_tiles_wild(counts: Sequence[int], wild: Collection[int], n_melds: int = 0,
                      shapes: WildShapes = WildShapes()) -> tuple[int, ...]:
    """Kinds whose draw lowers the shanten of a 13-tile hand (kinds held four times are skipped).

    A drawn tile changes one part: the standard shape recombines that part's row with the other parts'
    combination (both memoized by id); seven pairs and thirteen orphans change by counting."""
    real, j = split_wild(counts, wild)
    now = min(v for _, v in _by_shape(real, j, n_melds, shapes))
    keys = [tuple(real[0:9]), tuple(real[9:18]), tuple(real[18:27]), tuple(real[27:34])]
    rows = [_part_row(k, j) for k in keys]
    base = _row_id(tuple(_wild_only(w) for w in range(j + 1)))
    others = []
    for p in range(4):
        acc = base
        for q in range(4):
            if q != p:
                acc = _comb_rows(acc, rows[q])
        others.append(acc)
    specials = not n_melds
    if specials:
        quads = shapes.allow_quad_pairs
        pairs = sum(n // 2 for n in real) if quads else sum(1 for n in real if n >= 2)
        odd = sum(1 for n in real if n % 2) if quads else sum(1 for n in real if n == 1)
        kinds = sum(1 for t in _ORPHANS if real[t])
        has_pair = any(real[t] >= 2 for t in _ORPHANS)
    wild_set = frozenset(wild)
    out = []
    with_wild: int | None = None
    for t in range(NUM_KINDS):
        if counts[t] >= 4:
            continue
        if t in wild_set:
            if with_wild is None:
                with_wild = min(v for _, v in _by_shape(real, j + 1, n_melds, shapes))
            if with_wild < now:
                out.append(t)
            continue
        p = _PART_OF[t]
        key = list(keys[p])
        key[t - 9 * p] += 1
        vec = _ROWS[_comb_rows(others[p], _part_row(tuple(key), j))][j]
        if 8 - 2 * n_melds - max(vec[4 - n_melds], vec[9 - n_melds]) < now:
            out.append(t)
            continue
        if specials:
            n = real[t]
            if shapes.seven_pairs:
                if quads:
                    p2, o2 = (pairs + 1, odd - 1) if n % 2 else (pairs, odd + 1)
                else:
                    p2, o2 = (pairs + 1, odd - 1) if n == 1 else ((pairs, odd + 1) if n == 0 else (pairs, odd))
                used = min(j, o2)
                if 6 - (p2 + used + (j - used) // 2) < now:
                    out.append(t)
                    continue
            if shapes.thirteen_orphans and t in _ORPHAN_SET:
                k2 = kinds + (1 if n == 0 else 0)
                hp = has_pair or n >= 1
                if 13 - k2 - (1 if hp else 0) - min(j, 13 - k2 + (0 if hp else 1)) < now:
                    out.append(t)
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Decompositions: every distinct way the hand is complete, with what each wildcard stood for


# One concealed set of a wildcard decomposition: (kind, first tile, kinds its wildcards stand for).
_WildSet = tuple[SetKind, int, tuple[int, ...]]


def _standard_splits_wild(real: list[int], j: int) -> set[tuple[tuple[_WildSet, ...], int, bool]]:
    """Every distinct split of the real tiles into sets with wildcards (each set holding a real tile),
    with the number of wildcards left over and whether the pair is still to be made of wildcards.

    A set holding the lowest real tile takes the held real tiles of its kinds (a wildcard only for a
    kind not held): a wildcard where a real tile of the same kind is free gives the same sets, only
    swapped. The search is cut where the tables say the rest needs more wildcards than are left.
    """
    out: set[tuple[tuple[_WildSet, ...], int, bool]] = set()

    def need(pair_left: bool) -> int:
        if pair_left:
            return standard_need(real)
        return sum(sets_need(_part_packed(real, p)) for p in range(4))

    def walk(left: int, sets: list[_WildSet], pair_left: bool) -> None:
        if need(pair_left) > left:
            return
        i = next((t for t in range(NUM_KINDS) if real[t]), None)
        if i is None:
            out.add((tuple(sorted(sets)), left, pair_left))
            return
        choices: list[tuple[SetKind, int, tuple[int, ...]]] = [(SetKind.PUNG, i, (i, i, i))]
        if pair_left:
            choices.append((SetKind.PAIR, i, (i, i)))
        if is_suited(i):
            base = suit_first(i)
            for f in (i - 2, i - 1, i):
                if base <= f and f + 2 <= base + 8:
                    choices.append((SetKind.CHOW, f, (f, f + 1, f + 2)))
        for kind, first, tiles in choices:
            taken: list[int] = []
            wild_as: list[int] = []
            for t in tiles:
                if real[t]:
                    real[t] -= 1
                    taken.append(t)
                else:
                    wild_as.append(t)
            if len(wild_as) <= left:
                sets.append((kind, first, tuple(wild_as)))
                walk(left - len(wild_as), sets, pair_left and kind != SetKind.PAIR)
                sets.pop()
            for t in taken:
                real[t] += 1

    walk(j, [], True)
    return out


def decompositions_wild(hand: Hand, wild: Collection[int], shapes: WildShapes = WildShapes()) -> list[Decomposition]:
    """Every distinct decomposition of a complete hand holding wildcards (empty if it is not complete).

    Sets are told apart by what they make and by which of their tiles are wildcards; which wildcard
    tile (of two ghost kinds) sits in which set is not a difference: they are dealt out in set order.
    Sets made of wildcards alone are listed once, as a pung (or the pair) of the first such
    wildcard's own kind; every other reading of them is equally valid. One variant per distinct set
    that can hold the winning tile, as `engine.shapes.decompositions` does.
    """
    wild_set = frozenset(wild)
    tiles = hand.all_concealed()
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    real, j = split_wild(counts, wild_set)
    phys = sorted(t for t in tiles if t in wild_set)
    win = hand.winning_tile
    melds = [TileSet(_MELD_SET_KIND[m.kind], m.tiles[0], m.concealed, i) for i, m in enumerate(hand.melds)]
    out: list[Decomposition] = []
    if sum(real) + j + 3 * len(melds) != 14:
        return out
    for sets, _left, pair_left in sorted(_standard_splits_wild(real[:], j)):
        deal = iter(phys)
        body: list[TileSet] = []
        pair: TileSet | None = None
        for kind, first, wild_as in sets:
            ts = TileSet(kind, first, wild=tuple(next(deal) for _ in wild_as), wild_as=wild_as)
            if kind == SetKind.PAIR:
                pair = ts
            else:
                body.append(ts)
        rest = list(deal)
        if pair_left:
            own = rest[0]
            pair = TileSet(SetKind.PAIR, own, wild=tuple(rest[:2]), wild_as=(own, own))
            rest = rest[2:]
        for k in range(0, len(rest), 3):
            own = rest[k]
            body.append(TileSet(SetKind.PUNG, own, wild=tuple(rest[k:k + 3]), wild_as=(own, own, own)))
        body.sort(key=lambda s: (s.first, s.kind, s.wild_as))
        assert pair is not None
        full = tuple(melds) + tuple(body) + (pair,)
        out.extend(_place_win(ShapeKind.STANDARD, full, len(melds), win))
    if not melds and shapes.seven_pairs:
        need = seven_pairs_need(real, shapes.allow_quad_pairs)
        if need is not None and need <= j:
            out.extend(_place_win(ShapeKind.SEVEN_PAIRS, _seven_pairs_wild(real, phys, shapes.allow_quad_pairs),
                                  0, win))
    if not melds and shapes.thirteen_orphans:
        need = thirteen_orphans_need(real)
        if need is not None and need <= j:
            logical = [t for t in _ORPHANS if real[t]] + [t for t in _ORPHANS if not real[t]]
            doubled = next((t for t in _ORPHANS if real[t] == 2), _ORPHANS[0])
            out.append(Decomposition(ShapeKind.THIRTEEN_ORPHANS, (), tuple(sorted(logical + [doubled])), win))
    return out


def _seven_pairs_wild(real: Sequence[int], phys: list[int], allow_quad_pairs: bool) -> tuple[TileSet, ...]:
    deal = iter(phys)
    pairs: list[TileSet] = []
    used: set[int] = set()
    for t in range(NUM_KINDS):
        n = real[t]
        for _ in range(n // 2):
            pairs.append(TileSet(SetKind.PAIR, t))
        if n % 2:
            pairs.append(TileSet(SetKind.PAIR, t, wild=(next(deal),), wild_as=(t,)))
        if n:
            used.add(t)
    rest = list(deal)
    for k in range(0, len(rest), 2):
        own = rest[k]
        if not allow_quad_pairs and own in used:
            own = next(t for t in range(NUM_KINDS) if t not in used)
        used.add(own)
        pairs.append(TileSet(SetKind.PAIR, own, wild=tuple(rest[k:k + 2]), wild_as=(own, own)))
    pairs.sort(key=lambda s: (s.first, len(s.wild)))
    return tuple(pairs)


def _place_win(kind: ShapeKind, full: tuple[TileSet, ...], n_melds: int, win: int | None) -> list[Decomposition]:
    """One decomposition per distinct concealed set holding the winning tile (as held)."""
    if win is None:
        return [Decomposition(kind, full, (), None)]
    out = []
    seen: set[TileSet] = set()
    for idx in range(n_melds, len(full)):
        s = full[idx]
        held = s.held
        if win not in held or s in seen:
            continue
        seen.add(s)
        marked = TileSet(s.kind, s.first, s.concealed, s.meld_index, held.index(win), s.wild, s.wild_as)
        out.append(Decomposition(kind, full[:idx] + (marked,) + full[idx + 1:], (), win))
    return out


# ---------------------------------------------------------------------------------------------
# The analysis a client asks for


def analyze_wild(hand: Hand, visible: Sequence[int], wild: Collection[int], tile_kinds: Collection[int],
                 shapes: WildShapes = WildShapes()) -> Analysis:
    """`engine.analysis.analyze` for a hand holding wildcards: shanten (least over every assignment of
    the wildcards), waits and useful tiles of a 13-tile hand, discard advice for a 14-tile one (a
    wildcard may be discarded too). A wild kind drawn is one more wildcard. `remaining` counts the
    copies not held and not in `visible`."""
    size = hand.size
    if size not in (13, 14):
        raise TileCountError(f"concealed: an analysed hand has 13 or 14 tiles (kongs as 3), got {size}", "concealed")
    c = [0] * NUM_KINDS
    for t in hand.all_concealed():
        c[t] += 1
    m = len(hand.melds)
    held = c[:]
    for meld in hand.melds:
        for t in meld.tiles:
            held[t] += 1
    seen = [0] * NUM_KINDS
    for t in visible:
        seen[t] += 1
    kinds = frozenset(tile_kinds)
    by_shape = shanten_by_shape_wild(c, wild, m, shapes)
    best = min(v for _, v in by_shape)
    if size == 13:
        waits, useful = _advice_wild(c, wild, m, shapes, best)
        wait_tc = _counts_of(waits, kinds, held, seen)
        useful_tc = _counts_of(useful, kinds, held, seen)
        return Analysis(best, by_shape, wait_tc, useful_tc, sum(t.remaining for t in useful_tc))
    options = []
    for d in range(NUM_KINDS):
        if not c[d]:
            continue
        c[d] -= 1
        held[d] -= 1
        seen[d] += 1
        s13 = shanten_wild(c, wild, m, shapes)
        _, useful = _advice_wild(c, wild, m, shapes, s13)
        tc = _counts_of(useful, kinds, held, seen)
        options.append(DiscardOption(d, s13, tc, sum(t.remaining for t in tc)))
        c[d] += 1
        held[d] += 1
        seen[d] -= 1
    options.sort(key=lambda o: (o.shanten, -o.useful_count, o.tile))
    return Analysis(best, by_shape, discards=tuple(options))


def _advice_wild(c: Sequence[int], wild: Collection[int], m: int, shapes: WildShapes,
                 best: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(waits, useful tiles) of a 13-tile hand; at shanten 0 the useful tiles are the waits."""
    if best == 0:
        w = waits_wild(c, wild, m, shapes)
        return w, w
    return (), useful_tiles_wild(c, wild, m, shapes)


def _counts_of(tiles: Iterable[int], kinds: frozenset[int], held: Sequence[int],
               seen: Sequence[int]) -> tuple[TileCount, ...]:
    out = []
    for t in sorted(tiles):
        if t in kinds:
            gone = held[t] + seen[t]
            out.append(TileCount(t, 4 - gone if gone < 4 else 0, held[t] >= 4))
    return tuple(out)

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("wildcards", _MELD_SET_KIND=_MELD_SET_KIND)
