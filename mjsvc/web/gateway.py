"""The grpc-web gateway: HTTP/1.1 in, each call forwarded as raw bytes to the gRPC server, and the playground.

`POST /mahjong.v1.MahjongEngine/<Method>` with a grpc-web content type is one unary call: the request
message goes to the gRPC server unchanged over one loopback channel (identity serializers, so the gateway
never parses or re-encodes a message), and the answer, the status code, its message and every piece of
trailing metadata (`grpc-status-details-bin` with google.rpc ErrorInfo and BadRequest among it) come back
unchanged in grpc-web framing. A browser therefore sees exactly what a gRPC client sees.

Other paths: `GET /` and the files of the playground directory, `GET /healthz` (the gRPC server's health
check). Cross-origin calls are refused unless their origin is configured (`--cors-origin`).
"""

from __future__ import annotations

import asyncio
import base64
import logging
import mimetypes
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1.health_pb2 import HealthCheckRequest, HealthCheckResponse

from mjsvc import limits
from mjsvc.errors import BAD_REQUEST, Failure
from mjsvc.web import framing
from mjsvc.web.http1 import ConnectionDone, HttpError, Request, Response, read_request

log = logging.getLogger("mjsvc.web")

SERVICE = "mahjong.v1.MahjongEngine"
HEALTH_CHECK = "/grpc.health.v1.Health/Check"
# grpc-web carries unary and server-streaming calls only; Play is bidirectional and stays gRPC-only.
UNARY_METHODS = ("Evaluate", "Analyze", "ListFans", "EvaluateBatch", "Legal", "Settle")
FORWARDED_PATHS = frozenset([f"/{SERVICE}/{m}" for m in UNARY_METHODS] + [HEALTH_CHECK])

# Request headers that belong to HTTP, the browser or grpc-web itself, never forwarded as metadata.
_NOT_METADATA = frozenset({
    "accept", "accept-encoding", "accept-language", "cache-control", "connection", "content-length",
    "content-type", "cookie", "dnt", "grpc-accept-encoding", "grpc-encoding", "grpc-timeout", "host",
    "keep-alive", "origin", "pragma", "priority", "referer", "te", "trailer", "transfer-encoding", "upgrade",
    "user-agent", "x-grpc-web", "x-user-agent", "connect-protocol-version", "authorization",
})
_METADATA_KEY = re.compile(r"^[0-9a-z_.-]+$")
_TIMEOUT = re.compile(r"^(\d{1,8})([HMSmun])$")
_TIMEOUT_UNITS = {"H": 3600.0, "M": 60.0, "S": 1.0, "m": 1e-3, "u": 1e-6, "n": 1e-9}
_STATIC_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
EXPOSED_HEADERS = "grpc-status, grpc-message, grpc-status-details-bin"
ALLOWED_HEADERS = "content-type, x-grpc-web, x-user-agent, grpc-timeout, x-request-id"


Metadata = Sequence[tuple[str, str | bytes]]


@dataclass(frozen=True, slots=True)
class CallResult:
    """One call's outcome as the grpc-web answer carries it."""

    status: int  # gRPC status code number
    status_message: str
    initial: Metadata  # -> HTTP response headers
    message: bytes | None  # the response message; None when the call failed
    trailing: Metadata  # -> the trailer frame, grpc-status-details-bin included


@dataclass(frozen=True)
class WebConfig:
    host: str = "127.0.0.1"
    port: int = 8080
    target: str = "127.0.0.1:50051"
    cors_origins: tuple[str, ...] = ()  # "*" allows every origin
    playground: str = ""  # directory of the built page; "" serves no page
    max_message_bytes: int = 4 * 1024 * 1024
    max_header_bytes: int = 16 * 1024
    deadline: float = 30.0  # seconds, for calls that name none (and the cap for those that do)
    idle_timeout: float = 15.0  # a keep-alive connection idle, or a request head not yet complete (slow clients)
    max_connections: int = 1000
    max_body_reads: int = 32  # request bodies read at once over all connections (their memory is bounded)


