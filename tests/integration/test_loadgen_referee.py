"""`mjsvc loadgen --game riichi|riichi3|sichuan`: tables refereed by the server through Legal and Settle (every step a
Legal call on the hand's log, the hand settled), against a real server and against a server that lies."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import grpc
import pytest

from mjsvc import loadgen
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc
from mjsvc.launcher import ServerProcess, local_server

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with local_server(workers=2) as s:
        yield s


@pytest.mark.parametrize("game", ["riichi", "riichi3", "sichuan"])
@pytest.mark.parametrize("mode", ["stream", "unary"])
def test_refereed_tables_play_and_settle_without_errors(server: ServerProcess, game: str, mode: str) -> None:
    cfg = loadgen.Config(target=server.target, tables=4, connections=2, mode=mode, duration=None, games=8,
                         seed=5, progress=False, game=game)
    rep = loadgen.run_config(cfg)
    assert rep["error_total"] == 0, rep["violations"]
    per = rep["per_rpc"]
    assert rep["games"] == 8 and per["Settle"]["calls"] == 8
    assert per["Legal"]["calls"] > 8 * 50  # one a step: a hand has well over 50 events
    assert per["Evaluate"]["calls"] == 0  # the referee scores the wins
    assert rep["wins"] + rep["draws"] >= 8 and rep["wins"] > 0


class _Liar(mahjong_pb2_grpc.MahjongEngineServicer):
    """A referee that lets East discard a tile it never holds (the white dragon: never dealt as 14 of them)."""

    async def Legal(self, request: pb.LegalRequest, context: Any) -> pb.LegalResponse:
        return pb.LegalResponse(seats=[pb.SeatActions(seat=pb.WIND_EAST, actions=[
            pb.Action(kind=pb.ACTION_KIND_DISCARD, tiles=[pb.TILE_WHITE]),
            pb.Action(kind=pb.ACTION_KIND_DISCARD, tiles=[pb.TILE_RED])])])

    async def Analyze(self, request: pb.AnalyzeRequest, context: Any) -> pb.AnalyzeResponse:
        return pb.AnalyzeResponse()

    async def Play(self, request_iterator: AsyncIterator[pb.PlayRequest], context: Any
                   ) -> AsyncIterator[pb.PlayResponse]:
        async for req in request_iterator:
            yield pb.PlayResponse(id=req.id, legal=await self.Legal(req.legal, context))


def test_a_referee_offering_a_tile_not_held_is_an_error() -> None:
    async def run() -> dict[str, Any]:
        server = grpc.aio.server()
        mahjong_pb2_grpc.add_MahjongEngineServicer_to_server(_Liar(), server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            return await loadgen.run_async(loadgen.Config(target=f"127.0.0.1:{port}", tables=1, connections=1,
                                                          duration=None, games=3, progress=False, game="riichi",
                                                          seed=2))
        finally:
            await server.stop(None)

    rep = asyncio.run(run())
    assert rep["aborted_games"] == 3 and rep["errors"].get(loadgen.SANITY, 0) >= 1
    assert any("does not hold" in v for v in rep["violations"]), rep["violations"]
