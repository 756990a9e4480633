"""Start a real `mjsvc web` gateway (the installed console script, from an empty directory) and call it.

The grpc-web client here reads frames with its own few lines of `struct`, not with `mjsvc.web.framing`,
so the tests do not check the gateway's framing against itself.
"""

from __future__ import annotations

import base64
import http.client
import struct
import subprocess
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mjsvc.launcher import clean_env, console_script, free_port

SERVICE = "mahjong.v1.MahjongEngine"


class WebProcess:
    def __init__(self, target: str, *args: str) -> None:
        self.port = free_port()
        self._dir = tempfile.TemporaryDirectory(prefix="mjsvc-web-")
        self._log = Path(self._dir.name) / "web.log"
        # The installed console script, from an empty working directory, in a clean environment.
        cmd = [str(console_script()), "web", "--port", str(self.port), "--target", target, *args]
        with self._log.open("w") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         cwd=self._dir.name, env=clean_env())

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self._log.read_text()

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mjsvc web exited with {self.proc.returncode}:\n{self.log()}")
            try:
                http_request(self.port, "GET", "/healthz")  # any answer: the gateway listens
                return
            except OSError:
                pass
            time.sleep(0.05)
        raise TimeoutError(f"mjsvc web not ready after {timeout} s:\n{self.log()}")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._dir.cleanup()

    def __enter__(self) -> WebProcess:
        try:
            self.wait_ready()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def http_request(port: int, method: str, path: str, body: bytes = b"",
                 headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


@dataclass
class WebAnswer:
    http_status: int
    headers: dict[str, str]
    messages: list[bytes] = field(default_factory=list)
    trailers: dict[str, str] = field(default_factory=dict)

    @property
    def status(self) -> int:
        return int(self.trailers["grpc-status"])

    @property
    def message(self) -> str:
        return urllib.parse.unquote(self.trailers.get("grpc-message", ""))

    @property
    def details(self) -> bytes | None:
        raw = self.trailers.get("grpc-status-details-bin")
        return None if raw is None else base64.b64decode(raw + "=" * (-len(raw) % 4))


def read_frames(body: bytes) -> tuple[list[bytes], dict[str, str]]:
    messages: list[bytes] = []
    trailers: dict[str, str] = {}
    pos = 0
    while pos < len(body):
        flags, length = struct.unpack(">BI", body[pos:pos + 5])
        payload = body[pos + 5:pos + 5 + length]
        assert len(payload) == length, "truncated frame in the gateway's answer"
        if flags & 0x80:
            for line in payload.decode("latin-1").split("\r\n"):
                if line:
                    k, _, v = line.partition(":")
                    trailers[k.strip().lower()] = v.strip()
        else:
            assert flags == 0
            messages.append(payload)
        pos += 5 + length
    return messages, trailers


def grpc_web_call(port: int, method: str, message: bytes, *, text: bool = False,
                  headers: dict[str, str] | None = None, path: str | None = None,
                  body: bytes | None = None) -> WebAnswer:
    if body is None:
        body = struct.pack(">BI", 0, len(message)) + message
        if text:
            body = base64.b64encode(body)
    content_type = "application/grpc-web-text+proto" if text else "application/grpc-web+proto"
    status, hdrs, raw = http_request(port, "POST", path or f"/{SERVICE}/{method}", body,
                                     {"Content-Type": content_type, "X-Grpc-Web": "1", **(headers or {})})
    answer = WebAnswer(status, hdrs)
    if status == 200:
        if text:
            assert hdrs["content-type"] == "application/grpc-web-text+proto"
            raw = base64.b64decode(raw)
        else:
            assert hdrs["content-type"] == "application/grpc-web+proto"
        answer.messages, answer.trailers = read_frames(raw)
    return answer
