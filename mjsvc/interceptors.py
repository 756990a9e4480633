"""What every call of the MahjongEngine service goes through, as grpc.aio server interceptors.

Outermost first (the order `interceptors()` returns them in):
- `MetricsInterceptor`: go-grpc-prometheus counters and the latency histogram, by method and status code
  (a cancelled call is CANCELLED; a call that ends with an error is counted under that error's code);
- `ErrorInterceptor`: parses requests with our own deserializer (an undecodable body is INVALID_ARGUMENT
  with ErrorInfo, logged as one line), maps EngineError and CallError to statuses with google.rpc details,
  and an unexpected exception to INTERNAL carrying only a request id (the `x-request-id` the client sent,
  or a new one), logged with its traceback under that id; answers that are already bytes are sent as they
  are;
- `DrainInterceptor`: once the worker drains, a new call is refused with UNAVAILABLE (retryable by the
  published retry policy) before any work, and the calls in progress are counted so the drain can wait
  for them;
- `DeadlineInterceptor`: a call whose deadline has passed does no work; a batch gets its deadline to check
  between items (`CALL_DEADLINE`); a stream is ended with DEADLINE_EXCEEDED at its next message after it.

Each wraps a method's handler once (the first call) and reuses the wrapped handler after that. Handlers of
other services (health, reflection) pass through untouched.

The server runs `CallInterceptor`: the four in one wrapper (one async generator per stream instead of four),
with the same effects; the four classes are its reference (`chain()`, tests/unit/test_interceptors.py).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from google.protobuf.message import DecodeError, Message

from engine.errors import EngineError
from mjsvc import limits, metrics, wire
from mjsvc.errors import INTERNAL, OVERLOADED, STREAM_IDLE, STREAM_LIMIT, UNAVAILABLE, CallError, Failure
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Deadline, bad_request
from mjsvc.shedding import Overload
from mjsvc.tracing import Tracing

log = logging.getLogger("mjsvc.worker")

_SERVICE = pb.DESCRIPTOR.services_by_name["MahjongEngine"]
SERVICE_NAME = _SERVICE.full_name
_PREFIX = f"/{SERVICE_NAME}/"
REQUEST_ID = "x-request-id"
STREAM_END_WAIT = 0.01  # seconds

# The deadline of the call being handled (None: the client set none), for handlers that work in steps.
CALL_DEADLINE: contextvars.ContextVar[Deadline | None] = contextvars.ContextVar("call_deadline", default=None)

Handler = Any  # grpc's RpcMethodHandler namedtuple (grpc._utilities.RpcMethodHandler)


PLAY_ID_CHARS = limits.LIMITS["PlayRequest.id"]  # the most of an id an answer echoes


class Undecodable:
    """What our deserializer hands the servicer for a body it does not parse: bytes protobuf cannot parse as
    the request message, or (`limit` > 0) a body over the method's size limit, refused unparsed."""

    __slots__ = ("type_name", "size", "limit", "id")

    def __init__(self, type_name: str, size: int, limit: int = 0, id: str = "") -> None:  # noqa: A002
        self.type_name = type_name
        self.size = size
        self.limit = limit
        self.id = id  # a Play message's id, read from the refused bytes (field 1), so its answer carries it

    def failure(self) -> Failure:
        if self.limit:
            return Failure.from_engine(limits.oversized(self.size, self.limit, self.type_name))
        return bad_request(self.type_name)

    def describe(self, what: str) -> str:
        if self.limit:
            return f"{what} of {self.size} bytes refused unparsed (the limit is {self.limit})"
        return f"undecodable {what} ({self.size} bytes, not a {self.type_name})"


def deserializer(message_type: type[Message], limit: int = 0) -> Callable[[bytes], Any]:
    """Parse with protobuf; bytes it rejects become an `Undecodable`, never an exception inside gRPC (which
    would answer UNKNOWN with the exception's type name). A body over `limit` bytes (0: none) is not parsed
    at all (`mjsvc.limits` "Body sizes")."""
    parse = message_type.FromString
    name = message_type.DESCRIPTOR.name

    def deserialize(raw: bytes) -> Any:
        if limit and len(raw) > limit:
            rid = wire.string_field(raw, 1, PLAY_ID_CHARS) if name == "PlayRequest" else None
            return Undecodable(name, len(raw), limit, rid or "")
        try:
            return parse(raw)
        except (DecodeError, RuntimeError, ValueError):
            return Undecodable(name, len(raw))

    return deserialize


