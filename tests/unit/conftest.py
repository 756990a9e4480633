"""tests/unit: the engine and the service in process. A test here that starts a process or opens a network
connection fails (`make test-unit` stays fast and runs anywhere); such a test belongs in tests/integration."""

import socket
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest


class NotAUnitTest(AssertionError):
    pass


def _refuse(what: str) -> Any:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise NotAUnitTest(f"a unit test may not {what}: move it to tests/integration")
    return refuse


@pytest.fixture(autouse=True)
def _no_processes_no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(subprocess.Popen, "__init__", _refuse("start a process"))
    monkeypatch.setattr(socket.socket, "connect", _refuse("open a network connection"))
    monkeypatch.setattr(socket.socket, "bind", _refuse("listen on a port"))
    yield
