"""What the yaku, the fu and the payments look at, computed once: per hand (`TileFacts`, the tiles held,
whatever the split) and per decomposition (`Facts`, the sets and the wait).

A pung completed by a discard counts as an open one (minkou) for fu, sanankou and suuankou, as every rule
book says; a concealed kong is concealed; the hand is closed (menzen) while it has claimed nothing
(concealed kongs keep it closed). Compiled with mypyc (setup.py COMPILED): plain classes, ints and lists.
"""

from __future__ import annotations

from typing import Final

from engine import tile_kinds as K
from engine.hand import ClaimedFrom, Hand, WinContext, Wind
from engine.rules.riichi.options import RiichiOptions
from engine.shapes import CHOW_NUMBER as CHOW
from engine.shapes import KONG_NUMBER as KONG
from engine.shapes import PAIR_NUMBER as PAIR
from engine.shapes import Decomposition, ShapeKind, kind_number
from engine.tile_kinds import (
    EAST,
    is_dragon,
    is_honor,
    is_suited,
    is_terminal,
    is_terminal_or_honor,
    is_wind,
    offset_in_suit,
)

# The wait a decomposition gives the winning tile.
RYANMEN: Final = "two-sided wait"
KANCHAN: Final = "closed wait"
PENCHAN: Final = "edge wait"
TANKI: Final = "single wait"
SHANPON: Final = "dual pung wait"

# Tile classes as bit masks over the 34 kinds.
HONOURS: Final = sum(1 << t for t in K.HONORS)
TERMINALS: Final = sum(1 << t for t in K.TERMINALS)
OUTSIDE: Final = HONOURS | TERMINALS
GREEN_TILES: Final = sum(1 << t for t in K.ALL_GREEN)
DRAGONS: Final = sum(1 << t for t in K.DRAGONS)
WINDS: Final = sum(1 << t for t in K.WINDS)
SUIT_MASK: Final = (1 << 9) - 1


# What a yaku needs before its predicate is asked: bits of `Facts.have`. Each predicate in predicates.py
# declares the bits without which it cannot hold (a necessary condition, never a sufficient one), so a
# decomposition asks only the few predicates that can hold; tests/unit/test_riichi.py checks on generated and
# majiang-core hands that no predicate ever holds without its bits.
# - the situation (per hand, from the context)
SELF_DRAWN: Final = 1 << 0
RIICHI_SET: Final = 1 << 1  # ctx.riichi
DOUBLE_RIICHI_SET: Final = 1 << 2
IPPATSU_SET: Final = 1 << 3
ROBBING_KONG: Final = 1 << 4
REPLACEMENT_TILE: Final = 1 << 5
LAST_TILE: Final = 1 << 6
HEAVENLY: Final = 1 << 7
EARTHLY: Final = 1 << 8
# - the tiles (per hand)
CLOSED: Final = 1 << 9
ONE_SUIT: Final = 1 << 10  # tiles of one suit (honours aside)
HONOURS_HELD: Final = 1 << 11
NO_SIMPLES: Final = 1 << 12  # only terminals and honours
NO_OUTSIDE: Final = 1 << 13  # no terminal and no honour
ONLY_GREEN: Final = 1 << 14
# - the sets (per decomposition)
CHOWS_2: Final = 1 << 15  # at least two chows
CHOWS_3: Final = 1 << 16
CHOWS_4: Final = 1 << 17
PUNGS_3: Final = 1 << 18  # at least three pungs or kongs
PUNGS_4: Final = 1 << 19
CONCEALED_PUNGS_3: Final = 1 << 20
KONGS_3: Final = 1 << 21
DRAGON_PUNG: Final = 1 << 22  # at least one
DRAGON_PUNGS_2: Final = 1 << 23
WIND_PUNG: Final = 1 << 24
WIND_PUNGS_3: Final = 1 << 25
ALL_OUTSIDE: Final = 1 << 26  # Facts.all_outside of a standard hand
ALL_TERMINAL: Final = 1 << 27


# The members themselves, so that compiled code tells them apart by identity: int() of an IntEnum would be a
# call through Python.
_STANDARD: Final = ShapeKind.STANDARD
_SEVEN_PAIRS: Final = ShapeKind.SEVEN_PAIRS
_THIRTEEN_ORPHANS: Final = ShapeKind.THIRTEEN_ORPHANS
_EAST_WIND: Final = Wind.EAST
_SOUTH_WIND: Final = Wind.SOUTH
_WEST_WIND: Final = Wind.WEST
_NORTH_WIND: Final = Wind.NORTH


