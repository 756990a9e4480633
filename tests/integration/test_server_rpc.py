"""Every RPC and every error path of a real `mjsvc serve`, through real channels; health, reflection, metrics."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase
from grpc_status import rpc_status
from server_harness import ServerProcess

import engine
import engine.shapes  # noqa: F401  (loaded, so engine.compiled_modules() can tell its form)
from engine.errors import ERROR_CODES
from engine.tiles import parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc

pytestmark = pytest.mark.integration

SERVICE = "mahjong.v1.MahjongEngine"
MAX_BATCH = 16
STREAM_BURST = 10


def T(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with ServerProcess("--max-batch", str(MAX_BATCH), "--stream-rate", "20", "--stream-burst", str(STREAM_BURST),
                       "--max-message-bytes", "100000",
                       env={"MJSVC_SERVICE_CLASS": "bench.doubles:FaultyService",
                            "MJSVC_TEST_FAULT_RULE_SET": "boom"}) as srv:
        yield srv


@pytest.fixture(scope="module")
def channel(server: ServerProcess) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.address) as ch:
        yield ch


@pytest.fixture(scope="module")
def stub(channel: grpc.Channel) -> mahjong_pb2_grpc.MahjongEngineStub:
    return mahjong_pb2_grpc.MahjongEngineStub(channel)


WIN = pb.EvaluateRequest(hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_RED))


def bad(**changes: object) -> pb.EvaluateRequest:
    req = pb.EvaluateRequest()
    req.CopyFrom(WIN)
    for k, v in changes.items():
        if k == "hand":
            req.hand.CopyFrom(v)  # type: ignore[arg-type]
        elif k == "context":
            req.context.CopyFrom(v)  # type: ignore[arg-type]
        elif k == "options":
            req.options.CopyFrom(v)  # type: ignore[arg-type]
        else:
            setattr(req, k, v)
    return req


# (name, request, reason, field) for each engine error code, all through Evaluate
ERRORS = [
    ("BAD_TILE", bad(hand=pb.Hand(concealed=[*T("123m456p789s117z"), 0], winning_tile=pb.TILE_RED)),
     "BAD_TILE", "hand.concealed[12]"),
    ("TILE_COUNT", bad(hand=pb.Hand(concealed=T("123m"), winning_tile=pb.TILE_RED)), "TILE_COUNT",
     "hand.concealed"),
    ("TOO_MANY_COPIES", bad(hand=pb.Hand(concealed=T("11111m456p789s17z"), winning_tile=pb.TILE_RED)),
     "TOO_MANY_COPIES", "hand.concealed"),
    ("BAD_MELD", bad(hand=pb.Hand(concealed=T("123m456p789s1z"), winning_tile=pb.TILE_EAST, melds=[
        pb.Meld(kind=pb.MELD_KIND_PUNG, tiles=T("555z")), pb.Meld(kind=pb.MELD_KIND_CHOW, tiles=T("135m"))])),
     "BAD_MELD", "hand.melds[1].tiles"),
    ("CONTRADICTORY_CONTEXT", bad(context=pb.WinContext(robbing_kong=True, self_drawn=True)),
     "CONTRADICTORY_CONTEXT", "context.robbing_kong"),
    ("BAD_CONTEXT", bad(context=pb.WinContext(flowers=12)), "BAD_CONTEXT", "context.flowers"),
    ("MISSING_WINNING_TILE", bad(hand=pb.Hand(concealed=T("123m456p789s1177z"))), "MISSING_WINNING_TILE",
     "hand.winning_tile"),
    ("UNKNOWN_RULE_SET", bad(rule_set="no-such-rules"), "UNKNOWN_RULE_SET", "rule_set"),
    ("BAD_OPTION", bad(options=pb.RuleOptions(riichi=pb.RiichiOptions(open_tanyao=False))), "BAD_OPTION",
     "options.riichi"),
]


def test_error_table_covers_every_engine_code() -> None:
    assert {e[2] for e in ERRORS} == set(ERROR_CODES)


# ---------------------------------------------------------------------------------------------
# Answers


def test_evaluate(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    r = stub.Evaluate(WIN, timeout=10)
    assert r.is_win and r.best.meets_minimum and r.best.total >= 8
    assert r.best.total == sum(f.points * f.count for f in r.best.fans)
    assert {f.name for f in r.best.fans} >= {"Mixed Straight", "Dragon Pung"}
    assert r.best.decomposition.shape == pb.SHAPE_KIND_STANDARD
    # The same hand asked again (winds dropped from the key: no wind tiles) gives the same answer.
    again = stub.Evaluate(bad(context=pb.WinContext(seat_wind=pb.WIND_WEST)), timeout=10)
    assert again == r
    nowin = stub.Evaluate(bad(hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_M1)), timeout=10)
    assert not nowin.is_win and not nowin.HasField("best")


def test_evaluate_two_player_rule_set(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    r = stub.Evaluate(pb.EvaluateRequest(rule_set="mcr2p", hand=pb.Hand(concealed=T("123456789m1177z"),
                                                                         winning_tile=pb.TILE_RED)), timeout=10)
    assert r.is_win and r.best.total > 0


def test_analyze(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    r = stub.Analyze(pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")), visible=T("1z")), timeout=10)
    assert r.shanten == 0
    assert {(w.tile, w.remaining) for w in r.waits} == {(pb.TILE_EAST, 1), (pb.TILE_SOUTH, 2)}
    r14 = stub.Analyze(pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s11223z"))), timeout=10)
    assert r14.discards and r14.discards[0].shanten == 0


@pytest.mark.parametrize("rule_set", ["mcr", "riichi"])
def test_discard_advice_answers_as_each_discards_own_analysis(stub: mahjong_pb2_grpc.MahjongEngineStub,
                                                              rule_set: str) -> None:
    """Through the server, as a client asks: every option of a 14-tile hand's discard advice (worked out from
    what the other parts give together) is what the server answers for the 13 tiles left after that discard,
    with the discarded copy seen: the same shanten, the waits when ready or else the useful tiles, the same
    copies left."""
    rng = random.Random(20261206)
    wall = [t for t in range(1, 35) for _ in range(4)]
    options, shanten_seen = 0, set()
    for _ in range(120):
        tiles = rng.sample(wall, 14)
        visible = rng.sample(wall, rng.randint(0, 20))
        advice = stub.Analyze(pb.AnalyzeRequest(rule_set=rule_set, hand=pb.Hand(concealed=tiles), visible=visible),
                              timeout=10)
        assert sorted(o.tile for o in advice.discards) == sorted(set(tiles))
        for o in advice.discards:
            rest = list(tiles)
            rest.remove(o.tile)
            own = stub.Analyze(pb.AnalyzeRequest(rule_set=rule_set, hand=pb.Hand(concealed=rest),
                                                 visible=[*visible, o.tile]), timeout=10)
            assert o.shanten == own.shanten, (tiles, o.tile)
            assert list(o.useful_tiles) == list(own.waits if own.shanten == 0 else own.useful_tiles), (tiles, o.tile)
            assert o.useful_count == sum(u.remaining for u in o.useful_tiles)
            shanten_seen.add(o.shanten)
            options += 1
    assert options > 1000 and {1, 2, 3} <= shanten_seen


def test_list_fans(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    r = stub.ListFans(pb.ListFansRequest(), timeout=10)
    assert r.rule_set == "mcr" and r.min_points == 8 and len(r.fans) >= 81
    assert {f.id for f in r.fans} >= set(range(1, 82))
    assert stub.ListFans(pb.ListFansRequest(rule_set="mcr2p"), timeout=10).rule_set == "mcr2p"


def test_evaluate_batch_in_order_with_item_errors(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    reqs = [WIN, ERRORS[1][1], bad(rule_set="no-such-rules"), WIN]
    r = stub.EvaluateBatch(pb.EvaluateBatchRequest(requests=reqs), timeout=10)
    kinds = [item.WhichOneof("result") for item in r.results]
    assert kinds == ["response", "error", "error", "response"]
    assert r.results[0].response.is_win and r.results[3].response == r.results[0].response
    e1, e2 = r.results[1].error, r.results[2].error
    assert (e1.code, e1.reason, e1.field) == ("INVALID_ARGUMENT", "TILE_COUNT", "requests[1].hand.concealed")
    assert (e2.reason, e2.field) == ("UNKNOWN_RULE_SET", "requests[2].rule_set")


def test_play_stream_echoes_ids(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    msgs = [
        pb.PlayRequest(id="t1-1", evaluate=WIN),
        pb.PlayRequest(id="t1-2", analyze=pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")))),
        pb.PlayRequest(id="t1-3", evaluate=ERRORS[0][1]),
        pb.PlayRequest(id="t1-4"),
        pb.PlayRequest(id="t1-5", evaluate=WIN),
    ]
    answers = list(stub.Play(iter(msgs), timeout=10))
    assert [a.id for a in answers] == [m.id for m in msgs]
    assert [a.WhichOneof("response") for a in answers] == ["evaluate", "analyze", "error", "error", "evaluate"]
    assert answers[0].evaluate.is_win and answers[1].analyze.shanten == 0
    assert (answers[2].error.reason, answers[2].error.field) == ("BAD_TILE", "evaluate.hand.concealed[12]")
    assert answers[3].error.reason == "BAD_REQUEST"


# ---------------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(("name", "request_", "reason", "field"), ERRORS, ids=[e[0] for e in ERRORS])
def test_engine_errors_are_invalid_argument_with_details(stub: mahjong_pb2_grpc.MahjongEngineStub, name: str,
                                                         request_: pb.EvaluateRequest, reason: str,
                                                         field: str) -> None:
    with pytest.raises(grpc.RpcError) as info:
        stub.Evaluate(request_, timeout=10)
    err = info.value
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(err)
    assert status is not None and status.message == err.details()
    error_info, bad_request = error_details_pb2.ErrorInfo(), error_details_pb2.BadRequest()
    assert status.details[0].Unpack(error_info) and status.details[1].Unpack(bad_request)
    assert error_info.reason == reason and error_info.domain == "mjsvc.dev"
    assert error_info.metadata["field"] == field
    assert bad_request.field_violations[0].field == field
    assert bad_request.field_violations[0].description == err.details()


def test_analyze_error(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    with pytest.raises(grpc.RpcError) as info:
        stub.Analyze(pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")), visible=[0]), timeout=10)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert rpc_status.from_call(info.value).details  # type: ignore[union-attr]
    with pytest.raises(grpc.RpcError) as info:
        stub.ListFans(pb.ListFansRequest(rule_set="no-such-rules"), timeout=10)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT


@pytest.mark.parametrize("rule_set", ["mcr", "riichi", "sichuan", "hk", "guangdong", "mcr2p"])
def test_analyze_refuses_a_kind_seen_and_held_more_than_four_times(stub: mahjong_pb2_grpc.MahjongEngineStub,
                                                                   rule_set: str) -> None:
    """1m held three times (nine gates) and seen twice: the table has four. Every rule set (four have an
    Analyze of their own), through the service's one-pass reading of the request; seen once, it answers:
    no 1m left."""
    hand = pb.Hand(concealed=T("1112345678999m"))
    with pytest.raises(grpc.RpcError) as info:
        stub.Analyze(pb.AnalyzeRequest(rule_set=rule_set, hand=hand, visible=T("11m")), timeout=10)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.details() == "visible: 1m 2 times, with the 3 held that makes 5; a kind has 4 copies"
    status = rpc_status.from_call(info.value)
    error_info = error_details_pb2.ErrorInfo()
    assert status is not None and status.details[0].Unpack(error_info)
    assert (error_info.reason, error_info.metadata["field"]) == ("TOO_MANY_COPIES", "visible")
    answer = stub.Analyze(pb.AnalyzeRequest(rule_set=rule_set, hand=hand, visible=T("1m")), timeout=10)
    one = [w for w in answer.waits if w.tile == pb.TILE_M1]
    assert one and one[0].remaining == 0


def test_unexpected_exception_is_internal_without_trace(server: ServerProcess,
                                                        stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    with pytest.raises(grpc.RpcError) as info:
        stub.Evaluate(pb.EvaluateRequest(rule_set="boom"), timeout=10, metadata=(("x-request-id", "req-4242"),))
    err = info.value
    assert err.code() == grpc.StatusCode.INTERNAL
    assert "req-4242" in err.details() and "Traceback" not in err.details() and "injected" not in err.details()
    deadline = time.monotonic() + 5
    while "request req-4242: Evaluate failed" not in server.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    log = server.log()
    assert "request req-4242: Evaluate failed" in log and "RuntimeError: injected fault" in log
    # Inside a stream the failure is one message's error, and the stream goes on.
    answers = list(stub.Play(iter([pb.PlayRequest(id="x", evaluate=pb.EvaluateRequest(rule_set="boom")),
                                   pb.PlayRequest(id="y", evaluate=WIN)]), timeout=10))
    assert answers[0].error.code == "INTERNAL" and "Traceback" not in answers[0].error.message
    assert answers[1].evaluate.is_win


def test_batch_too_large_is_resource_exhausted(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    with pytest.raises(grpc.RpcError) as info:
        stub.EvaluateBatch(pb.EvaluateBatchRequest(requests=[WIN] * (MAX_BATCH + 1)), timeout=10)
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    status = rpc_status.from_call(info.value)
    error_info = error_details_pb2.ErrorInfo()
    assert status is not None and status.details[0].Unpack(error_info)
    assert error_info.reason == "BATCH_TOO_LARGE"
    assert len(stub.EvaluateBatch(pb.EvaluateBatchRequest(requests=[WIN] * MAX_BATCH), timeout=10).results) == MAX_BATCH


def test_message_too_large_is_resource_exhausted(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    huge = pb.AnalyzeRequest(hand=pb.Hand(concealed=T("123m456p789s1122z")), visible=[1] * 120_000)
    with pytest.raises(grpc.RpcError) as info:
        stub.Analyze(huge, timeout=10)
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_stream_rate_limit(stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    n = STREAM_BURST + 15
    t0 = time.monotonic()
    answers = list(stub.Play(iter([pb.PlayRequest(id=str(i), evaluate=WIN) for i in range(n)]), timeout=10))
    elapsed = time.monotonic() - t0
    assert [a.id for a in answers] == [str(i) for i in range(n)]
    limited = [a for a in answers if a.WhichOneof("response") == "error"]
    assert all(a.error.code == "RESOURCE_EXHAUSTED" and a.error.reason == "RATE_LIMITED" for a in limited)
    assert all(a.evaluate.is_win for a in answers[:STREAM_BURST])  # the burst passes
    # Then 20 messages/s: no more got through than the bucket could have refilled while this ran.
    assert n - len(limited) <= STREAM_BURST + 20 * elapsed + 1
    if elapsed < 0.5:
        assert len(limited) >= 15 - 20 * elapsed - 1


def test_deadlines(stub: mahjong_pb2_grpc.MahjongEngineStub, server: ServerProcess) -> None:
    # A stream whose deadline passes is ended by the server too: its open-stream gauge returns to 0.
    before = server.metric("grpc_server_handled_total", grpc_method="Play")

    def slow() -> Iterator[pb.PlayRequest]:
        yield pb.PlayRequest(id="1", evaluate=WIN)
        time.sleep(0.8)
        yield pb.PlayRequest(id="2", evaluate=WIN)

    call = stub.Play(slow(), timeout=0.4)
    with pytest.raises(grpc.RpcError) as info:
        list(call)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    deadline = time.monotonic() + 5
    while server.metric("grpc_server_handled_total", grpc_method="Play") == before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.metric("grpc_server_handled_total", grpc_method="Play") == before + 1
    assert server.metric("mjsvc_open_streams") == 0


# ---------------------------------------------------------------------------------------------
# Health, reflection, metrics


def test_health(channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    for name in ("", SERVICE):
        assert health.Check(health_pb2.HealthCheckRequest(service=name), timeout=5).status == \
            health_pb2.HealthCheckResponse.SERVING
    with pytest.raises(grpc.RpcError) as info:
        health.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=5)
    assert info.value.code() == grpc.StatusCode.NOT_FOUND


def test_reflection_lists_and_describes_the_service(channel: grpc.Channel) -> None:
    db = ProtoReflectionDescriptorDatabase(channel)
    services = set(db.get_services())
    assert {SERVICE, "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"} <= services
    from google.protobuf.descriptor_pool import DescriptorPool

    pool = DescriptorPool(db)
    svc = pool.FindServiceByName(SERVICE)
    assert {m.name for m in svc.methods} == {"Evaluate", "Analyze", "ListFans", "EvaluateBatch", "Legal",
                                                "Settle", "Play"}
    assert pool.FindMessageTypeByName("mahjong.v1.WinContext").fields_by_name["flowers"].number == 8


def test_metrics_count_calls_by_method_and_code(server: ServerProcess,
                                                stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
    def grpc_count(name: str, method: str, **labels: str) -> float:
        return server.metric(name, grpc_service=SERVICE, grpc_method=method, **labels)

    ev = dict(started=grpc_count("grpc_server_started_total", "Evaluate"),
              ok=grpc_count("grpc_server_handled_total", "Evaluate", grpc_code="OK"),
              bad=grpc_count("grpc_server_handled_total", "Evaluate", grpc_code="InvalidArgument"),
              hist=grpc_count("grpc_server_handling_seconds_count", "Evaluate"),
              recv=grpc_count("grpc_server_msg_received_total", "Play"),
              sent=grpc_count("grpc_server_msg_sent_total", "Play"),
              hits=server.metric("mjsvc_cache_hits_total", operation="evaluate"))
    fresh = bad(context=pb.WinContext(flowers=3, self_drawn=True))
    for _ in range(3):
        stub.Evaluate(fresh, timeout=10)
    with pytest.raises(grpc.RpcError):
        stub.Evaluate(ERRORS[1][1], timeout=10)
    list(stub.Play(iter([pb.PlayRequest(id=str(i), evaluate=WIN) for i in range(4)]), timeout=10))

    assert grpc_count("grpc_server_started_total", "Evaluate") == ev["started"] + 4
    assert grpc_count("grpc_server_handled_total", "Evaluate", grpc_code="OK") == ev["ok"] + 3
    assert grpc_count("grpc_server_handled_total", "Evaluate", grpc_code="InvalidArgument") == ev["bad"] + 1
    assert grpc_count("grpc_server_handling_seconds_count", "Evaluate") == ev["hist"] + 4
    assert grpc_count("grpc_server_msg_received_total", "Play") == ev["recv"] + 4
    assert grpc_count("grpc_server_msg_sent_total", "Play") == ev["sent"] + 4
    # One channel is one connection, served by one worker: the repeats hit its cache.
    assert server.metric("mjsvc_cache_hits_total", operation="evaluate") >= ev["hits"] + 2

    samples = server.metrics()
    buckets = sorted(float(dict(ls)["le"]) for (n, ls), _ in samples.items()
                     if n == "grpc_server_handling_seconds_bucket" and dict(ls)["grpc_method"] == "Evaluate")
    assert buckets[0] == 25e-6 and buckets[-2] == 1.0 and buckets[-1] == float("inf")
    labels = next(dict(ls) for (n, ls), _ in samples.items() if n == "grpc_server_started_total")
    assert set(labels) == {"grpc_type", "grpc_service", "grpc_method"}
    assert server.metric("grpc_server_started_total", grpc_method="Play", grpc_type="bidi_stream") > 0
    assert server.metric("grpc_server_started_total", grpc_method="Evaluate", grpc_type="unary") > 0
    assert server.metric("mjsvc_engine_seconds_count", rule_set="mcr", operation="evaluate") > 0
    assert server.metric("mjsvc_cache_misses_total", operation="evaluate") > 0
    assert server.metric("mjsvc_cache_entries") > 0
    assert server.metric("mjsvc_workers_ready") == 2 and server.metric("mjsvc_workers_configured") == 2
    assert server.metric("mjsvc_worker_restarts_total") == 0
    assert server.metric("mjsvc_build_info") == 1
    assert any(n == "mjsvc_build_info" and dict(ls).get("version") for (n, ls) in samples)
    # which form of the engine the workers run: what this test process runs too
    form = "compiled" if "engine.shapes" in engine.compiled_modules() else "source"
    assert any(n == "mjsvc_build_info" and dict(ls).get("engine") == form for (n, ls) in samples)
