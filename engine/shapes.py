"""Winning shapes: is a hand complete, and every distinct way it can be split.

Standard hands are split suit by suit: a suit's part of the hand depends only on its nine
counts, so its splits are read from the per-suit tables mapped by `engine.tables` (`suit_splits`),
and a whole hand costs a few look-ups. The tables are filled at build time by a depth-first search
pruned as in the seeds (`_suit_splits_dfs`: a suit whose count is 3N+1 has no split, 3N has no pair,
3N+2 has exactly one), which also answers any key outside them (a fifth copy). The yes/no
question (`is_complete`) uses a table of every complete suit key, built once at import by
combining sets, which also cross-checks the search in the tests.

Special shapes: seven pairs (a four of a kind counting as two pairs where the rule set
allows), thirteen orphans, honours-and-knitted (全不靠) and knitted straight (组合龙) plus a
set and a pair, the set possibly a declared meld.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from enum import IntEnum, StrEnum
from functools import lru_cache
from itertools import combinations_with_replacement, permutations
from typing import Final

from engine.hand import Hand, MeldKind
from engine.memo import IntMemo
from engine.registry import REGISTRY
from engine.tables import TABLES
from engine.tables.format import SET_CODE_BASE
from engine.tile_kinds import EAST, NUM_KINDS, P1, S1, TERMINALS_AND_HONORS, WHITE, is_suited, offset_in_suit, suit_of
from engine.tiles import format_tiles, to_counts

SuitKey = tuple[int, int, int, int, int, int, int, int, int]


class Value:
    """Base of the engine's frozen value classes: a copy is pickled as a call of the class with its
    fields, which also restores the classes the build compiles (their frozen fields refuse to be set
    one by one)."""

    __slots__ = ()

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return type(self), tuple([getattr(self, f.name) for f in fields(self)])  # type: ignore[arg-type]


class SetKind(IntEnum):
    CHOW = 1
    PUNG = 2
    KONG = 3
    PAIR = 4


# The members themselves, so that compiled code tells a set's kind by identity: `int()` of an IntEnum
# member, or `==` on it, is a call through Python.
_CHOW_KIND: Final = SetKind.CHOW
_PUNG_KIND: Final = SetKind.PUNG
_KONG_KIND: Final = SetKind.KONG
_PAIR_KIND: Final = SetKind.PAIR


# The SetKind values as plain ints, what `kind_number` answers (compiled code compares these natively).
CHOW_NUMBER: Final = 1
PUNG_NUMBER: Final = 2
KONG_NUMBER: Final = 3
PAIR_NUMBER: Final = 4


def kind_number(kind: SetKind) -> int:
    """A set's kind as its plain int (the SetKind value), without a call through Python once compiled."""
    if kind is _CHOW_KIND:
        return CHOW_NUMBER
    if kind is _PUNG_KIND:
        return PUNG_NUMBER
    if kind is _KONG_KIND:
        return KONG_NUMBER
    if kind is _PAIR_KIND:
        return PAIR_NUMBER
    return int(kind)


class ShapeKind(StrEnum):
    STANDARD = "standard"
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    HONORS_KNITTED = "honors_and_knitted"
    KNITTED_STRAIGHT = "knitted_straight"


