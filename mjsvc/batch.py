"""`mjsvc batch`: JSON lines in, one JSON line out per line in, for programs.

Input line: `{"method": "Evaluate", "request": {...}}` with the request in the proto3 JSON mapping
(an optional `"id"` is echoed back). Output line: `{"response": {...}}` with proto field names kept,
or `{"error": {"code": "INVALID_ARGUMENT", "reason": "TILE_COUNT", "message": "...", "field": "..."}}`.
A bad line (malformed JSON, unknown method, a request that does not parse, an engine error, even an
unexpected failure) gives an error line and the batch goes on.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

from mjsvc.cli_types import from_env, whole

HELP = "answer JSON-lines requests (Analyze, Evaluate, ListFans, EvaluateBatch, Legal, Settle) from stdin on stdout"

log = logging.getLogger("mjsvc.batch")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cache-size", type=whole(0), default=from_env("MJSVC_CACHE_SIZE", 65536, whole(0)),
                        help="LRU cache entries (env MJSVC_CACHE_SIZE; 0 disables)")
    parser.add_argument("--compact", action=argparse.BooleanOptionalAction, default=False,
                        help="leave out fields at their default value (false, 0, []) instead of printing them")


class BatchRunner:
    """Answers one line at a time through the same conversion layer and cache as the server."""

    def __init__(self, cache_size: int = 65536, *, compact: bool = False) -> None:
        import grpc
        from google.protobuf import json_format

        from mjsvc import errors
        from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
        from mjsvc.service import Service

        self._grpc = grpc
        self._json_format = json_format
        self._errors = errors
        self.service = Service(cache_size)
        self._compact = compact
        s = self.service
        self.methods: dict[str, tuple[type, Callable[[Any], Any]]] = {
            "Evaluate": (pb.EvaluateRequest, s.evaluate),
            "Analyze": (pb.AnalyzeRequest, s.analyze),
            "ListFans": (pb.ListFansRequest, s.list_fans),
            "EvaluateBatch": (pb.EvaluateBatchRequest, s.evaluate_batch),
            "Legal": (pb.LegalRequest, s.legal),
            "Settle": (pb.SettleRequest, s.settle),
        }

    def _failure(self, code: str, reason: str, message: str, field: str = "") -> dict[str, Any]:
        f = self._errors.Failure(getattr(self._grpc.StatusCode, code), reason, message, field)
        return {"error": f.to_json()}

    def answer(self, line: str) -> dict[str, Any]:
        from engine.errors import EngineError

        E = self._errors
        try:
            msg = json.loads(line)
        except ValueError as err:
            return self._failure("INVALID_ARGUMENT", E.MALFORMED_JSON, f"line is not JSON: {err}")
        if not isinstance(msg, dict):
            return self._failure("INVALID_ARGUMENT", E.BAD_REQUEST, "a line must be a JSON object")
        out: dict[str, Any] = {"id": msg["id"]} if "id" in msg else {}
        method = msg.get("method")
        if isinstance(method, str):
            method = method.rsplit("/", 1)[-1]  # accept "/mahjong.v1.MahjongEngine/Evaluate" too
        if not isinstance(method, str) or method not in self.methods:  # a list or an object is no name either
            out.update(self._failure("UNIMPLEMENTED", E.UNKNOWN_METHOD,
                                     f"method: {msg.get('method')!r} is not one of {', '.join(self.methods)}",
                                     "method"))
            return out
        cls, fn = self.methods[method]
        try:
            request = self._json_format.ParseDict(msg.get("request") or {}, cls())
        except (self._json_format.ParseError, TypeError, ValueError, OverflowError) as err:  # Infinity for an enum
            out.update(self._failure("INVALID_ARGUMENT", E.BAD_REQUEST, f"request: {err}", "request"))
            return out
        try:
            response = fn(request)
        except EngineError as err:
            out["error"] = E.Failure.from_engine(err).to_json()
            return out
        except Exception:
            log.exception("line failed: %s", line[:200])
            out.update(self._failure("INTERNAL", E.INTERNAL, "internal error (logged on stderr)"))
            return out
        out["response"] = self._json_format.MessageToDict(
            response, preserving_proto_field_name=True,
            always_print_fields_with_no_presence=not self._compact)
        return out

    def run(self, lines: Iterable[str], out: IO[str]) -> int:
        n = 0
        for line in lines:
            out.write(json.dumps(self.answer(line), ensure_ascii=False, separators=(",", ":")) + "\n")
            out.flush()  # a program driving us line by line must see each answer at once
            n += 1
        return n


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    BatchRunner(args.cache_size, compact=args.compact).run(sys.stdin, sys.stdout)
    return 0
