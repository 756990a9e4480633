"""The service's response cache cannot lie: its key is the method and the request as protobuf parsed it, it
is bounded in entries and bytes, and it counts what it does.

The differential part: for random, mutated and hand-built bytes (repeated and merged message fields, unknown
fields of every wire type, groups included), two bodies share a key exactly when protobuf parses them to the
same message, and the key parses back to that message. Nothing of the raw bytes is ever a key."""

from __future__ import annotations

from typing import Any

import pytest
from google.protobuf.message import DecodeError, Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import ContradictoryContextError
from engine.tiles import parse_tiles
from mjsvc.cache import ENTRY_OVERHEAD, ResponseCache
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service


def T(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


class _Count:
    """One of the two counters a ResponseCache asks its observer for: each increment noted in order."""

    def __init__(self, log: list[tuple[str, bool]], operation: str, hit: bool) -> None:
        self.log, self.operation, self.hit = log, operation, hit

    def inc(self, amount: float = 1) -> None:
        self.log.append((self.operation, self.hit))


class Recorder:
    def __init__(self) -> None:
        self.cache: list[tuple[str, bool]] = []
        self.engine: list[tuple[str, str]] = []
        self.sizes: list[tuple[int, int]] = []
        self.evicted = 0

    def engine_time(self, rule_set: str, operation: str, seconds: float) -> None:
        self.engine.append((rule_set, operation))

    def cache_counters(self, operation: str) -> tuple[_Count, _Count]:
        return _Count(self.cache, operation, True), _Count(self.cache, operation, False)

    def cache_size(self, entries: int, size_bytes: int) -> None:
        self.sizes.append((entries, size_bytes))

    def cache_evicted(self, entries: int) -> None:
        self.evicted += entries


WIN = pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_RED))


def heavenly(seat: int) -> pb.EvaluateRequest:
    return pb.EvaluateRequest(rule_set="mcr2p", hand=pb.Hand(concealed=T("123456789m1177z"), winning_tile=pb.TILE_RED),
                              context=pb.WinContext(self_drawn=True, heavenly=True, seat_wind=seat))


def test_a_cached_answer_is_not_given_to_a_contradictory_request() -> None:
    svc = Service(observer=Recorder())
    assert svc.evaluate(heavenly(pb.WIND_EAST)).is_win
    # Same hand, no wind tiles, but a heavenly hand for a non-dealer: the rule set refuses it.
    with pytest.raises(ContradictoryContextError):
        svc.evaluate(heavenly(pb.WIND_SOUTH))
    with pytest.raises(ContradictoryContextError):
        svc.evaluate(heavenly(pb.WIND_SOUTH))  # errors are never cached


