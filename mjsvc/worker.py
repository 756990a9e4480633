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
import importlib
import logging
import os
import re
import signal
from multiprocessing.connection import Connection
from typing import Any, cast

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from grpc_reflection.v1alpha import reflection, reflection_pb2_grpc

from mjsvc import gctune, limits, metrics, service_config, shedding, threads, tracing
from mjsvc.config import ServeConfig
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc
from mjsvc.interceptors import SERVICE_NAME, CallInterceptor, DrainInterceptor, interceptors
from mjsvc.service import Service
from mjsvc.servicer import EngineServicer

log = logging.getLogger("mjsvc.worker")


def make_service(cfg: ServeConfig) -> Service:
    """The request handler: `Service`, or the class MJSVC_SERVICE_CLASS names (benchmarks and tests)."""
    cls: type[Service] = Service
    if cfg.service_class:
        module, _, name = cfg.service_class.partition(":")
        cls = getattr(importlib.import_module(module), name)
    return cls(cfg.cache_size, metrics.EngineObserver(), cache_bytes=cfg.cache_bytes)


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
            # Characters only, the one suit every rule set plays (mcr2p: no dots or bamboo; sichuan: no
            # honours); self-drawn, the one situation every rule set accepts without more facts (Riichi and
            # Sichuan ask who discarded).
            tiles = parse_tiles("1112345678999m")
            api.evaluate(winning_hand(tiles, (), parse_tiles("5m")[0]), WinContext(self_drawn=True), name)
            api.analyze(make_hand(tiles, sizes=(13,)), (), name)
        # A hand with a ghost (guangdong's wildcards) loads the wildcard need tables from the tables file
        # (a 2 MB copy), here, before the fork server forks the workers: they share it copy-on-write.
        ghost = parse_tiles("P")
        api.analyze(make_hand(tiles[1:] + ghost, sizes=(13,)), (), "guangdong", {"ghosts": ghost})
        return True
    except Exception:
        log.exception("engine warm-up failed; reporting NOT_SERVING")
        return False


def _address(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


class Registrar:
    """The server as the generated `add_*Servicer_to_server` functions see it. They add each service
    twice, as one generic handler and as registered methods (a dict of handlers); this adds it once, as a
    generic handler of that dict, each MahjongEngine handler wrapped ahead of time by `call`.

    Why (docs/performance.md, "How a unary call is taken in"): gRPC's accept loop keeps one call request
    open per registered method and waits on all of them for every call it accepts (our three services have
    eleven methods: 8 µs more of the loop per accepted call, in a warm loop), and a server built with
    `interceptors=` runs `intercept_service` on every call only to find the same wrapped handler. Together
    they cost a unary call about 30 µs of server CPU; a Play stream pays them once.
    """

    def __init__(self, server: grpc.aio.Server, call: CallInterceptor) -> None:
        self._server = server
        self._call = call

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        """Left out: the same handlers come next, as a dict, to `add_registered_method_handlers`."""

    def add_registered_method_handlers(self, service: str, handlers: dict[str, grpc.RpcMethodHandler]) -> None:
        wrapped = {name: self._call.wrap(f"/{service}/{name}", h) for name, h in handlers.items()}
        self._server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, wrapped),))


def add_services(registrar: Registrar, servicer: EngineServicer, health: HealthServicer) -> None:
    """MahjongEngine, grpc.health.v1 and server reflection (which lists the three), through `registrar`."""
    # the generated add functions ask only for add_generic_rpc_handlers and add_registered_method_handlers
    server = cast(grpc.aio.Server, registrar)
    mahjong_pb2_grpc.add_MahjongEngineServicer_to_server(servicer, server)
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    names = (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME)
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(reflection.aio.ReflectionServicer(names), server)


