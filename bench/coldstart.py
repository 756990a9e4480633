"""`python -m bench.coldstart` (in `make loadtest`): a fresh server under load at once, as an operator meets it.

Each run starts a fresh `mjsvc serve --workers 2` (the installed console script, from an empty working
directory), times it from the command to grpc.health.v1 SERVING and to every worker ready, reads each
worker's RSS and PSS from /proc/PID/smaps_rollup (and what of the suit tables file is resident and
shared, from /proc/PID/smaps), then immediately runs `mjsvc loadgen`'s 200 tables at 3,000 calls/s
offered for 30 s (its defaults otherwise: Play streams over 8 connections), reports p50/p99 over the
whole run and per 5-second window, the calls/s achieved and the CPU per call of the server and of the load
generator (so the report says when the offered rate needs more cores than the machine has), and reads the
workers' memory again. Then one more run in which one
worker is SIGKILLed at second 10: the supervisor replaces it, and the per-second p99 after the kill
shows whether the replacement spikes the tail beyond its first second.

`--warm-run` follows each plain run with a second run of the same load against the same server, whose
memos the first run has filled: the fresh server and the warm one side by side, as issue #13 compares
them. `--server PATH` starts another build's `mjsvc` script (an older checkout's venv, say) under the same
load generator.

Writes bench/results/coldstart.json and coldstart.md. The client runs on the same machine as the
server: on a shared or busy machine the figures say more about the neighbours than about the server
(the CPU other processes used is reported beside each run).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import grpc

from bench.loadtest import CpuSampler
from mjsvc import loadgen
from mjsvc.launcher import free_port, worker_pids

RESULTS = Path(__file__).resolve().parent / "results"
WINDOW_S = 5
WARM_SEED = 7  # the warm run's games differ from the fresh run's (loadgen's default seed)
TABLES_FILE = "suits.bin"


def workers_ready(metrics_url: str) -> float:
    """`mjsvc_workers_ready` from the supervisor's metrics endpoint (0 while it does not answer)."""
    try:
        with urllib.request.urlopen(metrics_url, timeout=2) as r:
            text = r.read().decode()
    except OSError:
        return 0.0
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith("mjsvc_workers_ready"))


def health_serving(target: str) -> bool:
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(target) as ch:
        try:
            return health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=1).status == \
                health_pb2.HealthCheckResponse.SERVING
        except grpc.RpcError:
            return False


def mjsvc_command(server: str = "") -> list[str]:
    """The installed console script beside this interpreter (what an operator runs), or `server`."""
    if server:
        return [server]
    script = Path(sys.executable).parent / "mjsvc"
    return [str(script)] if script.exists() else [sys.executable, "-m", "mjsvc"]


def smaps_rollup(pid: int) -> dict[str, int]:
    """kB fields of /proc/PID/smaps_rollup (Rss, Pss, Shared_Clean, Private_Dirty, ...)."""
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[-1] == "kB":
            out[name.strip()] = int(parts[0])
    return out


def mapping_kb(pid: int, suffix: str) -> dict[str, int]:
    """Rss, Pss and Shared_Clean (kB) of the mappings of files whose path ends with `suffix`."""
    totals = {"Rss": 0, "Pss": 0, "Shared_Clean": 0}
    inside = False
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split()
        if head and "-" in head[0] and len(head) >= 5 and ":" not in head[0]:  # a mapping's first line
            inside = len(head) >= 6 and head[5].endswith(suffix)
        elif inside and head and head[0].rstrip(":") in totals:
            totals[head[0].rstrip(":")] += int(head[1])
    return totals


def memory(supervisor: int) -> list[dict[str, Any]]:
    out = []
    for pid in worker_pids(supervisor):
        try:
            roll = smaps_rollup(pid)
            tables = mapping_kb(pid, TABLES_FILE)
        except OSError:
            continue
        out.append({"pid": pid, "rss_mb": round(roll.get("Rss", 0) / 1024, 1),
                    "pss_mb": round(roll.get("Pss", 0) / 1024, 1),
                    "private_mb": round((roll.get("Private_Clean", 0) + roll.get("Private_Dirty", 0)) / 1024, 1),
                    "tables_rss_mb": round(tables["Rss"] / 1024, 1), "tables_pss_mb": round(tables["Pss"] / 1024, 1)})
    return out


