"""Request handling shared by `mjsvc batch` and the gRPC servicer: parsed proto request in, answer out.

Every request is looked up in the worker's one `ResponseCache` by its method and its whole parsed form
(an answer is kept only for a request that passed the input limits), and only on a miss held to the input
limits (`mjsvc.limits`; the usual request as it is read, `convert.read_evaluate`), converted, validated and
given to the engine. Answers are kept and returned as serialized bytes (what the server sends); `evaluate`, `analyze`,
`evaluate_batch` and `play` give the same answers as messages, for the batch tool and tests.

Engine and limit errors come out as `EngineError` with the request path in `field`; the batch and stream
paths turn them into per-item `Error` messages, unary calls into a status (`mjsvc.interceptors`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

import grpc

from engine import rules
from engine.errors import EngineError
from engine.hand import Hand, WinContext, validate_context
from engine.rules.model import RuleSet
from mjsvc import convert, limits, wire
from mjsvc.cache import DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRIES, CacheObserver, ResponseCache
from mjsvc.errors import (
    BAD_REQUEST,
    BATCH_TOO_LARGE,
    DEADLINE_EXCEEDED,
    RESPONSE_TOO_LARGE,
    CallError,
    Failure,
    place,
    qualify,
)
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

DEFAULT_CACHE_SIZE = DEFAULT_MAX_ENTRIES
DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024

EVALUATE = "Evaluate"
_PLAY_ID_LIMIT = limits.LIMITS["PlayRequest.id"]
ANALYZE = "Analyze"


class Observer(CacheObserver, Protocol):
    """Where the service reports engine time and cache use (the worker's Prometheus metrics)."""

    def engine_time(self, rule_set: str, operation: str, seconds: float) -> None: ...


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


def _error_item(failure: Failure) -> bytes:
    return pb.EvaluateBatchItem(error=failure.to_proto()).SerializeToString()


def _framed_size(payload_len: int) -> int:
    """Bytes one occurrence of field 1 (EvaluateBatchResponse.results) takes for a payload of this length."""
    return 1 + len(wire.encode_varint(payload_len)) + payload_len


class Service:
    uses_engine = True  # the worker warms the engine up before it serves

    def __init__(self, cache_size: int = DEFAULT_CACHE_SIZE, observer: Observer | None = None, *,
                 cache_bytes: int = DEFAULT_MAX_BYTES) -> None:
        from engine import api  # here, not at import: the tools that only convert need no engine

        self._api = api
        self.cache = ResponseCache(cache_size, cache_bytes, observer)
        self.observer = observer
        self._fans: dict[str, pb.ListFansResponse] = {}

    # -- one request ---------------------------------------------------------------------------

    def _answer(self, method: str, req: Any, field: str, compute: Callable[[Any, str, RuleSet, Any], bytes],
                read: Callable[[bytes], Any]) -> bytes:
        """The serialized answer to `req`: the cache, then limits, then `compute` (given the request, the
        canonical rule set name, the rule set and what `read` read). `field` prefixes error paths
        (`requests[3].`) for nested requests. The key is the whole request (rule set, hand, every context
        field, options, visible), as protobuf parsed it. A hit skips the limits: only answers are cached, and
        an answer was stored only after the same parsed request (the same key) passed them; every other
        request is held to them before any work: by `read` (convert.read_evaluate / read_analyze), which
        reads the usual request once, holding each field to its limit, or, when it answers None, by
        `limits.check`, and `compute` then reads the request itself."""
        cache = self.cache
        key = cache.key(method, req)
        answer = cache.get(key)
        if answer is not None:
            return answer
        try:
            t0 = time.perf_counter()  # the work of a miss, from the limits to the answer's bytes
            inputs = read(key[1])
            if inputs is None:
                limits.check(req, field)
            name, rs = canonical_rule_set(req.rule_set)
            answer = compute(req, name, rs, inputs)
            if self.observer is not None:
                self.observer.engine_time(name, method.lower(), time.perf_counter() - t0)
            cache.put(key, answer)
            return answer
        except EngineError as err:
            raise qualify(err, field) if field else err from None

    def evaluate_bytes(self, req: pb.EvaluateRequest, field: str = "") -> bytes:
        """Score a win: the serialized EvaluateResponse."""
        return self._answer(EVALUATE, req, field, self._evaluate, convert.read_evaluate)

    def analyze_bytes(self, req: pb.AnalyzeRequest, field: str = "") -> bytes:
        """Shanten, waits, useful tiles; discard advice for 14 tiles: the serialized AnalyzeResponse
        (written directly as wire bytes, see convert.analysis_to_wire)."""
        return self._answer(ANALYZE, req, field, self._analyze, convert.read_analyze)

    def _evaluate(self, req: pb.EvaluateRequest, name: str, rs: RuleSet,
                  inputs: tuple[Hand, WinContext] | None) -> bytes:
        if inputs is not None:  # read with its limits: no options
            options = rs.options(None)
        else:
            options = rs.options(convert.options_from_proto(name, req.options) if req.HasField("options") else None)
        try:
            if inputs is not None:
                hand, ctx = inputs
            else:
                hand = convert.hand_from_proto(req.hand, winning=True)
                ctx = convert.context_from_proto(req.context)
            validate_context(ctx, hand)  # once: the engine is told it was done (validated=True)
            return convert.evaluation_to_wire(self._api.evaluate(hand, ctx, name, options, validated=True))
        except EngineError as err:
            raise place(err) from None

    def _analyze(self, req: pb.AnalyzeRequest, name: str, rs: RuleSet, inputs: tuple[Hand, list[int]] | None) -> bytes:
        if inputs is not None:  # read with its limits: no options
            options = rs.options(None)
            hand, visible = inputs
        else:
            options = rs.options(convert.options_from_proto(name, req.options) if req.HasField("options") else None)
            hand = convert.hand_from_proto(req.hand, winning=False)
            visible = convert.tiles_from_proto(req.visible[:], "visible")  # a slice: a list, at half list()'s cost
        try:
            # the visible tiles were checked as they were read (convert.tiles_from_proto / read_analyze)
            return convert.analysis_to_wire(self._api.analyze(hand, visible, name, options, validated=True))
        except EngineError as err:
            raise place(err) from None

    # -- the referee -----------------------------------------------------------------------------
    # Not cached: a table asks about each prefix of its log once, so the keys (whole logs) would not repeat.

    def _referee(self, req: pb.LegalRequest | pb.SettleRequest, field: str, operation: str,
                 run: Callable[[Any], bytes]) -> bytes:
        try:
            limits.check(req, field)
            log = convert.hand_log_from_proto(req.log, "log")
            t0 = time.perf_counter()
            answer = run(log)
            if self.observer is not None:
                self.observer.engine_time(log.rule_set, operation, time.perf_counter() - t0)
            return answer
        except EngineError as err:
            raise qualify(err, field) if field else err from None

    def legal_bytes(self, req: pb.LegalRequest, field: str = "") -> bytes:
        """What each seat may do after the log's last event: the serialized LegalResponse."""
        from engine import referee

        return self._referee(req, field, "legal",
                             lambda log: convert.legal_to_proto(referee.legal(log)).SerializeToString())

    def settle_bytes(self, req: pb.SettleRequest, field: str = "") -> bytes:
        """The money of a hand that has ended: the serialized SettleResponse."""
        from engine import referee

        return self._referee(req, field, "settle",
                             lambda log: convert.settlement_to_proto(referee.settle(log)).SerializeToString())

    def legal(self, req: pb.LegalRequest, field: str = "") -> pb.LegalResponse:
        return pb.LegalResponse.FromString(self.legal_bytes(req, field))

    def settle(self, req: pb.SettleRequest, field: str = "") -> pb.SettleResponse:
        return pb.SettleResponse.FromString(self.settle_bytes(req, field))

    def evaluate(self, req: pb.EvaluateRequest, field: str = "") -> pb.EvaluateResponse:
        return pb.EvaluateResponse.FromString(self.evaluate_bytes(req, field))

    def analyze(self, req: pb.AnalyzeRequest, field: str = "") -> pb.AnalyzeResponse:
        return pb.AnalyzeResponse.FromString(self.analyze_bytes(req, field))

    def list_fans(self, req: pb.ListFansRequest) -> pb.ListFansResponse:
        limits.check(req)
        name, rs = canonical_rule_set(req.rule_set)
        out = self._fans.get(name)
        if out is None:
            fans, min_points = self._api.list_fans(name)
            out = self._fans[name] = convert.fans_to_proto(name, fans, min_points, rs.table.unit, rs.context_fields,
                                                           rs.tiles)
        return out

    # -- requests that carry several -----------------------------------------------------------

    def evaluate_batch_bytes(self, req: pb.EvaluateBatchRequest, deadline: Deadline | None = None,
                             max_items: int = 0, max_bytes: int = DEFAULT_MAX_MESSAGE_BYTES) -> bytes:
        """The serialized EvaluateBatchResponse: answers in request order, a bad item gets an `error` and the
        others still run.

        The answer never exceeds `max_bytes`: room for every item's error is reserved before the work, and
        once an answer would not fit, it and every later item get RESPONSE_TOO_LARGE (RESOURCE_EXHAUSTED)
        without being computed. A batch over `max_items`, or one whose errors alone could not fit, is refused
        whole with RESOURCE_EXHAUSTED before any work (CallError)."""
        items = req.requests
        n = len(items)
        if max_items and n > max_items:
            raise CallError(Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, BATCH_TOO_LARGE,
                                    f"requests: {n} requests in one batch, the limit is {max_items}", "requests"))
        reserve = _framed_size(len(_error_item(_too_large(n - 1, max_bytes)))) if n else 0
        if n * reserve > max_bytes:
            raise CallError(Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, RESPONSE_TOO_LARGE,
                                    f"requests: the answer to {n} requests could exceed the {max_bytes}-byte "
                                    f"message limit; send at most {max_bytes // reserve} per batch", "requests"))
        parts: list[bytes] = []
        used = 0
        full = False
        for i, item in enumerate(items):
            if deadline is not None:
                deadline.check()
            if not full:
                try:
                    body = wire.message_field(1, self.evaluate_bytes(item, f"requests[{i}]."))
                except EngineError as err:
                    body = _error_item(Failure.from_engine(err))
                size = _framed_size(len(body))
                if used + size + (n - i - 1) * reserve <= max_bytes:
                    parts.append(body)
                    used += size
                    continue
                full = True
            body = _error_item(_too_large(i, max_bytes))
            parts.append(body)
            used += _framed_size(len(body))
        return wire.join_field(1, parts)

    def evaluate_batch(self, req: pb.EvaluateBatchRequest, deadline: Deadline | None = None,
                       max_items: int = 0, max_bytes: int = DEFAULT_MAX_MESSAGE_BYTES) -> pb.EvaluateBatchResponse:
        return pb.EvaluateBatchResponse.FromString(self.evaluate_batch_bytes(req, deadline, max_items, max_bytes))

    def play_bytes(self, req: pb.PlayRequest) -> bytes:
        """One stream message, answered as a serialized PlayResponse carrying its id. Engine and limit
        errors are answered in the message, so the table's stream lives on."""
        rid = req.id
        if len(rid) > _PLAY_ID_LIMIT:  # an id too long to echo: answered without it
            try:
                limits.check_string(rid, "id", _PLAY_ID_LIMIT)
            except EngineError as err:
                return pb.PlayResponse(error=Failure.from_engine(err).to_proto()).SerializeToString()
        kind = req.WhichOneof("request")
        try:
            if kind == "evaluate":
                answer = wire.message_field(2, self.evaluate_bytes(req.evaluate, "evaluate."))
            elif kind == "analyze":
                answer = wire.message_field(3, self.analyze_bytes(req.analyze, "analyze."))
            elif kind == "legal":
                answer = wire.message_field(5, self.legal_bytes(req.legal, "legal."))
            elif kind == "settle":
                answer = wire.message_field(6, self.settle_bytes(req.settle, "settle."))
            else:
                return pb.PlayResponse(id=rid, error=_EMPTY_PLAY.to_proto()).SerializeToString()
        except EngineError as err:
            return pb.PlayResponse(id=rid, error=Failure.from_engine(err).to_proto()).SerializeToString()
        return wire.message_field(1, rid.encode()) + answer if rid else answer  # the id, as protobuf writes it

    def play(self, req: pb.PlayRequest) -> pb.PlayResponse:
        return pb.PlayResponse.FromString(self.play_bytes(req))


def _too_large(index: int, max_bytes: int) -> Failure:
    return Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, RESPONSE_TOO_LARGE,
                   f"requests[{index}]: not answered, the batch's answer would exceed {max_bytes} bytes",
                   f"requests[{index}]")


def bad_request(what: str, field: str = "request") -> Failure:
    """The failure of a body protobuf could not parse (never echoing the parser's words or the bytes)."""
    return Failure(grpc.StatusCode.INVALID_ARGUMENT, BAD_REQUEST, f"{field}: not a valid {what} message", field)


_EMPTY_PLAY = Failure(grpc.StatusCode.INVALID_ARGUMENT, BAD_REQUEST,
                      "request: set one of evaluate, analyze, legal, settle", "request")
