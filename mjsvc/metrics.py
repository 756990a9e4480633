"""Prometheus metrics of the service, shared by the supervisor and its workers (multiprocess mode).

Import this module only after PROMETHEUS_MULTIPROC_DIR is set: prometheus_client picks its
file-backed value class when metrics are created. Each worker writes its own files in that directory;
the supervisor merges them all into one /metrics scrape. Counters and histograms of a dead worker stay
in the sum; its "live" gauges are dropped by `mark_process_dead`.

gRPC metrics follow go-grpc-prometheus names and labels (grpc_type, grpc_service, grpc_method, and
grpc_code as the Go status names: OK, InvalidArgument, ResourceExhausted, ...).
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import platform
from bisect import bisect_left
from importlib import metadata
from importlib.machinery import EXTENSION_SUFFIXES

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client import multiprocess as _mp

# 25 µs to 1 s, roughly 1-2.5-5 per decade: the engine and the gRPC floor live in the first buckets.
LATENCY_BUCKETS: tuple[float, ...] = (
    25e-6, 50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 50e-3, 100e-3, 250e-3, 500e-3, 1.0,
)

GRPC_LABELS = ("grpc_type", "grpc_service", "grpc_method")

# Go's status code names, which dashboards built for go-grpc-prometheus filter on.
GO_CODE_NAMES: dict[str, str] = {
    "OK": "OK", "CANCELLED": "Canceled", "UNKNOWN": "Unknown", "INVALID_ARGUMENT": "InvalidArgument",
    "DEADLINE_EXCEEDED": "DeadlineExceeded", "NOT_FOUND": "NotFound", "ALREADY_EXISTS": "AlreadyExists",
    "PERMISSION_DENIED": "PermissionDenied", "RESOURCE_EXHAUSTED": "ResourceExhausted",
    "FAILED_PRECONDITION": "FailedPrecondition", "ABORTED": "Aborted", "OUT_OF_RANGE": "OutOfRange",
    "UNIMPLEMENTED": "Unimplemented", "INTERNAL": "Internal", "UNAVAILABLE": "Unavailable",
    "DATA_LOSS": "DataLoss", "UNAUTHENTICATED": "Unauthenticated",
}

started = Counter("grpc_server_started_total", "RPCs started on the server.", GRPC_LABELS)
handled = Counter("grpc_server_handled_total", "RPCs completed on the server, by status code.",
                  (*GRPC_LABELS, "grpc_code"))
msg_received = Counter("grpc_server_msg_received_total", "Messages received on RPCs.", GRPC_LABELS)
msg_sent = Counter("grpc_server_msg_sent_total", "Messages sent on RPCs.", GRPC_LABELS)
handling_seconds = Histogram("grpc_server_handling_seconds",
                             "Time from the start of an RPC to its completion, in seconds.", GRPC_LABELS,
                             buckets=LATENCY_BUCKETS)

engine_seconds = Histogram("mjsvc_engine_seconds",
                           "Engine time per call that missed the cache, by rule set and operation.",
                           ("rule_set", "operation"), buckets=LATENCY_BUCKETS)
cache_hits = Counter("mjsvc_cache_hits_total", "Response cache look-ups answered from the cache, by method.",
                     ("operation",))
cache_misses = Counter("mjsvc_cache_misses_total", "Response cache look-ups that found no answer, by method.",
                       ("operation",))
cache_entries = Gauge("mjsvc_cache_entries", "Entries in the workers' response caches.", multiprocess_mode="livesum")
cache_bytes = Gauge("mjsvc_cache_bytes", "Bytes (keys, answers and per-entry overhead) in the workers' response "
                    "caches.", multiprocess_mode="livesum")
cache_evictions = Counter("mjsvc_cache_evictions_total", "Entries evicted from the response caches to stay within "
                          "their entry and byte bounds.")
worker_busy = Gauge("mjsvc_worker_busy_ratio", "Fraction of the last 0.1 s the busiest worker's event loop thread "
                    "was on the CPU (with --shed-above: mjsvc.shedding).", multiprocess_mode="livemax")
shed_share = Gauge("mjsvc_shed_share", "Share of new unary calls the most loaded worker refuses now (--shed-above).",
                   multiprocess_mode="livemax")
shed_calls = Counter("mjsvc_shed_calls_total", "Unary calls refused at once because their worker was saturated "
                     "(--shed-above).")
open_streams = Gauge("mjsvc_open_streams", "Play streams open now.", multiprocess_mode="livesum")
worker_restarts = Counter("mjsvc_worker_restarts_total", "Workers that died and were replaced.")
workers_ready = Gauge("mjsvc_workers_ready", "Workers up and serving.", multiprocess_mode="livemax")
workers_configured = Gauge("mjsvc_workers_configured", "Workers the supervisor keeps running.",
                           multiprocess_mode="livemax")
build_info = Gauge("mjsvc_build_info", "Build information; the value is 1.",
                   ("version", "python", "grpcio", "protobuf", "engine"), multiprocess_mode="max")


def report_load(busy: float, share: float) -> None:
    worker_busy.set(busy)
    shed_share.set(share)


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"


def engine_form() -> str:
    """"compiled" when the engine's hot modules will load compiled, "source" when it runs
    from its Python source (not built, or MJSVC_PURE_PYTHON=1). Found without importing the module."""
    spec = importlib.util.find_spec("engine.shapes")  # its package __init__ is light; scoring's is not
    origin = spec.origin if spec is not None else None
    return "compiled" if origin and origin.endswith(tuple(EXTENSION_SUFFIXES)) else "source"


def set_build_info() -> None:
    build_info.labels(_version("mjsvc"), platform.python_version(), _version("grpcio"),
                      _version("protobuf"), engine_form()).set(1)


def merged_registry() -> CollectorRegistry:
    """A registry that reads every process's metric files at scrape time."""
    registry = CollectorRegistry()
    _mp.MultiProcessCollector(registry)
    return registry