def wind_index(wind: Wind) -> int:
    """A wind as its int (East 0 ... North 3)."""
    if wind is _EAST_WIND:
        return 0
    if wind is _SOUTH_WIND:
        return 1
    if wind is _WEST_WIND:
        return 2
    if wind is _NORTH_WIND:
        return 3
    return int(wind)


_NONE_SIDE: Final = ClaimedFrom.NONE
_LEFT_SIDE: Final = ClaimedFrom.LEFT
_ACROSS_SIDE: Final = ClaimedFrom.ACROSS
_RIGHT_SIDE: Final = ClaimedFrom.RIGHT


def claimed_index(source: ClaimedFrom) -> int:
    """A ClaimedFrom as its int (NONE 0, LEFT 1, ACROSS 2, RIGHT 3)."""
    if source is _NONE_SIDE:
        return 0
    if source is _LEFT_SIDE:
        return 1
    if source is _ACROSS_SIDE:
        return 2
    if source is _RIGHT_SIDE:
        return 3
    return int(source)


def is_outside(t: int) -> bool:
    return is_terminal_or_honor(t)


class TileFacts:
    """The tiles of the whole hand (concealed, melds, winning tile): the same for every decomposition."""

    __slots__ = ("counts", "present", "suits", "honours", "closed", "n_melds", "have", "seat_tile", "round_tile")

    def __init__(self, hand: Hand, ctx: WinContext) -> None:
        counts = [0] * 34
        for t in hand.concealed:
            counts[t] = counts[t] + 1  # not +=: compiled, that is a generic in-place add
        win = hand.winning_tile
        if win is not None:
            counts[win] = counts[win] + 1
        closed = True
        melds = hand.melds
        for m in melds:
            for t in m.tiles:
                counts[t] = counts[t] + 1
            if not m.concealed:
                closed = False
        self.seat_tile: int = EAST + wind_index(ctx.seat_wind)
        self.round_tile: int = EAST + wind_index(ctx.prevalent_wind)
        present = 0
        for t in range(34):
            if counts[t]:
                present |= 1 << t
        self.counts: list[int] = counts
        self.present: int = present  # bit per kind held
        self.suits: int = (1 if present & SUIT_MASK else 0) + (1 if (present >> 9) & SUIT_MASK else 0) + (
            1 if (present >> 18) & SUIT_MASK else 0)
        self.honours: bool = bool(present & HONOURS)
        self.closed: bool = closed
        self.n_melds: int = len(melds)
        have = 0
        if ctx.self_drawn:
            have |= SELF_DRAWN
        if ctx.riichi:
            have |= RIICHI_SET
        if ctx.double_riichi:
            have |= DOUBLE_RIICHI_SET
        if ctx.ippatsu:
            have |= IPPATSU_SET
        if ctx.robbing_kong:
            have |= ROBBING_KONG
        if ctx.replacement_tile:
            have |= REPLACEMENT_TILE
        if ctx.last_wall_tile:
            have |= LAST_TILE
        if ctx.heavenly:
            have |= HEAVENLY
        if ctx.earthly:
            have |= EARTHLY
        if closed:
            have |= CLOSED
        if self.suits == 1:
            have |= ONE_SUIT
        if self.honours:
            have |= HONOURS_HELD
        if not present & ~OUTSIDE:
            have |= NO_SIMPLES
        if not present & OUTSIDE:
            have |= NO_OUTSIDE
        if not present & ~GREEN_TILES:
            have |= ONLY_GREEN
        self.have: int = have  # the bits above that the hand and the situation give


