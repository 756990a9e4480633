"""Seeded generator of legal, consistent Hong Kong winning situations, and the bridge to hk-mahjong.

`cases(n, seed)` yields `Case(hand, ctx, template)`. Templates cover every pattern of the hk table:
random hands, all chows, all pungs, one suit with and without honours, dragon and wind pungs (seat,
prevalent, small and great dragons and winds), all honours, mixed orphans, orphans, thirteen orphans,
nine gates, concealed pungs (self-drawn and on a discard), kongs of every kind and all kongs, heavenly
and earthly hands; flowers (the seat's, complete groups, none) and the ways of winning (self-draw,
replacement tile, robbing a kong, last tile) are drawn over all of them. Contexts are the ones a real
game produces: a replacement tile only after a kong and self-drawn, a robbed tile never held twice, a
discarder only on a discard, first-turn wins with nothing declared.

`oracle_item(case)` is the JSON line tests/support/node_hk/score.js reads (hk-mahjong's FaanCalculationConfig).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from engine.hand import ClaimedFrom, Flower, Hand, Meld, MeldKind, WinContext, Wind, make_meld, winning_hand
from engine.tiles import DRAGONS, TERMINALS, WINDS

Spec = list[tuple[str, int]]  # ("chow" | "pung" | "pair", first tile)

HONOURS = WINDS + DRAGONS
ORPHANS = TERMINALS + HONOURS


@dataclass(frozen=True)
class Case:
    hand: Hand
    ctx: WinContext
    template: str


# ---------------------------------------------------------------------------------------------
# oracle bridge

_SUIT_CODES = "cdb"  # characters, dots, bamboo: hk-mahjong's suits
_WIND_NAMES = ("east", "south", "west", "north")
_FLOWER_NAMES = ("plum", "lily", "chrysanthemum", "bamboo", "spring", "summer", "autumn", "winter")


def oracle_tile(t: int) -> str:
    """hk-mahjong's honours are E S W N red green white (1-7), the engine's order from 27."""
    return f"h{t - 26}" if t >= 27 else f"{_SUIT_CODES[t // 9]}{t % 9 + 1}"


def oracle_item(case: Case, flowers_played: bool = True) -> dict:
    hand, ctx = case.hand, case.ctx
    assert hand.winning_tile is not None
    held = set(ctx.flower_tiles)
    config = {
        "selfPick": ctx.self_drawn,
        "fullyConcealedHand": all(m.concealed for m in hand.melds),
        "seatWind": _WIND_NAMES[ctx.seat_wind],
        "roundWind": _WIND_NAMES[ctx.prevalent_wind],
        "robbingKong": ctx.robbing_kong,
        "winByKong": ctx.replacement_tile,
        "winByLastCatch": ctx.last_wall_tile,
        "heavenlyHand": ctx.heavenly,
        "earthlyHand": ctx.earthly,
        "extraTiles": {name: Flower(i) in held for i, name in enumerate(_FLOWER_NAMES)},
        "enableBonusFaanDueToZeroExtraTile": flowers_played,
    }
    return {
        "concealed": [oracle_tile(t) for t in hand.all_concealed()],
        "melds": [[oracle_tile(t) for t in m.tiles] for m in hand.melds],
        "config": config,
    }


# ---------------------------------------------------------------------------------------------
# generator

def _suited(rng: random.Random, suits: tuple[int, ...] = (0, 1, 2)) -> int:
    return 9 * rng.choice(suits) + rng.randrange(9)


def _chow(rng: random.Random, suits: tuple[int, ...] = (0, 1, 2)) -> tuple[str, int]:
    return ("chow", 9 * rng.choice(suits) + rng.randrange(7))


def _set(rng: random.Random, suits: tuple[int, ...] = (0, 1, 2), honours: bool = True) -> tuple[str, int]:
    r = rng.random()
    if r < 0.55:
        return _chow(rng, suits)
    if honours and r < 0.75:
        return ("pung", rng.choice(HONOURS))
    return ("pung", _suited(rng, suits))


def _template(rng: random.Random, name: str) -> Spec:
    suit = (rng.randrange(3),)
    if name == "random":
        return [_set(rng) for _ in range(4)] + [("pair", rng.choice(range(34)))]
    if name == "all_chows":
        return [_chow(rng) for _ in range(4)] + [("pair", rng.randrange(34))]
    if name in ("all_pungs", "all_kongs"):
        return [("pung", rng.randrange(34)) for _ in range(4)] + [("pair", rng.randrange(34))]
    if name == "one_suit":
        return [_set(rng, suit, honours=False) for _ in range(4)] + [("pair", _suited(rng, suit))]
    if name == "mixed_one_suit":
        sets = [_set(rng, suit, honours=True) for _ in range(4)]
        pair = rng.choice(HONOURS) if rng.random() < 0.5 else _suited(rng, suit)
        sets[rng.randrange(4)] = ("pung", rng.choice(HONOURS))
        return sets + [("pair", pair)]
    if name == "dragons":
        n = rng.choice((1, 2, 2, 3))
        dragons = rng.sample(DRAGONS, 3)
        sets = [("pung", d) for d in dragons[:n]] + [_set(rng) for _ in range(4 - n)]
        pair = dragons[2] if n == 2 and rng.random() < 0.6 else rng.randrange(34)
        return sets + [("pair", pair)]
    if name == "winds":
        n = rng.choice((1, 2, 3, 3, 4))
        winds = rng.sample(WINDS, 4)
        sets = [("pung", w) for w in winds[:n]] + [_set(rng) for _ in range(4 - n)]
        pair = winds[3] if n == 3 and rng.random() < 0.6 else rng.randrange(34)
        return sets + [("pair", pair)]
    if name == "all_honours":
        tiles = rng.sample(HONOURS, 5)
        return [("pung", t) for t in tiles[:4]] + [("pair", tiles[4])]
    if name == "mixed_orphans":
        tiles = rng.sample(ORPHANS, 5)
        return [("pung", t) for t in tiles[:4]] + [("pair", tiles[4])]
    if name == "orphans":
        tiles = rng.sample(TERMINALS, 5)
        return [("pung", t) for t in tiles[:4]] + [("pair", tiles[4])]
    if name == "concealed_pungs":
        tiles = rng.sample(range(34), 5)
        return [("pung", t) for t in tiles[:4]] + [("pair", tiles[4])]
    if name in ("kongs", "first_turn"):
        return [_set(rng) for _ in range(4)] + [("pair", rng.randrange(34))]
    raise ValueError(name)


TEMPLATES = ("random", "all_chows", "all_pungs", "one_suit", "mixed_one_suit", "dragons", "winds", "all_honours",
             "mixed_orphans", "orphans", "concealed_pungs", "kongs", "all_kongs", "thirteen_orphans", "nine_gates",
             "first_turn")
WEIGHTS = (14, 8, 8, 8, 8, 8, 8, 4, 4, 3, 6, 6, 3, 3, 3, 4)


def _flowers(rng: random.Random) -> tuple[Flower, ...]:
    r = rng.random()
    if r < 0.35:
        return ()
    if r < 0.45:
        group = rng.randrange(2)
        extra = rng.sample([f for f in Flower if int(f) // 4 != group], rng.randrange(5))
        return tuple(Flower(4 * group + i) for i in range(4)) + tuple(extra)
    if r < 0.47:
        return tuple(Flower)
    return tuple(rng.sample(list(Flower), rng.choice((1, 1, 2, 2, 3, 4))))


def _tiles_of(kind: str, first: int) -> list[int]:
    if kind == "chow":
        return [first, first + 1, first + 2]
    return [first] * (2 if kind == "pair" else 3)


def _declare(rng: random.Random, spec: Spec, template: str) -> tuple[list[Meld], list[int]]:
    """Which sets are declared (and how), and the concealed tiles (winning tile included)."""
    melds: list[Meld] = []
    concealed: list[int] = []
    p_meld = {"concealed_pungs": 0.0, "nine_gates": 0.0, "first_turn": 0.0}.get(template, 0.35)
    p_kong = {"kongs": 0.6, "all_kongs": 1.0, "concealed_pungs": 0.3}.get(template, 0.08)
    for kind, first in spec:
        if kind == "pair":
            concealed += _tiles_of(kind, first)
            continue
        if kind == "pung" and rng.random() < p_kong and template != "first_turn":
            how = rng.random()
            if template == "concealed_pungs" or how < 0.4:
                melds.append(make_meld(MeldKind.KONG, [first] * 4, concealed=True))
            elif how < 0.7:
                melds.append(make_meld(MeldKind.KONG, [first] * 4, claimed_from=ClaimedFrom(rng.randrange(1, 4))))
            else:
                melds.append(make_meld(MeldKind.KONG, [first] * 4, added=True,
                                       claimed_from=ClaimedFrom(rng.randrange(1, 4))))
        elif rng.random() < p_meld:
            mk = MeldKind.CHOW if kind == "chow" else MeldKind.PUNG
            src = ClaimedFrom.LEFT if kind == "chow" else ClaimedFrom(rng.randrange(1, 4))
            melds.append(make_meld(mk, _tiles_of(kind, first), claimed_from=src, claimed_index=rng.randrange(3)))
        else:
            concealed += _tiles_of(kind, first)
    return melds, concealed


def _context(rng: random.Random, hand: Hand, template: str) -> WinContext:
    seat, prevalent = Wind(rng.randrange(4)), Wind(rng.randrange(4))
    flowers = _flowers(rng)
    win = hand.winning_tile
    assert win is not None
    if template == "first_turn":
        heavenly = seat == Wind.EAST
        self_drawn = heavenly or rng.random() < 0.5
        return WinContext(self_drawn=self_drawn, heavenly=heavenly, earthly=not heavenly, seat_wind=seat,
                          prevalent_wind=prevalent, flowers=len(flowers), flower_tiles=flowers,
                          discarded_by=ClaimedFrom.NONE if self_drawn else ClaimedFrom(rng.randrange(1, 4)))
    self_drawn = rng.random() < 0.5
    has_kong = any(m.is_kong for m in hand.melds)
    replacement = self_drawn and has_kong and rng.random() < 0.35
    robbing = not self_drawn and hand.counts()[win] == 1 and rng.random() < 0.15
    last = not robbing and rng.random() < 0.08
    discarded_by = ClaimedFrom.NONE if self_drawn else ClaimedFrom(rng.randrange(1, 4))
    return WinContext(self_drawn=self_drawn, replacement_tile=replacement, robbing_kong=robbing,
                      last_wall_tile=last, seat_wind=seat, prevalent_wind=prevalent, flowers=len(flowers),
                      flower_tiles=flowers, discarded_by=discarded_by)


def _special(rng: random.Random, template: str) -> list[int]:
    if template == "thirteen_orphans":
        return list(ORPHANS) + [rng.choice(ORPHANS)]
    base = 9 * rng.randrange(3)
    return [base + r for r, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)) for _ in range(n)] + [base + rng.randrange(9)]


def case(rng: random.Random, template: str) -> Case | None:
    """One situation of `template`, or None when the draw broke a rule (a fifth copy)."""
    if template in ("thirteen_orphans", "nine_gates"):
        melds: list[Meld] = []
        concealed = _special(rng, template)
    else:
        melds, concealed = _declare(rng, _template(rng, template), template)
    counts = [0] * 34
    for t in concealed + [t for m in melds for t in m.tiles]:
        counts[t] += 1
    if max(counts) > 4:
        return None
    win = rng.choice(concealed)
    concealed.remove(win)
    hand = winning_hand(concealed, melds, win)
    return Case(hand, _context(rng, hand, template), template)


def cases(n: int, seed: int = 0) -> Iterator[Case]:
    rng = random.Random(seed)
    made = 0
    while made < n:
        template = rng.choices(TEMPLATES, WEIGHTS)[0]
        c = case(rng, template)
        if c is not None:
            made += 1
            yield c
