"""Just enough HTTP/1.1 for the gateway: read one request with explicit limits, write one response.

Requests: a request line, headers (at most `max_header_bytes` in all), and a body given by Content-Length
or chunked transfer coding, at most `max_body_bytes`. Anything else is an `HttpError` with the status to
answer and the connection is closed after it. Responses always carry Content-Length (unary calls are
answered whole), so keep-alive works without chunking.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

_DIGITS = re.compile(r"[0-9]{1,15}")  # str.isdigit() also takes "²" and other digits int() refuses
_HEX = re.compile(rb"[0-9A-Fa-f]{1,15}")  # a chunk size: hex digits only (int(..., 16) takes "-1", "+1", "0x1")
_VALUE = re.compile(r"[\t\x20-\x7e]*")  # header values are forwarded as gRPC metadata: printable ASCII


class HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class ConnectionDone(Exception):
    """The client closed the connection between requests (not an error)."""


@dataclass
class Request:
    method: str
    target: str
    version: str
    headers: dict[str, str]
    body: bytes = b""

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]

    @property
    def keep_alive(self) -> bool:
        conn = self.headers.get("connection", "").lower()
        if self.version == "HTTP/1.0":
            return "keep-alive" in conn
        return "close" not in conn


@dataclass
class Response:
    status: int
    body: bytes = b""
    headers: list[tuple[str, str]] = field(default_factory=list)

    def encode(self, keep_alive: bool, head_only: bool = False) -> bytes:
        reason = HTTPStatus(self.status).phrase
        lines = [f"HTTP/1.1 {self.status} {reason}", *(f"{k}: {v}" for k, v in self.headers),
                 f"Content-Length: {len(self.body)}", f"Connection: {'keep-alive' if keep_alive else 'close'}"]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        return head if head_only else head + self.body


def _parse_head(raw: bytes) -> tuple[str, str, str, dict[str, str]]:
    try:
        text = raw.decode("latin-1")
    except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes every byte
        raise HttpError(400, "undecodable request head") from None
    request_line, *header_lines = text.split("\r\n")
    parts = request_line.split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        raise HttpError(400, f"bad request line {request_line[:80]!r}")
    method, target, version = parts
    if not target.startswith("/"):
        raise HttpError(400, "request target must be a path")
    headers: dict[str, str] = {}
    for line in header_lines:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not name or name != name.strip():
            raise HttpError(400, f"bad header line {line[:80]!r}")
        key = name.lower()
        value = value.strip()
        if not _VALUE.fullmatch(value):
            raise HttpError(400, f"header {key[:40]!r}: a value of printable ASCII only")
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    return method, target, version, headers


async def read_request(reader: asyncio.StreamReader, max_header_bytes: int, max_body_bytes: int,
                       idle_timeout: float, body_timeout: float, body_gate: asyncio.Semaphore | None = None
                       ) -> Request:
    """One request. `body_gate`: bodies read at once across connections (a connection waits for a slot, its
    bytes left in the socket, within `body_timeout`), so that the memory of bodies being read is bounded."""
    try:
        raw = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), idle_timeout)
    except asyncio.IncompleteReadError as e:
        if not e.partial.strip():
            raise ConnectionDone from None
        raise HttpError(400, "connection closed inside the request head") from None
    except asyncio.LimitOverrunError:
        raise HttpError(431, f"request head over {max_header_bytes} bytes") from None
    except TimeoutError:
        raise ConnectionDone from None
    if len(raw) > max_header_bytes:
        raise HttpError(431, f"request head over {max_header_bytes} bytes")
    method, target, version, headers = _parse_head(raw[:-4])
    try:
        body = await asyncio.wait_for(_gated(_read_body(reader, headers, max_body_bytes), body_gate, headers),
                                      body_timeout)
    except TimeoutError:
        raise HttpError(408, f"request body not received within {body_timeout:g} s") from None
    except asyncio.IncompleteReadError:
        raise HttpError(400, "connection closed inside the request body") from None
    return Request(method, target, version, headers, body)


async def _gated(read: Any, gate: asyncio.Semaphore | None, headers: dict[str, str]) -> bytes:
    if gate is None or not (headers.get("transfer-encoding") or headers.get("content-length", "0") != "0"):
        return await read  # no body: no slot needed (/healthz, GET)
    async with gate:
        return await read


async def _read_body(reader: asyncio.StreamReader, headers: dict[str, str], limit: int) -> bytes:
    coding = headers.get("transfer-encoding", "").lower()
    if coding:
        if coding != "chunked":
            raise HttpError(501, f"transfer-encoding {coding!r} is not supported")
        return await _read_chunked(reader, limit)
    length_text = headers.get("content-length", "0")
    if not _DIGITS.fullmatch(length_text):
        raise HttpError(400, f"bad content-length {length_text[:20]!r}")
    length = int(length_text)
    if length > limit:
        raise HttpError(413, f"request body of {length} bytes, more than the limit of {limit}")
    return await reader.readexactly(length) if length else b""


async def _read_chunked(reader: asyncio.StreamReader, limit: int) -> bytes:
    parts: list[bytes] = []
    total = 0
    while True:
        try:
            size_line = await reader.readuntil(b"\r\n")
        except asyncio.LimitOverrunError:
            raise HttpError(400, "chunk size line too long") from None
        size_text = size_line.split(b";", 1)[0].strip()
        if not _HEX.fullmatch(size_text):
            raise HttpError(400, "bad chunk size")
        size = int(size_text, 16)
        if size == 0:
            try:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailer fields, ignored
                    pass
            except asyncio.LimitOverrunError:
                raise HttpError(400, "trailer line too long") from None
            return b"".join(parts)
        total += size
        if total > limit:
            raise HttpError(413, f"request body over the limit of {limit} bytes")
        parts.append(await reader.readexactly(size))
        if await reader.readexactly(2) != b"\r\n":
            raise HttpError(400, "chunk not followed by CRLF")
