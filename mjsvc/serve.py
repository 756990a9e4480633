"""`mjsvc serve`: the supervisor of a pool of gRPC worker processes.

The supervisor never imports gRPC (gRPC's threads and a fork do not mix). The workers are forked from
a fork server that has imported and warmed the engine and the service once (`mjsvc.preload`), so they
share those pages and a replacement starts at once. It checks the port is free, wipes the metrics
directory, starts the workers, serves
the merged Prometheus metrics of all of them, restarts a worker that dies (logging it) and on
SIGTERM / SIGINT drains the pool: every worker stops taking calls, finishes those in flight within
the grace period and exits, then the supervisor exits.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import multiprocessing
import os
import shutil
import signal
import socket
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from mjsvc import config, suit_tables
from mjsvc.config import ServeConfig

HELP = "run the gRPC service: a supervisor and one worker process per core"
LOG_FORMAT = "%(asctime)s %(processName)s[%(process)d] %(levelname)s %(name)s: %(message)s"

log = logging.getLogger("mjsvc.serve")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    config.add_arguments(parser)


@dataclass
class Slot:
    """One worker position: the process now filling it and what is known about it."""

    index: int
    process: BaseProcess
    ready_conn: Connection | None
    started: float
    ready: bool = False
    quick_deaths: int = 0  # consecutive deaths soon after start, for restart back-off
    restart_at: float | None = None


class Supervisor:
    def __init__(self, cfg: ServeConfig, metrics: Any) -> None:
        self.cfg = cfg
        self.metrics = metrics
        # Workers are forked from a fork server that has imported and warmed `mjsvc.preload` once (see
        # there): they share those pages, and a replacement is ready without importing anything.
        self.ctx = multiprocessing.get_context("forkserver")
        self.ctx.set_forkserver_preload(["mjsvc.preload"])
        self.slots: list[Slot] = []
        self.stopping = False
        self.announced = False  # "serving ..." logged: once, when every worker is first ready
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)

    # -- workers ------------------------------------------------------------------------------

    def _spawn(self, index: int) -> tuple[BaseProcess, Connection]:
        reader, writer = self.ctx.Pipe(duplex=False)
        p = self.ctx.Process(target=_worker_main, args=(self.cfg, index, writer, os.getpid()),
                             name=f"mjsvc-worker-{index}", daemon=False)
        p.start()
        writer.close()  # ours; the worker keeps its copy, so the reader sees EOF if the worker dies
        return p, reader

    def start_worker(self, index: int, previous: Slot | None = None) -> Slot:
        p, conn = self._spawn(index)
        slot = Slot(index, p, conn, time.monotonic(),
                    quick_deaths=previous.quick_deaths if previous else 0)
        log.info("worker %d started (pid %d)", index, p.pid)
        return slot

    def _update_ready(self) -> None:
        self.metrics.workers_ready.set(sum(1 for s in self.slots if s.ready and s.process.is_alive()))

    def _on_ready(self, slot: Slot) -> None:
        assert slot.ready_conn is not None
        try:
            _, pid, warm = slot.ready_conn.recv()
        except (EOFError, OSError):
            pid, warm = None, False
        slot.ready_conn.close()
        slot.ready_conn = None
        if pid is None:
            return  # died before it was ready; its sentinel says so next
        slot.ready = True
        log.info("worker %d (pid %d) ready in %.2f s%s", slot.index, pid, time.monotonic() - slot.started,
                 "" if warm else " but NOT_SERVING: the engine failed to warm up")
        self._update_ready()
        if not self.announced and all(s.ready for s in self.slots):
            self.announced = True  # what an operator (or a script) waits for: every worker takes calls now
            log.info("serving mahjong.v1.MahjongEngine on %s:%d: all %d workers ready", self.cfg.host, self.cfg.port,
                     len(self.slots))

    def _on_death(self, slot: Slot) -> None:
        p = slot.process
        p.join()
        code = p.exitcode
        how = f"killed by {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit code {code}"
        lived = time.monotonic() - slot.started
        if slot.ready_conn is not None:
            slot.ready_conn.close()
            slot.ready_conn = None
        slot.ready = False
        self.metrics.mark_process_dead(p.pid)
        self._update_ready()
        if self.stopping:
            return
        self.metrics.worker_restarts.inc()
        slot.quick_deaths = slot.quick_deaths + 1 if lived < 5.0 else 0
        # A worker that keeps dying at start (bad TLS file, port taken) is retried ever more slowly.
        delay = 0.0 if slot.quick_deaths <= 1 else min(30.0, 0.25 * 2 ** (slot.quick_deaths - 2))
        log.warning("worker %d (pid %d) died after %.1f s: %s; restarting%s", slot.index, p.pid, lived, how,
                    f" in {delay:.1f} s" if delay else "")
        slot.restart_at = time.monotonic() + delay

    # -- main loop ----------------------------------------------------------------------------

    def _signal(self, signum: int, frame: Any) -> None:
        if not self.stopping:
            self.stopping = True
            with contextlib.suppress(BlockingIOError):
                os.write(self._wake_w, b"x")

    def run(self) -> int:
        signal.signal(signal.SIGTERM, self._signal)
        signal.signal(signal.SIGINT, self._signal)
        n = self.cfg.n_workers
        self.metrics.workers_configured.set(n)
        self.metrics.workers_ready.set(0)
        self.slots = [self.start_worker(i) for i in range(n)]
        while not self.stopping:
            waitables: list[Any] = [self._wake_r]
            for s in self.slots:
                if s.restart_at is None:
                    waitables.append(s.process.sentinel)
                    if s.ready_conn is not None:
                        waitables.append(s.ready_conn)
            pending = [s.restart_at for s in self.slots if s.restart_at is not None]
            timeout = max(0.0, min(pending) - time.monotonic()) if pending else 5.0
            fired = set(wait(waitables, timeout))
            for s in self.slots:
                if s.restart_at is None and s.ready_conn is not None and s.ready_conn in fired:
                    self._on_ready(s)
            for s in self.slots:
                if s.restart_at is None and s.process.sentinel in fired:
                    self._on_death(s)
            now = time.monotonic()
            for i, s in enumerate(self.slots):
                if s.restart_at is not None and s.restart_at <= now and not self.stopping:
                    self.slots[i] = self.start_worker(s.index, s)
        return self.drain()

    def drain(self) -> int:
        cfg = self.cfg
        alive = [s for s in self.slots if s.restart_at is None and s.process.is_alive()]
        log.info("draining %d workers (grace %.1f s)", len(alive), cfg.grace)
        for s in alive:
            with contextlib.suppress(ProcessLookupError):
                os.kill(s.process.pid, signal.SIGTERM)  # type: ignore[arg-type]
        deadline = time.monotonic() + cfg.grace + 5.0  # the workers' grace, plus time to exit
        for s in alive:
            s.process.join(max(0.0, deadline - time.monotonic()))
            if s.process.is_alive():
                log.error("worker %d (pid %d) did not stop in time; killing it", s.index, s.process.pid)
                s.process.kill()
                s.process.join()
            self.metrics.mark_process_dead(s.process.pid)
        self.metrics.workers_ready.set(0)
        log.info("stopped")
        return 0


def _worker_main(cfg: ServeConfig, index: int, ready: Connection, supervisor: int) -> None:
    """Worker process target (forked from the fork server). grpc is imported only in the fork server and the
    workers, never in the supervisor."""
    from mjsvc import worker

    worker.main(cfg, index, ready, supervisor)


def check_port_free(host: str, port: int) -> None:
    """Refuse to start on a port someone listens on: with SO_REUSEPORT the workers would silently
    share it with another server of the same user."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host.strip("[]"), port))
        except OSError as err:
            raise SystemExit(f"cannot serve on {host}:{port}: {err.strerror}") from None


