"""Guangdong 推倒胡 through a real `mjsvc serve` (started as the other integration tests start it): a hand
with two ghosts evaluated, its decomposition saying what each ghost stood for; Analyze with ghosts;
ListFans; a bad option as INVALID_ARGUMENT naming the field."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from server_harness import ServerProcess

from engine.tiles import parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc

pytestmark = pytest.mark.integration


def T(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


@pytest.fixture(scope="module")
def stub() -> Iterator[mahjong_pb2_grpc.MahjongEngineStub]:
    with ServerProcess(workers=1) as srv, grpc.insecure_channel(srv.address) as ch:
        yield mahjong_pb2_grpc.MahjongEngineStub(ch)


GHOSTS = pb.RuleOptions(guangdong=pb.GuangdongOptions(ghosts=[pb.TILE_WHITE]))


def test_two_ghosts_evaluated_with_what_each_stood_for(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    # 1m 3m 4p 6p 789s 999s EE and a white, won on a second white: the whites are 2m and 5p
    req = pb.EvaluateRequest(rule_set="guangdong", hand=pb.Hand(concealed=T("13m46p789s999sEEP"),
                                                               winning_tile=pb.TILE_WHITE),
                             context=pb.WinContext(self_drawn=True, seat_wind=pb.WIND_SOUTH,
                                                   horse_tiles=T("1m")),
                             options=GHOSTS)
    resp = stub.Evaluate(req, timeout=30)
    assert resp.is_win
    sets = resp.best.decomposition.sets
    wild = [(list(s.tiles), list(s.wild_as)) for s in sets if s.wild_as]
    assert wild == [([pb.TILE_M1, pb.TILE_WHITE, pb.TILE_M3], [pb.TILE_M2]),
                    ([pb.TILE_P4, pb.TILE_WHITE, pb.TILE_P6], [pb.TILE_P5])]
    assert resp.best.decomposition.shape == pb.SHAPE_KIND_STANDARD
    assert sum(1 for s in sets if s.HasField("win_offset")) == 1
    # one horse (1m) names the winner's seat: the points double; every other player pays 2 x points
    assert {f.name_zh: f.count for f in resp.best.fans} == {"推倒胡": 1, "自摸": 1, "中马": 1}
    assert (resp.best.total, resp.best.points) == (2, 2)
    assert [(p.seat_wind, p.amount) for p in resp.best.payments] == [
        (pb.WIND_EAST, -4), (pb.WIND_SOUTH, 12), (pb.WIND_WEST, -4), (pb.WIND_NORTH, -4)]
    assert len(resp.alternatives) >= 1  # the second white in the other chow holds the winning tile


def test_analyze_with_ghosts(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    req = pb.AnalyzeRequest(rule_set="guangdong", hand=pb.Hand(concealed=T("13m46p789s999sEEP")), options=GHOSTS)
    resp = stub.Analyze(req, timeout=30)
    assert resp.shanten == 0
    assert [w.tile for w in resp.waits] == [pb.TILE_M2, pb.TILE_P5, pb.TILE_WHITE]
    plain = stub.Analyze(pb.AnalyzeRequest(rule_set="guangdong", hand=pb.Hand(concealed=T("13m46p789s999sEEP"))),
                         timeout=30)
    assert plain.shanten == 1  # without ghosts the white is a white


def test_list_fans(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    resp = stub.ListFans(pb.ListFansRequest(rule_set="guangdong"), timeout=30)
    names = {"推倒胡", "无鬼", "七对", "杠上开花", "抢杠胡", "杠爆全包", "中马", "跟庄"}
    assert {f.name_zh for f in resp.fans} >= names


def test_bad_guangdong_option(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    req = pb.EvaluateRequest(rule_set="guangdong", hand=pb.Hand(concealed=T("13m46p789s999sEEP"),
                                                               winning_tile=pb.TILE_WHITE),
                             context=pb.WinContext(self_drawn=True),
                             options=pb.RuleOptions(
                                 guangdong=pb.GuangdongOptions(ghosts=[pb.TILE_WHITE, pb.TILE_WHITE])))
    with pytest.raises(grpc.RpcError) as err:
        stub.Evaluate(req, timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(err.value)
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            detail.Unpack(info)
    assert info.reason == "BAD_OPTION"
    assert "options.guangdong.ghosts" in err.value.details()