@dataclass(frozen=True, slots=True, init=False)
class TileSet(Value):
    """One set of a decomposition.

    `concealed`: formed in the hand (a concealed kong also counts), not a claimed meld.
    `meld_index`: position in `Hand.melds` for declared melds, else None.
    `win_offset`: where the winning tile sits in this set (0 = lowest tile), None if not here.
    Whether a concealed pung completed by a discard still counts as concealed is the rule
    set's call; the shape only records the facts.
    Wildcards (`engine.wildcards`): `wild` holds the wildcard tiles placed in this set as the tiles
    they are, `wild_as` the kind each stood for (same order); `tiles` is the set they make, `held`
    the tiles as held.
    """

    kind: SetKind
    first: int
    concealed: bool = True
    meld_index: int | None = None
    win_offset: int | None = None
    wild: tuple[int, ...] = ()
    wild_as: tuple[int, ...] = ()

    def __init__(
        self,
        kind: SetKind,
        first: int,
        concealed: bool = True,
        meld_index: int | None = None,
        win_offset: int | None = None,
        wild: tuple[int, ...] = (),
        wild_as: tuple[int, ...] = (),
    ) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "concealed", concealed)
        object.__setattr__(self, "meld_index", meld_index)
        object.__setattr__(self, "win_offset", win_offset)
        object.__setattr__(self, "wild", wild)
        object.__setattr__(self, "wild_as", wild_as)

    @property
    def held(self) -> tuple[int, ...]:
        """The tiles as held: each wildcard in place of a tile of the kind it stood for (the last such)."""
        tiles = self.tiles
        if not self.wild:
            return tiles
        out = list(tiles)
        used: set[int] = set()
        for w, a in zip(self.wild, self.wild_as, strict=True):
            pos = max(i for i, t in enumerate(tiles) if t == a and i not in used)
            used.add(pos)
            out[pos] = w
        return tuple(out)

    @property
    def tiles(self) -> tuple[int, ...]:
        f = self.first
        if self.kind == SetKind.CHOW:
            return (f, f + 1, f + 2)
        return (f,) * {SetKind.PUNG: 3, SetKind.KONG: 4, SetKind.PAIR: 2}[self.kind]

    @property
    def is_pung_like(self) -> bool:
        return self.kind in (SetKind.PUNG, SetKind.KONG)

    def __str__(self) -> str:
        mark = "" if self.concealed else "*"
        win = "" if self.win_offset is None else "!"
        wild = "".join(f" {format_tiles((w,))}={format_tiles((a,))}" for w, a in zip(self.wild, self.wild_as,
                                                                                   strict=True))
        return f"{self.kind.name.lower()} {format_tiles(self.tiles)}{mark}{win}{wild}"


@dataclass(frozen=True, slots=True, init=False)
class Decomposition(Value):
    """One way a complete hand is split.

    STANDARD: `sets` holds four sets then the pair (pair last).
    SEVEN_PAIRS: seven PAIR sets (a four of a kind gives two equal pairs).
    KNITTED_STRAIGHT: the nine knitted tiles in `knitted`; `sets` holds the remaining set and the pair.
    HONORS_KNITTED / THIRTEEN_ORPHANS: all 14 tiles in `knitted`, `sets` empty.
    `win_tile` is the winning tile (None for a hand analysed without one).
    """

    kind: ShapeKind
    sets: tuple[TileSet, ...]
    knitted: tuple[int, ...] = ()
    win_tile: int | None = None

    def __init__(
        self,
        kind: ShapeKind,
        sets: tuple[TileSet, ...],
        knitted: tuple[int, ...] = (),
        win_tile: int | None = None,
    ) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "sets", sets)
        object.__setattr__(self, "knitted", knitted)
        object.__setattr__(self, "win_tile", win_tile)

    @property
    def pair(self) -> TileSet | None:
        if self.kind in (ShapeKind.STANDARD, ShapeKind.KNITTED_STRAIGHT) and self.sets:
            return self.sets[-1]
        return None

    def __str__(self) -> str:
        body = ", ".join(str(s) for s in self.sets)
        if self.knitted:
            body = f"knitted {format_tiles(self.knitted)}" + (f", {body}" if body else "")
        return f"{self.kind.value}: {body}"


# ---------------------------------------------------------------------------------------------
# Per-suit splits

# A split of one suit: (kind, rank offset 0-8) per set, sorted; PAIR at most once.
SuitSplit = tuple[tuple[SetKind, int], ...]


@REGISTRY.memo("shapes.dfs_splits")
@lru_cache(maxsize=1 << 17)
def _dfs_splits(counts: tuple[int, ...], want_pair: bool) -> frozenset[SuitSplit]:
    """Every split of one suit's counts into chows/pungs (plus one pair if want_pair).

    Memoized on the remaining counts: the keys left after taking a set recur within one search
    and across suits, so each sub-key is split once.
    """
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        return frozenset({()}) if not want_pair else frozenset()
    out: set[SuitSplit] = set()

    def branch(kind: SetKind, take: tuple[int, ...], pair_left: bool) -> None:
        rest_counts = list(counts)
        for k in take:
            rest_counts[k] -= 1
        for rest in _dfs_splits(tuple(rest_counts), pair_left):
            out.add(tuple(sorted(rest + ((kind, i),))))

    if counts[i] >= 3:
        branch(SetKind.PUNG, (i, i, i), want_pair)
    if want_pair and counts[i] >= 2:
        branch(SetKind.PAIR, (i, i), False)
    if i <= 6 and counts[i + 1] and counts[i + 2]:
        branch(SetKind.CHOW, (i, i + 1, i + 2), want_pair)
    return frozenset(out)


