"""`python -m bench.service_cost`: what one call costs the server around the engine, against gRPC's floor.

Two parts, in one run:

1. Per message, server CPU (user + system of the whole process tree, from /proc) for Evaluate (the README's
   MCR hand), Analyze of 13 tiles and Analyze of 14 tiles, each over Play (16 closed-loop streams) and
   unary (16 concurrent closed-loop calls), one worker each, against four things:
   - `floor`: a bare grpc.aio server on uvloop (as the workers run) answering the same request bytes with
     the same answer bytes (a dict lookup; no protobuf, no interceptors, no metrics, no engine);
   - `hit`: `mjsvc serve --workers 1`, every request a cache hit;
   - `engine`: `mjsvc serve --workers 1 --cache-size 0`, the engine on every call;
   - `engine_alone`: the engine's own time in this process (`engine.api.evaluate` / `analyze`), timed
     before the servers start and after they stop, the lower of the two;
   - `work`: the engine server's own account (its mjsvc_engine_seconds) of the time per call of the work
     after the cache (limits, conversion in, checks, engine, answer), as the loaded worker runs it.
   Servers are measured in interleaved rounds (floor, hit and engine for each case, in an order shuffled
   each time, `--seed`) so that the machine's other load falls on all alike and none always runs first;
   reported per round and as the median, with the ratios hit / floor and (engine - floor) / engine_alone.
2. A per-stage breakdown of one call, in process: parse, limits, cache key, cache lookup, options,
   conversion in, context checks, engine, conversion out, serialization, the whole call (hit and miss),
   and per Play message the interceptor chain and the per-message metrics.

Both run the engine the way this process loads it: compiled where it is built, its Python source under
MJSVC_PURE_PYTHON=1 (the result file says which); the servers inherit the same setting, so ratios compare
like with like. Writes bench/results/service_cost.json (see --out), dated inside.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import grpc

from bench.cpu_time import process_tree_cpu_seconds
from mjsvc import threads
from mjsvc.convert import hand_to_proto, tiles_to_proto
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.launcher import ServerProcess, descendants, free_port

RESULTS = Path(__file__).resolve().parent / "results"
SERVICE = "mahjong.v1.MahjongEngine"
STREAMS = 16


def _same(b: bytes) -> bytes:
    return b


def requests() -> dict[str, tuple[str, Any]]:
    """Case name -> (unary method, request): the README's MCR win, a 13-tile and a 14-tile analysis."""
    from engine.tiles import parse_tiles

    hand = parse_tiles("123m456p789s11777z")
    ctx = pb.WinContext(self_drawn=True, seat_wind=pb.WIND_SOUTH, prevalent_wind=pb.WIND_EAST)
    visible = tiles_to_proto(parse_tiles("19m19p19s1234567z123m456p789s"))
    return {
        "evaluate": ("Evaluate", pb.EvaluateRequest(rule_set="mcr", hand=hand_to_proto(hand[:13], (), hand[13]),
                                                    context=ctx)),
        "analyze13": ("Analyze", pb.AnalyzeRequest(hand=hand_to_proto(parse_tiles("1239m456p78s1123z")),
                                                   visible=visible)),
        "analyze14": ("Analyze", pb.AnalyzeRequest(hand=hand_to_proto(parse_tiles("1239m456p78s11223z")),
                                                   visible=visible)),
    }


def play_request(case: str, method: str, req: Any) -> pb.PlayRequest:
    return pb.PlayRequest(id=f"t1-{case}", **{method.lower(): req})


# ---------------------------------------------------------------------------------------------
# The floor server: the same bytes in, the same bytes out, nothing else


