"""The ghz files replayed through a real server with our own client (ghz itself cannot be installed here).

Each config in deploy/ghz/ names a method, a data file and a number of connections; the data is parsed
the way ghz parses it (protobuf JSON into the method's input type), spread over that many channels and
sent to a fresh `mjsvc serve`. Every request must be answered OK, since the data comes from legal play.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

from engine.shapes import is_complete
from mjsvc import convert, loadgen
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc
from mjsvc.launcher import ServerProcess, local_server

ROOT = Path(__file__).resolve().parents[2]
GHZ = ROOT / "deploy" / "ghz"
SERVICE = pb.DESCRIPTOR.services_by_name["MahjongEngine"]

pytestmark = pytest.mark.integration


def _config(name: str) -> dict[str, Any]:
    return json.loads((GHZ / name).read_text())


def _requests(cfg: dict[str, Any]) -> list[Any]:
    method = SERVICE.methods_by_name[cfg["call"].rsplit(".", 1)[1]]
    cls = getattr(pb, method.input_type.name)
    return [json_format.ParseDict(item, cls()) for item in json.loads((ROOT / cfg["data-file"]).read_text())]


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with local_server(workers=2) as s:
        yield s


async def _replay_unary(target: str, method: str, requests: list[Any], connections: int) -> list[Any]:
    channels = [loadgen.make_channel(target) for _ in range(connections)]
    try:
        stubs = [mahjong_pb2_grpc.MahjongEngineStub(ch) for ch in channels]
        calls = [getattr(stubs[i % connections], method)(req, timeout=10) for i, req in enumerate(requests)]
        return list(await asyncio.gather(*calls))
    finally:
        await asyncio.gather(*(ch.close() for ch in channels))


def test_evaluate_data_replays_with_wins_in_the_mix(server: ServerProcess) -> None:
    cfg = _config("evaluate.json")
    requests = _requests(cfg)
    answers = asyncio.run(_replay_unary(server.target, "Evaluate", requests, cfg["connections"]))
    wins = 0
    fans: set[int] = set()
    for req, ans in zip(requests, answers, strict=True):
        hand = convert.hand_from_proto(req.hand, winning=True)
        if ans.is_win:
            assert is_complete(hand), str(hand)
            wins += 1
            fans |= {f.id for f in ans.best.fans}
    # The simulator keeps declared wins first in the data: scoring is part of the load.
    assert wins >= 20 and len(fans) >= 10, (wins, fans)
    assert any(req.hand.melds for req in requests) and any(not req.hand.melds for req in requests)


def test_analyze_data_replays(server: ServerProcess) -> None:
    cfg = _config("analyze.json")
    requests = _requests(cfg)
    answers = asyncio.run(_replay_unary(server.target, "Analyze", requests, cfg["connections"]))
    sizes = {len(r.hand.concealed) + 3 * len(r.hand.melds) for r in requests}
    assert sizes == {13, 14}
    for req, ans in zip(requests, answers, strict=True):
        if len(req.hand.concealed) + 3 * len(req.hand.melds) == 14:
            assert ans.discards and {d.tile for d in ans.discards} <= set(req.hand.concealed)
        else:
            assert ans.shanten >= 0


async def _replay_stream(target: str, requests: list[pb.PlayRequest], streams: int) -> list[list[pb.PlayResponse]]:
    """ghz sends the whole array on each stream; do that on `streams` streams over as many channels."""

    async def one(ch: grpc.aio.Channel) -> list[pb.PlayResponse]:
        call = mahjong_pb2_grpc.MahjongEngineStub(ch).Play()
        out = []
        for req in requests:
            await call.write(req)
            out.append(await call.read())
        await call.done_writing()
        assert await call.code() == grpc.StatusCode.OK
        return out

    channels = [loadgen.make_channel(target) for _ in range(streams)]
    try:
        return list(await asyncio.gather(*(one(ch) for ch in channels)))
    finally:
        await asyncio.gather(*(ch.close() for ch in channels))


def test_play_stream_data_replays(server: ServerProcess) -> None:
    cfg = _config("play.json")
    requests = _requests(cfg)
    assert {r.WhichOneof("request") for r in requests} == {"evaluate", "analyze"}
    assert len({r.id for r in requests}) == len(requests)
    streams = cfg["connections"]
    results = asyncio.run(_replay_stream(server.target, requests, streams))
    assert len(results) == streams
    for answers in results:
        for req, ans in zip(requests, answers, strict=True):
            assert ans.id == req.id
            assert ans.WhichOneof("response") == req.WhichOneof("request"), ans
