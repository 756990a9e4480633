"""Seeded Sichuan situations for the benchmark: winning hands of one or two suits (standard or seven
pairs, with or without declared pungs and kongs) and a plain context, each a legal Sichuan win."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from engine.hand import ClaimedFrom, Hand, Meld, MeldKind, Suit, WinContext, Wind, make_hand, make_meld
from engine.rules.sichuan.options import SichuanOptions
from engine.rules.sichuan.scoring import score


@dataclass(frozen=True)
class Situation:
    hand: Hand
    ctx: WinContext


def _sets(rng: random.Random, suits: list[int], counts: list[int], n: int) -> list[tuple[str, int]] | None:
    out: list[tuple[str, int]] = []
    for _ in range(n):
        for _attempt in range(20):
            base = 9 * rng.choice(suits)
            if rng.random() < 0.5:
                r = rng.randrange(7)
                tiles = [base + r, base + r + 1, base + r + 2]
                kind = "chow"
            else:
                tiles = [base + rng.randrange(9)] * 3
                kind = "pung"
            if all(counts[t] + tiles.count(t) <= 4 for t in set(tiles)):
                for t in tiles:
                    counts[t] += 1
                out.append((kind, tiles[0]))
                break
        else:
            return None
    return out


def situations(n: int, seed: int) -> Iterator[Situation]:
    rng = random.Random(seed)
    made = 0
    while made < n:
        suits = rng.sample([0, 1, 2], rng.choice([1, 2, 2, 2]))
        counts = [0] * 27
        tiles: list[int] = []
        melds: list[Meld] = []
        if rng.random() < 0.12:  # seven pairs
            kinds = [9 * rng.choice(suits) + rng.randrange(9) for _ in range(7)]
            if any(kinds.count(k) > 2 for k in kinds):
                continue
            tiles = sorted(k for k in kinds for _ in range(2))
        else:
            sets = _sets(rng, suits, counts, 4)
            pair = 9 * rng.choice(suits) + rng.randrange(9)
            if sets is None or counts[pair] > 2:
                continue
            tiles = [pair, pair]
            n_melds = rng.choice([0, 0, 1, 2, 3, 4])
            for kind, first in sets:
                if kind == "pung" and len(melds) < n_melds:
                    how = rng.choice(["pung", "pung", "kong", "concealed"])
                    if how != "pung" and counts[first] < 4:
                        melds.append(make_meld(MeldKind.KONG, (first,) * 4, concealed=how == "concealed",
                                               claimed_from=ClaimedFrom.NONE if how == "concealed" else
                                               ClaimedFrom.LEFT))
                        counts[first] += 1
                    else:
                        melds.append(make_meld(MeldKind.PUNG, (first,) * 3, claimed_from=ClaimedFrom.LEFT))
                else:
                    tiles += [first] * 3 if kind == "pung" else [first, first + 1, first + 2]
        win = rng.choice(tiles)
        tiles.remove(win)
        hand = make_hand(tiles, melds, win)
        void = next(s for s in (0, 1, 2) if s not in suits)
        self_drawn = rng.random() < 0.5
        ctx = WinContext(seat_wind=Wind(rng.randrange(4)), self_drawn=self_drawn,
                         discarded_by=ClaimedFrom.NONE if self_drawn else ClaimedFrom(rng.randrange(1, 4)),
                         void_suit=Suit(void))
        if not score(hand, ctx, SichuanOptions()).is_win:  # pragma: no cover - built as a win
            continue
        made += 1
        yield Situation(hand, ctx)
