"""The process-starting tests of tests/unit/test_hk_analyze.py (the console scripts, fresh processes)."""

from __future__ import annotations

import json

from installed import run, script

from engine.tiles import parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb


def test_batch_console_script_analyzes_with_hk_shapes_only() -> None:
    names = [pb.Tile.Name(t + 1) for t in parse_tiles("1144m2255p3366sE")]
    lines = [{"method": "Analyze", "request": {"rule_set": rs, "hand": {"concealed": names}}} for rs in ("hk", "mcr")]
    proc = run([script("mjsvc"), "batch"], input="".join(json.dumps(x) + "\n" for x in lines), capture_output=True,
               timeout=120)
    assert proc.returncode == 0, proc.stderr
    hk, mcr = (json.loads(x)["response"] for x in proc.stdout.splitlines())
    assert hk["shanten"] == 3 and hk["waits"] == []
    assert mcr["shanten"] == 0 and [w["tile"] for w in mcr["waits"]] == ["TILE_EAST"]
    shapes_hk = {s["shape"] for s in hk["shanten_by_shape"]}
    assert shapes_hk == {"SHAPE_KIND_STANDARD", "SHAPE_KIND_THIRTEEN_ORPHANS"}, hk


