"""Issue 11: the service fuzzed over real gRPC. Hypothesis draws sequences of calls to every RPC (Evaluate,
Analyze, ListFans, EvaluateBatch, Legal, Settle, Play), as structured messages (legal winning hands, random
hands, random melds and contexts, odd rule sets, merged and repeated fields; for the referee, whole hands of
every rule set played and then damaged, tests/support/referee_mutations.py) and as raw bytes (random and
mutated), in any order over a shared pool of hands, so the same hand goes through Evaluate and Analyze,
repeated, cached and not.

Checked for every request: the status is never UNKNOWN or INTERNAL; a body protobuf cannot parse is
INVALID_ARGUMENT / BAD_REQUEST; every request protobuf can parse gets exactly what `mjsvc batch --cache-size
0` (a separate process with no cache, fed the parsed request as JSON) answers, response or error reason and
field; and at the end the server has restarted no worker and logged no error. A few thousand requests in
`make test`; `make test-slow` sends 100,000 and writes the figures to bench/results/fuzz.json.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from referee_mutations import mutated, played_logs
from server_harness import ROOT, ServerProcess

from bench.mcr_cases import cases
from mjsvc import limits
from mjsvc.config import ServeConfig
from mjsvc.convert import hand_to_proto
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.launcher import clean_env, console_script
from mjsvc.wire import encode_varint, string_field

pytestmark = pytest.mark.integration

SERVICE = "mahjong.v1.MahjongEngine"
FAST_EXAMPLES = int(os.environ.get("MJSVC_FUZZ_EXAMPLES", "140"))  # x ~18 requests each
SLOW_REQUESTS = int(os.environ.get("MJSVC_FUZZ_REQUESTS", "100000"))  # make test-slow: 100,000
SHARDS = int(os.environ.get("MJSVC_FUZZ_SHARDS", "2"))  # client processes of the long run
RESULTS = ROOT / "bench" / "results" / "fuzz.json"
MAX_BATCH = ServeConfig.max_batch
MAX_MESSAGE_BYTES = ServeConfig.max_message_bytes


# ---------------------------------------------------------------------------------------------
# The reference: `mjsvc batch --cache-size 0`, one line in, one line out


class BatchReference:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([str(console_script()), "batch", "--cache-size", "0"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=tempfile.gettempdir(), env=clean_env())

    def answer(self, method: str, request: Message) -> dict[str, Any]:
        line = json.dumps({"method": method, "request": json_format.MessageToDict(request)})
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return dict(json.loads(self.proc.stdout.readline()))

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(30)


def as_dict(msg: Message) -> dict[str, Any]:
    return json_format.MessageToDict(msg, preserving_proto_field_name=True, always_print_fields_with_no_presence=True)


# ---------------------------------------------------------------------------------------------
# What to send

CTX_FLAGS = ("self_drawn", "last_of_kind", "replacement_tile", "robbing_kong", "last_wall_tile")


def _context(ctx: Any) -> pb.WinContext:
    out = pb.WinContext(seat_wind=int(ctx.seat_wind) + 1, prevalent_wind=int(ctx.prevalent_wind) + 1,
                        flowers=ctx.flowers)
    for f in CTX_FLAGS:
        setattr(out, f, getattr(ctx, f))
    return out


def _pool() -> tuple[list[pb.EvaluateRequest], list[pb.Hand]]:
    wins = [pb.EvaluateRequest(hand=hand_to_proto(c.hand.concealed, c.hand.melds, c.hand.winning_tile),
                               context=_context(c.ctx)) for c in cases(80, seed=11)]
    rng = random.Random(11)
    hands = [w.hand for w in wins]
    for _ in range(40):  # random 13- and 14-tile hands, no melds
        wall = [t for t in range(34) for _ in range(4)]
        rng.shuffle(wall)
        hands.append(hand_to_proto(wall[: rng.choice((13, 14))]))
    return wins, hands


WINS, HANDS = _pool()

tile_values = st.one_of(st.integers(1, 34), st.integers(0, 40))
raw_tiles = st.lists(tile_values, max_size=20)
rule_sets = st.sampled_from(["", "mcr", "mcr", "mcr2p", "MCR", "riichi", "sichuan", "hk", "guangdong", "nope",
                             "x" * 40])
melds = st.builds(pb.Meld, kind=st.integers(0, 4), tiles=st.lists(st.integers(1, 34), min_size=3, max_size=4),
                  concealed=st.booleans(), claimed_from=st.integers(0, 4))
random_hands = st.builds(pb.Hand, concealed=raw_tiles, melds=st.lists(melds, max_size=2),
                         winning_tile=st.integers(0, 36))
hands = st.one_of(st.sampled_from(HANDS), st.sampled_from(HANDS), random_hands)
contexts = st.builds(pb.WinContext, self_drawn=st.booleans(), last_of_kind=st.booleans(),
                     robbing_kong=st.booleans(), seat_wind=st.integers(0, 6), prevalent_wind=st.integers(0, 5),
                     flowers=st.integers(0, 9), heavenly=st.booleans(), riichi=st.booleans(),
                     dora_indicators=st.lists(st.integers(0, 35), max_size=3))
small = st.integers(0, 14)
options = st.one_of(
    st.just(pb.RuleOptions()),
    st.builds(pb.RuleOptions, riichi=st.builds(pb.RiichiOptions)),
    st.builds(pb.RuleOptions, sichuan=st.builds(pb.SichuanOptions, variant=st.integers(0, 3), fan_cap=small,
                                                void_suit=st.integers(0, 4))),
    st.builds(pb.RuleOptions, hk=st.builds(pb.HkOptions, min_faan=small, limit=small, flowers=st.booleans())),
    st.builds(pb.RuleOptions, guangdong=st.builds(pb.GuangdongOptions, ghosts=st.lists(st.integers(0, 35), max_size=3),
                                                  honors=st.booleans(), chow_melds=st.booleans())),
)


def _evaluate_from_pool(i: int, flip_self_drawn: bool) -> pb.EvaluateRequest:
    req = pb.EvaluateRequest()
    req.CopyFrom(WINS[i % len(WINS)])
    if flip_self_drawn:
        req.context.self_drawn = not req.context.self_drawn
    return req


evaluates = st.one_of(
    st.builds(_evaluate_from_pool, st.integers(0, len(WINS) - 1), st.booleans()),
    st.builds(pb.EvaluateRequest, rule_set=rule_sets, hand=hands, context=contexts, options=options),
    st.builds(pb.EvaluateRequest, hand=hands),  # the same bytes as an AnalyzeRequest of the same hand
)
analyzes = st.one_of(
    st.builds(pb.AnalyzeRequest, hand=hands),
    st.builds(pb.AnalyzeRequest, rule_set=rule_sets, hand=hands, visible=raw_tiles, options=options),
    st.builds(pb.AnalyzeRequest, hand=st.sampled_from(HANDS), visible=st.lists(st.integers(1, 34), max_size=150)),
)
list_fans = st.builds(pb.ListFansRequest, rule_set=rule_sets)
LOGS = played_logs()
hand_logs = st.one_of(
    st.sampled_from(LOGS),  # whole hands as played: Settle answers, Legal at the hand's end
    st.builds(lambda i, seed: mutated(LOGS[i], random.Random(seed)), st.integers(0, len(LOGS) - 1),
              st.integers(0, 2**32 - 1)),
)
legals = st.builds(pb.LegalRequest, log=hand_logs)
settles = st.builds(pb.SettleRequest, log=hand_logs)
REQUEST_TYPES = {"Evaluate": pb.EvaluateRequest, "Analyze": pb.AnalyzeRequest, "ListFans": pb.ListFansRequest,
                 "EvaluateBatch": pb.EvaluateBatchRequest, "Legal": pb.LegalRequest, "Settle": pb.SettleRequest}


def _mutate(data: bytes, pos: int, byte: int) -> bytes:
    if not data:
        return bytes([byte])
    pos %= len(data)
    return data[:pos] + bytes([byte]) + data[pos + 1:]


UNKNOWN_FIELD = 9999  # no request message has it: protobuf parses it as an unknown field and drops it


def _pad(data: bytes, size: int) -> bytes:
    """`data` with an unknown length-delimited field appended so that the body is about `size` bytes long."""
    tag = encode_varint(UNKNOWN_FIELD << 3 | 2)
    room = size - len(data) - len(tag) - 3
    if room <= 0:
        return data
    return data + tag + encode_varint(room) + b"\0" * room


def raw(messages: st.SearchStrategy[Message], body_limit: int) -> st.SearchStrategy[bytes]:
    """Bytes: a message serialized, two concatenated (protobuf merges them), one byte changed, noise, or a
    message padded with an unknown field to about the method's body limit (just under or just over it)."""
    ser = messages.map(lambda m: m.SerializeToString())
    return st.one_of(
        ser,
        st.tuples(ser, ser).map(b"".join),
        st.tuples(ser, st.integers(0, 10_000), st.integers(0, 255)).map(lambda t: _mutate(*t)),
        st.binary(max_size=40),
        st.tuples(ser, st.integers(-8, 8)).map(lambda t: _pad(t[0], body_limit + t[1])),
    )


