"""EvaluateBatch on the wire format: the byte-level path answers exactly what the message path does."""

from __future__ import annotations

import pytest

from engine.hand import make_hand
from engine.tiles import parse_tiles
from mjsvc import wire
from mjsvc.errors import CallError
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service


def T(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


def test_split_and_join_match_protobuf() -> None:
    items = [pb.EvaluateRequest(rule_set="x" * n, hand=pb.Hand(concealed=T("123m"))) for n in (0, 1, 200)]
    raw = pb.EvaluateBatchRequest(requests=items).SerializeToString()
    parts = wire.split_field(raw, 1)
    assert [pb.EvaluateRequest.FromString(p) for p in parts] == items
    assert wire.join_field(1, parts) == raw
    # Other fields are skipped, whatever their wire type.
    mixed = pb.TileSet(kind=pb.SET_KIND_PUNG, tiles=[1, 2], meld_index=3).SerializeToString()
    assert wire.split_field(mixed, 2) == [bytes([1, 2])]
    assert [wire.encode_varint(v) for v in (0, 127, 128, 300)] == [b"\x00", b"\x7f", b"\x80\x01", b"\xac\x02"]


@pytest.mark.parametrize("bad", [b"\x0a\x05ab", b"\x0a", b"\x0f", b"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"])
def test_split_rejects_malformed(bad: bytes) -> None:
    with pytest.raises(wire.WireError):
        wire.split_field(bad, 1)


def test_wire_batch_equals_message_batch_cold_and_cached() -> None:
    reqs = [
        pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_RED)),
        pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m"), winning_tile=pb.TILE_RED)),
        pb.EvaluateRequest(rule_set="nope", hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_RED)),
        pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_M1)),
        pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_RED),
                           context=pb.WinContext(self_drawn=True)),
    ]
    batch = pb.EvaluateBatchRequest(requests=reqs)
    expected = Service().evaluate_batch(batch)
    svc = Service()
    for _ in range(2):  # cold, then every good item from the byte cache
        got = pb.EvaluateBatchResponse.FromString(svc.evaluate_batch_wire(batch.SerializeToString()))
        assert got == expected
    assert got.results[1].error.field == "requests[1].hand.concealed"
    assert len(svc.wire_items) == 3
    # The same item at another index still names its own index in errors.
    moved = pb.EvaluateBatchRequest(requests=[reqs[0], reqs[0], reqs[1]])
    got = pb.EvaluateBatchResponse.FromString(svc.evaluate_batch_wire(moved.SerializeToString()))
    assert got.results[2].error.field == "requests[2].hand.concealed"


def test_wire_batch_limits_and_garbage() -> None:
    svc = Service()
    raw = pb.EvaluateBatchRequest(requests=[pb.EvaluateRequest()] * 5).SerializeToString()
    with pytest.raises(CallError) as info:
        svc.evaluate_batch_wire(raw, max_items=4)
    assert info.value.failure.reason == "BATCH_TOO_LARGE"
    with pytest.raises(CallError) as info:
        svc.evaluate_batch_wire(b"\x0a\x09garbage")
    assert info.value.failure.reason == "BAD_REQUEST"


def test_wire_batch_stops_at_the_deadline() -> None:
    from mjsvc.service import Deadline

    raw = pb.EvaluateBatchRequest(requests=[pb.EvaluateRequest()] * 3).SerializeToString()
    with pytest.raises(CallError) as info:
        Service().evaluate_batch_wire(raw, Deadline(-1.0))
    assert info.value.failure.code.name == "DEADLINE_EXCEEDED"
    assert len(pb.EvaluateBatchResponse.FromString(Service().evaluate_batch_wire(raw, Deadline(60.0))).results) == 3


def test_wire_play_equals_message_play_cold_and_cached() -> None:
    msgs = [
        pb.PlayRequest(id="a", evaluate=pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m456p789s1177z"),
                                                                         winning_tile=pb.TILE_RED))),
        pb.PlayRequest(id="b", analyze=pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")))),
        pb.PlayRequest(id="c", evaluate=pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m")))),
        pb.PlayRequest(id="d"),
        pb.PlayRequest(id="e", analyze=pb.AnalyzeRequest(hand=pb.Hand(concealed=T("1239m456p78s11223z")),
                                                         visible=T("9s1z"))),
        pb.PlayRequest(id="f", analyze=pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")), visible=[0])),
        pb.PlayRequest(evaluate=pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m456p789s1177z"),
                                                                winning_tile=pb.TILE_RED))),
    ]
    expected = [Service().play(m) for m in msgs]
    svc = Service()
    for _ in range(2):
        got = [pb.PlayResponse.FromString(svc.play_wire(m.SerializeToString())) for m in msgs]
        assert got == expected
    assert len(svc.wire_play) == 3  # the good requests (a and the id-less one share their bytes); errors never
    assert got[5].error.reason == "BAD_TILE" and got[5].error.field == "analyze.visible[0]"
    # discard advice through the stream is what the engine answers, converted message by message
    from engine import api
    from mjsvc.convert import analysis_to_proto

    advice = api.analyze(make_hand(parse_tiles("1239m456p78s11223z")), parse_tiles("9s1z"))
    assert advice.discards and got[4].analyze == analysis_to_proto(advice)
    bad = pb.PlayResponse.FromString(svc.play_wire(b"\x12\x03\xff\xff\xff"))
    assert bad.error.reason == "BAD_REQUEST"


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
    odd = Analysis(2, (), useful_tiles=(TileCount(3, 7, False),),
                   discards=(DiscardOption(5, 300, (TileCount(33, 0, True),), 0),), useful_count=-2)
    for a in [*analyses, odd]:
        assert analysis_to_wire(a) == analysis_to_proto(a).SerializeToString(), a


def test_int_and_message_fields_match_protobuf() -> None:
    for v in (0, 1, 127, 128, 300, -1, -300, 2**31 - 1):
        assert wire.int_field(2, v) == pb.DiscardOption(shanten=v).SerializeToString()
    for size in (0, 1, 127, 128, 1000):
        msg = pb.Scoring(fans=[pb.Fan(name="x" * size)])
        assert wire.message_field(1, msg.fans[0].SerializeToString()) == msg.SerializeToString()
