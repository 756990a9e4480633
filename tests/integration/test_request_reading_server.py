"""The one-pass reading of a request (`convert.read_evaluate`, `read_analyze`) through a real server.

A freshly started `mjsvc serve` is sent 700 random requests over one `Play` stream (`request_mix`: mostly
usual ones sharing a few dozen melds and contexts, so that the worker reads most of the later ones in one
pass; the others over a limit, with bad tiles, red fives, options or unknown fields, which take the plain
path). Each answer must be the one an in-process service gives with the one-pass reading turned off: the same
response, or the same error code, field and message.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import grpc
import pytest
import request_mix
from server_harness import ServerProcess

from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc
from mjsvc.service import Service


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with ServerProcess(workers=1) as srv:
        yield srv


def test_a_server_answers_as_the_plain_path(server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    plays = []
    for i, req in enumerate(request_mix.requests(random.Random(11), 700)):
        if isinstance(req, pb.EvaluateRequest):
            plays.append(pb.PlayRequest(id=f"r{i}", evaluate=req))
        else:
            plays.append(pb.PlayRequest(id=f"r{i}", analyze=req))
    with grpc.insecure_channel(server.target) as channel:
        got = {r.id: r for r in mahjong_pb2_grpc.MahjongEngineStub(channel).Play(iter(plays), timeout=120)}
    monkeypatch.setattr(convert, "read_evaluate", lambda r: None)
    monkeypatch.setattr(convert, "read_analyze", lambda r: None)
    plain = Service(cache_size=0)
    kinds = {"error": 0, "answer": 0}
    for play in plays:
        want = pb.PlayResponse.FromString(plain.play_bytes(play))
        assert got[play.id] == want, play
        kinds["error" if want.HasField("error") else "answer"] += 1
    assert min(kinds.values()) > 150, kinds
