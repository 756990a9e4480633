"""The MCR scoring tables: every key of two scoring look-ups answered at install time, read in place.

Two look-ups of MCR scoring have key spaces small enough to answer all of them ahead of time, and
answers that cost a few thousand instructions to find when a process meets a key for the first time.
The build (`python -m tablebuild`, through tablebuild/mcr.py: build code outside the engine, which no
runtime module imports) runs the engine's own code on every key and writes the answers into
the tables file (`suits.bin`, its MCR part: sections named `mcr.*`); every process maps them
read-only with the rest of the file, so a worker never computes one under load:

- **tile fans** (`predicates.tile_fans`): for every packed tile-facts key (`facts.tile_key`, 16 bits:
  all 65,536 values, reachable or not), the tile fans `predicates._tile_fans` finds;
- **pung combinations** (`scoring._combinations_by_position` for pungs): for every two, three or four
  distinct tiles sorted in the oracle's order (`scoring.pung_combination_index` numbers them: 52,921
  keys), the combination fans `scoring._search_combinations` finds, as set positions;
- **chow combinations** (`scoring._CHOW_COMBINATIONS`, a dict every process builds at import): the same
  for every two, three or four chows (by first tile, repeats allowed, 12,628 keys numbered in the order
  `scoring.chow_combination_keys` lists them), so the import reads them instead of searching (~0.3 s).

Each table is three sections, `<name>.keys` (u16 per key: the number of its answer; a process copies
this one into a bytes object, ~100 kB, which compiled code reads fastest), `<name>.starts`
(u32 per answer, plus one: where its items start) and `<name>.items` (u16 words); each distinct answer
is stored once, numbered in the order the keys first meet them (so the build is deterministic). A
tile-fans item is a fan id (each counted once); a pung-combinations item is `fan id << POSITION_BITS |
position mask` (the positions, ascending, of the sets the fan is made of among the sorted tiles).

The MCR part has its own source digest (tablebuild.sources.PART_SOURCES: the fan rules, facts,
scoring and this module), recorded by the build in the file and in the build stamp
(`engine.tables.BUILT_PARTS`): this process reads the tables only if the two agree (no source is hashed
at run time; tests/unit/test_tables.py checks the file against the sources, and `make` rebuilds it);
`PROBLEM` says why the tables are not read, and the look-ups then fill per-process memos (same answers).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from math import comb
from typing import Final, NamedTuple, TypeVar

from engine.memo import KeyTable
from engine.tables import BUILT_PARTS, TABLES
from engine.tables.format import PART_MCR

TILE_FANS: Final = "mcr.tile_fans"
PUNG_COMBINATIONS: Final = "mcr.pung_combinations"
CHOW_COMBINATIONS: Final = "mcr.chow_combinations"
TILE_KEYS: Final = 1 << 16  # facts.tile_key packs 16 bits
POSITION_BITS: Final = 4  # a pung combination has at most four sets
# Every set of two, three or four distinct tile kinds (scoring.pung_combination_index numbers them).
PUNG_COMBINATION_KEYS: Final = comb(34, 2) + comb(34, 3) + comb(34, 4)
# Every multiset of two, three or four of the 21 chows (scoring.chow_combination_keys lists them).
CHOW_COMBINATION_KEYS: Final = comb(22, 2) + comb(23, 3) + comb(24, 4)

A = TypeVar("A")
TileFans = tuple[tuple[int, int], ...]  # (fan id, count 1), as predicates._tile_fans answers
Combinations = tuple[tuple[int, tuple[int, ...]], ...]  # (fan id, set positions), as scoring answers


# ---------------------------------------------------------------- the encoding

def _words_of_tile_fans(answer: TileFans) -> list[int]:
    assert all(n == 1 for _, n in answer)
    return [fid for fid, _ in answer]


def _tile_fans_of_words(words: Sequence[int]) -> TileFans:
    return tuple([(fid, 1) for fid in words])


def _words_of_combinations(answer: Combinations) -> list[int]:
    out = []
    for fid, positions in answer:
        assert list(positions) == sorted(set(positions)) and positions[-1] < POSITION_BITS
        out.append(fid << POSITION_BITS | sum(1 << p for p in positions))
    return out


def _combinations_of_words(words: Sequence[int]) -> Combinations:
    return tuple([(w >> POSITION_BITS, tuple([p for p in range(POSITION_BITS) if w >> p & 1])) for w in words])


def _encode(name: str, answers: list[A], words_of: Callable[[A], list[int]]) -> dict[str, tuple[str, bytes]]:
    """The three sections of a table whose key k has the answer `answers[k]`."""
    numbers: dict[A, int] = {}
    keys, starts, items = array("H"), array("I", [0]), array("H")
    for answer in answers:
        number = numbers.get(answer)
        if number is None:
            number = numbers[answer] = len(numbers)
            words = words_of(answer)
            assert all(0 <= w <= 0xFFFF for w in words)
            items.extend(words)
            starts.append(len(items))
        keys.append(number)
    assert len(numbers) <= 0xFFFF
    return {f"{name}.keys": ("H", keys.tobytes()), f"{name}.starts": ("I", starts.tobytes()),
            f"{name}.items": ("H", items.tobytes())}


def _decode(sections: dict[str, memoryview], name: str, size: int,
            of_words: Callable[[Sequence[int]], A]) -> KeyTable[A]:
    """A table's keys (copied from the mapped section) and its answers (built here, each once)."""
    keys, starts, items = (sections[f"{name}.{part}"] for part in ("keys", "starts", "items"))
    if len(keys) != size:
        raise ValueError(f"section {name}.keys holds {len(keys)} keys, expected {size}")
    bounds = starts.tolist()
    words = items.tolist()
    answers = [of_words(words[bounds[i]:bounds[i + 1]]) for i in range(len(bounds) - 1)]
    if max(keys.tolist(), default=0) >= len(answers):
        raise ValueError(f"section {name}.keys names an answer it does not hold")
    return KeyTable(keys.cast("B").tobytes(), answers)  # a copy (~100 kB each): bytes read fastest


