"""`make soak` (`python -m bench.soak`): does a worker's memory level off under hostile traffic?

A fresh `mjsvc serve` (2 workers, default settings, started by `mjsvc.launcher`) gets, for `--minutes`
(30 by default):
- 200 simulated tables (`mjsvc loadgen`, a separate process) at an offered `--rate` calls/s (1,000), every
  answer checked;
- beside them, ~`--bad-rate` calls/s of invalid and hostile requests from this process: undecodable bodies,
  lists over the limits, long strings, bad tiles, merged repeated fields, non-UTF-8 Play ids, oversized
  batches, and distinct valid Analyze requests with discard advice (they fill the cache with the largest
  answers there are).
Every 10 s the RSS of each worker is read from /proc, with the cache's size from /metrics. Written to
bench/results/soak.json and plotted to bench/results/soak.png; the summary says how much each worker's RSS
moved over the last 20 minutes.

`--limits-check` instead compares the RSS of a fresh one-worker server after 150 Analyze calls carrying a
different 1,000,000-tile `visible` list each (all refused by the limits) with that after 150 normal ones.

The machine is shared: other processes change what a worker's RSS and latencies look like only through
CPU time, but the run's load figures are as noisy as the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import grpc

from mjsvc.convert import tiles_to_proto
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.launcher import ServerProcess, clean_env, console_script

RESULTS = Path(__file__).resolve().parent / "results"
SERVICE = "mahjong.v1.MahjongEngine"
SAMPLE_EVERY = 10.0  # seconds


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


# ---------------------------------------------------------------------------------------------
# Hostile traffic


def _tag(number: int, payload: bytes) -> bytes:
    from mjsvc.wire import message_field

    return message_field(number, payload)


def bad_request(rng: random.Random) -> tuple[str, bytes]:
    """(method, body) of one invalid or hostile request, or of a distinct valid Analyze with advice."""
    wall = [t for t in range(34) for _ in range(4)]
    rng.shuffle(wall)
    hand = pb.Hand(concealed=tiles_to_proto(wall[:14]))
    kind = rng.randrange(10)
    if kind == 0:
        return "Evaluate", rng.randbytes(rng.randrange(1, 64))
    if kind == 1:
        return "Analyze", pb.AnalyzeRequest(hand=hand, visible=[rng.randrange(1, 35)
                                                                for _ in range(rng.randrange(137, 5000))]
                                            ).SerializeToString()
    if kind == 2:
        return "Evaluate", pb.EvaluateRequest(rule_set="x" * rng.randrange(33, 16000), hand=hand).SerializeToString()
    if kind == 3:
        return "Evaluate", pb.EvaluateRequest(hand=pb.Hand(concealed=[rng.randrange(0, 60) for _ in range(14)],
                                                           winning_tile=99)).SerializeToString()
    if kind == 4:  # two copies of the hand field: protobuf merges them
        other = pb.Hand(concealed=tiles_to_proto(wall[14:27]))
        return "Analyze", _tag(2, hand.SerializeToString()) + _tag(2, other.SerializeToString())
    if kind == 5:
        items = [pb.EvaluateRequest(hand=pb.Hand(concealed=tiles_to_proto(wall[:13]), winning_tile=wall[13] + 1))]
        return "EvaluateBatch", pb.EvaluateBatchRequest(requests=items * rng.randrange(1001, 1200)).SerializeToString()
    if kind == 6:
        return "Play", b"\x0a\x02\xff\xfe" + _tag(3, pb.AnalyzeRequest(hand=hand).SerializeToString())
    if kind == 7:
        return "Analyze", pb.AnalyzeRequest(hand=pb.Hand(concealed=tiles_to_proto(wall[:14]),
                                                         melds=[pb.Meld(tiles=[1] * 4000)])).SerializeToString()
    return "Analyze", pb.AnalyzeRequest(hand=hand, visible=tiles_to_proto(wall[14:14 + rng.randrange(0, 60)])
                                        ).SerializeToString()


async def hostile(address: str, rate: float, until: float, codes: Counter[str], seed: int = 7) -> None:
    rng = random.Random(seed)
    async with grpc.aio.insecure_channel(address) as ch:
        i = 0
        t0 = time.monotonic()
        while time.monotonic() < until:
            i += 1
            delay = t0 + i / rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            method, body = bad_request(rng)
            try:
                if method == "Play":
                    call = ch.stream_stream(f"/{SERVICE}/Play")(iter([body]), timeout=10)
                    async for answer in call:
                        reason = pb.PlayResponse.FromString(answer).error.reason
                        codes[f"Play {reason or 'OK'}"] += 1
                else:
                    await ch.unary_unary(f"/{SERVICE}/{method}")(body, timeout=10)
                    codes[f"{method} OK"] += 1
            except grpc.aio.AioRpcError as err:
                codes[f"{method} {err.code().name}"] += 1


# ---------------------------------------------------------------------------------------------
# The soak


async def sample(server: ServerProcess, until: float, out: list[dict[str, Any]]) -> None:
    t0 = time.monotonic()
    while True:
        row: dict[str, Any] = {"t": round(time.monotonic() - t0, 1), "load1": os.getloadavg()[0]}
        for index, pid in sorted(server.ready_workers().items()):
            row[f"worker{index}_rss_mb"] = rss_mb(pid)
        try:
            row["cache_mb"] = round(server.metric("mjsvc_cache_bytes") / 2**20, 2)
            row["cache_entries"] = server.metric("mjsvc_cache_entries")
        except OSError:
            pass
        out.append(row)
        if time.monotonic() >= until:
            return
        await asyncio.sleep(SAMPLE_EVERY)


def soak(minutes: float, rate: float, bad_rate: float, tables: int) -> dict[str, Any]:
    seconds = minutes * 60
    samples: list[dict[str, Any]] = []
    codes: Counter[str] = Counter()
    with ServerProcess(workers=2, grace=10.0) as server:
        report_path = RESULTS / "soak-loadgen.json"
        sim = subprocess.Popen([str(console_script()), "loadgen", "--target", server.address, "--tables", str(tables),
                                "--rate", str(rate), "--duration", str(seconds), "--quiet", "--json", str(report_path)],
                               env=clean_env(), cwd=RESULTS, stdout=subprocess.DEVNULL)
        until = time.monotonic() + seconds

        async def both() -> None:
            await asyncio.gather(sample(server, until, samples), hostile(server.address, bad_rate, until, codes))

        asyncio.run(both())
        sim.wait(timeout=120)
        restarts = server.metric("mjsvc_worker_restarts_total")
        log = server.log()
    loadgen = json.loads(report_path.read_text()) if report_path.exists() else {}
    return {"minutes": minutes, "tables": tables, "offered_rate": rate, "bad_rate": bad_rate,
            "samples": samples, "hostile_outcomes": dict(sorted(codes.items())), "worker_restarts": restarts,
            "errors_logged": log.count(" ERROR "),
            "full_collections": [line.split(": ", 1)[-1] for line in log.splitlines() if "full collection:" in line],
            "loadgen": {k: loadgen.get(k) for k in ("calls", "rps", "error_total", "errors", "stream_breaks",
                                                    "latency_ms", "games")},
            "summary": summarize(samples)}


def summarize(samples: list[dict[str, Any]], window_s: float = 1200.0) -> dict[str, Any]:
    if not samples:
        return {}
    end = samples[-1]["t"]
    out: dict[str, Any] = {}
    for key in sorted(k for k in samples[0] if k.endswith("_rss_mb")):
        series = [(s["t"], s[key]) for s in samples if s.get(key) is not None]
        last = [v for t, v in series if t >= end - window_s]
        tail = [(t, v) for t, v in series if t >= end - window_s]
        out[key] = {"start": series[0][1], "end": series[-1][1], "max": max(v for _, v in series),
                    f"last_{int(window_s // 60)}min_min": min(last), f"last_{int(window_s // 60)}min_max": max(last),
                    f"last_{int(window_s // 60)}min_slope_mb_per_min": round(_slope(tail) * 60, 3)}
    loads = [s["load1"] for s in samples if "load1" in s]
    if loads:
        out["load1_mean"] = round(sum(loads) / len(loads), 2)
    return out


def _slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope (per second) of (t, value) points."""
    n = len(points)
    if n < 2:
        return 0.0
    mt = sum(t for t, _ in points) / n
    mv = sum(v for _, v in points) / n
    den = sum((t - mt) ** 2 for t, _ in points)
    return sum((t - mt) * (v - mv) for t, v in points) / den if den else 0.0


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    samples = result["samples"]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for key in sorted(k for k in samples[0] if k.endswith("_rss_mb")):
        pts = [(s["t"] / 60, s[key]) for s in samples if s.get(key) is not None]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=key.replace("_rss_mb", " RSS"))
    pts = [(s["t"] / 60, s.get("cache_mb")) for s in samples if s.get("cache_mb") is not None]
    ax.plot([p[0] for p in pts], [p[1] for p in pts], label="response caches (both workers)", linestyle="--")
    ax.set_xlabel("minutes")
    ax.set_ylabel("MB")
    ax.set_ylim(bottom=0)
    ax.set_title(f"soak: {result['tables']} tables at {result['offered_rate']:g} calls/s + "
                 f"{result['bad_rate']:g} hostile calls/s (shared, noisy 2-core machine)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)


# ---------------------------------------------------------------------------------------------
# RSS after huge `visible` lists (refused) vs normal calls


_TILE_OF_BYTE = bytes(b % 34 + 1 for b in range(256))  # a random byte -> a tile value 1-34 (a 1-byte varint)


def huge_visible_request(rng: random.Random, tiles: int) -> bytes:
    """A serialized AnalyzeRequest: a random 14-tile hand and a random `tiles`-long packed `visible` list,
    written directly as wire bytes (building a million-element list in Python would take longer than the
    server takes to refuse it)."""
    from mjsvc.wire import encode_varint

    wall = [t for t in range(34) for _ in range(4)]
    rng.shuffle(wall)
    head = pb.AnalyzeRequest(hand=pb.Hand(concealed=tiles_to_proto(wall[:14]))).SerializeToString()
    visible = rng.randbytes(tiles).translate(_TILE_OF_BYTE)
    return head + b"\x1a" + encode_varint(tiles) + visible  # field 3 (visible), length-delimited


def normal_request(rng: random.Random) -> bytes:
    wall = [t for t in range(34) for _ in range(4)]
    rng.shuffle(wall)
    return pb.AnalyzeRequest(hand=pb.Hand(concealed=tiles_to_proto(wall[:14])),
                             visible=tiles_to_proto(wall[14:40])).SerializeToString()


def rss_after_calls(kind: str, n: int = 150, tiles: int = 1_000_000, seed: int = 3) -> dict[str, Any]:
    """A fresh one-worker server: its worker's RSS before and after `n` Analyze calls, each a different
    request: `huge` ones (`tiles` visible tiles, all refused) or `normal` ones (26 visible tiles)."""
    rng = random.Random(seed)
    codes: Counter[str] = Counter()
    with ServerProcess(workers=1) as server:
        pid = server.ready_workers()[0]
        before = rss_mb(pid)
        with grpc.insecure_channel(server.address) as ch:
            call = ch.unary_unary(f"/{SERVICE}/Analyze")
            for _ in range(n):
                body = huge_visible_request(rng, tiles) if kind == "huge" else normal_request(rng)
                try:
                    call(body, timeout=30)
                    codes["OK"] += 1
                except grpc.RpcError as err:
                    codes[err.code().name] += 1  # type: ignore[attr-defined]
        time.sleep(1.0)
        after = rss_mb(pid)
    return {"rss_before_mb": before, "rss_after_mb": after, "codes": dict(codes)}


def limits_check(n: int = 150, tiles: int = 1_000_000) -> dict[str, Any]:
    out: dict[str, Any] = {"calls": n, "visible_tiles": tiles}
    for name, kind in (("huge_visible", "huge"), ("normal", "normal")):
        r = rss_after_calls(kind, n, tiles)
        out[f"{name}_rss_before_mb"] = r["rss_before_mb"]
        out[f"{name}_rss_after_mb"] = r["rss_after_mb"]
        out[f"{name}_codes"] = r["codes"]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=30.0)
    p.add_argument("--rate", type=float, default=1000.0, help="offered load of the simulated tables, calls/s")
    p.add_argument("--bad-rate", type=float, default=50.0, help="hostile calls/s beside them")
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--limits-check", action="store_true", help="run the 1,000,000-tile visible check instead")
    p.add_argument("--out", type=Path, default=RESULTS / "soak.json")
    args = p.parse_args(argv)
    RESULTS.mkdir(parents=True, exist_ok=True)
    if args.limits_check:
        result = limits_check()
        print(json.dumps(result, indent=1))
        (RESULTS / "soak-limits.json").write_text(json.dumps(result, indent=1) + "\n")
        return 0
    result = soak(args.minutes, args.rate, args.bad_rate, args.tables)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    plot(result, args.out.with_suffix(".png"))
    print(json.dumps({k: v for k, v in result.items() if k != "samples"}, indent=1))
    return 0 if not result["worker_restarts"] and not result["errors_logged"] else 1


if __name__ == "__main__":
    sys.exit(main())