def _play(pair: tuple[str, Message], pid: str) -> pb.PlayRequest:
    kind, msg = pair
    out = pb.PlayRequest(id=pid)
    if kind != "none":
        getattr(out, kind).CopyFrom(msg)
    return out


BODY_LIMITS = limits.body_limits(MAX_BATCH, MAX_MESSAGE_BYTES)  # the server's, for its default settings
play_messages = st.builds(_play, st.one_of(st.tuples(st.just("evaluate"), evaluates),
                                           st.tuples(st.just("analyze"), analyzes),
                                           st.tuples(st.just("legal"), legals),
                                           st.tuples(st.just("settle"), settles),
                                           st.tuples(st.just("none"), st.just(pb.EvaluateRequest()))),
                          st.text(max_size=8))
calls = st.one_of(
    st.tuples(st.just("Evaluate"), st.one_of(evaluates, raw(evaluates, BODY_LIMITS["Evaluate"]))),
    st.tuples(st.just("Analyze"), st.one_of(analyzes, raw(analyzes, BODY_LIMITS["Analyze"]))),
    st.tuples(st.just("ListFans"), st.one_of(list_fans, raw(list_fans, BODY_LIMITS["ListFans"]))),
    st.tuples(st.just("Legal"), st.one_of(legals, legals, raw(legals, BODY_LIMITS["Legal"]))),
    st.tuples(st.just("Settle"), st.one_of(settles, settles, raw(settles, BODY_LIMITS["Settle"]))),
    st.tuples(st.just("EvaluateBatch"), st.one_of(st.builds(pb.EvaluateBatchRequest,
                                                            requests=st.lists(evaluates, max_size=6)),
                                                  raw(st.builds(pb.EvaluateBatchRequest,
                                                                requests=st.lists(evaluates, max_size=3)),
                                                      # a whole batch's limit is megabytes: padded to an
                                                      # item's, its bodies stay small and are parsed
                                                      BODY_LIMITS["Evaluate"]))),
    st.tuples(st.just("Play"), st.lists(st.one_of(play_messages, raw(play_messages, BODY_LIMITS["Play"])),
                                        min_size=1, max_size=6)),
)
sequences = st.lists(calls, min_size=8, max_size=30)