# ---------------------------------------------------------------- what this process reads

class Loaded(NamedTuple):
    """What this process reads from the MCR part of the tables file: all three tables, or none and why."""

    tile_fans: KeyTable[TileFans] | None
    pung_combinations: KeyTable[Combinations] | None
    chow_combinations: KeyTable[Combinations] | None
    problem: str


def _load() -> Loaded:
    if TABLES is None:
        return Loaded(None, None, None, "no tables file is mapped")
    if not TABLES.mcr_sections:
        return Loaded(None, None, None, f"{TABLES.path} has no MCR part (written before it had one: run make)")
    stamp = BUILT_PARTS.get(PART_MCR)
    if stamp is None:
        return Loaded(None, None, None, "no build stamp (engine/tables/built.py) to check the MCR part against "
                      "(run make)")
    if TABLES.parts.get(PART_MCR) != stamp:
        return Loaded(None, None, None, f"the MCR part of {TABLES.path} is not the one this build recorded (run make)")
    sections = TABLES.mcr_sections
    try:
        return Loaded(_decode(sections, TILE_FANS, TILE_KEYS, _tile_fans_of_words),
                      _decode(sections, PUNG_COMBINATIONS, PUNG_COMBINATION_KEYS, _combinations_of_words),
                      _decode(sections, CHOW_COMBINATIONS, CHOW_COMBINATION_KEYS, _combinations_of_words), "")
    except (KeyError, ValueError) as e:
        return Loaded(None, None, None, f"the MCR part of {TABLES.path} is not usable: {e}")


LOADED: Final = _load()
TILE_FAN_TABLE: Final = LOADED.tile_fans
PUNG_COMBINATION_TABLE: Final = LOADED.pung_combinations
CHOW_COMBINATION_TABLE: Final = LOADED.chow_combinations
PROBLEM: Final = LOADED.problem


def status() -> str:
    """One line: whether this process reads the MCR tables, or why not."""
    if TILE_FAN_TABLE is None:
        return (f"MCR tables not read: {PROBLEM}; tile fans and pung combinations fill per-process memos instead, "
                "chow combinations are searched at import")
    return "MCR tables read from the mapped file (tile fans, pung combinations, chow combinations)"
