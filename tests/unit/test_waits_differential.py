"""Analyze's waits and shanten against brute force, for every rule set (the expert review's issue:
Sichuan called hands ready that could not win).

On seeded 13-tile hands (near-complete ones built from sets and a pair, some with one tile swapped
for a random one, with and without declared melds; Sichuan with and without a void suit; Guangdong
with and without ghosts):

(a) the waits Analyze reports that can be met (not `all_copies_held`) are exactly the tiles, among
    those the rule set plays, whose addition the rule set's own win check accepts: the shapes it plays
    (engine.shapes / engine.wildcards), and its tile constraints (Sichuan: its `score`, which holds
    缺一门; Guangdong: its `score`, which also wins on four ghosts);
(b) shanten is 0 exactly when Analyze reports a wait (never -1 for 13 tiles). A wait whose four copies
    the player already holds (`all_copies_held`: the proto's "the wait can never be met") is reported,
    flagged, by the shared analysis, and counts as waiting there; Sichuan reports no such wait: a hand
    whose only completion is a fifth copy is not ready (its shanten is 1).

The default run is a few seconds; `-m slow` runs many more hands.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine import api, rules
from engine.errors import BadMeldError
from engine.hand import ClaimedFrom, Hand, Meld, MeldKind, Suit, WinContext, make_hand, make_meld
from engine.rules.guangdong.options import GuangdongOptions
from engine.rules.model import Options
from engine.rules.sichuan.options import SichuanOptions
from engine.rules.sichuan.ready import kept_suit_choices
from engine.shapes import ShapeKind, decompositions
from engine.tiles import WHITE, is_honor, rank_of, suit_of

Case = tuple[str, Options | None]


def _cases(rng: random.Random) -> list[Case]:
    out: list[Case] = [("mcr", None), ("mcr2p", None), ("riichi", None), ("hk", None), ("guangdong", None),
                       ("guangdong", GuangdongOptions(ghosts=(WHITE,))),
                       ("guangdong", GuangdongOptions(ghosts=tuple(sorted(rng.sample(range(34), 2))))),
                       ("sichuan", SichuanOptions())]
    out += [("sichuan", SichuanOptions(void_suit=s)) for s in (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO)]
    return out


def _win_check(name: str, opts: Options | None) -> Callable[[Hand], bool]:
    """The rule set's own win check: the shapes it plays and its tile constraints."""
    rs = rules.get(name)
    o = rs.options(opts)
    if name in ("sichuan", "guangdong"):  # 缺一门 / ghosts and four ghosts live in the rule set's score
        ctx = WinContext(discarded_by=ClaimedFrom.LEFT) if name == "sichuan" else WinContext(self_drawn=True)
        return lambda h: rs.score(h, ctx, o).is_win
    return lambda h: any(d.kind in rs.shapes for d in decompositions(h, rs.allow_quad_pairs))


def _sets(kinds: list[int], rng: random.Random) -> list[int]:
    """A random concealed set over `kinds` (a chow only in a suit)."""
    t = rng.choice(kinds)
    if not is_honor(t) and rank_of(t) <= 6 and t + 2 in kinds and rng.random() < 0.5:
        return [t, t + 1, t + 2]
    return [t] * 3