# ---------------------------------------------------------------------------------------------
# Sending and checking


class Fuzzer:
    def __init__(self, address: str) -> None:
        self.channel = grpc.insecure_channel(address)
        self.reference = BatchReference()
        self.sent: Counter[str] = Counter()  # requests per RPC (Play: messages)
        self.outcomes: Counter[str] = Counter()  # "RPC CODE" (Play messages: their error code or OK)
        self.compared = 0
        self.undecodable = 0
        self.oversized = 0

    def close(self) -> None:
        self.reference.close()
        self.channel.close()

    def unary(self, method: str, body: Message | bytes) -> None:
        raw_body = body if isinstance(body, bytes) else body.SerializeToString()
        call = self.channel.unary_unary(f"/{SERVICE}/{method}")
        self.sent[method] += 1
        try:
            answer: bytes | None = call(raw_body, timeout=30)
            code, reason, field = "OK", "", ""
        except grpc.RpcError as err:
            answer = None
            code = err.code().name  # type: ignore[attr-defined]
            reason, field = _details(err)
        self.outcomes[f"{method} {code}"] += 1
        assert code not in ("UNKNOWN", "INTERNAL"), (method, raw_body, code)
        if len(raw_body) > BODY_LIMITS[method]:  # refused by its size, whatever it holds
            self.oversized += 1
            assert (code, reason, field) == ("INVALID_ARGUMENT", "LIMIT_EXCEEDED", "request"), (method, code, reason)
            return
        parsed = _parse(REQUEST_TYPES[method], raw_body)
        if parsed is None:
            self.undecodable += 1
            assert (code, reason) == ("INVALID_ARGUMENT", "BAD_REQUEST"), (method, raw_body, code, reason)
            return
        expected = self.reference.answer(method, parsed)
        self.compared += 1
        if "response" in expected:
            assert answer is not None, (method, parsed, code, reason, expected)
            assert as_dict(type(_response(method)).FromString(answer)) == expected["response"], (method, parsed)
        else:
            err = expected["error"]
            assert (code, reason, field) == (err["code"], err["reason"], err.get("field", "")), (method, parsed)

    def play(self, messages: list[Message | bytes]) -> None:
        bodies = [m if isinstance(m, bytes) else m.SerializeToString() for m in messages]
        call = self.channel.stream_stream(f"/{SERVICE}/Play")
        self.sent["Play"] += len(bodies)
        answers = [pb.PlayResponse.FromString(a) for a in call(iter(bodies), timeout=30)]  # parses: valid UTF-8
        assert len(answers) == len(bodies)
        for body, answer in zip(bodies, answers, strict=True):
            kind = answer.WhichOneof("response")
            code = answer.error.code if kind == "error" else "OK"
            self.outcomes[f"Play {code}"] += 1
            assert code not in ("UNKNOWN", "INTERNAL"), (body, answer)
            if len(body) > BODY_LIMITS["Play"]:
                self.oversized += 1
                # refused unparsed; its id (field 1) read from the bytes, when there is one to read
                rid = string_field(body, 1, 128) or ""
                assert (answer.error.reason, answer.error.field, answer.id) == ("LIMIT_EXCEEDED", "request", rid), \
                    answer
                continue
            req = _parse(pb.PlayRequest, body)
            if req is None:
                self.undecodable += 1
                assert (answer.error.reason, answer.id) == ("BAD_REQUEST", ""), (body, answer)
                continue
            which = req.WhichOneof("request")
            if which is None:
                assert answer.error.reason == "BAD_REQUEST" and answer.id == req.id
                continue
            method = which.title()
            expected = self.reference.answer(method, getattr(req, which))
            self.compared += 1
            assert answer.id == req.id
            if "response" in expected:
                assert kind == which, (req, answer)
                assert as_dict(getattr(answer, which)) == expected["response"], req
            else:
                err = expected["error"]
                field = err.get("field", "")
                assert (answer.error.code, answer.error.reason, answer.error.field) == (
                    err["code"], err["reason"], f"{which}.{field}" if field else ""), (req, answer)

    def run(self, sequence: list[tuple[str, Any]]) -> None:
        for method, body in sequence:
            if method == "Play":
                self.play(body)
            else:
                self.unary(method, body)

    def figures(self) -> dict[str, Any]:
        return {"requests_per_rpc": dict(sorted(self.sent.items())), "total": sum(self.sent.values()),
                "outcomes": dict(sorted(self.outcomes.items())), "compared_with_batch": self.compared,
                "undecodable": self.undecodable, "over_the_body_limit": self.oversized}


