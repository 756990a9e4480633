"""`mjsvc web`: grpc-web in front of a real `mjsvc serve`, compared call by call with gRPC itself.

Every unary RPC (and the health check) is called twice with the same request bytes, once over gRPC and
once through the gateway in both grpc-web encodings: the answers must be the same bytes, and failures the
same status code, message and google.rpc details (ErrorInfo reason, BadRequest field).
"""

from __future__ import annotations

import base64
import http.client
import random
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1 import health_pb2
from server_harness import ServerProcess
from web_harness import SERVICE, WebProcess, grpc_web_call, http_request

from engine.tiles import parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.web import framing
from mjsvc.web.gateway import parse_timeout

pytestmark = pytest.mark.integration


def T(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


def hand(concealed: str, win: str = "") -> pb.Hand:
    return pb.Hand(concealed=T(concealed), winning_tile=T(win)[0] if win else 0)


README_HAND = pb.EvaluateRequest(
    rule_set="mcr", hand=hand("123m456p789s1sEEE", "1s"),
    context=pb.WinContext(self_drawn=True, seat_wind=pb.WIND_EAST, prevalent_wind=pb.WIND_SOUTH, flowers=2))

# (method, request bytes, expected status). Valid answers, answers that are not wins, and every kind of
# failure the server gives: engine errors with a field, unknown rule sets, unparsable bytes, a batch too big.
CASES: list[tuple[str, bytes, grpc.StatusCode | None]] = [
    ("Evaluate", README_HAND.SerializeToString(), grpc.StatusCode.OK),
    ("Evaluate", pb.EvaluateRequest(hand=hand("123m456p789s1122z", "3z")).SerializeToString(), grpc.StatusCode.OK),
    ("Evaluate", pb.EvaluateRequest(hand=hand("123m", "1m")).SerializeToString(), grpc.StatusCode.INVALID_ARGUMENT),
    ("Evaluate", pb.EvaluateRequest(hand=hand("123m456p789s1122z")).SerializeToString(),
     grpc.StatusCode.INVALID_ARGUMENT),
    ("Evaluate", pb.EvaluateRequest(rule_set="nope", hand=hand("123m456p789s1122z", "1z")).SerializeToString(),
     grpc.StatusCode.INVALID_ARGUMENT),
    ("Evaluate", pb.EvaluateRequest(hand=hand("123m456p789s1sEE", "E"), context=pb.WinContext(flowers=9))
     .SerializeToString(), grpc.StatusCode.INVALID_ARGUMENT),
    ("Evaluate", b"\xff\xff\xff", None),  # not a message: whatever gRPC answers (today UNKNOWN, from grpcio)
    ("Analyze", pb.AnalyzeRequest(hand=hand("123m456p789s1122z")).SerializeToString(), grpc.StatusCode.OK),
    ("Analyze", pb.AnalyzeRequest(hand=hand("123m456p789s11223z")).SerializeToString(), grpc.StatusCode.OK),
    ("Analyze", pb.AnalyzeRequest(hand=hand("11111m")).SerializeToString(), grpc.StatusCode.INVALID_ARGUMENT),
    ("ListFans", pb.ListFansRequest().SerializeToString(), grpc.StatusCode.OK),
    ("ListFans", pb.ListFansRequest(rule_set="mcr2p").SerializeToString(), grpc.StatusCode.OK),
    ("ListFans", pb.ListFansRequest(rule_set="nope").SerializeToString(), grpc.StatusCode.INVALID_ARGUMENT),
    ("EvaluateBatch", pb.EvaluateBatchRequest(requests=[README_HAND, pb.EvaluateRequest(hand=hand("1m", "1m"))])
     .SerializeToString(), grpc.StatusCode.OK),
    ("EvaluateBatch", pb.EvaluateBatchRequest(requests=[README_HAND] * 1001).SerializeToString(),
     grpc.StatusCode.RESOURCE_EXHAUSTED),
]


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with ServerProcess(workers=1) as srv:
        yield srv


@pytest.fixture(scope="module")
def web(server: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebProcess]:
    page = tmp_path_factory.mktemp("page")
    (page / "index.html").write_text("<!doctype html><title>playground</title>")
    (page / "app.js").write_text("console.log('hi');")
    with WebProcess(server.address, "--playground", str(page)) as w:
        yield w


@pytest.fixture(scope="module")
def channel(server: ServerProcess) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.address) as ch:
        yield ch


