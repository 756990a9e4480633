"""Answers written as bytes (batch items framed, stream answers framed, analyses written field by field) are
exactly what the message path and protobuf's own serializer give."""

from __future__ import annotations

import random

import pytest

from engine.errors import EngineError
from engine.hand import make_hand
from engine.tiles import parse_tiles
from mjsvc import wire
from mjsvc.errors import CallError, Failure
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service


def T(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


def test_join_and_varints_match_protobuf() -> None:
    items = [pb.EvaluateRequest(rule_set="x" * n, hand=pb.Hand(concealed=T("123m"))) for n in (0, 1, 200)]
    raw = pb.EvaluateBatchRequest(requests=items).SerializeToString()
    assert wire.join_field(1, [i.SerializeToString() for i in items]) == raw
    assert [wire.encode_varint(v) for v in (0, 127, 128, 300)] == [b"\x00", b"\x7f", b"\x80\x01", b"\xac\x02"]


REQS = [
    pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_RED)),
    pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m"), winning_tile=pb.TILE_RED)),
    pb.EvaluateRequest(rule_set="nope", hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_RED)),
    pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_M1)),
    pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_RED),
                       context=pb.WinContext(self_drawn=True)),
]


def _one_by_one(svc: Service, reqs: list[pb.EvaluateRequest]) -> pb.EvaluateBatchResponse:
    """The batch answer built item by item as messages, from `evaluate` (the plain path)."""
    out = pb.EvaluateBatchResponse()
    for i, r in enumerate(reqs):
        try:
            out.results.add(response=svc.evaluate(r, f"requests[{i}]."))
        except EngineError as err:
            out.results.add(error=Failure.from_engine(err).to_proto())
    return out


def test_batch_bytes_equal_item_by_item_cold_and_cached() -> None:
    batch = pb.EvaluateBatchRequest(requests=REQS)
    expected = _one_by_one(Service(cache_size=0), REQS)
    svc = Service()
    for _ in range(2):  # cold, then every good item from the cache
        got = pb.EvaluateBatchResponse.FromString(svc.evaluate_batch_bytes(batch))
        assert got == expected
    assert got.results[1].error.field == "requests[1].hand.concealed"
    assert len(svc.cache) == 3
    # The same item at another index still names its own index in errors.
    moved = pb.EvaluateBatchRequest(requests=[REQS[0], REQS[0], REQS[1]])
    got = pb.EvaluateBatchResponse.FromString(svc.evaluate_batch_bytes(moved))
    assert got.results[2].error.field == "requests[2].hand.concealed"


def test_batch_limits() -> None:
    svc = Service()
    with pytest.raises(CallError) as info:
        svc.evaluate_batch_bytes(pb.EvaluateBatchRequest(requests=[pb.EvaluateRequest()] * 5), max_items=4)
    assert info.value.failure.reason == "BATCH_TOO_LARGE"
    # Even its errors would not fit: refused whole, before any work.
    with pytest.raises(CallError) as info:
        svc.evaluate_batch_bytes(pb.EvaluateBatchRequest(requests=[REQS[0]] * 50), max_bytes=2000)
    assert (info.value.failure.code.name, info.value.failure.reason) == ("RESOURCE_EXHAUSTED", "RESPONSE_TOO_LARGE")


@pytest.mark.parametrize("fraction", [0.7, 0.9, 0.999, 1.0, 2.0])
def test_batch_answer_never_exceeds_the_message_limit(fraction: float) -> None:
    reqs = [REQS[i % 2] for i in range(40)]  # answers and errors
    expected = _one_by_one(Service(cache_size=0), reqs)
    max_bytes = int(expected.ByteSize() * fraction)
    got = Service().evaluate_batch(pb.EvaluateBatchRequest(requests=reqs), max_bytes=max_bytes)
    assert got.ByteSize() <= max_bytes and len(got.results) == 40
    kinds = [r.error.reason == "RESPONSE_TOO_LARGE" for r in got.results]
    cut = kinds.index(True) if True in kinds else 40
    assert not any(kinds[:cut]) and all(kinds[cut:])  # answered up to a point, then all refused
    assert list(got.results[:cut]) == list(expected.results[:cut])
    assert (cut == 40) == (fraction >= 1.0)
    assert got.results[-1].error.field == "requests[39]" or cut == 40