def windows(stats: loadgen.Stats, width: int = WINDOW_S) -> list[dict[str, Any]]:
    """p50/p99 of the calls completed in each `width`-second window of the run."""
    out = []
    for start in range(0, len(stats.per_second), width):
        lats = sorted(x for sec in stats.per_second[start:start + width] for x in sec)
        if not lats:
            continue
        out.append({"from_s": start, "to_s": start + width, "calls": len(lats),
                    "p50_ms": round(loadgen.percentile(lats, 0.5) * 1e3, 3),
                    "p99_ms": round(loadgen.percentile(lats, 0.99) * 1e3, 3)})
    return out


def per_second(stats: loadgen.Stats) -> list[dict[str, Any]]:
    out = []
    for sec, lats in enumerate(stats.per_second):
        s = sorted(lats)
        out.append({"t": sec, "calls": len(s), "p99_ms": round(loadgen.percentile(s, 0.99) * 1e3, 3) if s else None})
    return out


def wait_ready(target: str, metrics_url: str, workers: int, proc: subprocess.Popen[bytes],
               t0: float, timeout: float = 120.0) -> tuple[float, float]:
    """(seconds to the first SERVING answer, seconds to every worker ready), both from `t0`."""
    deadline = time.monotonic() + timeout
    while not health_serving(target):
        if time.monotonic() > deadline or proc.poll() is not None:
            raise RuntimeError("the server did not answer SERVING")
        time.sleep(0.02)
    serving = time.perf_counter() - t0
    while workers_ready(metrics_url) < workers:
        if time.monotonic() > deadline or proc.poll() is not None:
            raise RuntimeError("the worker pool did not come up")
        time.sleep(0.02)
    return serving, time.perf_counter() - t0


def one_run(args: argparse.Namespace, kill_at: float | None, log_dir: Path) -> dict[str, Any]:
    port, mport = free_port(), free_port()
    target, metrics_url = f"127.0.0.1:{port}", f"http://127.0.0.1:{mport}/metrics"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MJSVC_"))}
    env.update(kv.split("=", 1) for kv in args.server_env)
    cwd = tempfile.mkdtemp(prefix="mjsvc-coldstart-")
    log_path = log_dir / f"server-{int(time.time() * 1000)}.log"
    cmd = [*mjsvc_command(args.server), "serve", "--host", "127.0.0.1", "--port", str(port),
           "--metrics-host", "127.0.0.1", "--metrics-port", str(mport), "--workers", str(args.workers)]
    t0 = time.perf_counter()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd, env=env)
    try:
        serving_s, ready_s = wait_ready(target, metrics_url, args.workers, proc, t0)
        mem_start = memory(proc.pid)
        killed: dict[str, Any] = {}
        stats = loadgen.Stats()
        if kill_at is not None:
            def kill() -> None:
                while time.perf_counter() < stats.t0 + kill_at:
                    time.sleep(0.005)
                victims = worker_pids(proc.pid)
                if victims:
                    killed["pid"] = victims[0]
                    killed["at_s"] = round(time.perf_counter() - stats.t0, 3)
                    os.kill(victims[0], signal.SIGKILL)
                    # the replacement: a worker pid not seen before, logged ready by the supervisor (its
                    # mjsvc_workers_ready gauge still counts the dead worker for a moment after the kill)
                    while time.perf_counter() < stats.t0 + args.duration:
                        fresh = [p for p in worker_pids(proc.pid) if p not in victims]
                        if fresh and any(f"(pid {p}) ready" in log_path.read_text(errors="replace") for p in fresh):
                            killed["replaced_ready_s"] = round(time.perf_counter() - stats.t0, 3)
                            return
                        time.sleep(0.02)

            threading.Thread(target=kill, daemon=True).start()
        sampler = CpuSampler(proc.pid)
        sampler.start()
        cfg = loadgen.Config(target=target, tables=args.tables, rate=args.rate, duration=args.duration,
                             connections=args.connections, progress=False)
        report = loadgen.run_config(cfg, stats=stats)
        cpu = sampler.stop()
        mem_end = memory(proc.pid)
        warm: dict[str, Any] | None = None
        if args.warm_run and kill_at is None:
            warm = warm_run(args, proc.pid, target)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(cwd, ignore_errors=True)
    log_lines = log_path.read_text(errors="replace").splitlines()
    return {
        "kill_at_s": kill_at, "killed": killed or None,
        "serving_s": round(serving_s, 3), "all_workers_ready_s": round(ready_s, 3),
        "calls": report["calls"], "rps": report["rps"], "errors": report["errors"],
        "stream_breaks": report["stream_breaks"],
        "latency_ms": report["latency_ms"], "windows": windows(stats), "per_second": per_second(stats),
        "memory_after_start": mem_start, "memory_after_run": mem_end,
        "cpu": cpu_budget(cpu, report["rps"], args.rate),
        "other_cores": round(sum(c["other_cores"] for c in cpu) / max(1, len(cpu)), 2),
        "tables_log": [line for line in log_lines if "suit tables" in line][:3],
        "warm": warm,
    }


