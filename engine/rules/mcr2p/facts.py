"""What the two-player predicates look at: one decomposition of a winning hand, plus its situation.

Everything a predicate needs is computed once per decomposition here, so each predicate in
`fans.py` stays a line or two. Set indices always point into `Decomposition.sets`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from engine.hand import Hand, WinContext
from engine.shapes import Decomposition, SetKind, ShapeKind, TileSet, is_complete_counts
from engine.tiles import DRAGONS, EAST, NUM_KINDS, WINDS, is_terminal_or_honor, to_counts

CHARACTERS = tuple(range(9))
HONOURS = tuple(range(27, 34))
TILE_KINDS = frozenset(CHARACTERS + HONOURS)


def waiting_tiles(hand: Hand, allow_quad_pairs: bool) -> frozenset[int]:
    """Tiles that complete the 13 tiles held before the win (a tile whose four copies are all held is no wait)."""
    counts = to_counts(hand.concealed)
    held = to_counts(hand.concealed)
    for m in hand.melds:
        for t in m.tiles:
            held[t] += 1
    out = set()
    for t in TILE_KINDS:
        if held[t] >= 4:
            continue
        counts[t] += 1
        if is_complete_counts(counts, len(hand.melds), allow_quad_pairs):
            out.add(t)
        counts[t] -= 1
    return frozenset(out)


@dataclass(frozen=True)
class Facts:
    """One decomposition seen through the two-player table's eyes."""

    hand: Hand
    ctx: WinContext
    dec: Decomposition
    waits: frozenset[int]

    @property
    def sets(self) -> tuple[TileSet, ...]:
        return self.dec.sets

    @property
    def win(self) -> int:
        assert self.hand.winning_tile is not None
        return self.hand.winning_tile

    @property
    def standard(self) -> bool:
        return self.dec.kind == ShapeKind.STANDARD

    @property
    def seven_pairs(self) -> bool:
        return self.dec.kind == ShapeKind.SEVEN_PAIRS

    @cached_property
    def all_sets(self) -> tuple[int, ...]:
        return tuple(range(len(self.sets)))

    @cached_property
    def counts(self) -> list[int]:
        """Copies of each kind over the whole hand (a kong counts four)."""
        return self.hand.counts()

    @cached_property
    def kinds(self) -> tuple[int, ...]:
        return tuple(t for t in range(NUM_KINDS) if self.counts[t])

    @cached_property
    def chows(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.sets) if s.kind == SetKind.CHOW)

    @cached_property
    def pungs(self) -> tuple[int, ...]:
        """Pungs and kongs (a kong is a pung for every pung fan)."""
        return tuple(i for i, s in enumerate(self.sets) if s.is_pung_like)

    @cached_property
    def kongs(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.sets) if s.kind == SetKind.KONG)

    @cached_property
    def concealed_kongs(self) -> tuple[int, ...]:
        return tuple(i for i in self.kongs if self.sets[i].concealed)

    @cached_property
    def melded_kongs(self) -> tuple[int, ...]:
        return tuple(i for i in self.kongs if not self.sets[i].concealed)

    @cached_property
    def concealed_pungs(self) -> tuple[int, ...]:
        """暗刻: concealed pungs and concealed kongs; a pung completed by a claimed tile is melded."""
        out = []
        for i in self.pungs:
            s = self.sets[i]
            if not s.concealed:
                continue
            if s.kind == SetKind.PUNG and s.win_offset is not None and not self.ctx.self_drawn:
                continue
            out.append(i)
        return tuple(out)

    @cached_property
    def pair(self) -> int | None:
        """Index of the pair (将) of a standard hand; seven pairs have no single pair."""
        return len(self.sets) - 1 if self.standard else None

    @cached_property
    def claimed_melds(self) -> tuple[int, ...]:
        """Sets claimed from another player: chows, pungs and melded kongs (not concealed kongs)."""
        return tuple(i for i, s in enumerate(self.sets) if s.meld_index is not None and not s.concealed)

    @cached_property
    def win_set(self) -> int | None:
        """The set holding the winning tile in this decomposition."""
        return next((i for i, s in enumerate(self.sets) if s.win_offset is not None), None)

    def first(self, i: int) -> int:
        return self.sets[i].first

    def wind_pungs(self) -> tuple[int, ...]:
        return tuple(i for i in self.pungs if self.first(i) in WINDS)

    def dragon_pungs(self) -> tuple[int, ...]:
        return tuple(i for i in self.pungs if self.first(i) in DRAGONS)

    def terminal_or_honour_pungs(self) -> tuple[int, ...]:
        return tuple(i for i in self.pungs if is_terminal_or_honor(self.first(i)))

    def all_tiles(self, pred: Callable[[int], bool]) -> bool:
        return all(pred(t) for t in self.kinds)

    @property
    def seat_wind_tile(self) -> int:
        return EAST + int(self.ctx.seat_wind)
