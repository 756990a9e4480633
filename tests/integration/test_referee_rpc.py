"""The referee as users call it: `Legal` and `Settle` on a real `mjsvc serve` (unary, inside `Play`, through
`mjsvc web` for browsers), and the installed `mjsvc batch` and `python -m engine settle` run from another
directory on the same log (a Riichi hand of the shared oracle file, played by majiang-core); every interface
gives the money majiang-core paid and the answers of the engine in process."""

from __future__ import annotations

import json
from collections.abc import Iterator

import grpc
import installed
import pytest
import riichi_rounds
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from referee_logs import p, to_proto
from server_harness import ServerProcess
from web_harness import WebProcess, grpc_web_call

from engine import referee
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc

pytestmark = pytest.mark.integration

SERVICE = "mahjong.v1.MahjongEngine"
E, S = pb.WIND_EAST, pb.WIND_SOUTH


def event(**kind: object) -> pb.HandEvent:
    return pb.HandEvent(**kind)  # type: ignore[arg-type]


def riichi_rec() -> dict:
    """The first hand of the shared oracle file won on a discard, with calls (played by majiang-core)."""
    for rec in riichi_rounds.records():
        kinds = [e["type"] for e in rec["events"]]
        if "call" in kinds and any(e["type"] == "win" and e["from"] is not None for e in rec["events"]):
            return rec
    raise AssertionError("no such hand")


REC = riichi_rec() if riichi_rounds.ORACLE.exists() else None
if REC is None:
    pytest.skip("shared oracle data not present", allow_module_level=True)
NETS = riichi_rounds.net_by_wind(REC)


def hand_log(upto: int | None = None) -> pb.HandLog:
    """The hand's log on the wire; `upto`: its first events only (negative: all but the last)."""
    log = to_proto(riichi_rounds.hand_log(REC))
    del log.events[len(log.events) if upto is None else upto:]
    return log


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