async def _floor_serve(port: int, answers: dict[bytes, bytes], spin_us: float = 0.0, batch: bool = True) -> None:
    spin = spin_us / 1e6
    clock = time.perf_counter

    def work() -> None:  # the calibration's stand-in for our code: `spin_us` of busy Python per message
        until = clock() + spin
        while clock() < until:
            pass

    async def unary(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        if spin:
            work()
        return answers[request]

    async def play(requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext) -> AsyncIterator[bytes]:
        async for message in requests:
            if spin:
                work()
            yield answers[message]

    server = grpc.aio.server()
    handlers: dict[str, grpc.RpcMethodHandler] = {
        m: grpc.unary_unary_rpc_method_handler(unary, request_deserializer=_same, response_serializer=_same)
        for m in ("Evaluate", "Analyze")}
    handlers["Play"] = grpc.stream_stream_rpc_method_handler(play, request_deserializer=_same,
                                                             response_serializer=_same)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    # gRPC's helper threads scheduled as a worker schedules them (mjsvc.threads); the task is held here, since
    # the loop keeps only a weak reference to it
    sweeper = asyncio.create_task(threads.keep_batched(asyncio.Event())) if batch else None
    print("serving", flush=True)
    await server.wait_for_termination()
    if sweeper is not None:
        sweeper.cancel()


def _run(coro: Coroutine[Any, Any, Any]) -> Any:
    import uvloop

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coro)


class FloorServer:
    def __init__(self, answers: dict[bytes, bytes], spin_us: float = 0.0, batch: bool = True) -> None:
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        fd, self._file = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump({k.hex(): v.hex() for k, v in answers.items()}, f)
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.service_cost", "--serve-floor", str(self.port),
                                      self._file, "--spin", str(spin_us),
                                      *(() if batch else ("--normal-helper-threads",))],
                                     stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        assert self.proc.stdout is not None and self.proc.stdout.readline().strip() == "serving"

    @property
    def pid(self) -> int:
        return self.proc.pid

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
        os.unlink(self._file)


# ---------------------------------------------------------------------------------------------
# The client: closed loops, bytes in and out (the client's own protobuf work kept out of its share)


async def _drive(address: str, shape: str, method: str, raw: bytes, warmup: float, duration: float,
                 rate: float = 0.0) -> tuple[int, float, float]:
    """Messages answered in the measured window, its wall seconds, and the server CPU it took (set by caller).
    `rate` (Play only): messages/s in all, each stream sending its next message at its own fixed interval
    (or at once when the answer came later), instead of as soon as the last answer came."""
    async with grpc.aio.insecure_channel(address) as channel:
        counter = [0]
        stop = asyncio.Event()
        if shape == "play":
            call_play = channel.stream_stream(f"/{SERVICE}/Play", request_serializer=_same,
                                              response_deserializer=_same)
            interval = STREAMS / rate if rate else 0.0

            async def loop() -> None:
                call = call_play()
                clock = asyncio.get_running_loop().time
                due = clock() + interval * random.random()
                while not stop.is_set():
                    if interval:
                        wait = due - clock()
                        if wait > 0:
                            await asyncio.sleep(wait)
                        due += interval
                    await call.write(raw)
                    await call.read()
                    counter[0] += 1
                await call.done_writing()
                await call.read()
        else:
            call_unary = channel.unary_unary(f"/{SERVICE}/{method}", request_serializer=_same,
                                             response_deserializer=_same)

            async def loop() -> None:
                while not stop.is_set():
                    await call_unary(raw)
                    counter[0] += 1

        tasks = [asyncio.create_task(loop()) for _ in range(STREAMS)]
        await asyncio.sleep(warmup)
        c0, t0 = counter[0], time.perf_counter()
        await asyncio.sleep(duration)
        c1, t1 = counter[0], time.perf_counter()
        stop.set()
        await asyncio.gather(*tasks)
        return c1 - c0, t1 - t0, 0.0


def pin_tree(pid: int, cpus: set[int]) -> None:
    """Every thread of `pid` and of the processes below it onto `cpus` (`--pin`)."""
    for p in (pid, *descendants(pid)):
        for task in Path(f"/proc/{p}/task").iterdir():
            with contextlib.suppress(OSError):
                os.sched_setaffinity(int(task.name), cpus)


