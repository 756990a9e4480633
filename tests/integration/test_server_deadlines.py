"""Short client deadlines are the client's business (issue finding: grpcio logged ERROR ExecuteBatchError
tracebacks when clients used 50 ms deadlines): hundreds of calls expiring on a busy worker leave no ERROR line
and no traceback in the server's log, and the worker answers normally after. The calls ask for discard advice
on requests that never repeat (no cache hit), 256 at once with 20-ms deadlines, so the worker is busy for
longer than a deadline however fast the machine is."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from server_harness import ServerProcess

from engine.tiles import parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc

pytestmark = pytest.mark.integration


def test_expired_calls_log_no_error() -> None:
    hand = pb.Hand(concealed=[t + 1 for t in parse_tiles("1236m456p789s1123z")])  # 14 tiles: discard advice

    async def run(address: str) -> dict[str, int]:
        codes: dict[str, int] = {}
        async with grpc.aio.insecure_channel(address) as ch:
            stub = mahjong_pb2_grpc.MahjongEngineStub(ch)

            async def one(i: int) -> None:
                visible = [i % 34 + 1, i // 34 % 34 + 1]  # distinct for every call below
                try:
                    await stub.Analyze(pb.AnalyzeRequest(hand=hand, visible=visible), timeout=0.02)
                    code = "OK"
                except grpc.aio.AioRpcError as e:
                    code = e.code().name
                codes[code] = codes.get(code, 0) + 1

            for k in range(4):
                await asyncio.gather(*(one(k * 256 + i) for i in range(256)))
            await stub.Analyze(pb.AnalyzeRequest(hand=hand), timeout=10)
        return codes

    with ServerProcess(workers=1) as srv:
        codes = asyncio.run(run(srv.address))
        log = srv.log()
    assert codes.get("DEADLINE_EXCEEDED", 0) > 100, codes  # the deadlines did expire on the server's watch
    assert " ERROR " not in log and "Traceback" not in log and "ExecuteBatchError" not in log, log[-2000:]
