"""Sichuan Analyze under 缺一门 (engine/rules/sichuan/ready.py).

Source of the wrong answers: the project's issue "Wrong answers and silent fields found by an expert
review": `analyze "123m456p789s1122s" --rule-set sichuan` (three suits) and `analyze "234m678m555m5p"
--meld kong:9999p --option void_suit=p` answered `Shanten: 0 (waiting)` with no wait. The rule: a
Sichuan win holds no tile of the void suit, and without one at most two suits (缺一门; the package
docstring's sources: the MIL rules and the Chengdu sheet). Shanten is the least number of exchanges
to ready, ready meaning at least one tile completes a legal win.
"""

from __future__ import annotations

import random

import pytest

from engine import api
from engine.hand import ClaimedFrom, Hand, MeldKind, Suit, make_hand, make_meld
from engine.rules.sichuan.options import SichuanOptions
from engine.rules.sichuan.ready import kept_suit_choices
from engine.tiles import parse_tiles, suit_of
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service


def proto_hand(h: Hand) -> pb.Hand:
    return pb.Hand(concealed=convert.tiles_to_proto(h.concealed), melds=[convert.meld_to_proto(m) for m in h.melds])


def H(text: str, *kongs: str) -> Hand:
    return make_hand(parse_tiles(text), [make_meld(MeldKind.KONG, parse_tiles(k), claimed_from=ClaimedFrom.LEFT)
                                         for k in kongs], sizes=(13, 14))


def test_void_suit_tile_in_hand_costs_an_exchange() -> None:
    """The issue's hand with the kong in bamboo: 234m678m555m + kong 9999s is ready but for the 5p of
    the void suit: one exchange (throw 5p, keep any tile as the pair's wait)."""
    a = api.analyze(H("234m678m555m5p", "9999s"), (), "sichuan", SichuanOptions(void_suit=Suit.DOTS))
    assert (a.shanten, a.waits) == (1, ())
    kept = {t for t in range(27) if suit_of(t) != Suit.DOTS}
    assert {t.tile for t in a.useful_tiles} == kept - set(parse_tiles("9s"))  # 9s: all four in the kong
    # Without a void suit the hand keeps characters and dots: ready on 5p.
    b = api.analyze(H("234m678m555m5p", "9999p"), (), "sichuan")
    assert (b.shanten, [w.tile for w in b.waits]) == (0, parse_tiles("5p"))
    # Fourteen tiles: throwing the 5p leaves a ready hand (shanten 0); throwing the 1m keeps the 5p (1).
    c = api.analyze(H("234m678m555m5p1m", "9999s"), (), "sichuan", SichuanOptions(void_suit=Suit.DOTS))
    best = c.discards[0]
    assert (c.shanten, best.tile, best.shanten) == (0, parse_tiles("5p")[0], 0)
    assert {o.tile: o.shanten for o in c.discards}[parse_tiles("1m")[0]] == 1


def test_fifth_copy_is_no_wait() -> None:
    """1111m + kongs: the only completion is a fifth 1m: not ready (shanten 1), never a flagged wait."""
    h = make_hand(parse_tiles("1111m234p567p789p"), sizes=(13,))
    a = api.analyze(h, (), "sichuan")
    assert (a.shanten, a.waits) == (1, ())
    assert a.useful_tiles and all(not t.all_copies_held for t in a.useful_tiles)


def test_service_three_suits() -> None:
    req = pb.AnalyzeRequest(rule_set="sichuan", hand=proto_hand(H("123m456p789s1122s")))
    resp = Service(cache_size=0).analyze(req)
    assert resp.shanten == 3 and not resp.waits


# ---------------------------------------------------------------------------------------------
# Shanten n > 0 by brute force: s(h) = 0 iff ready, else 1 + the least s over one exchange


def _exchanges(h: Hand) -> list[Hand]:
    held = h.counts()
    out = []
    for d in sorted(set(h.concealed)):
        rest = list(h.concealed)
        rest.remove(d)
        for t in range(27):
            if t != d and held[t] < 4:
                out.append(make_hand(rest + [t], h.melds, sizes=(13,)))
    return out


def _near_hands(n: int, seed: int) -> list[tuple[Hand, SichuanOptions]]:
    rng = random.Random(seed)
    out: list[tuple[Hand, SichuanOptions]] = []
    while len(out) < n:
        void = rng.choice([None, Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO])
        tiles = [t for t in range(27) for _ in range(4)]
        rng.shuffle(tiles)
        # biased to two suits: most tiles from two of them
        keep = rng.sample((0, 1, 2), 2)
        pool = [t for t in tiles if suit_of(t) in keep]
        hand = pool[:13 - (k := rng.choice((0, 1, 2, 3)))] + [t for t in tiles if suit_of(t) not in keep][:k]
        h = make_hand(hand, sizes=(13,))
        if kept_suit_choices(h, void):
            out.append((h, SichuanOptions(void_suit=void)))
    return out


def _check_recursion(h: Hand, opts: SichuanOptions) -> None:
    a = api.analyze(h, (), "sichuan", opts)
    if a.shanten == 0:
        assert a.waits
        return
    nxt = min(api.analyze(x, (), "sichuan", opts).shanten for x in _exchanges(h))
    assert a.shanten == nxt + 1, f"{h} {opts.void_suit}: shanten {a.shanten}, best exchange {nxt}"


def test_shanten_by_exchanges_sampled() -> None:
    for h, opts in _near_hands(10, 7):
        _check_recursion(h, opts)


@pytest.mark.slow
def test_shanten_by_exchanges_many() -> None:
    for h, opts in _near_hands(400, 11):
        _check_recursion(h, opts)