def work_in_worker(srv: ServerProcess) -> tuple[float, float]:
    """The live worker's own account of the calls that reached the engine: seconds and calls so far, from
    its `mjsvc_engine_seconds` histogram (the wall time of a call's work after the cache: limits and
    conversion in, checks, the engine, conversion out; before the one-pass reading of the request, limits
    were not counted). Read before and after a window, it gives that work's
    time per call as the loaded worker runs it, to set beside the same work in a warm loop."""
    samples = srv.metrics()
    return (sum(v for (n, _), v in samples.items() if n == "mjsvc_engine_seconds_sum"),
            sum(v for (n, _), v in samples.items() if n == "mjsvc_engine_seconds_count"))


def measure(address: str, pid: int, shape: str, method: str, raw: bytes, warmup: float, duration: float,
            rate: float = 0.0) -> dict[str, float]:
    """Server CPU µs per message (whole process tree) and messages/s, over the measured window only."""
    cpu: list[float] = []

    async def run() -> tuple[int, float, float]:
        async def window() -> tuple[int, float, float]:
            return await _drive(address, shape, method, raw, warmup, duration, rate)

        task = asyncio.create_task(window())
        await asyncio.sleep(warmup)
        cpu.append(process_tree_cpu_seconds(pid))
        await asyncio.sleep(duration)
        cpu.append(process_tree_cpu_seconds(pid))
        return await task

    n, wall, _ = _run(run())
    return {"server_us_per_message": round((cpu[1] - cpu[0]) / max(n, 1) * 1e6, 1),
            "messages_per_s": round(n / wall, 1)}


# ---------------------------------------------------------------------------------------------
# In process: the engine alone, and the stages of one call


def _time(fn: Callable[[], object], budget: float = 0.2) -> float:
    """µs per call: the best of 5 runs of about `budget` seconds each."""
    n, t = 1, 0.0
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        t = time.perf_counter() - t0
        if t >= budget / 5:
            break
        n *= 4
    best = t / n
    for _ in range(4):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best * 1e6


def engine_alone(reqs: dict[str, tuple[str, Any]]) -> dict[str, float]:
    """µs of `engine.api.evaluate` / `analyze` (the engine with its own checks) on each case's request."""
    return {case: round(_time(_engine_call(method, req)), 1) for case, (method, req) in reqs.items()}


def _engine_call(method: str, req: Any) -> Callable[[], object]:
    from engine import api
    from mjsvc import convert

    if method == "Evaluate":
        hand = convert.hand_from_proto(req.hand, winning=True)
        ctx = convert.context_from_proto(req.context)
        return lambda: api.evaluate(hand, ctx, req.rule_set)
    hand = convert.hand_from_proto(req.hand, winning=False)
    visible = convert.tiles_from_proto(req.visible, "visible")
    return lambda: api.analyze(hand, visible, req.rule_set)


class _Context:
    """Just what the interceptors ask of a grpc.aio.ServicerContext on a call that succeeds."""

    def time_remaining(self) -> None:
        return None

    def cancelled(self) -> bool:
        return False

    def code(self) -> None:
        return None

    def invocation_metadata(self) -> tuple[()]:
        return ()


