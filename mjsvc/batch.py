"""`mjsvc batch`: JSON lines in, one JSON line out per line in, for programs.

Input line: `{"method": "Evaluate", "request": {...}}` with the request in the proto3 JSON mapping
(an optional `"id"` is echoed back). Output line: `{"response": {...}}` with proto field names kept,
or `{"error": {"code": "INVALID_ARGUMENT", "reason": "TILE_COUNT", "message": "...", "field": "..."}}`.
A bad line (malformed JSON, unknown method, a request that does not parse, an engine error, even an
unexpected failure) gives an error line and the batch goes on. A line over `--max-line-bytes` is not read
into memory: it is passed over and answered with LIMIT_EXCEEDED.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from mjsvc.cli_types import from_env, whole

HELP = "answer JSON-lines requests (Analyze, Evaluate, ListFans, EvaluateBatch, Legal, Settle) from stdin on stdout"

log = logging.getLogger("mjsvc.batch")

DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024
_SKIP_CHUNK = 1024 * 1024  # bytes read at a time while passing over a line that is too long


def bounded_lines(stream: IO[bytes], limit: int) -> Iterator[str | int]:
    """The stream's lines, each decoded (a byte that is not UTF-8 becomes U+FFFD, so the line is refused
    as JSON or names nothing), or, for a line over `limit` bytes (its newline not counted), its size: the
    line is read past in chunks, never held whole."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not (len(line) == limit + 1 and line.endswith(b"\n")):
            size = len(line)
            while not line.endswith(b"\n"):
                line = stream.readline(_SKIP_CHUNK)
                if not line:
                    break
                size += len(line)
            yield size - 1 if line.endswith(b"\n") else size
            continue
        yield line.decode("utf-8", errors="replace")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cache-size", type=whole(0), default=from_env("MJSVC_CACHE_SIZE", 65536, whole(0)),
                        help="LRU cache entries (env MJSVC_CACHE_SIZE; 0 disables)")
    parser.add_argument("--max-line-bytes", type=whole(1),
                        default=from_env("MJSVC_BATCH_MAX_LINE_BYTES", DEFAULT_MAX_LINE_BYTES, whole(1)),
                        help="longest input line, in bytes; a longer one is passed over without being held in "
                             "memory and answered with LIMIT_EXCEEDED (env MJSVC_BATCH_MAX_LINE_BYTES; "
                             "default 32 MiB, eight times the server's message limit, as JSON is wordier)")
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

    def run(self, lines: Iterable[str | int], out: IO[str], max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> int:
        """Answer each line (a str); an int is the size of a line `bounded_lines` passed over."""
        n = 0
        for line in lines:
            if isinstance(line, int):
                answer = self._failure("INVALID_ARGUMENT", self._errors.LIMIT_EXCEEDED,
                                       f"line: {line} bytes, the limit is {max_line_bytes} (--max-line-bytes)",
                                       "line")
            else:
                answer = self.answer(line)
            out.write(json.dumps(answer, ensure_ascii=False, separators=(",", ":")) + "\n")
            out.flush()  # a program driving us line by line must see each answer at once
            n += 1
        return n


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    BatchRunner(args.cache_size, compact=args.compact).run(bounded_lines(sys.stdin.buffer, args.max_line_bytes),
                                                           sys.stdout, args.max_line_bytes)
    return 0
