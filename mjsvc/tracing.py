"""OpenTelemetry spans for a fleet: one span per call (per Play stream), optional.

On when `OTEL_EXPORTER_OTLP_ENDPOINT` is set and the extra is installed (`pip install mjsvc[otel]`): each
worker exports its spans over OTLP (the SDK's standard environment variables configure the exporter:
endpoint, headers, protocol). A span is named after the method (`mahjong.v1.MahjongEngine/Evaluate`) and
carries `rpc.system`, `rpc.service`, `rpc.method`, `rpc.grpc.status_code` (the status name), the call's
request id (`mjsvc.request_id`, the id the error answers and logs carry) and the request's rule set
(`mjsvc.rule_set`). The log line of a call that failed inside the server names its trace id. Without the
variable, or without the packages, nothing is imported and a call costs nothing more.
"""

from __future__ import annotations

import logging
import os
from typing import Any

log = logging.getLogger("mjsvc.tracing")

ENDPOINT = "OTEL_EXPORTER_OTLP_ENDPOINT"
SERVICE = "mahjong.v1.MahjongEngine"


class Tracing:
    """Starts and ends the spans of calls on one OpenTelemetry tracer."""

    def __init__(self, tracer: Any) -> None:
        from opentelemetry.trace import SpanKind

        self._tracer = tracer
        self._kind = SpanKind.SERVER

    def start(self, method: str, request_id: str, request: Any = None) -> Any:
        attributes = {"rpc.system": "grpc", "rpc.service": SERVICE, "rpc.method": method,
                      "mjsvc.request_id": request_id}
        rule_set = _rule_set(request)
        if rule_set is not None:
            attributes["mjsvc.rule_set"] = rule_set
        return self._tracer.start_span(f"{SERVICE}/{method}", kind=self._kind, attributes=attributes)

    @staticmethod
    def end(span: Any, code: str) -> None:
        span.set_attribute("rpc.grpc.status_code", code)
        if code not in ("OK", "CANCELLED"):
            from opentelemetry.trace import Status, StatusCode

            span.set_status(Status(StatusCode.ERROR, code))
        span.end()

    @staticmethod
    def trace_id(span: Any) -> str:
        return format(span.get_span_context().trace_id, "032x")


def _rule_set(request: Any) -> str | None:
    """The rule set a request names ("" is the default, mcr), where it has one."""
    for path in (("rule_set",), ("log", "rule_set")):
        value = request
        for name in path:
            value = getattr(value, name, None)
        if isinstance(value, str):
            return value or "mcr"
    return None


def from_environment() -> Tracing | None:
    """The worker's Tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (None otherwise, or with a warning when
    the extra is not installed)."""
    if not os.environ.get(ENDPOINT):
        return None
    try:
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError:
        log.warning("%s is set but OpenTelemetry is not installed (pip install 'mjsvc[otel]'): no spans", ENDPOINT)
        return None
    provider = TracerProvider(resource=Resource.create({"service.name": "mjsvc"}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    return Tracing(provider.get_tracer("mjsvc"))
