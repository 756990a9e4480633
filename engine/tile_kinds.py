"""The 34 tile kinds as numbers, and every question asked of one: the only module that does arithmetic on
tile indices (tests/unit/test_tile_names.py refuses `% 9`, `// 9` and comparisons with 27 elsewhere).

Index 0..33: 1-9 characters 0-8, 1-9 dots 9-17, 1-9 bamboo 18-26, the winds East South West North 27-30,
then the dragons RED (31), GREEN (32), WHITE (33). Compiled with the engine (setup.py), so the rule sets
call these helpers instead of copying them; engine/tiles.py adds the notation and the checks of what a
caller passes, and re-exports everything here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

NUM_KINDS: Final = 34
NUM_SUITED: Final = 27  # the suited kinds come first: 0 .. 26
RANKS: Final = 9  # kinds in a suit
HONOR_PART: Final = 3  # suit_of of an honour: the fourth part of a hand
# The most tiles of one part (and wildcards) the shape searches take (engine.analysis, engine.wildcards):
# far above any hand; a count vector beyond it, or with a negative count, is refused (TILE_COUNT).
SEARCH_MAX_TILES: Final = 32

M1: Final = 0
P1: Final = 9
S1: Final = 18
SUIT_FIRSTS: Final = (M1, P1, S1)
EAST: Final = 27
SOUTH: Final = 28
WEST: Final = 29
NORTH: Final = 30
RED: Final = 31
GREEN: Final = 32
WHITE: Final = 33
WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (RED, GREEN, WHITE)
HONORS: Final = WINDS + DRAGONS
TERMINALS: Final = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONORS: Final = TERMINALS + HONORS
SUITED: Final = tuple(range(NUM_SUITED))


def suit_of(tile: int) -> int:
    """0 characters, 1 dots, 2 bamboo, 3 honours."""
    return tile // RANKS if tile < NUM_SUITED else HONOR_PART


def rank_of(tile: int) -> int:
    """1-9 for suited tiles, 0 for honours."""
    return tile % RANKS + 1 if tile < NUM_SUITED else 0


def offset_in_suit(tile: int) -> int:
    """0-8: the rank of a suited tile less one (its distance from the suit's 1); an honour's distance from East."""
    return tile % RANKS if tile < NUM_SUITED else tile - EAST


def suit_first(tile: int) -> int:
    """The 1 of a suited tile's suit (M1, P1 or S1)."""
    return tile - tile % RANKS


def tile_of(suit: int, rank: int) -> int:
    """The suited tile of `suit` (0-2) and `rank` (1-9)."""
    return suit * RANKS + rank - 1


def is_suited(tile: int) -> bool:
    return tile < NUM_SUITED


def is_honor(tile: int) -> bool:
    return tile >= NUM_SUITED


def is_wind(tile: int) -> bool:
    return EAST <= tile <= NORTH


def is_dragon(tile: int) -> bool:
    return tile >= RED


def is_terminal(tile: int) -> bool:
    return tile < NUM_SUITED and tile % RANKS in (0, 8)


def is_terminal_or_honor(tile: int) -> bool:
    return tile >= NUM_SUITED or tile % RANKS in (0, 8)


def is_simple(tile: int) -> bool:
    """A suited 2-8."""
    return tile < NUM_SUITED and 1 <= tile % RANKS <= 7


def to_counts(tiles: Iterable[int]) -> list[int]:
    """Copies of each kind among `tiles` (indices a caller has checked), by index."""
    if isinstance(tiles, list):  # the usual case: a list is walked without the iterator protocol
        return _list_counts(tiles)
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def _list_counts(tiles: list[int]) -> list[int]:
    """`to_counts` of a list: typed as one, so compiled code reads its items directly."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] = counts[t] + 1  # not +=: see engine.analysis.analyze
    return counts


def same_suit(a: int, b: int) -> bool:
    """Both suited, of one suit."""
    return a < NUM_SUITED and b < NUM_SUITED and a // RANKS == b // RANKS


# The named sets of tiles more than one rule set reads.
ALL_GREEN: Final = frozenset([S1 + 1, S1 + 2, S1 + 3, S1 + 5, S1 + 7, GREEN])  # 绿一色: bamboo 2 3 4 6 8, green dragon
