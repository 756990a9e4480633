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
    """A call that did not return a usable answer; `code` is a gRPC status name or SANITY. `broken`: the
    Play stream it was sent on is gone (see `StreamClient._exchange`)."""

    def __init__(self, code: str, detail: str = "", broken: bool = False) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.broken = broken


class Unreachable(Exception):
    """No server to play against: the channels did not connect, or the tables' streams did not open, within
    the run's `timeout`."""


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

    async def legal(self, req: pb.LegalRequest) -> pb.LegalResponse:
        try:
            return await self._stub.Legal(req, timeout=self._timeout)
        except grpc.aio.AioRpcError as e:
            raise CallFailed(e.code().name, e.details() or "") from None

    async def settle(self, req: pb.SettleRequest) -> pb.SettleResponse:
        try:
            return await self._stub.Settle(req, timeout=self._timeout)
        except grpc.aio.AioRpcError as e:
            raise CallFailed(e.code().name, e.details() or "") from None

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None


class StreamClient:
    """One `Play` stream for the table; requests go one at a time, answers are matched by id.

    A stream that breaks (its worker died or its connection was cut) is reopened and the message in flight
    sent again, as a game server would; Evaluate and Analyze are idempotent. Such breaks are counted in
    `stream_breaks`, not as errors; a message that still gets no answer after `MAX_REOPENS` new streams fails
    with the last status."""

    MAX_REOPENS = 3

    def __init__(self, channel: grpc.aio.Channel, table: int) -> None:
        self._stub = mahjong_pb2_grpc.MahjongEngineStub(channel)
        self._call: grpc.aio.StreamStreamCall | None = None
        self._prefix = f"t{table}-"
        self._seq = 0
        self.streams_opened = 0
        self.stream_breaks = 0

    def _stream(self) -> grpc.aio.StreamStreamCall:
        if self._call is None:
            self._call = self._stub.Play()
            self.streams_opened += 1
        return self._call

    async def open(self) -> None:
        """Start the stream now rather than at the first request."""
        await self._stream().wait_for_connection()

    async def _exchange(self, msg: pb.PlayRequest) -> pb.PlayResponse | CallFailed:
        """One request and its answer on the current stream, or why there is none (`broken`: the stream is
        gone, the message may be sent again on a new one).

        What grpc.aio shows when a stream's worker dies (measured; docs/serve.md): a `read()` waiting for the
        answer fails with UNAVAILABLE ("Stream removed (recvmsg: Connection reset by peer)"); a `write()`
        raises asyncio.InvalidStateError once the call is known to have ended (its status: UNAVAILABLE), or,
        in the instant between the transport failing and grpc.aio learning of it, fails with INTERNAL
        "Internal error from Core": grpc.aio's own report that it could not send (grpc issue 36066), not an
        answer of the server, which never saw the message."""
        call = self._stream()
        try:
            await call.write(msg)
        except grpc.aio.AioRpcError as e:
            broken = e.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.INTERNAL)
            return CallFailed(e.code().name, e.details() or "", broken=broken)
        except asyncio.InvalidStateError:
            return await self._ended(call)
        try:
            resp = await call.read()
        except grpc.aio.AioRpcError as e:
            return CallFailed(e.code().name, e.details() or "", broken=_transport_lost(e))
        if resp is grpc.aio.EOF:
            return await self._ended(call)
        assert isinstance(resp, pb.PlayResponse)
        return resp

    @staticmethod
    async def _ended(call: grpc.aio.StreamStreamCall) -> CallFailed:
        code = await call.code()
        if code == grpc.StatusCode.OK:
            return CallFailed(SANITY, "the stream ended OK before answering")
        details = await call.details() or ""
        lost = code == grpc.StatusCode.UNAVAILABLE or (code == grpc.StatusCode.INTERNAL
                                                       and details.startswith("Stream removed"))
        return CallFailed(code.name, details, broken=lost)

    async def _ask(self, msg: pb.PlayRequest) -> pb.PlayResponse:
        self._seq += 1
        msg.id = self._prefix + str(self._seq)
        for reopened in range(self.MAX_REOPENS + 1):
            resp = await self._exchange(msg)
            if not isinstance(resp, CallFailed):
                break
            self._call = None
            if not resp.broken or reopened == self.MAX_REOPENS:
                raise resp
            self.stream_breaks += 1
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

    async def legal(self, req: pb.LegalRequest) -> pb.LegalResponse:
        resp = await self._ask(pb.PlayRequest(legal=req))
        if not resp.HasField("legal"):
            raise CallFailed(SANITY, "stream answered a Legal with another kind")
        return resp.legal

    async def settle(self, req: pb.SettleRequest) -> pb.SettleResponse:
        resp = await self._ask(pb.PlayRequest(settle=req))
        if not resp.HasField("settle"):
            raise CallFailed(SANITY, "stream answered a Settle with another kind")
        return resp.settle

    async def close(self) -> None:
        if self._call is not None:
            with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                await self._call.done_writing()
                await self._call.code()  # the server has seen the end and closed its side
            self._call = None


Client = UnaryClient | StreamClient


def _transport_lost(e: grpc.aio.AioRpcError) -> bool:
    """The stream is gone without an answer from the engine: UNAVAILABLE (its host or worker died, its connection
    was cut), or reset under it: a proxy in front (nginx, deploy/nginx) resets the client's stream with HTTP/2
    INTERNAL_ERROR when its upstream host dies, which grpc reports as INTERNAL "Stream removed (RST_STREAM ...)".
    The server's own INTERNAL answers carry its message and are not retried."""
    if e.code() == grpc.StatusCode.UNAVAILABLE:
        return True
    return e.code() == grpc.StatusCode.INTERNAL and (e.details() or "").startswith("Stream removed")




def make_channel(target: str, retries: bool = True) -> grpc.aio.Channel:
    """A channel of its own TCP connection (a local subchannel pool), so that the kernel can hand the
    channels to different workers listening with SO_REUSEPORT; with `retries`, the published service
    config (retry on UNAVAILABLE), else none."""
    options: list[tuple[str, object]] = [("grpc.use_local_subchannel_pool", 1)]
    if retries:
        options += channel_options(target)
    else:
        options.append(("grpc.enable_retries", 0))
    return grpc.aio.insecure_channel(target, options=options)