def grpc_raw(channel: grpc.Channel, path: str, payload: bytes) -> tuple[grpc.StatusCode, bytes | None, str, bytes]:
    """The same call over gRPC, bytes in and out: (code, answer, message, grpc-status-details-bin)."""
    try:
        answer, call = channel.unary_unary(path).with_call(payload, timeout=15)
        return grpc.StatusCode.OK, answer, "", b""
    except grpc.RpcError as e:
        details = dict(e.trailing_metadata() or ()).get("grpc-status-details-bin", b"")
        return e.code(), None, e.details() or "", details


@pytest.mark.parametrize("text", [False, True], ids=["binary", "text"])
@pytest.mark.parametrize(("method", "payload", "expected"), CASES,
                         ids=[f"{m}-{i}" for i, (m, _, _) in enumerate(CASES)])
def test_every_unary_rpc_answers_as_grpc(web: WebProcess, channel: grpc.Channel, method: str, payload: bytes,
                                         expected: grpc.StatusCode | None, text: bool) -> None:
    code, answer, message, details = grpc_raw(channel, f"/{SERVICE}/{method}", payload)
    assert code == expected if expected is not None else code != grpc.StatusCode.OK
    got = grpc_web_call(web.port, method, payload, text=text)
    assert got.http_status == 200
    assert got.status == code.value[0]
    if code == grpc.StatusCode.OK:
        assert got.messages == [answer]
        assert answer is not None  # (a hand that does not win is the empty message)
    else:
        assert got.messages == []
        assert got.message == message
        assert (got.details or b"") == details
        if expected is not None:  # the service's own failures carry google.rpc details
            status = status_pb2.Status.FromString(got.details or b"")
            assert status.code == code.value[0] and status.message == message
            assert any(d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR) for d in status.details)


def test_engine_error_keeps_reason_and_field(web: WebProcess) -> None:
    got = grpc_web_call(web.port, "Evaluate", pb.EvaluateRequest(hand=hand("123m", "1m")).SerializeToString())
    assert got.status == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    status = status_pb2.Status.FromString(got.details or b"")
    info, bad = error_details_pb2.ErrorInfo(), error_details_pb2.BadRequest()
    for d in status.details:
        d.Unpack(info) if d.Is(info.DESCRIPTOR) else d.Unpack(bad)
    assert info.reason == "TILE_COUNT" and info.domain == "mjsvc.dev"
    assert bad.field_violations[0].field == "hand.concealed"
    assert "hand.concealed" in got.message


def test_known_hand_through_grpc_web(web: WebProcess) -> None:
    got = grpc_web_call(web.port, "Evaluate", README_HAND.SerializeToString())
    r = pb.EvaluateResponse.FromString(got.messages[0])
    assert r.is_win and r.best.total == 17
    assert [(f.id, f.count) for f in r.best.fans] == [(39, 1), (56, 1), (61, 1), (79, 1), (81, 2)]


def test_health_check_and_healthz(web: WebProcess, channel: grpc.Channel) -> None:
    req = health_pb2.HealthCheckRequest().SerializeToString()
    got = grpc_web_call(web.port, "", req, path="/grpc.health.v1.Health/Check")
    code, answer, _, _ = grpc_raw(channel, "/grpc.health.v1.Health/Check", req)
    assert got.status == 0 and got.messages == [answer]
    serving = health_pb2.HealthCheckResponse.FromString(answer or b"").status
    status, _, body = http_request(web.port, "GET", "/healthz")
    assert (status == 200) == (serving == health_pb2.HealthCheckResponse.SERVING)
    assert body.decode().strip() == health_pb2.HealthCheckResponse.ServingStatus.Name(serving)


def test_healthz_503_without_server() -> None:
    dead = f"127.0.0.1:{_closed_port()}"
    with WebProcess(dead, "--playground", "") as w:
        status, _, body = http_request(w.port, "GET", "/healthz")
        assert status == 503 and b"UNAVAILABLE" in body
        got = grpc_web_call(w.port, "ListFans", b"")
        assert got.status == grpc.StatusCode.UNAVAILABLE.value[0]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- what the gateway answers itself -------------------------------------------------------------------

