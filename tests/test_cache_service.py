"""The service's caches never answer for a request that should fail, and count what they do."""

from __future__ import annotations

import pytest

from engine.errors import ContradictoryContextError
from engine.tiles import parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service


def T(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


class Recorder:
    def __init__(self) -> None:
        self.cache: list[tuple[str, bool]] = []
        self.engine: list[tuple[str, str]] = []

    def engine_time(self, rule_set: str, operation: str, seconds: float) -> None:
        self.engine.append((rule_set, operation))

    def cache_result(self, operation: str, hit: bool) -> None:
        self.cache.append((operation, hit))

    def cache_size(self, entries: int) -> None:
        pass


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
    req = pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_RED))
    shuffled = pb.EvaluateRequest(hand=pb.Hand(concealed=list(reversed(T("123m456p789s1177z"))),
                                               winning_tile=pb.TILE_RED))
    first = svc.evaluate(req)
    assert svc.evaluate(req) is first  # exact bytes
    assert svc.evaluate(shuffled) is first  # canonical key
    assert rec.cache == [("evaluate", False), ("evaluate", True), ("evaluate", True)]
    assert rec.engine == [("mcr", "evaluate")]
    svc.analyze(pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")), visible=T("1z2z")))
    svc.analyze(pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")), visible=T("2z1z")))
    assert rec.cache[-2:] == [("analyze", False), ("analyze", True)]