def _interceptor_cost(make: Callable[[], Any], messages: int = 20000) -> dict[str, float]:
    """µs per Play message and per unary call that the interceptors `make()` returns add to a handler
    answering at once (chained as grpc.aio chains them, driven without a network)."""
    from mjsvc import interceptors as icp

    answer = b"x"

    async def play(requests: AsyncIterator[Any], context: Any) -> AsyncIterator[bytes]:
        async for _ in requests:
            yield answer

    async def unary(request: Any, context: Any) -> bytes:
        return answer

    plain = grpc.method_handlers_generic_handler(SERVICE, {
        "Play": grpc.stream_stream_rpc_method_handler(play, request_deserializer=pb.PlayRequest.FromString,
                                                      response_serializer=pb.PlayResponse.SerializeToString),
        "Evaluate": grpc.unary_unary_rpc_method_handler(unary, request_deserializer=pb.EvaluateRequest.FromString,
                                                        response_serializer=pb.EvaluateResponse.SerializeToString)})

    class _Details:
        def __init__(self, method: str) -> None:
            self.method = method
            self.invocation_metadata = ()

    def link(interceptor: Any, inner: Callable[[Any], Any]) -> Callable[[Any], Any]:
        return lambda d: interceptor.intercept_service(inner, d)

    async def chain(method: str) -> Any:
        details = _Details(f"/{SERVICE}/{method}")

        async def bottom(d: Any) -> Any:
            return plain.service(d)

        cont: Callable[[Any], Any] = bottom
        for i in reversed(make()):
            cont = link(i, cont)
        return await cont(details)

    async def feed(n: int) -> AsyncIterator[Any]:
        req = pb.PlayRequest()
        for _ in range(n):
            yield req

    async def run() -> dict[str, float]:
        wrapped_play = (await chain("Play")).stream_stream
        wrapped_unary = (await chain("Evaluate")).unary_unary
        ctx = _Context()
        req = pb.EvaluateRequest()
        out: dict[str, list[float]] = {"play_message": [], "unary_call": []}
        for _ in range(5):
            t0 = time.perf_counter()
            async for _ in play(feed(messages), ctx):
                pass
            t1 = time.perf_counter()
            async for _ in wrapped_play(feed(messages), ctx):
                pass
            t2 = time.perf_counter()
            out["play_message"].append(((t2 - t1) - (t1 - t0)) / messages * 1e6)
            t0 = time.perf_counter()
            for _ in range(messages):
                await unary(req, ctx)
            t1 = time.perf_counter()
            for _ in range(messages):
                await wrapped_unary(req, ctx)
            t2 = time.perf_counter()
            out["unary_call"].append(((t2 - t1) - (t1 - t0)) / messages * 1e6)
        return {k: min(v) for k, v in out.items()}

    icp.STREAM_END_WAIT = 0.0  # the stream's end, not per message
    try:
        return _run(run())
    finally:
        icp.STREAM_END_WAIT = 0.01


def stages() -> dict[str, dict[str, float]]:
    """µs of each step of one call, in the order the service runs them."""
    from mjsvc import metrics

    out = {case: _case_stages(case, method, req) for case, (method, req) in requests().items()}
    m = metrics.MethodMetrics("bidi_stream", SERVICE, "Play")
    def counters() -> None:
        m.received.inc()
        m.sent.inc()

    common = {"metrics per Play message (received + sent counters)": round(_time(counters), 2)}
    from mjsvc import interceptors

    for label, make in (("one CallInterceptor (served)", interceptors.interceptors),
                        ("the four interceptors chained (before)", interceptors.chain)):
        icp = _interceptor_cost(make)
        common[f"{label}, per Play message"] = round(icp["play_message"], 2)
        common[f"{label}, per unary call (metrics included)"] = round(icp["unary_call"], 2)
    out["per message, any method"] = common
    return out


