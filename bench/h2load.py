"""`python -m bench.h2load`: unary Evaluate driven by h2load (nghttp2's HTTP/2 load generator), an external
client beside our own simulator.

h2load knows nothing of gRPC, but a unary gRPC call is an HTTP/2 POST whose body is the message behind a
5-byte prefix (a compression flag 0 and the length, big-endian) with `content-type: application/grpc` and
`te: trailers`; the status comes back in the `grpc-status` trailer, which h2load does not read (a call
refused with INVALID_ARGUMENT is still an HTTP 200 to it). So the servers are asked too: each `mjsvc serve`
counts its calls by gRPC code (`grpc_server_handled_total`), and a run is clean only when every request
h2load sent was counted OK there.

Driven, one after the other and in rounds (so the machine's other load falls on each alike): the floor
(`bench.service_cost`'s bare grpc.aio server answering the same bytes), `mjsvc serve --workers 1` (every
call a cache hit) and `--cache-size 0` (the engine every call). Reported per target: requests/s and
h2load's latency, and server CPU per request (/proc, the whole process tree) with the ratio to the floor.

Needs h2load on PATH (Debian: `apt-get install nghttp2-client`). Writes bench/results/h2load.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.cpu_time import process_tree_cpu_seconds
from mjsvc.launcher import ServerProcess

RESULTS = Path(__file__).resolve().parent / "results"
PATH = "/mahjong.v1.MahjongEngine/Evaluate"
HEADERS = ("content-type: application/grpc", "te: trailers")


def grpc_frame(message: bytes) -> bytes:
    """A gRPC length-prefixed message: flag 0 (not compressed), then the length as 4 bytes big-endian."""
    return b"\x00" + len(message).to_bytes(4, "big") + message


def h2load_command(address: str, data_file: str, requests: int, clients: int, streams: int) -> list[str]:
    """The h2load command for `requests` unary Evaluate calls with this body over `clients` connections of
    at most `streams` concurrent streams each."""
    cmd = ["h2load", "-n", str(requests), "-c", str(clients), "-m", str(streams), "-t", "1", "-d", data_file]
    for h in HEADERS:
        cmd += ["-H", h]
    return [*cmd, f"http://{address}{PATH}"]


_DONE = re.compile(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored")
_RATE = re.compile(r"finished in ([\d.]+)(m?s), ([\d.]+) req/s")
_LATENCY = re.compile(r"time for request:\s+([\d.]+)(us|ms|s)\s+([\d.]+)(us|ms|s)\s+([\d.]+)(us|ms|s)")


def _us(value: str, unit: str) -> float:
    return float(value) * {"us": 1.0, "ms": 1e3, "s": 1e6}[unit]


def parse(output: str) -> dict[str, Any]:
    """h2load's summary: request counts, rate and latency (min, max, mean in µs)."""
    done = _DONE.search(output)
    rate = _RATE.search(output)
    lat = _LATENCY.search(output)
    if not (done and rate):
        raise RuntimeError(f"h2load gave no summary:\n{output[-2000:]}")
    total, started, finished, ok, failed, errored = (int(x) for x in done.groups())
    out: dict[str, Any] = {"total": total, "done": finished, "succeeded": ok, "failed": failed, "errored": errored,
                           "requests_per_s": float(rate.group(3))}
    if lat:
        out["latency_us"] = {"min": _us(*lat.group(1, 2)), "max": _us(*lat.group(3, 4)),
                             "mean": _us(*lat.group(5, 6))}
    return out


def run_h2load(address: str, pid: int, data_file: str, requests: int, clients: int, streams: int
               ) -> dict[str, Any]:
    c0 = process_tree_cpu_seconds(pid)
    proc = subprocess.run(h2load_command(address, data_file, requests, clients, streams), capture_output=True,
                          text=True, timeout=300, check=False)
    cpu = process_tree_cpu_seconds(pid) - c0
    out = parse(proc.stdout)
    out["server_us_per_request"] = round(cpu / max(out["succeeded"], 1) * 1e6, 1)
    return out


def ok_calls(server: ServerProcess) -> float:
    return server.metric("grpc_server_handled_total", grpc_method="Evaluate", grpc_code="OK")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.h2load", description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, default=20000, help="calls per target and round")
    p.add_argument("--clients", type=int, default=1, help="h2load connections")
    p.add_argument("--streams", type=int, default=16, help="concurrent streams per connection")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--out", type=Path, default=RESULTS / "h2load.json")
    args = p.parse_args(argv)
    if shutil.which("h2load") is None:
        sys.exit("h2load not found: apt-get install nghttp2-client")
    from bench.service_cost import FloorServer, requests
    from mjsvc.service import Service

    _, req = requests()["evaluate"]
    raw = req.SerializeToString()
    fd, data_file = tempfile.mkstemp(suffix=".grpc")
    with os.fdopen(fd, "wb") as f:
        f.write(grpc_frame(raw))
    common = ("--stream-rate", "0", "--log-level", "WARNING")
    targets: dict[str, Any] = {}
    runs: dict[str, list[dict[str, Any]]] = {}
    try:
        targets["floor"] = FloorServer({raw: Service().evaluate_bytes(req)})
        targets["hit"] = ServerProcess(*common, workers=1)
        targets["engine"] = ServerProcess(*common, "--cache-size", "0", workers=1)
        for t in targets.values():
            if isinstance(t, ServerProcess):
                t.wait_ready()
        for r in range(args.rounds):
            for name, t in targets.items():
                pid = t.pid if isinstance(t, FloorServer) else t.proc.pid
                before = ok_calls(t) if isinstance(t, ServerProcess) else 0.0
                got = run_h2load(t.address, pid, data_file, args.requests, args.clients, args.streams)
                if isinstance(t, ServerProcess):
                    got["grpc_ok"] = int(ok_calls(t) - before)
                runs.setdefault(name, []).append(got)
                print(f"round {r + 1} {name:<7} {got['requests_per_s']:>9.0f} req/s  "
                      f"{got['server_us_per_request']:>7.1f} µs/request  {got['succeeded']}/{got['total']} HTTP ok"
                      + (f", {got['grpc_ok']} gRPC OK" if "grpc_ok" in got else ""), file=sys.stderr, flush=True)
    finally:
        for t in targets.values():
            t.close()
        os.unlink(data_file)
    summary = {}
    for name, rs in runs.items():
        us = [x["server_us_per_request"] for x in rs]
        summary[name] = {"server_us_per_request": statistics.median(us),
                         "requests_per_s": statistics.median(x["requests_per_s"] for x in rs)}
    for name in ("hit", "engine"):
        ratios = [a["server_us_per_request"] / b["server_us_per_request"] for a, b in zip(runs[name], runs["floor"],
                                                                                           strict=True)]
        summary[name]["over_floor"] = round(statistics.median(ratios), 2)
        summary[name]["over_floor_range"] = [round(min(ratios), 2), round(max(ratios), 2)]
    report = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "engine": "pure Python (MJSVC_PURE_PYTHON=1)" if os.environ.get("MJSVC_PURE_PYTHON") == "1"
              else "as built", "command": " ".join(h2load_command("HOST:PORT", "evaluate.grpc", args.requests,
                                                                    args.clients, args.streams)),
              "summary": summary, "runs": runs, "load_average": os.getloadavg()}
    print(json.dumps(summary, indent=1))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
