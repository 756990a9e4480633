"""`make bench-mix`: where a server's time goes on the load test's traffic, operation by operation.

The load test's MCR tables (`mjsvc.loadgen.simulation.Table`) play whole games against `mjsvc.service.Service`
in this process, without gRPC: each table's client calls the service directly, with the cache off, because
the load test's hands are new (its cache hit ratio is 1-2%). The tables take turns call by call, as they do
on a server, so the engine's memo tables warm up as a long-running worker's do. Every call is timed whole
(limits, conversion in, checks, engine, answer written) and its work after the cache as the service itself
reports it to the worker's `mjsvc_engine_seconds` histogram (the limits counted in it since the one-pass
reading of the request). Reported per operation: Evaluate, Analyze of a
13-tile hand (waits and useful tiles) and Analyze of a 14-tile hand (discard advice), with calls, mean and
percentiles in µs and the share of all the time; then, after the games, the same operation's requests (the
first `BACK_TO_BACK` of them) answered again back to back, one untimed pass and one timed, without the other
operations' calls between them: what the operation costs when its own working set stays in the CPU's caches.
Writes `bench/results/engine_mix.json`.

    python -m bench.engine_mix [--tables 20] [--games 1000] [--seed 1] [--out PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import engine
from engine.errors import EngineError
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.loadgen.report import Stats
from mjsvc.loadgen.simulation import Table
from mjsvc.loadgen.table import Client, RunState
from mjsvc.loadgen.transport import CallFailed
from mjsvc.service import Service

RESULTS = Path(__file__).resolve().parent / "results"
OPERATIONS = ("Evaluate", "Analyze 13", "Analyze 14")
BACK_TO_BACK = 20_000  # requests per operation answered again after the games


class _Tally:
    def inc(self, amount: int = 1) -> None:
        pass


class Timings:
    """The service's observer: keeps the engine-work time of the call just made."""

    def __init__(self) -> None:
        self.work = 0.0
        self._counters = (_Tally(), _Tally())

    def engine_time(self, rule_set: str, operation: str, seconds: float) -> None:
        self.work = seconds

    def cache_counters(self, operation: str) -> tuple[_Tally, _Tally]:
        return self._counters

    def cache_size(self, entries: int, size_bytes: int) -> None:
        pass

    def cache_evicted(self, entries: int) -> None:
        pass


def operation(method: str, req: Any) -> str:
    """`Evaluate`, or `Analyze 13` / `Analyze 14` by the hand's size (a kong counts as 3)."""
    if method == "Evaluate":
        return method
    return f"Analyze {len(req.hand.concealed) + 3 * len(req.hand.melds)}"


class InProcessClient:
    """A table's client that calls the service in this process, timing each call."""

    def __init__(self, service: Service, timings: Timings, samples: dict[str, list[tuple[float, float]]],
                 asked: dict[str, list[Any]]) -> None:
        self._service = service
        self._timings = timings
        self._samples = samples
        self._asked = asked

    async def _call(self, method: str, answer: Any, req: Any) -> bytes:
        await asyncio.sleep(0)  # the next table's turn: tables interleave as on a server
        timings = self._timings
        timings.work = 0.0
        t0 = time.perf_counter()
        try:
            raw = answer(req)
        except EngineError as err:
            raise CallFailed("INVALID_ARGUMENT", str(err)) from None
        whole = time.perf_counter() - t0
        op = operation(method, req)
        self._samples.setdefault(op, []).append((whole, timings.work))
        self._asked.setdefault(op, []).append(req)
        return cast(bytes, raw)

    async def evaluate(self, req: pb.EvaluateRequest) -> pb.EvaluateResponse:
        return pb.EvaluateResponse.FromString(await self._call("Evaluate", self._service.evaluate_bytes, req))

    async def analyze(self, req: pb.AnalyzeRequest) -> pb.AnalyzeResponse:
        return pb.AnalyzeResponse.FromString(await self._call("Analyze", self._service.analyze_bytes, req))

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None


