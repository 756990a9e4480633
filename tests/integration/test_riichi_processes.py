"""The process-starting tests of tests/unit/test_riichi.py (the console scripts, fresh processes)."""

from __future__ import annotations

import json
import subprocess
import sys

from engine.results import Evaluation
from engine.tiles import parse_tile, parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

T = parse_tile

PINFU = "23m456p789s55678s"  # waits on 1m / 4m, two-sided


def yaku(e: Evaluation) -> dict[int, int]:
    assert e.best is not None
    return {f.fan.id: f.fan.points * f.count for f in e.best.fans}


def _request() -> pb.EvaluateRequest:
    return pb.EvaluateRequest(
        rule_set="riichi",
        hand=pb.Hand(concealed=[t + 1 for t in parse_tiles(PINFU)], winning_tile=T("1m") + 1,
                     red_fives=[T("5s") + 1]),
        context=pb.WinContext(self_drawn=True, seat_wind=pb.WIND_SOUTH, riichi=True, honba=1, riichi_sticks=1,
                              dora_indicators=[T("4s") + 1]),
        options=pb.RuleOptions(riichi=pb.RiichiOptions(red_fives=True)))


def test_batch_and_cli_speak_riichi(tmp_path: object) -> None:
    from google.protobuf import json_format

    line = json.dumps({"method": "Evaluate", "request": json_format.MessageToDict(_request())})
    out = subprocess.run([sys.executable, "-m", "mjsvc", "batch"], input=line + "\n", capture_output=True, text=True,
                         check=True).stdout
    answer = json.loads(out)["response"]
    assert answer["best"]["points"] == 12000 and answer["best"]["han"] == 6
    cli = subprocess.run([sys.executable, "-m", "engine", "score", PINFU, "--win", "1m", "--self-drawn",
                          "--seat", "S", "--riichi", "--red", "5s", "--dora", "4s", "--honba", "1", "--sticks", "1",
                          "--rule-set", "riichi"], capture_output=True, text=True, check=True).stdout
    assert "6 han 20 fu: 12000 points" in cli and "South +13300" in cli
    bad = subprocess.run([sys.executable, "-m", "engine", "score", PINFU, "--win", "1m",
                          "--rule-set", "riichi", "--self-drawn", "--option", "double_wind_pair_fu=3"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "BAD_OPTION" in bad.stderr


