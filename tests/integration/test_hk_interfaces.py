"""The hk rule set the way users reach it: `python -m engine`, the `mjsvc batch` console script (from another
working directory, a clean environment), the proto conversion of its options and flowers, and ListFans."""

from __future__ import annotations

import json
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from installed import python, run, script
from server_harness import ServerProcess

from engine import api
from engine.errors import BadContextError, BadOptionError
from engine.hand import Flower
from engine.rules.hk.fans import Fan
from engine.tiles import parse_tiles
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc


def T(text: str) -> list[str]:
    return [pb.Tile.Name(t + 1) for t in parse_tiles(text)]


# 混一色 3 + 箭刻 1 + 门前清 1 + 正花 1 (West's autumn) = 6 faan; West wins on a discard from across (East)
REQUEST: dict[str, Any] = {
    "rule_set": "hk",
    "hand": {"concealed": T("123m456m11mSSSCC"), "winning_tile": "TILE_RED"},
    "context": {"seat_wind": "WIND_WEST", "discarded_by": "CLAIMED_FROM_ACROSS",
                "flower_tiles": ["FLOWER_AUTUMN", "FLOWER_PLUM"], "flowers": 2},
    "options": {"hk": {"limit": 10, "points_table": "HK_POINTS_TABLE_DOUBLING",
                       "payment": "HK_PAYMENT_DISCARDER_PAYS_ALL"}},
}


def test_cli_scores_hk_with_options_and_flowers() -> None:
    out = run([python(), "-m", "engine", "score", "123m456m11mSSSCC", "--win", "C", "--rule-set", "hk", "--seat", "W",
               "--discarded-by", "across", "--flower-tiles", "autumn,plum", "--option", "points_table=doubling",
               "--option", "payment=discarder_pays_all"], capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "Total: 6 faan" in out.stdout
    assert "value 64" in out.stdout
    assert "payments: East -256, South +0, West +256, North +0" in out.stdout
    assert "Mixed One Suit (混一色)  3" in out.stdout and "Seat Flower (正花)  1" in out.stdout


@pytest.mark.parametrize(("args", "code"), [
    (("--option", "limit=11"), "BAD_OPTION"),
    (("--option", "points_table=halfway"), "BAD_OPTION"),
    (("--flower-tiles", "lotus"), "BAD_CONTEXT"),
    (("--flowers", "1"), "BAD_CONTEXT"),
])
def test_cli_bad_hk_input(args: tuple[str, ...], code: str) -> None:
    out = run([python(), "-m", "engine", "score", "123m456m11mSSSCC", "--win", "C", "--rule-set", "hk", *args],
              capture_output=True, timeout=60)
    assert out.returncode == 2 and out.stderr.startswith(f"error {code}: "), out.stderr


def test_batch_console_script_speaks_hk() -> None:
    lines = [
        {"method": "Evaluate", "request": REQUEST},
        {"method": "ListFans", "request": {"rule_set": "hk"}},
        {"method": "Evaluate", "request": {**REQUEST, "options": {"hk": {"min_faan": 2}}}},
        {"method": "Evaluate", "request": {**REQUEST, "options": {"riichi": {"red_fives": True}}}},
        {"method": "Evaluate", "request": {**REQUEST, "context": {"flower_tiles": ["FLOWER_UNSPECIFIED"]}}},
    ]
    proc = run([script("mjsvc"), "batch"], input="".join(json.dumps(x) + "\n" for x in lines), capture_output=True,
               timeout=120)
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(x) for x in proc.stdout.splitlines()]
    best = answers[0]["response"]["best"]
    assert best["total"] == 6 and best["points"] == 64
    assert {p["seat_wind"]: p["amount"] for p in best["payments"]} == {
        "WIND_EAST": -256, "WIND_SOUTH": 0, "WIND_WEST": 256, "WIND_NORTH": 0}
    assert {f["name_zh"] for f in best["fans"]} == {"混一色", "箭刻", "门前清", "正花"}
    fans = answers[1]["response"]
    assert fans["rule_set"] == "hk" and fans["min_points"] == 3
    assert {f["id"] for f in fans["fans"]} == {int(f) for f in Fan}
    assert answers[2]["error"]["reason"] == "BAD_OPTION" and answers[2]["error"]["field"] == "options.hk.min_faan"
    assert answers[3]["error"]["reason"] == "BAD_OPTION" and answers[3]["error"]["field"] == "options.riichi"
    assert answers[4]["error"]["reason"] == "BAD_CONTEXT"
    assert answers[4]["error"]["field"] == "context.flower_tiles[0]"


