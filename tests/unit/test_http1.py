"""The grpc-web gateway's HTTP/1.1 reader (mjsvc/web/http1.py) on hostile bytes: each finding of the probe
(a non-ASCII header value, a negative chunk size, a chunk line over the stream's limit, a Content-Length of
"²") is a clean HttpError with a 4xx status, never another exception; and a fuzz of request heads and
chunked bodies finds no other exception either."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjsvc.web.http1 import ConnectionDone, HttpError, Request, read_request

LIMIT = 16 * 1024


def read(raw: bytes, max_body: int = 4096) -> Request:
    async def go() -> Request:
        reader = asyncio.StreamReader(limit=LIMIT)
        reader.feed_data(raw)
        reader.feed_eof()
        return await read_request(reader, LIMIT, max_body, idle_timeout=1.0, body_timeout=1.0)

    return asyncio.run(go())


def status_of(raw: bytes) -> int:
    with pytest.raises(HttpError) as info:
        read(raw)
    return info.value.status


HEAD = b"POST /mahjong.v1.MahjongEngine/Evaluate HTTP/1.1\r\nHost: x\r\n"


@pytest.mark.parametrize("raw, status", [
    (HEAD + b"X-User: caf\xe9\r\nContent-Length: 0\r\n\r\n", 400),
    (HEAD + b"X-User: a\x01b\r\n\r\n", 400),
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n-1\r\nabc\r\n0\r\n\r\n", 400),
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n0x5\r\nabcde\r\n0\r\n\r\n", 400),
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + b"1" * (LIMIT + 10) + b"\r\n", 400),
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n0\r\n" + b"x" * (LIMIT + 10) + b"\r\n\r\n", 400),
    (HEAD + b"Content-Length: \xb2\r\n\r\n", 400),
    (HEAD + "Content-Length: ²".encode() + b"\r\n\r\n", 400),
    (HEAD + b"Content-Length: -4\r\n\r\nabcd", 400),
    (HEAD + b"Content-Length: 99999999999999999999\r\n\r\n", 400),
    (HEAD + b"Content-Length: 5000\r\n\r\n" + b"x" * 5000, 413),
])
def test_each_finding_is_a_clean_client_error(raw: bytes, status: int) -> None:
    assert status_of(raw) == status


def test_a_good_request_still_reads() -> None:
    req = read(HEAD + b"Transfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: 1\r\n\r\n")
    assert (req.method, req.path, req.body) == ("POST", "/mahjong.v1.MahjongEngine/Evaluate", b"abcde")
    assert read(HEAD + b"Content-Length: 3\r\nX-Id: abc-1\r\n\r\nxyz").body == b"xyz"


_TOKENS = st.sampled_from([b"GET", b"POST", b" ", b"/", b"HTTP/1.1", b"HTTP/1.0", b"\r\n", b":", b"Content-Length",
                           b"Transfer-Encoding", b"chunked", b"-1", b"0", b"ff", b"\xb2", b"\xe9", b"\x00", b";",
                           b"10", b"x" * 50])


@settings(max_examples=400, deadline=None)
@given(st.lists(_TOKENS, max_size=40), st.binary(max_size=64))
def test_fuzzed_requests_end_in_an_answer_or_a_closed_connection(tokens: list[bytes], tail: bytes) -> None:
    with contextlib.suppress(HttpError, ConnectionDone):  # anything else fails the test
        read(b"".join(tokens) + b"\r\n\r\n" + tail)


def test_bodies_are_read_a_few_at_a_time() -> None:
    """The gateway's body gate (issue finding: 100 slow 5.5 MB bodies took the gateway from 49 to 577 MB): with
    one slot, a second body waits for the first to be read, and a request without a body never waits."""
    order: list[str] = []

    async def go() -> None:
        gate = asyncio.Semaphore(1)
        slow, fast, head_only = (asyncio.StreamReader(limit=LIMIT) for _ in range(3))
        slow.feed_data(HEAD + b"Content-Length: 4\r\n\r\nab")  # half its body: holds the slot
        fast.feed_data(HEAD + b"Content-Length: 2\r\n\r\nxy")
        fast.feed_eof()
        head_only.feed_data(b"GET /healthz HTTP/1.1\r\n\r\n")
        head_only.feed_eof()

        async def read(name: str, reader: asyncio.StreamReader) -> None:
            await read_request(reader, LIMIT, 4096, 5.0, 5.0, gate)
            order.append(name)

        tasks = [asyncio.create_task(read("slow", slow)), asyncio.create_task(read("fast", fast)),
                 asyncio.create_task(read("healthz", head_only))]
        await asyncio.sleep(0.1)
        assert order == ["healthz"]  # the fast body waits for the slot the slow one holds
        slow.feed_data(b"cd")
        slow.feed_eof()
        await asyncio.gather(*tasks)

    asyncio.run(go())
    assert order == ["healthz", "slow", "fast"]