def mark_process_dead(pid: int) -> None:
    _mp.mark_process_dead(pid, os.environ["PROMETHEUS_MULTIPROC_DIR"])


# -- Counts held in memory between writes ----------------------------------------------------------
# In multiprocess mode every `Counter.inc` takes a lock and writes the shared file (about 1 µs; a histogram
# observation two of them), which made six writes, 6.4 µs, of every unary call. The counts of every call
# and Play message (calls started and handled, messages received and sent, cache hits, misses and
# evictions) are held in a `Tally`, the latency and engine-time observations in a `HeldHistogram`, and the
# cache's size in a `HeldGauge`, and written by `flush()`: FLUSH_DELAY
# after a unary call ends (one write per count for all the calls in between), at the end of every stream,
# and from inside a stream at most every FLUSH_EVERY seconds, so a scrape is at most that far behind.

FLUSH_EVERY = 0.1  # seconds
FLUSH_DELAY = 0.005  # seconds
_dirty: list[Tally | HeldHistogram | HeldGauge] = []
_flushed_at = [0.0]
_flush_loop: list[asyncio.AbstractEventLoop | None] = [None]  # the loop a delayed flush is due on


class Tally:
    """Increments of one counter child, kept here until `flush()` writes them."""

    __slots__ = ("child", "n")

    def __init__(self, child: Counter) -> None:
        self.child = child
        self.n = 0

    def inc(self, amount: int = 1) -> None:
        if not self.n:
            _dirty.append(self)
        self.n += amount

    def write(self) -> None:
        n, self.n = self.n, 0
        if n:
            self.child.inc(n)


class HeldGauge:
    """The last value set on a gauge, kept here until `flush()` writes it (once, however often it was set)."""

    __slots__ = ("child", "value", "held")

    def __init__(self, child: Gauge) -> None:
        self.child = child
        self.value = 0.0
        self.held = False

    def set(self, value: float) -> None:
        if not self.held:
            _dirty.append(self)
            self.held = True
        self.value = value

    def write(self) -> None:
        if self.held:
            self.held = False
            self.child.set(self.value)


