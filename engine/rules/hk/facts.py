"""What the Hong Kong predicates look at: one decomposition of a winning hand and its situation.

Everything a predicate needs is computed once per decomposition here, so each predicate in
`fans.py` stays a line. Set indices point into `Decomposition.sets` (declared melds first, then the
concealed sets, the pair last); thirteen orphans has no sets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from engine.hand import Flower, Hand, WinContext
from engine.shapes import Decomposition, SetKind, ShapeKind, TileSet
from engine.tiles import DRAGONS, EAST, NUM_KINDS, WINDS, is_honor, is_terminal, suit_of


@dataclass(frozen=True)
class Facts:
    """One decomposition seen through the Hong Kong table's eyes."""

    hand: Hand
    ctx: WinContext
    dec: Decomposition
    flowers_played: bool  # HkOptions.flowers: the game uses the eight flower tiles

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
    def suits(self) -> frozenset[int]:
        """The suits (0-2) among the hand's tiles; honours are not a suit."""
        return frozenset(suit_of(t) for t in self.kinds if not is_honor(t))

    @cached_property
    def has_honours(self) -> bool:
        return any(is_honor(t) for t in self.kinds)

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
    def concealed_pungs(self) -> tuple[int, ...]:
        """暗刻: pungs formed in the hand and concealed kongs; a pung completed by a discard is exposed."""
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
        return len(self.sets) - 1 if self.standard else None

    @cached_property
    def concealed_hand(self) -> bool:
        """门前清: nothing claimed from another player (concealed kongs allowed)."""
        return all(m.concealed for m in self.hand.melds)

    def first(self, i: int) -> int:
        return self.sets[i].first

    def pungs_of(self, tiles: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(i for i in self.pungs if self.first(i) in tiles)

    @property
    def seat_wind_tile(self) -> int:
        return EAST + int(self.ctx.seat_wind)

    @property
    def prevalent_wind_tile(self) -> int:
        return EAST + int(self.ctx.prevalent_wind)

    @cached_property
    def dragon_pungs(self) -> tuple[int, ...]:
        return self.pungs_of(DRAGONS)

    @cached_property
    def wind_pungs(self) -> tuple[int, ...]:
        return self.pungs_of(WINDS)

    def all_tiles(self, pred: Callable[[int], bool]) -> bool:
        return all(pred(t) for t in self.kinds)

    @cached_property
    def terminals_and_honours_only(self) -> bool:
        return all(is_honor(t) or is_terminal(t) for t in self.kinds)

    # ---- flowers: flower n of either group is the seat's whose wind is n (East 1 ... North 4)

    @cached_property
    def complete_flower_groups(self) -> tuple[bool, bool]:
        """(all four flowers, all four seasons)."""
        held = set(self.ctx.flower_tiles)
        return (all(Flower(n) in held for n in range(4)), all(Flower(n) in held for n in range(4, 8)))

    @cached_property
    def seat_flowers(self) -> tuple[Flower, ...]:
        """The seat's own flower and season, each outside a complete group (a complete group scores as one)."""
        complete = self.complete_flower_groups
        return tuple(f for f in self.ctx.flower_tiles
                     if f.seat == self.ctx.seat_wind and not complete[int(f.is_season)])
