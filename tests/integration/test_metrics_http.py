"""The supervisor's /metrics endpoint under idle connections (issue finding: prometheus_client's server
kept a thread per idle connection, 500 connections 502 threads): the threads stay bounded, /metrics still
answers once the idle ones time out, and connections over the cap are closed at once."""

from __future__ import annotations

import contextlib
import socket
import time
import urllib.request
from pathlib import Path

import pytest
from server_harness import ServerProcess

from mjsvc import metrics_http

pytestmark = pytest.mark.integration


def threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    raise AssertionError("no Threads line")


def test_idle_connections_do_not_pile_up_threads() -> None:
    with ServerProcess(workers=1) as srv:
        pid = srv.proc.pid
        before = threads(pid)
        idle = [socket.create_connection(("127.0.0.1", srv.metrics_port)) for _ in range(200)]
        try:
            time.sleep(0.5)
            during = threads(pid)
            assert during <= before + metrics_http.MAX_CONNECTIONS + 2, (before, during)
            closed = 0
            for s in idle:
                s.settimeout(5)
                with contextlib.suppress(TimeoutError):  # still open: one of the slots
                    closed += s.recv(1) == b""
            assert closed >= 200 - metrics_http.MAX_CONNECTIONS  # over the cap: closed at once, no thread
            time.sleep(metrics_http.IDLE_TIMEOUT + 1)  # the idle ones in the slots are dropped
            assert threads(pid) <= before + 1
            with urllib.request.urlopen(srv.metrics_url, timeout=10) as r:
                assert b"mjsvc_build_info" in r.read()
        finally:
            for s in idle:
                s.close()