def serializer(serialize: Callable[[Any], bytes]) -> Callable[[Any], bytes]:
    """The generated serializer, except that answers already serialized (cached bytes) go out as they are."""

    def serialize_or_pass(response: Any) -> bytes:
        return response if type(response) is bytes else serialize(response)

    return serialize_or_pass


def request_id(context: grpc.aio.ServicerContext) -> str:
    for key, value in context.invocation_metadata() or ():
        if key == REQUEST_ID:
            return str(value)[:64]
    return uuid.uuid4().hex[:16]


def fail(context: grpc.aio.ServicerContext, failure: Failure) -> None:
    """End the call with `failure` once the handler returns: its status, message and details set on the
    context. Not `context.abort()`: the exception it raises is kept by gRPC and forms a reference cycle with
    the frames (and the request) of the call, which only the garbage collector frees (see gctune)."""
    status = failure.to_status()
    context.set_code(status.code)
    context.set_details(status.details)
    context.set_trailing_metadata(status.trailing_metadata)


class _Wrapping(grpc.aio.ServerInterceptor):
    """Wraps the handler of each MahjongEngine method once; subclasses say how."""

    def __init__(self) -> None:
        self._wrapped: dict[str, tuple[Handler, Handler]] = {}

    async def intercept_service(self, continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler]],
                                details: grpc.HandlerCallDetails) -> Handler:
        return self.wrap(details.method, await continuation(details))

    def wrap(self, method: str, handler: Handler) -> Handler:
        """`handler` of `method` ("/package.Service/Method") as this interceptor runs it: each MahjongEngine
        method wrapped once, every other service's as it is. `intercept_service` asks it on every call;
        the worker asks it once per method, when it adds the services (`mjsvc.worker.Registrar`)."""
        done = self._wrapped.get(method)
        if done is not None and done[0] is handler:
            return done[1]
        if handler is None or not method.startswith(_PREFIX):
            return handler
        name = method[len(_PREFIX):]
        if handler.unary_unary is not None:
            out = self.wrap_unary(name, handler)
        elif handler.stream_stream is not None:
            out = self.wrap_stream(name, handler)
        else:
            out = handler
        self._wrapped[method] = (handler, out)
        return out

    def wrap_unary(self, name: str, handler: Handler) -> Handler:
        return handler

    def wrap_stream(self, name: str, handler: Handler) -> Handler:
        return handler


# ---------------------------------------------------------------------------------------------


