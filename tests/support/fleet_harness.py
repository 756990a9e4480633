"""Three hosts on one machine, for the fleet test (tests/slow/test_fleet.py, `make test-fleet`).

Every address in 127.0.0.0/8 is this machine's loopback, so `mjsvc serve --host 127.0.0.2`, `.3` and `.4` on one
port are three hosts to a client: its round_robin policy (the published service config) opens one subchannel
per address, health-checks each, and a host's loss, drain or freeze is seen exactly as across machines (a
killed host's connections are reset by the kernel; a stopped one keeps them open and answers nothing).

Each host is the installed `mjsvc serve` (supervisor and one worker) in its own process group, so a "host
loss" is SIGKILL to the whole group and a "freeze" is SIGSTOP to the whole group.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from mjsvc import launcher
from mjsvc.loadgen.report import Stats, percentile
from mjsvc.loadgen.simulation import Config, run_async
from mjsvc.service_config import SERVICE

HOST_IPS = ("127.0.0.2", "127.0.0.3", "127.0.0.4")


class Host:
    """One `mjsvc serve --workers 1` bound to its own loopback address (its metrics too)."""

    def __init__(self, ip: str, port: int, log_dir: Path, grace: float = 3.0) -> None:
        self.ip, self.port, self.grace = ip, port, grace
        self.metrics_port = launcher.free_port()
        self.log_path = log_dir / f"{ip}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts: list[float] = []  # seconds from start to SERVING, per start

    @property
    def address(self) -> str:
        return f"{self.ip}:{self.port}"

    def start(self) -> None:
        cmd = [str(launcher.console_script()), "serve", "--host", self.ip, "--port", str(self.port),
               "--metrics-host", self.ip, "--metrics-port", str(self.metrics_port), "--workers", "1",
               "--grace", str(self.grace)]
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         env=launcher.clean_env(), cwd=tempfile.gettempdir(),
                                         start_new_session=True)  # its own process group: the "host"
        self._t_start = time.monotonic()

    def serving(self) -> bool:
        with grpc.insecure_channel(self.address) as ch:
            try:
                r = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=SERVICE), timeout=1)
            except grpc.RpcError:
                return False
        return bool(r.status == health_pb2.HealthCheckResponse.SERVING)

    def wait_serving(self, timeout: float = 120.0) -> float:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.ip}: exited with {self.proc.returncode}:\n{self.log_tail()}")
            if self.serving():
                took = time.monotonic() - self._t_start
                self.starts.append(took)
                return took
            time.sleep(0.1)
        raise TimeoutError(f"{self.ip}: not SERVING after {timeout} s:\n{self.log_tail()}")

    def signal(self, sig: signal.Signals) -> None:
        """To the whole host (supervisor, fork server, worker)."""
        assert self.proc is not None
        os.killpg(self.proc.pid, sig)

    def terminate(self, timeout: float = 30.0) -> int:
        """SIGTERM to the supervisor (a drain), wait for its exit."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.signal(signal.SIGKILL)
            self.proc.wait(10)

    def wait_refusing(self, timeout: float = 5.0) -> None:
        """Until the host's port refuses connections: every process of a killed host gone and its sockets
        closed (a few ms after the supervisor's exit)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                socket.create_connection((self.ip, self.port), timeout=0.5).close()
            except OSError:
                return
            time.sleep(0.01)
        raise TimeoutError(f"{self.ip}: still accepting connections {timeout} s after being killed")

    def close(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            self.signal(signal.SIGCONT)
            self.terminate(20)
        except (subprocess.TimeoutExpired, ProcessLookupError):
            self.kill()

    def engine_messages(self) -> float:
        """Messages the host received on the engine's service (unary calls and Play messages)."""
        try:
            found = launcher.samples(launcher.scrape_text(f"http://{self.ip}:{self.metrics_port}/metrics", 3))
        except OSError:
            return float("nan")
        return sum(v for (name, labels), v in found.items()
                   if name == "grpc_server_msg_received_total" and ("grpc_service", SERVICE) in labels)

    def refused_while_draining(self) -> int:
        """Calls the host's workers refused with UNAVAILABLE while draining, over every start (their logs)."""
        import re

        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return 0
        return sum(int(n) for n in re.findall(r"(\d+) refused while draining", text))

    def log_tail(self, n: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""


class Fleet:
    def __init__(self, log_dir: Path, ips: tuple[str, ...] = HOST_IPS) -> None:
        port = launcher.free_port()
        self.hosts = [Host(ip, port, log_dir) for ip in ips]

    @property
    def target(self) -> str:
        return "ipv4:" + ",".join(h.address for h in self.hosts)

    def start(self) -> None:
        for h in self.hosts:
            h.start()
        for h in self.hosts:
            h.wait_serving()

    def close(self) -> None:
        for h in self.hosts:
            h.close()


class TimedStats(Stats):
    """The simulator's counts, with each call's start and end (perf_counter) kept."""

    def __init__(self) -> None:
        super().__init__()
        self.spans: list[tuple[float, float]] = []

    def record(self, rpc: str, start: float, end: float) -> None:
        super().record(rpc, start, end)
        self.spans.append((start, end))


@dataclass
class Phase:
    name: str
    mode: str
    report: dict[str, Any]
    spans: list[tuple[float, float]]
    notes: list[str] = field(default_factory=list)

    @property
    def calls(self) -> int:
        return int(self.report["calls"])

    @property
    def errors(self) -> int:
        return int(self.report["error_total"])

    @property
    def p99_ms(self) -> float:
        lat = sorted(e - s for s, e in self.spans)
        return percentile(lat, 0.99) * 1e3 if lat else 0.0

    def row(self) -> str:
        errs = ", ".join(f"{k} {v}" for k, v in self.report["errors"].items()) or "0"
        lost = self.errors if self.mode == "stream" else "-"
        return (f"| {self.name} | {self.mode} | {self.calls} | {errs} | {lost} "
                f"| {self.report.get('stream_breaks', 0)} | {self.p99_ms:.1f} | {'; '.join(self.notes)} |")


TABLE_HEAD = ("| phase | mode | calls | errors | lost answers | streams reopened | p99 ms | notes |\n"
              "|---|---|---:|---|---:|---:|---:|---|")


async def load(target: str, seconds: float, *, tables: int, rate: float, seed: int = 1,
               connections: int = 4) -> tuple[tuple[dict[str, Any], TimedStats], tuple[dict[str, Any], TimedStats]]:
    """Unary tables and Play-stream tables at once, for `seconds`, each mode at `rate` calls/s in all."""
    out = []
    runs = []
    for i, mode in enumerate(("unary", "stream")):
        stats = TimedStats()
        cfg = Config(target=target, tables=tables, connections=connections, mode=mode, duration=seconds,
                     rate=rate, seed=seed + i, timeout=30.0, progress=False, connect_settle=1.5)
        runs.append(run_async(cfg, stats=stats))
        out.append(stats)
    unary, stream = await asyncio.gather(*runs)
    return (unary, out[0]), (stream, out[1])
