"""Start a real `mjsvc serve` as a subprocess on free ports, for the integration tests."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import installed
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    def __init__(self, *args: str, workers: int = 2, grace: float = 5.0, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.metrics_port = free_port()
        self.workers = workers
        self.address = f"127.0.0.1:{self.port}"
        self._log = tempfile.NamedTemporaryFile("w+", prefix="mjsvc-serve-", suffix=".log", delete=False)  # noqa: SIM115
        # The installed console script, from an empty working directory, in a clean environment.
        cmd = [installed.script("mjsvc"), "serve", "--port", str(self.port), "--metrics-port",
               str(self.metrics_port), "--workers", str(workers), "--grace", str(grace), *args]
        self.proc = installed.popen(cmd, stdout=self._log, stderr=subprocess.STDOUT, env=env)

    # -- observing ----------------------------------------------------------------------------

    def log(self) -> str:
        return Path(self._log.name).read_text()

    def scrape(self, timeout: float = 5.0) -> str:
        url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.read().decode()

    def metrics(self) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        """Every sample of the merged scrape: (name, sorted labels) -> value."""
        out: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
        for family in text_string_to_metric_families(self.scrape()):
            for s in family.samples:
                out[(s.name, tuple(sorted(s.labels.items())))] = s.value
        return out

    def metric(self, name: str, **labels: str) -> float:
        """Sum of the samples called `name` whose labels include `labels`."""
        total = 0.0
        for (n, ls), v in self.metrics().items():
            if n == name and set(labels.items()) <= set(ls):
                total += v
        return total

    def ready_workers(self) -> dict[int, int]:
        """worker index -> pid of its latest ready process, from the supervisor's log."""
        out: dict[int, int] = {}
        for m in re.finditer(r"worker (\d+) \(pid (\d+)\) ready", self.log()):
            out[int(m.group(1))] = int(m.group(2))
        return out

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mjsvc serve exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if self.metric("mjsvc_workers_ready") == self.workers:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise TimeoutError(f"server not ready after {timeout} s:\n{self.log()}")

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
        try:
            if self.proc.poll() is None:
                self.terminate()
        finally:
            self._log.close()
            os.unlink(self._log.name)

    def __enter__(self) -> ServerProcess:
        try:
            self.wait_ready()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