class HeldHistogram:
    """Observations of one histogram child, counted per bucket here until `flush()` writes them: one write
    per bucket that got observations, and one for the sum, as `Histogram.observe` would have made for each
    (prometheus-client 0.26: the bucket of a value is the first upper bound not below it; the buckets are
    stored uncumulated). tests/unit/test_service_fast_paths.py holds the exposition to direct observation."""

    __slots__ = ("child", "bounds", "counts", "total", "n")

    def __init__(self, child: Histogram) -> None:
        self.child = child
        self.bounds: tuple[float, ...] = tuple(child._upper_bounds)
        self.counts = [0] * len(self.bounds)
        self.total = 0.0
        self.n = 0

    def observe(self, value: float) -> None:
        if not self.n:
            _dirty.append(self)
        self.n += 1
        self.total += value
        self.counts[bisect_left(self.bounds, value)] += 1

    def write(self) -> None:
        if not self.n:
            return
        buckets = self.child._buckets
        for i, c in enumerate(self.counts):
            if c:
                buckets[i].inc(c)
                self.counts[i] = 0
        self.child._sum.inc(self.total)
        self.total = 0.0
        self.n = 0


def flush() -> None:
    """Write every held count and observation."""
    while _dirty:
        _dirty.pop().write()


def flush_soon() -> None:
    """`flush()` FLUSH_DELAY from now on the running loop, unless one is due already: the end of a unary
    call, so that a burst of calls writes each count once."""
    loop = asyncio.get_running_loop()
    if _flush_loop[0] is not loop:  # none due (or due on a loop that has ended before it ran)
        _flush_loop[0] = loop
        loop.call_later(FLUSH_DELAY, _delayed_flush)


def _delayed_flush() -> None:
    _flush_loop[0] = None
    flush()


def flush_if_due(now: float) -> None:
    """`flush()` when the last one was FLUSH_EVERY seconds or more before `now` (time.monotonic())."""
    if now - _flushed_at[0] >= FLUSH_EVERY:
        _flushed_at[0] = now
        flush()


class MethodMetrics:
    """The children of one RPC method, bound once so a call costs no label look-ups."""

    __slots__ = ("labels", "started", "received", "sent", "seconds", "_handled")

    def __init__(self, grpc_type: str, service: str, method: str) -> None:
        self.labels = (grpc_type, service, method)
        self.started = Tally(started.labels(*self.labels))
        self.received = Tally(msg_received.labels(*self.labels))
        self.sent = Tally(msg_sent.labels(*self.labels))
        self.seconds = HeldHistogram(handling_seconds.labels(*self.labels))
        self._handled: dict[str, Tally] = {}

    def handled(self, code: str) -> Tally:
        """The handled count for a status code name (grpc.StatusCode.name)."""
        child = self._handled.get(code)
        if child is None:
            child = self._handled[code] = Tally(handled.labels(*self.labels, GO_CODE_NAMES.get(code, code)))
        return child


class EngineObserver:
    """The service's `Observer`: engine time and cache use into the metrics above, held in memory until
    `flush()` like the per-call counts (a call that reaches the engine writes no file)."""

    def __init__(self) -> None:
        self._engine: dict[tuple[str, str], HeldHistogram] = {}
        self._entries = HeldGauge(cache_entries)
        self._bytes = HeldGauge(cache_bytes)
        self._evictions = Tally(cache_evictions)

    def engine_time(self, rule_set: str, operation: str, seconds: float) -> None:
        held = self._engine.get((rule_set, operation))
        if held is None:
            held = self._engine[(rule_set, operation)] = HeldHistogram(engine_seconds.labels(rule_set, operation))
        held.observe(seconds)

    def cache_size(self, entries: int, size_bytes: int) -> None:
        self._entries.set(entries)
        self._bytes.set(size_bytes)

    def cache_evicted(self, entries: int) -> None:
        self._evictions.inc(entries)

    def cache_counters(self, operation: str) -> tuple[Tally, Tally]:
        label = operation.lower()
        return Tally(cache_hits.labels(label)), Tally(cache_misses.labels(label))