def _case_stages(case: str, method: str, req: Any) -> dict[str, float]:
    from engine import api, rules
    from engine.hand import validate_context
    from mjsvc import convert, limits
    from mjsvc.cache import ResponseCache
    from mjsvc.service import Service

    raw = req.SerializeToString()
    play_raw = play_request(case, method, req).SerializeToString()
    cls = type(req)
    rs = rules.get(req.rule_set)
    opts = rs.options(None)
    hit_svc, cold_svc = Service(), Service(cache_size=0)
    key = ResponseCache.key(method, req)
    s: dict[str, Callable[[], object]] = {
        "parse (Play message)": lambda: pb.PlayRequest.FromString(play_raw),
        "parse (unary request)": lambda: cls.FromString(raw),
        "limits (the plain path: limits.check)": lambda: limits.check(req),
        "cache key": lambda: ResponseCache.key(method, req),
        "cache lookup": lambda: hit_svc.cache.get(key),
        "rule set and options": lambda: rules.get(req.rule_set).options(None),
    }
    if method == "Evaluate":
        hand = convert.hand_from_proto(req.hand, winning=True)
        ctx = convert.context_from_proto(req.context)
        e = api.evaluate(hand, ctx, req.rule_set)
        msg = convert.evaluation_to_proto(e)

        def checks() -> None:
            validate_context(ctx, hand)
            rs.check_tiles(hand)
            rs.check_unread(hand, ctx)
            rs.check_context(hand, ctx, opts)

        s |= {
            "limits and conversion in, one pass (convert.read_evaluate, what a usual request takes)":
                lambda: convert.read_evaluate(raw),
            "conversion in: hand": lambda: convert.hand_from_proto(req.hand, winning=True),
            "conversion in: context": lambda: convert.context_from_proto(req.context),
            "context checks (validate_context, rule set's checks)": checks,
            "engine (RuleSet.score)": lambda: rs.score(hand, ctx, opts),
            "conversion out, as messages (evaluation_to_proto)": lambda: convert.evaluation_to_proto(e),
            "serialization of those messages (SerializeToString)": msg.SerializeToString,
            "conversion out, as wire bytes (evaluation_to_wire, what is sent)":
                lambda: convert.evaluation_to_wire(e),
            "whole call, cache miss (Service.evaluate_bytes, cache off)":
                lambda: cold_svc.evaluate_bytes(req),
            "whole call, cache hit (Service.evaluate_bytes)": lambda: hit_svc.evaluate_bytes(req),
        }
    else:
        from engine import analysis

        hand = convert.hand_from_proto(req.hand, winning=False)
        visible = convert.tiles_from_proto(req.visible, "visible")
        a = api.analyze(hand, visible)
        s |= {
            "limits and conversion in, one pass (convert.read_analyze, what a usual request takes)":
                lambda: convert.read_analyze(raw),
            "conversion in: hand and visible": lambda: (convert.hand_from_proto(req.hand, winning=False),
                                                                convert.tiles_from_proto(req.visible[:], "visible")),
            "engine (analysis.analyze)": lambda: analysis.analyze(hand, visible),
            "conversion out, as wire bytes (analysis_to_wire, what is sent)":
                lambda: convert.analysis_to_wire(a),
            "whole call, cache miss (Service.analyze_bytes, cache off)":
                lambda: cold_svc.analyze_bytes(req),
            "whole call, cache hit (Service.analyze_bytes)": lambda: hit_svc.analyze_bytes(req),
        }
    s["whole Play message, cache hit (parse + Service.play_bytes)"] = (
        lambda: hit_svc.play_bytes(pb.PlayRequest.FromString(play_raw)))
    hit_svc.play_bytes(pb.PlayRequest.FromString(play_raw))
    out = {k: round(_time(fn), 2) for k, fn in s.items()}
    for kb in COLD_SWEEPS_KB:
        out[f"whole Play message, cache miss, after {kb} KB of other memory traffic (cold caches)"] = round(
            _cold(lambda: cold_svc.play_bytes(pb.PlayRequest.FromString(play_raw)), kb), 2)
    out["whole Play message, cache miss, warm (the same, back to back)"] = round(
        _time(lambda: cold_svc.play_bytes(pb.PlayRequest.FromString(play_raw))), 2)
    return out


# Between two messages a live worker runs gRPC's core, the kernel's network stack and other processes, which
# evict much of what the last message left in the CPU's caches; a tight loop of one call keeps them warm.
# `_cold` measures a call after writing one byte per 64-byte line of a buffer of `kb` KB (this machine: 64
# KB of L1 data cache and 2 MB of L2 per core).
COLD_SWEEPS_KB = (256, 1024, 4096)
_SWEEP = bytearray(max(COLD_SWEEPS_KB) << 10)


def _cold(fn: Callable[[], object], kb: int, calls: int = 1500) -> float:
    """µs per call of `fn`, each call after a sweep of `kb` KB (the sweep itself not timed); median of 3."""
    lines = range(0, kb << 10, 64)
    buf = _SWEEP
    runs = []
    for _ in range(3):
        total = 0.0
        for _ in range(calls):
            for i in lines:
                buf[i] = 1
            t0 = time.perf_counter()
            fn()
            total += time.perf_counter() - t0
        runs.append(total / calls * 1e6)
    return statistics.median(runs)


