"""Input limits a game can justify, checked on every parsed request before any other work.

Each repeated field may hold at most as many elements as a real table could put there, and each string at
most a few dozen characters; a field this table does not name (one added to the contract later) gets the
defaults at the bottom, so nothing a client sends is unbounded. Over a limit is `LIMIT_EXCEEDED`
(INVALID_ARGUMENT) naming the field, its size and the limit; the value itself is never echoed. What to
check in each message type is worked out once from its descriptor (`_plan`), so a request costs a few
`len()` calls, not a walk over its fields.

The limits leave room above what the rules allow (a hand holds 14 concealed tiles, the limit is 18), so a
request just outside the rules still gets the engine's own, more precise error (`TILE_COUNT`, `BAD_MELD`).

Bodies are held to a byte size derived from the same limits (`body_limits`, explained there), checked on
the raw bytes before protobuf parses them: a body that no request within the limits could need is refused
without the memory its parse would cost.
"""

from __future__ import annotations

from typing import Any, Final

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from mjsvc.errors import LimitExceededError

# "Message.field" -> the most elements (repeated fields) or characters (strings) accepted.
LIMITS: Final[dict[str, int]] = {
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
    # The referee's log (HandLog). A hand of the longest game here (Sichuan's bloody round with flowers,
    # or Riichi with four kongs) has fewer than 300 events: the wall's draws and discards, calls, kongs.
    "HandLog.rule_set": 32,
    "HandLog.events": 400,
    "HandLog.scores": 4,
    "Deal.hands": 4,
    "Deal.dora_indicators": 5,
    "SeatTiles.tiles": 18,  # 14 for the dealer
    "SeatTiles.red_fives": 4,
    "Claim.tiles": 8,  # 3, or 4 for a kong
    "Claim.red_fives": 4,
    "Win.ura_dora_indicators": 10,  # at most 5
    "Win.horses": 16,  # Guangdong: at most 10 horses
    "ExchangeThree.exchanges": 4,
    "SeatExchange.tiles": 8,  # 3
}
DEFAULT_REPEATED: Final = 34  # a repeated field not named above: one element per tile kind
DEFAULT_STRING: Final = 64

_MESSAGE: Final = FieldDescriptor.TYPE_MESSAGE
_TEXT: Final = (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES)


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


_PLANS: Final[dict[str, _Plan]] = {}


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


def limited_fields(message_type: type[Message]) -> dict[str, int]:
    """Every field below a message type (`pb.EvaluateRequest`) that `check` holds to a limit, by its path ->
    the limit: `rule_set`, `hand.melds`, `hand.melds[].tiles` (a field of each element), `names[]` (each
    string of a repeated string field). What a reader that checks the limits as it reads must cover
    (`mjsvc.convert.read_evaluate`)."""
    out: dict[str, int] = {}
    _paths(_plan(message_type.DESCRIPTOR), "", out)  # type: ignore[arg-type]
    return out


def _paths(plan: _Plan, prefix: str, out: dict[str, int]) -> None:
    for name, limit, text in plan.lists:
        out[prefix + name] = limit
        if text:
            out[f"{prefix}{name}[]"] = DEFAULT_STRING
    for name, limit in plan.strings:
        out[prefix + name] = limit
    for name, limit, sub in plan.message_lists:
        out[prefix + name] = limit
        if sub is not None:
            _paths(sub, f"{prefix}{name}[].", out)
    for name, sub in plan.messages:
        _paths(sub, f"{prefix}{name}.", out)


def check_string(value: str | bytes, path: str, limit: int) -> None:
    if len(value) > limit:
        raise LimitExceededError(f"{path}: {len(value)} characters, the limit is {limit}", path)


