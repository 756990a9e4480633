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
import request_mix
from google.protobuf.message import DecodeError

from engine.errors import EngineError
from mjsvc import convert, limits
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service


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
    requests = request_mix.requests(rng, 700)
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
    read = sum((convert.read_evaluate if isinstance(r, pb.EvaluateRequest) else convert.read_analyze)(
        r.SerializeToString()) is not None for r in requests)
    assert 0.4 * len(requests) < read < 0.9 * len(requests), read  # most are read in one pass, not all


@pytest.mark.parametrize("seed", range(3))
def test_what_is_read_in_one_pass_is_what_the_plain_path_reads(seed: int) -> None:
    rng = random.Random(100 + seed)
    service = Service(cache_size=0)
    requests = request_mix.requests(rng, 700)
    for req in requests:  # the plain path keeps the melds and contexts it reads
        _answer(service, req)
    read = 0
    for req in requests:
        if isinstance(req, pb.EvaluateRequest):
            got: Any = convert.read_evaluate(req.SerializeToString())
            if got is None:
                continue
            limits.check(req)
            assert got == (convert.hand_from_proto(req.hand, winning=True), convert.context_from_proto(req.context))
        else:
            got = convert.read_analyze(req.SerializeToString())
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
        assert convert.read_evaluate(req.SerializeToString()) is None, field
        with pytest.raises(EngineError) as err:
            Service(cache_size=0).evaluate_bytes(req)
        assert err.value.code == "LIMIT_EXCEEDED" and err.value.field == f"context.{field}"
        getattr(ctx, field).pop()
        within = pb.EvaluateRequest(hand=hand, context=ctx)
        convert.context_from_proto(ctx)
        assert convert.read_evaluate(within.SerializeToString()) is not None, field


def test_a_kept_meld_is_held_to_the_limits_of_its_hand() -> None:
    pung = pb.Meld(kind=pb.MELD_KIND_PUNG, tiles=[5, 5, 5], claimed_from=1)
    convert.hand_from_proto(pb.Hand(concealed=[1, 2, 3, 4, 4, 4, 7, 8, 9, 9], melds=[pung]), winning=False)
    usual = pb.AnalyzeRequest(hand=pb.Hand(concealed=[1, 2, 3, 4, 4, 4, 7, 8, 9, 9], melds=[pung]))
    assert convert.read_analyze(usual.SerializeToString()) is not None
    many = pb.AnalyzeRequest(hand=pb.Hand(concealed=[1, 2], melds=[pung] * 9))
    assert convert.read_analyze(many.SerializeToString()) is None
    with pytest.raises(EngineError) as err:
        Service(cache_size=0).analyze_bytes(many)
    assert err.value.code == "LIMIT_EXCEEDED" and err.value.field == "hand.melds"


