"""A request read in one pass (`convert.read_evaluate`, `read_analyze`) against the plain path.

The plain path holds the whole request to its limits (`limits.check`), then reads it (`hand_from_proto`,
`context_from_proto`, the visible tiles). The one-pass reading holds each field to its limit as it reads it,
and answers only the usual request; for anything else it answers None and the plain path runs. Here both
are given random requests, mostly usual ones, the others over a limit in each limited field, with bad
tiles, red fives, options, unknown melds, contexts and fields this server does not know: a service answers
exactly as one whose reading always answers None (the same bytes, or the same error code, field and
message), and whenever the reading answers, the plain path passes the limits and reads the same values.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.errors import EngineError
from mjsvc import convert, limits
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service


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
    return hand


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
    elif roll < 0.13:
        return type(req).FromString(req.SerializeToString() + b"\xf8\x06\x01")  # field 111, a varint
    return req


def _requests(rng: random.Random, n: int) -> list[pb.EvaluateRequest | pb.AnalyzeRequest]:
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
            if roll < 0.3:
                req.visible.extend([rng.randint(1, 34) for _ in range(rng.randint(1, 40))])
            elif roll < 0.34:
                req.visible.extend([rng.randint(1, 34) for _ in range(137)])
            elif roll < 0.37:
                req.visible.extend([0, 4])
        out.append(_extras(rng, req))
    return out


def _answer(svc: Service, req: pb.EvaluateRequest | pb.AnalyzeRequest) -> tuple[str, object]:
    try:
        if isinstance(req, pb.EvaluateRequest):
            return "ok", svc.evaluate_bytes(req)
        return "ok", svc.analyze_bytes(req)
    except EngineError as err:
        return "error", (type(err).__name__, err.code, err.field, str(err))


def test_every_limited_field_is_read_in_one_pass() -> None:
    """The reading covers every field the limits name (else it would be off), and would not cover a new one."""
    assert convert.READS_AHEAD
    assert set(limits.limited_fields(pb.EvaluateRequest)) >= {
        "rule_set", "hand.concealed", "hand.melds", "hand.melds[].tiles", "hand.red_fives",
        "context.dora_indicators", "context.seats_out", "options.guangdong.ghosts"}
    limited = limits.limited_fields(pb.EvaluateRequest)
    read = ("rule_set",) + convert._HAND_READ
    assert convert._covered(limited, read)
    assert not convert._covered({**limited, "hand.note": 64}, read)  # a string added to Hand
    assert not convert._covered({**limited, "context.sub.tiles": 4}, read)  # a message added to WinContext
    assert not convert._covered({**limited, "tags[]": 64}, read)


@pytest.mark.parametrize("seed", range(3))
def test_a_service_answers_as_one_that_reads_each_request_twice(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    requests = _requests(rng, 700)
    one_pass, plain = Service(cache_size=0), Service(cache_size=0)
    outcomes = {"ok": 0, "error": 0}
    for _ in range(2):  # the second time, the melds and contexts read the first time are known
        for req in requests:
            got = _answer(one_pass, req)
            with monkeypatch.context() as m:
                m.setattr(convert, "read_evaluate", lambda r: None)
                m.setattr(convert, "read_analyze", lambda r: None)
                want = _answer(plain, req)
            assert got == want, req
            outcomes[got[0]] += 1
    assert min(outcomes.values()) > 150, outcomes
    read = sum((convert.read_evaluate(r) if isinstance(r, pb.EvaluateRequest) else convert.read_analyze(r))
               is not None for r in requests)
    assert 0.4 * len(requests) < read < 0.9 * len(requests), read  # most are read in one pass, not all


@pytest.mark.parametrize("seed", range(3))
def test_what_is_read_in_one_pass_is_what_the_plain_path_reads(seed: int) -> None:
    rng = random.Random(100 + seed)
    service = Service(cache_size=0)
    requests = _requests(rng, 700)
    for req in requests:  # the plain path keeps the melds and contexts it reads
        _answer(service, req)
    read = 0
    for req in requests:
        if isinstance(req, pb.EvaluateRequest):
            got: Any = convert.read_evaluate(req)
            if got is None:
                continue
            limits.check(req)
            assert got == (convert.hand_from_proto(req.hand, winning=True), convert.context_from_proto(req.context))
        else:
            got = convert.read_analyze(req)
            if got is None:
                continue
            limits.check(req)
            assert got == (convert.hand_from_proto(req.hand, winning=False),
                           convert.tiles_from_proto(req.visible, "visible"))
        read += 1
    assert read > 250


def test_a_kept_context_over_its_limits_is_not_read_in_one_pass() -> None:
    """The kept contexts are the plain reading's, which does not hold them to the limits (a caller may read
    one without `limits.check`): the one-pass reading holds each to them again."""
    hand = pb.Hand(concealed=[1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9], winning_tile=9)
    for field, n in (("dora_indicators", 11), ("seats_out", 5), ("flower_tiles", 9), ("horse_tiles", 35),
                     ("other_winners", 35), ("ura_dora_indicators", 11)):
        ctx = pb.WinContext(self_drawn=True)
        getattr(ctx, field).extend([1] * n)
        convert.context_from_proto(ctx)  # kept, over its limit
        req = pb.EvaluateRequest(hand=hand, context=ctx)
        assert convert.read_evaluate(req) is None, field
        with pytest.raises(EngineError) as err:
            Service(cache_size=0).evaluate_bytes(req)
        assert err.value.code == "LIMIT_EXCEEDED" and err.value.field == f"context.{field}"
        getattr(ctx, field).pop()
        within = pb.EvaluateRequest(hand=hand, context=ctx)
        convert.context_from_proto(ctx)
        assert convert.read_evaluate(within) is not None, field


def test_a_kept_meld_is_held_to_the_limits_of_its_hand() -> None:
    pung = pb.Meld(kind=pb.MELD_KIND_PUNG, tiles=[5, 5, 5], claimed_from=1)
    convert.hand_from_proto(pb.Hand(concealed=[1, 2, 3, 4, 4, 4, 7, 8, 9, 9], melds=[pung]), winning=False)
    usual = pb.AnalyzeRequest(hand=pb.Hand(concealed=[1, 2, 3, 4, 4, 4, 7, 8, 9, 9], melds=[pung]))
    assert convert.read_analyze(usual) is not None
    many = pb.AnalyzeRequest(hand=pb.Hand(concealed=[1, 2], melds=[pung] * 9))
    assert convert.read_analyze(many) is None
    with pytest.raises(EngineError) as err:
        Service(cache_size=0).analyze_bytes(many)
    assert err.value.code == "LIMIT_EXCEEDED" and err.value.field == "hand.melds"
