"""Facts the fan predicates read, computed once: per hand (`HandFacts`, `TileFacts`, `Situation`) and
per decomposition (`SetFacts`).

Predicates never walk tiles themselves when a fact here answers the question, so scoring a
decomposition costs a few attribute reads per fan. Each `SetFacts` also carries `features`, a
bitmask of cheap necessary conditions (is there a pung, a kong, a wind pung, ...) computed in the
same single pass over the sets: a set fan declares the features it needs and is only asked when
they are present (see predicates.set_fan).

The memo tables here (the per-suit wait tables) are keyed on small values that recur across different
hands (one suit's nine counts); they hold no per-request state. The single-wait question reads the
tables mapped by `engine.tables` in place (`_waits_word`), every tabled key without a memo; the memos
answer only keys outside the tables (a fifth copy) or a process without the file, and stay bounded.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, NamedTuple

from engine.hand import Hand, MeldKind, WinContext
from engine.registry import REGISTRY
from engine.shapes import CHOW_NUMBER as _CHOW
from engine.shapes import COMPLETE_SUITS, Decomposition, SetKind, ShapeKind, kind_number, suit_splits
from engine.shapes import KONG_NUMBER as _KONG
from engine.shapes import PAIR_NUMBER as _PAIR
from engine.tables import TABLES
from engine.tables.format import MASK9, STATUS_OPEN, TO_PAIR_SHIFT, TO_SETS_SHIFT
from engine.tile_kinds import (
    ALL_GREEN,
    DRAGONS,
    NUM_KINDS,
    NUM_SUITED,
    is_honor,
    is_suited,
    is_terminal_or_honor,
    offset_in_suit,
    rank_of,
    suit_first,
)

# Tiles whose faces look the same upside down (推不倒): dots 1234589, bamboo 245689, white.
REVERSIBLE: Final = frozenset([9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33])


def mask_of(tiles: frozenset[int] | tuple[int, ...]) -> int:
    """Bit t set for each tile kind t."""
    return sum(1 << t for t in set(tiles))


SUIT_MASK: Final = 0x1FF  # the nine ranks of one suit
SUITED_MASK: Final = (1 << NUM_SUITED) - 1
REVERSIBLE_MASK: Final = mask_of(REVERSIBLE)
GREEN_MASK: Final = mask_of(ALL_GREEN)
TERMINAL_RANKS: Final = 0b100000001  # ranks 1 and 9, as bits 0 and 8 of a rank mask


def ranks_mask(ranks: tuple[int, ...]) -> int:
    """Rank mask (bit r-1 for rank r)."""
    return sum(1 << (r - 1) for r in ranks)


class TileFacts(NamedTuple):
    """What follows from which kinds the hand holds, and nothing else: a small value (a few bits and
    a rank mask), so the tile fans memoized on it are shared by many different hands."""

    suits_absent: int  # how many of the three suits are missing
    honors: bool
    winds: bool
    dragons: bool
    rank_union: int  # rank mask over all suits (bit r-1 for rank r)
    reversible: bool  # every kind is one of REVERSIBLE
    green: bool  # every kind is one of ALL_GREEN


# `TileFacts` packed into one small int, the key the tile fans are memoized on (no tuple built or
# hashed per hand): the fields' bits, from bit 0.
_ABSENT_BITS: Final = 3  # suits_absent, bits 0-1
_HONORS_BIT: Final = 1 << 2
_WINDS_BIT: Final = 1 << 3
_DRAGONS_BIT: Final = 1 << 4
_REVERSIBLE_BIT: Final = 1 << 5
_GREEN_BIT: Final = 1 << 6
_RANKS_SHIFT: Final = 7  # rank_union, bits 7-15


def tile_key(present: int) -> int:
    """`tile_facts(present)` packed (`tile_facts_of` unpacks it). `present`: bit t for each kind held."""
    m, p, s = present & SUIT_MASK, (present >> 9) & SUIT_MASK, (present >> 18) & SUIT_MASK
    z = present >> 27
    key = int(not m) + int(not p) + int(not s) | (m | p | s) << _RANKS_SHIFT
    if z:
        key |= _HONORS_BIT
        if z & 0xF:
            key |= _WINDS_BIT
        if z >> 4:
            key |= _DRAGONS_BIT
    if not present & ~REVERSIBLE_MASK:
        key |= _REVERSIBLE_BIT
    if not present & ~GREEN_MASK:
        key |= _GREEN_BIT
    return key


def tile_facts_of(key: int) -> TileFacts:
    """The `TileFacts` a `tile_key` packs."""
    return TileFacts(key & _ABSENT_BITS, bool(key & _HONORS_BIT), bool(key & _WINDS_BIT), bool(key & _DRAGONS_BIT),
                     key >> _RANKS_SHIFT, bool(key & _REVERSIBLE_BIT), bool(key & _GREEN_BIT))


def tile_facts(present: int) -> TileFacts:
    """`present`: bit t for each kind held."""
    return tile_facts_of(tile_key(present))


class Situation(NamedTuple):
    """The circumstances of the win that situational fans read (a small key, memoized on)."""

    self_drawn: bool
    last_of_kind: bool
    last_wall_tile: bool
    replacement_tile: bool
    robbing_kong: bool
    melded_sets: int  # declared melds other than concealed kongs


# `Situation` packed into one small int, the key the situational fans are memoized on: a bit per flag
# in field order, then melded_sets.
_SITUATION_FLAGS: Final = 5


def situation_of(key: int) -> Situation:
    """The `Situation` a `HandFacts.situation_key` packs."""
    return Situation(bool(key & 1), bool(key & 2), bool(key & 4), bool(key & 8), bool(key & 16),
                     key >> _SITUATION_FLAGS)


_MELD_KONG: Final = MeldKind.KONG  # a module constant: read without a look-up on the enum class


class HandFacts:
    """What does not depend on how the hand is split."""

    __slots__ = ("hand", "ctx", "win", "counts", "standing", "present", "tile_key", "situation_key", "n_melds",
                 "n_kongs", "fours", "self_drawn", "flowers", "features", "_unique_wait")

    def __init__(self, hand: Hand, ctx: WinContext) -> None:
        win = hand.winning_tile
        assert win is not None
        standing: list[int] = [0] * NUM_KINDS
        present = 1 << win
        # kinds of which the hand holds all four copies, counted as the counts grow (a count passing 4
        # takes its kind back out: not a valid hand, answered as the plain count over `counts` would)
        fours = 0
        for t in hand.concealed:
            c = standing[t] + 1  # (an augmented item assignment compiles to a generic add)
            standing[t] = c
            present |= 1 << t
            if c == 4:
                fours += 1
            elif c == 5:
                fours -= 1
        counts = standing[:]
        c = counts[win] + 1
        counts[win] = c
        if c == 4:
            fours += 1
        elif c == 5:
            fours -= 1
        n_kongs = melded = in_melds = 0
        melds = hand.melds
        for m in melds:
            tiles = m.tiles
            for t in tiles:
                c = counts[t] + 1
                counts[t] = c
                present |= 1 << t
                if c == 4:
                    fours += 1
                elif c == 5:
                    fours -= 1
            if m.kind == _MELD_KONG:
                n_kongs += 1
                if not m.concealed:
                    melded += 1
            else:
                melded += 1
            if tiles[0] <= win <= tiles[-1]:
                in_melds += tiles.count(win)
        self.hand = hand
        self.ctx = ctx
        self.win = win
        self.counts = counts  # every tile of the hand, a kong counting 4
        self.fours = fours  # kinds of which the hand holds all four copies (in a kong or not)
        self.standing = standing  # concealed tiles without the winning tile
        self.present = present  # bit t for each kind held
        self.tile_key = key = tile_key(present)  # the hand's TileFacts, packed (`tiles` unpacks them)
        self.n_melds = len(melds)
        self.n_kongs = n_kongs
        self_drawn = ctx.self_drawn
        self.self_drawn = self_drawn
        # Flower Tiles, one point each: the count, or which flowers (both given must agree: scoring.check_context)
        self.flowers = ctx.flowers or len(ctx.flower_tiles)
        # decomposition features (see SetFacts) that hold for every decomposition of this hand
        self.features = (0 if melds else NO_MELDS) | (
            ONE_SUIT if key & (_ABSENT_BITS | _HONORS_BIT) == 2 else 0)
        robbing = ctx.robbing_kong
        # The other three copies shown in one's own melds make the winning tile the last of its
        # kind whatever the flag says (the rule counts exposed tiles, and these are exposed).
        last_of_kind = (ctx.last_of_kind or in_melds == 3) and not robbing
        # the hand's Situation, packed (`situation` unpacks it)
        self.situation_key = (int(self_drawn) | int(last_of_kind) << 1 | int(ctx.last_wall_tile) << 2
                              | int(ctx.replacement_tile) << 3 | int(robbing) << 4 | melded << _SITUATION_FLAGS)
        self._unique_wait: bool | None = None

    @property
    def tiles(self) -> TileFacts:
        return tile_facts_of(self.tile_key)

    @property
    def situation(self) -> Situation:
        return situation_of(self.situation_key)

    def unique_wait_for(self, d: Decomposition) -> bool:
        """Did the hand wait on exactly one kind (by shape) before the win?

        Standard decompositions look at the whole standing hand (standard shape, and seven pairs
        when nothing is declared); a knitted straight looks at the tiles beside the knitted nine.
        """
        if d.kind == ShapeKind.KNITTED_STRAIGHT:
            rest = self.standing[:]
            for t in d.knitted:
                rest[t] -= 1
            return min(rest) >= 0 and _single_wait(rest, False)
        if self._unique_wait is None:
            # seven pairs needs no meld and at most seven kinds standing (eight with the winning tile)
            seven_pairs = self.n_melds == 0 and self.present.bit_count() <= 8
            self._unique_wait = _single_wait_standard(self.standing, self.win, seven_pairs)
        return self._unique_wait


def hand_facts(hand: Hand, ctx: WinContext) -> HandFacts:
    return HandFacts(hand, ctx)


# ---------------------------------------------------------------- the single-wait question

def _seven_pairs_wait(counts: list[int]) -> int | None:
    """The tile a 13-tile hand of six pairs and a single waits on for seven pairs, if it is such a hand:
    at most seven kinds, six pairs (a kind of four is two), and the first kind held once or three times.
    One pass over the counts (tests/unit/test_mcr_memo.py checks it against the definition written plainly)."""
    kinds = pairs = 0
    lone = -1
    for t in range(len(counts)):
        c = counts[t]
        if c:
            kinds += 1
            if c == 4:
                pairs += 2
            elif c == 2 or c == 3:
                pairs += 1
            if lone < 0 and (c == 1 or c == 3):
                lone = t
    if kinds > 7 or pairs != 6 or lone < 0:
        return None
    return lone


# complete suit key (at most four of a kind) -> 0: sets only, 1: sets and one pair
_STATUS: Final[dict[tuple[int, ...], int]] = {key: v // 2 for key, v in COMPLETE_SUITS.items()}


@REGISTRY.memo("mcr.facts.suit_status")
@lru_cache(maxsize=8192)  # bounded; the mapped tables answer a miss
def _suit_status(key: tuple[int, ...], honors: bool) -> int | None:
    """0: sets only, 1: sets and one pair, None: not complete (a kind may hold five)."""
    if TABLES is not None:
        tabled = (TABLES.honors if honors else TABLES.suits).status(key)
        if tabled >= 0:
            return None if tabled == STATUS_OPEN else tabled // 2
    if honors:
        pairs = 0
        for c in key:
            if c in (2, 5):
                pairs += 1
            elif c not in (0, 3):
                return None
        return pairs if pairs <= 1 else None
    if max(key) <= 4:
        v = COMPLETE_SUITS.get(key)  # type: ignore[arg-type]
        return None if v is None else v // 2
    n = sum(key)
    if n % 3 == 1 or not suit_splits(key):
        return None
    return n % 3 // 2


@REGISTRY.memo("mcr.facts.suit_waits")
@lru_cache(maxsize=8192)  # bounded; the mapped tables answer a miss
def _suit_waits(key: tuple[int, ...], honors: bool) -> tuple[tuple[int, int], ...]:
    """(offset, status) for each kind of the suit whose one more copy makes the suit complete."""
    if TABLES is not None:
        masks = (TABLES.honors if honors else TABLES.suits).completing_ranks(key)
        if masks is not None:
            to_sets, to_pair = masks
            return tuple([(r, 0 if to_sets >> r & 1 else 1) for r in range(len(key)) if (to_sets | to_pair) >> r & 1])
    out = []
    table = None if honors or max(key) > 4 else _STATUS
    for r in range(len(key)):
        grown = key[:r] + (key[r] + 1,) + key[r + 1:]
        # suited keys of at most four of a kind are a table read (the memo would hold each once)
        v = table.get(grown) if table is not None and key[r] < 4 else _suit_status(grown, honors)
        if v is not None:
            out.append((r, v))
    return tuple(out)


_BLOCKS: Final = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))

# The mapped per-suit tables' suit and honour parts (engine.tables), read here in place: the wait
# questions below answer every tabled key from them with no memo, and ask the memoized functions above
# only for a key outside them (a count of five) or in a process without the file.
_SUIT_PART: Final = TABLES.suits if TABLES is not None else None
_HONOR_PART: Final = TABLES.honors if TABLES is not None else None


def _waits_word(standing: list[int], lo: int, honors: bool) -> int:
    """The low 32 bits of the tables' `waits` word (status, completing ranks) of the block of `standing`
    starting at `lo`, or -1 if not tabled."""
    part = _HONOR_PART if honors else _SUIT_PART
    if part is None:
        return -1
    i = part.index_at(standing, lo)
    if i < 0:
        return -1
    word: int = part.waits_low[2 * i]
    return word


def _block_status(standing: list[int], b: int) -> int | None:
    """`_suit_status` of block b (0-2 the suits, 3 the honours) of `standing`."""
    lo, hi, honors = _BLOCKS[b]
    word = _waits_word(standing, lo, honors)
    if word < 0:
        return _suit_status(tuple(standing[lo:hi]), honors)
    status = word & 3
    return None if status == STATUS_OPEN else status // 2


def _block_waits(standing: list[int], b: int) -> tuple[tuple[int, int], ...]:
    """`_suit_waits` of block b of `standing`."""
    lo, hi, honors = _BLOCKS[b]
    word = _waits_word(standing, lo, honors)
    if word < 0:
        return _suit_waits(tuple(standing[lo:hi]), honors)
    to_sets = word >> TO_SETS_SHIFT & MASK9
    completing = to_sets | word >> TO_PAIR_SHIFT & MASK9
    return tuple([(r, 0 if to_sets >> r & 1 else 1) for r in range(hi - lo) if completing >> r & 1])


def _single_wait(standing: list[int], seven_pairs: bool) -> bool:
    """Exactly one kind completes `standing` (standard shape, plus seven pairs if asked).

    A tile changes one suit only, so the other suits must already be complete: at most one suit
    is open, and only its kinds are tried (from the per-suit wait table).
    """
    waits: set[int] = set()
    if seven_pairs:
        w = _seven_pairs_wait(standing)
        if w is not None:
            waits.add(w)
    status = (_block_status(standing, 0), _block_status(standing, 1), _block_status(standing, 2),
              _block_status(standing, 3))
    n_open = status.count(None)
    if n_open == 1:
        open_blocks: tuple[int, ...] = (status.index(None),)
    elif n_open == 0:  # every suit complete but two pairs: either pair may become a pung
        open_blocks = tuple(i for i, v in enumerate(status) if v)
    else:
        open_blocks = ()
    pairs = sum(v for v in status if v)
    for b in open_blocks:
        lo = _BLOCKS[b][0]
        pairs_elsewhere = pairs - (status[b] or 0)
        for r, v in _block_waits(standing, b):
            if v + pairs_elsewhere == 1:
                waits.add(lo + r)
                if len(waits) > 1:
                    return False
    return len(waits) == 1


@REGISTRY.memo("mcr.facts.open_suit_waits")
@lru_cache(maxsize=8192)  # bounded; the mapped tables answer a miss
def _open_suit_waits(key: tuple[int, ...], honors: bool) -> tuple[int, ...] | None:
    """For the winning tile's suit of a hand with a standard decomposition: None if the suit is
    complete without the tile (pair and pung waits: the whole hand is looked at), else the offsets
    of the kinds that complete the hand. One memo read instead of a status and a wait look-up."""
    if honors:
        status = _suit_status(key, True)
    else:
        status = _STATUS.get(key)
        if status is None and max(key) > 4:  # only a key holding five of a kind needs the search
            status = _suit_status(key, False)
    if status is not None:
        return None
    # the hand's one pair is in the winning suit exactly when that suit then holds 3N+2 tiles
    pairs_elsewhere = 0 if (sum(key) + 1) % 3 == 2 else 1
    return tuple(r for r, v in _suit_waits(key, honors) if v + pairs_elsewhere == 1)


def _open_wait_mask(standing: list[int], lo: int, honors: bool) -> int:
    """`_open_suit_waits` of the block of `standing` starting at `lo`, as a rank mask (bit r: offset r
    completes the hand), or -1 where that answers None (the block is complete without the tile)."""
    word = _waits_word(standing, lo, honors)
    if word < 0:
        offsets = _open_suit_waits(tuple(standing[lo:lo + (7 if honors else 9)]), honors)
        if offsets is None:
            return -1
        mask = 0
        for r in offsets:
            mask |= 1 << r
        return mask
    if word & 3 != STATUS_OPEN:
        return -1
    tiles = 0
    for t in range(lo, lo + (7 if honors else 9)):
        tiles += standing[t]
    to_sets = word >> TO_SETS_SHIFT & MASK9
    if (tiles + 1) % 3 == 2:  # the hand's one pair is in this block: its kinds must leave sets and the pair
        return word >> TO_PAIR_SHIFT & MASK9 & ~to_sets
    return to_sets


def _single_wait_standard(standing: list[int], win: int, seven_pairs: bool) -> bool:
    """`_single_wait` for a hand that has a standard decomposition: every suit but the winning
    tile's is complete in the standing hand already, so only that suit is looked up.
    `seven_pairs`: the standing hand may be six pairs and a single (no melds, few kinds)."""
    if is_suited(win):
        lo = suit_first(win)
        mask = _open_wait_mask(standing, lo, False)
    else:
        lo = 27
        mask = _open_wait_mask(standing, lo, True)
    if mask < 0:  # complete without the tile (pair and pung waits)
        return _single_wait(standing, seven_pairs)
    w = _seven_pairs_wait(standing) if seven_pairs else None
    if w is None:
        return mask != 0 and mask & (mask - 1) == 0  # exactly one kind (bit_count would be a Python call)
    # the seven-pairs wait is the one wait only if every kind completing the standard shape is that kind
    if lo <= w < lo + 9:
        return mask & ~(1 << (w - lo)) == 0
    return mask == 0


# ---------------------------------------------------------------- one decomposition

class Pung:
    """A pung or kong of one decomposition (a compiled class: built and read without a Python call)."""

    __slots__ = ("tile", "set_index", "kong", "concealed", "declared")

    def __init__(self, tile: int, set_index: int, kong: bool, concealed: bool, declared: bool) -> None:
        self.tile = tile
        self.set_index = set_index  # into Decomposition.sets
        self.kong = kong
        self.concealed = concealed  # counts as a concealed pung (a pung finished by a discard does not)
        self.declared = declared  # a declared meld

    def __repr__(self) -> str:
        return (f"Pung(tile={self.tile}, set_index={self.set_index}, kong={self.kong}, "
                f"concealed={self.concealed}, declared={self.declared})")


# Feature bits of a decomposition (necessary conditions that set fans declare they need).
STANDARD: Final = 1 << 0
SPECIAL: Final = 1 << 1  # any shape but standard
PUNGS: Final = 1 << 2  # at least one pung or kong
KONGS: Final = 1 << 3
WIND_PUNG: Final = 1 << 4
DRAGON_PUNG: Final = 1 << 5
TERMINAL_PUNG: Final = 1 << 6  # a pung of terminals or winds
TWO_CONCEALED: Final = 1 << 7  # at least two concealed pungs
NO_PUNGS: Final = 1 << 8
FOUR_CHOWS: Final = 1 << 9
WIN_IN_PAIR: Final = 1 << 10  # the winning tile completes a concealed pair
NO_MELDS: Final = 1 << 11
FOUR_PUNGS: Final = 1 << 12
ALL_OUTSIDE: Final = 1 << 13  # five sets holding a terminal or honour
ALL_FIVES: Final = 1 << 14  # five sets holding a 5
ALL_EVEN: Final = 1 << 15  # five even pungs / pair
ONE_SUIT: Final = 1 << 16  # the hand holds one suit and no honour
TERMINAL_CHOWS: Final = 1 << 17  # four chows, all 123 or 789
WIN_CLOSED: Final = 1 << 18  # the winning tile is the middle of a concealed chow
WIN_EDGE: Final = 1 << 19  # the winning tile is the 3 of a concealed 123 or the 7 of a 789
THREE_CONCEALED: Final = 1 << 20  # at least three concealed pungs
FOUR_CONCEALED: Final = 1 << 21  # four concealed pungs
MELDED_KONGS: Final = 1 << 22  # at least one melded kong
CONCEALED_KONGS: Final = 1 << 23  # at least one concealed kong
TWO_KONGS: Final = 1 << 24  # at least two kongs
THREE_KONGS: Final = 1 << 25  # at least three kongs
FOUR_KONGS: Final = 1 << 26
SEVEN_PAIRS_SHAPE: Final = 1 << 27  # the decomposition is seven pairs
ORPHANS_SHAPE: Final = 1 << 28  # the decomposition is thirteen orphans
HONORS_KNITTED_SHAPE: Final = 1 << 29  # the decomposition is honours and knitted tiles
WIND_PAIR: Final = 1 << 30  # the pair is of a wind
DRAGON_PAIR: Final = 1 << 31  # the pair is of a dragon
# Counts read as features: at least n concealed pungs / kongs (index n).
_CONCEALED_AT_LEAST: Final = (0, 0, TWO_CONCEALED, TWO_CONCEALED | THREE_CONCEALED,
                              TWO_CONCEALED | THREE_CONCEALED | FOUR_CONCEALED)
_KONGS_AT_LEAST: Final = (0, KONGS, KONGS | TWO_KONGS, KONGS | TWO_KONGS | THREE_KONGS,
                          KONGS | TWO_KONGS | THREE_KONGS | FOUR_KONGS)


def _set_traits(kind: SetKind, f: int) -> tuple[int, int, int, int]:
    """(holds a terminal or honour, holds a 5, is an even pung or pair, feature bits) of one set."""
    if is_honor(f):
        if kind in (SetKind.PUNG, SetKind.KONG):
            return 1, 0, 0, PUNGS | (DRAGON_PUNG if f in DRAGONS else WIND_PUNG | TERMINAL_PUNG)
        return 1, 0, 0, 0
    r = rank_of(f)
    if kind == SetKind.CHOW:  # by its lowest tile
        return int(r in (1, 7)), int(r in (3, 4, 5)), 0, 0
    feats = 0
    if kind in (SetKind.PUNG, SetKind.KONG):
        feats = PUNGS | (TERMINAL_PUNG if r in (1, 9) else 0)
    return int(r in (1, 9)), int(r == 5), int(r % 2 == 0 and r != 5 and r not in (1, 9)), feats


# kind -> tile -> traits, indexed rather than recomputed for every set. The three counts are packed
# into one int (8 bits each: at most 14 sets), so a set costs one addition; features are or-ed.
_TRAITS: Final[list[list[tuple[int, int]]]] = [[] for _ in range(5)]
for _k in SetKind:
    for _f in range(NUM_KINDS):
        _o, _v, _e, _feats = _set_traits(_k, _f)
        _TRAITS[_k].append((_o | _v << 8 | _e << 16, _feats))


class SetFacts:
    """One decomposition, split into the families the predicates look at, in one pass."""

    __slots__ = ("decomposition", "chows", "pungs", "pair", "pair_index", "win_index", "win_offset",
                 "concealed_pungs", "melded_kongs", "concealed_kongs", "outside", "fives", "evens",
                 "features", "all_sets", "wait")

    def __init__(self, d: Decomposition, h: HandFacts) -> None:
        chows: list[tuple[int, int]] = []  # (first tile, set index)
        pungs: list[Pung] = []
        pair = pair_index = win_index = win_offset = None
        concealed_pungs = melded_kongs = concealed_kongs = 0
        packed = 0  # sets holding a terminal/honour, a 5, even pungs/pair (packed, see _TRAITS)
        features = h.features
        self_drawn = h.self_drawn
        traits = _TRAITS
        win_kind = 0
        for i, s in enumerate(d.sets):
            f = s.first
            k = kind_number(s.kind)
            counted, feats = traits[k][f]
            packed += counted
            features |= feats
            if s.win_offset is not None and s.meld_index is None:
                win_index, win_offset, win_kind = i, s.win_offset, k
            if k == _CHOW:
                chows.append((f, i))
            elif k == _PAIR:
                pair, pair_index = f, i
            else:
                declared = s.meld_index is not None
                concealed = s.concealed
                # A concealed pung completed by a discard is an exposed pung.
                if concealed and not declared and s.win_offset is not None and not self_drawn:
                    concealed = False
                if concealed:
                    concealed_pungs += 1
                if k == _KONG:
                    pungs.append(Pung(f, i, True, concealed, declared))
                    if s.concealed:
                        concealed_kongs += 1
                    else:
                        melded_kongs += 1
                else:
                    pungs.append(Pung(f, i, False, concealed, declared))
        outside, fives, evens = packed & 0xFF, packed >> 8 & 0xFF, packed >> 16
        n = len(d.sets)
        shape = d.kind
        if shape == ShapeKind.STANDARD:
            features |= STANDARD
        else:
            features |= SPECIAL | _SHAPE_FEATURES.get(shape, 0)
        if not pungs:
            features |= NO_PUNGS
        else:
            if len(pungs) == 4:
                features |= FOUR_PUNGS
            features |= _CONCEALED_AT_LEAST[concealed_pungs] | _KONGS_AT_LEAST[melded_kongs + concealed_kongs]
            if melded_kongs:
                features |= MELDED_KONGS
            if concealed_kongs:
                features |= CONCEALED_KONGS
        if pair is not None and is_honor(pair):
            features |= DRAGON_PAIR if pair in DRAGONS else WIND_PAIR
        if len(chows) == 4:
            features |= FOUR_CHOWS
            if outside - (pair is not None and is_terminal_or_honor(pair)) == 4:
                features |= TERMINAL_CHOWS
        if win_index is not None:
            if win_kind == _PAIR:
                features |= WIN_IN_PAIR
            elif win_kind == _CHOW:
                if win_offset == 1:
                    features |= WIN_CLOSED
                elif offset_in_suit(d.sets[win_index].first) == (6 if win_offset == 0 else 0):
                    features |= WIN_EDGE
        if outside == n:
            features |= ALL_OUTSIDE
        if fives == n:
            features |= ALL_FIVES
        if evens == n:
            features |= ALL_EVEN
        self.decomposition = d
        self.chows = chows
        self.pungs = pungs
        self.pair: int | None = pair  # pair tile
        self.pair_index: int | None = pair_index
        self.win_index: int | None = win_index  # set holding the winning tile, if a concealed set does
        self.win_offset: int | None = win_offset
        self.concealed_pungs = concealed_pungs  # concealed pungs and concealed kongs
        self.melded_kongs = melded_kongs
        self.concealed_kongs = concealed_kongs
        self.outside = outside
        self.fives = fives
        self.evens = evens
        self.features = features
        self.all_sets = _RANGES[n]
        self.wait: int | None = None  # the wait fan, once predicates._wait_kind has looked

    @property
    def standard(self) -> bool:
        return self.decomposition.kind == ShapeKind.STANDARD


_SHAPE_FEATURES: Final[dict[ShapeKind, int]] = {ShapeKind.SEVEN_PAIRS: SEVEN_PAIRS_SHAPE,
                                                 ShapeKind.THIRTEEN_ORPHANS: ORPHANS_SHAPE,
                                                 ShapeKind.HONORS_KNITTED: HONORS_KNITTED_SHAPE}
_RANGES: Final = tuple(tuple(range(n)) for n in range(15))


def set_facts(d: Decomposition, h: HandFacts) -> SetFacts:
    return SetFacts(d, h)

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("mcr.facts", _STATUS=_STATUS, _TRAITS=_TRAITS, _SHAPE_FEATURES=_SHAPE_FEATURES)