@pytest.mark.parametrize("seed", range(2))
def test_bytes_protobuf_did_not_write_are_read_as_none_or_as_protobuf_reads_them(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reading is given what protobuf wrote of a request it parsed. Given anything else (cut short, a byte
    changed) it answers None or a reading and never raises; and where protobuf parses the changed bytes,
    what it writes of them is answered as the plain path answers it."""
    rng = random.Random(200 + seed)
    fast, plain = Service(cache_size=0), Service(cache_size=0)
    parsed = 0
    for req in request_mix.requests(rng, 200):
        raw = req.SerializeToString()
        read = convert.read_evaluate if isinstance(req, pb.EvaluateRequest) else convert.read_analyze
        for cut in range(len(raw)):
            read(raw[:cut])
        for _ in range(10):
            changed = bytearray(raw)
            changed[rng.randrange(len(changed))] = rng.randrange(256)
            read(bytes(changed))
            try:
                again = type(req).FromString(bytes(changed))
            except Exception:  # protobuf refuses it: no request to answer  # noqa: BLE001
                continue
            parsed += 1
            got = _answer(fast, again)
            with monkeypatch.context() as m:
                m.setattr(convert, "read_evaluate", lambda r: None)
                m.setattr(convert, "read_analyze", lambda r: None)
                assert got == _answer(plain, again), again
    assert parsed > 500


def test_fields_this_server_does_not_know_are_passed_over_and_bad_values_are_not_read() -> None:
    """Each kind of field protobuf keeps unknown, in the request or in its hand, is passed over: the usual
    request is still read, as the plain path reads it. A value that is not a tile (0, 35, 200, -1 written as
    ten bytes) in any tile list, options, red fives or an unknown meld are not read."""
    pung = pb.Meld(kind=pb.MELD_KIND_PUNG, tiles=[5, 5, 5], claimed_from=1)
    hand = pb.Hand(concealed=[1, 2, 3, 4, 4, 4, 7, 8, 9, 9], melds=[pung], winning_tile=9)
    ctx = pb.WinContext(self_drawn=True, seat_wind=2)
    convert.hand_from_proto(hand, winning=True)
    convert.context_from_proto(ctx)
    evaluate = pb.EvaluateRequest(rule_set="mcr", hand=hand, context=ctx)
    analyze = pb.AnalyzeRequest(rule_set="mcr", hand=pb.Hand(concealed=[1, 2, 3, 4, 4, 4, 7, 8, 9, 9], melds=[pung]),
                                visible=[1, 2, 34, 34, 27])
    want_e = (convert.hand_from_proto(evaluate.hand, winning=True), convert.context_from_proto(evaluate.context))
    want_a = (convert.hand_from_proto(analyze.hand, winning=False),
              convert.tiles_from_proto(analyze.visible, "visible"))
    assert convert.read_evaluate(evaluate.SerializeToString()) == want_e
    assert convert.read_analyze(analyze.SerializeToString()) == want_a
    for extra in request_mix.UNKNOWN:
        for req, read, want in ((evaluate, convert.read_evaluate, want_e), (analyze, convert.read_analyze, want_a)):
            outer = type(req).FromString(req.SerializeToString() + extra)
            inner = type(req)()
            inner.CopyFrom(req)
            inner.hand.CopyFrom(pb.Hand.FromString(req.hand.SerializeToString() + extra))
            for changed in (outer, inner):
                assert changed.SerializeToString() != req.SerializeToString()
                assert read(changed.SerializeToString()) == want, (extra, changed)
    for bad in (0, 35, 200, -1):
        for tiles in (lambda r: r.hand.concealed, lambda r: r.visible):
            req = type(analyze)()
            req.CopyFrom(analyze)
            tiles(req)[1] = bad
            assert convert.read_analyze(req.SerializeToString()) is None, (bad, req)
        req = type(evaluate)()
        req.CopyFrom(evaluate)
        req.hand.winning_tile = bad
        assert convert.read_evaluate(req.SerializeToString()) is None, (bad, req)
    for change in (lambda r: r.options.SetInParent(), lambda r: r.hand.red_fives.append(5),
                   lambda r: r.hand.melds[0].tiles.append(5)):
        req = type(evaluate)()
        req.CopyFrom(evaluate)
        change(req)
        assert convert.read_evaluate(req.SerializeToString()) is None
    # tiles written one field each (unpacked, which protobuf reads but does not write): read alike
    def unpacked(number: int, values: Any) -> bytes:
        return b"".join(bytes((number << 3, v)) for v in values)

    hand_bytes = unpacked(1, analyze.hand.concealed) + pb.Hand(melds=analyze.hand.melds).SerializeToString()
    one_by_one = (b"\x0a\x03mcr" + bytes((2 << 3 | 2, len(hand_bytes))) + hand_bytes
                  + unpacked(3, analyze.visible))
    assert pb.AnalyzeRequest.FromString(one_by_one) == analyze
    assert convert.read_analyze(one_by_one) == want_a
    # an unpacked tile's tag last in the hand, its value cut off: the byte after the hand (the visible
    # tiles' tag, 26 as a number) is not taken for it
    cut_hand = unpacked(1, analyze.hand.concealed[:-1]) + pb.Hand(melds=analyze.hand.melds).SerializeToString() \
        + bytes((1 << 3,))
    cut = b"\x0a\x03mcr" + bytes((2 << 3 | 2, len(cut_hand))) + cut_hand + analyze.SerializeToString()[-7:]
    assert cut[len(cut) - 7] == 3 << 3 | 2 and cut[len(cut) - 7] <= 34
    with pytest.raises(DecodeError):
        pb.AnalyzeRequest.FromString(cut)
    assert convert.read_analyze(cut) is None
    # a group (a wire type proto3 no longer writes) kept unknown: left to the plain path, which answers
    group = pb.EvaluateRequest.FromString(evaluate.SerializeToString() + b"\xfb\x06\x08\x01\xfc\x06")
    assert group.SerializeToString() != evaluate.SerializeToString()
    assert convert.read_evaluate(group.SerializeToString()) is None
    assert Service(cache_size=0).evaluate_bytes(group) == Service(cache_size=0).evaluate_bytes(evaluate)