# -- Body sizes -------------------------------------------------------------------------------------
# How large a body may be, derived from the limits above, in this one place:
# 1. `largest_encoding(message)`: the most bytes a standard protobuf encoder can write for a message whose
#    every field is within its limit: every repeated field full, every string at its limit in 4-byte UTF-8
#    characters, every enum at its largest declared value, every bool 1 byte, every other number in its
#    longest form (a 10-byte varint, as a negative int32 is written), repeated numbers in the larger of their
#    packed and unpacked forms, every message field set, each oneof at its largest member.
# 2. times BODY_MARGIN, plus BODY_SLACK bytes: room for fields a newer client sends that this server does not
#    know yet (protobuf skips them), and for encoders that repeat a field.
# 3. An EvaluateBatch body holds up to `max_batch` such EvaluateRequests (the server's --max-batch), so its
#    limit scales with that; it is the largest legitimate body of the service, and the server's gRPC
#    receive limit (`receive_limit`), above which gRPC itself refuses a message with RESOURCE_EXHAUSTED.
# A body over its method's limit is LIMIT_EXCEEDED (INVALID_ARGUMENT, field `request`), naming its size
# and the limit; protobuf never sees it.
BODY_MARGIN: Final = 2
BODY_SLACK: Final = 1024

_FIXED_SIZE: Final = {FieldDescriptor.TYPE_FIXED32: 4, FieldDescriptor.TYPE_SFIXED32: 4, FieldDescriptor.TYPE_FLOAT: 4,
               FieldDescriptor.TYPE_FIXED64: 8, FieldDescriptor.TYPE_SFIXED64: 8, FieldDescriptor.TYPE_DOUBLE: 8}
_LONGEST_VARINT: Final = 10
UTF8_MAX: Final = 4  # bytes per character


def _varint_len(n: int) -> int:
    return max(1, (n.bit_length() + 6) // 7)


def largest_encoding(descriptor: Descriptor, counts: dict[str, int] | None = None) -> int:
    """The most bytes a standard encoder writes for a `descriptor` message within the limits (see above);
    `counts` overrides the element limit of named repeated fields ("Message.field")."""
    counts = counts or {}
    by_oneof: dict[str, int] = {}
    total = 0
    for fd in descriptor.fields:
        name = f"{descriptor.name}.{fd.name}"
        tag = _varint_len(fd.number << 3)
        if fd.type == _MESSAGE:
            inner = largest_encoding(fd.message_type, counts)  # type: ignore[arg-type]
            value = _varint_len(inner) + inner
        elif fd.type in _TEXT:
            chars = (DEFAULT_STRING if fd.is_repeated else _limit(fd)) * UTF8_MAX
            value = _varint_len(chars) + chars
        elif fd.type == FieldDescriptor.TYPE_ENUM:
            value = _varint_len(max(v.number for v in fd.enum_type.values))  # type: ignore[union-attr]
        elif fd.type == FieldDescriptor.TYPE_BOOL:
            value = 1
        else:
            value = _FIXED_SIZE.get(fd.type, _LONGEST_VARINT)
        if fd.is_repeated:
            n = counts.get(name, _limit(fd))
            size = n * (tag + value)
            if fd.type not in _TEXT and fd.type != _MESSAGE:  # packed: one tag and length for all
                size = max(size, tag + _varint_len(n * value) + n * value)
        else:
            size = tag + value
        oneof = fd.containing_oneof
        if oneof is not None:
            by_oneof[oneof.full_name] = max(by_oneof.get(oneof.full_name, 0), size)
        else:
            total += size
    return total + sum(by_oneof.values())


def body_limit(descriptor: Descriptor, counts: dict[str, int] | None = None) -> int:
    return largest_encoding(descriptor, counts) * BODY_MARGIN + BODY_SLACK


def body_limits(max_batch: int, max_message_bytes: int) -> dict[str, int]:
    """Method name -> the largest body accepted (see above), none over `max_message_bytes`; an
    EvaluateBatch of up to `max_batch` requests (0: any number, bounded by `max_message_bytes` alone)."""
    from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

    out = {}
    for method in pb.DESCRIPTOR.services_by_name["MahjongEngine"].methods:
        request = method.input_type
        if request.name == "EvaluateBatchRequest" and not max_batch:
            limit = max_message_bytes
        else:
            limit = body_limit(request, {"EvaluateBatchRequest.requests": max_batch})
        out[method.name] = min(limit, max_message_bytes)
    return out


def receive_limit(max_batch: int, max_message_bytes: int) -> int:
    """The server's gRPC receive limit: the largest body any method accepts."""
    return max(body_limits(max_batch, max_message_bytes).values())


def oversized(size: int, limit: int, type_name: str) -> LimitExceededError:
    return LimitExceededError(f"request: {size} bytes, the limit for {type_name} is {limit}", "request")
