"""Just enough of the protobuf wire format to treat a repeated message field as a list of byte strings,
and to write small messages field by field.

EvaluateBatch and Play use it to answer cached requests without parsing or building messages: the
request's parts are sliced out as bytes (each one an exact-cache key), and the response is the cached
answers' bytes framed as the response message's fields. `int_field` and `message_field` write fields
the way protobuf's own serializer does (proto3: a zero value is left out), so an answer built with them
is byte for byte what the generated classes would produce (convert.analysis_to_wire, tested so).
"""

from __future__ import annotations

from collections.abc import Iterable


class WireError(ValueError):
    pass


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    n = len(data)
    while True:
        if pos >= n:
            raise WireError("truncated varint")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise WireError("varint too long")


def length_delimited(data: bytes) -> list[tuple[int, bytes]]:
    """(field number, payload) of every length-delimited field, in order; other fields are skipped."""
    out: list[tuple[int, bytes]] = []
    pos, n = 0, len(data)
    while pos < n:
        key, pos = _varint(data, pos)
        wire_type = key & 7
        if wire_type == 2:
            length, pos = _varint(data, pos)
            end = pos + length
            if end > n:
                raise WireError("truncated length-delimited field")
            out.append((key >> 3, data[pos:end]))
            pos = end
        elif wire_type == 0:
            _, pos = _varint(data, pos)
        elif wire_type == 1:
            pos += 8
        elif wire_type == 5:
            pos += 4
        else:
            raise WireError(f"unsupported wire type {wire_type}")
        if pos > n:
            raise WireError("truncated field")
    return out


def split_field(data: bytes, field_number: int) -> list[bytes]:
    """The payloads of every occurrence of length-delimited field `field_number`, in order; other fields
    are skipped. Raises WireError on malformed input."""
    return [payload for number, payload in length_delimited(data) if number == field_number]


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
