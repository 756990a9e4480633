"""Start a fresh `mjsvc serve` the way a user does, for the tests, the benchmarks and `mjsvc loadgen
--spawn-server`: the installed `mjsvc` console script (next to this interpreter), run from a new temporary
directory with a clean environment, on free loopback ports; wait until every worker serves; stop it with
SIGTERM. The one server launcher of the project.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# What the server process inherits from ours (what a user's shell has, and the engine form chosen for the
# run); everything else is left behind: no PYTHONPATH pointing into the repository.
_PASSED_ON = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TERM", "USER", "MJSVC_PURE_PYTHON")


_handed_out: set[int] = set()


def _ephemeral_low() -> int:
    """The lowest port the kernel gives an outgoing connection (Linux: 32768 unless configured)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    """A loopback port free now and outside the kernel's ephemeral range, never handed out twice in one process.

    A port the kernel picked for `bind(0)` lies in the ephemeral range, where any outgoing connection made
    before the server binds it may take it as its local port (seen once in CI: `Address already in use`)."""
    low, high = 12000, _ephemeral_low() - 1
    for _ in range(200):
        port = random.randint(low, high) if high - low > 1000 else 0
        if port in _handed_out:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            port = int(s.getsockname()[1])
        _handed_out.add(port)
        return port
    raise OSError("no free loopback port found")


def console_script() -> Path:
    """The installed `mjsvc` entry point of the environment this interpreter belongs to."""
    return Path(sys.executable).parent / "mjsvc"


def clean_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: os.environ[k] for k in _PASSED_ON if k in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.update(extra or {})
    return env


def scrape_text(metrics_url: str, timeout: float = 5.0) -> str:
    with urllib.request.urlopen(metrics_url, timeout=timeout) as r:
        return str(r.read().decode())


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus text scrape: (name, sorted labels) -> value."""
    from prometheus_client.parser import text_string_to_metric_families

    out: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def scrape_value(metrics_url: str, name: str) -> float | None:
    """Sum of one metric's samples on a Prometheus text endpoint (None when absent)."""
    found = [v for (n, _), v in samples(scrape_text(metrics_url)).items() if n == name]
    return sum(found) if found else None


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (children, their children, ...), from /proc; empty once it is gone."""
    out: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            kids = [int(x) for x in Path(f"/proc/{p}/task/{p}/children").read_text().split()]
        except OSError:
            continue
        out += kids
        todo += kids
    return out


def worker_pids(supervisor: int) -> list[int]:
    """The worker processes of a running `mjsvc serve`: the processes below it except multiprocessing's
    helpers, the resource tracker and the fork server (a child of the supervisor; the workers are its
    children and keep its command line)."""
    names = (b"multiprocessing.resource_tracker", b"multiprocessing.forkserver")
    out = []
    for pid in descendants(supervisor):
        cmd = _cmdline(pid)
        if cmd and not (_parent(pid) == supervisor and any(name in cmd for name in names)):
            out.append(pid)
    return sorted(out)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0


class ServerProcess:
    """A running `mjsvc serve` (start it with `with ServerProcess(...) as srv:`)."""

    def __init__(self, *args: str, workers: int = 2, grace: float = 5.0, env: dict[str, str] | None = None,
                 log_dir: Path | None = None) -> None:
        if "--service-class" in args or "MJSVC_SERVICE_CLASS" in (env or {}):
            # a stand-in service (bench.doubles) lives in the checkout, not in the installed packages
            env = {"PYTHONPATH": str(Path(__file__).resolve().parents[1]), **(env or {})}
        self.port = free_port()
        self.metrics_port = free_port()
        self.workers = workers
        self.address = self.target = f"127.0.0.1:{self.port}"
        self.metrics_url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        self.cwd = Path(tempfile.mkdtemp(prefix="mjsvc-serve-"))
        self.log_path = (log_dir or self.cwd) / "server.log"
        cmd = [str(console_script()), "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--metrics-host", "127.0.0.1", "--metrics-port", str(self.metrics_port), "--workers", str(workers),
               "--grace", str(grace), *args]
        with open(self.log_path, "wb") as log:
            self.proc = self.process = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                                        stdin=subprocess.DEVNULL, env=clean_env(env), cwd=self.cwd)

    # -- observing ----------------------------------------------------------------------------

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def log_tail(self, n: int = 40) -> str:
        return "\n".join(self.log().splitlines()[-n:])

    def scrape(self, timeout: float = 5.0) -> str:
        return scrape_text(self.metrics_url, timeout)

    def metrics(self) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        from mjsvc.metrics import FLUSH_DELAY

        time.sleep(4 * FLUSH_DELAY)  # a worker writes a unary call's counts FLUSH_DELAY after the call ends
        return samples(self.scrape())

    def metric(self, name: str, **labels: str) -> float:
        """Sum of the samples called `name` whose labels include `labels`."""
        want = set(labels.items())
        return sum(v for (n, ls), v in self.metrics().items() if n == name and want <= set(ls))

    def ready_workers(self) -> dict[int, int]:
        """worker index -> pid of its latest ready process, from the supervisor's log."""
        return {int(m.group(1)): int(m.group(2)) for m in re.finditer(r"worker (\d+) \(pid (\d+)\) ready", self.log())}

    def wait_ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mjsvc serve exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                if self.metric("mjsvc_workers_ready") == self.workers:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise TimeoutError(f"server not ready after {timeout} s:\n{self.log_tail()}")

    # -- stopping -----------------------------------------------------------------------------

    def terminate(self, timeout: float = 30.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise

    def close(self) -> None:
        if self.proc.poll() is None:
            self.terminate()

    def __enter__(self) -> ServerProcess:
        try:
            self.wait_ready()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


@contextlib.contextmanager
def local_server(workers: int = 2, extra_args: tuple[str, ...] = (), startup_timeout: float = 90.0,
                 log_dir: Path | None = None, env: dict[str, str] | None = None) -> Iterator[ServerProcess]:
    """`ServerProcess` as a context manager with the load test's arguments."""
    server = ServerProcess(*extra_args, workers=workers, grace=10.0, env=env, log_dir=log_dir)
    try:
        server.wait_ready(startup_timeout)
    except (RuntimeError, TimeoutError, OSError) as e:
        server.close()
        raise RuntimeError(str(e)) from None
    try:
        yield server
    finally:
        server.close()
