"""The Evaluate answer written directly as wire bytes (convert.evaluation_to_wire, what the service sends) is
byte for byte protobuf's own `convert.evaluation_to_proto(e).SerializeToString()`: on thousands of
evaluations of generated hands of every rule set (bench/mcr_cases.py, riichi_cases, sichuan_cases,
hk_cases, wildcard hands of guangdong), and on evaluations built at random field by field to reach the
corners the engine rarely produces (negative payments, zero optional indices, empty and non-ASCII
strings, large values)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from bench import hk_cases, mcr_cases, riichi_cases, sichuan_cases
from engine import api
from engine.errors import EngineError
from engine.hand import Hand, WinContext
from engine.results import Evaluation, FanDef, FanHit, Scoring
from engine.shapes import Decomposition, SetKind, ShapeKind, TileSet
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb


def _same(e: Evaluation) -> None:
    assert convert.evaluation_to_wire(e) == convert.evaluation_to_proto(e).SerializeToString()


def _evaluations(rule_set: str, situations: Iterator[tuple[Hand, WinContext]],
                 options: dict[str, object] | None = None) -> Iterator[Evaluation]:
    for hand, ctx in situations:
        try:
            yield api.evaluate(hand, ctx, rule_set, options)
        except EngineError:  # a generated situation this rule set refuses: nothing to write
            continue


SOURCES = {
    "mcr": lambda n: ((c.hand, c.ctx) for c in mcr_cases.cases(n, 11)),
    "riichi": lambda n: ((c.hand, c.ctx) for c in riichi_cases.generate(n, 12)),
    "sichuan": lambda n: ((s.hand, s.ctx) for s in sichuan_cases.situations(n, 13)),
    "hk": lambda n: ((c.hand, c.ctx) for c in hk_cases.cases(n, 14)),
}


@pytest.mark.parametrize("rule_set", list(SOURCES))
def test_generated_evaluations_are_written_as_protobuf_writes_them(rule_set: str) -> None:
    seen = 0
    for e in _evaluations(rule_set, SOURCES[rule_set](400)):
        _same(e)
        seen += 1
    assert seen >= 200  # most generated situations are evaluated, not refused


def test_wildcard_evaluations_are_written_as_protobuf_writes_them() -> None:
    """Guangdong with ghosts (white dragon, then the 5 of characters): sets with wild_as."""
    wild = 0
    for ghosts in ((33,), (4,)):
        for e in _evaluations("guangdong", ((c.hand, WinContext(self_drawn=c.ctx.self_drawn))
                                            for c in hk_cases.cases(300, ghosts[0])), {"ghosts": ghosts}):
            _same(e)
            scorings = e.alternatives + ((e.best,) if e.best else ())
            wild += any(s.wild_as for sc in scorings for s in sc.decomposition.sets)
    assert wild >= 10  # wildcards did stand in for tiles


_FANS = [FanDef(i, n, z, p) for i, n, z, p in
         [(1, "Big Four Winds", "大四喜", 88), (0, "", "", 0), (300, "x" * 200, "", 1), (7, "Pinfu", "平和", -1)]]


def _random_tile_set(rng: random.Random) -> TileSet:
    kind, first = rng.choice(list(SetKind)), rng.randrange(7)
    stood_for = TileSet(kind, first).tiles[:rng.choice([0, 0, 1, 2])]  # a wildcard stands for a tile of the set
    return TileSet(kind, first, concealed=rng.random() < 0.5,
                   meld_index=rng.choice([None, 0, 1, 3]), win_offset=rng.choice([None, 0, 2]),
                   wild=tuple(rng.randrange(34) for _ in stood_for), wild_as=stood_for)


def _random_scoring(rng: random.Random) -> Scoring:
    fans = tuple(FanHit(rng.choice(_FANS), rng.choice([0, 1, 2, 200]),
                        tuple(rng.randrange(6) for _ in range(rng.randrange(3))),
                        tuple(rng.randrange(34) for _ in range(rng.randrange(5)))) for _ in range(rng.randrange(5)))
    sets = tuple(_random_tile_set(rng) for _ in range(rng.randrange(6)))
    decomposition = Decomposition(rng.choice(list(ShapeKind)), sets,
                                  tuple(rng.randrange(34) for _ in range(rng.choice([0, 0, 9, 14]))))
    priced = rng.random() < 0.6
    return Scoring(fans, rng.choice([0, 1, 8, 300, 100000]), rng.random() < 0.5, decomposition,
                   han=rng.choice([0, 0, 1, 13]) if priced else 0, fu=rng.choice([0, 20, 110]) if priced else 0,
                   yakuman=rng.choice([0, 1, 6]),  # written only with the priced fields, as evaluation_to_proto does
                   points=rng.choice([0, 8000, 2 ** 20]) if priced else 0,
                   payments=tuple((rng.randrange(4), rng.choice([-48000, -1, 0, 1, 32000]))
                                  for _ in range(rng.randrange(5))),
                   fu_parts=tuple((rng.choice(["", "base", "ツモ"]), rng.choice([0, 2, 40]))
                                  for _ in range(rng.randrange(3))),
                   reason=rng.choice(["", "", "no yaku", "役なし"]) if priced else "")


def test_random_evaluations_are_written_as_protobuf_writes_them() -> None:
    rng = random.Random(2026)
    for _ in range(3000):
        best = _random_scoring(rng) if rng.random() < 0.9 else None
        _same(Evaluation(rng.random() < 0.7, best, tuple(_random_scoring(rng) for _ in range(rng.randrange(3)))))


def test_service_answers_with_the_wire_bytes() -> None:
    """The service's Evaluate answer is the message path's, for a win and for a non-win."""
    from mjsvc.service import Service

    svc = Service(cache_size=0)
    for c in mcr_cases.cases(20, 5):
        req = pb.EvaluateRequest(hand=convert.hand_to_proto(c.hand.concealed, c.hand.melds, c.hand.winning_tile),
                                 context=pb.WinContext(self_drawn=c.ctx.self_drawn, flowers=c.ctx.flowers))
        e = api.evaluate(c.hand, WinContext(self_drawn=c.ctx.self_drawn, flowers=c.ctx.flowers))
        assert svc.evaluate_bytes(req) == convert.evaluation_to_proto(e).SerializeToString()


# ---------------------------------------------------------------------------------------------
# Inbound: the context read from the fields the client set is the context read field by field


def _fields(ctx: WinContext) -> list[tuple[str, type, object]]:
    """Every field with its value's type: a Wind must come out a Wind, not an int that equals one."""
    from dataclasses import fields

    out = []
    for f in fields(ctx):
        v = getattr(ctx, f.name)
        out.append((f.name, type(v), tuple((type(x), x) for x in v) if isinstance(v, tuple) else v))
    return out


