"""Stand-ins for `mjsvc.service.Service`, loaded by a server started with MJSVC_SERVICE_CLASS (never in
production):

- `NoopService` answers every call with an empty message at once, without the engine: the bare-gRPC floor
  that `bench.server_overhead` compares the engine against (same server, interceptors and limits);
- `FaultyService` fails unexpectedly for requests naming the rule set in MJSVC_TEST_FAULT_RULE_SET, so tests
  can see the INTERNAL path.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from engine.rules.model import RuleSet
from mjsvc.errors import CallError, Failure
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Deadline, Service

FAULT_ENV = "MJSVC_TEST_FAULT_RULE_SET"


class NoopService(Service):
    uses_engine = False

    _empty_evaluate = pb.EvaluateResponse().SerializeToString()
    _empty_analyze = pb.AnalyzeResponse().SerializeToString()
    _fans = pb.ListFansResponse()
    _item = pb.EvaluateBatchItem(response=pb.EvaluateResponse())

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # no engine, no cache
        pass

    def evaluate_bytes(self, req: pb.EvaluateRequest, field: str = "") -> bytes:
        return self._empty_evaluate

    def analyze_bytes(self, req: pb.AnalyzeRequest, field: str = "") -> bytes:
        return self._empty_analyze

    def list_fans(self, req: pb.ListFansRequest) -> pb.ListFansResponse:
        return self._fans

    def evaluate_batch_bytes(self, req: pb.EvaluateBatchRequest, deadline: Deadline | None = None,
                             max_items: int = 0, max_bytes: int = 0) -> bytes:
        n = len(req.requests)
        if max_items and n > max_items:
            import grpc

            raise CallError(Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, "BATCH_TOO_LARGE", "too many", "requests"))
        return pb.EvaluateBatchResponse(results=[self._item] * n).SerializeToString()

    def play_bytes(self, req: pb.PlayRequest) -> bytes:
        kind = pb.PlayResponse(id=req.id)
        if req.WhichOneof("request") == "analyze":
            kind.analyze.SetInParent()
        else:
            kind.evaluate.SetInParent()
        return kind.SerializeToString()


class FaultyService(Service):
    """A request naming the rule set in MJSVC_TEST_FAULT_RULE_SET fails with an unexpected exception."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fault = os.environ.get(FAULT_ENV, "")

    def _check(self, rule_set: str) -> None:
        if self.fault and rule_set == self.fault:
            raise RuntimeError(f"injected fault for rule set {rule_set!r}")

    def _answer(self, method: str, req: Any, field: str, compute: Callable[[Any, str, RuleSet, Any], bytes],
                read: Callable[[Any], Any]) -> bytes:
        """Every Evaluate and Analyze comes here: unary, in a batch or a Play stream."""
        self._check(req.rule_set)
        return super()._answer(method, req, field, compute, read)