# A tabled set code (kind * SET_CODE_BASE + rank offset, see engine.tables.format) -> the set.
_SPLIT_SETS: Final[tuple[tuple[SetKind, int] | None, ...]] = tuple(
    (SetKind(code // SET_CODE_BASE), code % SET_CODE_BASE) if code // SET_CODE_BASE in SetKind._value2member_map_
    else None for code in range(5 * SET_CODE_BASE))


@REGISTRY.memo("shapes.suit_splits")
@lru_cache(maxsize=1 << 12)
def suit_splits(key: SuitKey, honors: bool = False) -> tuple[SuitSplit, ...]:
    """All splits of a suit key, sorted (from the tables; by search outside them). Honour keys allow
    no chows."""
    if not honors and TABLES is not None:
        codes = TABLES.suits.split_codes(key)
        if codes is not None:
            sets = _SPLIT_SETS
            return tuple([tuple([sets[c] for c in code]) for code in codes])  # type: ignore[misc]
    return _suit_splits_dfs(key, honors)


def _suit_splits_dfs(key: SuitKey, honors: bool = False) -> tuple[SuitSplit, ...]:
    """All splits of a suit key, by search (memoized below). Honour keys allow no chows."""
    n = sum(key)
    if n % 3 == 1:
        return ()
    want_pair = n % 3 == 2
    if honors:
        sets: list[tuple[SetKind, int]] = []
        pairs = 0
        for r, c in enumerate(key):
            if c == 3:
                sets.append((SetKind.PUNG, r))
            elif c == 2:
                sets.append((SetKind.PAIR, r))
                pairs += 1
            elif c:
                return ()
        return (tuple(sorted(sets)),) if pairs == want_pair else ()
    return tuple(sorted(_dfs_splits(key, want_pair)))


def _build_complete_table() -> dict[SuitKey, int]:
    """Every complete suit key -> 0 (3N, sets only) or 2 (3N+2, sets and a pair), by combining sets."""
    shapes: list[tuple[int, ...]] = [tuple(1 if r in (i, i + 1, i + 2) else 0 for r in range(9)) for i in range(7)]
    shapes += [tuple(3 if r == i else 0 for r in range(9)) for i in range(9)]
    pairs = [tuple(2 if r == i else 0 for r in range(9)) for i in range(9)]
    table: dict[SuitKey, int] = {}
    for nsets in range(5):
        for combo in combinations_with_replacement(shapes, nsets):
            base = [sum(col) for col in zip(*combo, strict=True)] if combo else [0] * 9
            if max(base) <= 4:
                table[tuple(base)] = 0  # type: ignore[index]
            for p in pairs:
                with_pair = [a + b for a, b in zip(base, p, strict=True)]
                if max(with_pair) <= 4:
                    table[tuple(with_pair)] = 2  # type: ignore[index]
    return table


COMPLETE_SUITS: Final[dict[SuitKey, int]] = _build_complete_table()


def is_standard_complete(counts: list[int]) -> bool:
    """4 sets + pair over the given counts (melds already removed); 3N+2 tiles expected."""
    pairs = 0
    table = COMPLETE_SUITS
    for s in (0, 9, 18):
        v = table.get(tuple(counts[s:s + 9]))  # type: ignore[arg-type]
        if v is None:
            return False
        if v:
            pairs += 1
    for c in counts[27:]:
        # By residue, so a (never valid) fifth copy reads as pung + pair rather than slipping through.
        if c % 3 == 2:
            pairs += 1
        elif c % 3 == 1:
            return False
    return pairs == 1


# ---------------------------------------------------------------------------------------------
# Special shapes

_ORPHANS: Final[tuple[int, ...]] = tuple(TERMINALS_AND_HONORS)
KNITTED_PATTERNS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted(9 * suit + r for suit, start in zip(perm, (0, 1, 2), strict=True)
                 for r in (start, start + 3, start + 6)))
    for perm in permutations(range(3))
)