def _us(seconds: float) -> float:
    return round(seconds * 1e6, 1)


def _summary(samples: list[tuple[float, float]], total: float, alone: float) -> dict[str, Any]:
    whole = sorted(s[0] for s in samples)
    work = [s[1] for s in samples]
    q = statistics.quantiles(whole, n=10) if len(whole) > 1 else [whole[0]] * 9
    return {"calls": len(whole), "mean_us": _us(statistics.fmean(whole)), "p50_us": _us(q[4]),
            "p90_us": _us(q[8]), "work_mean_us": _us(statistics.fmean(work)),
            "share": round(sum(whole) / total, 3), "back_to_back_mean_us": _us(alone)}


def back_to_back(service: Service, op: str, requests: list[Any]) -> float:
    """Mean seconds of a miss over `requests`, answered in a row: one untimed pass, then one timed."""
    answer = service.evaluate_bytes if op == "Evaluate" else service.analyze_bytes
    for req in requests:
        answer(req)
    t0 = time.perf_counter()
    for req in requests:
        answer(req)
    return (time.perf_counter() - t0) / len(requests)


Played = tuple[dict[str, list[tuple[float, float]]], dict[str, list[Any]], Stats, Service]


async def _play(tables: int, games: int, seed: int) -> Played:
    from mjsvc.worker import warm_up

    if not warm_up():  # what a worker runs before it serves
        raise RuntimeError("the worker's warm-up failed")
    timings = Timings()
    service = Service(cache_size=0, observer=timings)
    samples: dict[str, list[tuple[float, float]]] = {}
    asked: dict[str, list[Any]] = {}
    stats = Stats()
    run = RunState(deadline=None, max_games=games)
    players = [Table(i, cast(Client, InProcessClient(service, timings, samples, asked)), stats, run, seed, None,
                     stagger=True) for i in range(tables)]
    await asyncio.gather(*(t.run() for t in players))
    return samples, asked, stats, service


def run(tables: int, games: int, seed: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    samples, asked, stats, service = asyncio.run(_play(tables, games, seed))
    wall = time.perf_counter() - t0
    if stats.errors:
        raise RuntimeError(f"the tables met errors: {dict(stats.errors)} {stats.violations[:3]}")
    total = sum(w for s in samples.values() for w, _ in s)
    calls = sum(len(s) for s in samples.values())
    compiled = engine.compiled_modules()
    return {
        "bench": "engine_mix",
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "engine": f"{len(compiled)} modules compiled" if compiled else "Python source",
        "python": sys.version.split()[0],
        "tables": tables, "games": stats.games, "seed": seed, "calls": calls, "wall_s": round(wall, 1),
        "mean_us_per_call": _us(total / calls) if calls else 0.0,
        "back_to_back_requests": BACK_TO_BACK,
        "operations": {op: _summary(samples[op], total, back_to_back(service, op, asked[op][:BACK_TO_BACK]))
                       for op in OPERATIONS if op in samples},
    }


def print_report(rep: dict[str, Any]) -> None:
    print(f"{rep['games']} games at {rep['tables']} tables, {rep['calls']} calls (engine: {rep['engine']}), "
          f"mean {rep['mean_us_per_call']} µs a call, the cache off")
    print(f"{'operation':12s} {'calls':>7s} {'mean µs':>8s} {'p50':>7s} {'p90':>7s} {'work µs':>8s} {'share':>6s} "
          f"{'back to back µs':>16s}")
    for op, r in rep["operations"].items():
        print(f"{op:12s} {r['calls']:7d} {r['mean_us']:8.1f} {r['p50_us']:7.1f} {r['p90_us']:7.1f} "
              f"{r['work_mean_us']:8.1f} {r['share']:6.2f} {r['back_to_back_mean_us']:16.1f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.engine_mix", description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--games", type=int, default=1000, help="games in all, over every table")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=RESULTS / "engine_mix.json")
    args = ap.parse_args(argv)
    rep = run(args.tables, args.games, args.seed)
    print_report(rep)
    args.out.write_text(json.dumps(rep, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