def test_hits_and_misses_are_reported_once_per_lookup() -> None:
    rec = Recorder()
    svc = Service(observer=rec)
    first = svc.evaluate_bytes(WIN)
    assert svc.evaluate_bytes(pb.EvaluateRequest.FromString(WIN.SerializeToString())) is first
    assert rec.cache == [("Evaluate", False), ("Evaluate", True)]
    assert rec.engine == [("mcr", "evaluate")]
    assert rec.sizes[-1][0] == 1 and rec.sizes[-1][1] > len(first)
    svc.analyze(pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")), visible=T("1z2z")))
    svc.analyze(pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")), visible=T("1z2z")))
    assert rec.cache[-2:] == [("Analyze", False), ("Analyze", True)]


def test_evaluate_and_analyze_of_the_same_bytes_do_not_share_an_entry() -> None:
    hand = pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_RED)
    ev, an = pb.EvaluateRequest(hand=hand), pb.AnalyzeRequest(hand=hand)
    assert ev.SerializeToString() == an.SerializeToString()
    svc = Service()
    for _ in range(2):
        assert svc.evaluate(ev).is_win
        assert svc.analyze(an).shanten == -1
    assert len(svc.cache) == 2


def test_options_and_every_context_field_are_in_the_key() -> None:
    svc = Service()
    base = svc.cache.key("Evaluate", pb.EvaluateRequest(hand=WIN.hand))
    seen = {base}
    for name in pb.WinContext.DESCRIPTOR.fields_by_name:
        fd = pb.WinContext.DESCRIPTOR.fields_by_name[name]
        req = pb.EvaluateRequest(hand=WIN.hand)
        if fd.is_repeated:
            getattr(req.context, name).append(1)
        elif fd.type == fd.TYPE_BOOL:
            setattr(req.context, name, True)
        else:
            setattr(req.context, name, 1)
        seen.add(svc.cache.key("Evaluate", req))
    with_options = pb.EvaluateRequest(hand=WIN.hand)
    with_options.options.riichi.SetInParent()
    seen.add(svc.cache.key("Evaluate", with_options))
    assert len(seen) == 1 + len(pb.WinContext.DESCRIPTOR.fields) + 1
    an = pb.AnalyzeRequest(hand=WIN.hand)
    an.options.hk.SetInParent()
    assert svc.cache.key("Analyze", an) != svc.cache.key("Analyze", pb.AnalyzeRequest(hand=WIN.hand))


def test_byte_bound_and_entry_bound() -> None:
    rec = Recorder()
    cache = ResponseCache(max_entries=100, max_bytes=10 * (ENTRY_OVERHEAD + 100), observer=rec)
    for i in range(30):
        cache.put(("Evaluate", bytes([i]) * 10), b"x" * 90)
        assert cache.bytes <= cache.max_bytes
    assert len(cache) == 10 and rec.evicted == 20 and cache.bytes == 10 * (ENTRY_OVERHEAD + 100)
    assert cache.get(("Evaluate", bytes([29]) * 10)) == b"x" * 90 and cache.get(("Evaluate", b"\x00" * 10)) is None
    cache.put(("Evaluate", b"big"), b"y" * 10**6)  # larger than the whole cache: not stored
    assert len(cache) == 10
    small = ResponseCache(max_entries=3, max_bytes=10**6)
    for i in range(5):
        small.put(("Analyze", bytes([i])), b"a")
    assert len(small) == 3
    off = ResponseCache(max_entries=0)
    off.put(("Analyze", b"k"), b"v")
    assert len(off) == 0 and off.get(("Analyze", b"k")) is None


# ---------------------------------------------------------------------------------------------
# Differential: the key against protobuf's own parsing


def _field(number: int, wire_type: int, payload: bytes = b"") -> bytes:
    from mjsvc.wire import encode_varint

    key = encode_varint((number << 3) | wire_type)
    if wire_type == 0:
        return key + (payload or b"\x01")
    if wire_type == 1:
        return key + (payload + b"\x00" * 8)[:8]
    if wire_type == 5:
        return key + (payload + b"\x00" * 4)[:4]
    if wire_type == 2:
        return key + encode_varint(len(payload)) + payload
    if wire_type == 3:  # a group: start, what is inside, end
        return key + payload + encode_varint((number << 3) | 4)
    raise ValueError(wire_type)


def _parse(cls: type[Message], raw: bytes) -> Message | None:
    try:
        msg = cls.FromString(raw)
    except (DecodeError, RuntimeError, ValueError):
        return None
    msg.DiscardUnknownFields()
    return msg


SAMPLES = [
    WIN.SerializeToString(),
    pb.EvaluateRequest(rule_set="mcr2p", hand=WIN.hand,
                       context=pb.WinContext(self_drawn=True, flowers=2, dora_indicators=[3, 4])).SerializeToString(),
    pb.EvaluateRequest(context=pb.WinContext(self_drawn=True, flowers=8)).SerializeToString(),
    pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")), visible=T("1122z")).SerializeToString(),
    pb.AnalyzeRequest(visible=T("19m19p19s")).SerializeToString(),
]

unknown_fields = st.builds(_field, st.integers(5, 40), st.sampled_from([0, 1, 2, 3, 5]), st.binary(max_size=6))
bodies = st.one_of(
    st.binary(max_size=60),  # random bytes
    st.lists(st.sampled_from(SAMPLES), min_size=1, max_size=3).map(b"".join),  # concatenation: protobuf merges
    st.tuples(st.sampled_from(SAMPLES), st.integers(0, 200), st.integers(0, 255)).map(  # one byte mutated
        lambda t: t[0][: t[1] % len(t[0])] + bytes([t[2]]) + t[0][t[1] % len(t[0]) + 1:]),
    st.tuples(st.sampled_from(SAMPLES), st.lists(unknown_fields, max_size=3), st.integers(0, 2)).map(
        lambda t: b"".join(t[1][: t[2]]) + t[0] + b"".join(t[1][t[2]:])),  # unknown fields around it
    st.lists(st.sampled_from([_field(2, 2, pb.Hand(concealed=[i, i + 1]).SerializeToString()) for i in range(1, 5)]
                             + [_field(3, 2, pb.WinContext(flowers=i).SerializeToString()) for i in range(3)]
                             + [_field(1, 2, b"mcr"), _field(1, 2, b"mcr2p"), _field(3, 2, b"")]),
             max_size=5).map(b"".join),  # repeated copies of singular message and string fields
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([("Evaluate", pb.EvaluateRequest), ("Analyze", pb.AnalyzeRequest)]), bodies, bodies)
def test_keys_agree_with_protobuf(method_cls: tuple[str, type[Message]], a: bytes, b: bytes) -> None:
    """The key is the request as protobuf parsed it. Sound: two bodies share a key only when protobuf parses
    them to the same request (what the engine is given, unknown fields aside, is then the same). Complete
    for what clients send: two bodies that parse to the same request without unknown fields share a key,
    whatever their bytes (fields in any order, repeated copies merged). Bodies that carry fields this server
    does not know share a key only when those fields are the same too (never a wrong answer, at worst a
    second entry)."""
    method, cls = method_cls
    ma, mb = _parse(cls, a), _parse(cls, b)
    for raw, msg in ((a, ma), (b, mb)):
        if msg is not None:
            key = ResponseCache.key(method, cls.FromString(raw))
            assert key[0] == method and _parse(cls, key[1]) == msg  # the key is the parsed message
    if ma is not None and mb is not None:
        same_key = ResponseCache.key(method, cls.FromString(a)) == ResponseCache.key(method, cls.FromString(b))
        if same_key:
            assert ma == mb
        if ma == mb and not _has_unknown(cls, a) and not _has_unknown(cls, b):
            assert same_key


def _has_unknown(cls: type[Message], raw: bytes) -> bool:
    full = cls.FromString(raw)
    return full.ByteSize() != _parse(cls, raw).ByteSize()  # type: ignore[union-attr]


def test_a_key_keeps_unknown_fields_apart() -> None:
    known = WIN.SerializeToString()
    for extra in (_field(40, 0), _field(41, 2, b"abc"), _field(42, 5)):
        with_extra = ResponseCache.key("Evaluate", pb.EvaluateRequest.FromString(known + extra))
        assert with_extra != ResponseCache.key("Evaluate", pb.EvaluateRequest.FromString(known))
        assert pb.EvaluateRequest.FromString(with_extra[1]) == pb.EvaluateRequest.FromString(known + extra)
    req = pb.EvaluateRequest(rule_set="mcr", hand=WIN.hand, context=pb.WinContext(self_drawn=True))
    parts = [pb.EvaluateRequest(context=req.context), pb.EvaluateRequest(hand=req.hand),
             pb.EvaluateRequest(rule_set=req.rule_set)]
    backwards = b"".join(p.SerializeToString() for p in parts)  # the fields last to first
    assert backwards != req.SerializeToString()
    assert ResponseCache.key("Evaluate", pb.EvaluateRequest.FromString(backwards)) == ResponseCache.key(
        "Evaluate", req)


def test_request_messages_have_no_map_fields() -> None:
    """A map is the one thing protobuf may serialize in varying order: the keys rely on there being none."""

    def maps(desc: Any, seen: set[str]) -> list[str]:
        if desc.full_name in seen:
            return []
        seen.add(desc.full_name)
        found = []
        for f in desc.fields:
            if f.message_type is not None:
                if f.message_type.GetOptions().map_entry:
                    found.append(f.full_name)
                found += maps(f.message_type, seen)
        return found

    for cls in (pb.EvaluateRequest, pb.AnalyzeRequest):
        assert maps(cls.DESCRIPTOR, set()) == []