def _gateway_failure(got: object, code: grpc.StatusCode, reason: str) -> str:
    assert got.http_status == 200 and got.status == code.value[0], got  # type: ignore[attr-defined]
    status = status_pb2.Status.FromString(got.details or b"")  # type: ignore[attr-defined]
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info) and info.reason == reason
    return got.message  # type: ignore[attr-defined,no-any-return]


def test_play_is_unimplemented_with_a_reason(web: WebProcess) -> None:
    got = grpc_web_call(web.port, "Play", pb.PlayRequest(id="1").SerializeToString())
    assert "bidirectional" in _gateway_failure(got, grpc.StatusCode.UNIMPLEMENTED, "UNIMPLEMENTED")
    got = grpc_web_call(web.port, "Nope", b"")
    assert "not served" in _gateway_failure(got, grpc.StatusCode.UNIMPLEMENTED, "UNIMPLEMENTED")


@pytest.mark.parametrize(("body", "words"), [
    (b"", "exactly one message, this request has 0"),
    (struct.pack(">BI", 0, 0) * 2, "exactly one message, this request has 2"),
    (struct.pack(">BI", 0, 10) + b"abc", "declares 10 bytes, 3 follow"),
    (b"\x00\x00", "truncated frame header"),
    (struct.pack(">BI", 0, 5 * 1024 * 1024), "more than the limit"),
])
def test_malformed_bodies_are_invalid_argument(web: WebProcess, body: bytes, words: str) -> None:
    got = grpc_web_call(web.port, "ListFans", b"", body=body)
    assert words in _gateway_failure(got, grpc.StatusCode.INVALID_ARGUMENT, "BAD_REQUEST")


def test_compressed_frame_and_bad_text(web: WebProcess) -> None:
    got = grpc_web_call(web.port, "ListFans", b"", body=struct.pack(">BI", 1, 0))
    assert "compressed" in _gateway_failure(got, grpc.StatusCode.UNIMPLEMENTED, "BAD_REQUEST")
    got = grpc_web_call(web.port, "ListFans", b"", text=True, body=b"***not base64***")
    assert "not base64" in _gateway_failure(got, grpc.StatusCode.INVALID_ARGUMENT, "BAD_REQUEST")


def test_text_body_in_several_padded_chunks(web: WebProcess, channel: grpc.Channel) -> None:
    payload = pb.ListFansRequest(rule_set="mcr2p").SerializeToString()
    framed = struct.pack(">BI", 0, len(payload)) + payload
    body = base64.b64encode(framed[:4]) + base64.b64encode(framed[4:])  # the first chunk ends in '='
    assert b"=" in body[:-2]
    got = grpc_web_call(web.port, "ListFans", b"", text=True, body=body)
    assert got.status == 0 and got.messages == [grpc_raw(channel, f"/{SERVICE}/ListFans", payload)[1]]


def test_grpc_timeout(web: WebProcess) -> None:
    payload = README_HAND.SerializeToString()
    assert grpc_web_call(web.port, "Evaluate", payload, headers={"grpc-timeout": "10S"}).status == 0
    got = grpc_web_call(web.port, "Evaluate", payload, headers={"grpc-timeout": "soon"})
    assert "bad grpc-timeout" in _gateway_failure(got, grpc.StatusCode.INVALID_ARGUMENT, "BAD_REQUEST")
    assert parse_timeout("250m") == 0.25 and parse_timeout("2H") == 7200 and parse_timeout("1.5S") is None


def test_a_header_grpc_cannot_carry_is_invalid_argument_naming_it(web: WebProcess) -> None:
    """HTTP allows a tab inside a header value, gRPC metadata does not: forwarding one made gRPC refuse the call
    before it left, which the gateway answered with HTTP 500 and logged as its own error."""
    payload = pb.ListFansRequest().SerializeToString()
    got = grpc_web_call(web.port, "ListFans", payload, headers={"x-game": "table\t7"})
    assert "x-game" in _gateway_failure(got, grpc.StatusCode.INVALID_ARGUMENT, "BAD_REQUEST")
    assert grpc_web_call(web.port, "ListFans", payload, headers={"x-game": "\ttable 7\t"}).status == 0  # trimmed
    # a binary (-bin) value that is not base64 is refused the same way, not dropped; padding is optional
    got = grpc_web_call(web.port, "ListFans", payload, headers={"x-game-bin": "!!"})
    assert "x-game-bin" in _gateway_failure(got, grpc.StatusCode.INVALID_ARGUMENT, "BAD_REQUEST")
    for value in ("YQ", "YQ=="):
        assert grpc_web_call(web.port, "ListFans", payload, headers={"x-game-bin": value}).status == 0
    assert " ERROR " not in web.log()


