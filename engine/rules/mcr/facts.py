"""Facts the fan predicates read, computed once: per hand (`HandFacts`) and per decomposition (`SetFacts`).

Predicates never walk tiles themselves when a fact here answers the question, so scoring a
decomposition costs a few attribute reads per fan.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(slots=True)
class HandFacts:
    """What does not depend on how the hand is split."""

    hand: Hand
    ctx: WinContext
    win: int
    counts: list[int]  # every tile of the hand, a kong counting 4
    standing: list[int]  # concealed tiles without the winning tile
    kinds: tuple[int, ...]  # kinds present
    n_melds: int
    n_kongs: int
    melded_sets: int  # declared melds other than concealed kongs
    self_drawn: bool
    last_of_kind: bool
    _unique_wait: bool | None = None

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


_BLOCKS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def _single_wait(standing: list[int], seven_pairs: bool) -> bool:
    """Exactly one kind completes `standing` (standard shape, plus seven pairs if asked).

    A tile changes one suit only, so the other suits must already be complete: at most one suit
    is open, and only its kinds are tried.
    """
    waits: set[int] = set()
    if seven_pairs:
        w = _seven_pairs_wait(standing)
        if w is not None:
            waits.add(w)
    status = [_suit_status(tuple(standing[lo:hi]), honors) for lo, hi, honors in _BLOCKS]
    open_blocks = [i for i, v in enumerate(status) if v is None]
    if not open_blocks:  # every suit complete but two pairs: either pair may become a pung
        open_blocks = [i for i, v in enumerate(status) if v]
    elif len(open_blocks) > 1:
        open_blocks = []
    counts = standing
    for b in open_blocks:
        lo, hi, honors = _BLOCKS[b]
        pairs_elsewhere = sum(v for i, v in enumerate(status) if i != b and v)
        for t in range(lo, hi):
            if not counts[t] and (honors or not any(
                    0 <= t - lo + d <= 8 and counts[t + d] for d in (-2, -1, 1, 2))):
                continue
            counts[t] += 1
            v = _suit_status(tuple(counts[lo:hi]), honors)
            counts[t] -= 1
            if v is not None and v + pairs_elsewhere == 1:
                waits.add(t)
                if len(waits) > 1:
                    return False
    return len(waits) == 1


def hand_facts(hand: Hand, ctx: WinContext) -> HandFacts:
    win = hand.winning_tile
    assert win is not None
    counts = hand.counts()
    standing = [0] * NUM_KINDS
    for t in hand.concealed:
        standing[t] += 1
    n_kongs = sum(1 for m in hand.melds if m.kind == MeldKind.KONG)
    melded = sum(1 for m in hand.melds if not (m.kind == MeldKind.KONG and m.concealed))
    in_melds = sum(m.tiles.count(win) for m in hand.melds)
    return HandFacts(
        hand=hand,
        ctx=ctx,
        win=win,
        counts=counts,
        standing=standing,
        kinds=tuple(t for t in range(NUM_KINDS) if counts[t]),
        n_melds=len(hand.melds),
        n_kongs=n_kongs,
        melded_sets=melded,
        self_drawn=ctx.self_drawn,
        # The other three copies shown in one's own melds make the winning tile the last of its
        # kind whatever the flag says (the rule counts exposed tiles, and these are exposed).
        last_of_kind=(ctx.last_of_kind or in_melds == 3) and not ctx.robbing_kong,
    )


@dataclass(slots=True)
class Pung:
    tile: int
    index: int  # into Decomposition.sets
    kong: bool
    concealed: bool  # counts as a concealed pung (a pung finished by a discard does not)
    declared: bool  # a declared meld


@dataclass(slots=True)
class SetFacts:
    """One decomposition, split into the families the predicates look at."""

    decomposition: Decomposition
    chows: list[tuple[int, int]]  # (first tile, set index)
    pungs: list[Pung]
    pair: int | None  # pair tile
    pair_index: int | None
    win_index: int | None  # set holding the winning tile, if a concealed set does
    win_offset: int | None
    concealed_pungs: int  # concealed pungs and concealed kongs
    melded_kongs: int
    concealed_kongs: int

    @property
    def standard(self) -> bool:
        return self.decomposition.kind == ShapeKind.STANDARD


def set_facts(d: Decomposition, h: HandFacts) -> SetFacts:
    chows: list[tuple[int, int]] = []
    pungs: list[Pung] = []
    pair = pair_index = win_index = win_offset = None
    concealed_pungs = melded_kongs = concealed_kongs = 0
    for i, s in enumerate(d.sets):
        if s.win_offset is not None and s.meld_index is None:
            win_index, win_offset = i, s.win_offset
        k = s.kind
        if k == SetKind.CHOW:
            chows.append((s.first, i))
        elif k == SetKind.PAIR:
            pair, pair_index = s.first, i
        else:
            declared = s.meld_index is not None
            concealed = s.concealed
            # A concealed pung completed by a discard is an exposed pung.
            if concealed and not declared and s.win_offset is not None and not h.self_drawn:
                concealed = False
            is_kong = k == SetKind.KONG
            pungs.append(Pung(s.first, i, is_kong, concealed, declared))
            if concealed:
                concealed_pungs += 1
            if is_kong:
                if s.concealed:
                    concealed_kongs += 1
                else:
                    melded_kongs += 1
    return SetFacts(d, chows, pungs, pair, pair_index, win_index, win_offset, concealed_pungs,
                    melded_kongs, concealed_kongs)