def warm_run(args: argparse.Namespace, supervisor: int, target: str) -> dict[str, Any]:
    """The same load again on the same server, right after the fresh run (new games: another seed)."""
    stats = loadgen.Stats()
    sampler = CpuSampler(supervisor)
    sampler.start()
    cfg = loadgen.Config(target=target, tables=args.tables, rate=args.rate, duration=args.duration,
                         connections=args.connections, progress=False, seed=WARM_SEED)
    report = loadgen.run_config(cfg, stats=stats)
    cpu = sampler.stop()
    return {"calls": report["calls"], "rps": report["rps"], "errors": report["errors"],
            "latency_ms": report["latency_ms"], "windows": windows(stats),
            "memory_after_run": memory(supervisor), "cpu": cpu_budget(cpu, report["rps"], args.rate),
            "other_cores": round(sum(c["other_cores"] for c in cpu) / max(1, len(cpu)), 2)}


def cpu_budget(cpu: list[dict[str, float]], rps: float, offered: float) -> dict[str, float]:
    """CPU per call of the server (supervisor and workers) and of the load generator (this process), from the
    once-a-second samples, and the cores the offered rate would take at that cost. When that is more than the
    machine has, the run measures a saturated machine, not the service's tail: the report says so."""
    n = max(1, len(cpu))
    server = sum(c["server_cores"] for c in cpu) / n
    client = sum(c["client_cores"] for c in cpu) / n
    per_call = {"server_us_per_call": round(server / rps * 1e6, 1) if rps else 0.0,
                "client_us_per_call": round(client / rps * 1e6, 1) if rps else 0.0}
    return {**per_call, "server_cores": round(server, 2), "client_cores": round(client, 2),
            "cores_needed_at_offered_rate": round(
                (per_call["server_us_per_call"] + per_call["client_us_per_call"]) * offered / 1e6, 2)}


def _cpu(budget: dict[str, float]) -> str:
    return f"{budget['server_us_per_call']:.0f} + {budget['client_us_per_call']:.0f}"


def _mem(rows: list[dict[str, Any]], key: str) -> str:
    return " / ".join(f"{r[key]:.1f}" for r in rows) or "-"