def _hand(name: str, opts: Options | None, rng: random.Random) -> Hand | None:
    rs = rules.get(name)
    kinds = sorted(rs.tiles)
    if name == "sichuan":  # mostly two suits, sometimes three, so that 缺一门 is met and broken
        suits = rng.sample((0, 1, 2), rng.choice((1, 2, 2, 2, 3)))
        kinds = [t for t in kinds if suit_of(t) in suits]
    if name == "guangdong" and isinstance(opts, GuangdongOptions) and not opts.honors:
        kinds = [t for t in kinds if not is_honor(t)]
    ghosts = set(opts.ghosts) if isinstance(opts, GuangdongOptions) else set()
    n_melds = rng.choice((0, 0, 0, 1, 2, 4))
    melds: list[Meld] = []
    counts = [0] * 34
    for _ in range(n_melds):
        t = rng.choice([k for k in kinds if k not in ghosts])
        kind = rng.choice((MeldKind.PUNG, MeldKind.KONG))
        melds.append(make_meld(kind, [t] * (3 if kind == MeldKind.PUNG else 4), claimed_from=ClaimedFrom.LEFT))
        counts[t] += 3 if kind == MeldKind.PUNG else 4
    concealed: list[int] = []
    if not melds and ShapeKind.SEVEN_PAIRS in rs.shapes and rng.random() < 0.2:
        for t in rng.sample(kinds, 7):
            concealed += [t, t]
    else:
        for _ in range(4 - n_melds):
            concealed += _sets(kinds, rng)
        concealed += [rng.choice(kinds)] * 2
    concealed.remove(rng.choice(concealed))
    if rng.random() < 0.5:  # one tile swapped for any tile the rule set plays: ready or not
        concealed.remove(rng.choice(concealed))
        concealed.append(rng.choice(sorted(rs.tiles)))
    if ghosts and rng.random() < 0.4:  # two to four ghosts: 四鬼胡牌 is near
        for _ in range(rng.choice((1, 2, 3, 4))):
            concealed[rng.randrange(len(concealed))] = rng.choice(sorted(ghosts))
    for t in concealed:
        counts[t] += 1
    if max(counts) > 4:
        return None
    return make_hand(concealed, melds, sizes=(13,))


def _check(name: str, opts: Options | None, hand: Hand, win: Callable[[Hand], bool]) -> None:
    rs = rules.get(name)
    held = hand.counts()
    brute = set()
    for t in sorted(rs.tiles):
        if held[t] >= 4:
            continue
        if win(make_hand(hand.concealed, hand.melds, t)):
            brute.add(t)
    a = api.analyze(hand, (), name, opts)
    met = {w.tile for w in a.waits if not w.all_copies_held}
    fifth = {w.tile for w in a.waits if w.all_copies_held}
    where = f"{name} {opts} {hand}"
    assert met == brute, where
    assert all(held[t] >= 4 for t in fifth), where
    assert a.shanten >= 0, where
    assert (a.shanten == 0) == bool(a.waits), where
    if name == "sichuan":
        assert not fifth, where


def _check_discards(name: str, opts: Options | None, hand: Hand, draw: int, win: Callable[[Hand], bool]) -> None:
    """The 14-tile hand (hand + draw): its shanten is -1 exactly when it wins, else the least over its
    discards; each discard's shanten and useful tiles are those Analyze gives the 13 tiles left."""
    full = make_hand(hand.concealed + (draw,), hand.melds, sizes=(14,))
    a = api.analyze(full, (), name, opts)
    where = f"{name} {opts} {full}"
    assert (a.shanten == -1) == win(full), where
    assert a.discards and {o.tile for o in a.discards} == set(full.concealed), where
    if a.shanten != -1:
        assert a.shanten == min(o.shanten for o in a.discards), where
    for o in a.discards:
        rest = list(full.concealed)
        rest.remove(o.tile)
        a13 = api.analyze(make_hand(rest, hand.melds, sizes=(13,)), [o.tile], name, opts)
        assert (o.shanten, o.useful_tiles) == (a13.shanten, a13.useful_tiles), f"{where} discard {o.tile}"


def _run(n: int, seed: int, discards: int = 4) -> int:
    rng = random.Random(seed)
    checked = 0
    for name, opts in _cases(rng):
        win = _win_check(name, opts)
        for _ in range(n):
            hand = _hand(name, opts, rng)
            if hand is None:
                continue
            if isinstance(opts, SichuanOptions) and not kept_suit_choices(hand, opts.void_suit):
                with pytest.raises(BadMeldError):  # a meld of the void suit, or of a third suit: never wins
                    api.analyze(hand, (), name, opts)
                continue
            _check(name, opts, hand, win)
            checked += 1
            if checked % discards == 0:
                held = hand.counts()
                draw = rng.choice([t for t in sorted(rules.get(name).tiles) if held[t] < 4])
                _check_discards(name, opts, hand, draw, win)
    return checked


def test_waits_and_shanten_match_brute_force() -> None:
    assert _run(60, 20261203) > 400


@pytest.mark.slow
def test_waits_and_shanten_match_brute_force_many() -> None:
    for seed in range(8):
        _run(400, seed, discards=2)
