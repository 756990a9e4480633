"""The grpc-web wire format: length-prefixed frames, the trailer frame, and the base64 "text" variant.

A grpc-web body is a sequence of frames, each one flag byte and a 4-byte big-endian length, then that
many bytes. Flag 0x00 carries a protobuf message, 0x80 the trailers (HTTP/1.1 header lines: grpc-status,
grpc-message and the trailing metadata), 0x01 marks a compressed message (not supported here). The text
variant (`application/grpc-web-text`) base64-encodes the same bytes; a client may send several padded
base64 chunks one after the other. Reference: the gRPC repository's doc/PROTOCOL-WEB.md.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from collections.abc import Iterable
from dataclasses import dataclass

DATA = 0x00
COMPRESSED = 0x01
TRAILER = 0x80
_HEADER = struct.Struct(">BI")

BINARY_TYPES = ("application/grpc-web", "application/grpc-web+proto")
TEXT_TYPES = ("application/grpc-web-text", "application/grpc-web-text+proto")
BINARY_RESPONSE_TYPE = "application/grpc-web+proto"
TEXT_RESPONSE_TYPE = "application/grpc-web-text+proto"


class FrameError(ValueError):
    """A body that is not a well-formed grpc-web request."""


@dataclass(frozen=True, slots=True)
class Frame:
    flags: int
    payload: bytes


def encode_frame(payload: bytes, flags: int = DATA) -> bytes:
    return _HEADER.pack(flags, len(payload)) + payload


def decode_frames(body: bytes, max_payload: int) -> list[Frame]:
    """Every frame of `body`; FrameError for a truncated frame or a payload over `max_payload` bytes."""
    frames: list[Frame] = []
    pos = 0
    while pos < len(body):
        if len(body) - pos < _HEADER.size:
            raise FrameError(f"truncated frame header at byte {pos}")
        flags, length = _HEADER.unpack_from(body, pos)
        if length > max_payload:
            raise FrameError(f"frame of {length} bytes, more than the limit of {max_payload}")
        start = pos + _HEADER.size
        if len(body) - start < length:
            raise FrameError(f"frame at byte {pos} declares {length} bytes, {len(body) - start} follow")
        frames.append(Frame(flags, body[start:start + length]))
        pos = start + length
    return frames


# A padded base64 chunk ends in '='; the next chunk starts right after it.
_CHUNK_END = re.compile(rb"(?<==)(?=[^=])")


def decode_text(body: bytes) -> bytes:
    """The bytes of a grpc-web-text body (one or more base64 chunks, each padded)."""
    compact = b"".join(body.split())
    try:
        return b"".join(base64.b64decode(chunk, validate=True) for chunk in _CHUNK_END.split(compact) if chunk)
    except binascii.Error as e:
        raise FrameError(f"grpc-web-text body is not base64: {e}") from None


def encode_text(body: bytes) -> bytes:
    return base64.b64encode(body)


def percent_encode(message: str) -> str:
    """grpc-message encoding (gRPC PROTOCOL-HTTP2): UTF-8, bytes outside 0x20-0x7E and '%' as %XX."""
    return "".join(chr(b) if 0x20 <= b <= 0x7E and b != 0x25 else f"%{b:02X}" for b in message.encode())


def header_value(key: str, value: str | bytes) -> str:
    """A metadata value as an HTTP/1.1 header value: binary (-bin) values base64, others as they are."""
    if key.endswith("-bin"):
        raw = value if isinstance(value, bytes) else value.encode()
        return base64.b64encode(raw).decode("ascii")
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    if "\r" in text or "\n" in text:
        raise ValueError(f"metadata {key!r} holds a line break")
    return text


def encode_trailers(status: int, message: str, metadata: Iterable[tuple[str, str | bytes]] = ()) -> bytes:
    """The trailer frame: grpc-status, grpc-message (if any), then the trailing metadata."""
    lines = [f"grpc-status: {status}"]
    if message:
        lines.append(f"grpc-message: {percent_encode(message)}")
    for key, value in metadata:
        lines.append(f"{key.lower()}: {header_value(key.lower(), value)}")
    return encode_frame(("\r\n".join(lines) + "\r\n").encode("latin-1"), TRAILER)


def decode_trailers(payload: bytes) -> dict[str, str]:
    """Header lines of a trailer frame (for clients and tests); names lower-cased."""
    out: dict[str, str] = {}
    for line in payload.decode("latin-1").split("\r\n"):
        if line:
            key, _, value = line.partition(":")
            out[key.strip().lower()] = value.strip()
    return out
