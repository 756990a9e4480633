"""The playground page in headless Chromium against a real `mjsvc serve` behind `mjsvc web`.

The page is built the way a developer builds it (`npm ci`, `tsc`, `npm run build`: protoc-gen-es from the
.proto, esbuild), served by the gateway, and driven by `clients/web/e2e.mjs` (playwright-core with Debian's
chromium). What the page shows must be what gRPC answers for the same hands. The screenshot in the README
comes from this run (MJSVC_UPDATE_SCREENSHOT=1 writes it to docs/playground.png).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from server_harness import ROOT, ServerProcess
from web_harness import WebProcess

from engine.tiles import parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc

pytestmark = pytest.mark.integration

WEB = ROOT / "clients" / "web"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def T(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


def run(cmd: list[str], **kw: object) -> None:
    proc = subprocess.run(cmd, cwd=WEB, capture_output=True, text=True, timeout=600, **kw)  # type: ignore[call-overload]
    assert proc.returncode == 0, f"{' '.join(cmd)}:\n{proc.stdout}\n{proc.stderr}"


@pytest.fixture(scope="module")
def page_dir() -> Path:
    npm = shutil.which("npm")
    if not shutil.which("node") or not npm:
        pytest.skip("node and npm are needed to build the playground (Debian: nodejs npm)")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian package chromium; CI installs it in .ci/run)")
    lock, installed = WEB / "package-lock.json", WEB / "node_modules" / ".package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        run([npm, "ci", "--no-audit", "--no-fund"])  # exactly the committed lock file
    # build first: it generates src/gen from the .proto, which the type check needs (a fresh clone has none)
    run([npm, "run", "build"], env={**os.environ, "MJSVC_PYTHON": sys.executable})
    run([npm, "run", "typecheck"])
    return WEB / "dist"


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with ServerProcess(workers=1) as srv:
        yield srv


@pytest.fixture(scope="module")
def shown(page_dir: Path, server: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> dict:
    shot = tmp_path_factory.mktemp("shot") / "playground.png"
    with WebProcess(server.address, "--playground", str(page_dir)) as web:
        proc = subprocess.run(["node", str(WEB / "e2e.mjs"), web.url + "/", str(shot)], capture_output=True,
                              text=True, timeout=300, cwd=WEB)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = json.loads(proc.stdout)
    out["screenshot"] = shot
    if os.environ.get("MJSVC_UPDATE_SCREENSHOT") == "1":
        shutil.copyfile(shot, ROOT / "docs" / "playground.png")
    return out


def grpc_evaluate(server: ServerProcess, req: pb.EvaluateRequest) -> pb.EvaluateResponse:
    with grpc.insecure_channel(server.address) as ch:
        return mahjong_pb2_grpc.MahjongEngineStub(ch).Evaluate(req, timeout=10)


def test_known_hand_total_and_fans(shown: dict, server: ServerProcess) -> None:
    assert shown["console"] == []  # no script error, no failed resource
    assert shown["verdict"] == "Win: 17 points" and shown["total"] == "17"
    r = grpc_evaluate(server, pb.EvaluateRequest(
        rule_set="mcr", hand=pb.Hand(concealed=T("123m456p789s1sEEE"), winning_tile=T("1s")[0]),
        context=pb.WinContext(self_drawn=True, seat_wind=pb.WIND_EAST, prevalent_wind=pb.WIND_SOUTH, flowers=2)))
    assert r.best.total == 17
    assert [(f["id"], f["name"], f["zh"], f["sum"]) for f in shown["fans"]] == [
        (f.id, f.name, f.name_zh, f.points * f.count) for f in r.best.fans]
    assert [f["id"] for f in shown["fans"]] == [39, 56, 61, 79, 81]
    assert shown["bestSets"] == ["1m2m3m", "4p5p6p", "7s8s9s", "EEE", "1s1s"]
    assert shown["discards"] == 8  # discard advice for the 14 tiles, the best eight


def test_every_decomposition_shown(shown: dict, server: ServerProcess) -> None:
    r = grpc_evaluate(server, pb.EvaluateRequest(hand=pb.Hand(concealed=T("111222333m456pE"),
                                                              winning_tile=T("E")[0]),
                                                 context=pb.WinContext(self_drawn=True, flowers=2)))
    assert len(r.alternatives) >= 1
    assert shown["multiTotals"] == [r.best.total] + [a.total for a in r.alternatives]


def test_clicked_hand_waits(shown: dict) -> None:
    assert shown["clickedHand"] == "123m456p789sEESS"
    assert shown["waits"] == ["E ×2 left", "S ×2 left"]
    assert "13-tile hand" in shown["scoreNote"]


def test_errors_beside_their_fields(shown: dict) -> None:
    assert shown["handError"].startswith("TILE_COUNT: hand.concealed:")
    assert shown["flowersError"].startswith("BAD_CONTEXT: context.flowers:")
    assert shown["handErrorAfter"] == ""  # the fixed hand's error went away
    assert "expected chow" in shown["meldsError"]


def test_rule_sets_offered(shown: dict) -> None:
    offered = {o["value"]: not o["disabled"] for o in shown["ruleSets"]}
    assert offered["mcr"] and offered["mcr2p"]
    assert set(offered) == {"mcr", "mcr2p", "riichi", "sichuan", "guangdong", "hk"}


def test_screenshot_taken(shown: dict) -> None:
    assert shown["screenshot"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_each_rule_set_speaks_its_own_terms(shown: dict, server: ServerProcess) -> None:
    """Riichi shows han, fu and points; Sichuan fan and value; context a rule set does not read is greyed out and
    not sent (no BAD_CONTEXT for the flowers left typed in); tiles it does not play are greyed out."""
    r = grpc_evaluate(server, pb.EvaluateRequest(
        rule_set="riichi", hand=pb.Hand(concealed=T("123m456p789s1sEEE"), winning_tile=T("1s")[0]),
        context=pb.WinContext(self_drawn=True, seat_wind=pb.WIND_EAST, prevalent_wind=pb.WIND_SOUTH)))
    assert shown["riichiVerdict"] == f"Win: {r.best.han} han {r.best.fu} fu, {r.best.points} points"
    assert shown["riichiFlowersDisabled"] is True and shown["riichiErrors"] == ""
    s = grpc_evaluate(server, pb.EvaluateRequest(
        rule_set="sichuan", hand=pb.Hand(concealed=T("123m456m789m11p55p"), winning_tile=T("5p")[0]),
        context=pb.WinContext(self_drawn=True, seat_wind=pb.WIND_EAST)))
    assert shown["sichuanVerdict"] == f"Win: {s.best.total} fan, value {s.best.points}"
    assert shown["sichuanEastDisabled"] is True and shown["sichuanOneDotDisabled"] is False


def test_build_without_a_python_says_what_to_do(tmp_path: Path) -> None:
    """On a clone without .venv the build says to run `make setup` (or set MJSVC_PYTHON), not a Node stack trace."""
    if not shutil.which("node"):
        pytest.skip("node is needed (Debian: nodejs)")
    clone = tmp_path / "web"
    shutil.copytree(WEB, clone, ignore=shutil.ignore_patterns("node_modules", "dist", "gen"))
    env = {k: v for k, v in os.environ.items() if k != "MJSVC_PYTHON"}
    proc = subprocess.run(["node", "build.mjs"], cwd=clone, capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "make setup" in proc.stderr and "MJSVC_PYTHON" in proc.stderr and "    at " not in proc.stderr
