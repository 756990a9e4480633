"""What the Hong Kong predicates look at: one decomposition of a winning hand and its situation.

Everything a predicate needs is computed here, eagerly and once: `HandFacts` once per evaluation (the
tiles, the flowers, the situation), `Facts` once per decomposition (its sets by kind), so each predicate in
`predicates.py` stays a line. Set indices point into `Decomposition.sets` (declared melds first, then the
concealed sets, the pair last); thirteen orphans has no sets.
"""

from __future__ import annotations

from engine.hand import Flower, Hand, WinContext
from engine.shapes import Decomposition, SetKind, ShapeKind, TileSet
from engine.tiles import DRAGONS, EAST, NUM_KINDS, WINDS, is_honor, is_suited, is_terminal, suit_of

_DRAGONS = frozenset(DRAGONS)
_WINDS = frozenset(WINDS)


class HandFacts:
    """The facts of one evaluation that every decomposition shares."""

    __slots__ = ("hand", "ctx", "win", "counts", "kinds", "suits", "has_honours", "all_honours", "all_terminals",
                 "orphans_only", "concealed_hand", "seat_wind_tile", "prevalent_wind_tile", "no_flowers",
                 "seat_flowers", "flower_groups")

    def __init__(self, hand: Hand, ctx: WinContext, flowers_played: bool) -> None:
        assert hand.winning_tile is not None
        self.hand = hand
        self.ctx = ctx
        self.win: int = hand.winning_tile
        self.counts: list[int] = hand.counts()
        self.kinds: tuple[int, ...] = tuple([t for t in range(NUM_KINDS) if self.counts[t]])
        self.suits: frozenset[int] = frozenset(suit_of(t) for t in self.kinds if is_suited(t))
        self.has_honours: bool = is_honor(self.kinds[-1])
        self.all_honours: bool = is_honor(self.kinds[0])
        self.all_terminals: bool = all(is_terminal(t) for t in self.kinds)
        self.orphans_only: bool = all(is_honor(t) or is_terminal(t) for t in self.kinds)
        self.concealed_hand: bool = all(m.concealed for m in hand.melds)  # 门前清: concealed kongs allowed
        self.seat_wind_tile: int = EAST + int(ctx.seat_wind)
        self.prevalent_wind_tile: int = EAST + int(ctx.prevalent_wind)
        held = ctx.flower_tiles
        self.no_flowers: bool = flowers_played and not held
        # (all four flowers, all four seasons); a complete group scores as one, its seat flower not again
        groups = (all(Flower(n) in held for n in range(4)), all(Flower(n) in held for n in range(4, 8)))
        self.flower_groups: int = groups[0] + groups[1]
        self.seat_flowers: int = sum(1 for f in held if f.seat == ctx.seat_wind and not groups[int(f.is_season)])


class Facts:
    """One decomposition seen through the Hong Kong table's eyes, with the facts of its hand."""

    __slots__ = ("h", "dec", "sets", "standard", "all_sets", "chows", "pungs", "kongs", "concealed_pungs", "pair",
                 "dragon_pungs", "wind_pungs")

    def __init__(self, h: HandFacts, dec: Decomposition) -> None:
        self.h = h
        self.dec = dec
        sets: tuple[TileSet, ...] = dec.sets
        self.sets = sets
        self.standard: bool = dec.kind == ShapeKind.STANDARD
        self.all_sets: tuple[int, ...] = tuple(range(len(sets)))
        self.chows: tuple[int, ...] = tuple([i for i, s in enumerate(sets) if s.kind == SetKind.CHOW])
        # pungs and kongs (a kong is a pung for every pung fan)
        self.pungs: tuple[int, ...] = tuple([i for i, s in enumerate(sets) if s.kind in (SetKind.PUNG, SetKind.KONG)])
        self.kongs: tuple[int, ...] = tuple([i for i in self.pungs if sets[i].kind == SetKind.KONG])
        # 暗刻: formed in the hand (concealed kongs too); a pung completed by a discard is exposed
        discard = not h.ctx.self_drawn
        self.concealed_pungs: tuple[int, ...] = tuple([
            i for i in self.pungs
            if sets[i].concealed and not (discard and sets[i].kind == SetKind.PUNG and sets[i].win_offset is not None)])
        self.pair: int | None = len(sets) - 1 if self.standard else None
        self.dragon_pungs: tuple[int, ...] = tuple([i for i in self.pungs if sets[i].first in _DRAGONS])
        self.wind_pungs: tuple[int, ...] = tuple([i for i in self.pungs if sets[i].first in _WINDS])

    def first(self, i: int) -> int:
        return self.sets[i].first

    def pungs_of(self, tile: int) -> tuple[int, ...]:
        return tuple([i for i in self.pungs if self.sets[i].first == tile])
