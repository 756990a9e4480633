"""Random Evaluate and Analyze requests for the tests of the one-pass reading (`mjsvc.convert.read_evaluate`,
`read_analyze`) against the plain path: mostly usual ones, drawn from small pools of melds and contexts so
that most are seen again (an Analyze's visible tiles mostly from the wall its hand leaves), the others over
a limit in one limited field or another, with bad tiles, red fives, options, bad melds, bad winds, fields
this server does not know (of each wire type, in the request and in its hand) or a rule set name of
two-byte characters."""

from __future__ import annotations

import random
from typing import Any

from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb


def _meld(rng: random.Random) -> pb.Meld:
    """A meld message: mostly a valid one from a few dozen, sometimes one with too many tiles or a bad tile."""
    kind = rng.choice((1, 2, 3))
    first = rng.choice((1, 2, 10, 19, 20, 28, 32))
    tiles = [first, first + 1, first + 2] if kind == 1 else [first] * (4 if kind == 3 else 3)
    if rng.random() < 0.05:
        tiles += [first] * rng.choice((1, 6))  # 5 or 10 tiles: a bad meld, or one over its limit
    if rng.random() < 0.03:
        tiles[0] = rng.choice((0, 35))
    meld = pb.Meld(kind=kind, tiles=tiles, claimed_from=rng.choice((1, 2, 3)))
    if kind == 3 and rng.random() < 0.3:
        meld.concealed, meld.claimed_from = True, 0
    return meld


def _context(rng: random.Random) -> pb.WinContext:
    """A context from a small pool (so that most are seen again), sometimes a list over its limit."""
    ctx = pb.WinContext(self_drawn=rng.random() < 0.5, seat_wind=rng.choice((0, 1, 2, 3, 4)))
    roll = rng.random()
    if roll < 0.06:
        ctx.dora_indicators.extend([rng.randint(1, 34) for _ in range(rng.choice((1, 2, 11)))])
    elif roll < 0.09:
        ctx.seats_out.extend([rng.randint(1, 4) for _ in range(rng.choice((1, 5)))])
    elif roll < 0.12:
        ctx.flower_tiles.extend([rng.randint(1, 8) for _ in range(rng.choice((1, 9)))])
    elif roll < 0.14:
        ctx.horse_tiles.extend([rng.randint(1, 34) for _ in range(rng.choice((2, 35)))])
    elif roll < 0.16:
        ctx.other_winners.extend([rng.randint(1, 4) for _ in range(rng.choice((1, 35)))])
    elif roll < 0.18:
        ctx.ura_dora_indicators.extend([rng.randint(1, 34) for _ in range(rng.choice((1, 11)))])
    elif roll < 0.20:
        ctx.seat_wind = 9  # a bad wind
    return ctx


def _hand(rng: random.Random, size: int) -> pb.Hand:
    melds = [_meld(rng) for _ in range(rng.choice((0, 0, 0, 1, 2, 4)))]
    n = max(size - 3 * len(melds), 1)
    wall = [k for k in range(1, 35) for _ in range(4)]
    concealed = rng.sample(wall, n)
    hand = pb.Hand(concealed=concealed[:-1] if size == 14 and rng.random() < 0.7 else concealed, melds=melds)
    if len(hand.concealed) < len(concealed):
        hand.winning_tile = concealed[-1]
    roll = rng.random()
    if roll < 0.03:
        hand.concealed.extend([1] * 10)  # over 18
    elif roll < 0.05:
        hand.melds.extend([pb.Meld(kind=2, tiles=[5, 5, 5])] * 9)  # over 8
    elif roll < 0.08:
        hand.red_fives.extend([5] * rng.choice((1, 5)))
    elif roll < 0.10:
        hand.concealed[0] = rng.choice((0, 35, 99))
    elif roll < 0.12:
        hand.winning_tile = rng.choice((35, 99))
    elif roll < 0.16:
        return pb.Hand.FromString(hand.SerializeToString() + rng.choice(UNKNOWN))
    return hand


# Fields this server does not know, one of each wire type (varint, fixed64, length-delimited, fixed32), and
# field 1 with a wire type not its own: protobuf keeps them all as unknown fields and writes them again.
UNKNOWN = (b"\xf8\x06\x01", b"\xf9\x06" + bytes(8), b"\xfa\x06\x03abc", b"\xfd\x06" + bytes(4), b"\x0d" + bytes(4))


def _extras(rng: random.Random, req: Any) -> Any:
    """Sometimes a long or unknown rule set, options, or a field this server does not know."""
    roll = rng.random()
    if roll < 0.03:
        req.rule_set = "m" * 33
    elif roll < 0.05:
        req.rule_set = "nope"
    elif roll < 0.08:
        req.options.SetInParent()  # an empty options message: set, nothing in it
    elif roll < 0.10 and req.rule_set == "riichi":
        req.options.riichi.red_fives_per_suit.extend([1] * rng.choice((1, 35)))
    elif roll < 0.16:
        return type(req).FromString(req.SerializeToString() + rng.choice(UNKNOWN))
    elif roll < 0.18:
        req.rule_set = "\u00e9" * rng.choice((16, 17, 33))  # two bytes a character: within, or not, in bytes
    return req


def _unseen(rng: random.Random, hand: pb.Hand, n: int) -> list[int]:
    """`n` tiles of the wall the hand leaves (a hand with a bad tile or too many copies leaves what it can)."""
    wall = [t for t in range(1, 35) for _ in range(4)]
    for t in [*hand.concealed, *(t for m in hand.melds for t in m.tiles), hand.winning_tile]:
        if t in wall:
            wall.remove(t)
    return rng.sample(wall, n)


def requests(rng: random.Random, n: int) -> list[pb.EvaluateRequest | pb.AnalyzeRequest]:
    out: list[pb.EvaluateRequest | pb.AnalyzeRequest] = []
    for _ in range(n):
        rule_set = rng.choice(("mcr", "mcr", "riichi", "sichuan", "hk", "guangdong", ""))
        req: Any
        if rng.random() < 0.5:
            req = pb.EvaluateRequest(rule_set=rule_set, hand=_hand(rng, 14), context=_context(rng))
            if rng.random() < 0.1:
                req.ClearField("context")
        else:
            req = pb.AnalyzeRequest(rule_set=rule_set, hand=_hand(rng, rng.choice((13, 14))))
            roll = rng.random()
            if roll < 0.25:
                req.visible.extend(_unseen(rng, req.hand, rng.randint(1, 40)))
            elif roll < 0.3:  # any tiles: some kinds seen and held more than four times (TOO_MANY_COPIES)
                req.visible.extend([rng.randint(1, 34) for _ in range(rng.randint(1, 40))])
            elif roll < 0.34:
                req.visible.extend([rng.randint(1, 34) for _ in range(137)])
            elif roll < 0.37:
                req.visible.extend([0, 4])
        out.append(_extras(rng, req))
    return out
