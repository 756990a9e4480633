"""`python -m bench.server_overhead`: how much of the bare-gRPC throughput the engine keeps.

The same `mjsvc serve` (same workers, metrics, limits) is started with no-op handlers
(`--service-class bench.doubles:NoopService`: every call answered with an empty message at once) and with
the real engine, and driven with the same seeded mix of requests (Evaluate on winning hands, Analyze on
random 13-tile hands) in three shapes: unary calls, EvaluateBatch calls of 32 hands, and Play streams. The
real engine runs behind its response cache as in production (the mix repeats, as tables do); `--cold`
adds a run with the cache off. Reported: throughput of each and the ratio real / no-op (aim: >= 0.8 for
streams and batches).

Client and server share this machine's cores, so absolute numbers understate a server alone; the
ratio compares like with like. Writes JSON to bench/results/server_overhead.json (see --out).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import grpc

from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc
from mjsvc.launcher import ServerProcess

ROOT = Path(__file__).resolve().parent.parent
BATCH = 32


# ---------------------------------------------------------------------------------------------
# The request mix


def _winning_tiles(rng: random.Random) -> list[int] | None:
    """14 engine tile indices forming four sets and a pair, at most 4 of a kind."""
    counts = [0] * 34
    tiles: list[int] = []
    for _ in range(4):
        if rng.random() < 0.6:
            suit, start = rng.randrange(3), rng.randrange(7)
            group = [suit * 9 + start + k for k in range(3)]
        else:
            group = [rng.randrange(34)] * 3
        tiles += group
    tiles += [rng.randrange(34)] * 2
    for t in tiles:
        counts[t] += 1
    return tiles if max(counts) <= 4 else None


def request_mix(n: int, seed: int) -> list[pb.EvaluateRequest | pb.AnalyzeRequest]:
    rng = random.Random(seed)
    out: list[pb.EvaluateRequest | pb.AnalyzeRequest] = []
    wall = [t for t in range(34) for _ in range(4)]
    while len(out) < n:
        if len(out) % 2 == 0:
            tiles = _winning_tiles(rng)
            if tiles is None:
                continue
            win = tiles.pop(rng.randrange(14))
            ctx = pb.WinContext(self_drawn=rng.random() < 0.4, flowers=rng.randrange(3),
                                seat_wind=rng.randrange(1, 5), prevalent_wind=rng.randrange(1, 5))
            out.append(pb.EvaluateRequest(hand=pb.Hand(concealed=[t + 1 for t in tiles], winning_tile=win + 1),
                                          context=ctx))
        else:
            hand = rng.sample(wall, 13)
            visible = rng.sample(wall, rng.randrange(0, 20))
            out.append(pb.AnalyzeRequest(hand=pb.Hand(concealed=[t + 1 for t in hand]),
                                         visible=[t + 1 for t in visible]))
    return out


# ---------------------------------------------------------------------------------------------
# A server under test


class Server(ServerProcess):
    """The server under test, started by the project's launcher with the benchmark's settings."""

    def __init__(self, *args: str, workers: int) -> None:
        super().__init__("--stream-rate", "0", "--max-batch", "10000", "--log-level", "WARNING", *args,
                         workers=workers)

    def stop(self) -> None:
        self.close()


# ---------------------------------------------------------------------------------------------
# Load shapes: each runs `concurrency` loops for warm-up + duration seconds and counts hands answered.


async def _measure(loops: list[Any], counter: list[int], warmup: float, duration: float) -> float:
    stop = asyncio.Event()
    tasks = [asyncio.create_task(loop(stop)) for loop in loops]
    await asyncio.sleep(warmup)
    c0, t0 = counter[0], time.perf_counter()
    await asyncio.sleep(duration)
    c1, t1 = counter[0], time.perf_counter()
    stop.set()
    await asyncio.gather(*tasks)
    return (c1 - c0) / (t1 - t0)


async def run_shape(address: str, shape: str, reqs: list[Any], concurrency: int, warmup: float,
                    duration: float, connections: int) -> float:
    chans = [grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
             for _ in range(connections)]
    stubs = [mahjong_pb2_grpc.MahjongEngineStub(c) for c in chans]
    counter = [0]
    evals = [r for r in reqs if isinstance(r, pb.EvaluateRequest)]
    batches = [pb.EvaluateBatchRequest(requests=[evals[(i * BATCH + k) % len(evals)] for k in range(BATCH)])
               for i in range(max(1, len(evals) // BATCH))]
    plays = [pb.PlayRequest(id=str(i), evaluate=r) if isinstance(r, pb.EvaluateRequest)
             else pb.PlayRequest(id=str(i), analyze=r) for i, r in enumerate(reqs)]

    def unary(k: int) -> Any:
        stub = stubs[k % len(stubs)]

        async def loop(stop: asyncio.Event) -> None:
            i = k * 7919
            while not stop.is_set():
                r = reqs[i % len(reqs)]
                i += 1
                if isinstance(r, pb.EvaluateRequest):
                    await stub.Evaluate(r)
                else:
                    await stub.Analyze(r)
                counter[0] += 1
        return loop

    def batch(k: int) -> Any:
        stub = stubs[k % len(stubs)]

        async def loop(stop: asyncio.Event) -> None:
            i = k * 31
            while not stop.is_set():
                resp = await stub.EvaluateBatch(batches[i % len(batches)])
                i += 1
                counter[0] += len(resp.results)
        return loop

    def stream(k: int) -> Any:
        stub = stubs[k % len(stubs)]

        async def loop(stop: asyncio.Event) -> None:
            call = stub.Play()
            i = k * 7919
            while not stop.is_set():
                await call.write(plays[i % len(plays)])
                i += 1
                await call.read()
                counter[0] += 1
            await call.done_writing()
            await call.read()
        return loop

    make = {"unary": unary, "batch": batch, "stream": stream}[shape]
    try:
        return await _measure([make(k) for k in range(concurrency)], counter, warmup, duration)
    finally:
        for c in chans:
            await c.close()


SHAPES = {  # shape -> (concurrent calls or streams, what is counted)
    "unary": (200, "calls/s"),
    "batch": (8, "hands/s"),
    "stream": (200, "messages/s"),
}


def run(args: argparse.Namespace) -> dict[str, Any]:
    """All servers up at once, measured in interleaved rounds (noop, engine, ... per shape), so that other
    load on the machine hits each alike; the median round counts."""
    reqs = request_mix(args.requests, args.seed)
    configs = [("noop", ["--service-class", "bench.doubles:NoopService"]), ("engine", [])]
    if args.cold:
        configs.append(("engine_cold", ["--cache-size", "0"]))
    servers = {name: Server(*flags, workers=args.workers) for name, flags in configs}
    rounds: dict[str, dict[str, list[float]]] = {name: {s: [] for s in args.shapes} for name in servers}
    try:
        for server in servers.values():
            server.wait_ready()
        for r in range(args.rounds):
            for shape in args.shapes:
                concurrency, unit = SHAPES[shape]
                for name, server in servers.items():
                    rate = asyncio.run(run_shape(server.address, shape, reqs, concurrency, args.warmup,
                                                 args.duration, args.connections))
                    rounds[name][shape].append(round(rate, 1))
                    print(f"round {r + 1}  {name:<12} {shape:<7} {rate:>10.0f} {unit}", file=sys.stderr, flush=True)
    finally:
        for server in servers.values():
            server.stop()
    median = {name: {s: statistics.median(v) for s, v in by_shape.items()} for name, by_shape in rounds.items()}
    ratios = {cfg: {s: round(median[cfg][s] / median["noop"][s], 3) for s in args.shapes}
              for cfg in median if cfg != "noop"}
    return {"workers": args.workers, "connections": args.connections, "requests": len(reqs), "seed": args.seed,
            "duration_s": args.duration, "rounds": args.rounds, "batch_size": BATCH, "cpus": os.cpu_count(),
            "concurrency": {s: SHAPES[s][0] for s in args.shapes}, "units": {s: SHAPES[s][1] for s in args.shapes},
            "throughput_median": median, "throughput_rounds": rounds, "ratio_vs_noop": ratios}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.server_overhead", description=__doc__.split("\n\n")[0])
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--connections", type=int, default=4, help="client connections (spread over the workers)")
    p.add_argument("--duration", type=float, default=3.0, help="measured seconds per shape and round")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--warmup", type=float, default=1.0)
    p.add_argument("--requests", type=int, default=2000, help="distinct requests in the mix")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    p.add_argument("--cold", action="store_true", help="also run the engine with the cache off")
    p.add_argument("--out", default=str(ROOT / "bench" / "results" / "server_overhead.json"))
    args = p.parse_args(argv)
    report = run(args)
    print(json.dumps(report, indent=2))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