def is_seven_pairs(counts: list[int], allow_quads: bool = True) -> bool:
    if sum(counts) != 14:
        return False
    if allow_quads:
        return all(c % 2 == 0 for c in counts)
    return all(c in (0, 2) for c in counts)


def is_thirteen_orphans(counts: list[int]) -> bool:
    """14 tiles, every terminal and honour among them, nothing else."""
    total = 0
    for c in counts:
        total += c
    if total != 14:
        return False
    orphans = 0
    for t in _ORPHANS:
        c = counts[t]
        if not c:
            return False
        orphans += c
    return orphans == 14


def honors_knitted_pattern(counts: list[int]) -> tuple[int, ...] | None:
    """The knitted pattern a honours-and-knitted hand fits, or None."""
    if sum(counts) != 14 or any(c > 1 for c in counts):
        return None
    suited = {t for t in range(27) if counts[t]}
    for pat in KNITTED_PATTERNS:
        if suited <= set(pat):
            return pat
    return None


def knitted_straight_rests(counts: list[int]) -> Iterator[tuple[tuple[int, ...], list[int]]]:
    """Each knitted pattern fully present in counts, with the counts left after removing it."""
    for pat in KNITTED_PATTERNS:
        if all(counts[t] for t in pat):
            rest = counts[:]
            for t in pat:
                rest[t] -= 1
            yield pat, rest


def is_complete(hand: Hand, allow_quad_pairs: bool = True) -> bool:
    """Does the hand (concealed + winning tile + melds) form any winning shape?"""
    return is_complete_counts(to_counts(hand.all_concealed()), len(hand.melds), allow_quad_pairs)


def _knit_possible(counts: list[int]) -> bool:
    """Cheap necessary condition for a knitted pattern: every suit has a full 1-4-7, 2-5-8 or 3-6-9."""
    for s in (0, 9, 18):
        if not ((counts[s] and counts[s + 3] and counts[s + 6]) or (counts[s + 1] and counts[s + 4] and counts[s + 7])
                or (counts[s + 2] and counts[s + 5] and counts[s + 8])):
            return False
    return True


def is_complete_counts(counts: list[int], n_melds: int = 0, allow_quad_pairs: bool = True) -> bool:
    """`is_complete` on raw concealed counts (used by waits and shanten callers).

    Ordered so that the usual non-winning hand is rejected after a couple of C-level scans:
    a lone honour rules out every shape but thirteen orphans and honours-and-knitted, and
    those need all six terminals or five lone honours.
    """
    h = counts[27:34]
    if 1 in h:
        if n_melds:
            return False
        if counts[0] and counts[8] and counts[9] and counts[17] and counts[18] and counts[26]:
            return is_thirteen_orphans(counts)  # with both 1 and 9 of a suit no knitted pattern fits
        return h.count(1) >= 5 and honors_knitted_pattern(counts) is not None
    if 4 in h:  # four of an honour in hand: only seven pairs can use them
        return not n_melds and is_seven_pairs(counts, allow_quad_pairs)
    table = COMPLETE_SUITS
    a = table.get(tuple(counts[0:9]))  # type: ignore[arg-type]
    if a is not None:
        b = table.get(tuple(counts[9:18]))  # type: ignore[arg-type]
        if b is not None:
            d = table.get(tuple(counts[18:27]))  # type: ignore[arg-type]
            if d is not None and a + b + d + 2 * h.count(2) == 2:
                return True
    if n_melds > 1 or not _knit_possible(counts):
        return not n_melds and is_seven_pairs(counts, allow_quad_pairs)
    if not n_melds and is_seven_pairs(counts, allow_quad_pairs):
        return True
    if sum(counts) != 14 - 3 * n_melds:
        return False
    return any(is_standard_complete(rest) for _, rest in knitted_straight_rests(counts))


# ---------------------------------------------------------------------------------------------
# Decompositions


def set_id(kind: int, first: int) -> int:
    """A concealed set's index in the interned tables below: (kind - 1) * NUM_KINDS + first tile."""
    return (kind - 1) * NUM_KINDS + first


