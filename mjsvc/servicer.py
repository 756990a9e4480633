"""The MahjongEngine servicer: the generated base class, each method a few lines over `Service`.

Registered with the generated `add_MahjongEngineServicer_to_server`; what every call needs besides its
answer (metrics, request ids, deadlines, error statuses, draining) is done by `mjsvc.interceptors`. Answers
are returned as serialized bytes where the service keeps them so (the interceptors' serializer sends
bytes as they are).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import grpc

from mjsvc.config import ServeConfig
from mjsvc.errors import RATE_LIMITED, Failure
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc
from mjsvc.interceptors import CALL_DEADLINE, Undecodable, internal_failure, request_id
from mjsvc.service import Service, bad_request

log = logging.getLogger("mjsvc.worker")


class TokenBucket:
    """`rate` tokens a second, at most `burst` saved up: the message allowance of one stream."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class EngineServicer(mahjong_pb2_grpc.MahjongEngineServicer):
    def __init__(self, service: Service, cfg: ServeConfig) -> None:
        self._service = service
        self._cfg = cfg
        self._rate_limited = Failure(
            grpc.StatusCode.RESOURCE_EXHAUSTED, RATE_LIMITED,
            f"more than {cfg.stream_rate:g} messages/s (burst {cfg.burst}) on this stream; message dropped, "
            "slow down")
        self._undecodable = pb.PlayResponse(error=bad_request("PlayRequest").to_proto()).SerializeToString()

    async def Evaluate(self, request: pb.EvaluateRequest, context: grpc.aio.ServicerContext) -> Any:
        return self._service.evaluate_bytes(request)

    async def Analyze(self, request: pb.AnalyzeRequest, context: grpc.aio.ServicerContext) -> Any:
        return self._service.analyze_bytes(request)

    async def ListFans(self, request: pb.ListFansRequest, context: grpc.aio.ServicerContext) -> Any:
        return self._service.list_fans(request)

    async def EvaluateBatch(self, request: pb.EvaluateBatchRequest, context: grpc.aio.ServicerContext) -> Any:
        cfg = self._cfg
        return self._service.evaluate_batch_bytes(request, CALL_DEADLINE.get(), cfg.max_batch, cfg.max_message_bytes)

    async def Legal(self, request: pb.LegalRequest, context: grpc.aio.ServicerContext) -> Any:
        return self._service.legal_bytes(request)

    async def Settle(self, request: pb.SettleRequest, context: grpc.aio.ServicerContext) -> Any:
        return self._service.settle_bytes(request)

    async def Play(self, request_iterator: AsyncIterator[Any], context: grpc.aio.ServicerContext
                   ) -> AsyncIterator[bytes]:
        """One stream per table. Every message gets one answer carrying its id; a message that cannot be
        answered (undecodable, over the rate, an engine error, even a failure of ours) is answered with an
        `error`, and the stream goes on."""
        cfg = self._cfg
        bucket = TokenBucket(cfg.stream_rate, cfg.burst) if cfg.stream_rate else None
        play = self._service.play_bytes
        async for req in request_iterator:
            if type(req) is Undecodable:
                log.warning("request %s: %s", request_id(context), req.describe("Play message"))
                yield (pb.PlayResponse(id=req.id, error=req.failure().to_proto()).SerializeToString() if req.limit
                       else self._undecodable)
                continue
            if bucket is not None and not bucket.take():
                yield pb.PlayResponse(id=req.id[:128], error=self._rate_limited.to_proto()).SerializeToString()
                continue
            try:
                answer = play(req)
            except Exception:
                rid = request_id(context)
                log.exception("request %s: Play message failed", rid)
                answer = pb.PlayResponse(id=req.id[:128], error=internal_failure(rid).to_proto()).SerializeToString()
            yield answer