def _response(method: str) -> Message:
    return {"Evaluate": pb.EvaluateResponse(), "Analyze": pb.AnalyzeResponse(), "ListFans": pb.ListFansResponse(),
            "EvaluateBatch": pb.EvaluateBatchResponse(), "Legal": pb.LegalResponse(),
            "Settle": pb.SettleResponse()}[method]


def _parse(cls: type[Message], body: bytes) -> Message | None:
    try:
        return cls.FromString(body)
    except (DecodeError, RuntimeError, ValueError):
        return None


def _details(err: grpc.RpcError) -> tuple[str, str]:
    status = rpc_status.from_call(err)  # type: ignore[arg-type]
    if status is None or not status.details:
        return "", ""
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    return info.reason, info.metadata.get("field", "")


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with ServerProcess("--stream-rate", "0", workers=2) as srv:
        yield srv


def _check_server(server: ServerProcess) -> None:
    assert server.metric("mjsvc_worker_restarts_total") == 0
    lines = server.log().splitlines()
    bad = [i for i, line in enumerate(lines) if " ERROR " in line or "Traceback" in line]
    assert not bad, "\n".join(lines[bad[0]:bad[0] + 40])
    assert server.metric("grpc_server_handled_total", grpc_code="Unknown") == 0
    assert server.metric("grpc_server_handled_total", grpc_code="Internal") == 0