def markdown(runs: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = [f"# Cold start: {meta['tables']} tables, {meta['rate']:g} calls/s offered, {meta['duration']:g} s, "
             f"{meta['workers']} workers, from SERVING", "",
             f"{meta['when']}, {meta['machine']}. {meta['note']}", "",
             "| run | to SERVING s | all ready s | calls | calls/s | errors | p50 ms | p99 ms | worst 5-s p99 ms | "
             "CPU µs/call server + client | other cores | PSS MB start | PSS MB end | RSS MB end | tables PSS MB end |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for i, r in enumerate(runs, 1):
        name = f"{i}" + (f" (SIGKILL at {r['kill_at_s']:g} s)" if r["kill_at_s"] is not None else "")
        worst = max((w["p99_ms"] for w in r["windows"]), default=0.0)
        lines.append(f"| {name} | {r['serving_s']:.2f} | {r['all_workers_ready_s']:.2f} | {r['calls']} | "
                     f"{r['rps']:.0f} | {sum(r['errors'].values())} | {r['latency_ms']['p50']:.2f} | "
                     f"{r['latency_ms']['p99']:.2f} | {worst:.2f} | {_cpu(r['cpu'])} | {r['other_cores']:.2f} | "
                     f"{_mem(r['memory_after_start'], 'pss_mb')} | "
                     f"{_mem(r['memory_after_run'], 'pss_mb')} | {_mem(r['memory_after_run'], 'rss_mb')} | "
                     f"{_mem(r['memory_after_run'], 'tables_pss_mb')} |")
        w = r.get("warm")
        if w:
            worst = max((x["p99_ms"] for x in w["windows"]), default=0.0)
            lines.append(f"| {i} warm: same server, next {meta['duration']:g} s | | | {w['calls']} | "
                         f"{w['rps']:.0f} | {sum(w['errors'].values())} | {w['latency_ms']['p50']:.2f} | "
                         f"{w['latency_ms']['p99']:.2f} | {worst:.2f} | {_cpu(w['cpu'])} | {w['other_cores']:.2f} | | "
                         f"{_mem(w['memory_after_run'], 'pss_mb')} | "
                         f"{_mem(w['memory_after_run'], 'rss_mb')} | {_mem(w['memory_after_run'], 'tables_pss_mb')} |")
    cores = os.cpu_count() or 1
    needed = max((x["cpu"]["cores_needed_at_offered_rate"] for r in runs for x in (r, r.get("warm")) if x),
                 default=0.0)
    if needed > cores:
        lines += ["", f"At the CPU per call measured here, {meta['rate']:g} calls/s offered needs about {needed:.1f} "
                      f"cores for server and load generator together; this machine has {cores}. These runs measure "
                      "a saturated machine (see calls/s), not the service's tail at that rate."]
    lines += ["", "p99 per 5-second window (ms):", ""]
    for i, r in enumerate(runs, 1):
        lines.append(f"- run {i}: " + ", ".join(f"{w['from_s']}-{w['to_s']} s {w['p99_ms']:.2f}" for w in r["windows"]))
        if r.get("warm"):
            lines.append(f"- run {i} warm: " + ", ".join(f"{w['from_s']}-{w['to_s']} s {w['p99_ms']:.2f}"
                                                        for w in r["warm"]["windows"]))
    for i, r in enumerate(runs, 1):
        if r["killed"]:
            k = r["killed"]
            around = [s for s in r["per_second"] if k["at_s"] - 2 <= s["t"] <= k["at_s"] + 6]
            lines += ["", f"Run {i}: worker {k['pid']} killed at {k['at_s']:.2f} s, replacement ready at "
                          f"{k.get('replaced_ready_s', float('nan')):.2f} s; {r.get('stream_breaks', 0)} Play "
                          "streams broke and were reopened (not errors); p99 per second around it: "
                      + ", ".join(f"{s['t']} s {s['p99_ms']}" for s in around)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.coldstart", description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3, help="plain runs, each on a fresh server (default 3)")
    p.add_argument("--kill-at", type=float, default=10.0, help="second at which the extra run kills a worker "
                   "(default 10; negative: no such run)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--rate", type=float, default=3000.0)
    p.add_argument("--duration", type=float, default=30.0)
    p.add_argument("--connections", type=int, default=8)
    p.add_argument("--out", type=Path, default=RESULTS, help="directory for coldstart.json and coldstart.md")
    p.add_argument("--warm-run", action="store_true",
                   help="after each plain run, the same load again on the same server (fresh and warm side by side)")
    p.add_argument("--server", default="", metavar="PATH",
                   help="the `mjsvc` script to start (default: the one installed beside this interpreter)")
    p.add_argument("--note", default="", help="a line about the conditions, printed with the results")
    p.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                   help="set in the server's environment, which is otherwise this one without PYTHON* and MJSVC_* "
                        "(e.g. MJSVC_SUIT_TABLES=off to compare with the engine's memos alone)")
    args = p.parse_args(argv)
    log_dir = Path(tempfile.mkdtemp(prefix="mjsvc-coldstart-logs-"))
    runs = []
    plan: list[float | None] = [None] * args.runs + ([args.kill_at] if args.kill_at >= 0 else [])
    for n, kill_at in enumerate(plan, 1):
        print(f"== cold start run {n}/{len(plan)}" + (f" (worker SIGKILLed at {kill_at:g} s)" if kill_at else ""),
              file=sys.stderr, flush=True)
        r = one_run(args, kill_at, log_dir)
        runs.append(r)
        print(f"   SERVING after {r['serving_s']:.2f} s (all workers {r['all_workers_ready_s']:.2f} s); "
              f"p50 {r['latency_ms']['p50']:.2f} ms p99 {r['latency_ms']['p99']:.2f} ms; errors {r['errors']}; "
              f"PSS MB {_mem(r['memory_after_run'], 'pss_mb')}", file=sys.stderr, flush=True)
        if r.get("warm"):
            w = r["warm"]
            print(f"   warm (same server again): p50 {w['latency_ms']['p50']:.2f} ms "
                  f"p99 {w['latency_ms']['p99']:.2f} ms; errors {w['errors']}", file=sys.stderr, flush=True)
    meta = {"server_env": args.server_env, "server": " ".join(mjsvc_command(args.server)), "tables": args.tables,
            "rate": args.rate, "duration": args.duration, "workers": args.workers,
            "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": f"{os.cpu_count()} cores, Python {platform.python_version()}, client on the same machine",
            "note": args.note}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "coldstart.json").write_text(json.dumps({"meta": meta, "runs": runs}, indent=1) + "\n")
    text = markdown(runs, meta)
    (args.out / "coldstart.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
