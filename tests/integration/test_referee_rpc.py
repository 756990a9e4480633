"""The referee as users call it: `Legal` and `Settle` on a real `mjsvc serve` (unary, inside `Play`, through
`mjsvc web` for browsers), and the installed `mjsvc batch` and `python -m engine settle` run from another
directory on the same log; every interface gives the same money as the engine in process."""

from __future__ import annotations

import json
from collections.abc import Iterator

import grpc
import installed
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from referee_logs import P, p
from server_harness import ServerProcess
from web_harness import WebProcess, grpc_web_call

from engine import referee
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc

pytestmark = pytest.mark.integration

SERVICE = "mahjong.v1.MahjongEngine"
E, S, W, N = pb.WIND_EAST, pb.WIND_SOUTH, pb.WIND_WEST, pb.WIND_NORTH


def event(**kind: object) -> pb.HandEvent:
    return pb.HandEvent(**kind)  # type: ignore[arg-type]


def mcr_log(upto: int | None = None) -> pb.HandLog:
    """An MCR hand: East deals and throws 9p; each seat draws and throws what it drew; East's 5p is South's
    win (123m 456m 789m 345s + 5p: a Pure Straight). `upto`: the first events only."""
    hands = {E: "EEESSSWWWNNCF9p", S: "123m456m789m345s5p", W: "111p222p333p444p", N: "2468m2468s5m7mCF"}
    events = [event(deal=pb.Deal(hands=[pb.SeatTiles(seat=s, tiles=P(h)) for s, h in hands.items()])),
              event(discard=pb.Discard(seat=E, tile=p("9p")))]
    for seat, tile in ((S, "6p"), (W, "8p"), (N, "9s"), (E, "5p")):
        events += [event(draw=pb.Draw(seat=seat, tile=p(tile))), event(discard=pb.Discard(seat=seat, tile=p(tile)))]
    events.append(event(win=pb.Win(seat=S)))
    return pb.HandLog(rule_set="mcr", events=events[:upto])


def in_process(log: pb.HandLog) -> pb.SettleResponse:
    return convert.settlement_to_proto(referee.settle(convert.hand_log_from_proto(log)))


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with ServerProcess(workers=2) as srv:
        yield srv


@pytest.fixture(scope="module")
def stub(server: ServerProcess) -> Iterator[mahjong_pb2_grpc.MahjongEngineStub]:
    with grpc.insecure_channel(server.address) as ch:
        yield mahjong_pb2_grpc.MahjongEngineStub(ch)


def test_settle_pays_the_competition_rule(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    out = stub.Settle(pb.SettleRequest(log=mcr_log()), timeout=10)
    total = out.wins[0].best.total
    assert total >= 8 and out.wins[0].is_win
    assert {m.seat: m.net for m in out.seats} == {E: -(total + 8), S: total + 24, W: -8, N: -8}
    assert sum(line.amount for line in out.lines if line.payee == S) == total + 24
    assert {line.event_index for line in out.lines} == {len(mcr_log().events) - 1}
    assert out == in_process(mcr_log())


def test_legal_at_each_point_of_the_hand(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    after_deal = stub.Legal(pb.LegalRequest(log=mcr_log(1)), timeout=10)
    (east,) = after_deal.seats
    assert east.seat == E
    assert pb.Action(kind=pb.ACTION_KIND_DISCARD, tiles=[p("9p")]) in east.actions
    before_win = stub.Legal(pb.LegalRequest(log=mcr_log(-1)), timeout=10)
    south = [s for s in before_win.seats if s.seat == S]
    assert south and any(a.kind == pb.ACTION_KIND_WIN_DISCARD for a in south[0].actions)
    assert stub.Legal(pb.LegalRequest(log=mcr_log()), timeout=10).seats == []  # the hand has ended


def reason_and_field(err: grpc.RpcError) -> tuple[str, str]:
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    status = rpc_status.from_call(err)  # type: ignore[arg-type]
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    assert any(d.Unpack(info) for d in status.details if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR))
    return info.reason, info.metadata["field"]


def test_an_illegal_event_is_named(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    log = mcr_log(2)
    log.events.append(event(discard=pb.Discard(seat=S, tile=p("1m"))))  # South has not drawn
    with pytest.raises(grpc.RpcError) as info:
        stub.Legal(pb.LegalRequest(log=log), timeout=10)
    assert reason_and_field(info.value) == ("ILLEGAL_EVENT", "log.events[2]")
    with pytest.raises(grpc.RpcError) as info:
        stub.Settle(pb.SettleRequest(log=mcr_log(-1)), timeout=10)  # not ended
    assert reason_and_field(info.value)[0] == "ILLEGAL_EVENT"


def test_play_carries_legal_and_settle(server: ServerProcess) -> None:
    with grpc.insecure_channel(server.address) as ch:
        play = ch.stream_stream(f"/{SERVICE}/Play", request_serializer=pb.PlayRequest.SerializeToString,
                                response_deserializer=pb.PlayResponse.FromString)
        requests = [pb.PlayRequest(id="l", legal=pb.LegalRequest(log=mcr_log(1))),
                    pb.PlayRequest(id="s", settle=pb.SettleRequest(log=mcr_log())),
                    pb.PlayRequest(id="bad", settle=pb.SettleRequest(log=mcr_log(3)))]
        answers = list(play(iter(requests), timeout=10))
    assert [a.id for a in answers] == ["l", "s", "bad"]
    assert answers[0].legal.seats[0].seat == E
    assert answers[1].settle == in_process(mcr_log())
    assert (answers[2].error.reason, answers[2].error.field) == ("ILLEGAL_EVENT", "settle.log.events[2]")


def test_grpc_web_carries_settle(server: ServerProcess) -> None:
    with WebProcess(server.address) as web:
        answer = grpc_web_call(web.port, "Settle", pb.SettleRequest(log=mcr_log()).SerializeToString())
    assert answer.status == 0
    assert pb.SettleResponse.FromString(answer.messages[0]) == in_process(mcr_log())


def test_batch_and_cli_settle_the_same_log() -> None:
    log_json = json_format.MessageToDict(mcr_log(), preserving_proto_field_name=True)
    line = json.dumps({"method": "Settle", "request": {"log": log_json}})
    out = installed.run([installed.script("mjsvc"), "batch"], input=line + "\n", capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    response = json.loads(out.stdout)["response"]
    expected = {m.seat: m.net for m in in_process(mcr_log()).seats}
    assert {pb.Wind.Value(m["seat"]): m["net"] for m in response["seats"]} == expected

    path = installed.WORKDIR / "hand.json"
    path.write_text(json.dumps(log_json))
    cli = installed.run([installed.python(), "-m", "engine", "settle", "--log", "hand.json", "--json"],
                        capture_output=True, timeout=60)
    assert cli.returncode == 0, cli.stderr
    answer = json.loads(cli.stdout)
    assert {pb.Wind.Value(m["seat"]): m["net"] for m in answer["seats"]} == expected
    text = installed.run([installed.python(), "-m", "engine", "settle", "--log", "hand.json"],
                         capture_output=True, timeout=60)
    assert text.returncode == 0 and text.stdout.startswith("Net: East ")
