"""What the yaku, the fu and the payments look at: one decomposition of a winning hand in its situation.

Computed once per decomposition, so each predicate in `predicates.py` stays a line or two. A pung
completed by a discard counts as an open one (minkou) for fu, sanankou and suuankou, as every rule
book says; a concealed kong is concealed; the hand is closed (menzen) while it has claimed nothing
(concealed kongs keep it closed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.hand import Hand, WinContext
from engine.rules.riichi.options import RiichiOptions
from engine.shapes import Decomposition, SetKind, ShapeKind
from engine.tiles import DRAGONS, EAST, NUM_KINDS, WINDS, is_honor, is_terminal, is_terminal_or_honor

CHOW, PUNG, KONG, PAIR = SetKind.CHOW, SetKind.PUNG, SetKind.KONG, SetKind.PAIR

# The wait a decomposition gives the winning tile.
RYANMEN = "two-sided wait"
KANCHAN = "closed wait"
PENCHAN = "edge wait"
TANKI = "single wait"
SHANPON = "dual pung wait"


@dataclass(frozen=True, slots=True)
class Group:
    """A set of the decomposition as Riichi scores it. `concealed`: formed in the hand and not completed by
    a discard (a ron on a shanpon makes that pung open); `claimed_from`: the seat a declared meld was
    claimed from (engine.hand.ClaimedFrom value, 0 if none)."""

    kind: SetKind
    first: int
    concealed: bool
    meld_index: int | None
    claimed_from: int

    @property
    def pung_like(self) -> bool:
        return self.kind == PUNG or self.kind == KONG

    @property
    def tiles(self) -> tuple[int, ...]:
        f = self.first
        if self.kind == CHOW:
            return (f, f + 1, f + 2)
        return (f,) * (2 if self.kind == PAIR else 3 if self.kind == PUNG else 4)

    @property
    def outside(self) -> bool:
        """Holds a terminal or an honour."""
        return is_terminal_or_honor(self.first) or (self.kind == CHOW and is_terminal(self.first + 2))

    @property
    def terminal(self) -> bool:
        """Holds a terminal (1 or 9)."""
        return is_terminal(self.first) or (self.kind == CHOW and is_terminal(self.first + 2))


@dataclass
class Facts:
    hand: Hand
    ctx: WinContext
    options: RiichiOptions
    dec: Decomposition
    counts: list[int]  # every tile of the hand, melds and winning tile
    closed: bool  # nothing claimed (concealed kongs allowed)
    win: int
    groups: list[Group] = field(default_factory=list)
    wait: str = ""

    @property
    def standard(self) -> bool:
        return self.dec.kind == ShapeKind.STANDARD

    @property
    def seven_pairs(self) -> bool:
        return self.dec.kind == ShapeKind.SEVEN_PAIRS

    @property
    def thirteen_orphans(self) -> bool:
        return self.dec.kind == ShapeKind.THIRTEEN_ORPHANS

    @property
    def seat_tile(self) -> int:
        return EAST + int(self.ctx.seat_wind)

    @property
    def round_tile(self) -> int:
        return EAST + int(self.ctx.prevalent_wind)

    @property
    def kinds(self) -> list[int]:
        return [t for t in range(NUM_KINDS) if self.counts[t]]

    def all_tiles(self, pred: object) -> bool:
        return all(pred(t) for t in range(NUM_KINDS) if self.counts[t])  # type: ignore[operator]

    @property
    def chows(self) -> list[Group]:
        return [g for g in self.groups if g.kind == CHOW]

    @property
    def pungs(self) -> list[Group]:
        """Pungs and kongs."""
        return [g for g in self.groups if g.pung_like]

    @property
    def kongs(self) -> list[Group]:
        return [g for g in self.groups if g.kind == KONG]

    @property
    def concealed_pungs(self) -> list[Group]:
        return [g for g in self.groups if g.pung_like and g.concealed]

    @property
    def pair(self) -> Group | None:
        return self.groups[-1] if self.standard and self.groups and self.groups[-1].kind == PAIR else None

    def value_pair_fu(self) -> int:
        """Fu of the pair: a dragon 2, the seat wind 2, the round wind 2 (both: the option's 2 or 4)."""
        p = self.pair
        if p is None:
            return 0
        t = p.first
        if t in DRAGONS:
            return 2
        fu = 0
        if t == self.seat_tile and t == self.round_tile:
            return self.options.double_wind_pair_fu
        if t == self.seat_tile or t == self.round_tile:
            fu = 2
        return fu

    def is_value_tile(self, t: int) -> bool:
        return t in DRAGONS or t == self.seat_tile or t == self.round_tile


def wait_of(dec: Decomposition, win: int) -> tuple[str, int | None]:
    """The wait this decomposition gives the winning tile, and the index of the set holding it."""
    for i, s in enumerate(dec.sets):
        if s.win_offset is None or s.meld_index is not None:
            continue
        if s.kind == PAIR:
            return TANKI, i
        if s.kind == PUNG:
            return SHANPON, i
        if s.kind == CHOW:
            rank = s.first % 9
            if s.win_offset == 1:
                return KANCHAN, i
            if (s.win_offset == 2 and rank == 0) or (s.win_offset == 0 and rank == 6):
                return PENCHAN, i
            return RYANMEN, i
    return "", None


def make_facts(hand: Hand, ctx: WinContext, options: RiichiOptions, dec: Decomposition,
               counts: list[int], closed: bool) -> Facts:
    win = hand.winning_tile
    assert win is not None
    f = Facts(hand, ctx, options, dec, counts, closed, win)
    if dec.kind == ShapeKind.THIRTEEN_ORPHANS:
        return f
    wait, at = wait_of(dec, win)
    f.wait = wait
    melds = hand.melds
    groups = []
    for i, s in enumerate(dec.sets):
        concealed = s.concealed
        if i == at and s.kind == PUNG and not ctx.self_drawn:
            concealed = False  # completed by the discard: an open pung
        claimed = int(melds[s.meld_index].claimed_from) if s.meld_index is not None else 0
        groups.append(Group(s.kind, s.first, concealed, s.meld_index, claimed))
    f.groups = groups
    return f


def honour(t: int) -> bool:
    return is_honor(t)


WIND_TILES = frozenset(WINDS)
DRAGON_TILES = frozenset(DRAGONS)