# Every concealed set, and every concealed set holding the winning tile at each offset, built once and
# read by `set_id` (a list index, not a hashed key); `_WITH_WIN_BY_ID[3 * set_id + offset]`.
_CONCEALED_BY_ID: Final[tuple[TileSet, ...]] = tuple(TileSet(k, f) for k in SetKind for f in range(NUM_KINDS))
_WITH_WIN_BY_ID: Final[tuple[TileSet, ...]] = tuple(
    TileSet(k, f, win_offset=off) for k in SetKind for f in range(NUM_KINDS) for off in range(3))
_PAIR: Final = int(SetKind.PAIR)
_CHOW: Final = int(SetKind.CHOW)


def _concealed_set(kind: SetKind, first: int) -> TileSet:
    """The interned concealed set of this kind and first tile (no winning tile in it)."""
    return _CONCEALED_BY_ID[set_id(kind_number(kind), first)]
# A set code (kind * 9 + rank, engine.tables.format) read as its sort key within a suit, rank * 8 + kind:
# sorting the keys sorts the sets by tile, then kind.
_ORDER_STEP: Final = 8

# The sets that can hold the winning tile in one split: (position in the split's sets but the pair, or -1
# for the pair; that set with the winning tile marked), one per distinct set, in (kind, tile) order.
Holders = tuple[tuple[int, TileSet], ...]


class _SuitOption:
    """One split of one suit, ready to be joined with the other suits' splits."""

    def __init__(self, body_sets: tuple[TileSet, ...], body_ids: tuple[int, ...], pair_set: TileSet | None,
                 pair_id: int) -> None:
        self.body_sets = body_sets  # its sets but the pair, as concealed TileSets, sorted by tile then kind
        self.body_ids = body_ids  # their `set_id`s
        self.pair_set = pair_set
        self.pair_id = pair_id  # -1: no pair


