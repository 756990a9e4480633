"""`python -m bench.grpc_floor`: what one message costs this machine with no work in it.

A bare grpc.aio server (uvloop, as the workers run) echoes raw bytes on a bidirectional stream, with no
protobuf, no interceptors, no metrics and no engine; a client in another process drives it the way
`mjsvc loadgen` drives `Play` (one stream per table, one message at a time per table, paced to an offered
rate). Reported: messages/s achieved, latency, and the CPU each side spent per message (from /proc), and
from those the most messages per second this machine could carry with server and client on its cores
even if the service did nothing. Any rate above that cannot be shown on this machine, whatever the
service does; `bench.coldstart` reports the service's own CPU per call beside it.

Writes JSON to bench/results/grpc_floor.json (see --out).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Coroutine
from pathlib import Path
from typing import Any

import grpc

from bench.cpu_time import process_tree_cpu_seconds
from mjsvc import threads
from mjsvc.launcher import free_port

RESULTS = Path(__file__).resolve().parent / "results"
SERVICE, METHOD = "floor.Echo", "Play"
PAYLOAD = 200  # bytes, about a Play request of the simulator's


def _same(b: bytes) -> bytes:
    return b


async def _echo(requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext) -> AsyncIterator[bytes]:
    async for message in requests:
        yield message


async def serve(port: int, batch: bool = True) -> None:
    server = grpc.aio.server()
    handler = grpc.method_handlers_generic_handler(SERVICE, {
        METHOD: grpc.stream_stream_rpc_method_handler(_echo, request_deserializer=_same, response_serializer=_same)})
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    # gRPC's helper threads scheduled as a worker schedules them (mjsvc.threads); the task is held here, since
    # the loop keeps only a weak reference to it
    sweeper = asyncio.create_task(threads.keep_batched(asyncio.Event())) if batch else None
    print("serving", flush=True)
    await server.wait_for_termination()
    if sweeper is not None:
        sweeper.cancel()


async def drive(target: str, rate: float, duration: float, tables: int) -> list[float]:
    """Every table's round trips, paced so that all tables together offer `rate` messages/s."""
    async with grpc.aio.insecure_channel(target) as channel:
        play = channel.stream_stream(f"/{SERVICE}/{METHOD}", request_serializer=_same, response_deserializer=_same)
        latencies: list[float] = []
        interval = tables / rate
        end = time.perf_counter() + duration
        message = b"x" * PAYLOAD

        async def table(k: int) -> None:
            call = play()
            due = time.perf_counter() + interval * k / tables
            while due < end:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                t0 = time.perf_counter()
                await call.write(message)
                await call.read()
                latencies.append(time.perf_counter() - t0)
                due += interval
            await call.done_writing()

        await asyncio.gather(*(table(k) for k in range(tables)))
        return latencies


def _run(coro: Coroutine[Any, Any, Any]) -> Any:
    import uvloop

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coro)


def measure(rate: float, duration: float, tables: int, batch: bool = True) -> dict[str, Any]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "bench.grpc_floor", "--serve", str(port),
                               *(() if batch else ("--normal-helper-threads",))],
                              stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == "serving"
        s0, c0 = process_tree_cpu_seconds(server.pid), time.process_time()
        t0 = time.perf_counter()
        latencies = _run(drive(f"127.0.0.1:{port}", rate, duration, tables))
        wall = time.perf_counter() - t0
        server_cpu, client_cpu = process_tree_cpu_seconds(server.pid) - s0, time.process_time() - c0
    finally:
        server.terminate()
        server.wait(timeout=10)
    latencies.sort()
    n = len(latencies)
    server_us, client_us = server_cpu / n * 1e6, client_cpu / n * 1e6
    cores = os.cpu_count() or 1
    return {"offered_per_s": rate, "tables": tables, "duration_s": duration, "messages": n,
            "achieved_per_s": round(n / wall, 1),
            "latency_ms": {"p50": round(latencies[n // 2] * 1e3, 3), "p99": round(latencies[int(n * 0.99)] * 1e3, 3)},
            "server_us_per_message": round(server_us, 1), "client_us_per_message": round(client_us, 1),
            "cores": cores, "most_messages_per_s_on_these_cores": round(cores / (server_us + client_us) * 1e6)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.grpc_floor", description=__doc__.split("\n\n")[0])
    p.add_argument("--rate", type=float, default=1000.0, help="messages/s offered, all tables together")
    p.add_argument("--duration", type=float, default=15.0)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--out", type=Path, default=RESULTS / "grpc_floor.json")
    p.add_argument("--normal-helper-threads", action="store_true",
                   help="leave gRPC's helper threads under the normal scheduling policy (default: SCHED_BATCH, "
                        "as a worker runs them; mjsvc.threads)")
    p.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)  # the server process
    args = p.parse_args(argv)
    if args.serve:
        _run(serve(args.serve, not args.normal_helper_threads))
        return 0
    result = measure(args.rate, args.duration, args.tables, not args.normal_helper_threads)
    result["when"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"bare grpc.aio echo, {result['tables']} streams, {result['offered_per_s']:g} messages/s offered: "
          f"{result['achieved_per_s']:g}/s, p50 {result['latency_ms']['p50']} ms p99 {result['latency_ms']['p99']} ms; "
          f"CPU per message {result['server_us_per_message']} µs server + {result['client_us_per_message']} µs client: "
          f"at most ~{result['most_messages_per_s_on_these_cores']} messages/s on {result['cores']} cores "
          "doing nothing else")
    return 0


if __name__ == "__main__":
    sys.exit(main())
