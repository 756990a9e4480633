"""Request handling shared by `mjsvc batch` and the gRPC workers: proto request in, proto response out.

`Service` converts a request (validating it), looks its canonical key up in the LRU cache and calls
the engine on a miss. Engine errors come out as `EngineError` with the request path in `field`; the
batch and stream paths turn them into per-item `Error` messages, unary calls into a status.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

import grpc
from google.protobuf.message import DecodeError

from engine import rules
from engine.errors import EngineError
from engine.hand import validate_context
from engine.rules.model import RuleSet
from mjsvc import convert, wire
from mjsvc.cache import LRUCache, analyze_key, evaluate_key
from mjsvc.errors import BAD_REQUEST, BATCH_TOO_LARGE, DEADLINE_EXCEEDED, CallError, Failure, place, qualify
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

DEFAULT_CACHE_SIZE = 65536


class Observer(Protocol):
    """Where the service reports engine time and cache use (the worker's Prometheus metrics)."""

    def engine_time(self, rule_set: str, operation: str, seconds: float) -> None: ...

    def cache_result(self, operation: str, hit: bool) -> None: ...

    def cache_size(self, entries: int) -> None: ...


def canonical_rule_set(name: str) -> tuple[str, RuleSet]:
    """The rule set's canonical name and object; UNKNOWN_RULE_SET (field `rule_set`) if there is none."""
    rs = rules.get(name)
    return rs.name, rs


class Deadline:
    """A call's deadline, checked between the items of a batch so an expired call stops working."""

    __slots__ = ("at",)

    def __init__(self, remaining: float) -> None:
        self.at = time.monotonic() + remaining

    def check(self) -> None:
        if time.monotonic() >= self.at:
            raise self.exceeded()

    @staticmethod
    def exceeded() -> CallError:
        return CallError(Failure(grpc.StatusCode.DEADLINE_EXCEEDED, DEADLINE_EXCEEDED,
                                 "the call's deadline passed before it was answered"))


class Service:
    def __init__(self, cache_size: int = DEFAULT_CACHE_SIZE, observer: Observer | None = None) -> None:
        from engine import api  # here, not at import: the no-op server and the tools need no engine

        self._api = api
        self.cache = LRUCache(cache_size)
        # In front of it, answers by the exact request bytes: a request repeated as it was (a client
        # polling the same state) skips conversion, validation and key building as well.
        self.exact = LRUCache(cache_size)
        self.wire_items = LRUCache(cache_size)  # EvaluateBatch: item bytes -> serialized EvaluateBatchItem
        self.wire_play = LRUCache(cache_size)  # Play: (field, request bytes) -> serialized answer
        self.observer = observer
        self._fans: dict[str, pb.ListFansResponse] = {}

    # -- the engine behind the cache ---------------------------------------------------------

    def _cached(self, op: str, rule_set: str, key: tuple, compute: Callable[[], object]) -> object:
        value = self.cache.get(key, None)
        obs = self.observer
        if value is not None:
            if obs is not None:
                obs.cache_result(op, True)
            return value
        t0 = time.perf_counter()
        value = compute()
        if obs is not None:
            obs.cache_result(op, False)
            obs.engine_time(rule_set, op, time.perf_counter() - t0)
        self.cache.put(key, value)
        if obs is not None:
            obs.cache_size(len(self.cache))
        return value

    def _exact(self, op: str, req: Any, field: str, slow: Callable[[Any, str], Any]) -> Any:
        raw = req.SerializeToString()
        value = self.exact.get(raw)
        if value is not None:
            if self.observer is not None:
                self.observer.cache_result(op, True)
            return value
        value = slow(req, field)
        self.exact.put(raw, value)
        return value

    def evaluate(self, req: pb.EvaluateRequest, field: str = "") -> pb.EvaluateResponse:
        """Score a win. `field` prefixes error paths (`requests[3].`) for requests nested in others."""
        return self._exact("evaluate", req, field, self._evaluate)  # type: ignore[no-any-return]

    def analyze(self, req: pb.AnalyzeRequest, field: str = "") -> pb.AnalyzeResponse:
        """Shanten, waits, useful tiles; discard advice for 14 tiles."""
        return pb.AnalyzeResponse.FromString(self.analyze_bytes(req, field))

    def analyze_bytes(self, req: pb.AnalyzeRequest, field: str = "") -> bytes:
        """`analyze`, answered as the serialized AnalyzeResponse (what the server sends)."""
        return self._exact("analyze", req, field, self._analyze)  # type: ignore[no-any-return]

    def _evaluate(self, req: pb.EvaluateRequest, field: str) -> pb.EvaluateResponse:
        try:
            name, rs = canonical_rule_set(req.rule_set)
            options = rs.options(convert.options_from_proto(name, req.options) if req.HasField("options") else None)
            hand = convert.hand_from_proto(req.hand, winning=True)
            ctx = convert.context_from_proto(req.context)
            try:
                # Validated before the lookup: the key leaves out flags the rule set ignores.
                validate_context(ctx, hand)
            except EngineError as err:
                raise place(err) from None
            key = evaluate_key(name, hand, ctx, rs.context_fields, options)

            def compute() -> pb.EvaluateResponse:
                try:
                    return convert.evaluation_to_proto(self._api.evaluate(hand, ctx, name, options))
                except EngineError as err:
                    raise place(err) from None

            return self._cached("evaluate", name, key, compute)  # type: ignore[return-value]
        except EngineError as err:
            raise qualify(err, field) if field else err from None

    def _analyze(self, req: pb.AnalyzeRequest, field: str) -> bytes:
        """The serialized answer (cached as bytes: an advice answer is large and costly to rebuild)."""
        try:
            name, rs = canonical_rule_set(req.rule_set)
            options = rs.options(convert.options_from_proto(name, req.options) if req.HasField("options") else None)
            hand = convert.hand_from_proto(req.hand, winning=False)
            visible = convert.tiles_from_proto(req.visible, "visible")
            key = analyze_key(name, hand, visible, options)

            def compute() -> bytes:
                try:
                    return convert.analysis_to_wire(self._api.analyze(hand, visible, name, options))
                except EngineError as err:
                    raise place(err) from None

            return self._cached("analyze", name, key, compute)  # type: ignore[return-value]
        except EngineError as err:
            raise qualify(err, field) if field else err from None

    def list_fans(self, req: pb.ListFansRequest) -> pb.ListFansResponse:
        name, _ = canonical_rule_set(req.rule_set)
        out = self._fans.get(name)
        if out is None:
            fans, min_points = self._api.list_fans(name)
            out = self._fans[name] = convert.fans_to_proto(name, fans, min_points)
        return out

    # -- requests that carry several -----------------------------------------------------------

    def evaluate_batch(self, req: pb.EvaluateBatchRequest, deadline: Deadline | None = None
                       ) -> pb.EvaluateBatchResponse:
        """Answers in request order; a bad item gets an `error` and the others still run."""
        out = pb.EvaluateBatchResponse()
        results = out.results
        for i, item in enumerate(req.requests):
            if deadline is not None:
                deadline.check()
            try:
                results.add(response=self.evaluate(item, f"requests[{i}]."))
            except EngineError as err:
                results.add(error=Failure.from_engine(err).to_proto())
        return out

    def evaluate_batch_wire(self, raw: bytes, deadline: Deadline | None = None, max_items: int = 0) -> bytes:
        """`evaluate_batch` on the wire format: serialized EvaluateBatchRequest in, serialized response out.

        Items are sliced out as bytes; an item seen before (same bytes) is answered with the bytes of
        its earlier answer, so a cached batch builds no message at all. Raises CallError for a batch
        over `max_items` (RESOURCE_EXHAUSTED) or bytes that are not an EvaluateBatchRequest.
        """
        try:
            items = wire.split_field(raw, 1)
        except wire.WireError as err:
            raise CallError(Failure(grpc.StatusCode.INVALID_ARGUMENT, BAD_REQUEST, f"requests: {err}",
                                    "requests")) from None
        if max_items and len(items) > max_items:
            raise CallError(Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, BATCH_TOO_LARGE,
                                    f"requests: {len(items)} requests in one batch, the limit is {max_items}",
                                    "requests"))
        answers: list[bytes] = []
        exact = self.wire_items
        obs = self.observer
        for i, item in enumerate(items):
            if deadline is not None:
                deadline.check()
            answer = exact.get(item)
            if answer is not None:
                if obs is not None:
                    obs.cache_result("evaluate", True)
                answers.append(answer)
                continue
            try:
                req = pb.EvaluateRequest.FromString(item)
            except DecodeError as err:
                raise CallError(Failure(grpc.StatusCode.INVALID_ARGUMENT, BAD_REQUEST,
                                        f"requests[{i}]: {err}", f"requests[{i}]")) from None
            try:
                answer = pb.EvaluateBatchItem(response=self._exact("evaluate", req, f"requests[{i}].",
                                                                   self._evaluate)).SerializeToString()
                exact.put(item, answer)
            except EngineError as err:  # not cached: the message names this item's index
                answer = pb.EvaluateBatchItem(error=Failure.from_engine(err).to_proto()).SerializeToString()
            answers.append(answer)
        return wire.join_field(1, answers)

    def play_wire(self, raw: bytes) -> bytes:
        """`play` on the wire format: a serialized PlayRequest in, a serialized PlayResponse out.

        PlayRequest and PlayResponse share their field numbers (id 1, evaluate 2, analyze 3), so a request
        seen before is answered by framing the id and the bytes of the earlier answer."""
        try:
            fields = wire.length_delimited(raw)
        except wire.WireError as err:
            return _bad_play(err)
        rid = b""
        kind, payload = 0, b""
        for number, data in fields:
            if number == 1:
                rid = data
            elif number in (2, 3):
                kind, payload = number, data
        try:
            req = None if kind else pb.PlayRequest.FromString(raw)
        except DecodeError as err:
            return _bad_play(err)
        if req is not None:  # neither evaluate nor analyze: play() says what is missing
            return self.play(req).SerializeToString()
        key = (kind, payload)
        answer = self.wire_play.get(key)
        if answer is None:
            try:
                req = pb.PlayRequest.FromString(raw)
            except DecodeError as err:
                return _bad_play(err)
            # wire_play is this path's exact-bytes cache, so the request goes straight to the canonical one
            try:
                if kind == 3:
                    answer = self._analyze(req.analyze, "analyze.")  # bytes already (see _analyze)
                else:
                    answer = self._evaluate(req.evaluate, "evaluate.").SerializeToString()
            except EngineError as err:  # not cached: errors are validated afresh
                return pb.PlayResponse(id=req.id, error=Failure.from_engine(err).to_proto()).SerializeToString()
            self.wire_play.put(key, answer)  # the call above counted its own cache lookup
        elif self.observer is not None:
            self.observer.cache_result("evaluate" if kind == 2 else "analyze", True)
        head = wire.join_field(1, (rid,)) if rid else b""
        return head + wire.join_field(kind, (answer,))

    def play(self, req: pb.PlayRequest) -> pb.PlayResponse:
        """One stream message; engine errors are answered in the message so the table's stream lives on."""
        kind = req.WhichOneof("request")
        try:
            if kind == "evaluate":
                return pb.PlayResponse(id=req.id, evaluate=self.evaluate(req.evaluate, "evaluate."))
            if kind == "analyze":
                return pb.PlayResponse(id=req.id, analyze=self.analyze(req.analyze, "analyze."))
        except EngineError as err:
            return pb.PlayResponse(id=req.id, error=Failure.from_engine(err).to_proto())
        return pb.PlayResponse(id=req.id, error=_EMPTY_PLAY.to_proto())


def _bad_play(err: Exception) -> bytes:
    return pb.PlayResponse(error=Failure(grpc.StatusCode.INVALID_ARGUMENT, BAD_REQUEST,
                                         f"request: not a PlayRequest ({err})", "request").to_proto()
                           ).SerializeToString()


_EMPTY_PLAY = Failure(grpc.StatusCode.INVALID_ARGUMENT, BAD_REQUEST, "request: set one of evaluate, analyze",
                      "request")
