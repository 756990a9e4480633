"""Tile kinds, indices and the text notation.

Index 0..33: 1-9 characters (m) 0-8, 1-9 dots (p) 9-17, 1-9 bamboo (s) 18-26,
winds East South West North 27-30, then the dragons in the order RED (31), GREEN (32), WHITE (33).
That dragon order matches the protobuf enum (TILE_RED, TILE_GREEN, TILE_WHITE) and MCR tools'
C F P letters, so a proto tile value is always index + 1.

Notation: suit groups `123m456p789s`; honours as `1z`-`7z` (1-4 winds, 5 white, 6 green, 7 red,
as in the Riichi tools) or as letters `ESWNCFP` (C red, F green, P white, as in MCR tools).
The canonical form prints suits in index order and honours as letters: `123m456p789sEESS`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from engine.errors import BadTileError
from engine.tile_kinds import (  # noqa: F401  (the kinds are re-exported: `engine.tiles` is the public module)
    DRAGONS,
    EAST,
    GREEN,
    HONOR_PART,
    HONORS,
    M1,
    NORTH,
    NUM_KINDS,
    NUM_SUITED,
    P1,
    RANKS,
    RED,
    S1,
    SOUTH,
    SUIT_FIRSTS,
    SUITED,
    TERMINALS,
    TERMINALS_AND_HONORS,
    WEST,
    WHITE,
    WINDS,
    is_honor,
    is_simple,
    is_suited,
    is_terminal,
    is_terminal_or_honor,
    offset_in_suit,
    rank_of,
    same_suit,
    suit_first,
    suit_of,
    tile_of,
    to_counts,
)

NUM_FLOWERS = 8  # plum orchid chrysanthemum bamboo spring summer autumn winter: counted, never played

SUIT_LETTERS = "mps"
HONOR_LETTERS = "ESWNCFP"  # index 27 + position
_Z_TO_INDEX: Mapping[int, int] = MappingProxyType({1: EAST, 2: SOUTH, 3: WEST, 4: NORTH, 5: WHITE, 6: GREEN, 7: RED})

# Names used in messages and the readable CLI.
_HONOR_NAMES = ("East", "South", "West", "North", "Red", "Green", "White")
_SUIT_NAMES = ("characters", "dots", "bamboo")


def check_tile(tile: int, field: str = "tile") -> int:
    if not isinstance(tile, int) or isinstance(tile, bool) or not 0 <= tile < NUM_KINDS:
        raise BadTileError(f"{field}: {tile!r} is not a tile index (0..33)", field)
    return tile


_TILE_INDICES = frozenset(range(NUM_KINDS))
_INT = frozenset({int})


def check_tiles(tiles: Iterable[int], field: str) -> list[int]:
    """`check_tile` on each tile; a bad one is named `field[i]`. Requests carry dozens of tiles (the
    visible ones), so the usual case, plain ints in range, is checked by two C-level set tests."""
    out = list(tiles)
    if _TILE_INDICES.issuperset(out) and _INT.issuperset(map(type, out)):
        return out
    for i, t in enumerate(out):
        check_tile(t, f"{field}[{i}]")
    return out


def tile_name(tile: int) -> str:
    """A readable name: '3 dots', 'Red'."""
    if is_honor(tile):
        return _HONOR_NAMES[tile - EAST]
    return f"{rank_of(tile)} {_SUIT_NAMES[suit_of(tile)]}"


def parse_tiles(text: str, field: str = "tiles") -> list[int]:
    """Parse notation into tile indices, in written order. Spaces are ignored.

    Raises BadTileError naming the bad character and its position.
    """
    out: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position) waiting for a suit letter
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if ch in "0123456789":
            pending.append((int(ch), pos))
        elif ch in SUIT_LETTERS or ch == "z":
            if not pending:
                raise BadTileError(f"{field}: suit letter {ch!r} at position {pos} has no digits before it", field)
            for digit, dpos in pending:
                out.append(_digit_tile(digit, ch, dpos, field))
            pending.clear()
        elif ch in HONOR_LETTERS:
            if pending:
                raise BadTileError(f"{field}: digits before {ch!r} at position {pos} have no suit letter", field)
            out.append(EAST + HONOR_LETTERS.index(ch))
        else:
            raise BadTileError(f"{field}: unexpected character {ch!r} at position {pos} in {text!r}", field)
    if pending:
        raise BadTileError(f"{field}: digits at the end of {text!r} have no suit letter (m, p, s or z)", field)
    return out


def _digit_tile(digit: int, suit: str, pos: int, field: str) -> int:
    if suit == "z":
        if digit not in _Z_TO_INDEX:
            raise BadTileError(f"{field}: honour '{digit}z' at position {pos} does not exist (1z-7z)", field)
        return _Z_TO_INDEX[digit]
    if digit == 0:
        raise BadTileError(f"{field}: '0{suit}' at position {pos} is not a tile (ranks are 1-9)", field)
    return tile_of(SUIT_LETTERS.index(suit), digit)


def parse_tile(text: str, field: str = "tile") -> int:
    tiles = parse_tiles(text, field)
    if len(tiles) != 1:
        raise BadTileError(f"{field}: {text!r} must name exactly one tile", field)
    return tiles[0]


def format_tiles(tiles: Iterable[int]) -> str:
    """Canonical notation: sorted, suits grouped, honours as letters."""
    ordered = sorted(tiles)
    parts: list[str] = []
    for suit, letter in enumerate(SUIT_LETTERS):
        digits = "".join(str(rank_of(t)) for t in ordered if suit_of(t) == suit)
        if digits:
            parts.append(digits + letter)
    parts.extend(HONOR_LETTERS[t - EAST] for t in ordered if is_honor(t))
    return "".join(parts)


def format_tile(tile: int) -> str:
    return format_tiles((tile,))


def from_counts(counts: Sequence[int]) -> list[int]:
    return [t for t, n in enumerate(counts) for _ in range(n)]
