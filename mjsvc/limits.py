"""Input limits a game can justify, checked on every parsed request before any other work.

Each repeated field may hold at most as many elements as a real table could put there, and each string at
most a few dozen characters; a field this table does not name (one added to the contract later) gets the
defaults at the bottom, so nothing a client sends is unbounded. Over a limit is `LIMIT_EXCEEDED`
(INVALID_ARGUMENT) naming the field, its size and the limit; the value itself is never echoed. What to
check in each message type is worked out once from its descriptor (`_plan`), so a request costs a few
`len()` calls, not a walk over its fields.

The limits leave room above what the rules allow (a hand holds 14 concealed tiles, the limit is 18), so a
request just outside the rules still gets the engine's own, more precise error (`TILE_COUNT`, `BAD_MELD`).
"""

from __future__ import annotations

from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor
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
_TEXT = (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES)


def _limit(fd: FieldDescriptor) -> int:
    found = LIMITS.get(f"{fd.containing_type.name}.{fd.name}")  # type: ignore[union-attr]
    if found is not None:
        return found
    return DEFAULT_STRING if fd.type in _TEXT and not fd.is_repeated else DEFAULT_REPEATED


class _Plan:
    """What to check in one message type, worked out once from its descriptor: the repeated fields and
    strings with their limits, and the message fields below which something is to be checked."""

    __slots__ = ("lists", "strings", "message_lists", "messages")

    def __init__(self) -> None:
        self.lists: list[tuple[str, int, bool]] = []  # (name, limit, elements are strings)
        self.strings: list[tuple[str, int]] = []
        self.message_lists: list[tuple[str, int, _Plan | None]] = []
        self.messages: list[tuple[str, _Plan]] = []

    def __bool__(self) -> bool:
        return bool(self.lists or self.strings or self.message_lists or self.messages)


_PLANS: dict[str, _Plan] = {}


def _plan(descriptor: Descriptor) -> _Plan:
    found = _PLANS.get(descriptor.full_name)
    if found is not None:
        return found
    plan = _PLANS[descriptor.full_name] = _Plan()
    for fd in descriptor.fields:
        if fd.is_repeated:
            if fd.type == _MESSAGE:
                sub = _plan(fd.message_type)  # type: ignore[arg-type]
                plan.message_lists.append((fd.name, _limit(fd), sub or None))
            else:
                plan.lists.append((fd.name, _limit(fd), fd.type in _TEXT))
        elif fd.type == _MESSAGE:
            sub = _plan(fd.message_type)  # type: ignore[arg-type]
            if sub:
                plan.messages.append((fd.name, sub))
        elif fd.type in _TEXT:
            plan.strings.append((fd.name, _limit(fd)))
    return plan


def check(msg: Message, prefix: str = "") -> None:
    """Raise LimitExceededError for the first field of `msg` (recursively) over its limit. `prefix` is the
    path of `msg` in the request (`requests[3].`), so the error names the field as the client wrote it."""
    _check(msg, _plan(msg.DESCRIPTOR), prefix)  # type: ignore[arg-type]


def _check(msg: Any, plan: _Plan, prefix: str) -> None:
    for name, limit, text in plan.lists:
        values = getattr(msg, name)
        if len(values) > limit:
            raise LimitExceededError(f"{prefix}{name}: {len(values)} elements, the limit is {limit}", prefix + name)
        if text:
            for i, item in enumerate(values):
                check_string(item, f"{prefix}{name}[{i}]", DEFAULT_STRING)
    for name, limit in plan.strings:
        value = getattr(msg, name)
        if len(value) > limit:
            raise LimitExceededError(f"{prefix}{name}: {len(value)} characters, the limit is {limit}", prefix + name)
    for name, limit, sub in plan.message_lists:
        items = getattr(msg, name)
        if len(items) > limit:
            raise LimitExceededError(f"{prefix}{name}: {len(items)} elements, the limit is {limit}", prefix + name)
        if sub is not None:
            for i, item in enumerate(items):
                _check(item, sub, f"{prefix}{name}[{i}].")
    for name, sub in plan.messages:
        if msg.HasField(name):
            _check(getattr(msg, name), sub, f"{prefix}{name}.")


def check_string(value: str | bytes, path: str, limit: int) -> None:
    if len(value) > limit:
        raise LimitExceededError(f"{path}: {len(value)} characters, the limit is {limit}", path)