def test_convert_reads_hk_options_and_flowers() -> None:
    msg = json_format.ParseDict(REQUEST, pb.EvaluateRequest())
    ctx = convert.context_from_proto(msg.context)
    assert ctx.flower_tiles == (Flower.AUTUMN, Flower.PLUM)
    options = convert.options_from_proto("hk", msg.options)
    assert options == {"limit": 10, "points_table": 2, "payment": 2}
    hand = convert.hand_from_proto(msg.hand, winning=True)
    best = convert.evaluation_to_proto(api.evaluate(hand, ctx, "hk", options)).best
    assert best.total == 6 and best.points == 64
    assert [(p.seat_wind, p.amount) for p in best.payments] == [
        (pb.WIND_EAST, -256), (pb.WIND_SOUTH, 0), (pb.WIND_WEST, 256), (pb.WIND_NORTH, 0)]
    # unset options take their defaults; bad ones name their field
    assert convert.options_from_proto("hk", pb.RuleOptions(hk=pb.HkOptions())) is None
    with pytest.raises(BadOptionError) as err:
        api.evaluate(hand, ctx, "hk", convert.options_from_proto("hk", pb.RuleOptions(hk=pb.HkOptions(limit=9))))
    assert err.value.field == "options.hk.limit"
    with pytest.raises(BadContextError) as cerr:
        convert.context_from_proto(pb.WinContext(flower_tiles=[9]))
    assert cerr.value.field == "context.flower_tiles[0]"


@pytest.mark.integration
def test_grpc_server_evaluates_hk_and_lists_its_fans() -> None:
    """A freshly started `mjsvc serve`: the hk request with options and flowers, twice (the second from the
    worker's cache, keyed on the options and flower_tiles: a different limit is a different answer)."""
    request = json_format.ParseDict(REQUEST, pb.EvaluateRequest())
    with ServerProcess(workers=1) as srv, grpc.insecure_channel(srv.address) as channel:
        stub = mahjong_pb2_grpc.MahjongEngineStub(channel)
        for _ in range(2):
            best = stub.Evaluate(request, timeout=10).best
            assert (best.total, best.points) == (6, 64)
            assert [p.amount for p in best.payments] == [-256, 0, 256, 0]
        # the big hand of the same request under another limit and no flowers held: a fresh answer, not the cache's
        big = json_format.ParseDict({**REQUEST, "hand": {"concealed": T("EEESSSWWW2p"), "winning_tile": "TILE_P2",
                                                         "melds": [{"kind": "MELD_KIND_PUNG", "tiles": T("NNN"),
                                                                    "claimed_from": "CLAIMED_FROM_LEFT"}]}},
                                    pb.EvaluateRequest())
        assert stub.Evaluate(big, timeout=10).best.total == 10
        big.options.hk.limit = 8
        assert stub.Evaluate(big, timeout=10).best.total == 8
        listed = stub.ListFans(pb.ListFansRequest(rule_set="hk"), timeout=10)
        assert len(listed.fans) == len(Fan) and listed.min_points == 3
        with pytest.raises(grpc.RpcError) as err:
            stub.Evaluate(json_format.ParseDict({**REQUEST, "options": {"hk": {"min_faan": 1}}},
                                                pb.EvaluateRequest()), timeout=10)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_flower_tiles_are_bounded_before_any_work() -> None:
    """Nine flowers are LIMIT_EXCEEDED at the service's limits check, naming the field."""
    from mjsvc import limits

    msg = json_format.ParseDict(REQUEST, pb.EvaluateRequest())
    limits.check(msg)  # eight or fewer pass
    msg.context.flower_tiles.extend([pb.FLOWER_PLUM] * 7)
    with pytest.raises(limits.LimitExceededError) as err:
        limits.check(msg)
    assert err.value.field == "context.flower_tiles"