# ---------------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, Any]:
    from mjsvc.service import Service

    reqs = requests()
    svc = Service()
    answers: dict[bytes, bytes] = {}
    cases: list[tuple[str, str, str, bytes]] = []  # (case, shape, method, request bytes)
    for case, (method, req) in reqs.items():
        raw = req.SerializeToString()
        answers[raw] = svc.evaluate_bytes(req) if method == "Evaluate" else svc.analyze_bytes(req)
        play = play_request(case, method, req)
        play_raw = play.SerializeToString()
        answers[play_raw] = svc.play_bytes(play)
        cases += [(case, "play", method, play_raw), (case, "unary", method, raw)]
    print("engine alone ...", file=sys.stderr, flush=True)
    alone = engine_alone(reqs)
    stage_table: dict[str, dict[str, float]] = {}
    if not args.no_stages:
        print("stages ...", file=sys.stderr, flush=True)
        stage_table = stages()
    batch = not args.normal_helper_threads
    common = ("--stream-rate", "0", "--log-level", "WARNING", "--batch-helper-threads" if batch
              else "--no-batch-helper-threads")
    servers: dict[str, Any] = {}
    rounds: dict[str, dict[str, list[dict[str, float]]]] = {f"{c} {s}": {} for c, s, _, _ in cases}
    paced = f"evaluate play paced {args.paced_rate:g}/s"
    if args.paced_rate and (not args.only or "evaluate" in args.only):
        rounds[paced] = {}
    calibration: dict[float, list[dict[str, float]]] = {spin: [] for spin in args.spins}
    floors: dict[float, FloorServer] = {}
    eval_play = next(raw for case, shape, _, raw in cases if (case, shape) == ("evaluate", "play"))

    order = random.Random(args.seed)

    def shuffled(by_name: dict[str, Any]) -> list[tuple[str, Any]]:
        items = list(by_name.items())
        order.shuffle(items)
        return items

    def one(r: int, label: str, name: str, srv: Any, shape: str, method: str, raw: bytes,
            rate: float = 0.0) -> dict[str, float]:
        pid = srv.pid if isinstance(srv, FloorServer) else srv.proc.pid
        before = work_in_worker(srv) if name == "engine" else None
        got = measure(srv.address, pid, shape, method, raw, args.warmup, args.duration, rate)
        if before is not None:
            after = work_in_worker(srv)
            got["work_in_worker_us"] = round((after[0] - before[0]) / max(after[1] - before[1], 1) * 1e6, 1)
        print(f"round {r + 1} {label:<28} {name:<10} {got['server_us_per_message']:>8.1f} µs/msg "
              f"{got['messages_per_s']:>8.0f}/s", file=sys.stderr, flush=True)
        return got

    try:
        servers["floor"] = FloorServer(answers, batch=batch)
        servers["hit"] = ServerProcess(*common, workers=1)
        servers["engine"] = ServerProcess(*common, "--cache-size", "0", workers=1)
        floors = {spin: FloorServer(answers, spin, batch) for spin in args.spins}
        for srv in servers.values():
            if isinstance(srv, ServerProcess):
                srv.wait_ready()
        if args.pin:
            for srv in [*servers.values(), *floors.values()]:
                pin_tree(srv.pid if isinstance(srv, FloorServer) else srv.proc.pid, {args.pin[1]})
            os.sched_setaffinity(0, {args.pin[0]})
        for r in range(args.rounds):
            for case, shape, method, raw in cases:
                if args.only and case not in args.only:
                    continue
                for name, srv in shuffled(servers):
                    got = one(r, f"{case} {shape}", name, srv, shape, method, raw)
                    rounds[f"{case} {shape}"].setdefault(name, []).append(got)
            if paced in rounds:
                for name, srv in shuffled(servers):
                    got = one(r, paced, name, srv, "play", "Evaluate", eval_play, args.paced_rate)
                    rounds[paced].setdefault(name, []).append(got)
            for spin, srv in floors.items():
                calibration[spin].append(one(r, "evaluate play", f"floor+{spin:g}µs", srv, "play", "Evaluate",
                                             eval_play))
    finally:
        for srv in [*servers.values(), *floors.values()]:
            srv.close()
    # The engine alone is timed again once the servers are gone and the lower of the two kept: a busy
    # moment of this shared machine during one of them would otherwise set every ratio of that case.
    alone_before, alone_after = alone, engine_alone(reqs)
    alone = {case: min(alone_before[case], alone_after[case]) for case in alone_before}
    table: dict[str, dict[str, Any]] = {}
    for label, by_server in rounds.items():
        if not by_server:
            continue
        case = label.split()[0]
        if len(by_server.get("floor", ())) != len(by_server.get("engine", ())):
            continue
        med = {name: statistics.median(x["server_us_per_message"] for x in v) for name, v in by_server.items()}
        per_round = [{name: by_server[name][i]["server_us_per_message"] for name in by_server}
                     for i in range(len(by_server["floor"]))]
        work = [x["work_in_worker_us"] for x in by_server["engine"] if "work_in_worker_us" in x]
        hit_ratios = [x["hit"] / x["floor"] for x in per_round]
        engine_over = [(x["engine"] - x["floor"]) / alone[case] for x in per_round]
        table[label] = {
            "floor_us": round(med["floor"], 1), "hit_us": round(med["hit"], 1), "engine_us": round(med["engine"], 1),
            "engine_alone_us": alone[case],
            "work_in_worker_us": round(statistics.median(work), 1) if work else None,
            "hit_over_floor": round(statistics.median(hit_ratios), 2),
            "hit_over_floor_range": [round(min(hit_ratios), 2), round(max(hit_ratios), 2)],
            "engine_over_floor": round(med["engine"] / med["floor"], 2),
            "engine_minus_floor_over_engine_alone": round(statistics.median(engine_over), 2),
            "engine_minus_floor_over_engine_alone_range": [round(min(engine_over), 2), round(max(engine_over), 2)],
            "rounds": per_round,
        }
    # The calibration: the floor plus a known amount of busy Python per message, in the same rounds as the
    # floor of "evaluate play". How much server CPU a few µs of work per message add in this closed loop.
    calib: dict[str, Any] = {}
    base = rounds.get("evaluate play", {}).get("floor", [])
    for spin, runs in calibration.items():
        if not runs or len(runs) != len(base):
            continue
        added = [g["server_us_per_message"] - b["server_us_per_message"] for g, b in zip(runs, base, strict=True)]
        calib[f"{spin:g}"] = {
            "spin_us": spin,
            "server_us": round(statistics.median(g["server_us_per_message"] for g in runs), 1),
            "messages_per_s": round(statistics.median(g["messages_per_s"] for g in runs)),
            "added_us": round(statistics.median(added), 1),
            "added_over_spin": round(statistics.median(added) / spin, 2),
        }
    from engine import pure_python_requested

    return {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "engine": "pure Python (MJSVC_PURE_PYTHON=1)" if pure_python_requested() else "as built (compiled if so)",
            "workers": 1, "concurrent_streams_or_calls": STREAMS, "duration_s": args.duration,
            "rounds": args.rounds, "order": f"shuffled per case and round, seed {args.seed}",
            "cpus": os.cpu_count(), "load_average": os.getloadavg(),
            "paced_rate": args.paced_rate, "pinned": {"client_cpu": args.pin[0], "server_cpu": args.pin[1]}
            if args.pin else None,
            "helper_threads": "normal" if args.normal_helper_threads else "SCHED_BATCH (mjsvc.threads)",
            "per_message": table, "calibration": calib,
            "engine_alone_us": alone, "engine_alone_us_before_and_after": {
                case: [alone_before[case], alone_after[case]] for case in alone},
            "stages_us": stage_table}


