"""`python -m bench.web_overhead`: what a call through `mjsvc web` (grpc-web) costs next to plain gRPC.

One `mjsvc serve` (1 worker) and one `mjsvc web` in front of it, the same Evaluate requests (a seeded set of
winning hands, cache warm) sent both ways from this process:
- sequential: one call at a time, the two paths interleaved, median and p90 latency per call;
- concurrent: `--concurrency` loops for `--seconds`, calls/s per path;
- CPU: the gateway's CPU time per call (from /proc) beside the server worker's.
Client, gateway and server share this machine's cores: the figures are for comparing the two paths in one
run, not absolute capacities. Writes JSON to bench/results/web_overhead.json (see --out).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import random
import statistics
import struct
import subprocess
import time
from pathlib import Path
from typing import Any

import grpc

from bench.server_overhead import Server, _winning_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.launcher import clean_env, console_script, free_port, worker_pids

ROOT = Path(__file__).resolve().parent.parent
PATH = "/mahjong.v1.MahjongEngine/Evaluate"


def requests(n: int, seed: int = 16) -> list[bytes]:
    rng = random.Random(seed)
    out: list[bytes] = []
    while len(out) < n:
        tiles = _winning_tiles(rng)
        if tiles:
            out.append(pb.EvaluateRequest(hand=pb.Hand(concealed=[t + 1 for t in tiles[:-1]],
                                                       winning_tile=tiles[-1] + 1)).SerializeToString())
    return out


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0  # utime + stime, in clock ticks of 1/100 s


class Gateway:
    def __init__(self, target: str) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen([str(console_script()), "web", "--port", str(self.port), "--target", target,
                                      "--playground", "", "--log-level", "WARNING"], cwd="/tmp", env=clean_env())

    def wait_ready(self) -> None:
        for _ in range(300):
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                c.request("GET", "/healthz")
                c.getresponse()  # any answer: listening (the server's readiness is Server.wait_ready's)
                return
            except OSError:
                pass
            time.sleep(0.1)
        raise TimeoutError("gateway not ready")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(15)


def frame(payload: bytes) -> bytes:
    return struct.pack(">BI", 0, len(payload)) + payload


def sequential(server: Server, gw: Gateway, reqs: list[bytes], n: int) -> dict[str, Any]:
    channel = grpc.insecure_channel(server.address)
    call = channel.unary_unary(PATH)
    conn = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=10)
    headers = {"Content-Type": "application/grpc-web+proto"}
    grpc_us: list[float] = []
    web_us: list[float] = []
    for i in range(n):
        r = reqs[i % len(reqs)]
        t0 = time.perf_counter()
        call(r, timeout=10)
        t1 = time.perf_counter()
        conn.request("POST", PATH, body=frame(r), headers=headers)
        body = conn.getresponse().read()
        t2 = time.perf_counter()
        assert body.endswith(b"grpc-status: 0\r\n")
        if i >= n // 10:  # the first tenth warms both paths
            grpc_us.append((t1 - t0) * 1e6)
            web_us.append((t2 - t1) * 1e6)
    channel.close()
    conn.close()

    def summary(xs: list[float]) -> dict[str, float]:
        xs = sorted(xs)
        return {"median_us": round(statistics.median(xs), 1), "p90_us": round(xs[int(len(xs) * 0.9)], 1)}

    return {"grpc": summary(grpc_us), "grpc_web": summary(web_us)}


async def _grpc_loop(call: Any, reqs: list[bytes], stop: asyncio.Event, count: list[int]) -> None:
    i = 0
    while not stop.is_set():
        await call(reqs[i % len(reqs)], timeout=10)
        count[0] += 1
        i += 1


async def _web_loop(port: int, reqs: list[bytes], stop: asyncio.Event, count: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    i = 0
    while not stop.is_set():
        body = frame(reqs[i % len(reqs)])
        writer.write(f"POST {PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/grpc-web+proto\r\n"
                     f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(head.split(b"Content-Length: ", 1)[1].split(b"\r\n", 1)[0])
        await reader.readexactly(length)
        count[0] += 1
        i += 1
    writer.close()


async def concurrent(server: Server, gw: Gateway, reqs: list[bytes], loops: int, seconds: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    workers = worker_pids(server.proc.pid)
    for name in ("grpc", "grpc_web"):
        channel = grpc.aio.insecure_channel(server.address)
        call = channel.unary_unary(PATH)
        stop, count = asyncio.Event(), [0]
        if name == "grpc":
            tasks = [asyncio.create_task(_grpc_loop(call, reqs, stop, count)) for _ in range(loops)]
        else:
            tasks = [asyncio.create_task(_web_loop(gw.port, reqs, stop, count)) for _ in range(loops)]
        await asyncio.sleep(1.0)  # warm-up
        start_count, t0 = count[0], time.perf_counter()
        gw_cpu0, srv_cpu0 = cpu_seconds(gw.proc.pid), sum(cpu_seconds(p) for p in workers)
        await asyncio.sleep(seconds)
        calls, elapsed = count[0] - start_count, time.perf_counter() - t0
        gw_cpu, srv_cpu = cpu_seconds(gw.proc.pid) - gw_cpu0, sum(cpu_seconds(p) for p in workers) - srv_cpu0
        stop.set()
        await asyncio.gather(*tasks)
        await channel.close()
        out[name] = {"calls_per_s": round(calls / elapsed), "server_cpu_us_per_call": round(srv_cpu / calls * 1e6, 1)}
        if name == "grpc_web":
            out[name]["gateway_cpu_us_per_call"] = round(gw_cpu / calls * 1e6, 1)
    out["ratio_web_over_grpc"] = round(out["grpc_web"]["calls_per_s"] / out["grpc"]["calls_per_s"], 2)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=3000, help="sequential calls per path")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "web_overhead.json"))
    args = ap.parse_args()
    reqs = requests(200)
    server = Server(workers=1)
    gw: Gateway | None = None
    try:
        server.wait_ready()
        gw = Gateway(server.address)
        gw.wait_ready()
        result = {"sequential": sequential(server, gw, reqs, args.calls),
                  "concurrent": asyncio.run(concurrent(server, gw, reqs, args.concurrency, args.seconds)),
                  "conditions": f"1 worker, 1 gateway, client in the same process; {args.concurrency} loops, "
                                f"{args.seconds:g} s; Evaluate, 200 hands, cache warm"}
    finally:
        if gw:
            gw.stop()
        server.stop()
    text = json.dumps(result, indent=2)
    print(text)
    Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
