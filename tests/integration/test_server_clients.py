"""Other clients of a real `mjsvc serve`: Node.js (@grpc/grpc-js, stubs from the same .proto) and TLS."""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from server_harness import ServerProcess

from engine.tiles import parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc

pytestmark = pytest.mark.integration

NODE_DIR = Path(__file__).resolve().parents[1] / "support" / "node"


def T(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


@pytest.fixture(scope="module")
def node_client() -> Path:
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        pytest.skip("node and npm are needed for the Node.js client test")
    if not (NODE_DIR / "node_modules" / "@grpc" / "grpc-js").is_dir():
        # The lock file pins every package; `npm ci` installs exactly it from the registry.
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=NODE_DIR, check=True, timeout=300,
                       capture_output=True)
    return NODE_DIR / "evaluate.js"


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with ServerProcess(workers=1) as srv:
        yield srv


def run_node(script: Path, address: str, request: dict) -> dict:
    proc = subprocess.run(["node", str(script), address, json.dumps(request)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_node_client_evaluate(node_client: Path, server: ServerProcess) -> None:
    request = {"rule_set": "mcr",
               "hand": {"concealed": [pb.Tile.Name(v) for v in T("123m456p789s1177z")], "winning_tile": "TILE_RED"},
               "context": {"self_drawn": True, "seat_wind": "WIND_SOUTH"}}
    answer = run_node(node_client, server.address, request)
    r = answer["response"]
    assert r["is_win"] is True and r["best"]["meets_minimum"] is True
    names = {f["name"] for f in r["best"]["fans"]}
    assert {"Mixed Straight", "Dragon Pung", "Fully Concealed Hand"} <= names
    assert r["best"]["total"] == sum(f["points"] * f["count"] for f in r["best"]["fans"])
    assert r["best"]["decomposition"]["shape"] == "SHAPE_KIND_STANDARD"
    # The same request from Python gets the same score.
    with grpc.insecure_channel(server.address) as ch:
        py = mahjong_pb2_grpc.MahjongEngineStub(ch).Evaluate(pb.EvaluateRequest(
            rule_set="mcr", hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_RED),
            context=pb.WinContext(self_drawn=True, seat_wind=pb.WIND_SOUTH)), timeout=10)
    assert py.best.total == r["best"]["total"]


def test_node_client_sees_invalid_argument(node_client: Path, server: ServerProcess) -> None:
    answer = run_node(node_client, server.address, {"hand": {"concealed": ["TILE_M1"], "winning_tile": "TILE_M2"}})
    assert answer["error"]["code"] == "INVALID_ARGUMENT" and "hand.concealed" in answer["error"]["details"]


def test_tls(tmp_path: Path) -> None:
    openssl = shutil.which("openssl")
    if not openssl:
        pytest.skip("openssl is needed to make a test certificate")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    with ServerProcess("--tls-cert", str(cert), "--tls-key", str(key), workers=1) as srv:
        creds = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
        with grpc.secure_channel(srv.address, creds) as ch:
            r = mahjong_pb2_grpc.MahjongEngineStub(ch).ListFans(pb.ListFansRequest(), timeout=10)
            assert r.rule_set == "mcr"
        with grpc.insecure_channel(srv.address) as ch, pytest.raises(grpc.RpcError) as info:
            mahjong_pb2_grpc.MahjongEngineStub(ch).ListFans(pb.ListFansRequest(), timeout=3)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE


def test_max_concurrent_rpcs_is_resource_exhausted() -> None:
    with ServerProcess("--max-concurrent-rpcs", "1", workers=1) as srv, grpc.insecure_channel(srv.address) as ch:
        stub = mahjong_pb2_grpc.MahjongEngineStub(ch)
        requests: queue.Queue[pb.PlayRequest | None] = queue.Queue()
        play = stub.Play(iter(requests.get, None), timeout=30)  # holds the worker's only call slot
        requests.put(pb.PlayRequest(id="1", analyze=pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123456789m1122z")))))
        assert next(play).id == "1"
        with pytest.raises(grpc.RpcError) as info:
            stub.ListFans(pb.ListFansRequest(), timeout=10)
        assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        requests.put(None)
        assert list(play) == []
        assert stub.ListFans(pb.ListFansRequest(), timeout=10).rule_set == "mcr"  # the slot is free again