def _fuzz(address: str, examples: int, shard: int | None = None) -> dict[str, Any]:
    """`examples` drawn sequences against the server at `address`, with a client and reference process of
    this call's own. Derandomized (the fast run), or seeded by `shard` (a shard of the long run, each drawing
    other sequences, reproducibly). No shrinking: over a live server it takes minutes; a failing sequence is
    printed as drawn."""
    fuzzer = Fuzzer(address)
    try:
        @settings(max_examples=examples, deadline=None, database=None, derandomize=shard is None,
                  suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
        @given(sequences)
        def run(sequence: list[tuple[str, Any]]) -> None:
            fuzzer.run(sequence)

        (run if shard is None else seed(shard)(run))()
        return fuzzer.figures()
    finally:
        fuzzer.close()


def test_fuzz_every_rpc(server: ServerProcess) -> None:
    figures = _fuzz(server.address, FAST_EXAMPLES)
    print(json.dumps(figures))  # the figures, for `pytest -s`
    assert figures["total"] >= 2000 and figures["compared_with_batch"] >= 1000, figures
    assert figures["over_the_body_limit"] > 0 and figures["undecodable"] > 0, figures
    rpcs = ("Evaluate", "Analyze", "ListFans", "EvaluateBatch", "Legal", "Settle", "Play")
    assert all(figures["requests_per_rpc"].get(m, 0) > 100 for m in rpcs), figures
    # the referee's answers are compared too, not only its refusals
    assert figures["outcomes"].get("Legal OK", 0) > 20 and figures["outcomes"].get("Settle OK", 0) > 20, figures
    _check_server(server)


def _merged(parts: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in parts:
        for key, value in part.items():
            if isinstance(value, dict):
                into = out.setdefault(key, Counter())
                into.update(value)
            else:
                out[key] = out.get(key, 0) + value
    return {k: dict(sorted(v.items())) if isinstance(v, Counter) else v for k, v in out.items()}


@pytest.mark.slow
def test_fuzz_100000_requests(server: ServerProcess) -> None:
    """100,000 requests in SHARDS client processes against one server (2 workers). One client process spends
    ~5-8 ms of CPU per request drawing it with hypothesis and converting it for the reference, more than
    the server spends answering it: in one process the run took longer than 40 minutes on the shared
    2-core machine; each shard runs the same checks on sequences of its own."""
    t0 = time.monotonic()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(SHARDS, mp_context=context) as pool:
        parts = list(pool.map(_fuzz, [server.address] * SHARDS, [SLOW_REQUESTS // 17 // SHARDS] * SHARDS,
                              range(SHARDS)))
    figures = _merged(parts)
    figures["shards"] = SHARDS
    figures["seconds"] = round(time.monotonic() - t0)
    figures["workers"] = 2
    figures["worker_restarts"] = server.metric("mjsvc_worker_restarts_total")
    figures["server_handled"] = {code: server.metric("grpc_server_handled_total", grpc_code=code)
                                 for code in ("OK", "InvalidArgument", "ResourceExhausted", "Unknown", "Internal")}
    figures["error_lines_logged"] = sum(" ERROR " in line for line in server.log().splitlines())
    RESULTS.write_text(json.dumps(figures, indent=1) + "\n")
    _check_server(server)
    assert figures["total"] >= SLOW_REQUESTS * 0.9, figures