def test_settle_pays_what_majiang_core_paid(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    out = stub.Settle(pb.SettleRequest(log=hand_log()), timeout=10)
    assert [m.net for m in out.seats] == NETS
    assert out.wins[0].is_win and out.wins[0].best.points > 0
    assert sum(line.amount for line in out.lines if line.reason == "WIN") >= out.wins[0].best.points
    assert out == in_process(hand_log())


def test_legal_at_each_point_of_the_hand(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    after_deal = stub.Legal(pb.LegalRequest(log=hand_log(1)), timeout=10)
    assert [(s.seat, [a.kind for a in s.actions]) for s in after_deal.seats] == [(E, [pb.ACTION_KIND_DRAW])]
    winner = hand_log().events[-1].win.seat
    before_win = stub.Legal(pb.LegalRequest(log=hand_log(-1)), timeout=10)
    seat = [s for s in before_win.seats if s.seat == winner]
    assert seat and any(a.kind == pb.ACTION_KIND_WIN_DISCARD for a in seat[0].actions)
    for upto in range(1, len(hand_log().events), 7):  # the service answers as the engine in process
        log = hand_log(upto)
        assert stub.Legal(pb.LegalRequest(log=log), timeout=10) == convert.legal_to_proto(
            referee.legal(convert.hand_log_from_proto(log)))


def reason_and_field(err: grpc.RpcError) -> tuple[str, str]:
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    status = rpc_status.from_call(err)  # type: ignore[arg-type]
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    assert any(d.Unpack(info) for d in status.details if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR))
    return info.reason, info.metadata["field"]


def test_an_illegal_event_is_named(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    log = hand_log(2)  # the deal, East's first draw
    log.events.append(event(discard=pb.Discard(seat=S, tile=p("1m"))))  # South's turn it is not
    with pytest.raises(grpc.RpcError) as info:
        stub.Legal(pb.LegalRequest(log=log), timeout=10)
    assert reason_and_field(info.value) == ("ILLEGAL_EVENT", "log.events[2]")
    with pytest.raises(grpc.RpcError) as info:
        stub.Settle(pb.SettleRequest(log=hand_log(-1)), timeout=10)  # not ended
    assert reason_and_field(info.value) == ("BAD_LOG", "log.events")


def test_play_carries_legal_and_settle(server: ServerProcess) -> None:
    with grpc.insecure_channel(server.address) as ch:
        play = ch.stream_stream(f"/{SERVICE}/Play", request_serializer=pb.PlayRequest.SerializeToString,
                                response_deserializer=pb.PlayResponse.FromString)
        requests = [pb.PlayRequest(id="l", legal=pb.LegalRequest(log=hand_log(1))),
                    pb.PlayRequest(id="s", settle=pb.SettleRequest(log=hand_log())),
                    pb.PlayRequest(id="bad", settle=pb.SettleRequest(log=hand_log(3)))]
        answers = list(play(iter(requests), timeout=10))
    assert [a.id for a in answers] == ["l", "s", "bad"]
    assert answers[0].legal.seats[0].seat == E
    assert answers[1].settle == in_process(hand_log())
    assert (answers[2].error.reason, answers[2].error.field) == ("BAD_LOG", "settle.log.events")


def test_grpc_web_carries_settle(server: ServerProcess) -> None:
    with WebProcess(server.address) as web:
        answer = grpc_web_call(web.port, "Settle", pb.SettleRequest(log=hand_log()).SerializeToString())
    assert answer.status == 0
    assert pb.SettleResponse.FromString(answer.messages[0]) == in_process(hand_log())


def test_batch_and_cli_settle_the_same_log() -> None:
    log_json = json_format.MessageToDict(hand_log(), preserving_proto_field_name=True)
    line = json.dumps({"method": "Settle", "request": {"log": log_json}})
    out = installed.run([installed.script("mjsvc"), "batch"], input=line + "\n", capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    response = json.loads(out.stdout)["response"]
    expected = {m.seat: m.net for m in in_process(hand_log()).seats}
    assert list(expected.values()) == NETS
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


def test_chinese_tables_settle_over_grpc(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    """An MCR hand (the competition rule's payments) and a Sichuan round of the shared oracle file that
    reached the wall's end (查大叫, 退税 and the rest)."""
    import sichuan_rounds
    from referee_logs import P

    hands = {pb.WIND_EAST: "EEESSSWWWNNCF9p", pb.WIND_SOUTH: "123m456m789m345s5p", pb.WIND_WEST: "111p222p333p444p5p",
             pb.WIND_NORTH: "2468m2468s5m7mCFP"}
    events = [event(deal=pb.Deal(hands=[pb.SeatTiles(seat=s, tiles=P(h)) for s, h in hands.items()])),
              event(discard=pb.Discard(seat=E, tile=p("9p")))]
    for seat, tile in ((pb.WIND_SOUTH, "6p"), (pb.WIND_WEST, "8p"), (pb.WIND_NORTH, "9s"), (E, "5p")):
        events += [event(draw=pb.Draw(seat=seat, tile=p(tile))), event(discard=pb.Discard(seat=seat, tile=p(tile)))]
    events.append(event(win=pb.Win(seat=S)))
    out = stub.Settle(pb.SettleRequest(log=pb.HandLog(rule_set="mcr", events=events)), timeout=10)
    total = out.wins[0].best.total
    assert [m.net for m in out.seats] == [-(total + 8), total + 24, -8, -8]

    rec = next(r for r in sichuan_rounds.records() if r["events"][-1]["type"] == "draw_game")
    log = to_proto(sichuan_rounds.hand_log(rec))
    rules = rec["rules"]
    lenient = rules["void_discard_rule"] != "strict"
    log.options.sichuan.CopyFrom(pb.SichuanOptions(
        fan_cap=rules["fan_cap"], heavenly_earthly=rules["heavenly_earthly"], exchange_three=rules["exchange_three"],
        robbing_kong=rules["robbing_kong"], flower_pig=rules["flower_pig"], set_aside=True,
        void_discard=pb.SICHUAN_VOID_DISCARD_LENIENT if lenient else pb.SICHUAN_VOID_DISCARD_STRICT))
    got = stub.Settle(pb.SettleRequest(log=log), timeout=10)
    assert got == in_process(log)
    # the settlement the oracle test holds to the reference's nets (its rulings listed there), seats by wind
    from sichuan_referee_check import expected, reference_view

    from engine import referee

    engine_log = sichuan_rounds.hand_log(rec)
    ours = referee.settle(engine_log)
    assert [m.net for m in got.seats] == [m.net for m in ours.seats]
    assert reference_view(engine_log, ours)[:2] == expected(rec)[:2]
