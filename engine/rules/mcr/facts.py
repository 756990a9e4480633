"""Facts the fan predicates read, computed once: per hand (`HandFacts`, `TileFacts`, `Situation`) and
per decomposition (`SetFacts`).

Predicates never walk tiles themselves when a fact here answers the question, so scoring a
decomposition costs a few attribute reads per fan. Each `SetFacts` also carries `features`, a
bitmask of cheap necessary conditions (is there a pung, a kong, a wind pung, ...) computed in the
same single pass over the sets: a set fan declares the features it needs and is only asked when
they are present (see predicates.set_fan).

The memo tables here (`tile_facts`, the per-suit wait tables) are keyed on small values that recur
across different hands (a presence mask, one suit's nine counts); they hold no per-request state.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from engine.hand import Hand, MeldKind, WinContext
from engine.shapes import COMPLETE_SUITS, Decomposition, SetKind, ShapeKind, suit_splits
from engine.tiles import NUM_KINDS

# Tiles whose faces look the same upside down (推不倒): dots 1234589, bamboo 245689, white.
REVERSIBLE = frozenset([9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33])
# All Green (绿一色): bamboo 2 3 4 6 8 and the green dragon.
GREEN = frozenset([19, 20, 21, 23, 25, 32])
WIND_TILES = (27, 28, 29, 30)
DRAGON_TILES = (31, 32, 33)


def suit(t: int) -> int:
    return t // 9 if t < 27 else 3


def rank(t: int) -> int:
    """1-9 for suited tiles, 0 for honours."""
    return t % 9 + 1 if t < 27 else 0


def is_terminal_or_honor(t: int) -> bool:
    return t >= 27 or t % 9 in (0, 8)


def mask_of(tiles: frozenset[int] | tuple[int, ...]) -> int:
    """Bit t set for each tile kind t."""
    return sum(1 << t for t in set(tiles))


SUIT_MASK = 0x1FF  # the nine ranks of one suit
SUITED = (1 << 27) - 1
REVERSIBLE_MASK = mask_of(REVERSIBLE)
GREEN_MASK = mask_of(GREEN)
TERMINAL_RANKS = 0b100000001  # ranks 1 and 9, as bits 0 and 8 of a rank mask


def ranks_mask(ranks: tuple[int, ...]) -> int:
    """Rank mask (bit r-1 for rank r)."""
    return sum(1 << (r - 1) for r in ranks)


class TileFacts(NamedTuple):
    """Which kinds the hand holds, and what follows from that alone (memoized on the mask)."""

    present: int  # bit t for each kind held (declared melds included)
    suits_absent: int  # how many of the three suits are missing
    honors: bool
    winds: bool
    dragons: bool
    rank_union: int  # rank mask over all suits (bit r-1 for rank r)
    suited_kinds: int  # how many suited kinds are held


@lru_cache(maxsize=65536)
def tile_facts(present: int) -> TileFacts:
    suit_masks = [(present >> base) & SUIT_MASK for base in (0, 9, 18)]
    return TileFacts(
        present=present,
        suits_absent=suit_masks.count(0),
        honors=bool(present >> 27),
        winds=bool((present >> 27) & 0xF),
        dragons=bool(present >> 31),
        rank_union=suit_masks[0] | suit_masks[1] | suit_masks[2],
        suited_kinds=(present & SUITED).bit_count(),
    )


class Situation(NamedTuple):
    """The circumstances of the win that situational fans read (a small key, memoized on)."""

    self_drawn: bool
    last_of_kind: bool
    last_wall_tile: bool
    replacement_tile: bool
    robbing_kong: bool
    melded_sets: int  # declared melds other than concealed kongs


class HandFacts:
    """What does not depend on how the hand is split."""

    __slots__ = ("hand", "ctx", "win", "counts", "standing", "tiles", "situation", "n_melds", "n_kongs",
                 "self_drawn", "_unique_wait")

    def __init__(self, hand: Hand, ctx: WinContext) -> None:
        win = hand.winning_tile
        assert win is not None
        standing = [0] * NUM_KINDS
        for t in hand.concealed:
            standing[t] += 1
        counts = standing[:]
        counts[win] += 1
        n_kongs = melded = in_melds = 0
        for m in hand.melds:
            for t in m.tiles:
                counts[t] += 1
            if m.kind == MeldKind.KONG:
                n_kongs += 1
                if not m.concealed:
                    melded += 1
            else:
                melded += 1
            if m.tiles[0] <= win <= m.tiles[-1]:
                in_melds += m.tiles.count(win)
        present = 0
        for t, c in enumerate(counts):
            if c:
                present |= 1 << t
        self.hand = hand
        self.ctx = ctx
        self.win = win
        self.counts = counts  # every tile of the hand, a kong counting 4
        self.standing = standing  # concealed tiles without the winning tile
        self.tiles = tile_facts(present)
        self.n_melds = len(hand.melds)
        self.n_kongs = n_kongs
        self.self_drawn = ctx.self_drawn
        self.situation = Situation(
            ctx.self_drawn,
            # The other three copies shown in one's own melds make the winning tile the last of its
            # kind whatever the flag says (the rule counts exposed tiles, and these are exposed).
            (ctx.last_of_kind or in_melds == 3) and not ctx.robbing_kong,
            ctx.last_wall_tile,
            ctx.replacement_tile,
            ctx.robbing_kong,
            melded,
        )
        self._unique_wait: bool | None = None

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
            self._unique_wait = _single_wait(self.standing, self.n_melds == 0)
        return self._unique_wait


def hand_facts(hand: Hand, ctx: WinContext) -> HandFacts:
    return HandFacts(hand, ctx)


# ---------------------------------------------------------------- the single-wait question

def _seven_pairs_wait(counts: list[int]) -> int | None:
    pairs = 0
    for c in counts:
        if c in (2, 3):
            pairs += 1
        elif c == 4:
            pairs += 2
    if pairs != 6:
        return None
    return next((t for t, c in enumerate(counts) if c in (1, 3)), None)


@lru_cache(maxsize=65536)
def _suit_status(key: tuple[int, ...], honors: bool) -> int | None:
    """0: sets only, 1: sets and one pair, None: not complete (a kind may hold five)."""
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
    if n % 3 == 1 or not suit_splits(key):  # type: ignore[arg-type]
        return None
    return n % 3 // 2


@lru_cache(maxsize=65536)
def _suit_waits(key: tuple[int, ...], honors: bool) -> tuple[tuple[int, int], ...]:
    """(offset, status) for each kind of the suit whose one more copy makes the suit complete."""
    out = []
    for r in range(len(key)):
        grown = key[:r] + (key[r] + 1,) + key[r + 1:]
        v = _suit_status(grown, honors)
        if v is not None:
            out.append((r, v))
    return tuple(out)


_BLOCKS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


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
    keys = [tuple(standing[lo:hi]) for lo, hi, _ in _BLOCKS]
    status = [_suit_status(k, honors) for k, (_, _, honors) in zip(keys, _BLOCKS, strict=True)]
    open_blocks = [i for i, v in enumerate(status) if v is None]
    if not open_blocks:  # every suit complete but two pairs: either pair may become a pung
        open_blocks = [i for i, v in enumerate(status) if v]
    elif len(open_blocks) > 1:
        open_blocks = []
    for b in open_blocks:
        lo, _, honors = _BLOCKS[b]
        pairs_elsewhere = sum(v for i, v in enumerate(status) if i != b and v)
        for r, v in _suit_waits(keys[b], honors):
            if v + pairs_elsewhere == 1:
                waits.add(lo + r)
                if len(waits) > 1:
                    return False
    return len(waits) == 1


# ---------------------------------------------------------------- one decomposition

class Pung(NamedTuple):
    tile: int
    index: int  # into Decomposition.sets
    kong: bool
    concealed: bool  # counts as a concealed pung (a pung finished by a discard does not)
    declared: bool  # a declared meld


# Feature bits of a decomposition (necessary conditions that set fans declare they need).
STANDARD = 1 << 0
SPECIAL = 1 << 1  # any shape but standard
PUNGS = 1 << 2  # at least one pung or kong
KONGS = 1 << 3
WIND_PUNG = 1 << 4
DRAGON_PUNG = 1 << 5
TERMINAL_PUNG = 1 << 6  # a pung of terminals or winds
TWO_CONCEALED = 1 << 7  # at least two concealed pungs
NO_PUNGS = 1 << 8
FOUR_CHOWS = 1 << 9
WIN_IN_HAND = 1 << 10  # a concealed set holds the winning tile
NO_MELDS = 1 << 11
FOUR_PUNGS = 1 << 12


class SetFacts:
    """One decomposition, split into the families the predicates look at, in one pass."""

    __slots__ = ("decomposition", "chows", "pungs", "pair", "pair_index", "win_index", "win_offset",
                 "concealed_pungs", "melded_kongs", "concealed_kongs", "outside", "fives", "evens",
                 "features", "all_sets")

    def __init__(self, d: Decomposition, h: HandFacts) -> None:
        chows: list[tuple[int, int]] = []  # (first tile, set index)
        pungs: list[Pung] = []
        pair = pair_index = win_index = win_offset = None
        concealed_pungs = melded_kongs = concealed_kongs = 0
        outside = fives = evens = 0  # sets holding a terminal/honour, a 5, even pungs/pair
        features = 0
        self_drawn = h.self_drawn
        for i, s in enumerate(d.sets):
            f = s.first
            k = s.kind
            declared = s.meld_index is not None
            if s.win_offset is not None and not declared:
                win_index, win_offset = i, s.win_offset
            if f >= 27:
                outside += 1
            else:
                r = f % 9 + 1
                if k == SetKind.CHOW:  # by its lowest tile
                    if r in (1, 7):
                        outside += 1
                    elif r in (3, 4, 5):
                        fives += 1
                elif r in (1, 9):
                    outside += 1
                elif r == 5:
                    fives += 1
                elif r % 2 == 0:
                    evens += 1
            if k == SetKind.CHOW:
                chows.append((f, i))
            elif k == SetKind.PAIR:
                pair, pair_index = f, i
            else:
                concealed = s.concealed
                # A concealed pung completed by a discard is an exposed pung.
                if concealed and not declared and s.win_offset is not None and not self_drawn:
                    concealed = False
                is_kong = k == SetKind.KONG
                pungs.append(Pung(f, i, is_kong, concealed, declared))
                if concealed:
                    concealed_pungs += 1
                if is_kong:
                    if s.concealed:
                        concealed_kongs += 1
                    else:
                        melded_kongs += 1
                    features |= KONGS
                if f >= 31:
                    features |= DRAGON_PUNG
                elif f >= 27:
                    features |= WIND_PUNG | TERMINAL_PUNG
                elif f % 9 in (0, 8):
                    features |= TERMINAL_PUNG
        features |= STANDARD if d.kind == ShapeKind.STANDARD else SPECIAL
        features |= PUNGS if pungs else NO_PUNGS
        if concealed_pungs >= 2:
            features |= TWO_CONCEALED
        if len(chows) == 4:
            features |= FOUR_CHOWS
        if len(pungs) == 4:
            features |= FOUR_PUNGS
        if win_index is not None:
            features |= WIN_IN_HAND
        if not h.n_melds:
            features |= NO_MELDS
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
        self.all_sets = tuple(range(len(d.sets)))

    @property
    def standard(self) -> bool:
        return self.decomposition.kind == ShapeKind.STANDARD


def set_facts(d: Decomposition, h: HandFacts) -> SetFacts:
    return SetFacts(d, h)
