"""Engine ops against the anchors: win check, shanten, waits, on the same seeded random hands.

- win_check: `shapes.is_complete_counts` vs `mahjong` `Agari.is_agari`, random 14-tile hands
  (and win_check_winning: the same on complete hands, four sets and a pair).
- shanten: combined `analysis.shanten` vs pymahjonggb `MahjongShanten` (C++) vs `mahjong`
  `Shanten.calculate_shanten`, random 13-tile hands.
- waits: the full `api.analyze` of a waiting 13-tile hand under the MCR rule set (what the server
  calls: tile check, shanten by shape, waits with remaining copies, useful tiles) vs 34
  `is_agari` calls vs pymahjonggb `RegularShanten` (whose useful tiles are the waits).
- discard_advice (information, no target): `api.analyze` of a random 14-tile hand (every distinct
  discard with its shanten and useful tiles) vs pymahjonggb's five per-shape functions (each gives
  shanten and useful tiles) called for every distinct discard.
Each impl gets its own input form, built before timing: counts for ours and `mahjong`, tile
strings for pymahjonggb, a validated `Hand` for analyze.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bench import OURS, median_us
from engine import analysis, api, shapes
from engine.hand import make_hand
from engine.tiles import NUM_KINDS, to_counts

# Ours at most ratio x theirs (issue 2, "Must show").
TARGETS: tuple[tuple[str, str, float], ...] = (
    ("win_check", "mahjong", 1.0),
    ("shanten", "pymahjonggb", 2.0),
    ("shanten", "mahjong", 0.25),
    ("waits", "mahjong", 0.25),
    ("waits", "pymahjonggb", 0.2),
)

# pymahjonggb names: W characters, B dots, T bamboo, F winds, J1 red J2 green J3 white (our order).
_GB = tuple([f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)] + [f"T{r}" for r in range(1, 10)]
            + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"])
_WALL = tuple(t for t in range(NUM_KINDS) for _ in range(4))


def random_hands(rng: random.Random, n: int, size: int) -> list[list[int]]:
    return [sorted(rng.sample(_WALL, size)) for _ in range(n)]


def complete_hands(rng: random.Random, n: int) -> list[list[int]]:
    """Four sets (60% chows) and a pair, at most four copies of a tile."""
    out: list[list[int]] = []
    while len(out) < n:
        tiles: list[int] = []
        for _ in range(4):
            if rng.random() < 0.6:
                first = 9 * rng.randrange(3) + rng.randrange(7)
                tiles += [first, first + 1, first + 2]
            else:
                tiles += [rng.randrange(NUM_KINDS)] * 3
        tiles += [rng.randrange(NUM_KINDS)] * 2
        if max(to_counts(tiles)) <= 4:
            out.append(sorted(tiles))
    return out


def waiting_hands(rng: random.Random, n: int) -> list[list[int]]:
    """Complete hands less one random tile: always waiting (shanten 0)."""
    out = []
    for tiles in complete_hands(rng, n):
        tiles.remove(rng.choice(tiles))
        out.append(tiles)
    return out


def _anchors() -> tuple[Callable[..., object], ...]:
    import MahjongGB  # dev extras: imported only when benchmarking
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten

    return (Agari.is_agari, Shanten().calculate_shanten, MahjongGB.MahjongShanten, MahjongGB.RegularShanten,
            (MahjongGB.RegularShanten, MahjongGB.SevenPairsShanten, MahjongGB.ThirteenOrphansShanten,
             MahjongGB.HonorsAndKnittedTilesShanten, MahjongGB.KnittedStraightShanten))


def rows(n: int, seed: int) -> list[dict]:
    is_agari, mj_shanten, gb_shanten, gb_regular, gb_shapes = _anchors()
    rng = random.Random(seed)
    h14 = random_hands(rng, n, 14)
    h13 = random_hands(rng, n, 13)
    waiting = waiting_hands(rng, n)
    complete = complete_hands(rng, n)

    def agari_34(counts: list[int]) -> list[int]:
        found = []
        for t in range(NUM_KINDS):
            if counts[t] < 4:
                counts[t] += 1
                if is_agari(counts):
                    found.append(t)
                counts[t] -= 1
        return found

    def gb_discards(tiles: tuple[str, ...]) -> list[tuple]:
        out = []
        for i, t in enumerate(tiles):
            if i and tiles[i - 1] == t:
                continue
            rest = tiles[:i] + tiles[i + 1:]
            out.append(tuple(f(rest) for f in gb_shapes))
        return out

    def gb(hands: Sequence[list[int]]) -> list[tuple[str, ...]]:
        return [tuple(_GB[t] for t in h) for h in hands]

    out: list[dict] = []

    def add(op: str, impl: str, fn: Callable[..., object], inputs: Sequence[tuple], repeat: int = 20) -> None:
        out.append({"op": op, "impl": impl, "median_us": round(median_us(fn, inputs, repeat), 3)})

    add("win_check", OURS, shapes.is_complete_counts, [(to_counts(h),) for h in h14], 50)
    add("win_check", "mahjong", is_agari, [(to_counts(h),) for h in h14], 50)
    # Random 14-tile hands almost never win; the same check on winning hands, for information.
    add("win_check_winning", OURS, shapes.is_complete_counts, [(to_counts(h),) for h in complete], 50)
    add("win_check_winning", "mahjong", is_agari, [(to_counts(h),) for h in complete], 50)
    add("shanten", OURS, analysis.shanten, [(to_counts(h),) for h in h13])
    add("shanten", "pymahjonggb", gb_shanten, [((), g) for g in gb(h13)])
    add("shanten", "mahjong", mj_shanten, [(to_counts(h),) for h in h13])
    add("waits", OURS, api.analyze, [(make_hand(h, sizes=(13,)), (), "mcr") for h in waiting])
    add("waits", "mahjong", agari_34, [(to_counts(h),) for h in waiting], 5)
    add("waits", "pymahjonggb", gb_regular, [(g,) for g in gb(waiting)], 5)
    h14_some = h14[: max(1, n // 4)]
    add("discard_advice", OURS, api.analyze, [(make_hand(h, sizes=(14,)), (), "mcr") for h in h14_some], 3)
    add("discard_advice", "pymahjonggb", gb_discards, [(g,) for g in gb(h14_some)], 3)
    return out