def test_batch_stops_at_the_deadline() -> None:
    from mjsvc.service import Deadline

    batch = pb.EvaluateBatchRequest(requests=[pb.EvaluateRequest()] * 3)
    with pytest.raises(CallError) as info:
        Service().evaluate_batch_bytes(batch, Deadline(-1.0))
    assert info.value.failure.code.name == "DEADLINE_EXCEEDED"
    assert len(Service().evaluate_batch(batch, Deadline(60.0)).results) == 3


def _reference_play(svc: Service, m: pb.PlayRequest) -> pb.PlayResponse:
    kind = m.WhichOneof("request")
    try:
        if kind == "evaluate":
            return pb.PlayResponse(id=m.id, evaluate=svc.evaluate(m.evaluate, "evaluate."))
        if kind == "analyze":
            return pb.PlayResponse(id=m.id, analyze=svc.analyze(m.analyze, "analyze."))
    except EngineError as err:
        return pb.PlayResponse(id=m.id, error=Failure.from_engine(err).to_proto())
    return pb.PlayResponse(id=m.id, error=pb.Error(code="INVALID_ARGUMENT", reason="BAD_REQUEST", field="request",
                                                   message="request: set one of evaluate, analyze, legal, settle"))


def test_play_bytes_equal_message_answers_cold_and_cached() -> None:
    msgs = [
        pb.PlayRequest(id="a", evaluate=REQS[0]),
        pb.PlayRequest(id="b", analyze=pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")))),
        pb.PlayRequest(id="c", evaluate=pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m")))),
        pb.PlayRequest(id="d"),
        pb.PlayRequest(id="e", analyze=pb.AnalyzeRequest(hand=pb.Hand(concealed=T("1239m456p78s11223z")),
                                                         visible=T("9s1z"))),
        pb.PlayRequest(id="f", analyze=pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")), visible=[0])),
        pb.PlayRequest(evaluate=REQS[0]),
        pb.PlayRequest(id="x" * 129, evaluate=REQS[0]),
    ]
    expected = [_reference_play(Service(cache_size=0), m) for m in msgs[:-1]]
    svc = Service()
    for _ in range(2):
        got = [svc.play(m) for m in msgs]
        assert got[:-1] == expected
    assert len(svc.cache) == 3  # the good requests (a and the id-less one share theirs); errors never
    assert got[5].error.reason == "BAD_TILE" and got[5].error.field == "analyze.visible[0]"
    assert got[-1].id == "" and (got[-1].error.reason, got[-1].error.field) == ("LIMIT_EXCEEDED", "id")
    # discard advice through the stream is what the engine answers, converted message by message
    from engine import api
    from mjsvc.convert import analysis_to_proto

    advice = api.analyze(make_hand(parse_tiles("1239m456p78s11223z")), parse_tiles("9s1z"))
    assert advice.discards and got[4].analyze == analysis_to_proto(advice)


def _random_analyses(n: int, seed: int) -> list:
    import random

    from engine import api
    from engine.hand import make_hand

    rng = random.Random(seed)
    out = []
    for i in range(n):
        wall = [t for t in range(34) for _ in range(4)]
        rng.shuffle(wall)
        size = 13 if i % 2 else 14
        visible = wall[size:size + rng.randrange(0, 40)]
        out.append(api.analyze(make_hand(wall[:size], sizes=(13, 14)), visible))
    # waits on a tile whose four copies are all held, and a complete hand (shanten -1)
    out.append(api.analyze(make_hand(parse_tiles("1111m234p567s789s"), sizes=(13,)), ()))
    out.append(api.analyze(make_hand(parse_tiles("123m456p789s11777z")), ()))
    return out


def test_analysis_to_wire_is_protobufs_own_serialization() -> None:
    from engine.results import Analysis, DiscardOption, TileCount
    from mjsvc.convert import analysis_to_proto, analysis_to_wire

    analyses = _random_analyses(400, 3)
    assert any(a.shanten == -1 for a in analyses) and any(a.discards for a in analyses)
    assert any(a.waits for a in analyses)
    assert any(t.all_copies_held for a in analyses for t in a.waits)
    # counts the tables do not hold are written field by field
    odd = Analysis(2, (), waits=(TileCount(4, -1, True),), useful_tiles=(TileCount(3, 7, False),),
                   discards=(DiscardOption(5, 300, (TileCount(33, 0, True), TileCount(34, 2, False)), 0),),
                   useful_count=-2)
    for a in [*analyses, odd]:
        assert analysis_to_wire(a) == analysis_to_proto(a).SerializeToString(), a


def _varint_reference(value: int) -> bytes:
    """Base-128, low group first, written the long way."""
    groups = []
    while True:
        groups.append(value & 0x7F)
        value >>= 7
        if not value:
            break
    return bytes([g | 0x80 for g in groups[:-1]] + [groups[-1]])


def test_int_and_message_fields_match_protobuf() -> None:
    rng = random.Random(26)
    edges = [0, 1, 127, 128, 300, 16383, 16384, -1, -28, -127, -128, -129, -300, -2**28, -2**28 - 1, -2**31,
             2**31 - 1]
    for v in edges + [rng.randint(-2**31, 2**31 - 1) for _ in range(3000)] + [rng.randint(-300, 300)
                                                                             for _ in range(500)]:
        assert wire.int_field(2, v) == pb.DiscardOption(shanten=v).SerializeToString(), v
        assert wire.int_field(2, v) == (wire.encode_varint(2 << 3) + wire.encode_varint(v & 2**64 - 1) if v else b"")
    for v in (2**32 - 1, 2**40, 2**63 - 1, 2**64 - 1):  # the plain encoder alone (no int32 field holds these)
        assert wire.int_field(2, v) == wire.encode_varint(16) + wire.encode_varint(v)
        assert wire.encode_varint(v) == _varint_reference(v)
    for v in range(0, 70000, 7):
        assert wire.encode_varint(v) == _varint_reference(v)
    for size in (0, 1, 125, 126, 127, 128, 1000, 16380, 16381, 16382, 16383, 20000, 2_100_000):
        msg = pb.Scoring(fans=[pb.Fan(name="x" * size)])
        assert wire.message_field(1, msg.fans[0].SerializeToString()) == msg.SerializeToString()
    for size in (0, 127, 128, 16383, 16384, 70000):  # every field number: the plain varint encoding
        payload = b"y" * size
        for number in (1, 2, 15, 16, 17, 2047, 2048, 536870911):
            plain = wire.encode_varint(number << 3 | 2) + wire.encode_varint(size) + payload
            assert wire.message_field(number, payload) == plain, (number, size)
            assert wire.message_header(number, size) + payload == plain, (number, size)
    for number in range(1, 20):  # the written-once small fields and headers, every tag of one byte and past it
        for v in [*range(-2, 300), True, False]:
            plain = wire.encode_varint(number << 3) + wire.encode_varint(int(v) & 2**64 - 1) if v else b""
            assert wire.int_field(number, v) == plain, (number, v)
        for size in range(0, 300):
            payload = b"z" * size
            plain = wire.encode_varint(number << 3 | 2) + wire.encode_varint(size)
            assert wire.message_header(number, size) == plain, (number, size)
            assert wire.message_field(number, payload) == plain + payload, (number, size)


def test_string_field_reads_an_id_from_any_place_and_refuses_garbage() -> None:
    from mjsvc.wire import string_field

    req = pb.PlayRequest(id="table-7", analyze=pb.AnalyzeRequest(rule_set="mcr"))
    raw = req.SerializeToString()
    assert string_field(raw, 1, 128) == "table-7"
    body = pb.PlayRequest(analyze=pb.AnalyzeRequest(rule_set="mcr")).SerializeToString()
    assert string_field(body + pb.PlayRequest(id="late").SerializeToString(), 1, 128) == "late"  # after the body
    assert string_field(pb.PlayRequest(id="x" * 500).SerializeToString(), 1, 128) == "x" * 128
    assert string_field(body, 1, 128) is None
    for garbage in (b"\xff" * 20, b"\x0a\xff\xff", b"\x0a\x05ab", b"\x0f", b""):
        assert string_field(garbage, 1, 128) is None


def test_payments_written_through_their_table_match_protobuf() -> None:
    """Every (seat, amount) against protobuf, more pairs than the table keeps (it fills and empties), each
    pair asked twice: once written, once from the table."""
    from mjsvc import convert

    rng = random.Random(9)
    pairs = [(seat, amount) for seat in range(4) for amount in range(-900, 900)]
    rng.shuffle(pairs)
    assert len(pairs) > 1.5 * convert._PAYMENTS_KEPT
    for seat, amount in pairs + pairs[:3000] + [(0, -2**31), (3, 2**31 - 1)]:
        expected = pb.Scoring(payments=[pb.Payment(seat_wind=seat + 1, amount=amount)]).SerializeToString()
        assert convert._payment_wire(seat, amount) == expected, (seat, amount)
        assert convert._payment_wire(seat, amount) == expected, (seat, amount)
        assert len(convert._PAYMENTS) <= convert._PAYMENTS_KEPT