# Headers a client may send, with values HTTP takes but gRPC metadata may not (tabs inside, long ones, bad
# base64 for -bin keys, odd timeouts), and names the gateway keeps for itself.
HOSTILE_HEADERS = ("x-game", "x-game-bin", "grpc-timeout", "x-request-id", "x-up", "te", "x-a.b", "authorization",
                   "cookie", "grpc-encoding", "grpc-accept-encoding", "accept", "x_y", "x-1")
HOSTILE_VALUES = ("a", "a\tb", "\ta", "", "a b", "YQ==", "YQ", "!!", "1S", "0S", "-1S", "a" * 500, "a" * 5000, "%00",
                  "a,b", "x;y", "9H", "  x  ")


def test_hostile_headers_get_an_answer_never_an_error_of_the_gateway(web: WebProcess) -> None:
    """400 calls of every unary method, binary and text, each with one to four headers drawn from the lists
    above: each is answered by HTTP (400 for a value HTTP refuses, 431 for a head too large) or by a grpc-web
    status, and the gateway logs no error of its own (a tab inside a value was an HTTP 500 and a logged error)."""
    rng = random.Random(3)
    methods = {"ListFans": pb.ListFansRequest(), "Evaluate": README_HAND, "Analyze": pb.AnalyzeRequest(),
               "Legal": pb.LegalRequest(), "Settle": pb.SettleRequest(), "EvaluateBatch": pb.EvaluateBatchRequest()}
    seen: set[int] = set()
    for _ in range(400):
        method = rng.choice(sorted(methods))
        headers = {rng.choice(HOSTILE_HEADERS): rng.choice(HOSTILE_VALUES) for _ in range(rng.randint(1, 4))}
        got = grpc_web_call(web.port, method, methods[method].SerializeToString(), text=rng.random() < 0.3,
                            headers=headers)
        assert got.http_status in (200, 400, 431), (method, headers, got)
        if got.http_status == 200:
            # OK or the engine's refusal, a refusal of the gateway's, or gRPC's limit on the size of metadata
            assert got.status in (0, 3, 4, 8), (method, headers, got)
            seen.add(got.status)
    assert {0, 3} <= seen
    assert " ERROR " not in web.log()


def test_http_level_refusals(web: WebProcess) -> None:
    status, _, body = http_request(web.port, "POST", f"/{SERVICE}/ListFans", b"",
                                   {"Content-Type": "application/grpc-web+json"})
    assert status == 415 and b"grpc-web" in body
    status, _, _ = http_request(web.port, "PUT", "/", b"")
    assert status == 405
    status, _, body = http_request(web.port, "POST", f"/{SERVICE}/ListFans", b"",
                                   {"Content-Type": "application/grpc-web", "Content-Length": str(10 ** 9)})
    assert status == 413
    status, _, _ = http_request(web.port, "GET", "/x", headers={"X-Big": "a" * 20000})
    assert status == 431


def test_keep_alive_and_chunked_body(web: WebProcess) -> None:
    payload = pb.ListFansRequest().SerializeToString()
    framed = struct.pack(">BI", 0, len(payload)) + payload
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=15)
    try:
        for _ in range(3):  # one connection, three calls
            conn.request("POST", f"/{SERVICE}/ListFans", body=framed,
                         headers={"Content-Type": "application/grpc-web+proto"})
            r = conn.getresponse()
            assert r.status == 200 and r.read().endswith(b"grpc-status: 0\r\n")
        conn.request("POST", f"/{SERVICE}/ListFans", body=iter([framed[:3], framed[3:]]),
                     headers={"Content-Type": "application/grpc-web+proto"}, encode_chunked=True)
        r = conn.getresponse()
        assert r.status == 200 and r.read().endswith(b"grpc-status: 0\r\n")
    finally:
        conn.close()


# -- origins ------------------------------------------------------------------------------------------

