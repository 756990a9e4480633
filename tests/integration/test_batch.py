"""`mjsvc batch` as a subprocess: one JSON line out per line in, every error code with its reason."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import installed
import pytest

from engine.tiles import parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb


def T(text: str) -> list[str]:
    """Proto3 JSON names of a tile string."""
    return [pb.Tile.Name(t + 1) for t in parse_tiles(text)]


def run_batch(lines: list[str], *args: str) -> list[dict[str, Any]]:
    proc = installed.run([installed.script("mjsvc"), "batch", *args], input="\n".join(lines) + "\n",
                         capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert len(out) == len(lines), (out, proc.stderr)
    return [json.loads(o) for o in out]


def line(method: str, request: dict[str, Any], **extra: Any) -> str:
    return json.dumps({"method": method, "request": request, **extra})


WIN = {"hand": {"concealed": T("123m456p789s1177z"), "winning_tile": "TILE_RED"}}
# rule set, hand, context -> reason, field
ERROR_CASES: list[tuple[str, str, dict[str, Any], str, str]] = [
    ("BAD_TILE", "Evaluate", {"hand": {"concealed": [*T("123m456p789s112z"), "TILE_UNSPECIFIED"],
                                       "winning_tile": "TILE_RED"}}, "BAD_TILE", "hand.concealed[12]"),
    ("BAD_TILE_RULE_SET", "Evaluate", {"rule_set": "mcr2p", **WIN}, "BAD_TILE", "hand."),
    ("BAD_TILE_VISIBLE", "Analyze", {"hand": {"concealed": T("123m456p789s1123z")}, "visible": [0]},
     "BAD_TILE", "visible[0]"),
    ("TILE_COUNT", "Evaluate", {"hand": {"concealed": T("123m"), "winning_tile": "TILE_RED"}}, "TILE_COUNT",
     "hand.concealed"),
    ("TILE_COUNT_ANALYZE", "Analyze", {"hand": {"concealed": T("123m456p")}}, "TILE_COUNT", "hand.concealed"),
    ("TOO_MANY_COPIES", "Evaluate", {"hand": {"concealed": T("11111m456p789s12z"), "winning_tile": "TILE_RED"}},
     "TOO_MANY_COPIES", "hand.concealed"),
    ("BAD_MELD", "Evaluate", {"hand": {"concealed": T("123m456p789s1z"), "winning_tile": "TILE_EAST",
                                       "melds": [{"kind": "MELD_KIND_CHOW", "tiles": T("567z")}]}},
     "BAD_MELD", "hand.melds[0].tiles"),
    ("CONTRADICTORY_CONTEXT", "Evaluate", {**WIN, "context": {"self_drawn": True, "robbing_kong": True}},
     "CONTRADICTORY_CONTEXT", "context.robbing_kong"),
    ("BAD_CONTEXT", "Evaluate", {**WIN, "context": {"flowers": 9}}, "BAD_CONTEXT", "context.flowers"),
    ("BAD_CONTEXT_WIND", "Evaluate", {**WIN, "context": {"seat_wind": 7}}, "BAD_CONTEXT", "context.seat_wind"),
    ("MISSING_WINNING_TILE", "Evaluate", {"hand": {"concealed": T("123m456p789s1123z")}}, "MISSING_WINNING_TILE",
     "hand.winning_tile"),
    ("UNKNOWN_RULE_SET", "Evaluate", {"rule_set": "no-such-rules", **WIN}, "UNKNOWN_RULE_SET", "rule_set"),
    ("UNKNOWN_RULE_SET_FANS", "ListFans", {"rule_set": "no-such-rules"}, "UNKNOWN_RULE_SET", "rule_set"),
    ("BAD_OPTION", "Evaluate", {**WIN, "options": {"riichi": {"open_tanyao": False}}}, "BAD_OPTION",
     "options.riichi"),
]


@pytest.fixture(scope="module")
def error_answers() -> dict[str, dict[str, Any]]:
    lines = [line(method, req, id=name) for name, method, req, _, _ in ERROR_CASES]
    return {a["id"]: a for a in run_batch(lines)}


@pytest.mark.parametrize(("name", "reason", "field"), [(c[0], c[3], c[4]) for c in ERROR_CASES],
                         ids=[c[0] for c in ERROR_CASES])
def test_every_engine_error_code(error_answers: dict[str, dict[str, Any]], name: str, reason: str,
                                 field: str) -> None:
    answer = error_answers[name]
    assert "response" not in answer
    err = answer["error"]
    assert err["code"] == "INVALID_ARGUMENT" and err["reason"] == reason
    assert err["field"].startswith(field) and err["message"]


def test_every_engine_error_code_is_covered() -> None:
    from engine.errors import ERROR_CODES

    assert set(ERROR_CODES) <= {c[3] for c in ERROR_CASES}


def test_answers_and_bad_lines_in_one_batch() -> None:
    lines = [
        line("Evaluate", WIN, id=1),
        "{not json",
        "",
        line("Shuffle", {}, id="m"),
        line("Analyze", {"hand": {"concealed": T("123m456p789s1123z")}, "colour": "red"}, id="x"),
        json.dumps([1, 2]),
        line("Analyze", {"hand": {"concealed": T("123m456p789s1122z")}, "visible": T("1z")}, id="a"),
        line("ListFans", {}, id="f"),
        line("EvaluateBatch", {"requests": [WIN, {"hand": {"concealed": T("123m"), "winning_tile": "TILE_M4"}}]},
             id="b"),
        line("/mahjong.v1.MahjongEngine/Evaluate", {**WIN, "context": {"self_drawn": True, "flowers": 2}}),
        line("Evaluate", {"hand": {"concealed": T("123m456p789s1123z"), "winning_tile": "TILE_M1"}}, id="nowin"),
    ]
    out = run_batch(lines)
    win, bad_json, blank, unknown, bad_req, not_obj, analysis, fans, batch, by_path, nowin = out

    assert win["id"] == 1 and win["response"]["is_win"] is True
    best = win["response"]["best"]
    assert best["total"] == sum(f["points"] * f["count"] for f in best["fans"])
    assert best["decomposition"]["shape"] == "SHAPE_KIND_STANDARD"

    assert bad_json["error"]["reason"] == "MALFORMED_JSON" and blank["error"]["reason"] == "MALFORMED_JSON"
    assert unknown == {"id": "m", "error": {"code": "UNIMPLEMENTED", "reason": "UNKNOWN_METHOD",
                                            "message": unknown["error"]["message"], "field": "method"}}
    assert bad_req["error"]["reason"] == "BAD_REQUEST" and bad_req["error"]["code"] == "INVALID_ARGUMENT"
    assert not_obj["error"]["reason"] == "BAD_REQUEST"

    a = analysis["response"]
    assert a["shanten"] == 0 and {w["tile"] for w in a["waits"]} == {"TILE_EAST", "TILE_SOUTH"}
    east = next(w for w in a["waits"] if w["tile"] == "TILE_EAST")
    assert east["remaining"] == 1  # 4 - 2 held - 1 visible

    f = fans["response"]
    assert f["rule_set"] == "mcr" and len(f["fans"]) >= 81 and f["min_points"] == 8

    items = batch["response"]["results"]
    assert items[0]["response"]["is_win"] is True
    assert items[1]["error"]["reason"] == "TILE_COUNT" and items[1]["error"]["field"] == "requests[1].hand.concealed"

    assert by_path["response"]["best"]["total"] >= best["total"]  # self-drawn and flowers only add
    assert nowin["response"]["is_win"] is False and nowin["response"]["alternatives"] == []


def test_compact_leaves_defaults_out() -> None:
    full, = run_batch([line("Evaluate", {"hand": {"concealed": T("123m456p789s1123z"), "winning_tile": "TILE_M1"}})])
    compact, = run_batch([line("Evaluate", {"hand": {"concealed": T("123m456p789s1123z"),
                                                     "winning_tile": "TILE_M1"}})], "--compact")
    assert full["response"]["is_win"] is False and compact == {"response": {}}


def test_cli_imports_only_the_chosen_subcommand() -> None:
    """`mjsvc serve`'s supervisor must not load grpc or the engine (it only spawns workers)."""
    code = ("import sys; from mjsvc.__main__ import build_parser; build_parser('serve'); "
            "print(sorted(m for m in ('grpc', 'engine.shapes', 'mjsvc.loadgen') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_line_over_the_limit_is_refused_and_the_batch_goes_on() -> None:
    fans = line("ListFans", {"rule_set": "hk"})
    at_limit = "x" * 100  # 100 bytes: read, and not JSON
    out = run_batch([fans, at_limit, "y" * 101, "z" * 5000, fans], "--max-line-bytes", "100", "--compact")
    assert out[0]["response"]["rule_set"] == out[4]["response"]["rule_set"] == "hk"
    assert out[1]["error"]["reason"] == "MALFORMED_JSON"
    for answer, size in ((out[2], 101), (out[3], 5000)):
        assert answer == {"error": {"code": "INVALID_ARGUMENT", "reason": "LIMIT_EXCEEDED", "field": "line",
                                    "message": f"line: {size} bytes, the limit is 100 (--max-line-bytes)"}}


def test_a_line_over_the_limit_is_never_held_in_memory() -> None:
    """200 MB on one line, then a request: answered in order, the batch's peak memory far below the line's
    size (it is read past in chunks of 1 MiB). The peak is measured by a fresh parent whose only child
    is the batch."""
    measure = ("import resource, subprocess, sys; "
               "subprocess.run(sys.argv[1:], check=True); "
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)")
    request = line("ListFans", {"rule_set": "riichi"}).replace("'", "")
    shell = (f"{{ head -c 200000000 /dev/zero | tr '\\0' y; printf '\\n%s\\n' '{request}'; }} | "
             f"{installed.python()} -c '{measure}' {installed.script('mjsvc')} batch --max-line-bytes 1000000")
    proc = installed.run(["bash", "-c", shell], capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(o) for o in proc.stdout.splitlines()]
    assert [o.get("error", {}).get("reason") for o in out] == ["LIMIT_EXCEEDED", None]
    assert out[0]["error"]["message"].startswith("line: 200000000 bytes")
    assert out[1]["response"]["rule_set"] == "riichi"
    peak_kib = int(proc.stderr.strip().splitlines()[-1])
    assert peak_kib < 150_000, peak_kib  # the line alone is 195,313 KiB


def test_a_byte_that_is_not_utf8_is_a_bad_line_not_a_failed_batch() -> None:
    request = line("ListFans", {"rule_set": "mcr"})
    shell = f"printf '\\xff\\xfe{{}}\\n%s\\n' '{request}' | {installed.script('mjsvc')} batch"
    proc = installed.run(["bash", "-c", shell], capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(o) for o in proc.stdout.splitlines()]
    assert out[0]["error"]["reason"] == "MALFORMED_JSON" and out[1]["response"]["rule_set"] == "mcr"