class Facts:
    """One decomposition, with the sets sorted into what the yaku ask about."""

    __slots__ = ("hand", "ctx", "options", "tiles", "dec", "kind", "closed", "win", "wait", "chows", "pungs",
                 "pung_concealed", "pung_kong", "n_kongs", "n_concealed_pungs", "pair", "all_outside",
                 "all_terminal", "seat_tile", "round_tile", "self_drawn", "have")

    def __init__(self, hand: Hand, ctx: WinContext, options: RiichiOptions, tiles: TileFacts,
                 dec: Decomposition) -> None:
        win = hand.winning_tile
        assert win is not None
        self.hand = hand
        self.ctx = ctx
        self.options = options
        self.tiles = tiles
        self.dec = dec
        self.kind: ShapeKind = dec.kind
        self.closed: bool = tiles.closed
        self.win: int = win
        self_drawn: bool = ctx.self_drawn
        self.self_drawn: bool = self_drawn
        self.seat_tile: int = tiles.seat_tile
        self.round_tile: int = tiles.round_tile
        self.wait: str = ""
        self.chows: list[int] = []  # first tiles
        self.pungs: list[int] = []  # first tiles of pungs and kongs, in set order
        self.pung_concealed: list[bool] = []
        self.pung_kong: list[bool] = []
        self.n_kongs: int = 0
        self.n_concealed_pungs: int = 0
        self.pair: int = -1
        self.all_outside: bool = True  # every set and the pair hold a terminal or honour
        self.all_terminal: bool = True  # every set and the pair hold a terminal
        self.have: int = tiles.have  # with the sets' bits below
        if dec.kind is not _STANDARD:
            return
        at = -1
        sets = dec.sets
        kinds = [kind_number(s.kind) for s in sets]
        for i in range(len(sets)):
            s = sets[i]
            offset = s.win_offset
            if offset is not None and s.meld_index is None:
                at = i
                self.wait = _wait(kinds[i], s.first, offset)
                break
        for i in range(len(sets)):
            s = sets[i]
            kind = kinds[i]
            first = s.first
            if kind == CHOW:
                self.chows.append(first)
                r = offset_in_suit(first)
                if r != 0 and r != 6:
                    self.all_outside = False
                    self.all_terminal = False
            elif kind == PAIR:
                self.pair = first
                self._outside_single(first)
            else:
                concealed = s.concealed and not (i == at and not self_drawn)  # a ron makes it open
                self.pungs.append(first)
                self.pung_concealed.append(concealed)
                self.pung_kong.append(kind == KONG)
                if concealed:
                    self.n_concealed_pungs += 1
                if kind == KONG:
                    self.n_kongs += 1
                self._outside_single(first)
        self.have |= self._set_bits()

    def _set_bits(self) -> int:
        have = 0
        n = len(self.chows)
        if n >= 2:
            have |= CHOWS_2 | (CHOWS_3 if n >= 3 else 0) | (CHOWS_4 if n == 4 else 0)
        n = len(self.pungs)
        if n >= 3:
            have |= PUNGS_3 | (PUNGS_4 if n == 4 else 0)
        if self.n_concealed_pungs >= 3:
            have |= CONCEALED_PUNGS_3
        if self.n_kongs >= 3:
            have |= KONGS_3
        dragons = 0
        winds = 0
        for t in self.pungs:
            if is_dragon(t):
                dragons += 1
            elif is_wind(t):
                winds += 1
        if dragons:
            have |= DRAGON_PUNG | (DRAGON_PUNGS_2 if dragons >= 2 else 0)
        if winds:
            have |= WIND_PUNG | (WIND_PUNGS_3 if winds >= 3 else 0)
        if self.all_outside:
            have |= ALL_OUTSIDE
        if self.all_terminal:
            have |= ALL_TERMINAL
        return have

    def _outside_single(self, t: int) -> None:
        if is_honor(t):
            self.all_terminal = False
        elif not is_terminal(t):
            self.all_outside = False
            self.all_terminal = False

    def counts_kong(self, i: int) -> bool:
        """Is the i-th of `pungs` a kong."""
        return self.pung_kong[i]

    @property
    def standard(self) -> bool:
        return self.kind is _STANDARD

    @property
    def seven_pairs(self) -> bool:
        return self.kind is _SEVEN_PAIRS

    @property
    def thirteen_orphans(self) -> bool:
        return self.kind is _THIRTEEN_ORPHANS

    def is_value_tile(self, t: int) -> bool:
        return is_dragon(t) or t == self.seat_tile or t == self.round_tile

    def value_pair_fu(self) -> int:
        """Fu of the pair: a dragon 2, the seat wind 2, the round wind 2 (both: the option's 2 or 4)."""
        t = self.pair
        if is_suited(t):
            return 0
        if is_dragon(t):
            return 2
        if t == self.seat_tile and t == self.round_tile:
            return self.options.double_wind_pair_fu
        if t == self.seat_tile or t == self.round_tile:
            return 2
        return 0


def _wait(kind: int, first: int, offset: int) -> str:
    """The wait of a winning tile at `offset` in a concealed set (kind, first)."""
    if kind == PAIR:
        return TANKI
    if kind == CHOW:
        rank = offset_in_suit(first)
        if offset == 1:
            return KANCHAN
        if (offset == 2 and rank == 0) or (offset == 0 and rank == 6):
            return PENCHAN
        return RYANMEN
    return SHANPON