def _random_context(rng: random.Random) -> pb.WinContext:
    """A WinContext message with a few fields set, now and then to a value outside its enum or range."""
    msg = pb.WinContext()
    bad = rng.random() < 0.3

    def value(good: list[int], wrong: list[int]) -> int:
        return rng.choice(wrong) if bad and rng.random() < 0.3 else rng.choice(good)

    for name in rng.sample([f.name for f in pb.WinContext.DESCRIPTOR.fields], rng.randrange(0, 8)):
        if name in ("seat_wind", "prevalent_wind"):
            setattr(msg, name, value([0, 1, 2, 3, 4], [5, 99]))
        elif name in ("discarded_by", "prior_kong_claimed_from", "kong_fed_by", "liable"):
            setattr(msg, name, value([0, 1, 2, 3], [4, 7]))
        elif name == "void_suit":
            msg.void_suit = value([0, 1, 2, 3], [4])  # type: ignore[assignment]
        elif name == "prior_kong":
            msg.prior_kong = value([0, 1, 2, 3, 4], [5])  # type: ignore[assignment]
        elif name in ("seats_out", "other_winners"):
            getattr(msg, name).extend([value([0, 1, 2, 3, 4], [5]) for _ in range(rng.randrange(4))])  # type: ignore[misc]
        elif name == "flower_tiles":
            msg.flower_tiles.extend([value(list(range(1, 9)), [0, 9]) for _ in range(rng.randrange(5))])  # type: ignore[misc]
        elif name in ("dora_indicators", "ura_dora_indicators", "horse_tiles"):
            getattr(msg, name).extend([value(list(range(1, 35)), [0, 35, 120]) for _ in range(rng.randrange(5))])
        elif name in ("flowers", "honba", "riichi_sticks", "kita", "streak"):
            setattr(msg, name, rng.choice([0, 1, 3, 8, -1, 100]))
        else:
            setattr(msg, name, rng.random() < 0.7)
    return msg


def _outcome(read: Callable[[pb.WinContext, str], WinContext], msg: pb.WinContext) -> object:
    try:
        return _fields(read(msg, "evaluate.context"))
    except EngineError as err:
        return (type(err), err.code, err.field, str(err))


def test_context_from_set_fields_equals_field_by_field() -> None:
    rng = random.Random(4)
    errors = 0
    for _ in range(5000):
        msg = _random_context(rng)
        fast = _outcome(convert.context_from_proto, msg)
        assert fast == _outcome(convert._context_fields, msg), msg
        errors += isinstance(fast, tuple)
    assert errors >= 100  # bad values were tried, and answered with the same errors


def test_contexts_kept_by_their_bytes_are_the_contexts_read() -> None:
    """The kept contexts (a bounded table keyed by the message's bytes): a context asked for again is the very
    value read the first time, equal to a fresh field-by-field reading; a bad one is refused every time, with
    the same error; when the table is full it starts again, and the answers stay the same."""
    rng = random.Random(5)
    pool = [_random_context(rng) for _ in range(300)]
    convert._CONTEXTS.clear()
    kept_before = convert._CONTEXTS_KEPT
    convert._CONTEXTS_KEPT = 64  # small, so it fills and starts again many times
    try:
        for _ in range(4000):
            msg = rng.choice(pool)
            again = pb.WinContext.FromString(msg.SerializeToString())  # another message, the same content
            first = _outcome(convert.context_from_proto, msg)
            assert first == _outcome(convert.context_from_proto, again) == _outcome(convert._context_fields, msg)
            if not isinstance(first, tuple):
                assert convert.context_from_proto(again) is convert._CONTEXTS[msg.SerializeToString()]
            assert len(convert._CONTEXTS) <= 64
        assert not any(isinstance(v, tuple) for v in convert._CONTEXTS.values())
    finally:
        convert._CONTEXTS_KEPT = kept_before
        convert._CONTEXTS.clear()
