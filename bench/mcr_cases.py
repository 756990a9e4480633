"""Seeded generator of legal, consistent MCR winning situations, and the bridge to pymahjonggb.

`cases(n, seed)` yields `Case(hand, ctx, template)`: concealed and melded hands, concealed, exposed
and added kongs, seven pairs, thirteen orphans, honours-and-knitted, knitted straights, and one
template per family of fans so that every one of the 81 fans shows up. Contexts are consistent
(the situations a real game produces), so the engine and the oracle meet on the same ground:
a replacement-tile win always has a kong, a robbed tile is never held, last-of-kind is never set
while a copy is in the concealed hand.

`oracle_args(hand, ctx)` turns a situation into pymahjonggb's `MahjongFanCalculator` arguments.
pymahjonggb cannot express an added kong: it is passed as an exposed kong (GANG with the seat it
was claimed from), which is how MCR scores an added kong anyway.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.hand import ClaimedFrom, Hand, Meld, MeldKind, WinContext, Wind, make_hand, make_meld
from engine.shapes import KNITTED_PATTERNS

Spec = list[tuple[str, int]]  # ("chow"|"pung"|"pair", first tile)

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
HONORS = WINDS + DRAGONS
ORPHANS = (0, 8, 9, 17, 18, 26) + HONORS


@dataclass(frozen=True)
class Case:
    hand: Hand
    ctx: WinContext
    template: str


# ---------------------------------------------------------------- oracle bridge

_ORACLE_HONORS = ("F1", "F2", "F3", "F4", "J1", "J2", "J3")  # E S W N red green white


def oracle_tile(t: int) -> str:
    if t >= 27:
        return _ORACLE_HONORS[t - 27]
    return "WBT"[t // 9] + str(t % 9 + 1)  # characters W, dots B, bamboo T


def oracle_args(hand: Hand, ctx: WinContext) -> tuple:
    packs = []
    for m in hand.melds:
        if m.kind == MeldKind.CHOW:
            offer = (m.claimed_index + 1) if m.claimed_index is not None else 1
            packs.append(("CHI", oracle_tile(m.tiles[1]), offer))
        elif m.kind == MeldKind.PUNG:
            packs.append(("PENG", oracle_tile(m.first), int(m.claimed_from) or 1))
        else:
            packs.append(("GANG", oracle_tile(m.first), 0 if m.concealed else (int(m.claimed_from) or 1)))
    assert hand.winning_tile is not None
    return (tuple(packs), tuple(oracle_tile(t) for t in hand.concealed), oracle_tile(hand.winning_tile),
            ctx.flowers, ctx.self_drawn, ctx.last_of_kind, ctx.robbing_kong or ctx.replacement_tile,
            ctx.last_wall_tile, int(ctx.seat_wind), int(ctx.prevalent_wind))


def oracle_fans(hand: Hand, ctx: WinContext) -> dict[str, int] | None:
    """{English name: count} from pymahjonggb, or None when it says the hand does not win."""
    from MahjongGB import MahjongFanCalculator

    try:
        result = MahjongFanCalculator(*oracle_args(hand, ctx), True)
    except TypeError:
        return None
    return {en: cnt for _pts, cnt, _zh, en in result}


def oracle_total(hand: Hand, ctx: WinContext) -> int:
    from MahjongGB import MahjongFanCalculator

    return sum(p * c for p, c, _, _ in MahjongFanCalculator(*oracle_args(hand, ctx), True))


# ---------------------------------------------------------------- building blocks

def _suited(rng: random.Random, ranks: tuple[int, ...] = tuple(range(1, 10)), suits: tuple[int, ...] = (0, 1, 2)
            ) -> int:
    return 9 * rng.choice(suits) + rng.choice(ranks) - 1


def _chow(rng: random.Random, starts: tuple[int, ...] = tuple(range(1, 8)), suits: tuple[int, ...] = (0, 1, 2)
          ) -> tuple[str, int]:
    return ("chow", 9 * rng.choice(suits) + rng.choice(starts) - 1)


def _any_set(rng: random.Random, suits: tuple[int, ...] = (0, 1, 2), honors: bool = True,
             pung_share: float = 0.4) -> tuple[str, int]:
    if rng.random() < pung_share:
        if honors and rng.random() < 0.3:
            return ("pung", rng.choice(HONORS))
        return ("pung", _suited(rng, suits=suits))
    return _chow(rng, suits=suits)


def _any_pair(rng: random.Random, suits: tuple[int, ...] = (0, 1, 2), honors: bool = True) -> tuple[str, int]:
    if honors and rng.random() < 0.3:
        return ("pair", rng.choice(HONORS))
    return ("pair", _suited(rng, suits=suits))


def _sets_from(rng: random.Random, tiles: tuple[int, ...], n: int, chows: bool = True) -> Spec:
    """n sets using only `tiles` (chows only where the whole run is allowed)."""
    allowed = set(tiles)
    options: list[tuple[str, int]] = [("pung", t) for t in tiles]
    if chows:
        options += [("chow", t) for t in tiles if t < 27 and t % 9 <= 6 and t + 1 in allowed and t + 2 in allowed]
    return [rng.choice(options) for _ in range(n)]


def _spec_tiles(spec: Spec) -> list[int]:
    out: list[int] = []
    for kind, t in spec:
        out += [t, t + 1, t + 2] if kind == "chow" else [t] * (3 if kind == "pung" else 2)
    return out


# ---------------------------------------------------------------- templates (each returns a spec)

def t_random(rng: random.Random) -> Spec:
    return [_any_set(rng) for _ in range(4)] + [_any_pair(rng)]


def t_two_suits(rng: random.Random) -> Spec:
    suits = tuple(rng.sample((0, 1, 2), 2))
    h = rng.random() < 0.5
    return [_any_set(rng, suits, h) for _ in range(4)] + [_any_pair(rng, suits, h)]


def t_one_suit(rng: random.Random) -> Spec:
    s = (rng.randrange(3),)
    h = rng.random() < 0.5
    return [_any_set(rng, s, h) for _ in range(4)] + [_any_pair(rng, s, h)]


def t_chows(rng: random.Random) -> Spec:
    return [_chow(rng) for _ in range(4)] + [_any_pair(rng, honors=rng.random() < 0.2)]


def t_pungs(rng: random.Random) -> Spec:
    return [_any_set(rng, pung_share=1.0) for _ in range(4)] + [_any_pair(rng)]


def t_ranks(rng: random.Random) -> Spec:
    ranks = rng.choice(((1, 2, 3), (1, 2, 3, 4), (7, 8, 9), (6, 7, 8, 9), (4, 5, 6), (2, 4, 6, 8), (1, 9)))
    suits = tuple(rng.sample((0, 1, 2), rng.choice((1, 2, 3))))
    tiles = tuple(9 * s + r - 1 for s in suits for r in ranks)
    spec = _sets_from(rng, tiles, 4)
    return spec + [("pair", rng.choice(tiles))]


def t_simples(rng: random.Random) -> Spec:
    tiles = tuple(9 * s + r - 1 for s in (0, 1, 2) for r in range(2, 9))
    return _sets_from(rng, tiles, 4) + [("pair", rng.choice(tiles))]


def t_reversible(rng: random.Random) -> Spec:
    tiles = (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33)
    return _sets_from(rng, tiles, 4) + [("pair", rng.choice(tiles))]


def t_green(rng: random.Random) -> Spec:
    tiles = (19, 20, 21, 23, 25, 32)
    return _sets_from(rng, tiles, 4) + [("pair", rng.choice(tiles))]


def t_outside(rng: random.Random) -> Spec:
    options: list[tuple[str, int]] = [("chow", 9 * s + r) for s in (0, 1, 2) for r in (0, 6)]
    options += [("pung", t) for t in ORPHANS]
    return [rng.choice(options) for _ in range(4)] + [("pair", rng.choice(ORPHANS))]


def t_terminals_honors(rng: random.Random) -> Spec:
    pool = rng.choice((ORPHANS, ORPHANS[:6], HONORS))
    return [("pung", t) for t in rng.sample(pool, 4)] + [("pair", rng.choice(pool))]


def t_all_terminals(rng: random.Random) -> Spec:
    pool = ORPHANS[:6]
    return [("pung", t) for t in rng.sample(pool, 4)] + [("pair", rng.choice(pool))]


def t_chicken(rng: random.Random) -> Spec:
    """Unrelated sets in three suits and an honour pair: often worth nothing but the win."""
    s = rng.sample((0, 1, 2), 3)
    spec: Spec = [("chow", 9 * s[0] + rng.randrange(1, 6)), ("chow", 9 * s[1] + rng.randrange(1, 6)),
                  ("pung", 9 * s[2] + rng.randrange(1, 8)), ("chow", 9 * rng.choice(s) + rng.randrange(1, 6))]
    return spec + [("pair", rng.choice(HONORS))]


def t_all_five(rng: random.Random) -> Spec:
    options = [("chow", 9 * s + r) for s in (0, 1, 2) for r in (2, 3, 4)] + [("pung", 9 * s + 4) for s in (0, 1, 2)]
    return [rng.choice(options) for _ in range(4)] + [("pair", 9 * rng.randrange(3) + 4)]


def t_winds(rng: random.Random) -> Spec:
    n = rng.choice((3, 3, 4))
    winds = rng.sample(WINDS, n)
    spec: Spec = [("pung", w) for w in winds]
    spec += [_any_set(rng) for _ in range(4 - n)]
    rest = [w for w in WINDS if w not in winds]
    spec.append(("pair", rest[0]) if rest and rng.random() < 0.5 else _any_pair(rng))
    return spec


def t_dragons(rng: random.Random) -> Spec:
    n = rng.choice((2, 2, 3))
    dragons = rng.sample(DRAGONS, n)
    spec: Spec = [("pung", d) for d in dragons]
    spec += [_any_set(rng) for _ in range(4 - n)]
    rest = [d for d in DRAGONS if d not in dragons]
    spec.append(("pair", rest[0]) if rest and rng.random() < 0.5 else _any_pair(rng))
    return spec


def t_chow_family(rng: random.Random) -> Spec:
    """Three or four chows in one of the combination shapes."""
    s = rng.sample((0, 1, 2), 3)
    r = rng.randrange(0, 7)
    kind = rng.choice(("straight", "shifted1", "shifted2", "triple", "triple", "mixed_triple", "mixed_shifted",
                       "mixed_straight", "quad", "four_shift", "terminal", "three_terminal", "double"))
    if kind == "straight":
        sets = [9 * s[0], 9 * s[0] + 3, 9 * s[0] + 6]
    elif kind == "shifted1":
        r = min(r, 4)
        sets = [9 * s[0] + r + k for k in range(3)]
    elif kind == "shifted2":
        r = min(r, 2)
        sets = [9 * s[0] + r + 2 * k for k in range(3)]
    elif kind == "triple":
        sets = [9 * s[0] + r] * 3
    elif kind == "mixed_triple":
        sets = [9 * s[k] + r for k in range(3)]
    elif kind == "mixed_shifted":
        r = min(r, 4)
        sets = [9 * s[k] + r + k for k in range(3)]
    elif kind == "mixed_straight":
        sets = [9 * s[k] + 3 * k for k in range(3)]
    elif kind == "quad":
        sets = [9 * s[0] + r] * 4
    elif kind == "four_shift":
        step = rng.choice((1, 2))
        r = min(r, 6 - 3 * step)
        sets = [9 * s[0] + r + step * k for k in range(4)]
    elif kind == "terminal":
        sets = [9 * s[0], 9 * s[0], 9 * s[0] + 6, 9 * s[0] + 6]
        return [("chow", t) for t in sets] + [("pair", 9 * s[0] + 4)]
    elif kind == "three_terminal":
        sets = [9 * s[0], 9 * s[0] + 6, 9 * s[1], 9 * s[1] + 6]
        return [("chow", t) for t in sets] + [("pair", 9 * s[2] + 4)]
    else:
        sets = [9 * s[0] + r, 9 * rng.choice(s) + rng.randrange(7)]
    spec: Spec = [("chow", t) for t in sets]
    spec += [_any_set(rng, pung_share=0.3) for _ in range(4 - len(spec))]
    return spec + [_any_pair(rng)]


def t_pung_family(rng: random.Random) -> Spec:
    s = rng.sample((0, 1, 2), 3)
    r = rng.randrange(0, 7)
    kind = rng.choice(("pure_shift", "four_shift", "mixed_shift", "triple", "double", "even"))
    if kind == "pure_shift":
        tiles = [9 * s[0] + r + k for k in range(3)]
    elif kind == "four_shift":
        r = min(r, 5)
        tiles = [9 * s[0] + r + k for k in range(4)]
    elif kind == "mixed_shift":
        tiles = [9 * s[k] + r + k for k in range(3)]
    elif kind == "triple":
        tiles = [9 * s[k] + r for k in range(3)]
    elif kind == "double":
        tiles = [9 * s[0] + r, 9 * s[1] + r]
    else:
        evens = [9 * x + e for x in (0, 1, 2) for e in (1, 3, 5, 7)]
        return [("pung", t) for t in rng.sample(evens, 4)] + [("pair", rng.choice(evens))]
    spec: Spec = [("pung", t) for t in tiles]
    spec += [_any_set(rng) for _ in range(4 - len(spec))]
    return spec + [_any_pair(rng)]


def t_hog(rng: random.Random) -> Spec:
    t = _suited(rng, ranks=tuple(range(1, 8)))
    spec: Spec = [("pung", t), ("chow", t)] if rng.random() < 0.5 else [("chow", t), ("chow", t), ("pair", t)]
    n_sets = sum(1 for k, _ in spec if k != "pair")
    spec += [_any_set(rng) for _ in range(4 - n_sets)]
    if not any(k == "pair" for k, _ in spec):
        spec.append(_any_pair(rng))
    return spec


TEMPLATES: dict[str, Callable[[random.Random], Spec]] = {
    "random": t_random, "two_suits": t_two_suits, "one_suit": t_one_suit, "chows": t_chows,
    "pungs": t_pungs, "ranks": t_ranks, "simples": t_simples, "reversible": t_reversible, "green": t_green,
    "outside": t_outside, "terminals_honors": t_terminals_honors, "all_five": t_all_five, "winds": t_winds,
    "dragons": t_dragons, "all_terminals": t_all_terminals, "chicken": t_chicken, "chow_family": t_chow_family,
    "pung_family": t_pung_family, "hog": t_hog,
}
# Relative frequency of each template (standard ones) and of the special shapes below.
WEIGHTS: dict[str, int] = {
    "random": 10, "two_suits": 5, "one_suit": 5, "chows": 5, "pungs": 5, "ranks": 12, "simples": 3,
    "reversible": 3, "green": 5, "outside": 3, "terminals_honors": 3, "all_terminals": 2, "all_five": 2,
    "winds": 3, "dragons": 3, "chicken": 8, "chow_family": 14, "pung_family": 6, "hog": 3,
    "seven_pairs": 4, "thirteen_orphans": 1, "honors_knitted": 3, "knitted_straight": 3, "nine_gates": 2,
    "kongs": 6,
}


# ---------------------------------------------------------------- turning a spec into a situation

def _meld_for(rng: random.Random, kind: str, t: int, counts: list[int], kong_p: float) -> Meld:
    if kind == "chow":
        return make_meld(MeldKind.CHOW, (t, t + 1, t + 2), claimed_from=ClaimedFrom.LEFT,
                         claimed_index=rng.randrange(3))
    if counts[t] == 3 and rng.random() < kong_p:
        style = rng.choice(("exposed", "added", "concealed"))
        counts[t] += 1
        if style == "concealed":
            return make_meld(MeldKind.KONG, (t,) * 4, concealed=True)
        return make_meld(MeldKind.KONG, (t,) * 4, added=style == "added",
                         claimed_from=ClaimedFrom(rng.randrange(1, 4)))
    return make_meld(MeldKind.PUNG, (t,) * 3, claimed_from=ClaimedFrom(rng.randrange(1, 4)))


def _situation(rng: random.Random, spec: Spec, meld_p: float, kong_p: float) -> tuple[Hand, int] | None:
    counts = [0] * 34
    for t in _spec_tiles(spec):
        counts[t] += 1
    if max(counts) > 4:
        return None
    sets = [s for s in spec if s[0] != "pair"]
    pair = [s for s in spec if s[0] == "pair"]
    melds: list[Meld] = []
    concealed: list[int] = []
    hidden_sets: Spec = []
    for kind, t in sets:
        if rng.random() < meld_p:
            melds.append(_meld_for(rng, kind, t, counts, kong_p))
        elif kind == "pung" and counts[t] == 3 and rng.random() < kong_p / 2:
            counts[t] += 1  # a concealed kong declared from the hand
            melds.append(make_meld(MeldKind.KONG, (t,) * 4, concealed=True))
        else:
            hidden_sets.append((kind, t))
    hidden_sets += pair
    for t in _spec_tiles(hidden_sets):
        concealed.append(t)
    win = rng.choice(concealed)
    concealed.remove(win)
    rng.shuffle(melds)
    return make_hand(concealed, melds, win), win


def _special(rng: random.Random, name: str) -> tuple[list[int], str]:
    if name == "seven_pairs":
        if rng.random() < 0.25:  # seven shifted pairs
            s, r = rng.randrange(3), rng.randrange(3)
            tiles = [9 * s + r + k for k in range(7)] * 2
        else:
            pool = rng.choice((list(range(34)), [9 * rng.randrange(3) + k for k in range(9)] + list(HONORS),
                               list(ORPHANS), [t for t in range(27) if t % 9 not in (0, 8)]))
            kinds = rng.sample(pool, 7)
            if rng.random() < 0.3:  # a four of a kind as two pairs
                kinds[1] = kinds[0]
            tiles = kinds * 2
    elif name == "thirteen_orphans":
        tiles = list(ORPHANS) + [rng.choice(ORPHANS)]
    elif name == "honors_knitted":
        pat = list(rng.choice(KNITTED_PATTERNS))
        n_honors = rng.choice((5, 6, 7, 7))
        tiles = rng.sample(pat, 14 - n_honors) + rng.sample(HONORS, n_honors)
    else:  # nine gates
        base = 9 * rng.randrange(3)
        tiles = [base] * 3 + [base + r for r in range(1, 8)] + [base + 8] * 3 + [base + rng.randrange(9)]
    return tiles, name


def _knitted(rng: random.Random) -> tuple[Hand, int] | None:
    pat = list(rng.choice(KNITTED_PATTERNS))
    extra = [_any_set(rng, pung_share=0.4), _any_pair(rng)]
    counts = [0] * 34
    for t in pat + _spec_tiles(extra):
        counts[t] += 1
    if max(counts) > 4:
        return None
    melds: list[Meld] = []
    hidden = list(pat)
    if rng.random() < 0.4:
        melds.append(_meld_for(rng, extra[0][0], extra[0][1], counts, 0.3))
        hidden += _spec_tiles(extra[1:])
    else:
        hidden += _spec_tiles(extra)
    win = rng.choice(hidden)
    hidden.remove(win)
    return make_hand(hidden, melds, win), win


def _kongs_spec(rng: random.Random) -> Spec:
    n = rng.choice((2, 3, 4, 4))
    tiles = rng.sample(range(34), n)
    spec: Spec = [("pung", t) for t in tiles] + [_any_set(rng) for _ in range(4 - n)]
    return spec + [_any_pair(rng)]


def _context(rng: random.Random, hand: Hand) -> WinContext:
    win = hand.winning_tile
    assert win is not None
    self_drawn = rng.random() < 0.5
    has_kong = any(m.is_kong for m in hand.melds)
    replacement = self_drawn and has_kong and rng.random() < 0.2
    robbing = (not self_drawn and hand.counts()[win] == 1 and rng.random() < 0.25)
    last_wall = not robbing and not replacement and rng.random() < 0.12
    last_of_kind = win not in hand.concealed and not robbing and rng.random() < 0.25
    flowers = rng.choice((0, 0, 0, 1, 2, 3, 8)) if rng.random() < 0.5 else 0
    return WinContext(self_drawn=self_drawn, last_of_kind=last_of_kind, replacement_tile=replacement,
                      robbing_kong=robbing, last_wall_tile=last_wall, seat_wind=Wind(rng.randrange(4)),
                      prevalent_wind=Wind(rng.randrange(4)), flowers=flowers)


def one_case(rng: random.Random, name: str) -> Case:
    """A case from template `name` (retried until the drawn tiles are legal)."""
    while True:
        built: tuple[Hand, int] | None
        if name in ("seven_pairs", "thirteen_orphans", "honors_knitted", "nine_gates"):
            tiles, _ = _special(rng, name)
            if max(tiles.count(t) for t in tiles) > 4:
                continue
            # Nine Gates waits on any tile of its suit: the extra tile is the winning one.
            win = tiles[-1] if name == "nine_gates" else rng.choice(tiles)
            rest = list(tiles)
            rest.remove(win)
            built = make_hand(rest, (), win), win
        elif name == "knitted_straight":
            built = _knitted(rng)
        elif name == "kongs":
            built = _situation(rng, _kongs_spec(rng), meld_p=0.6, kong_p=0.9)
        elif name == "chicken":  # declared sets but one chow, won on a discard: nothing else scores
            built = _situation(rng, TEMPLATES[name](rng), meld_p=0.8, kong_p=0.0)
            if built is not None and len(built[0].melds) in (2, 3):
                ctx = _context(rng, built[0])
                ctx = WinContext(seat_wind=ctx.seat_wind, prevalent_wind=ctx.prevalent_wind, flowers=ctx.flowers)
                return Case(built[0], ctx, name)
            continue
        else:
            meld_p = rng.choice((0.0, 0.0, 0.25, 0.5, 1.0))
            built = _situation(rng, TEMPLATES[name](rng), meld_p=meld_p, kong_p=0.2)
        if built is None:
            continue
        hand, _ = built
        return Case(hand, _context(rng, hand), name)


def cases(n: int, seed: int) -> Iterator[Case]:
    """n cases; templates come round in a shuffled cycle, in proportion to WEIGHTS, so that every
    run of a few hundred cases covers every template whatever the seed."""
    rng = random.Random(seed)
    cycle = [name for name, w in WEIGHTS.items() for _ in range(w)]
    for i in range(n):
        if i % len(cycle) == 0:
            rng.shuffle(cycle)
        yield one_case(rng, cycle[i % len(cycle)])
