"""Wildcard ops (engine.wildcards), hands holding four ghosts (white dragons), seeded.

- win_check_wild4: `wildcards.is_complete_wild` on 14-tile hands, half complete hands with four tiles
  turned into ghosts, half random; against `published_go` (quoted, not measured: the table method's
  published figure, about a million checks a second with four wildcards, in Go, i.e. 1 us) and a
  brute-force substitution (every assignment of the four ghosts to the 34 kinds, the engine's plain
  win check on each; early exit on the first win) on a few of the same hands.
- waits_wild4: `wildcards.waits_wild` on 13-tile hands (complete hands less one tile, four ghosts).
- shanten_wild4, discard_advice_wild4: `wildcards.shanten_wild` on 13 tiles, `analyze_wild` on 14.
- wild_table_build: one build of the suit need table (`build_suit_need_table`), in microseconds: what
  setup.py's build adds to the tables file, and what a process pays once when its tables file has no
  need tables; the table sizes and where this process's tables came from are printed as notes.
"""

from __future__ import annotations

import random
import time
from itertools import combinations_with_replacement

from bench import OURS, median_us
from bench.ops_engine import complete_hands
from engine import shapes
from engine import wildcards as W
from engine.hand import make_hand
from engine.tiles import NUM_KINDS, WHITE, to_counts

PUBLISHED = "published_go"
TARGETS: tuple[tuple[str, str, float], ...] = (
    ("win_check_wild4", PUBLISHED, 1.0),
    ("waits_wild4", PUBLISHED, 34.0),
)
GHOSTS = (WHITE,)
_WALL = tuple(t for t in range(NUM_KINDS) if t != WHITE for _ in range(4))


def ghost_hands(rng: random.Random, n: int, size: int) -> list[list[int]]:
    """Half complete (less one tile for 13) with four tiles turned into ghosts, half random plus ghosts."""
    out: list[list[int]] = []
    for tiles in complete_hands(rng, n):
        if WHITE in tiles:
            continue
        if len(out) % 2:
            tiles = sorted(rng.sample(_WALL, 14))
        rng.shuffle(tiles)
        tiles = tiles[4:] + [WHITE] * 4
        if size == 13:
            tiles.remove(rng.choice([t for t in tiles if t != WHITE]))
        out.append(sorted(tiles))
    return out


def plain_win(c: list[int]) -> bool:
    """Standard shape by search (any counts), seven pairs, thirteen orphans: no wildcard involved."""
    pairs = 0
    for base in (0, 9, 18):
        key = tuple(c[base:base + 9])
        if any(key):
            if not shapes.suit_splits(key):  # type: ignore[arg-type]
                break
            pairs += sum(key) % 3 == 2
    else:
        if all(n % 3 != 1 for n in c[27:]) and pairs + sum(1 for n in c[27:] if n % 3 == 2) == 1:
            return True
    return shapes.is_seven_pairs(c) or shapes.is_thirteen_orphans(c)


def brute_force_win(counts: list[int]) -> bool:
    real, j = W.split_wild(counts, GHOSTS)
    for a in combinations_with_replacement(range(NUM_KINDS), j):
        c = real[:]
        for t in a:
            c[t] += 1
        if plain_win(c):
            return True
    return False


_NOTES: list[str] = []


def notes() -> list[str]:
    return list(_NOTES)


def rows(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    h14 = ghost_hands(rng, n, 14)
    h13 = ghost_hands(rng, n, 13)
    out: list[dict] = []

    def add(op: str, impl: str, value: float) -> None:
        out.append({"op": op, "impl": impl, "median_us": round(value, 3)})

    t0 = time.perf_counter()
    suit = W.build_suit_need_table()
    build_us = (time.perf_counter() - t0) * 1e6
    t0 = time.perf_counter()
    honors = W.build_honor_need_table()
    honor_us = (time.perf_counter() - t0) * 1e6
    _NOTES[:] = [f"wildcard tables: suit {len(suit):,} bytes ({sum(1 for b in suit if b != 0xFF):,} keys used), "
                 f"built in {build_us / 1e6:.2f} s; honours {len(honors):,} bytes, built in {honor_us / 1e6:.2f} s; "
                 f"this process's: {W.need_tables_origin()}"]
    add("wild_table_build", OURS, build_us)
    add("win_check_wild4", OURS, median_us(W.is_complete_wild, [(to_counts(h), GHOSTS) for h in h14], 50))
    add("win_check_wild4", PUBLISHED, 1.0)
    few = [(to_counts(h),) for h in h14[: max(2, n // 50)]]
    add("win_check_wild4", "brute_force", median_us(brute_force_win, few, 1))
    add("waits_wild4", OURS, median_us(W.waits_wild, [(to_counts(h), GHOSTS) for h in h13], 5))
    add("waits_wild4", PUBLISHED, 1.0)
    add("shanten_wild4", OURS, median_us(W.shanten_wild, [(to_counts(h), GHOSTS) for h in h13], 5))
    hands14 = [(make_hand(h, sizes=(14,)), (), GHOSTS, range(NUM_KINDS)) for h in h14[: max(2, n // 10)]]
    add("discard_advice_wild4", OURS, median_us(W.analyze_wild, hands14, 1))
    return out