def parse_timeout(value: str) -> float | None:
    """grpc-timeout (`<digits><unit>`) in seconds; None when malformed."""
    m = _TIMEOUT.match(value.strip())
    return int(m.group(1)) * _TIMEOUT_UNITS[m.group(2)] if m else None


class Gateway:
    def __init__(self, cfg: WebConfig) -> None:
        self.cfg = cfg
        self._channel: grpc.aio.Channel | None = None
        self._server: asyncio.AbstractServer | None = None
        self._connections = 0
        self._writers: set[asyncio.StreamWriter] = set()
        # Connections waiting for (the rest of) a request, and since when: at the connection cap, the one
        # waiting longest is closed to let a new one in, so slow or idle clients cannot lock others out.
        self._waiting: dict[asyncio.StreamWriter, float] = {}
        self._playground = Path(cfg.playground).resolve() if cfg.playground else None
        self._body_gate = asyncio.Semaphore(cfg.max_body_reads)
        # A body is at most what the gRPC server would accept (its receive limit for its default batch size,
        # mjsvc.limits), base64 in text mode (4/3) plus the frame header.
        self._max_body = min(cfg.max_message_bytes, limits.receive_limit(1000, cfg.max_message_bytes)) * 4 // 3 + 64

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> int:
        limit = self.cfg.max_message_bytes + 1024
        self._channel = grpc.aio.insecure_channel(self.cfg.target, options=[
            ("grpc.max_send_message_length", limit), ("grpc.max_receive_message_length", limit),
            # a gRPC server started after the gateway, or restarted, is reached within 2 s (gRPC's
            # default backoff grows to 120 s, answering UNAVAILABLE all that time)
            ("grpc.initial_reconnect_backoff_ms", 200), ("grpc.min_reconnect_backoff_ms", 200),
            ("grpc.max_reconnect_backoff_ms", 2000)])
        self._server = await asyncio.start_server(self._connection, self.cfg.host, self.cfg.port,
                                                  limit=self.cfg.max_header_bytes)
        port = int(self._server.sockets[0].getsockname()[1])
        return port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            for writer in list(self._writers):  # idle keep-alive connections would hold wait_closed()
                writer.close()
            await self._server.wait_closed()
        if self._channel is not None:
            await self._channel.close()

    # -- one connection -------------------------------------------------------------------------

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._connections += 1
        self._writers.add(writer)
        try:
            if self._connections > self.cfg.max_connections and not self._evict_stalled():
                writer.write(Response(503, b"too many connections\n", [("Content-Type", "text/plain")])
                             .encode(keep_alive=False))
                await writer.drain()
                return
            loop = asyncio.get_running_loop()
            while True:
                self._waiting[writer] = loop.time()
                try:
                    # A text-mode body is base64: 4/3 of the message plus the frame header.
                    request = await read_request(reader, self.cfg.max_header_bytes, self._max_body,
                                                 self.cfg.idle_timeout, self.cfg.idle_timeout, self._body_gate)
                except ConnectionDone:
                    return
                except HttpError as e:
                    writer.write(_plain(e.status, e.message).encode(keep_alive=False))
                    await writer.drain()
                    return
                finally:
                    self._waiting.pop(writer, None)
                try:
                    response = await self.handle(request)
                except Exception:  # a bug of ours: answer it, keep serving others
                    log.exception("%s %s failed", request.method, request.path)
                    response = _plain(500, "internal error of the gateway (logged)")
                keep = request.keep_alive
                writer.write(response.encode(keep_alive=keep, head_only=request.method == "HEAD"))
                await writer.drain()
                if not keep:
                    return
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            # Shutting down. Ending normally: Python 3.11's stream callback logs a cancelled handler as an error.
            pass
        finally:
            self._connections -= 1
            self._writers.discard(writer)
            self._waiting.pop(writer, None)
            writer.close()

    def _evict_stalled(self) -> bool:
        """Close the connection that has waited longest for a request (a slow head or body, or an idle
        keep-alive), to make room for a new one; False when every connection has a request in hand."""
        if not self._waiting:
            return False
        oldest = min(self._waiting, key=self._waiting.__getitem__)
        del self._waiting[oldest]
        oldest.transport.abort()  # its reader ends; its handler's `finally` frees the slot
        return True

    async def handle(self, request: Request) -> Response:
        origin = request.headers.get("origin")
        allowed = self._origin_allowed(origin, request.headers.get("host", ""))
        if not allowed:
            return _plain(403, f"origin {origin} is not allowed (see --cors-origin)")
        cors = self._cors_headers(origin) if origin is not None else []
        if request.method == "OPTIONS":
            return Response(204, b"", [*cors, ("Access-Control-Allow-Methods", "POST, GET, OPTIONS"),
                                       ("Access-Control-Allow-Headers", ALLOWED_HEADERS),
                                       ("Access-Control-Max-Age", "600")])
        path = request.path
        if request.method == "POST" and path.count("/") == 2:
            response = await self._call(request)
        elif request.method in ("GET", "HEAD"):
            response = await self._get(path)
        else:
            response = _plain(405, f"{request.method} {path}: not supported")
        response.headers.extend(cors)
        return response

    def _origin_allowed(self, origin: str | None, host: str) -> bool:
        if origin is None or origin in (f"http://{host}", f"https://{host}"):
            return True  # same origin (or not a browser)
        return "*" in self.cfg.cors_origins or origin in self.cfg.cors_origins

    def _cors_headers(self, origin: str) -> list[tuple[str, str]]:
        if not self.cfg.cors_origins:
            return []
        return [("Access-Control-Allow-Origin", origin), ("Access-Control-Expose-Headers", EXPOSED_HEADERS),
                ("Vary", "Origin")]

    # -- grpc-web calls -------------------------------------------------------------------------

    async def _call(self, request: Request) -> Response:
        content_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if content_type in framing.BINARY_TYPES:
            text = False
        elif content_type in framing.TEXT_TYPES:
            text = True
        else:
            return _plain(415, f"content-type {content_type!r}: expected application/grpc-web(+proto) or "
                               "application/grpc-web-text(+proto)")
        try:
            result = await self._forward(request, text)
        except _GatewayFailure as f:
            result = f.result
        body = b"" if result.message is None else framing.encode_frame(result.message)
        body += framing.encode_trailers(result.status, result.status_message, result.trailing)
        headers = [("Content-Type", framing.TEXT_RESPONSE_TYPE if text else framing.BINARY_RESPONSE_TYPE)]
        for key, value in result.initial:
            if _METADATA_KEY.match(key):
                headers.append((key, framing.header_value(key, value)))
        return Response(200, framing.encode_text(body) if text else body, headers)

    async def _forward(self, request: Request, text: bool) -> CallResult:
        path = request.path
        if path not in FORWARDED_PATHS:
            method = path.rsplit("/", 1)[-1]
            why = ("Play is a bidirectional stream, which grpc-web cannot carry: use gRPC"
                   if path == f"/{SERVICE}/Play" else f"method {path} is not served over grpc-web")
            raise _GatewayFailure(grpc.StatusCode.UNIMPLEMENTED, "UNIMPLEMENTED", why, method)
        try:
            raw = framing.decode_text(request.body) if text else request.body
            frames = framing.decode_frames(raw, self.cfg.max_message_bytes)
        except framing.FrameError as e:
            raise _GatewayFailure(grpc.StatusCode.INVALID_ARGUMENT, BAD_REQUEST, str(e)) from None
        data = [f for f in frames if f.flags != framing.TRAILER]
        if any(f.flags & framing.COMPRESSED for f in data):
            raise _GatewayFailure(grpc.StatusCode.UNIMPLEMENTED, BAD_REQUEST,
                                  "compressed grpc-web messages are not supported (send grpc-encoding identity)")
        if len(data) != 1 or data[0].flags != framing.DATA:
            raise _GatewayFailure(grpc.StatusCode.INVALID_ARGUMENT, BAD_REQUEST,
                                  f"a unary call takes exactly one message, this request has {len(data)}")
        timeout = self.cfg.deadline
        if "grpc-timeout" in request.headers:
            asked = parse_timeout(request.headers["grpc-timeout"])
            if asked is None:
                raise _GatewayFailure(grpc.StatusCode.INVALID_ARGUMENT, BAD_REQUEST,
                                      f"bad grpc-timeout {request.headers['grpc-timeout'][:20]!r}")
            timeout = min(asked, timeout)
        assert self._channel is not None
        forward: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = self._channel.unary_unary(path)  # bytes in, out
        call: grpc.aio.UnaryUnaryCall[bytes, bytes] = forward(data[0].payload, timeout=timeout,
                                                              metadata=_metadata(request))
        try:
            answer = await call
            return CallResult(grpc.StatusCode.OK.value[0], "", tuple(await call.initial_metadata() or ()), answer,
                              tuple(await call.trailing_metadata() or ()))
        except grpc.aio.AioRpcError as e:
            return CallResult(e.code().value[0], e.details() or "", tuple(e.initial_metadata() or ()), None,
                              tuple(e.trailing_metadata() or ()))


    # -- GET: health and the playground ---------------------------------------------------------

    async def _get(self, path: str) -> Response:
        if path == "/healthz":
            return await self._health()
        if self._playground is None:
            return _plain(404, "no playground page configured (mjsvc web --playground DIR)")
        name = "index.html" if path == "/" else path[1:]
        if not _STATIC_NAME.match(name):
            return _plain(404, f"{path}: not found")
        file = self._playground / name
        if not file.is_file():
            hint = " (build it: make web)" if name == "index.html" else ""
            return _plain(404, f"{path}: not found{hint}")
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "image/svg+xml"):
            kind += "; charset=utf-8"
        return Response(200, file.read_bytes(), [
            ("Content-Type", kind), ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'"),
        ])

    async def _health(self) -> Response:
        """200 when the gRPC server's health check says SERVING, 503 with what it said otherwise."""
        assert self._channel is not None
        check = self._channel.unary_unary(HEALTH_CHECK, request_serializer=HealthCheckRequest.SerializeToString,
                                          response_deserializer=HealthCheckResponse.FromString)
        try:
            answer = await check(HealthCheckRequest(), timeout=5)
        except grpc.aio.AioRpcError as e:
            return _plain(503, f"gRPC server {self.cfg.target}: {e.code().name} {e.details() or ''}".strip())
        status = HealthCheckResponse.ServingStatus.Name(answer.status)
        return _plain(200 if answer.status == HealthCheckResponse.SERVING else 503, status)


