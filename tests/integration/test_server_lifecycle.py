"""A real `mjsvc serve` under load: SIGTERM drains without dropping an accepted call; a SIGKILLed worker is
replaced and the metrics endpoint keeps answering."""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from server_harness import ServerProcess

from engine.tiles import parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc

pytestmark = pytest.mark.integration

# Issue 4: after a SIGKILL the pool must be whole again within this many seconds.
REPLACE_WITHIN_S = 10.0  # the watch window of _sigkill_scenario
SERVICE = "mahjong.v1.MahjongEngine"


def T(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


HANDS = ["123m456p789s1177z", "123456789m1177z", "234m345p456s5577z", "111m456p789s1177z"]
REQS = [pb.EvaluateRequest(hand=pb.Hand(concealed=T(h), winning_tile=pb.TILE_RED),
                           context=pb.WinContext(flowers=f)) for h in HANDS for f in range(3)]


def channels(address: str, n: int) -> list[grpc.aio.Channel]:
    # A local subchannel pool per channel: n separate connections, spread over the workers by the kernel.
    return [grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(n)]


async def unary_loop(stub: mahjong_pb2_grpc.MahjongEngineStub, codes: Counter[str], stop: asyncio.Event,
                     until_unavailable: bool) -> None:
    i = 0
    while not stop.is_set():
        i += 1
        try:
            r = await stub.Evaluate(REQS[i % len(REQS)], timeout=10)
            assert r.is_win
            codes["OK"] += 1
        except grpc.aio.AioRpcError as err:
            codes[err.code().name] += 1
            if until_unavailable and err.code() == grpc.StatusCode.UNAVAILABLE:
                return
            await asyncio.sleep(0.01)


def worker_stop_counts(log: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in re.findall(r"stopped: (\d+) calls started, (\d+) finished", log)]


def test_sigterm_under_load_answers_every_accepted_call() -> None:
    srv = ServerProcess(workers=2, grace=10.0).__enter__()
    try:
        result: dict[str, Any] = asyncio.run(_sigterm_scenario(srv))
        exit_code = srv.proc.wait(30)
        log = srv.log()
    finally:
        srv.close()
    assert exit_code == 0, log
    codes: Counter[str] = result["codes"]
    # A unary call was either answered or refused before any handler took it: UNAVAILABLE once the port is
    # closed, or CANCELLED from gRPC core for calls that reached the transport in the instant of shutdown
    # but were never handed to the service (the counts below prove no handler saw them). Nothing else.
    assert set(codes) <= {"OK", "UNAVAILABLE", "CANCELLED"}, codes
    assert codes["OK"] > 50
    # Every stream open at SIGTERM went on being served after it, then ended cleanly.
    assert result["streams"] == [("OK", 13)] * len(result["streams"]) and len(result["streams"]) == 8
    # The workers took exactly the calls the clients saw answered, and finished all of them.
    stops = worker_stop_counts(log)
    assert len(stops) == 2 and all(started == finished for started, finished in stops), log
    assert sum(started for started, _ in stops) == codes["OK"] + len(result["streams"]), (stops, codes)
    assert re.search(r"draining: [1-9]\d* calls in flight", log), log
    assert result["health"] == [health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING]


async def _sigterm_scenario(srv: ServerProcess) -> dict[str, Any]:
    chans = channels(srv.address, 4)
    stubs = [mahjong_pb2_grpc.MahjongEngineStub(c) for c in chans]
    codes: Counter[str] = Counter()
    stop = asyncio.Event()
    sigterm_sent = asyncio.Event()

    async def stream(k: int) -> tuple[str, int]:
        call = stubs[k % len(stubs)].Play(timeout=30)
        answered = 0
        for i in range(13):
            if i == 8:
                await sigterm_sent.wait()
                await asyncio.sleep(0.3)  # the server is draining now
            await call.write(pb.PlayRequest(id=f"{k}-{i}", evaluate=REQS[i % len(REQS)]))
            resp = await call.read()
            assert resp.id == f"{k}-{i}" and resp.evaluate.is_win
            answered += 1
        await call.done_writing()
        assert await call.read() == grpc.aio.EOF
        return (await call.code()).name, answered

    # A health watcher sees SERVING, then NOT_SERVING once the drain starts.
    watch = health_pb2_grpc.HealthStub(chans[0]).Watch(health_pb2.HealthCheckRequest(service=SERVICE), timeout=30)
    first = await watch.read()

    async def watch_drain() -> list[int]:
        seen = [first.status]
        while seen[-1] == health_pb2.HealthCheckResponse.SERVING:
            seen.append((await watch.read()).status)
        watch.cancel()  # a watch never ends by itself; it would hold the drain for the whole grace
        return seen

    streams = [asyncio.create_task(stream(k)) for k in range(8)]
    loops = [asyncio.create_task(unary_loop(stubs[i % len(stubs)], codes, stop, until_unavailable=True))
             for i in range(24)]
    await asyncio.sleep(1.0)
    srv.proc.send_signal(15)
    sigterm_sent.set()
    watched = await asyncio.wait_for(watch_drain(), 10)
    stream_results = await asyncio.gather(*streams)
    await asyncio.wait(loops, timeout=20)
    stop.set()
    await asyncio.gather(*loops)
    for c in chans:
        await c.close()
    return {"codes": codes, "streams": stream_results, "health": watched}


def test_sigkilled_worker_is_replaced_and_metrics_keep_answering() -> None:
    with ServerProcess(workers=2, grace=2.0) as srv:
        result = asyncio.run(_sigkill_scenario(srv))
        log = srv.log()
        # Replaced within the watch window (no timing bound: a loaded machine starts workers slower).
        assert result["replaced_in"] < REPLACE_WITHIN_S, (result, log)
        assert "killed by SIGKILL; restarting" in log
        # "serving" is said once, after every worker's first "ready" (not again for the replacement)
        serving = log.index(f"serving {SERVICE} on ")
        assert log.count(f"serving {SERVICE} on ") == 1 and ": all 2 workers ready" in log[serving:].splitlines()[0]
        assert log.index(f"starting {SERVICE} on ") < log.index(") ready in ") < serving
        assert len(re.findall(r"worker \d \(pid \d+\) ready in", log[:serving])) == 2, log
        assert srv.metric("mjsvc_worker_restarts_total") == 1
        assert srv.metric("mjsvc_workers_ready") == 2
        # Counters written by the dead worker are still in the sum.
        assert srv.metric("grpc_server_started_total", grpc_method="Evaluate") >= result["started_before_kill"]
        assert result["after"] == {"OK": 40}, result
        assert result["codes"]["OK"] > 50


async def _sigkill_scenario(srv: ServerProcess) -> dict[str, Any]:
    chans = channels(srv.address, 4)
    stubs = [mahjong_pb2_grpc.MahjongEngineStub(c) for c in chans]
    codes: Counter[str] = Counter()
    stop = asyncio.Event()
    loops = [asyncio.create_task(unary_loop(stubs[i % len(stubs)], codes, stop, until_unavailable=False))
             for i in range(16)]
    await asyncio.sleep(1.0)
    old = srv.ready_workers()
    started_before = await asyncio.to_thread(srv.metric, "grpc_server_started_total", grpc_method="Evaluate")
    import os
    import signal

    os.kill(old[0], signal.SIGKILL)
    t_kill = time.monotonic()
    replaced_in = float("inf")
    while time.monotonic() - t_kill < 10:
        # Scraping while the pool heals also shows the endpoint never stopped answering.
        ready = await asyncio.to_thread(srv.metric, "mjsvc_workers_ready")
        if srv.ready_workers().get(0) not in (None, old[0]) and ready == 2:
            replaced_in = time.monotonic() - t_kill
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    stop.set()
    await asyncio.gather(*loops)
    # Every connection works again (those to the dead worker reconnect). A channel whose first reconnect
    # attempt met the dying worker's socket waits out gRPC's reconnect backoff (about a second, then longer),
    # failing calls fast meanwhile unless they wait for it to be ready, as a client riding out a restart does.
    after: Counter[str] = Counter()
    for stub in stubs:
        for i in range(10):
            try:
                await stub.Evaluate(REQS[i], timeout=10, wait_for_ready=True)
                after["OK"] += 1
            except grpc.aio.AioRpcError as err:
                after[err.code().name] += 1
    for c in chans:
        await c.close()
    return {"replaced_in": replaced_in, "codes": codes, "after": dict(after), "started_before_kill": started_before}


def _rollup(pid: int) -> dict[str, int]:
    """/proc/PID/smaps_rollup in kB by field."""
    out = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[2] == "kB":
                out[parts[0].rstrip(":")] = int(parts[1])
    return out


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its parent) is gone as far as serving goes.
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_workers_share_the_preloaded_engine_with_the_fork_server() -> None:
    """Workers are forked from the fork server that imported and warmed `mjsvc.preload`: their anonymous
    memory is largely shared with it (copy-on-write), so each one's proportional share is well below what it
    maps. Spawned workers (each importing everything itself) share none: Pss_Anon == Anonymous."""
    with ServerProcess(workers=2, grace=2.0) as srv:
        for pid in srv.ready_workers().values():
            with open(f"/proc/{pid}/status") as f:
                ppid = int(next(line for line in f if line.startswith("PPid:")).split()[1])
            with open(f"/proc/{ppid}/cmdline", "rb") as f:
                parent = f.read().replace(b"\0", b" ").decode()
            assert "multiprocessing.forkserver" in parent and "mjsvc.preload" in parent, parent
            mem = _rollup(pid)
            assert mem["Pss_Anon"] < 0.8 * mem["Anonymous"], mem


def test_workers_drain_and_exit_when_the_supervisor_is_killed() -> None:
    """SIGKILL leaves the supervisor no chance to drain its workers: each notices within seconds (it watches
    the supervisor's pid, not its parent, which is the fork server) and stops by itself."""
    import os
    import signal

    srv = ServerProcess(workers=2, grace=1.0)
    try:
        srv.wait_ready()
        workers = list(srv.ready_workers().values())
        os.kill(srv.proc.pid, signal.SIGKILL)
        srv.proc.wait()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.1)
        assert not [p for p in workers if _alive(p)], srv.log_tail()
        assert "supervisor" in srv.log() and "is gone; draining" in srv.log()
    finally:
        srv.close()