def print_report(rep: dict[str, Any]) -> None:
    print(f"# service_cost {rep['when']}, engine {rep['engine']}, {rep['rounds']} rounds, median "
          f"(load average at the end {', '.join(f'{x:.1f}' for x in rep['load_average'])})"
          + f", helper threads {rep.get('helper_threads', 'normal')}"
          + (f", client on CPU {rep['pinned']['client_cpu']}, servers on CPU {rep['pinned']['server_cpu']}"
             if rep.get("pinned") else ""))
    print(f"{'case':<18}{'floor':>8}{'hit':>8}{'engine':>9}{'alone':>8}{'work':>8}  {'hit/floor':<16}"
          f"{'(engine-floor)/alone':<22}")
    for label, row in rep["per_message"].items():
        lo, hi = row["hit_over_floor_range"]
        elo, ehi = row["engine_minus_floor_over_engine_alone_range"]
        hit = f"{row['hit_over_floor']} [{lo}-{hi}]"
        print(f"{label:<18}{row['floor_us']:>8}{row['hit_us']:>8}{row['engine_us']:>9}{row['engine_alone_us']:>8}"
              f"{row.get('work_in_worker_us') or '-':>8}  {hit:<18}{row['engine_minus_floor_over_engine_alone']} "
              f"[{elo}-{ehi}]")
    print("  (work: the engine server's own time per call for limits, conversion, checks, engine and answer, from its "
          "mjsvc_engine_seconds)")
    if rep.get("calibration"):
        print("\n# calibration: the floor plus busy Python per message (evaluate, Play, closed loop)")
        for row in rep["calibration"].values():
            print(f"  +{row['spin_us']:g} µs of work: {row['server_us']} µs/msg, {row['added_us']} µs more than the "
                  f"floor ({row['added_over_spin']}x the work), {row['messages_per_s']}/s")
    print("\n# stages of one call, µs (best of 5)")
    for case, rows in rep["stages_us"].items():
        print(f"## {case}")
        for k, v in rows.items():
            print(f"  {k:<72}{v:>9}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.service_cost", description=__doc__.split("\n\n")[0])
    p.add_argument("--duration", type=float, default=2.0, help="measured seconds per case, server and round")
    p.add_argument("--warmup", type=float, default=0.5)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=0, help="of the order the servers are measured in, each round")
    p.add_argument("--only", nargs="*", choices=list(requests()), help="these cases only")
    p.add_argument("--stages-only", action="store_true", help="the in-process stage table only (no servers)")
    p.add_argument("--no-stages", action="store_true", help="the servers only (no stage table)")
    p.add_argument("--out", type=Path, default=RESULTS / "service_cost.json")
    p.add_argument("--serve-floor", nargs=2, metavar=("PORT", "ANSWERS"), help=argparse.SUPPRESS)
    p.add_argument("--spin", type=float, default=0.0, help=argparse.SUPPRESS)
    p.add_argument("--paced-rate", type=float, default=2000.0,
                   help="messages/s in all for the paced Play measurement (0: none)")
    p.add_argument("--spins", type=float, nargs="*", default=[5.0, 10.0, 20.0],
                   help="µs of busy work per message in the calibration floors (none: no calibration)")
    p.add_argument("--pin", type=int, nargs=2, metavar=("CLIENT_CPU", "SERVER_CPU"),
                   help="run the client on one CPU and every server on another (less scheduling noise)")
    p.add_argument("--normal-helper-threads", action="store_true",
                   help="every server (floor and ours) leaves gRPC's helper threads under the normal scheduling "
                        "policy (default: SCHED_BATCH, as a worker runs them; mjsvc.threads)")
    args = p.parse_args(argv)
    if args.serve_floor:
        stored = json.loads(Path(args.serve_floor[1]).read_text())
        answers = {bytes.fromhex(k): bytes.fromhex(v) for k, v in stored.items()}
        _run(_floor_serve(int(args.serve_floor[0]), answers, args.spin, not args.normal_helper_threads))
        return 0
    if args.stages_only:
        print(json.dumps(stages(), indent=1, ensure_ascii=False))
        return 0
    rep = run(args)
    print_report(rep)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rep, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
