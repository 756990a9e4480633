"""Just enough of the protobuf wire format to *write* answers field by field.

Answers are cached as serialized bytes; a batch or stream answer is those bytes framed as fields of the
response message (`join_field`, `message_field`), so a cached answer is never parsed or rebuilt.
`int_field` and `message_field` write fields the way protobuf's own serializer does (proto3: a zero value
is left out), so an answer built with them is byte for byte what the generated classes would produce
(convert.analysis_to_wire, tested so). Requests are parsed by protobuf, with one exception:
`string_field` reads the id of a Play message refused unparsed for its size, so its error answer can carry
the id (the rest of such a body is never looked at). `read_varint`, `read_length` and `skip_field` read
fields; `convert.read_evaluate` uses them on what protobuf wrote of a request it parsed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final


def encode_varint(value: int) -> bytes:
    """A non-negative value as a base-128 varint, low group first."""
    if value < 0x80:
        return bytes((value,))
    out = []
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def join_field(field_number: int, payloads: Iterable[bytes]) -> bytes:
    """Encode `payloads` as occurrences of length-delimited field `field_number`."""
    parts: list[bytes] = []
    for p in payloads:
        parts.append(message_header(field_number, len(p)))
        parts.append(p)
    return b"".join(parts)


# Every field with a one-byte tag and a one-byte value, most fields of our answers, written once:
# _SMALL_FIELDS[field number][value] (b"" for zero); _SHORT_HEADERS[field number][length]: the tag and length
# of a length-delimited field of fewer than 128 bytes.
_SMALL_FIELDS: Final = tuple(tuple(bytes((f << 3, v)) if v else b"" for v in range(128)) for f in range(16))
_SHORT_HEADERS: Final = tuple(tuple(bytes(((f << 3) | 2, n)) for n in range(128)) for f in range(16))


def int_field(field_number: int, value: int) -> bytes:
    """An int32 / enum / bool field (wire type 0); b"" for zero, as proto3 writes no default value.
    Negative values take ten bytes (two's complement on 64 bits), as protobuf writes them."""
    if field_number < 16:  # a one-byte tag
        if 0 <= value < 128:  # and a one-byte value
            return _SMALL_FIELDS[field_number][value]
        if -0x80000000 <= value < 0:  # a negative int32 (a payment): its ten bytes written at once
            u = value & 0xFFFFFFFF  # bits 32-63 of the 64-bit two's complement are all ones
            return bytes((field_number << 3, u & 0x7F | 0x80, u >> 7 & 0x7F | 0x80, u >> 14 & 0x7F | 0x80,
                          u >> 21 & 0x7F | 0x80, u >> 28 | 0xF0, 0xFF, 0xFF, 0xFF, 0xFF, 0x01))
    if not value:
        return b""
    return encode_varint(field_number << 3) + encode_varint(value & 0xFFFFFFFFFFFFFFFF)


def message_header(field_number: int, length: int) -> bytes:
    """The tag and length of one occurrence of a length-delimited field: what `message_field` puts before
    the payload."""
    if field_number < 16:  # the tag is one byte
        if length < 128:
            return _SHORT_HEADERS[field_number][length]
        if length < 16384:
            return bytes(((field_number << 3) | 2, length & 0x7F | 0x80, length >> 7))
    return encode_varint((field_number << 3) | 2) + encode_varint(length)


def message_field(field_number: int, payload: bytes) -> bytes:
    """One occurrence of a message (or bytes) field."""
    return message_header(field_number, len(payload)) + payload


def read_varint(raw: bytes, pos: int, end: int) -> tuple[int, int]:
    """(value, next position) of the varint at raw[pos], which must end before `end`; IndexError otherwise
    (cut short, or longer than ten bytes). Mostly one byte: a tag, a tile, a short length."""
    if pos >= end:
        raise IndexError(pos)
    b = raw[pos]
    if b < 0x80:
        return b, pos + 1
    value = b & 0x7F
    shift = 7
    for i in range(pos + 1, min(pos + 10, end)):
        b = raw[i]
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, i + 1
        shift += 7
    raise IndexError(pos)


def read_length(raw: bytes, pos: int, end: int) -> tuple[int, int]:
    """(length, position of the value) of a length-delimited field; IndexError when it would pass `end`."""
    n, pos = read_varint(raw, pos, end)
    if pos + n > end:
        raise IndexError(pos)
    return n, pos


def skip_field(raw: bytes, pos: int, end: int, tag: int) -> int:
    """The position after the value of the field whose tag was read before `pos`; IndexError for a group
    (wire types 3 and 4, which proto3 does not write) or a value past `end`."""
    wire_type = tag & 7
    if wire_type == 0:
        return read_varint(raw, pos, end)[1]
    if wire_type == 2:
        n, pos = read_length(raw, pos, end)
        return pos + n
    if wire_type == 1:
        pos += 8
    elif wire_type == 5:
        pos += 4
    else:
        raise IndexError(pos)
    if pos > end:
        raise IndexError(pos)
    return pos


def string_field(raw: bytes, field_number: int, max_chars: int, max_fields: int = 16) -> str | None:
    """The first occurrence of top-level string field `field_number` in the message `raw`, at most
    `max_chars` characters; None when it is not among the first `max_fields` fields, or the bytes do not read
    as protobuf fields. Skipping a field costs no copy, whatever its length."""
    pos, end = 0, len(raw)
    try:
        for _ in range(max_fields):
            if pos >= end:
                return None
            tag, pos = read_varint(raw, pos, end)
            if tag == field_number << 3 | 2:
                length, pos = read_length(raw, pos, end)
                return raw[pos:pos + min(length, 4 * max_chars)].decode("utf-8", "ignore")[:max_chars]
            pos = skip_field(raw, pos, end, tag)
    except IndexError:
        return None
    return None