def server_options(cfg: ServeConfig) -> list[tuple[str, Any]]:
    options: list[tuple[str, Any]] = [
        ("grpc.so_reuseport", 1),
        # The largest legitimate body (an EvaluateBatch of --max-batch requests, mjsvc.limits "Body sizes");
        # gRPC refuses a larger message with RESOURCE_EXHAUSTED before it reaches the service.
        ("grpc.max_receive_message_length", limits.receive_limit(cfg.max_batch, cfg.max_message_bytes)),
        ("grpc.max_send_message_length", cfg.max_message_bytes),
        ("grpc.max_concurrent_streams", cfg.max_concurrent_streams),
        # Clients send keepalive pings (mjsvc.service_config.channel_options: every 4 s without a read, also
        # on idle connections): accept them that often instead of answering GOAWAY "too_many_pings".
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", int(service_config.KEEPALIVE_MIN_INTERVAL_S * 1000)),
        ("grpc.http2.max_pings_without_data", 0),
    ]
    if cfg.max_connection_age > 0:
        # Closing aged connections makes clients re-resolve DNS and spread over pods added since.
        options += [
            ("grpc.max_connection_age_ms", int(cfg.max_connection_age * 1000)),
            ("grpc.max_connection_age_grace_ms", int(cfg.max_connection_age_grace * 1000)),
        ]
    if cfg.max_queued_calls > 0:
        # gRPC core's bound on calls received but not yet requested by the worker's loop (a unary call waits
        # there behind the one being answered; a Play stream is requested at once and then holds no place)
        options += [("grpc.server.max_pending_requests", cfg.max_queued_calls),
                    ("grpc.server.max_pending_requests_hard_limit", cfg.max_queued_calls)]
    if cfg.max_queue_time > 0:
        options.append(("grpc.server_max_unrequested_time_in_server", cfg.max_queue_time))
    if cfg.max_connection_idle > 0:
        # Connections with no call open (abandoned clients, pools sized for a peak) are closed with GOAWAY.
        options.append(("grpc.max_connection_idle_ms", int(cfg.max_connection_idle * 1000)))
    return options


async def serve(cfg: ServeConfig, index: int, ready: Connection | None, supervisor: int | None = None) -> None:
    service = make_service(cfg)
    warm = warm_up() if service.uses_engine else True
    gctune.freeze()  # the warm engine tables are permanent: keep full collections from walking them

    overload = shedding.Overload(cfg.shed_above, report=metrics.report_load) if cfg.shed_above > 0 else None
    (call,) = interceptors(limits.body_limits(cfg.max_batch, cfg.max_message_bytes), cfg.max_streams,
                           cfg.stream_idle_timeout, tracing.from_environment(), overload)
    # no `interceptors=`: the services are added with their handlers already wrapped by `call` (Registrar)
    server = grpc.aio.server(options=server_options(cfg), maximum_concurrent_rpcs=cfg.max_concurrent_rpcs or None)
    health = HealthServicer()
    add_services(Registrar(server, call), EngineServicer(service, cfg), health)
    NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
    for name in ("", SERVICE_NAME):
        await health.set(name, NOT_SERVING)
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
    log.info("worker %d serving on %s%s", index, address,
             f" ({cfg.service_class})" if cfg.service_class else "")

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if ready is not None:
        ready.send(("ready", os.getpid(), warm))
        ready.close()
    housekeeping = asyncio.create_task(_watch_supervisor(stop, supervisor))
    gc_task = asyncio.create_task(gctune.keep_frozen(stop))
    flush_task = asyncio.create_task(_flush_metrics(stop))
    shed_task = asyncio.create_task(overload.run(stop)) if overload is not None else None
    batch_task = asyncio.create_task(threads.keep_batched(stop)) if cfg.batch_helper_threads else None
    # MJSVC_STALL_LOG=1 logs every event-loop stall over 4 ms with the collector's share (diagnosis).
    probe = gctune.StallProbe(log_stalls=True) if os.environ.get("MJSVC_STALL_LOG") else None
    probe_task = asyncio.create_task(probe.run(stop)) if probe is not None else None

    await stop.wait()
    close_now = await drain_and_stop(server, health, call, cfg.grace, index)
    housekeeping.cancel()
    gc_task.cancel()
    flush_task.cancel()
    for task in (shed_task, batch_task):
        if task is not None:
            task.cancel()
    metrics.flush()
    if probe_task is not None:
        probe_task.cancel()
    if close_now:
        logging.shutdown()
        os._exit(0)  # see drain_and_stop: the connections close with the process, nothing is cancelled


async def _flush_metrics(stop: asyncio.Event) -> None:
    """Write the counts, observations and gauges held in memory (metrics.flush) twice a second, so that a
    stream gone quiet is counted too."""
    while not stop.is_set():
        await asyncio.sleep(5 * metrics.FLUSH_EVERY)
        metrics.flush()


