"""The one interceptor the server runs (`CallInterceptor`) has the effects of the four it replaces
(`interceptors.chain()`: metrics, errors, draining, deadline), call for call: the same answers, the same
status code, details and trailing metadata (google.rpc details), the same metrics counted, and the same
draining bookkeeping, on unary calls and Play streams that succeed, fail with an engine error, a call error,
an undecodable body, a passed deadline, an unexpected exception, or arrive while the worker drains."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
import pytest

from engine.errors import BadTileError
from mjsvc import interceptors as icp
from mjsvc import metrics
from mjsvc.errors import CallError, Failure
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

SERVICE = icp.SERVICE_NAME


class Context:
    """What the interceptors use of a grpc.aio.ServicerContext, recording what they set."""

    def __init__(self, remaining: float | None = None) -> None:
        self.remaining = remaining
        self.status: list[Any] = []

    def time_remaining(self) -> float | None:
        return self.remaining

    def cancelled(self) -> bool:
        return False

    def code(self) -> Any:
        return self.status[0] if self.status else None

    def set_code(self, code: Any) -> None:
        self.status[:1] = [code]

    def set_details(self, details: str) -> None:
        self.status.append(("details", details))

    def set_trailing_metadata(self, md: Any) -> None:
        self.status.append(("trailing", tuple(md)))

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return ((icp.REQUEST_ID, "req-1"),)


class Details:
    def __init__(self, method: str) -> None:
        self.method = f"/{SERVICE}/{method}"
        self.invocation_metadata = ()


def _behaviour(kind: str) -> tuple[Callable[..., Awaitable[Any]], Callable[..., AsyncIterator[Any]]]:
    async def unary(request: Any, context: Any) -> Any:
        if kind == "engine":
            raise BadTileError("hand.concealed[0]: 99 is not a Tile value", "hand.concealed[0]")
        if kind == "call":
            raise CallError(Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, "BATCH_TOO_LARGE", "requests: too many",
                                    "requests"))
        if kind == "crash":
            raise RuntimeError("bug")
        return b"answer"

    async def stream(requests: AsyncIterator[Any], context: Any) -> AsyncIterator[Any]:
        async for r in requests:
            if kind == "crash":
                raise RuntimeError("bug")
            if kind == "call":
                raise CallError(Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, "RATE_LIMITED", "slow down"))
            yield b"answer-" + r.id.encode()

    return unary, stream


def _handler(kind: str) -> Any:
    unary, stream = _behaviour(kind)
    return grpc.method_handlers_generic_handler(SERVICE, {
        "Evaluate": grpc.unary_unary_rpc_method_handler(unary, request_deserializer=pb.EvaluateRequest.FromString,
                                                        response_serializer=pb.EvaluateResponse.SerializeToString),
        "Play": grpc.stream_stream_rpc_method_handler(stream, request_deserializer=pb.PlayRequest.FromString,
                                                      response_serializer=pb.PlayResponse.SerializeToString)})


async def _wrapped(chain: tuple[Any, ...], kind: str, method: str) -> Any:
    plain = _handler(kind)

    async def bottom(d: Any) -> Any:
        return plain.service(d)

    def link(i: Any, inner: Callable[[Any], Any]) -> Callable[[Any], Any]:
        return lambda d: i.intercept_service(inner, d)

    cont: Callable[[Any], Any] = bottom
    for i in reversed(chain):
        cont = link(i, cont)
    return await cont(Details(method))


def _counts(method: str, grpc_type: str) -> dict[str, float]:
    labels = (grpc_type, SERVICE, method)
    out = {name: c.labels(*labels)._value.get() for name, c in (
        ("started", metrics.started), ("received", metrics.msg_received), ("sent", metrics.msg_sent))}
    for code in ("OK", "InvalidArgument", "ResourceExhausted", "Internal", "Unavailable", "DeadlineExceeded"):
        out[code] = metrics.handled.labels(*labels, code)._value.get()
    out["observed"] = sum(b.get() for b in metrics.handling_seconds.labels(*labels)._buckets)
    return out


def _delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {k: after[k] - before[k] for k in before}


async def _run(chain: tuple[Any, ...], kind: str, method: str, draining: bool, remaining: float | None,
               request: Any) -> tuple[Any, ...]:
    drain = next(i for i in chain if isinstance(i, icp.DrainInterceptor))
    drain.draining = draining
    handler = await _wrapped(chain, kind, method)
    ctx = Context(remaining)
    grpc_type = "unary" if method == "Evaluate" else "bidi_stream"
    before = _counts(method, grpc_type)
    if method == "Evaluate":
        parsed = handler.request_deserializer(request)
        answers: Any = await handler.unary_unary(parsed, ctx)
        await asyncio.sleep(4 * metrics.FLUSH_DELAY)  # a unary call's counts are written that soon after it
    else:
        async def requests() -> AsyncIterator[Any]:
            for raw in request:
                yield handler.request_deserializer(raw)
        answers = [a async for a in handler.stream_stream(requests(), ctx)]
    serialized = [handler.response_serializer(a) for a in answers] if isinstance(answers, list) else answers
    return (serialized, ctx.status, _delta(before, _counts(method, grpc_type)),
            (drain.started, drain.finished, drain.refused, drain.in_progress))


GOOD_EVALUATE = pb.EvaluateRequest(rule_set="mcr").SerializeToString()
PLAY = [pb.PlayRequest(id=str(i)).SerializeToString() for i in range(3)]


@pytest.mark.parametrize("kind", ["ok", "engine", "call", "crash"])
@pytest.mark.parametrize("method", ["Evaluate", "Play"])
@pytest.mark.parametrize(("draining", "remaining"), [(False, None), (False, 30.0), (False, -1.0), (True, None)])
def test_one_interceptor_does_what_the_four_did(kind: str, method: str, draining: bool,
                                                remaining: float | None) -> None:
    if method == "Play" and kind == "engine":  # the servicer answers engine errors in the message
        kind = "ok"
    request = GOOD_EVALUATE if method == "Evaluate" else PLAY
    icp.STREAM_END_WAIT = 0.0
    try:
        four = asyncio.run(_run(icp.chain(), kind, method, draining, remaining, request))
        one = asyncio.run(_run(icp.interceptors(), kind, method, draining, remaining, request))
    finally:
        icp.STREAM_END_WAIT = 0.01
    assert one == four
    assert four[2]["started"] == 1  # the call was counted (the comparison is not of two empty records)


def test_undecodable_bodies_are_refused_alike() -> None:
    async def run(chain: tuple[Any, ...]) -> tuple[Any, ...]:
        handler = await _wrapped(chain, "ok", "Evaluate")
        ctx = Context()
        out = await handler.unary_unary(handler.request_deserializer(b"\xff\xff\xff"), ctx)
        return out, ctx.status

    one, four = asyncio.run(run(icp.interceptors())), asyncio.run(run(icp.chain()))
    assert one == four and four[1][0] == grpc.StatusCode.INVALID_ARGUMENT


def test_a_draining_worker_waits_for_calls_to_stop_coming() -> None:
    """`wait_quiet` (run before a worker with streams open stops its gRPC server): it returns once no call
    has come for `quiet` seconds, the quiet counted from the last call refused, and gives up (False) at its
    timeout while calls keep coming."""
    quiet = 0.1

    async def scenario(calls_for: float, timeout: float) -> tuple[bool, float, float]:
        drain = icp.CallInterceptor()
        drain.start()
        loop = asyncio.get_running_loop()
        last = [loop.time()]

        async def calls() -> None:
            end = loop.time() + calls_for
            while loop.time() < end:
                with pytest.raises(CallError) as refused:
                    raise drain._refused()
                assert refused.value.failure.code == grpc.StatusCode.UNAVAILABLE
                last[0] = loop.time()
                await asyncio.sleep(quiet / 4)

        caller = asyncio.create_task(calls())
        t0 = loop.time()
        done = await drain.wait_quiet(quiet, timeout)
        returned = loop.time()
        caller.cancel()
        return done, returned - last[0], returned - t0

    done, since_last, _ = asyncio.run(scenario(0.3, 5.0))
    assert done and since_last >= quiet
    done, _, took = asyncio.run(scenario(5.0, 0.3))
    assert not done and took < 5.0
    done, since_last, _ = asyncio.run(scenario(0.0, 5.0))
    assert done and since_last >= quiet
