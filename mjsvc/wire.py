"""Just enough of the protobuf wire format to *write* answers field by field.

Answers are cached as serialized bytes; a batch or stream answer is those bytes framed as fields of the
response message (`join_field`, `message_field`), so a cached answer is never parsed or rebuilt.
`int_field` and `message_field` write fields the way protobuf's own serializer does (proto3: a zero value
is left out), so an answer built with them is byte for byte what the generated classes would produce
(convert.analysis_to_wire, tested so). Requests are never read here: protobuf parses every request.
"""

from __future__ import annotations

from collections.abc import Iterable


def encode_varint(value: int) -> bytes:
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        if value:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def join_field(field_number: int, payloads: Iterable[bytes]) -> bytes:
    """Encode `payloads` as occurrences of length-delimited field `field_number`."""
    tag = encode_varint((field_number << 3) | 2)
    parts: list[bytes] = []
    for p in payloads:
        parts.append(tag)
        parts.append(encode_varint(len(p)))
        parts.append(p)
    return b"".join(parts)


def int_field(field_number: int, value: int) -> bytes:
    """An int32 / enum / bool field (wire type 0); b"" for zero, as proto3 writes no default value.
    Negative values take ten bytes (two's complement on 64 bits), as protobuf writes them."""
    if not value:
        return b""
    if 0 < value < 128 and field_number < 16:  # one-byte tag and value: most fields of our answers
        return bytes((field_number << 3, value))
    return encode_varint(field_number << 3) + encode_varint(value & 0xFFFFFFFFFFFFFFFF)


def message_field(field_number: int, payload: bytes) -> bytes:
    """One occurrence of a message (or bytes) field."""
    if field_number < 16 and len(payload) < 128:
        return bytes(((field_number << 3) | 2, len(payload))) + payload
    return encode_varint((field_number << 3) | 2) + encode_varint(len(payload)) + payload