STOP_QUIET = 0.3  # seconds without a new call before a worker with streams open stops its gRPC server


async def drain_and_stop(server: grpc.aio.Server, health: HealthServicer, drain: DrainInterceptor, grace: float,
                         index: int) -> bool:
    """The shutdown order, so that no call this worker accepted is cancelled:
    1. report NOT_SERVING (health watchers and load balancers stop sending);
    2. refuse every new call with UNAVAILABLE, before any work (the published retry policy sends it again,
       and it reaches another worker once this one has closed its connections);
    3. let the unary calls in progress finish (milliseconds);
    4. with no stream open, return True: the caller ends the process, and the kernel closes its connections,
       so a call still on its way fails with UNAVAILABLE (retried elsewhere) and none is cancelled. gRPC's
       own shutdown is not used then: it cancels the calls that have reached its transport but not yet this
       code, and a client cannot tell those from calls we cancelled (3 in 1,200 at 300 calls/s).
       With streams open, first wait until no call has come for STOP_QUIET seconds (at most a quarter of
       `grace`): calls sent before the clients saw NOT_SERVING, or queued in gRPC's core behind this loop,
       reach the refusal of step 2 instead of being cancelled by the stop. Then stop the gRPC server: its
       connections get GOAWAY (new calls go to the other workers) and the streams the rest of `grace` to
       end; a call arriving in that very instant may still be cancelled by gRPC. Returns False then."""
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    log.info("worker %d draining: %d calls in flight, %.1f s grace", index, drain.in_progress, grace)
    await health.enter_graceful_shutdown()
    drain.start()
    if not await drain.wait_unary_idle(grace):
        log.warning("worker %d: %d unary calls still in progress after %.1f s", index, drain.unary_in_progress, grace)
    closing = drain.streams_open == 0
    if not closing:
        await drain.wait_quiet(STOP_QUIET, max(0.0, min(grace / 4, grace - (loop.time() - t0))))
        await server.stop(max(0.0, grace - (loop.time() - t0)))
    log.info("worker %d stopped: %d calls started, %d finished, %d refused while draining", index, drain.started,
             drain.finished, drain.refused)
    return closing


async def _watch_supervisor(stop: asyncio.Event, supervisor: int | None) -> None:
    """Once a second: stop if the supervisor has gone away (killed without a chance to drain us). The
    supervisor is not this process's parent (the fork server is), so it is watched by its pid; without
    one, the parent is watched."""
    parent = os.getppid()
    while not stop.is_set():
        if not (_alive(supervisor) if supervisor else os.getppid() == parent):
            log.warning("supervisor %d is gone; draining", supervisor or parent)
            stop.set()
            return
        await asyncio.sleep(1.0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process now has that pid: ours is gone
        return False
    return True


class EndedCallFilter(logging.Filter):
    """grpcio logs `ERROR ... ExecuteBatchError` with a traceback when it cannot send an answer because the
    call has already ended (the client's deadline passed, or it cancelled): the client's business, not a
    fault of the server. Such a record is kept at DEBUG, one line, so that ERROR lines stay faults (and
    log-based alerts stay true)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if type(exc).__name__ != "ExecuteBatchError":
            return True
        method = re.search(r"\[(/[^\]]*)\]", record.getMessage())
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        record.msg, record.args, record.exc_info, record.exc_text = (
            "%s: an answer not sent, the call had ended (deadline passed or cancelled)",
            (method.group(1) if method else "a call",), None, None)
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)  # shown only at --log-level DEBUG


def main(cfg: ServeConfig, index: int, ready: Connection | None = None, supervisor: int | None = None) -> None:
    """Worker process target: run one worker until it is told to stop (or `supervisor`, a pid, is gone)."""
    logging.basicConfig(level=cfg.log_level.upper(), format=LOG_FORMAT)
    logging.getLogger("grpc._cython.cygrpc").addFilter(EndedCallFilter())
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # until the loop handles it: Ctrl-C is the supervisor's call
    import uvloop

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(serve(cfg, index, ready, supervisor))


LOG_FORMAT = "%(asctime)s %(processName)s[%(process)d] %(levelname)s %(name)s: %(message)s"