def _metadata(request: Request) -> tuple[tuple[str, str | bytes], ...]:
    out: list[tuple[str, str | bytes]] = []
    for key, value in request.headers.items():
        if key in _NOT_METADATA or key.startswith(("sec-", "access-control-", "grpc-")) \
                or not _METADATA_KEY.match(key):
            continue
        if key.endswith("-bin"):
            try:  # base64, its padding optional (gRPC's HTTP/2 protocol)
                out.append((key, base64.b64decode(value + "=" * (-len(value) % 4), validate=True)))
            except ValueError:  # refused, as gRPC refuses it, not dropped
                raise _GatewayFailure(grpc.StatusCode.INVALID_ARGUMENT, BAD_REQUEST,
                                      f"header {key[:40]!r}: a -bin value is base64", key[:40]) from None
        elif "\t" in value:  # HTTP allows a tab inside a value; gRPC metadata (0x20-0x7E) does not
            raise _GatewayFailure(grpc.StatusCode.INVALID_ARGUMENT, BAD_REQUEST,
                                  f"header {key[:40]!r}: a tab cannot be sent as gRPC metadata", key[:40])
        else:
            out.append((key, value))
    return tuple(out)


class _GatewayFailure(Exception):
    """A call the gateway answers itself, in the same form the server gives its errors."""

    def __init__(self, code: grpc.StatusCode, reason: str, message: str, field: str = "") -> None:
        super().__init__(message)
        status = Failure(code, reason, message, field).to_status()
        self.result = CallResult(status.code.value[0], status.details, (), None, tuple(status.trailing_metadata))


def _plain(status: int, text: str) -> Response:
    return Response(status, (text + "\n").encode(), [("Content-Type", "text/plain; charset=utf-8")])
