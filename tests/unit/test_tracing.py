"""OpenTelemetry spans per call (mjsvc/tracing.py) through the server's interceptor, with the SDK's in-memory
exporter: one span per unary call and per Play stream, named for the method, with the request id and the rule
set as attributes and the status; the log line of a call that failed inside the server names the trace id."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from test_interceptors import Context, _wrapped

from mjsvc import interceptors as icp
from mjsvc import tracing
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb


@pytest.fixture
def spans() -> tuple[InMemorySpanExporter, tracing.Tracing]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return exporter, tracing.Tracing(provider.get_tracer("test"))


def test_a_span_per_call_with_request_id_and_rule_set(spans: tuple[InMemorySpanExporter, tracing.Tracing]) -> None:
    exporter, tr = spans

    async def run() -> None:
        handler = await _wrapped(icp.interceptors(tracing=tr), "ok", "Evaluate")
        await handler.unary_unary(pb.EvaluateRequest(rule_set="riichi"), Context())
        bad = await _wrapped(icp.interceptors(tracing=tr), "engine", "Evaluate")
        await bad.unary_unary(pb.EvaluateRequest(), Context())
        stream = await _wrapped(icp.interceptors(tracing=tr), "ok", "Play")

        async def requests() -> AsyncIterator[Any]:
            yield pb.PlayRequest(id="a")

        assert [a async for a in stream.stream_stream(requests(), Context())] == [b"answer-a"]

    asyncio.run(run())
    got = exporter.get_finished_spans()
    assert [s.name for s in got] == ["mahjong.v1.MahjongEngine/Evaluate"] * 2 + ["mahjong.v1.MahjongEngine/Play"]
    ok, bad, play = (dict(s.attributes or {}) for s in got)
    assert ok == {"rpc.system": "grpc", "rpc.service": "mahjong.v1.MahjongEngine", "rpc.method": "Evaluate",
                  "mjsvc.request_id": "req-1", "mjsvc.rule_set": "riichi", "rpc.grpc.status_code": "OK"}
    assert bad["mjsvc.rule_set"] == "mcr" and bad["rpc.grpc.status_code"] == "INVALID_ARGUMENT"
    assert not got[1].status.is_ok
    assert play["rpc.method"] == "Play" and "mjsvc.rule_set" not in play


def test_a_failed_call_logs_its_trace_id(spans: tuple[InMemorySpanExporter, tracing.Tracing],
                                         caplog: pytest.LogCaptureFixture) -> None:
    exporter, tr = spans

    async def run() -> None:
        handler = await _wrapped(icp.interceptors(tracing=tr), "crash", "Evaluate")
        await handler.unary_unary(pb.EvaluateRequest(), Context())

    with caplog.at_level(logging.ERROR, logger="mjsvc.worker"):
        asyncio.run(run())
    (span,) = exporter.get_finished_spans()
    trace = format(span.context.trace_id, "032x")
    assert f"request req-1 (trace {trace}): Evaluate failed" in caplog.text


def test_off_without_the_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(tracing.ENDPOINT, raising=False)
    assert tracing.from_environment() is None
    monkeypatch.setenv(tracing.ENDPOINT, "http://127.0.0.1:4317")
    on = tracing.from_environment()
    assert isinstance(on, tracing.Tracing)