# glibc's allocator settings for the workers (read when a process starts, so set here and inherited): one
# arena for every thread, and blocks of 128 KiB or more mapped and unmapped as they come and go. Without
# them, the buffers gRPC's threads receive large bodies into (even bodies refused by their size, unparsed)
# are freed into per-thread arenas that keep them: a worker grew 75 -> 85 MB after 150 Analyze calls with
# 1 MB bodies, against 75 -> 76 MB with these settings (150 normal calls: 75 -> 75.5 MB either way).
WORKER_MALLOC = {"MALLOC_ARENA_MAX": "1", "MALLOC_MMAP_THRESHOLD_": "131072"}


def prepare_metrics_dir(path: str) -> tuple[str, bool]:
    """The multiprocess metrics directory, emptied. Returns (path, whether we created it)."""
    if not path:
        return tempfile.mkdtemp(prefix="mjsvc-metrics-"), True
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        if name.endswith(".db"):
            os.remove(os.path.join(path, name))
    return path, False


def run(args: argparse.Namespace) -> int:
    cfg = config.from_args(args)
    logging.basicConfig(level=cfg.log_level.upper(), format=LOG_FORMAT)
    check_port_free(cfg.host, cfg.port)
    suit_tables.prepare()  # before the workers start: they map the file it names
    try:
        metrics_dir, created = prepare_metrics_dir(cfg.metrics_dir)
    except OSError as err:
        raise SystemExit(f"--metrics-dir {cfg.metrics_dir}: cannot be used as the metrics directory: "
                         f"{err.strerror}") from None
    # Set before prometheus_client is imported here and inherited by the spawned workers.
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    for name, value in WORKER_MALLOC.items():  # an operator's own values win
        os.environ.setdefault(name, value)
    from mjsvc import metrics, metrics_http

    metrics.set_build_info()
    http = None
    if cfg.metrics_port:
        try:
            http = metrics_http.start(cfg.metrics_port, cfg.metrics_host, metrics.merged_registry())
        except OSError as err:
            raise SystemExit(f"cannot serve metrics on {cfg.metrics_host}:{cfg.metrics_port}: {err.strerror}") from None
        log.info("metrics on http://%s:%d/metrics", cfg.metrics_host, cfg.metrics_port)
    log.info("starting mahjong.v1.MahjongEngine on %s:%d with %d workers%s", cfg.host, cfg.port, cfg.n_workers,
             " over TLS" if cfg.tls_cert else "")
    try:
        return Supervisor(cfg, metrics).run()
    finally:
        if http is not None:
            http.shutdown()
        if created:
            shutil.rmtree(metrics_dir, ignore_errors=True)
