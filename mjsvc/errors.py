"""How failures look on the wire: engine errors -> `Error` messages, JSON error objects and gRPC statuses.

Every interface (the JSON-lines batch, unary calls, batch items, stream messages) describes a failure
with the same four facts: the gRPC status name (`code`), the engine's stable error code (`reason`),
a human message and the offending request field. This module builds them in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from engine.errors import EngineError
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

# google.rpc ErrorInfo.domain for every error this service raises.
ERROR_DOMAIN = "mjsvc.dev"

LIMIT_EXCEEDED = "LIMIT_EXCEEDED"


class LimitExceededError(EngineError):
    """A list or string longer than any game needs (`mjsvc.limits`). Defined here, not in the compiled
    `limits` module: a class attribute of an exception class compiled by mypyc is not set on the class."""

    code = LIMIT_EXCEEDED


# Reasons for failures that are not engine errors.
BAD_REQUEST = "BAD_REQUEST"  # a request that does not parse as its proto message
MALFORMED_JSON = "MALFORMED_JSON"
UNKNOWN_METHOD = "UNKNOWN_METHOD"
BATCH_TOO_LARGE = "BATCH_TOO_LARGE"
RATE_LIMITED = "RATE_LIMITED"
STREAM_LIMIT = "STREAM_LIMIT"  # a worker holds --max-streams Play streams already
OVERLOADED = "OVERLOADED"  # the worker's loop is busy --shed-above of the time: a share of unary calls refused
STREAM_IDLE = "STREAM_IDLE"  # a Play stream sent nothing for --stream-idle-timeout seconds: closed
DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED"
INTERNAL = "INTERNAL"
RESPONSE_TOO_LARGE = "RESPONSE_TOO_LARGE"  # an answer (or batch item) that would exceed the message limit
UNAVAILABLE = "SHUTTING_DOWN"  # a call that reached a worker after it began to drain: retry elsewhere

# What a failure may echo: messages and fields are cut to these lengths wherever they are sent, so no
# input can make an answer exceed the client's metadata limit.
MAX_MESSAGE_CHARS = 300
MAX_FIELD_CHARS = 120


def truncate(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, the cut marked."""
    return text if len(text) <= limit else text[: limit - 14] + "...(truncated)"


@dataclass(frozen=True, slots=True)
class Failure:
    """A failure as every interface reports it. `code` is a grpc.StatusCode."""

    code: grpc.StatusCode
    reason: str
    message: str
    field: str = ""

    def __post_init__(self) -> None:
        if len(self.message) > MAX_MESSAGE_CHARS:
            object.__setattr__(self, "message", truncate(self.message, MAX_MESSAGE_CHARS))
        if len(self.field) > MAX_FIELD_CHARS:
            object.__setattr__(self, "field", truncate(self.field, MAX_FIELD_CHARS))

    @classmethod
    def from_engine(cls, err: EngineError) -> Failure:
        return cls(grpc.StatusCode.INVALID_ARGUMENT, err.code, err.message, err.field)

    @property
    def code_name(self) -> str:
        return self.code.name

    def to_proto(self) -> pb.Error:
        return pb.Error(code=self.code.name, reason=self.reason, message=self.message, field=self.field)

    def to_json(self) -> dict[str, str]:
        out = {"code": self.code.name, "reason": self.reason, "message": self.message}
        if self.field:
            out["field"] = self.field
        return out

    def to_status(self) -> grpc.Status:
        """A grpc.Status whose trailing metadata carries google.rpc ErrorInfo and, with a field, BadRequest."""
        info = error_details_pb2.ErrorInfo(reason=self.reason, domain=ERROR_DOMAIN)
        if self.field:
            info.metadata["field"] = self.field
        details = [info]
        if self.field:
            details.append(error_details_pb2.BadRequest(field_violations=[
                error_details_pb2.BadRequest.FieldViolation(field=self.field, description=self.message)]))
        packed = []
        for d in details:
            a = any_pb2.Any()
            a.Pack(d)
            packed.append(a)
        status = status_pb2.Status(code=_RPC_CODES[self.code], message=self.message, details=packed)
        return rpc_status.to_status(status)


class CallError(Exception):
    """Ends a whole call (not one item of it) with `failure` as its status."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


# grpc.StatusCode -> google.rpc.Code number (grpc's enum values are (number, name) pairs).
_RPC_CODES: dict[grpc.StatusCode, int] = {c: c.value[0] for c in grpc.StatusCode}
assert _RPC_CODES[grpc.StatusCode.INVALID_ARGUMENT] == code_pb2.INVALID_ARGUMENT


def qualify(err: EngineError, prefix: str) -> EngineError:
    """The same error with its field (and the field named at the start of its message) under `prefix`.

    The engine names fields relative to what it was given (`concealed[3]`); clients need the path in
    their request (`hand.concealed[3]`).
    """
    if not err.field or err.field.startswith(prefix):
        return err
    field = prefix + err.field
    message = err.message
    if message.startswith(err.field):
        message = prefix + message
    # The same class whatever its constructor takes (IllegalEventError's takes an index), its other
    # attributes kept.
    out = type(err).__new__(type(err))
    out.__dict__.update(err.__dict__)
    EngineError.__init__(out, message, field)
    out.__cause__ = err.__cause__
    return out


# Top-level request fields of each message, so engine errors can be placed under the right parent.
_HAND_FIELDS = ("concealed", "melds", "winning_tile", "meld", "red_fives")
_CONTEXT_FIELDS = tuple(f.name for f in pb.WinContext.DESCRIPTOR.fields)


def place(err: EngineError) -> EngineError:
    """Put an engine error raised deep in the engine under `hand.` or `context.` as its field says."""
    head = err.field.split(".", 1)[0].split("[", 1)[0]
    if head in _HAND_FIELDS:
        return qualify(err, "hand.")
    if head in _CONTEXT_FIELDS:
        return qualify(err, "context.")
    return err
