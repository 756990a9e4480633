"""h2load (nghttp2-client), an external HTTP/2 load generator, drives unary Evaluate with gRPC framing against
a fresh server (`bench.h2load`): a few hundred calls, none failed at the HTTP level, and every one counted
OK by the server's gRPC metrics (h2load does not read the grpc-status trailer, so a call refused by the
service would still look like a success to it: the second test shows that the metrics do tell)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator

import pytest

from bench.h2load import grpc_frame, h2load_command, ok_calls, parse
from engine.tiles import parse_tiles
from mjsvc.convert import hand_to_proto
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.launcher import ServerProcess

pytestmark = pytest.mark.skipif(shutil.which("h2load") is None,
                                reason="h2load not installed (Debian package nghttp2-client)")

_TILES = parse_tiles("123m456p789s11777z")
EVALUATE = pb.EvaluateRequest(rule_set="mcr", hand=hand_to_proto(_TILES[:13], (), _TILES[13]))


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with ServerProcess("--log-level", "WARNING", workers=1) as srv:
        srv.wait_ready()
        yield srv


def _drive(server: ServerProcess, request: pb.EvaluateRequest, n: int) -> tuple[dict[str, object], int]:
    fd, path = tempfile.mkstemp(suffix=".grpc")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(grpc_frame(request.SerializeToString()))
        before = ok_calls(server)
        out = subprocess.run(h2load_command(server.address, path, n, 2, 8), capture_output=True, text=True,
                             timeout=120, check=True)
        return parse(out.stdout), int(ok_calls(server) - before)
    finally:
        os.unlink(path)


def test_h2load_evaluate_calls_all_answered_ok(server: ServerProcess) -> None:
    summary, grpc_ok = _drive(server, EVALUATE, 400)
    assert (summary["total"], summary["succeeded"], summary["failed"], summary["errored"]) == (400, 400, 0, 0)
    assert grpc_ok == 400


def test_a_refused_call_is_an_http_success_but_not_grpc_ok(server: ServerProcess) -> None:
    bad = pb.EvaluateRequest(rule_set="mcr", hand=hand_to_proto(_TILES[:3], (), _TILES[13]))  # 4 tiles
    summary, grpc_ok = _drive(server, bad, 50)
    assert summary["succeeded"] == 50 and grpc_ok == 0
    assert server.metric("grpc_server_handled_total", grpc_method="Evaluate", grpc_code="InvalidArgument") >= 50
