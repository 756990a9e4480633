"""Input limits a game can justify, checked on every parsed request before any other work.

Each repeated field may hold at most as many elements as a real table could put there, and each string at
most a few dozen characters; a field this table does not name (one added to the contract later) gets the
defaults at the bottom, so nothing a client sends is unbounded. Over a limit is `LIMIT_EXCEEDED`
(INVALID_ARGUMENT) naming the field, its size and the limit; the value itself is never echoed.

The limits leave room above what the rules allow (a hand holds 14 concealed tiles, the limit is 18), so a
request just outside the rules still gets the engine's own, more precise error (`TILE_COUNT`, `BAD_MELD`).
"""

from __future__ import annotations

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from engine.errors import EngineError

LIMIT_EXCEEDED = "LIMIT_EXCEEDED"


class LimitExceededError(EngineError):
    """A list or string longer than any game needs (`mjsvc.limits`)."""

    code = LIMIT_EXCEEDED


# "Message.field" -> the most elements (repeated fields) or characters (strings) accepted.
LIMITS: dict[str, int] = {
    "EvaluateRequest.rule_set": 32,
    "AnalyzeRequest.rule_set": 32,
    "ListFansRequest.rule_set": 32,
    "PlayRequest.id": 128,  # echoed in every answer
    "Hand.concealed": 18,  # 14 in a legal hand
    "Hand.melds": 8,  # 4 in a legal hand
    "Hand.red_fives": 4,
    "Meld.tiles": 8,  # 3, or 4 for a kong
    "AnalyzeRequest.visible": 136,  # every tile of a set without flowers: more than any table shows
    "WinContext.dora_indicators": 10,  # Riichi: at most 5 (four kongs)
    "WinContext.ura_dora_indicators": 10,
    "WinContext.seats_out": 4,
    "WinContext.flower_tiles": 8,  # Hong Kong: the eight flowers, each at most once
    "GuangdongOptions.ghosts": 34,
}
DEFAULT_REPEATED = 34  # a repeated field not named above: one element per tile kind
DEFAULT_STRING = 64

_MESSAGE = FieldDescriptor.TYPE_MESSAGE
_STRING = FieldDescriptor.TYPE_STRING
_BYTES = FieldDescriptor.TYPE_BYTES


def _limit(fd: FieldDescriptor) -> int:
    found = LIMITS.get(f"{fd.containing_type.name}.{fd.name}")  # type: ignore[union-attr]
    if found is not None:
        return found
    return DEFAULT_STRING if fd.type in (_STRING, _BYTES) and not fd.is_repeated else DEFAULT_REPEATED


def check(msg: Message, prefix: str = "") -> None:
    """Raise LimitExceededError for the first field of `msg` (recursively) over its limit. `prefix` is the
    path of `msg` in the request (`requests[3].`), so the error names the field as the client wrote it."""
    for fd, value in msg.ListFields():
        path = prefix + fd.name
        if fd.is_repeated:
            n = len(value)
            limit = _limit(fd)
            if n > limit:
                raise LimitExceededError(f"{path}: {n} elements, the limit is {limit}", path)
            if fd.type == _MESSAGE:
                for i, item in enumerate(value):
                    check(item, f"{path}[{i}].")
            elif fd.type in (_STRING, _BYTES):
                for i, item in enumerate(value):
                    check_string(item, f"{path}[{i}]", DEFAULT_STRING)
        elif fd.type == _MESSAGE:
            check(value, path + ".")
        elif fd.type in (_STRING, _BYTES):
            check_string(value, path, _limit(fd))


def check_string(value: str | bytes, path: str, limit: int) -> None:
    if len(value) > limit:
        raise LimitExceededError(f"{path}: {len(value)} characters, the limit is {limit}", path)