def _option(base: int, codes: list[int]) -> _SuitOption:
    """A split given as its set codes (kind * SET_CODE_BASE + rank; a pair at most once) in joinable form."""
    keys: list[int] = []
    pair_id = -1
    for code in codes:
        kind = code // SET_CODE_BASE
        if kind == _PAIR:
            pair_id = set_id(kind, base + code % SET_CODE_BASE)
        else:
            keys.append(code % SET_CODE_BASE * _ORDER_STEP + kind)
    keys.sort()
    ids = [set_id(k % _ORDER_STEP, base + k // _ORDER_STEP) for k in keys]
    sets = _CONCEALED_BY_ID
    return _SuitOption(tuple([sets[i] for i in ids]), tuple(ids), sets[pair_id] if pair_id >= 0 else None, pair_id)


# A suit's part of the hand as one int, the memo's key (an int key is hashed and compared in one step):
# the block (0-2 the suits, 3 the honours) in the low 2 bits, then 4 bits per rank, the first rank highest.
# A count above 15 has no code (`suit_code` None): such a part is split by `_suit_options_of`, unmemoized.
_RANK_BITS: Final = 4
_MAX_CODED: Final = (1 << _RANK_BITS) - 1


# What one copy of tile t adds to its block's `suit_code` (the block's first rank in the highest bits).
_CODE_UNIT: Final = tuple(1 << (_RANK_BITS * (8 - offset_in_suit(t) if is_suited(t) else WHITE - t) + 2)
                          for t in range(NUM_KINDS))


def suit_code(counts: list[int], block: int) -> int | None:
    """The memo key of one block of the counts (see above), or None."""
    base = 9 * block
    code = 0
    for t in range(base, base + 9 if block < 3 else 34):
        c = counts[t]
        if c > _MAX_CODED:
            return None
        code = (code << _RANK_BITS) | c
    return code << 2 | block


def _suit_options_of_code(code: int) -> tuple[_SuitOption, ...]:
    """`_suit_options_of` the block a `suit_code` stands for."""
    block = code & 3
    ranks = 9 if block < 3 else 7
    counts = [(code >> (2 + _RANK_BITS * (ranks - 1 - r))) & _MAX_CODED for r in range(ranks)]
    return _suit_options_of(block, counts)


# `_suit_options_of_code`, memoized on the code (bounded: its options are objects, not table entries).
_suit_options: Final = REGISTRY.add_memo("shapes.suit_options", IntMemo(_suit_options_of_code, maxsize=1 << 14))


def _suit_options_of(block: int, counts: list[int]) -> tuple[_SuitOption, ...]:
    """`suit_splits` of one block's counts in joinable form, in the same order (tabled keys are read from
    the set codes directly)."""
    base = 9 * block
    if block == 3:  # pungs and at most one pair: split directly (no memo: nothing to search)
        key = (*counts, 0, 0)
        return tuple([_option(base, [int(k) * 9 + r for k, r in split])
                      for split in _suit_splits_dfs(key, True)])  # type: ignore[arg-type]
    key = tuple(counts)
    if TABLES is not None:
        split_codes = TABLES.suits.split_codes(key)
        if split_codes is not None:
            return tuple([_option(base, list(c)) for c in split_codes])
    return tuple([_option(base, [int(k) * 9 + r for k, r in split])
                  for split in suit_splits(key)])  # type: ignore[arg-type]


def _block_options(counts: list[int], block: int) -> tuple[_SuitOption, ...]:
    """The options of one block of the whole hand's counts: memoized by `suit_code`."""
    return _block_options_coded(counts, block, suit_code(counts, block))


def _block_options_coded(counts: list[int], block: int, code: int | None) -> tuple[_SuitOption, ...]:
    """`_block_options` where the block's `suit_code` is known already."""
    if code is not None:
        return _suit_options.get(code)
    base = 9 * block
    return _suit_options_of(block, counts[base:base + 9] if block < 3 else counts[27:34])


def _win_holders(o: _SuitOption, win: int) -> Holders:
    """The sets of one split that can hold the winning tile (see `Holders`). Equal sets sit side by side
    (sorted by tile, then kind), the first of them counts; the chows, then a pung at the tile, come in
    (kind, tile) order as they are met, the pair last."""
    out: list[tuple[int, TileSet]] = []
    ids = o.body_ids
    marked = _WITH_WIN_BY_ID
    for i in range(len(ids)):
        sid = ids[i]
        if i and ids[i - 1] == sid:
            continue
        first = sid % NUM_KINDS
        if sid // NUM_KINDS + 1 == _CHOW:
            off = win - first
            if 0 <= off <= 2:
                out.append((i, marked[3 * sid + off]))
        elif first == win:
            out.append((i, marked[3 * sid]))
    if o.pair_id >= 0 and o.pair_id % NUM_KINDS == win:
        out.append((-1, marked[3 * o.pair_id]))
    return tuple(out)


_Split = tuple[tuple[TileSet, ...], TileSet, Holders]


def _standard_splits(counts: list[int], win: int | None, coded: bool = False, c0: int = 0, c1: int = 0,
                     c2: int = 0, c3: int = 0) -> tuple[list[_Split], int]:
    """Every split of the concealed counts into sets + exactly one pair, and where the winning
    tile's suit starts among the sets.

    Each split: (sets but the pair, sorted by tile; the pair; the sets that can hold the winning
    tile, see `Holders`). Suits are joined in tile order, so the sets stay sorted; the order of the
    splits is the product of the per-suit options, characters outermost. `coded`: c0-c3 are the four
    blocks' `suit_code`s, counted by the caller with the tiles (`decompositions`).
    """
    win_block = -1 if win is None else suit_of(win)
    # While every suit so far splits one way (the usual case), the one combination is kept in locals.
    sets: tuple[TileSet, ...] = ()
    pair: TileSet | None = None
    held: Holders = ()
    combos: list[tuple[tuple[TileSet, ...], TileSet | None, Holders]] = []
    pairs = 0
    start = 0
    for b in range(4):
        if coded:
            code: int | None = c0 if b == 0 else c1 if b == 1 else c2 if b == 2 else c3
        else:
            code = suit_code(counts, b)
        if code is not None and code == b:  # every count 0: an absent suit splits one way, into nothing
            continue
        options = _block_options_coded(counts, b, code)
        if not options:
            return [], 0
        # A suit holds a pair exactly when its count is 3N+2: all its options have one, or none has.
        if options[0].pair_set is not None:
            pairs += 1
            if pairs > 1:
                return [], 0
        if b == win_block:
            start = len(combos[0][0]) if combos else len(sets)  # every split of a suit has as many sets
        if not combos and len(options) == 1:
            o = options[0]
            sets = sets + o.body_sets
            if pair is None:
                pair = o.pair_set
            if b == win_block:
                assert win is not None
                held = _win_holders(o, win)
            continue
        if not combos:
            combos = [(sets, pair, held)]
        if b == win_block:
            assert win is not None
            combos = [(c_sets + o.body_sets, c_pair or o.pair_set, _win_holders(o, win))
                      for c_sets, c_pair, _ in combos for o in options]
        else:
            combos = [(c_sets + o.body_sets, c_pair or o.pair_set, c_held)
                      for c_sets, c_pair, c_held in combos for o in options]
    if pairs != 1:
        return [], 0
    if not combos:
        assert pair is not None
        return [(sets, pair, held)], start
    return combos, start  # type: ignore[return-value]


def _standard_set_lists(counts: list[int]) -> list[list[tuple[SetKind, int]]]:
    """Every split of the concealed counts into sets + exactly one pair (tile indices, not offsets)."""
    combos: list[tuple[tuple[TileSet, ...], TileSet | None]] = [((), None)]
    pairs = 0
    for b in range(4):
        options = _block_options(counts, b)
        if not options:
            return []
        if options[0].pair_set is not None:
            pairs += 1
        combos = [(body + o.body_sets, pair or o.pair_set) for body, pair in combos for o in options]
    if pairs != 1:
        return []
    return [[(s.kind, s.first) for s in (*body, pair) if s is not None] for body, pair in combos]


_MELD_SET_KIND: Final = {MeldKind.CHOW: SetKind.CHOW, MeldKind.PUNG: SetKind.PUNG, MeldKind.KONG: SetKind.KONG}


# Every declared meld's set, built once: `_MELD_SETS[meld kind][concealed][meld index][first tile]` for
# the four melds a hand may have (list reads, where a memo would hash its four arguments per meld).
_MELD_SETS: Final[list[list[list[list[TileSet]]]]] = [[] for _ in range(max(MeldKind) + 1)]
for _meld_kind, _set_kind in _MELD_SET_KIND.items():
    _MELD_SETS[_meld_kind] = [[[TileSet(_set_kind, f, concealed, i) for f in range(NUM_KINDS)] for i in range(4)]
                              for concealed in (False, True)]


def _meld_sets(hand: Hand) -> list[TileSet]:
    out: list[TileSet] = []
    for i, m in enumerate(hand.melds):
        if i < 4:
            out.append(_MELD_SETS[m.kind][m.concealed][i][m.tiles[0]])
        else:  # not a valid hand (make_hand allows four melds), but answered as before
            out.append(TileSet(_MELD_SET_KIND[m.kind], m.tiles[0], m.concealed, i))
    return out


def _holds(k: SetKind, f: int, win: int) -> int | None:
    """Where `win` sits in set (k, f), or None."""
    if k == SetKind.CHOW:
        return win - f if f <= win <= f + 2 else None
    return 0 if f == win else None


def _place_win(sets: list[tuple[SetKind, int]], win: int | None) -> Iterator[tuple[TileSet, ...]]:
    """One variant per distinct concealed set that can hold the winning tile."""
    if win is None:
        yield tuple([_concealed_set(k, f) for k, f in sets])
        return
    seen: set[tuple[SetKind, int]] = set()
    for idx, (k, f) in enumerate(sets):
        if (k, f) in seen:
            continue
        off = _holds(k, f, win)
        if off is not None:
            seen.add((k, f))
            marked = _WITH_WIN_BY_ID[3 * set_id(kind_number(k), f) + off]
            yield tuple([marked if j == idx else _concealed_set(kk, ff) for j, (kk, ff) in enumerate(sets)])


def _ordered(sets: tuple[TileSet, ...], melds: list[TileSet]) -> tuple[TileSet, ...]:
    """Declared melds first, then concealed sets by tile; pair last."""
    body = sorted((s for s in sets if s.kind != SetKind.PAIR), key=_set_order)
    pair = [s for s in sets if s.kind == SetKind.PAIR]
    return tuple(melds) + tuple(body) + tuple(pair)


def _set_order(s: TileSet) -> tuple[int, int]:
    return (s.first, s.kind)


def decompositions(hand: Hand, allow_quad_pairs: bool = True) -> list[Decomposition]:
    """Every distinct decomposition of a complete hand (empty if it is not complete).

    The winning tile's position is part of a decomposition: 1123m won on 1m splits as
    pair 11 + chow 123 with the 1m in either set, and the two are listed separately,
    because wait fans and concealed-pung status depend on it.
    """
    counts = [0] * NUM_KINDS
    concealed = hand.concealed
    win: int | None = hand.winning_tile
    # The four blocks' `suit_code`s, counted with the tiles in native locals (one copy of tile t adds
    # _CODE_UNIT[t]); fewer than 16 tiles cannot overflow a block's 4-bit counts.
    unit = _CODE_UNIT
    c0, c1, c2, c3 = 0, 1, 2, 3
    for t in concealed if win is None else concealed + (win,):
        counts[t] = counts[t] + 1  # not +=: compiled, that is a generic in-place add
        if t < P1:
            c0 += unit[t]
        elif t < S1:
            c1 += unit[t]
        elif t < EAST:
            c2 += unit[t]
        else:
            c3 += unit[t]
    melds = _meld_sets(hand) if hand.melds else []
    out: list[Decomposition] = []
    standard = ShapeKind.STANDARD
    head = tuple(melds)
    splits, start = _standard_splits(counts, win, len(concealed) < _MAX_CODED, c0, c1, c2, c3)
    for sets, pair, holders in splits:
        # declared melds first, then the concealed sets by tile, the pair last
        full = head + sets + (pair,)
        if win is None:
            out.append(Decomposition(standard, full, (), win))
            continue
        # one variant per distinct concealed set that can hold the winning tile, marked in its first copy
        for where, win_set in holders:
            placed = list(full)
            placed[len(full) - 1 if where < 0 else len(head) + start + where] = win_set
            out.append(Decomposition(standard, tuple(placed), (), win))
    # Cheap gates (C-level scans) before the special shapes: a knitted pattern needs a full
    # 1-4-7 / 2-5-8 / 3-6-9 in every suit, the other shapes need no meld and few copies.
    if len(melds) <= 1 and _knit_possible(counts):
        for pat, rest in knitted_straight_rests(counts):
            for rest_sets in _standard_set_lists(rest):
                if len(rest_sets) + len(melds) != 2:
                    continue
                variants = list(_place_win(rest_sets, win)) if win is not None and rest[win] else [
                    tuple([_concealed_set(k, f) for k, f in rest_sets])]
                for knitted_sets in variants:
                    out.append(Decomposition(ShapeKind.KNITTED_STRAIGHT, _ordered(knitted_sets, melds), pat, win))
    if not melds:
        most = 0
        odd = False  # a count of 1 or 3: no seven pairs
        for c in counts:
            if c > most:
                most = c
            if c == 1 or c == 3:
                odd = True
        if not odd and is_seven_pairs(counts, allow_quad_pairs):
            pairs = [TileSet(SetKind.PAIR, t, win_offset=0 if t == win else None)
                     for t in range(NUM_KINDS) for _ in range(counts[t] // 2)]
            # The winning tile completes only one of two equal pairs.
            marked = False
            fixed = []
            for p in pairs:
                if p.win_offset is not None and marked:
                    p = TileSet(SetKind.PAIR, p.first)
                marked = marked or p.win_offset is not None
                fixed.append(p)
            out.append(Decomposition(ShapeKind.SEVEN_PAIRS, tuple(fixed), (), win))
        if most == 2 and is_thirteen_orphans(counts):
            out.append(Decomposition(ShapeKind.THIRTEEN_ORPHANS, (), tuple(hand.all_concealed()), win))
        if most == 1 and honors_knitted_pattern(counts) is not None:
            out.append(Decomposition(ShapeKind.HONORS_KNITTED, (), tuple(hand.all_concealed()), win))
    return out

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("shapes", COMPLETE_SUITS=COMPLETE_SUITS, _MELD_SET_KIND=_MELD_SET_KIND, _MELD_SETS=_MELD_SETS)
