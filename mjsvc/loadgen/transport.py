"""How the simulated tables talk to the server: one unary client or one `Play` stream per table, over
channels configured with the service config the project publishes (retry on UNAVAILABLE)."""

from __future__ import annotations

import asyncio
import contextlib

import grpc

from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc
from mjsvc.service_config import channel_options

SANITY = "SANITY"  # error bucket for answers that fail the simulator's own checks


class CallFailed(Exception):
    """A call that did not return a usable answer; `code` is a gRPC status name or SANITY."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


class Stopped(Exception):
    """The run's time or game budget is spent; unwinds the game in progress."""




class UnaryClient:
    def __init__(self, channel: grpc.aio.Channel, timeout: float) -> None:
        self._stub = mahjong_pb2_grpc.MahjongEngineStub(channel)
        self._timeout = timeout

    async def evaluate(self, req: pb.EvaluateRequest) -> pb.EvaluateResponse:
        try:
            return await self._stub.Evaluate(req, timeout=self._timeout)
        except grpc.aio.AioRpcError as e:
            raise CallFailed(e.code().name, e.details() or "") from None

    async def analyze(self, req: pb.AnalyzeRequest) -> pb.AnalyzeResponse:
        try:
            return await self._stub.Analyze(req, timeout=self._timeout)
        except grpc.aio.AioRpcError as e:
            raise CallFailed(e.code().name, e.details() or "") from None

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None


class StreamClient:
    """One `Play` stream for the table; requests go one at a time, answers are matched by id."""

    def __init__(self, channel: grpc.aio.Channel, table: int) -> None:
        self._stub = mahjong_pb2_grpc.MahjongEngineStub(channel)
        self._call: grpc.aio.StreamStreamCall | None = None
        self._prefix = f"t{table}-"
        self._seq = 0
        self.streams_opened = 0

    async def open(self) -> None:
        """Start the stream now rather than at the first request."""
        if self._call is None:
            self._call = self._stub.Play()
            self.streams_opened += 1
        await self._call.wait_for_connection()

    async def _ask(self, msg: pb.PlayRequest) -> pb.PlayResponse:
        if self._call is None:
            self._call = self._stub.Play()
            self.streams_opened += 1
        self._seq += 1
        msg.id = self._prefix + str(self._seq)
        try:
            await self._call.write(msg)
            resp = await self._call.read()
        except grpc.aio.AioRpcError as e:
            self._call = None
            raise CallFailed(e.code().name, e.details() or "") from None
        if resp is grpc.aio.EOF:
            code = await self._call.code()
            self._call = None
            raise CallFailed(code.name if code != grpc.StatusCode.OK else "UNKNOWN", "stream ended early")
        assert isinstance(resp, pb.PlayResponse)
        if resp.id != msg.id:
            raise CallFailed(SANITY, f"stream answer id {resp.id!r} for request {msg.id!r}")
        if resp.HasField("error"):
            raise CallFailed(resp.error.code or "UNKNOWN", f"{resp.error.reason}: {resp.error.message}")
        return resp

    async def evaluate(self, req: pb.EvaluateRequest) -> pb.EvaluateResponse:
        resp = await self._ask(pb.PlayRequest(evaluate=req))
        if not resp.HasField("evaluate"):
            raise CallFailed(SANITY, "stream answered an Evaluate with another kind")
        return resp.evaluate

    async def analyze(self, req: pb.AnalyzeRequest) -> pb.AnalyzeResponse:
        resp = await self._ask(pb.PlayRequest(analyze=req))
        if not resp.HasField("analyze"):
            raise CallFailed(SANITY, "stream answered an Analyze with another kind")
        return resp.analyze

    async def close(self) -> None:
        if self._call is not None:
            with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                await self._call.done_writing()
                await self._call.code()  # the server has seen the end and closed its side
            self._call = None


Client = UnaryClient | StreamClient




def make_channel(target: str, retries: bool = True) -> grpc.aio.Channel:
    """A channel of its own TCP connection (a local subchannel pool), so that the kernel can hand the
    channels to different workers listening with SO_REUSEPORT; with `retries`, the published service
    config (retry on UNAVAILABLE), else none."""
    options: list[tuple[str, object]] = [("grpc.use_local_subchannel_pool", 1)]
    if retries:
        options += channel_options()
    else:
        options.append(("grpc.enable_retries", 0))
    return grpc.aio.insecure_channel(target, options=options)
