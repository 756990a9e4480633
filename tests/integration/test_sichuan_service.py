"""Sichuan through what users run: `mjsvc batch` (installed script, proto3 JSON) and a real `mjsvc serve`
over gRPC. Options, the Sichuan context facts, points, payments and max_value cross the wire; the
answers equal the engine's; a cached answer never leaks across seats, options or kong facts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import grpc
import installed
import pytest
from google.protobuf import json_format
from server_harness import ServerProcess

from engine import api
from engine.hand import ClaimedFrom, Suit, WinContext, Wind, make_hand
from engine.rules.sichuan.options import SichuanOptions, Variant
from engine.tiles import parse_tiles
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc


def T(text: str) -> list[str]:
    return [pb.Tile.Name(t + 1) for t in parse_tiles(text)]


def run_batch(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    proc = installed.run([installed.script("mjsvc"), "batch"], input="\n".join(json.dumps(x) for x in lines) + "\n",
                         capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(o) for o in proc.stdout.splitlines()]


PUNGS = {"concealed": T("1m1m2m2m"), "winning_tile": "TILE_M1",
         "melds": [{"kind": "MELD_KIND_PUNG", "tiles": T("555m"), "claimed_from": "CLAIMED_FROM_LEFT"},
                   {"kind": "MELD_KIND_PUNG", "tiles": T("777p"), "claimed_from": "CLAIMED_FROM_LEFT"},
                   {"kind": "MELD_KIND_PUNG", "tiles": T("999p"), "claimed_from": "CLAIMED_FROM_LEFT"}]}
CTX = {"seat_wind": "WIND_SOUTH", "discarded_by": "CLAIMED_FROM_LEFT", "void_suit": "SUIT_BAMBOO"}


def test_batch_evaluate_analyze_list_fans() -> None:
    out = run_batch([
        {"method": "Evaluate", "request": {"rule_set": "sichuan", "hand": PUNGS, "context": CTX,
                                           "options": {"sichuan": {"fan_cap": 3}}}},
        {"method": "Analyze", "request": {"rule_set": "sichuan", "hand": {"concealed": T("1122334455667m")},
                                          "options": {"sichuan": {"fan_cap": 3}}}},
        {"method": "ListFans", "request": {"rule_set": "sichuan"}},
        {"method": "Evaluate", "request": {"rule_set": "sichuan", "hand": PUNGS,
                                           "context": {**CTX, "after_kong_discard": True,
                                                       "prior_kong": "SICHUAN_KONG_CONCEALED"},
                                           "options": {"sichuan": {"variant": "SICHUAN_VARIANT_CHENGDU"}}}},
    ])
    best = out[0]["response"]["best"]
    assert out[0]["response"]["is_win"] and best["total"] == 1 and best["points"] == 2
    assert [f["name_zh"] for f in best["fans"]] == ["对对胡"]
    assert [(p["seat_wind"], p.get("amount", 0)) for p in best["payments"]] == [
        ("WIND_EAST", -2), ("WIND_SOUTH", 2), ("WIND_WEST", 0), ("WIND_NORTH", 0)]
    assert out[1]["response"]["max_value"] == 8
    assert len(out[2]["response"]["fans"]) == 32
    chengdu = out[3]["response"]["best"]
    # 对对胡 1 + 杠上炮 1 = 2 fan, 4; East's concealed kong took 2 from South, West, North: 呼叫转移 to South
    assert chengdu["points"] == 4
    assert {p["seat_wind"]: p.get("amount", 0) for p in chengdu["payments"]} == {
        "WIND_EAST": -4 - 6, "WIND_SOUTH": 4 + 6, "WIND_WEST": 0, "WIND_NORTH": 0}


@pytest.mark.parametrize(("request_", "reason", "field"), [
    ({"hand": {"concealed": T("123m456m789m234pE"), "winning_tile": "TILE_EAST"}}, "BAD_TILE", "hand.concealed"),
    ({"hand": {"concealed": T("456m789m234p5p"), "winning_tile": "TILE_P5",
               "melds": [{"kind": "MELD_KIND_CHOW", "tiles": T("123m"), "claimed_from": "CLAIMED_FROM_LEFT"}]}},
     "BAD_MELD", "hand.melds[0].kind"),
    ({"hand": {"concealed": T("1111m23m456m789p5p"), "winning_tile": "TILE_M1"}}, "TOO_MANY_COPIES", "hand.concealed"),
    ({"hand": PUNGS, "context": CTX, "options": {"sichuan": {"fan_cap": 9}}}, "BAD_OPTION",
     "options.sichuan.fan_cap"),
    ({"hand": PUNGS, "context": CTX, "options": {"sichuan": {"void_suit": "SUIT_DOTS"}}}, "BAD_OPTION",
     "options.sichuan.void_suit"),
    ({"hand": PUNGS, "context": {"seat_wind": "WIND_SOUTH"}}, "BAD_CONTEXT", "context.discarded_by"),
    ({"hand": PUNGS, "context": {**CTX, "prior_kong": "SICHUAN_KONG_ADDED"}}, "CONTRADICTORY_CONTEXT",
     "context.prior_kong"),
])
def test_batch_errors(request_: dict[str, Any], reason: str, field: str) -> None:
    (out,) = run_batch([{"method": "Evaluate", "request": {"rule_set": "sichuan", **request_}}])
    assert out["error"]["reason"] == reason, out
    assert out["error"]["field"] == field, out


@pytest.fixture(scope="module")
def stub() -> Iterator[mahjong_pb2_grpc.MahjongEngineStub]:
    with ServerProcess(workers=1) as srv, grpc.insecure_channel(srv.address) as ch:
        yield mahjong_pb2_grpc.MahjongEngineStub(ch)


def _request(seat: Wind, discarder: ClaimedFrom, options: dict[str, Any]) -> pb.EvaluateRequest:
    req = json_format.ParseDict({"rule_set": "sichuan", "hand": PUNGS, "options": {"sichuan": options},
                                 "context": {**CTX, "seat_wind": pb.Wind.Name(seat + 1),
                                             "discarded_by": pb.ClaimedFrom.Name(discarder)}}, pb.EvaluateRequest())
    return req


@pytest.mark.integration
def test_server_answers_equal_the_engine_for_every_seat_and_option(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    """The same hand from every seat, discarder and option set, twice (the second time from the caches):
    each answer is the engine's own, converted."""
    hand = convert.hand_from_proto(json_format.ParseDict(PUNGS, pb.Hand()), winning=True)
    for _ in range(2):
        for seat in Wind:
            for rel in (ClaimedFrom.LEFT, ClaimedFrom.ACROSS, ClaimedFrom.RIGHT):
                for opts in ({}, {"fan_cap": 3}, {"variant": "SICHUAN_VARIANT_CHENGDU"}):
                    got = stub.Evaluate(_request(seat, rel, opts))
                    engine_opts = SichuanOptions(**{"fan_cap": opts.get("fan_cap"),
                                                    "variant": Variant.CHENGDU if "variant" in opts else Variant.MIL})
                    ctx = WinContext(seat_wind=seat, discarded_by=rel, void_suit=Suit.BAMBOO)
                    want = convert.evaluation_to_proto(api.evaluate(hand, ctx, "sichuan", engine_opts))
                    assert got == want, (seat, rel, opts)


@pytest.mark.integration
def test_server_analyze_max_value(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    req = pb.AnalyzeRequest(rule_set="sichuan", hand=pb.Hand(concealed=[t + 1 for t in parse_tiles("1122334455667m")]))
    assert stub.Analyze(req).max_value == 16
    req.options.sichuan.fan_cap = 3
    assert stub.Analyze(req).max_value == 8
    h = make_hand(parse_tiles("1122334455667m"), (), sizes=(13,))
    assert stub.Analyze(req) == convert.analysis_to_proto(api.analyze(h, (), "sichuan", {"fan_cap": 3}))
