"""The two-player table's options over the wire (RuleOptions.mcr2p, issue 12): the proto conversion, the
`mjsvc batch` console script (from another working directory, a clean environment) and a freshly started
`mjsvc serve`. `non_dealer_seat` is ruling 11 of engine/rules/mcr2p: unset, any non-East seat is the
non-dealer's; set, only East and that seat are seats of the table."""

from __future__ import annotations

import json
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from installed import run, script
from server_harness import ServerProcess

from engine import api
from engine.errors import BadContextError, BadOptionError
from engine.rules.mcr2p.fans import Fan as TwoPlayerFan
from engine.tiles import parse_tiles
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc


def T(text: str) -> list[str]:
    return [pb.Tile.Name(t + 1) for t in parse_tiles(text)]


# 清龙 + 门风刻 (North's pung, seat North) ...: a win for the non-dealer at North
REQUEST: dict[str, Any] = {
    "rule_set": "mcr2p",
    "hand": {"concealed": T("123m456m789mNNN1m"), "winning_tile": "TILE_M1"},
    "context": {"seat_wind": "WIND_NORTH", "self_drawn": True},
}


def _with(seat: str | None = None, wind: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(REQUEST))
    if seat is not None:
        out["options"] = {"mcr2p": {"non_dealer_seat": seat}}
    if wind is not None:
        out["context"]["seat_wind"] = wind
    return out


def _parse(request: dict[str, Any]) -> pb.EvaluateRequest:
    return json_format.ParseDict(request, pb.EvaluateRequest())


def test_convert_reads_the_non_dealer_seat() -> None:
    for wire, engine in (("WIND_SOUTH", "south"), ("WIND_WEST", "west"), ("WIND_NORTH", "north")):
        assert convert.options_from_proto("mcr2p", _parse(_with(wire)).options) == {"non_dealer_seat": engine}
    # unset (WIND_UNSPECIFIED) is the default: any non-East seat
    assert convert.options_from_proto("mcr2p", pb.RuleOptions(mcr2p=pb.Mcr2pOptions())) is None
    assert convert.options_from_proto("mcr2p", _parse(_with("WIND_UNSPECIFIED")).options) is None
    with pytest.raises(BadOptionError) as err:  # East is the dealer's seat
        convert.options_from_proto("mcr2p", _parse(_with("WIND_EAST")).options)
    assert err.value.field == "options.mcr2p.non_dealer_seat" and "WIND_EAST" in str(err.value)
    with pytest.raises(BadOptionError) as bad:  # a number outside the enum (proto3 keeps unknown values)
        convert.options_from_proto("mcr2p", pb.RuleOptions(mcr2p=pb.Mcr2pOptions(non_dealer_seat=9)))
    assert bad.value.field == "options.mcr2p.non_dealer_seat"
    with pytest.raises(BadOptionError) as other:  # another rule set's options
        convert.options_from_proto("mcr", _parse(_with("WIND_WEST")).options)
    assert other.value.field == "options.mcr2p"
    # through the engine: the option decides which seats are accepted
    msg = _parse(_with("WIND_WEST"))
    hand = convert.hand_from_proto(msg.hand, winning=True)
    options = convert.options_from_proto("mcr2p", msg.options)
    with pytest.raises(BadContextError) as seat:
        api.evaluate(hand, convert.context_from_proto(msg.context), "mcr2p", options)
    assert seat.value.field == "seat_wind"
    north = _parse(_with("WIND_NORTH"))
    assert api.evaluate(hand, convert.context_from_proto(north.context), "mcr2p",
                        convert.options_from_proto("mcr2p", north.options)).is_win


def test_batch_console_script_speaks_mcr2p_options() -> None:
    lines = [{"method": "Evaluate", "request": r}
             for r in (_with(), _with("WIND_NORTH"), _with("WIND_WEST"), _with("WIND_WEST", "WIND_EAST"),
                       _with("WIND_EAST"))]
    proc = run([script("mjsvc"), "batch"], input="".join(json.dumps(x) + "\n" for x in lines), capture_output=True,
               timeout=120)
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(x) for x in proc.stdout.splitlines()]
    assert answers[0]["response"]["is_win"] and answers[1]["response"] == answers[0]["response"]
    assert int(TwoPlayerFan.SEAT_WIND) in {f["id"] for f in answers[0]["response"]["best"]["fans"]}
    assert answers[2]["error"]["reason"] == "BAD_CONTEXT"
    assert answers[2]["error"]["field"] == "context.seat_wind", answers[2]
    assert answers[3]["response"]["is_win"]  # the dealer's seat is always a seat of the table
    assert answers[4]["error"]["reason"] == "BAD_OPTION"
    assert answers[4]["error"]["field"] == "options.mcr2p.non_dealer_seat"


def _reason(err: grpc.RpcError) -> tuple[str, str]:
    status = rpc_status.from_call(err)  # type: ignore[arg-type]
    info = error_details_pb2.ErrorInfo()
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            detail.Unpack(info)
    return info.reason, info.metadata.get("field", "")


@pytest.mark.integration
def test_grpc_server_reads_mcr2p_options() -> None:
    """A freshly started `mjsvc serve`, one worker: the same hand and context answered, then refused under
    `non_dealer_seat` WEST (never the cached answer), answered again under NORTH; East as the option is
    BAD_OPTION naming the field."""
    with ServerProcess(workers=1) as srv, grpc.insecure_channel(srv.address) as channel:
        stub = mahjong_pb2_grpc.MahjongEngineStub(channel)
        plain = stub.Evaluate(_parse(_with()), timeout=10)
        assert plain.is_win and stub.Evaluate(_parse(_with()), timeout=10) == plain
        with pytest.raises(grpc.RpcError) as err:
            stub.Evaluate(_parse(_with("WIND_WEST")), timeout=10)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert _reason(err.value) == ("BAD_CONTEXT", "context.seat_wind")
        assert stub.Evaluate(_parse(_with("WIND_NORTH")), timeout=10) == plain
        with pytest.raises(grpc.RpcError) as east:
            stub.Evaluate(_parse(_with("WIND_EAST")), timeout=10)
        assert _reason(east.value) == ("BAD_OPTION", "options.mcr2p.non_dealer_seat")
