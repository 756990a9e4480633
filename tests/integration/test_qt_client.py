"""clients/qt built from a clean copy with CMake and run against a real `mjsvc serve`.

Needs the Debian packages libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
qt6-base-dev cmake g++ pkg-config (.ci/run installs them); without them the tests are skipped and say so.
One build per test session (about 30-60 s of compiling on 2 cores, most of it the generated code).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from server_harness import ROOT, ServerProcess

from engine.tiles import parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc

pytestmark = pytest.mark.integration

PACKAGES = ("libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler qt6-base-dev cmake g++ "
            "pkg-config")


def T(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


def _missing() -> str:
    tools = [t for t in ("cmake", "g++", "pkg-config", "protoc", "grpc_cpp_plugin") if not shutil.which(t)]
    if tools:
        return f"missing {', '.join(tools)}"
    probe = subprocess.run(["pkg-config", "--exists", "grpc++", "protobuf", "Qt6Core"], capture_output=True)
    return "" if probe.returncode == 0 else "pkg-config finds no grpc++, protobuf or Qt6Core"


@pytest.fixture(scope="session")
def mjqt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    why = _missing()
    if why:
        pytest.skip(f"Qt client not built: {why} (Debian: apt-get install {PACKAGES})")
    # A clean copy of what the sample needs: its sources and the .proto, nothing else of the checkout.
    src = tmp_path_factory.mktemp("qt-src")
    shutil.copytree(ROOT / "clients" / "qt", src / "clients" / "qt")
    shutil.copytree(ROOT / "proto", src / "proto")
    build = tmp_path_factory.mktemp("qt-build")
    for cmd in (["cmake", "-S", str(src / "clients" / "qt"), "-B", str(build)],
                ["cmake", "--build", str(build), "-j2"]):
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, f"{' '.join(cmd)}:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return build / "mjqt"


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with ServerProcess(workers=1) as srv:
        yield srv


@pytest.fixture(scope="module")
def stub(server: ServerProcess) -> Iterator[mahjong_pb2_grpc.MahjongEngineStub]:
    with grpc.insecure_channel(server.address) as ch:
        yield mahjong_pb2_grpc.MahjongEngineStub(ch)


def run_mjqt(mjqt: Path, server: ServerProcess, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    return subprocess.run([str(mjqt), "--server", server.address, *args], capture_output=True, text=True,
                          timeout=60, env=env, cwd=mjqt.parent)


def test_evaluate_known_hand(mjqt: Path, server: ServerProcess, stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    proc = run_mjqt(mjqt, server, "evaluate", "123m456p789s1sEEE", "--win", "1s", "--self-drawn", "--seat", "E",
                    "--prevalent", "S", "--flowers", "2")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "win: yes",
        "decomposition: standard 123m 456p 789s EEE 11s",
        "fan 39 Mixed Straight (花龙) 8 x1",
        "fan 56 Fully Concealed Hand (不求人) 4 x1",
        "fan 61 Seat Wind (门风刻) 2 x1",
        "fan 79 Single Wait (单钓将) 1 x1",
        "fan 81 Flower Tiles (花牌) 1 x2",
        "total: 17",
    ]
    r = stub.Evaluate(pb.EvaluateRequest(
        hand=pb.Hand(concealed=T("123m456p789s1sEEE"), winning_tile=T("1s")[0]),
        context=pb.WinContext(self_drawn=True, seat_wind=pb.WIND_EAST, prevalent_wind=pb.WIND_SOUTH, flowers=2)),
        timeout=10)
    assert f"total: {r.best.total}" in proc.stdout
    assert [int(m) for m in re.findall(r"^fan (\d+)", proc.stdout, re.M)] == [f.id for f in r.best.fans]


def test_alternatives_printed(mjqt: Path, server: ServerProcess, stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    proc = run_mjqt(mjqt, server, "evaluate", "111222333m456pE", "--win", "E", "--self-drawn")
    assert proc.returncode == 0, proc.stderr
    r = stub.Evaluate(pb.EvaluateRequest(hand=pb.Hand(concealed=T("111222333m456pE"), winning_tile=T("E")[0]),
                                         context=pb.WinContext(self_drawn=True)), timeout=10)
    totals = [int(t) for t in re.findall(r"^total: (\d+)", proc.stdout, re.M)]
    assert totals == [r.best.total] + [a.total for a in r.alternatives] and len(totals) > 1


def test_server_error_reason_and_field(mjqt: Path, server: ServerProcess) -> None:
    proc = run_mjqt(mjqt, server, "evaluate", "123m", "--win", "1m")
    assert proc.returncode == 2
    assert proc.stdout.startswith("error: INVALID_ARGUMENT TILE_COUNT hand.concealed: hand.concealed: ")


def test_analyze_discards(mjqt: Path, server: ServerProcess, stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    proc = run_mjqt(mjqt, server, "analyze", "123m456p789s11223z")
    assert proc.returncode == 0, proc.stderr
    a = stub.Analyze(pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s11223z"))), timeout=10)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("discard ")]
    assert len(lines) == len(a.discards) > 0
    assert [int(ln.split()[3]) for ln in lines] == [d.shanten for d in a.discards]
    assert [int(ln.split()[5]) for ln in lines] == [d.useful_count for d in a.discards]


def test_play_stream(mjqt: Path, server: ServerProcess, stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    hands = ["123m456p789s1122z", "123m", "1112345678999m"]
    proc = run_mjqt(mjqt, server, "play", *hands)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    answers = re.split(r"^answer ", proc.stdout, flags=re.M)[1:]
    by_id = {a.split(":", 1)[0]: a for a in answers}
    assert set(by_id) == {"t1", "t2", "t3"}
    for i, h in enumerate(hands, 1):
        if i == 2:
            assert by_id["t2"].startswith("t2: error TILE_COUNT analyze.hand.concealed")
            continue
        a = stub.Analyze(pb.AnalyzeRequest(hand=pb.Hand(concealed=T(h))), timeout=10)
        assert f"shanten: {a.shanten}" in by_id[f"t{i}"]
        waits = " ".join(f"{_name(w.tile)}:{w.remaining}" for w in a.waits)
        assert f"waits: {waits}\n" in by_id[f"t{i}"]
    assert proc.stdout.rstrip().endswith("stream closed: OK")


def test_fans(mjqt: Path, server: ServerProcess, stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    proc = run_mjqt(mjqt, server, "fans", "--rule-set", "mcr2p")
    assert proc.returncode == 0, proc.stderr
    r = stub.ListFans(pb.ListFansRequest(rule_set="mcr2p"), timeout=10)
    assert proc.stdout.splitlines()[0] == f"rule set: mcr2p, minimum {r.min_points}"
    assert [int(ln.split()[0]) for ln in proc.stdout.splitlines()[1:]] == [f.id for f in r.fans]


def test_unreachable_server(mjqt: Path) -> None:
    proc = subprocess.run([str(mjqt), "--server", "127.0.0.1:1", "fans"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1 and proc.stdout.startswith("error: UNAVAILABLE")


def _name(tile: int) -> str:
    index = tile - 1
    return f"{index % 9 + 1}{'mps'[index // 9]}" if index < 27 else "ESWNCFP"[index - 27]
