"""One small rule per fan, each registered under its fan's id with `@fan(Fan.X)` (fans.py: names, points).

Every predicate returns the fan's occurrences (engine.rules.model.Occurrence: the set indices it was
scored on; [] = not there). What it is called with follows from its row in fans.py (`scope`) and its
registration's hints; the dispatch tables scoring reads (`TILES`, `SITUATION`, `SETS`, `COMBOS`) are
derived from the one registry at the end of this module:
- HAND rows, tile fans: only which kinds the hand holds (`TileFacts`, a few bits and a rank mask) ->
  one occurrence or none; answered for every key by the install-time tables (engine.rules.mcr.tables).
- SITUATION rows: only the circumstances of the win (`Situation`) -> one occurrence or none; a table
  built at import.
- SETS rows: one decomposition (`HandFacts`, `SetFacts`) -> each occurrence the tuple of set indices it
  was scored on (several = counted several times). Hint `needs`: the decomposition features (facts.py:
  cheap necessary conditions) that must be present; it is only asked when they are, and it still checks
  everything itself.
- SETS rows registered with `family` ("chow" / "pung") and `arity` (2-4), combination fans: relations
  between two, three or four chows or pungs -> a predicate on their sorted tiles (one occurrence: all of
  them), memoized per tuple of tiles in scoring._matching. Which combinations may be counted together is
  the scoring mechanism's job (scoring.combinations), not the predicates'.
Chicken Hand and Flower Tiles are scored by scoring.py itself (`in_scoring`). Exclusions (不计) are never
written here; they are fans.py's data.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable
from typing import Final

from engine.memo import IntMemo, KeyTable, TabledMemo
from engine.registry import REGISTRY
from engine.rules.mcr import facts as F
from engine.rules.mcr import tables as mcr_tables
from engine.rules.mcr.facts import (
    SUITED_MASK,
    TERMINAL_RANKS,
    HandFacts,
    SetFacts,
    Situation,
    TileFacts,
    ranks_mask,
)
from engine.rules.mcr.fans import TABLE, Fan
from engine.rules.model import Occurrence, Predicates, Scope
from engine.shapes import ShapeKind
from engine.tile_kinds import DRAGONS, WINDS, is_honor, is_suited, is_terminal_or_honor, rank_of, suit_of

PREDICATES: Final = Predicates(TABLE, in_scoring=(Fan.CHICKEN_HAND, Fan.FLOWER_TILES))
fan: Final = PREDICATES.fan

Hits = list[Occurrence]
TileRule = Callable[[TileFacts], Hits]
SituationRule = Callable[[Situation], Hits]
SetRule = Callable[[HandFacts, SetFacts], Hits]
ComboRule = Callable[[tuple[int, ...]], Hits]

# Derived from PREDICATES once every predicate below is registered (`_dispatch`).
TILES: Final[dict[int, TileRule]] = REGISTRY.table("mcr.predicates.tiles", {})
SITUATION: Final[dict[int, SituationRule]] = REGISTRY.table("mcr.predicates.situation", {})
# fan id -> (features needed, rule)
SETS: Final[dict[int, tuple[int, SetRule]]] = REGISTRY.table("mcr.predicates.sets", {})
# family ("chow" / "pung") -> arity -> [(fan id, rule)], in the order they are tried (registration order)
COMBOS: Final[dict[str, dict[int, list[tuple[int, ComboRule]]]]] = {"chow": {2: [], 3: [], 4: []},
                                                                   "pung": {2: [], 3: [], 4: []}}

_NONE: Final[Hits] = REGISTRY.table("mcr.predicates.none", [], frozen=True)
_ONCE: Final[Hits] = [()]  # a tile or situation fan: once, on no particular set (scoring: the whole hand)
_ALL_OF: Final = ((), (0,), (0, 1), (0, 1, 2), (0, 1, 2, 3))  # a combination's sets, by how many


def _once(found: bool) -> Hits:
    return _ONCE if found else _NONE


def _combination(ts: tuple[int, ...], found: bool) -> Hits:
    """A combination fan over the sets of `ts`: one occurrence, all of them."""
    return [_ALL_OF[len(ts)]] if found else _NONE


def _tile_fans(key: int) -> tuple[tuple[int, int], ...]:
    """(fan id, count 1) for each tile fan of the `TileFacts` packed in `key` (facts.tile_key), in id order."""
    tiles = F.tile_facts_of(key)
    return tuple((fid, len(hits)) for fid in sorted(TILES) for hits in (TILES[fid](tiles),) if hits)


def _situation_fans(key: int) -> tuple[tuple[int, int], ...]:
    """(fan id, count 1) for each situational fan of the `Situation` packed in `key`
    (HandFacts.situation_key), in id order."""
    situation = F.situation_of(key)
    return tuple((fid, len(hits)) for fid in sorted(SITUATION) for hits in (SITUATION[fid](situation),) if hits)


def _set_rules_for(features: int) -> tuple[tuple[int, SetRule], ...]:
    """The set fans whose needs a decomposition with these features meets, in registration order (one
    pass over `_SET_NEEDS`, the needs of `_SET_ENTRIES`: built once every set fan is registered)."""
    out: list[tuple[int, SetRule]] = []
    needs = _SET_NEEDS
    for i in range(len(needs)):
        need = needs[i]
        if features & need == need:
            out.append(_SET_ENTRIES[i])
    return tuple(out)


# Read by values many hands share, each with `.get(key)`:
# - `tile_fans.get(HandFacts.tile_key)`: every key (65,536) answered by the install-time tables file
#   (engine.rules.mcr.tables); memoized only in a process without it.
# - `situation_fans.get(HandFacts.situation_key)`: every key (five flags and 0-4 melded sets: 160) answered
#   by a table built at import (`_situation_table`; under a millisecond).
# - `set_rules_for.get(SetFacts.features)`: memoized (a few thousand keys seen): a feature mask has 32
#   bits, far too many for a table, and the decompositions that occur reach only a small, open-ended
#   subset of them (a miss costs one pass over the ~30 set fans' needs).
tile_fans: Final = REGISTRY.add_memo("mcr.predicates.tile_fans", TabledMemo(_tile_fans, mcr_tables.TILE_FAN_TABLE))
set_rules_for: Final = REGISTRY.add_memo("mcr.predicates.set_rules_for", IntMemo(_set_rules_for))


def _situation_table() -> KeyTable[tuple[tuple[int, int], ...]]:
    """`_situation_fans` of every situation key (F.situation_of's five flags and melded sets 0-4)."""
    size = 5 << F._SITUATION_FLAGS
    answers: list[tuple[tuple[int, int], ...]] = []
    numbers: dict[tuple[tuple[int, int], ...], int] = {}
    keys = array("H")
    for key in range(size):
        answer = _situation_fans(key)
        if answer not in numbers:
            numbers[answer] = len(answers)
            answers.append(answer)
        keys.append(numbers[answer])
    # KeyTable reads little-endian words (the tables file's order); an array holds native ones.
    if sys.byteorder != "little":
        keys.byteswap()
    return KeyTable(keys.tobytes(), answers)


def _all(sf: SetFacts) -> tuple[int, ...]:
    return sf.all_sets


# ---------------------------------------------------------------- tiles: colours (suits)

@fan(Fan.FULL_FLUSH)  # Full Flush: one suit, no honours
def full_flush(t: TileFacts) -> Hits:
    return _once(t.suits_absent == 2 and not t.honors)


@fan(Fan.HALF_FLUSH)  # Half Flush: one suit plus honours
def half_flush(t: TileFacts) -> Hits:
    return _once(t.suits_absent == 2 and t.honors)


@fan(Fan.ONE_VOIDED_SUIT)  # One Voided Suit: exactly one of the three suits missing
def one_voided_suit(t: TileFacts) -> Hits:
    return _once(t.suits_absent == 1)


@fan(Fan.NO_HONORS)  # No Honors
def no_honors(t: TileFacts) -> Hits:
    return _once(not t.honors)


@fan(Fan.ALL_TYPES)  # All Types: three suits, a wind and a dragon
def all_types(t: TileFacts) -> Hits:
    return _once(t.suits_absent == 0 and t.winds and t.dragons)


# ---------------------------------------------------------------- tiles: tile kinds

@fan(Fan.ALL_SIMPLES)  # All Simples: no terminal, no honour
def all_simples(t: TileFacts) -> Hits:
    return _once(not t.honors and not t.rank_union & TERMINAL_RANKS)


@fan(Fan.REVERSIBLE_TILES)  # Reversible Tiles
def reversible(t: TileFacts) -> Hits:
    return _once(t.reversible)


@fan(Fan.ALL_GREEN)  # All Green
def all_green(t: TileFacts) -> Hits:
    return _once(t.green)


@fan(Fan.ALL_HONORS)  # All Honors
def all_honors(t: TileFacts) -> Hits:
    return _once(t.suits_absent == 3)


@fan(Fan.ALL_TERMINALS)  # All Terminals: only 1s and 9s
def all_terminals(t: TileFacts) -> Hits:
    return _once(not t.honors and not t.rank_union & ~TERMINAL_RANKS)


@fan(Fan.ALL_TERMINALS_AND_HONORS)  # All Terminals and Honors
def all_terminals_and_honors(t: TileFacts) -> Hits:
    return _once(not t.rank_union & ~TERMINAL_RANKS)


# ---------------------------------------------------------------- tiles: rank ranges

def _ranks_within(t: TileFacts, *ranks: int) -> bool:
    """No honour, and every suited tile has one of `ranks`."""
    return not t.honors and not t.rank_union & ~ranks_mask(ranks)


@fan(Fan.LOWER_TILES)  # Lower Tiles: only 1 2 3
def lower_tiles(t: TileFacts) -> Hits:
    return _once(_ranks_within(t, 1, 2, 3))


@fan(Fan.LOWER_FOUR)  # Lower Four: only 1-4
def lower_four(t: TileFacts) -> Hits:
    return _once(_ranks_within(t, 1, 2, 3, 4))


@fan(Fan.UPPER_TILES)  # Upper Tiles: only 7 8 9
def upper_tiles(t: TileFacts) -> Hits:
    return _once(_ranks_within(t, 7, 8, 9))


@fan(Fan.UPPER_FOUR)  # Upper Four: only 6-9
def upper_four(t: TileFacts) -> Hits:
    return _once(_ranks_within(t, 6, 7, 8, 9))


@fan(Fan.MIDDLE_TILES)  # Middle Tiles: only 4 5 6
def middle_tiles(t: TileFacts) -> Hits:
    return _once(_ranks_within(t, 4, 5, 6))


# ---------------------------------------------------------------- the situation

@fan(Fan.SELF_DRAWN)  # Self-Drawn
def self_drawn(s: Situation) -> Hits:
    return _once(s.self_drawn)


@fan(Fan.LAST_TILE)  # Last Tile (和绝张)
def last_tile(s: Situation) -> Hits:
    return _once(s.last_of_kind)


@fan(Fan.LAST_TILE_DRAW)  # Last Tile Draw (妙手回春): self-drawn last tile of the wall
def last_tile_draw(s: Situation) -> Hits:
    return _once(s.last_wall_tile and s.self_drawn)


@fan(Fan.LAST_TILE_CLAIM)  # Last Tile Claim (海底捞月): the discard after the last wall tile
def last_tile_claim(s: Situation) -> Hits:
    return _once(s.last_wall_tile and not s.self_drawn)


@fan(Fan.OUT_WITH_REPLACEMENT_TILE)  # Out with Replacement Tile (杠上开花)
def replacement_tile(s: Situation) -> Hits:
    return _once(s.replacement_tile)


@fan(Fan.ROBBING_THE_KONG)  # Robbing The Kong (抢杠和)
def robbing_the_kong(s: Situation) -> Hits:
    return _once(s.robbing_kong)


@fan(Fan.FULLY_CONCEALED_HAND)  # Fully Concealed Hand: nothing claimed, self-drawn
def fully_concealed(s: Situation) -> Hits:
    return _once(s.melded_sets == 0 and s.self_drawn)


@fan(Fan.CONCEALED_HAND)  # Concealed Hand: nothing claimed, won on a discard
def concealed_hand(s: Situation) -> Hits:
    return _once(s.melded_sets == 0 and not s.self_drawn)


@fan(Fan.MELDED_HAND)  # Melded Hand: four claimed sets, won on a discard
def melded_hand(s: Situation) -> Hits:
    return _once(s.melded_sets == 4 and not s.self_drawn)


# ---------------------------------------------------------------- sets: tile counts

@fan(Fan.TILE_HOG)  # Tile Hog: all four of a kind used without being a kong, counted per kind
def tile_hog(h: HandFacts, sf: SetFacts) -> Hits:
    n = h.fours - h.n_kongs
    return [sf.all_sets] * n if n > 0 else _NONE


# ---------------------------------------------------------------- sets: special shapes

@fan(Fan.THIRTEEN_ORPHANS, needs=F.ORPHANS_SHAPE)  # Thirteen Orphans
def thirteen_orphans(h: HandFacts, sf: SetFacts) -> Hits:
    return [()] if sf.decomposition.kind == ShapeKind.THIRTEEN_ORPHANS else []


@fan(Fan.SEVEN_PAIRS, needs=F.SEVEN_PAIRS_SHAPE)  # Seven Pairs
def seven_pairs(h: HandFacts, sf: SetFacts) -> Hits:
    d = sf.decomposition
    return [_all(sf)] if d.kind == ShapeKind.SEVEN_PAIRS and not _shifted_pairs(sf) else []


@fan(Fan.SEVEN_SHIFTED_PAIRS, needs=F.SEVEN_PAIRS_SHAPE)  # Seven Shifted Pairs: seven consecutive pairs of one suit
def seven_shifted_pairs(h: HandFacts, sf: SetFacts) -> Hits:
    return [_all(sf)] if sf.decomposition.kind == ShapeKind.SEVEN_PAIRS and _shifted_pairs(sf) else []


def _shifted_pairs(sf: SetFacts) -> bool:
    firsts = [s.first for s in sf.decomposition.sets]
    f = firsts[0]
    return is_suited(f) and rank_of(f) <= 3 and firsts == list(range(f, f + 7))


@fan(Fan.LESSER_HONORS_AND_KNITTED_TILES, needs=F.HONORS_KNITTED_SHAPE)  # Lesser Honors and Knitted Tiles
def lesser_honors_knitted(h: HandFacts, sf: SetFacts) -> Hits:
    if sf.decomposition.kind != ShapeKind.HONORS_KNITTED:
        return []
    return [] if all(h.counts[t] for t in range(27, 34)) else [()]


# Greater Honors and Knitted Tiles: all seven honours
@fan(Fan.GREATER_HONORS_AND_KNITTED_TILES, needs=F.HONORS_KNITTED_SHAPE)
def greater_honors_knitted(h: HandFacts, sf: SetFacts) -> Hits:
    if sf.decomposition.kind != ShapeKind.HONORS_KNITTED:
        return []
    return [()] if all(h.counts[t] for t in range(27, 34)) else []


# Knitted Straight: 147/258/369 in three suits (also inside honours-and-knitted)
@fan(Fan.KNITTED_STRAIGHT, needs=F.SPECIAL)
def knitted_straight(h: HandFacts, sf: SetFacts) -> Hits:
    d = sf.decomposition
    if d.kind == ShapeKind.KNITTED_STRAIGHT:
        return [()]
    if d.kind == ShapeKind.HONORS_KNITTED and (h.present & SUITED_MASK).bit_count() == 9:
        return [()]
    return []


# Nine Gates: 1112345678999 of one suit concealed, any tile of that suit wins
@fan(Fan.NINE_GATES, needs=F.STANDARD | F.NO_MELDS | F.ONE_SUIT)
def nine_gates(h: HandFacts, sf: SetFacts) -> Hits:
    if h.n_melds or not sf.standard:
        return []
    s = h.standing
    for base in (0, 9, 18):
        if s[base] == 3 and s[base + 8] == 3 and all(s[base + r] == 1 for r in range(1, 8)):
            # It takes the place of one pung of terminals (the 111 or 999 pung).
            terminal = [p.set_index for p in sf.pungs if p.tile in (base, base + 8)]
            return [tuple(terminal[:1])]
    return []


# ---------------------------------------------------------------- sets: pungs and kongs

@fan(Fan.DRAGON_PUNG, needs=F.DRAGON_PUNG)  # Dragon Pung, per pung
def dragon_pung(h: HandFacts, sf: SetFacts) -> Hits:
    return [(p.set_index,) for p in sf.pungs if p.tile >= 31]


# terminals and winds, as a set read once per pung
_TERMINALS_AND_WINDS: Final = frozenset(t for t in range(31) if is_terminal_or_honor(t))


# Pung of Terminals or Honors (winds; dragons score Dragon Pung), per pung
@fan(Fan.PUNG_OF_TERMINALS_OR_HONORS, needs=F.TERMINAL_PUNG)
def pung_terminals_honors(h: HandFacts, sf: SetFacts) -> Hits:
    return [(p.set_index,) for p in sf.pungs if p.tile in _TERMINALS_AND_WINDS]


@fan(Fan.PREVALENT_WIND, needs=F.WIND_PUNG)  # Prevalent Wind
def prevalent_wind(h: HandFacts, sf: SetFacts) -> Hits:
    w = 27 + int(h.ctx.prevalent_wind)
    return [(p.set_index,) for p in sf.pungs if p.tile == w]


@fan(Fan.SEAT_WIND, needs=F.WIND_PUNG)  # Seat Wind
def seat_wind(h: HandFacts, sf: SetFacts) -> Hits:
    w = 27 + int(h.ctx.seat_wind)
    return [(p.set_index,) for p in sf.pungs if p.tile == w]


@fan(Fan.ALL_PUNGS, needs=F.STANDARD | F.FOUR_PUNGS)  # All Pungs
def all_pungs(h: HandFacts, sf: SetFacts) -> Hits:
    return [_all(sf)] if sf.standard and len(sf.pungs) == 4 else []


def _concealed_pungs(sf: SetFacts, n: int) -> Hits:
    if sf.concealed_pungs != n:
        return []
    return [tuple(p.set_index for p in sf.pungs if p.concealed)]


# Two Concealed Pungs (concealed kongs count as concealed pungs)
@fan(Fan.TWO_CONCEALED_PUNGS, needs=F.TWO_CONCEALED)
def two_concealed_pungs(h: HandFacts, sf: SetFacts) -> Hits:
    return _concealed_pungs(sf, 2)


@fan(Fan.THREE_CONCEALED_PUNGS, needs=F.THREE_CONCEALED)  # Three Concealed Pungs
def three_concealed_pungs(h: HandFacts, sf: SetFacts) -> Hits:
    return _concealed_pungs(sf, 3)


@fan(Fan.FOUR_CONCEALED_PUNGS, needs=F.FOUR_CONCEALED)  # Four Concealed Pungs
def four_concealed_pungs(h: HandFacts, sf: SetFacts) -> Hits:
    return _concealed_pungs(sf, 4)


def _kongs(sf: SetFacts, concealed: bool | None) -> tuple[int, ...]:
    """Kong set indices: concealed ones, melded ones, or all (None)."""
    return tuple(p.set_index for p in sf.pungs if p.kong and (concealed is None or p.concealed == concealed))


@fan(Fan.MELDED_KONG, needs=F.MELDED_KONGS)  # Melded Kong
def melded_kong(h: HandFacts, sf: SetFacts) -> Hits:
    return [_kongs(sf, False)] if sf.melded_kongs >= 1 else []


@fan(Fan.CONCEALED_KONG, needs=F.CONCEALED_KONGS)  # Concealed Kong
def concealed_kong(h: HandFacts, sf: SetFacts) -> Hits:
    return [_kongs(sf, True)] if sf.concealed_kongs >= 1 else []


@fan(Fan.TWO_MELDED_KONGS, needs=F.MELDED_KONGS | F.TWO_KONGS)  # Two Melded Kongs
def two_melded_kongs(h: HandFacts, sf: SetFacts) -> Hits:
    return [_kongs(sf, False)] if sf.melded_kongs >= 2 else []


@fan(Fan.TWO_CONCEALED_KONGS, needs=F.CONCEALED_KONGS | F.TWO_KONGS)  # Two Concealed Kongs
def two_concealed_kongs(h: HandFacts, sf: SetFacts) -> Hits:
    return [_kongs(sf, True)] if sf.concealed_kongs >= 2 else []


# Concealed Kong and Melded Kong (pymahjonggb's 5-point fan)
@fan(Fan.CONCEALED_KONG_AND_MELDED_KONG, needs=F.MELDED_KONGS | F.CONCEALED_KONGS)
def concealed_and_melded_kong(h: HandFacts, sf: SetFacts) -> Hits:
    return [_kongs(sf, None)] if sf.melded_kongs >= 1 and sf.concealed_kongs >= 1 else []


@fan(Fan.THREE_KONGS, needs=F.THREE_KONGS)  # Three Kongs
def three_kongs(h: HandFacts, sf: SetFacts) -> Hits:
    return [_kongs(sf, None)] if sf.melded_kongs + sf.concealed_kongs == 3 else []


@fan(Fan.FOUR_KONGS, needs=F.FOUR_KONGS)  # Four Kongs
def four_kongs(h: HandFacts, sf: SetFacts) -> Hits:
    return [_kongs(sf, None)] if sf.melded_kongs + sf.concealed_kongs == 4 else []


# ---------------------------------------------------------------- sets: the pair with the sets

@fan(Fan.ALL_CHOWS, needs=F.NO_PUNGS)  # All Chows: only chows and a suited pair
def all_chows(h: HandFacts, sf: SetFacts) -> Hits:
    if sf.pungs or sf.pair is None or is_honor(sf.pair) or sf.decomposition.kind == ShapeKind.SEVEN_PAIRS:
        return []
    return [_all(sf)]


# Little Three Dragons: two dragon pungs and a dragon pair
@fan(Fan.LITTLE_THREE_DRAGONS, needs=F.DRAGON_PUNG | F.DRAGON_PAIR)
def little_three_dragons(h: HandFacts, sf: SetFacts) -> Hits:
    dragons = [p.set_index for p in sf.pungs if p.tile >= 31]
    pair_index = sf.pair_index
    if len(dragons) == 2 and pair_index is not None and sf.pair is not None and sf.pair >= 31:
        return [(*dragons, pair_index)]
    return []


@fan(Fan.LITTLE_FOUR_WINDS, needs=F.WIND_PUNG | F.WIND_PAIR)  # Little Four Winds: three wind pungs and a wind pair
def little_four_winds(h: HandFacts, sf: SetFacts) -> Hits:
    winds = [p.set_index for p in sf.pungs if p.tile in WINDS]
    pair_index = sf.pair_index
    if len(winds) == 3 and pair_index is not None and sf.pair is not None and sf.pair in WINDS:
        return [(*winds, pair_index)]
    return []


# Pure Terminal Chows: 123 123 789 789 of one suit, pair of 5 of that suit
@fan(Fan.PURE_TERMINAL_CHOWS, needs=F.TERMINAL_CHOWS)
def pure_terminal_chows(h: HandFacts, sf: SetFacts) -> Hits:
    return [_all(sf)] if _terminal_chows(sf, pure=True) else []


# Three-Suited Terminal Chows: 123 and 789 in two suits, pair of 5 in the third
@fan(Fan.THREE_SUITED_TERMINAL_CHOWS, needs=F.TERMINAL_CHOWS)
def three_suited_terminal_chows(h: HandFacts, sf: SetFacts) -> Hits:
    return [_all(sf)] if _terminal_chows(sf, pure=False) else []


def _terminal_chows(sf: SetFacts, pure: bool) -> bool:
    p = sf.pair
    if len(sf.chows) != 4 or p is None or rank_of(p) != 5:
        return False
    firsts = sorted((suit_of(f), rank_of(f)) for f, _ in sf.chows)
    ps = suit_of(p)
    if pure:
        return firsts == [(ps, 1), (ps, 1), (ps, 7), (ps, 7)]
    others = sorted(s for s in (0, 1, 2) if s != ps)
    return firsts == [(others[0], 1), (others[0], 7), (others[1], 1), (others[1], 7)]


# ---------------------------------------------------------------- sets: what every set contains

# Outside Hand: every set and the pair hold a terminal or honour
@fan(Fan.OUTSIDE_HAND, needs=F.STANDARD | F.ALL_OUTSIDE)
def outside_hand(h: HandFacts, sf: SetFacts) -> Hits:
    return [_all(sf)] if sf.standard and sf.outside == 5 else []


@fan(Fan.ALL_FIVE, needs=F.STANDARD | F.ALL_FIVES)  # All Five: every set and the pair hold a 5
def all_five(h: HandFacts, sf: SetFacts) -> Hits:
    return [_all(sf)] if sf.standard and sf.fives == 5 else []


@fan(Fan.ALL_EVEN_PUNGS, needs=F.STANDARD | F.ALL_EVEN)  # All Even Pungs: four pungs and the pair of 2 4 6 8
def all_even_pungs(h: HandFacts, sf: SetFacts) -> Hits:
    return [_all(sf)] if sf.standard and sf.evens == 5 else []


# ---------------------------------------------------------------- sets: how the winning tile came

@fan(Fan.EDGE_WAIT, needs=F.WIN_EDGE)  # Edge Wait: the only wait, at the end of a concealed chow (12 waiting on 3)
def edge_wait(h: HandFacts, sf: SetFacts) -> Hits:
    return [(sf.win_index,)] if _wait_kind(h, sf) == _EDGE else []  # type: ignore[list-item]


@fan(Fan.CLOSED_WAIT, needs=F.WIN_CLOSED)  # Closed Wait: the only wait, inside a concealed chow (13 waiting on 2)
def closed_wait(h: HandFacts, sf: SetFacts) -> Hits:
    return [(sf.win_index,)] if _wait_kind(h, sf) == _CLOSED else []  # type: ignore[list-item]


@fan(Fan.SINGLE_WAIT, needs=F.WIN_IN_PAIR)  # Single Wait: the only wait, on the pair
def single_wait(h: HandFacts, sf: SetFacts) -> Hits:
    return [(sf.win_index,)] if _wait_kind(h, sf) == _SINGLE else []  # type: ignore[list-item]


# The wait fans as the plain ints _wait_kind answers (and memoizes on the SetFacts)
_EDGE: Final = int(Fan.EDGE_WAIT)
_CLOSED: Final = int(Fan.CLOSED_WAIT)
_SINGLE: Final = int(Fan.SINGLE_WAIT)


def _wait_kind(h: HandFacts, sf: SetFacts) -> int:
    """The wait fan of this decomposition's winning-tile position, 0 if none.

    Conventions (pymahjonggb's): the hand must wait on one kind only, by shape (a tile whose four
    copies are all held still counts as a wait); a knitted straight looks at the five tiles beside
    the knitted nine, and with a declared set it waits on its pair alone.
    """
    if sf.wait is None:
        sf.wait = _find_wait(h, sf)
    return sf.wait


def _find_wait(h: HandFacts, sf: SetFacts) -> int:
    i = sf.win_index
    d = sf.decomposition
    if i is None:
        return 0
    if d.kind == ShapeKind.KNITTED_STRAIGHT and h.n_melds:
        return _SINGLE if d.sets[i].kind == 4 else 0
    kind = d.sets[i].kind
    if kind == 1:
        if sf.win_offset != 1 and rank_of(d.sets[i].first) != (7 if sf.win_offset == 0 else 1):
            return 0  # the other end of the run completes it too (a two-sided wait): no need to look
        fan = _CLOSED if sf.win_offset == 1 else _EDGE
    elif kind == 4 and sf.decomposition.kind in (ShapeKind.STANDARD, ShapeKind.KNITTED_STRAIGHT):
        fan = _SINGLE
    else:
        return 0
    return fan if h.unique_wait_for(d) else 0


# ---------------------------------------------------------------- combinations of chows

def _same_suit(ts: tuple[int, ...]) -> bool:
    s = suit_of(ts[0])
    return all(suit_of(t) == s for t in ts)


def _three_suits(ts: tuple[int, ...]) -> bool:
    return len({suit_of(t) for t in ts}) == 3


def _ranks_of(ts: tuple[int, ...]) -> list[int]:
    return sorted(rank_of(t) for t in ts)


@fan(Fan.FOUR_PURE_SHIFTED_CHOWS, family="chow", arity=4)  # Four Pure Shifted Chows: one suit, starting 1 or 2 apart
def four_pure_shifted_chows(ts: tuple[int, ...]) -> Hits:
    r = _ranks_of(ts)
    step = r[1] - r[0]
    return _combination(ts, _same_suit(ts) and step in (1, 2) and r[2] - r[1] == step and r[3] - r[2] == step)


@fan(Fan.QUADRUPLE_CHOW, family="chow", arity=4)  # Quadruple Chow: four identical chows
def quadruple_chow(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, ts[0] == ts[1] == ts[2] == ts[3])


@fan(Fan.MIXED_SHIFTED_CHOWS, family="chow", arity=3)  # Mixed Shifted Chows: three suits, starting 1 apart
def mixed_shifted_chows(ts: tuple[int, ...]) -> Hits:
    r = _ranks_of(ts)
    return _combination(ts, _three_suits(ts) and r[0] + 1 == r[1] and r[1] + 1 == r[2])


@fan(Fan.MIXED_TRIPLE_CHOW, family="chow", arity=3)  # Mixed Triple Chow: the same chow in three suits
def mixed_triple_chow(ts: tuple[int, ...]) -> Hits:
    r = _ranks_of(ts)
    return _combination(ts, _three_suits(ts) and r[0] == r[2])


@fan(Fan.MIXED_STRAIGHT, family="chow", arity=3)  # Mixed Straight: 123 456 789 across three suits
def mixed_straight(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, _three_suits(ts) and _ranks_of(ts) == [1, 4, 7])


@fan(Fan.PURE_STRAIGHT, family="chow", arity=3)  # Pure Straight: 123 456 789 of one suit
def pure_straight(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, _same_suit(ts) and _ranks_of(ts) == [1, 4, 7])


@fan(Fan.PURE_SHIFTED_CHOWS, family="chow", arity=3)  # Pure Shifted Chows: one suit, starting 1 or 2 apart
def pure_shifted_chows(ts: tuple[int, ...]) -> Hits:
    r = _ranks_of(ts)
    return _combination(ts, _same_suit(ts) and r[1] - r[0] == r[2] - r[1] and r[1] - r[0] in (1, 2))


@fan(Fan.PURE_TRIPLE_CHOW, family="chow", arity=3)  # Pure Triple Chow: three identical chows
def pure_triple_chow(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, ts[0] == ts[1] == ts[2])


@fan(Fan.PURE_DOUBLE_CHOW, family="chow", arity=2)  # Pure Double Chow: two identical chows
def pure_double_chow(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, ts[0] == ts[1])


@fan(Fan.MIXED_DOUBLE_CHOW, family="chow", arity=2)  # Mixed Double Chow: the same chow in two suits
def mixed_double_chow(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, suit_of(ts[0]) != suit_of(ts[1]) and rank_of(ts[0]) == rank_of(ts[1]))


@fan(Fan.SHORT_STRAIGHT, family="chow", arity=2)  # Short Straight: two chows of one suit making a run of six
def short_straight(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, _same_suit(ts) and abs(rank_of(ts[0]) - rank_of(ts[1])) == 3)


@fan(Fan.TWO_TERMINAL_CHOWS, family="chow", arity=2)  # Two Terminal Chows: 123 and 789 of one suit
def two_terminal_chows(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, _same_suit(ts) and sorted((rank_of(ts[0]), rank_of(ts[1]))) == [1, 7])


# ---------------------------------------------------------------- combinations of pungs

@fan(Fan.FOUR_PURE_SHIFTED_PUNGS, family="pung", arity=4)  # Four Pure Shifted Pungs
def four_pure_shifted_pungs(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, is_suited(ts[0]) and _same_suit(ts) and list(ts) == list(range(ts[0], ts[0] + 4)))


@fan(Fan.BIG_FOUR_WINDS, family="pung", arity=4)  # Big Four Winds
def big_four_winds(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, ts == WINDS)


@fan(Fan.MIXED_SHIFTED_PUNGS, family="pung", arity=3)  # Mixed Shifted Pungs: three suits, ranks one apart
def mixed_shifted_pungs(ts: tuple[int, ...]) -> Hits:
    r = _ranks_of(ts)
    return _combination(ts, is_suited(ts[2]) and _three_suits(ts) and r[0] + 1 == r[1] and r[1] + 1 == r[2])


@fan(Fan.TRIPLE_PUNG, family="pung", arity=3)  # Triple Pung: the same rank in three suits
def triple_pung(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, is_suited(ts[2]) and _three_suits(ts)
                        and rank_of(ts[0]) == rank_of(ts[1]) == rank_of(ts[2]))


@fan(Fan.PURE_SHIFTED_PUNGS, family="pung", arity=3)  # Pure Shifted Pungs: one suit, ranks one apart
def pure_shifted_pungs(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, is_suited(ts[2]) and _same_suit(ts) and ts[0] + 1 == ts[1] and ts[1] + 1 == ts[2])


@fan(Fan.BIG_THREE_WINDS, family="pung", arity=3)  # Big Three Winds
def big_three_winds(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, all(t in WINDS for t in ts))


@fan(Fan.BIG_THREE_DRAGONS, family="pung", arity=3)  # Big Three Dragons
def big_three_dragons(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, ts == DRAGONS)


@fan(Fan.DOUBLE_PUNG, family="pung", arity=2)  # Double Pung: the same rank in two suits
def double_pung(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, is_suited(ts[1]) and rank_of(ts[0]) == rank_of(ts[1]))


@fan(Fan.TWO_DRAGONS_PUNGS, family="pung", arity=2)  # Two Dragons Pungs
def two_dragons_pungs(ts: tuple[int, ...]) -> Hits:
    return _combination(ts, ts[0] in DRAGONS and ts[1] in DRAGONS)


# ---------------------------------------------------------------- the dispatch tables, from the registry

def _dispatch() -> None:
    """Fill TILES, SITUATION, SETS and COMBOS from PREDICATES (every fan above registered): the kind of each
    predicate follows from its row's scope and its hints, which are checked here."""
    for p in PREDICATES:
        hints = dict(p.hints)
        if p.scope is Scope.HAND:
            TILES[p.id] = p.find
        elif p.scope is Scope.SITUATION:
            SITUATION[p.id] = p.find
        elif p.scope is Scope.SETS and "family" in hints:
            family, arity = hints.pop("family"), hints.pop("arity", 0)
            if arity not in COMBOS.get(family, {}):
                raise ValueError(f"{p.row.name}: no combination of {arity} {family}s")
            COMBOS[family][arity].append((p.id, p.find))
        elif p.scope is Scope.SETS:
            SETS[p.id] = (hints.pop("needs", 0), p.find)
        else:
            raise ValueError(f"{p.row.name}: a {p.scope.value} row is scored in scoring.py (in_scoring)")
        if hints:
            raise ValueError(f"{p.row.name}: hints {sorted(hints)} mean nothing for a {p.scope.value} row here")


_dispatch()
situation_fans: Final = REGISTRY.add_memo(
    "mcr.predicates.situation_fans", TabledMemo(_situation_fans, _situation_table()))
_SET_ENTRIES: Final[list[tuple[int, SetRule]]] = [(fid, rule) for fid, (_, rule) in SETS.items()]
_SET_NEEDS: Final[list[int]] = [needs for needs, _ in SETS.values()]

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("mcr.predicates", COMBOS=COMBOS, _ONCE=_ONCE, _SET_ENTRIES=_SET_ENTRIES, _SET_NEEDS=_SET_NEEDS)
