"""One worker process of `mjsvc serve`: a grpc.aio server on uvloop, bound to the shared port.

The supervisor spawns several of these; the kernel spreads connections over them (SO_REUSEPORT),
so the GIL of one process never caps the service. The engine runs inline in the handlers, behind
this worker's own LRU cache: an engine call costs less than handing it to another thread or process.

A worker warms the engine up before it listens, reports SERVING on grpc.health.v1, and on SIGTERM
(or when its supervisor vanishes) reports NOT_SERVING, stops taking calls, lets the calls in flight
finish within the grace period and exits.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
import uuid
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import grpc
from google.protobuf.message import DecodeError
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from grpc_reflection.v1alpha import reflection

from engine.errors import EngineError
from mjsvc import gctune, metrics
from mjsvc.config import ServeConfig
from mjsvc.errors import BATCH_TOO_LARGE, INTERNAL, RATE_LIMITED, CallError, Failure
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc
from mjsvc.service import Deadline, Service

log = logging.getLogger("mjsvc.worker")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["MahjongEngine"].full_name
_EOF = grpc.aio.EOF


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


class NoopService:
    """The same interface as `Service`, answering empty messages at once: the bare-gRPC floor that the
    overhead benchmark compares the engine against."""

    _evaluate = pb.EvaluateResponse()
    _analyze = pb.AnalyzeResponse()
    _fans = pb.ListFansResponse()
    _item = pb.EvaluateBatchItem(response=pb.EvaluateResponse())

    def evaluate(self, req: pb.EvaluateRequest) -> pb.EvaluateResponse:
        return self._evaluate

    def analyze_bytes(self, req: pb.AnalyzeRequest) -> bytes:
        return self._analyze.SerializeToString()

    def list_fans(self, req: pb.ListFansRequest) -> pb.ListFansResponse:
        return self._fans

    def evaluate_batch_wire(self, raw: bytes, deadline: Deadline | None = None, max_items: int = 0) -> bytes:
        # What a bare handler does: parse the request, answer a message (grpc would serialize it).
        n = len(pb.EvaluateBatchRequest.FromString(raw).requests)
        if max_items and n > max_items:
            raise CallError(Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, BATCH_TOO_LARGE, "too many", "requests"))
        return pb.EvaluateBatchResponse(results=[self._item] * n).SerializeToString()

    def play_wire(self, raw: bytes) -> bytes:
        req = pb.PlayRequest.FromString(raw)
        if req.WhichOneof("request") == "analyze":
            return pb.PlayResponse(id=req.id, analyze=self._analyze).SerializeToString()
        return pb.PlayResponse(id=req.id, evaluate=self._evaluate).SerializeToString()


class FaultyService(Service):
    """For tests only (MJSVC_TEST_FAULT_RULE_SET): a request naming `fault` fails unexpectedly."""

    def __init__(self, fault: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fault = fault

    def _check(self, rule_set: str) -> None:
        if rule_set == self.fault:
            raise RuntimeError(f"injected fault for rule set {rule_set!r}")

    # the innermost steps, which every path (unary, batch, stream) goes through
    def _evaluate(self, req: pb.EvaluateRequest, field: str) -> pb.EvaluateResponse:
        self._check(req.rule_set)
        return super()._evaluate(req, field)

    def _analyze(self, req: pb.AnalyzeRequest, field: str) -> bytes:
        self._check(req.rule_set)
        return super()._analyze(req, field)


def _request_id(context: grpc.aio.ServicerContext) -> str:
    for key, value in context.invocation_metadata() or ():
        if key == "x-request-id":
            return str(value)[:64]
    return uuid.uuid4().hex[:16]


class EngineServicer(mahjong_pb2_grpc.MahjongEngineServicer):
    def __init__(self, service: Service | NoopService, cfg: ServeConfig) -> None:
        self._service = service
        self._cfg = cfg
        self.calls_started = 0
        self.calls_finished = 0

        def m(grpc_type: str, method: str) -> metrics.MethodMetrics:
            return metrics.MethodMetrics(grpc_type, SERVICE_NAME, method)

        self._m_evaluate = m("unary", "Evaluate")
        self._m_analyze = m("unary", "Analyze")
        self._m_list = m("unary", "ListFans")
        self._m_batch = m("unary", "EvaluateBatch")
        self._m_play = m("bidi_stream", "Play")

    # -- unary --------------------------------------------------------------------------------

    async def Evaluate(self, request: pb.EvaluateRequest, context: grpc.aio.ServicerContext) -> Any:
        return await self._unary(self._m_evaluate, self._service.evaluate, request, context)

    async def Analyze(self, request: pb.AnalyzeRequest, context: grpc.aio.ServicerContext) -> Any:
        return await self._unary(self._m_analyze, self._service.analyze_bytes, request, context)

    async def ListFans(self, request: pb.ListFansRequest, context: grpc.aio.ServicerContext) -> Any:
        return await self._unary(self._m_list, self._service.list_fans, request, context)

    async def EvaluateBatch(self, request: bytes, context: grpc.aio.ServicerContext) -> Any:
        return await self._unary(self._m_batch, self._batch, request, context, with_deadline=True)

    def _batch(self, raw: bytes, deadline: Deadline | None = None) -> bytes:
        """EvaluateBatch on the wire format (see Service.evaluate_batch_wire): bytes in, bytes out."""
        return self._service.evaluate_batch_wire(raw, deadline, self._cfg.max_batch)

    async def _unary(self, m: metrics.MethodMetrics, fn: Callable[..., Any], request: Any,
                     context: grpc.aio.ServicerContext, with_deadline: bool = False) -> Any:
        t0 = time.perf_counter()
        m.started.inc()
        m.received.inc()
        self.calls_started += 1
        code = "OK"
        try:
            remaining = context.time_remaining()
            try:
                if remaining is None:
                    response = fn(request)
                elif remaining <= 0:
                    raise Deadline.exceeded()
                elif with_deadline:
                    response = fn(request, Deadline(remaining))
                else:
                    response = fn(request)
            except EngineError as err:
                code = "INVALID_ARGUMENT"
                await _abort(context, Failure.from_engine(err))
            except CallError as err:
                code = err.failure.code.name
                await _abort(context, err.failure)
            except Exception:
                code = "INTERNAL"
                await _internal(context, m.labels[2])
            m.sent.inc()
            return response
        except asyncio.CancelledError:
            code = "CANCELLED"
            raise
        finally:
            self.calls_finished += 1
            m.handled(code).inc()
            m.seconds.observe(time.perf_counter() - t0)

    # -- one stream per table -----------------------------------------------------------------

    async def Play(self, request_iterator: Any, context: grpc.aio.ServicerContext) -> None:
        m = self._m_play
        t0 = time.perf_counter()
        m.started.inc()
        metrics.open_streams.inc()
        self.calls_started += 1
        code = "OK"
        cfg = self._cfg
        bucket = TokenBucket(cfg.stream_rate, cfg.burst) if cfg.stream_rate else None
        remaining = context.time_remaining()
        deadline = None if remaining is None else time.monotonic() + remaining
        play = self._service.play_wire
        try:
            while True:
                raw = await context.read()
                if raw is _EOF:
                    break
                m.received.inc()
                if deadline is not None and time.monotonic() >= deadline:
                    code = "DEADLINE_EXCEEDED"
                    await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "the stream's deadline has passed")
                if bucket is not None and not bucket.take():
                    resp = _error_answer(raw, _rate_limited(cfg))
                else:
                    try:
                        resp = play(raw)
                    except Exception:
                        rid = _play_id(raw) or uuid.uuid4().hex[:16]
                        log.exception("request %s: Play message failed", rid)
                        resp = _error_answer(raw, Failure(grpc.StatusCode.INTERNAL, INTERNAL,
                                                          f"internal error; request id {rid}"))
                await context.write(resp)
                m.sent.inc()
        except asyncio.CancelledError:
            code = "CANCELLED"
            raise
        finally:
            self.calls_finished += 1
            metrics.open_streams.dec()
            m.handled(code).inc()
            m.seconds.observe(time.perf_counter() - t0)


def _same(data: bytes) -> bytes:
    return data


def add_servicer(servicer: EngineServicer, server: grpc.aio.Server) -> None:
    """Register the service as the generated code would, except that EvaluateBatch and Play take and
    return serialized bytes (their handlers work on the wire format to answer cached requests without
    building messages)."""
    handlers = {
        "Evaluate": grpc.unary_unary_rpc_method_handler(
            servicer.Evaluate, pb.EvaluateRequest.FromString, pb.EvaluateResponse.SerializeToString),
        "Analyze": grpc.unary_unary_rpc_method_handler(
            servicer.Analyze, pb.AnalyzeRequest.FromString, _same),  # answered as bytes (Service._analyze)
        "ListFans": grpc.unary_unary_rpc_method_handler(
            servicer.ListFans, pb.ListFansRequest.FromString, pb.ListFansResponse.SerializeToString),
        "EvaluateBatch": grpc.unary_unary_rpc_method_handler(servicer.EvaluateBatch, _same, _same),
        "Play": grpc.stream_stream_rpc_method_handler(servicer.Play, _same, _same),
    }
    assert set(handlers) == {m.name for m in pb.DESCRIPTOR.services_by_name["MahjongEngine"].methods}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    server.add_registered_method_handlers(SERVICE_NAME, handlers)


def _play_id(raw: bytes) -> str:
    try:
        return pb.PlayRequest.FromString(raw).id
    except DecodeError:
        return ""


def _error_answer(raw: bytes, failure: Failure) -> bytes:
    """A serialized PlayResponse carrying `failure`, with the id of the request in `raw`."""
    return pb.PlayResponse(id=_play_id(raw), error=failure.to_proto()).SerializeToString()


def _rate_limited(cfg: ServeConfig) -> Failure:
    return Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, RATE_LIMITED,
                   f"more than {cfg.stream_rate:g} messages/s (burst {cfg.burst}) on this stream; "
                   "message dropped, slow down")


async def _abort(context: grpc.aio.ServicerContext, failure: Failure) -> None:
    status = failure.to_status()
    await context.abort(status.code, status.details, status.trailing_metadata)


async def _internal(context: grpc.aio.ServicerContext, method: str) -> None:
    """Log the exception being handled with a request id; the client gets only the id."""
    rid = _request_id(context)
    log.exception("request %s: %s failed", rid, method)
    await context.abort(grpc.StatusCode.INTERNAL, f"internal error; request id {rid}",
                        (("x-request-id", rid),))


# ---------------------------------------------------------------------------------------------
# Process entry point


def warm_up() -> bool:
    """Build every rule set's tables and run each operation once, so the first call is not slow.
    False (and logged) when the engine cannot answer; the worker then reports NOT_SERVING."""
    from engine import api, rules
    from engine.hand import WinContext, make_hand, winning_hand
    from engine.tiles import parse_tiles

    try:
        for name in rules.names():
            api.list_fans(name)
            # Characters and honours only, so that every rule set accepts the hand; self-drawn, the
            # one situation every rule set accepts without more facts (Riichi asks who discarded).
            tiles = parse_tiles("123456789m111z3z")
            api.evaluate(winning_hand(tiles, (), parse_tiles("3z")[0]), WinContext(self_drawn=True), name)
            api.analyze(make_hand(tiles, sizes=(13,)), (), name)
        return True
    except Exception:
        log.exception("engine warm-up failed; reporting NOT_SERVING")
        return False


def _address(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


def server_options(cfg: ServeConfig) -> list[tuple[str, Any]]:
    options: list[tuple[str, Any]] = [
        ("grpc.so_reuseport", 1),
        ("grpc.max_receive_message_length", cfg.max_message_bytes),
        ("grpc.max_send_message_length", cfg.max_message_bytes),
        ("grpc.max_concurrent_streams", cfg.max_concurrent_streams),
    ]
    if cfg.max_connection_age > 0:
        # Closing aged connections makes clients re-resolve DNS and spread over pods added since.
        options += [
            ("grpc.max_connection_age_ms", int(cfg.max_connection_age * 1000)),
            ("grpc.max_connection_age_grace_ms", int(cfg.max_connection_age_grace * 1000)),
        ]
    return options


async def serve(cfg: ServeConfig, index: int, ready: Connection | None) -> None:
    if cfg.noop:
        service: Service | NoopService = NoopService()
    elif cfg.fault_rule_set:
        service = FaultyService(cfg.fault_rule_set, cfg.cache_size, observer=metrics.EngineObserver())
    else:
        service = Service(cfg.cache_size, observer=metrics.EngineObserver())
    warm = warm_up() if not cfg.noop else True
    gctune.freeze()  # the warm engine tables are permanent: keep full collections from walking them

    server = grpc.aio.server(options=server_options(cfg), maximum_concurrent_rpcs=cfg.max_concurrent_rpcs or None)
    servicer = EngineServicer(service, cfg)
    add_servicer(servicer, server)
    health = HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
    for name in ("", SERVICE_NAME):
        await health.set(name, NOT_SERVING)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME), server)
    address = _address(cfg.host, cfg.port)
    if cfg.tls_cert:
        with open(cfg.tls_key, "rb") as k, open(cfg.tls_cert, "rb") as c:
            creds = grpc.ssl_server_credentials([(k.read(), c.read())])
        server.add_secure_port(address, creds)
    else:
        server.add_insecure_port(address)
    await server.start()
    status = health_pb2.HealthCheckResponse.SERVING if warm else NOT_SERVING
    for name in ("", SERVICE_NAME):
        await health.set(name, status)
    log.info("worker %d serving on %s%s", index, address, " (no-op handlers)" if cfg.noop else "")

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if ready is not None:
        ready.send(("ready", os.getpid(), warm))
        ready.close()
    housekeeping = asyncio.create_task(_watch_parent(stop))
    gc_task = asyncio.create_task(gctune.keep_frozen(stop))
    # MJSVC_STALL_LOG=1 logs every event-loop stall over 4 ms with the collector's share (diagnosis).
    probe = gctune.StallProbe(log_stalls=True) if os.environ.get("MJSVC_STALL_LOG") else None
    probe_task = asyncio.create_task(probe.run(stop)) if probe is not None else None

    await stop.wait()
    log.info("worker %d draining: %d calls in flight, %.1f s grace", index,
             servicer.calls_started - servicer.calls_finished, cfg.grace)
    await health.enter_graceful_shutdown()
    await server.stop(cfg.grace)
    housekeeping.cancel()
    gc_task.cancel()
    if probe_task is not None:
        probe_task.cancel()
    log.info("worker %d stopped: %d calls started, %d finished", index, servicer.calls_started,
             servicer.calls_finished)


async def _watch_parent(stop: asyncio.Event) -> None:
    """Once a second: stop if the supervisor has gone away (killed without a chance to drain us)."""
    parent = os.getppid()
    while not stop.is_set():
        if os.getppid() != parent:
            log.warning("supervisor %d is gone; draining", parent)
            stop.set()
            return
        await asyncio.sleep(1.0)


def main(cfg: ServeConfig, index: int, ready: Connection | None = None) -> None:
    """Spawn target: run one worker until it is told to stop."""
    logging.basicConfig(level=cfg.log_level.upper(), format=LOG_FORMAT)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # until the loop handles it: Ctrl-C is the supervisor's call
    import uvloop

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(serve(cfg, index, ready))


LOG_FORMAT = "%(asctime)s %(processName)s[%(process)d] %(levelname)s %(name)s: %(message)s"