def test_same_origin_by_default(web: WebProcess) -> None:
    payload = pb.ListFansRequest().SerializeToString()
    own = {"Origin": web.url}
    got = grpc_web_call(web.port, "ListFans", payload, headers=own)
    assert got.status == 0 and "access-control-allow-origin" not in got.headers
    status, _, body = http_request(web.port, "POST", f"/{SERVICE}/ListFans", b"",
                                   {"Origin": "https://elsewhere.example", "Content-Type": "application/grpc-web"})
    assert status == 403 and b"--cors-origin" in body
    status, _, _ = http_request(web.port, "OPTIONS", f"/{SERVICE}/ListFans",
                                headers={"Origin": "https://elsewhere.example"})
    assert status == 403


def test_cors_origin_configured(server: ServerProcess) -> None:
    allowed = "https://game.example"
    with WebProcess(server.address, "--cors-origin", allowed, "--playground", "") as w:
        status, headers, _ = http_request(w.port, "OPTIONS", f"/{SERVICE}/Evaluate", headers={
            "Origin": allowed, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,x-grpc-web"})
        assert status == 204 and headers["access-control-allow-origin"] == allowed
        assert "x-grpc-web" in headers["access-control-allow-headers"]
        got = grpc_web_call(w.port, "Evaluate", pb.EvaluateRequest(hand=hand("1m", "1m")).SerializeToString(),
                            headers={"Origin": allowed})
        assert got.headers["access-control-allow-origin"] == allowed
        assert "grpc-status-details-bin" in got.headers["access-control-expose-headers"]
        assert got.status == grpc.StatusCode.INVALID_ARGUMENT.value[0]
        status, _, _ = http_request(w.port, "OPTIONS", "/", headers={"Origin": "https://other.example"})
        assert status == 403


# -- the page -----------------------------------------------------------------------------------------

def test_static_files(web: WebProcess) -> None:
    status, headers, body = http_request(web.port, "GET", "/")
    assert status == 200 and b"playground" in body and headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in headers["content-security-policy"]
    status, headers, _ = http_request(web.port, "GET", "/app.js")
    assert status == 200 and "javascript" in headers["content-type"]
    for path in ("/../web.log", "/%2e%2e/x", "/.hidden", "/sub/dir.js", "/missing.js"):
        assert http_request(web.port, "GET", path)[0] == 404, path
    status, headers, body = http_request(web.port, "HEAD", "/")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0


# -- framing, in process ------------------------------------------------------------------------------

def test_framing_round_trip() -> None:
    body = framing.encode_frame(b"abc") + framing.encode_trailers(3, "bad 100% ✓", [("x-bin", b"\x00\x01")])
    frames = framing.decode_frames(body, 100)
    assert frames[0] == framing.Frame(0, b"abc") and frames[1].flags == framing.TRAILER
    trailers = framing.decode_trailers(frames[1].payload)
    assert trailers == {"grpc-status": "3", "grpc-message": "bad 100%25 %E2%9C%93", "x-bin": "AAE="}
    assert framing.decode_text(base64.b64encode(b"a") + base64.b64encode(b"bc") + b"\n") == b"abc"
    with pytest.raises(ValueError):
        framing.header_value("x", "a\r\nb")


def test_gateway_forwards_bytes_without_generated_messages() -> None:
    # The gateway forwards bytes: it must not import the generated message modules.
    source = (Path(framing.__file__).parent / "gateway.py").read_text()
    assert "mahjong_pb2" not in source


def test_stalled_connections_make_room_for_new_ones(server: ServerProcess) -> None:
    """Issue finding: slowloris connections (a request head sent a byte at a time, never finished) held all of
    the gateway's connections and locked /healthz out until they timed out. At the cap, the connection that
    has waited longest for its request is closed instead, so a new client is answered at once."""
    with WebProcess(server.address, "--playground", "", "--max-connections", "20") as w:
        stalled = []
        for _ in range(20):
            s = socket.create_connection(("127.0.0.1", w.port), timeout=5)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # never finished
            stalled.append(s)
        time.sleep(0.3)
        for _ in range(5):
            status, _, body = http_request(w.port, "GET", "/healthz")
            assert status == 200 and body.strip() == b"SERVING"
        closed = []
        for s in stalled:
            s.settimeout(0.2)
            try:
                closed.append(s.recv(100) == b"")
            except TimeoutError:  # still open
                closed.append(False)
            except OSError:  # reset by the gateway
                closed.append(True)
            s.close()
        # Each eviction frees a slot for good, so the first new connection took one and the others fit:
        # the one closed was the oldest.
        assert closed[0] and 1 <= sum(closed) <= 5, closed