class MetricsInterceptor(_Wrapping):
    def wrap_unary(self, name: str, handler: Handler) -> Handler:
        m = metrics.MethodMetrics("unary", SERVICE_NAME, name)
        behavior = handler.unary_unary

        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            t0 = time.perf_counter()
            m.started.inc()
            m.received.inc()
            code = "OK"
            try:
                response = await behavior(request, context)
                code = _code_name(context, "OK")
                if code == "OK":
                    m.sent.inc()
                return response
            except asyncio.CancelledError:
                code = "CANCELLED"
                raise
            except BaseException:
                code = _code_name(context)
                raise
            finally:
                m.handled(code).inc()
                m.seconds.observe(time.perf_counter() - t0)
                metrics.flush()

        return handler._replace(unary_unary=unary)

    def wrap_stream(self, name: str, handler: Handler) -> Handler:
        m = metrics.MethodMetrics("bidi_stream", SERVICE_NAME, name)
        behavior = handler.stream_stream

        async def counted(requests: AsyncIterator[Any]) -> AsyncIterator[Any]:
            async for r in requests:
                m.received.inc()
                metrics.flush_if_due(time.monotonic())
                yield r

        async def stream(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            t0 = time.perf_counter()
            m.started.inc()
            metrics.open_streams.inc()
            code = "OK"
            try:
                async for response in behavior(counted(requests), context):
                    yield response
                    m.sent.inc()
                # A client's cancel reaches a stream as the end of its requests first, and as the
                # cancellation of this task a moment later: 10 ms (at the end of a stream, which lives
                # for a whole game) let it arrive, so a cancelled stream is counted CANCELLED, not OK.
                await asyncio.sleep(STREAM_END_WAIT)
                code = _code_name(context, "OK")
            except (asyncio.CancelledError, GeneratorExit):  # the client cancelled or went away
                code = "CANCELLED"
                raise
            except BaseException:
                code = _code_name(context)
                raise
            finally:
                metrics.open_streams.dec()
                m.handled(code).inc()
                m.seconds.observe(time.perf_counter() - t0)
                metrics.flush()

        return handler._replace(stream_stream=stream)


def _code_name(context: grpc.aio.ServicerContext, default: str = "UNKNOWN") -> str:
    """The status the call was given (`fail` or gRPC), CANCELLED, or `default` when none was set."""
    if context.cancelled():
        return "CANCELLED"
    code: Any = context.code()
    if isinstance(code, grpc.StatusCode):
        return code.name
    if isinstance(code, int):
        return _CODE_NAMES.get(code, default)
    return default


_CODE_NAMES = {c.value[0]: c.name for c in grpc.StatusCode}


# ---------------------------------------------------------------------------------------------


class ErrorInterceptor(_Wrapping):
    def __init__(self, body_limits: dict[str, int] | None = None) -> None:
        super().__init__()
        self._body_limits = body_limits or {}  # method name -> largest body parsed (mjsvc.limits.body_limits)

    def _codec(self, name: str, handler: Handler) -> dict[str, Any]:
        return _codec(self._body_limits, name, handler)

    def wrap_unary(self, name: str, handler: Handler) -> Handler:
        behavior = handler.unary_unary

        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            if type(request) is Undecodable:
                self._undecodable(name, request, context)
                return None
            try:
                return await behavior(request, context)
            except EngineError as err:
                fail(context, Failure.from_engine(err))
            except CallError as err:
                fail(context, err.failure)
            except (asyncio.CancelledError, grpc.aio.AbortError):
                raise
            except Exception:
                self._internal(name, context)
            return None

        return handler._replace(unary_unary=unary, **self._codec(name, handler))

    def wrap_stream(self, name: str, handler: Handler) -> Handler:
        behavior = handler.stream_stream

        async def stream(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            try:
                async for response in behavior(requests, context):
                    yield response
            except CallError as err:
                fail(context, err.failure)
            except (asyncio.CancelledError, GeneratorExit, grpc.aio.AbortError):
                raise
            except Exception:
                if context.cancelled():  # the client went away while we wrote: not our error
                    raise asyncio.CancelledError() from None
                self._internal(name, context)

        return handler._replace(stream_stream=stream, **self._codec(name, handler))

    @staticmethod
    def _undecodable(name: str, request: Undecodable, context: grpc.aio.ServicerContext) -> None:
        log.warning("request %s: %s", request_id(context), request.describe(f"{name} request"))
        fail(context, request.failure())

    @staticmethod
    def _internal(name: str, context: grpc.aio.ServicerContext, trace: str = "") -> None:
        rid = request_id(context)
        if trace:
            log.exception("request %s (trace %s): %s failed", rid, trace, name)
        else:
            log.exception("request %s: %s failed", rid, name)
        context.set_code(grpc.StatusCode.INTERNAL)
        context.set_details(f"internal error; request id {rid}")
        context.set_trailing_metadata(((REQUEST_ID, rid),))


def _codec(body_limits: dict[str, int], name: str, handler: Handler) -> dict[str, Any]:
    """Our deserializer (protobuf, Undecodable for what it rejects) and serializer (bytes pass as they are)."""
    request_type = getattr(pb, _SERVICE.methods_by_name[name].input_type.name)
    return {"request_deserializer": deserializer(request_type, body_limits.get(name, 0)),
            "response_serializer": serializer(handler.response_serializer)}


def internal_failure(rid: str) -> Failure:
    return Failure(grpc.StatusCode.INTERNAL, INTERNAL, f"internal error; request id {rid}")


# ---------------------------------------------------------------------------------------------


class DrainInterceptor(_Wrapping):
    """Counts the calls in progress; once `start()` is called, refuses new ones with UNAVAILABLE."""

    def __init__(self) -> None:
        super().__init__()
        self.draining = False
        self.unary_in_progress = 0
        self.streams_open = 0
        self.started = 0
        self.finished = 0
        self.refused = 0
        self._unary_idle = asyncio.Event()
        self._unary_idle.set()

    @property
    def in_progress(self) -> int:
        return self.unary_in_progress + self.streams_open

    def start(self) -> None:
        self.draining = True

    async def wait_unary_idle(self, timeout: float) -> bool:
        """True when no unary call is in progress (within `timeout` seconds)."""
        try:
            await asyncio.wait_for(self._unary_idle.wait(), timeout)
            return True
        except TimeoutError:
            return False

    async def wait_quiet(self, quiet: float, timeout: float) -> bool:
        """After `start()`: True once no new call has come (each one is refused) for `quiet` seconds, False
        if calls still came at `timeout`. Calls a client sent before it saw NOT_SERVING, or that wait in
        gRPC's core behind this loop, arrive in that time and are refused here, rather than being cancelled
        by a gRPC server stop that catches them between its transport and this code."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        end, last, seen = now + timeout, now, self.refused
        while True:
            if self.refused != seen:
                seen, last = self.refused, now
            elif now - last >= quiet:
                return True
            if now >= end:
                return False
            await asyncio.sleep(min(quiet / 5, max(end - now, 0.0)))
            now = loop.time()

    def _refused(self) -> CallError:
        self.refused += 1
        return CallError(Failure(grpc.StatusCode.UNAVAILABLE, UNAVAILABLE,
                                 "this worker is shutting down; retry (another worker will answer)"))

    def wrap_unary(self, name: str, handler: Handler) -> Handler:
        behavior = handler.unary_unary

        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            if self.draining:
                raise self._refused()
            self.unary_in_progress += 1
            self.started += 1
            self._unary_idle.clear()
            try:
                return await behavior(request, context)
            finally:
                self.unary_in_progress -= 1
                self.finished += 1
                if not self.unary_in_progress:
                    self._unary_idle.set()

        return handler._replace(unary_unary=unary)

    def wrap_stream(self, name: str, handler: Handler) -> Handler:
        behavior = handler.stream_stream

        async def stream(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            if self.draining:
                raise self._refused()
            self.streams_open += 1
            self.started += 1
            try:
                async for response in behavior(requests, context):
                    yield response
            finally:
                self.streams_open -= 1
                self.finished += 1

        return handler._replace(stream_stream=stream)


# ---------------------------------------------------------------------------------------------


class DeadlineInterceptor(_Wrapping):
    def wrap_unary(self, name: str, handler: Handler) -> Handler:
        behavior = handler.unary_unary

        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            remaining = context.time_remaining()
            if remaining is None:
                return await behavior(request, context)
            if remaining <= 0:
                raise Deadline.exceeded()
            token = CALL_DEADLINE.set(Deadline(remaining))
            try:
                return await behavior(request, context)
            finally:
                CALL_DEADLINE.reset(token)

        return handler._replace(unary_unary=unary)

    def wrap_stream(self, name: str, handler: Handler) -> Handler:
        behavior = handler.stream_stream

        async def checked(requests: AsyncIterator[Any], deadline: Deadline) -> AsyncIterator[Any]:
            async for r in requests:
                deadline.check()
                yield r

        async def stream(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            remaining = context.time_remaining()
            if remaining is not None:
                requests = checked(requests, Deadline(remaining))
            async for response in behavior(requests, context):
                yield response

        return handler._replace(stream_stream=stream)


# ---------------------------------------------------------------------------------------------


class IdleWatch:
    """A Play stream's idle watchdog: when its last message came, whether it waits for the next one."""

    __slots__ = ("last", "waiting", "expired", "timer")

    def __init__(self, now: float) -> None:
        self.last = now
        self.waiting = False
        self.expired = False
        self.timer: asyncio.TimerHandle | None = None


class CallInterceptor(DrainInterceptor):
    """The four above in one wrapper per method, in the same order (metrics, errors, draining, deadline) and
    with the same effects: what the server runs (`interceptors()`). Four nested async generators cost
    every Play message four more hops through the event loop on each side (docs/performance.md); here a
    message passes one. The four classes stay as the reference these are tested against
    (tests/unit/test_interceptors.py runs the same calls through both)."""

    def __init__(self, body_limits: dict[str, int] | None = None, max_streams: int = 0,
                 stream_idle: float = 0.0, tracing: Tracing | None = None,
                 overload: Overload | None = None) -> None:
        super().__init__()
        self.tracing = tracing  # OpenTelemetry spans (mjsvc.tracing), when on
        self.overload = overload  # a share of new unary calls refused while the worker is saturated (mjsvc.shedding)
        self._body_limits = body_limits or {}
        self.max_streams = max_streams  # Play streams open at once on this worker (0: no cap)
        self.stream_idle = stream_idle  # seconds a Play stream may send nothing before it is closed (0: never)

    def wrap_unary(self, name: str, handler: Handler) -> Handler:
        m = metrics.MethodMetrics("unary", SERVICE_NAME, name)
        behavior = handler.unary_unary

        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            t0 = time.perf_counter()
            m.started.inc()
            m.received.inc()
            code = "OK"
            span = None if self.tracing is None else self.tracing.start(name, request_id(context), request)
            try:
                response = None
                if type(request) is Undecodable:
                    ErrorInterceptor._undecodable(name, request, context)
                else:
                    try:
                        response = await self._admitted(behavior, request, context)
                    except EngineError as err:
                        fail(context, Failure.from_engine(err))
                    except CallError as err:
                        fail(context, err.failure)
                    except (asyncio.CancelledError, grpc.aio.AbortError):
                        raise
                    except Exception:
                        ErrorInterceptor._internal(name, context, self._trace(span))
                code = _code_name(context, "OK")
                if code == "OK":
                    m.sent.inc()
                return response
            except asyncio.CancelledError:
                code = "CANCELLED"
                raise
            except BaseException:
                code = _code_name(context)
                raise
            finally:
                m.handled(code).inc()
                m.seconds.observe(time.perf_counter() - t0)
                metrics.flush_soon()  # one write per count for a burst of calls (metrics.py)
                if span is not None:
                    Tracing.end(span, code)

        return handler._replace(unary_unary=unary, **_codec(self._body_limits, name, handler))

    @staticmethod
    def _trace(span: Any) -> str:
        return "" if span is None else Tracing.trace_id(span)

    async def _admitted(self, behavior: Callable[[Any, Any], Awaitable[Any]], request: Any,
                        context: grpc.aio.ServicerContext) -> Any:
        """Draining, shedding and deadline (DrainInterceptor, mjsvc.shedding, DeadlineInterceptor) around one
        unary call."""
        if self.draining:
            raise self._refused()
        overload = self.overload
        if overload is not None and overload.refuse():
            metrics.shed_calls.inc()
            raise CallError(Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, OVERLOADED, overload.describe()))
        self.unary_in_progress += 1
        self.started += 1
        self._unary_idle.clear()
        try:
            remaining = context.time_remaining()
            if remaining is None:
                return await behavior(request, context)
            if remaining <= 0:
                raise Deadline.exceeded()
            token = CALL_DEADLINE.set(Deadline(remaining))
            try:
                return await behavior(request, context)
            finally:
                CALL_DEADLINE.reset(token)
        finally:
            self.unary_in_progress -= 1
            self.finished += 1
            if not self.unary_in_progress:
                self._unary_idle.set()

    def wrap_stream(self, name: str, handler: Handler) -> Handler:
        m = metrics.MethodMetrics("bidi_stream", SERVICE_NAME, name)
        behavior = handler.stream_stream

        idle = self.stream_idle
        idle_failure = Failure(grpc.StatusCode.UNAVAILABLE, STREAM_IDLE,
                               f"no message on this Play stream for {idle:g} s: closed, open a new one")

        async def counted(requests: AsyncIterator[Any], deadline: Deadline | None) -> AsyncIterator[Any]:
            monotonic, flush_if_due, received = time.monotonic, metrics.flush_if_due, m.received
            if not idle:
                async for r in requests:
                    received.inc()
                    now = monotonic()
                    flush_if_due(now)
                    if deadline is not None and now >= deadline.at:
                        raise Deadline.exceeded()
                    yield r
                return
            # The idle timeout: one watchdog timer per stream, not one per message (asyncio.timeout around
            # every read would arm and cancel a timer each time). It cancels this task only while it waits
            # for a message and the last one came `idle` seconds ago or more; otherwise it re-arms.
            loop = asyncio.get_running_loop()
            task = asyncio.current_task()
            assert task is not None
            state = IdleWatch(loop.time())

            def watch() -> None:
                due = state.last + idle
                if state.waiting and loop.time() >= due:
                    state.expired = True
                    task.cancel()
                else:
                    state.timer = loop.call_at(max(due, loop.time() + idle / 8), watch)

            state.timer = loop.call_at(state.last + idle, watch)
            it = requests.__aiter__()
            try:
                while True:
                    state.waiting = True
                    try:
                        r = await it.__anext__()
                    except StopAsyncIteration:
                        return
                    except asyncio.CancelledError:
                        if state.expired and task.uncancel() == 0:
                            raise CallError(idle_failure) from None
                        raise
                    state.waiting = False
                    state.last = loop.time()
                    received.inc()
                    now = monotonic()
                    flush_if_due(now)
                    if deadline is not None and now >= deadline.at:
                        raise Deadline.exceeded()
                    yield r
            finally:
                if state.timer is not None:
                    state.timer.cancel()

        async def stream(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            t0 = time.perf_counter()
            m.started.inc()
            metrics.flush()  # a stream is counted as started when it opens
            metrics.open_streams.inc()
            code = "OK"
            span = None if self.tracing is None else self.tracing.start(name, request_id(context))
            try:
                try:
                    if self.draining:
                        raise self._refused()
                    if self.max_streams and self.streams_open >= self.max_streams:
                        raise CallError(Failure(
                            grpc.StatusCode.RESOURCE_EXHAUSTED, STREAM_LIMIT,
                            f"{self.max_streams} Play streams are open on this worker: try again later or on "
                            "another connection"))
                    self.streams_open += 1
                    self.started += 1
                    try:
                        remaining = context.time_remaining()
                        deadline = Deadline(remaining) if remaining is not None else None
                        async for response in behavior(counted(requests, deadline), context):
                            yield response
                            m.sent.inc()
                    finally:
                        self.streams_open -= 1
                        self.finished += 1
                except CallError as err:
                    fail(context, err.failure)
                except (asyncio.CancelledError, GeneratorExit, grpc.aio.AbortError):
                    raise
                except Exception:
                    if context.cancelled():  # the client went away while we wrote: not our error
                        raise asyncio.CancelledError() from None
                    ErrorInterceptor._internal(name, context, self._trace(span))
                # As MetricsInterceptor: let a client's cancel arrive, so it is counted CANCELLED, not OK.
                await asyncio.sleep(STREAM_END_WAIT)
                code = _code_name(context, "OK")
            except (asyncio.CancelledError, GeneratorExit):
                code = "CANCELLED"
                raise
            except BaseException:
                code = _code_name(context)
                raise
            finally:
                metrics.open_streams.dec()
                m.handled(code).inc()
                m.seconds.observe(time.perf_counter() - t0)
                metrics.flush()
                if span is not None:
                    Tracing.end(span, code)

        return handler._replace(stream_stream=stream, **_codec(self._body_limits, name, handler))


def chain(body_limits: dict[str, int] | None = None
          ) -> tuple[MetricsInterceptor, ErrorInterceptor, DrainInterceptor, DeadlineInterceptor]:
    """The four interceptors, outermost first (grpc.aio.server(interceptors=...) runs them in this order):
    the reference `CallInterceptor` is held to."""
    return MetricsInterceptor(), ErrorInterceptor(body_limits), DrainInterceptor(), DeadlineInterceptor()


def interceptors(body_limits: dict[str, int] | None = None, max_streams: int = 0,
                 stream_idle: float = 0.0, tracing: Tracing | None = None,
                 overload: Overload | None = None) -> tuple[CallInterceptor]:
    """What the server runs: one `CallInterceptor`; `body_limits`: method name -> the largest body parsed
    (`mjsvc.limits.body_limits`); `max_streams`, `stream_idle`: the Play streams' cap and idle timeout;
    `overload`: the worker's load, by which a share of new unary calls is refused."""
    return (CallInterceptor(body_limits, max_streams, stream_idle, tracing, overload),)
