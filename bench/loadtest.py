"""`make loadtest`: 200 simulated tables against fresh `mjsvc serve` processes: the closed-loop capacity of one,
then a second offered half of that, with the bare gRPC floor's capacity in the same run for scale.

Phases (durations and rate by flags):
  1. a fresh server, warmed up a few seconds at a low rate (not reported: fills its tables and caches), then
     the closed loop over Play streams: every table sends its next request as soon as it has the answer,
     which finds the most this machine does with the client and server sharing its cores (the capacity,
     also given per server core: messages/s divided by the server's CPU cores used);
  2. a second fresh server, warmed up alike, offered half that capacity (or --rate) as an open loop;
  3. the floor: a bare grpc.aio server answering stored bytes (bench.service_cost), 16 closed-loop streams,
     its messages/s and messages per server core.

Writes bench/results/loadtest-closed.json, loadtest-open.json, loadtest-summary.json, a Markdown table
loadtest.md and the plot bench/results/loadtest.png (throughput, latency percentiles and CPU per second).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench.cpu_time import machine_busy_seconds, process_tree_cpu_seconds
from mjsvc import loadgen
from mjsvc.launcher import ServerProcess, local_server, scrape_value

RESULTS = Path(__file__).resolve().parent / "results"


class CpuSampler(threading.Thread):
    """Once a second: cores used by the server, by this client, and by everything else on the machine.

    Client and server share the machine with whatever else runs; the third number tells a latency
    spike caused by the service from one caused by a neighbour.
    """

    def __init__(self, server_pid: int) -> None:
        super().__init__(daemon=True)
        self.server_pid = server_pid
        self.samples: list[dict[str, float]] = []
        self._stop_event = threading.Event()

    def run(self) -> None:
        t0 = time.perf_counter()
        prev = (time.perf_counter(), machine_busy_seconds(), process_tree_cpu_seconds(self.server_pid),
                time.process_time())
        while not self._stop_event.wait(1.0):
            now = (time.perf_counter(), machine_busy_seconds(), process_tree_cpu_seconds(self.server_pid),
                   time.process_time())
            dt = now[0] - prev[0]
            busy, server, client = ((now[i] - prev[i]) / dt for i in (1, 2, 3))
            self.samples.append({"t": round(now[0] - t0, 1), "at": now[0], "server_cores": round(server, 2),
                                 "client_cores": round(client, 2),
                                 "other_cores": round(max(0.0, busy - server - client), 2)})
            prev = now

    def stop(self) -> list[dict[str, float]]:
        self._stop_event.set()
        self.join()
        return self.samples


QUIET_OTHER_CORES = 0.1


def quiet_seconds_summary(stats: loadgen.Stats, cpu: list[dict[str, float]]) -> dict[str, Any]:
    """Latency over the seconds in which no other process on the machine used more than 0.1 core.

    The machine may be shared (CI, other jobs); a second where a neighbour took a core says nothing
    about the service. The full-run numbers stay the headline; these are labelled as what they are.
    """
    quiet: list[float] = []
    seconds = 0
    for k, lats in enumerate(stats.per_second[:-1]):  # the last bucket is partial
        start, end = stats.t0 + k, stats.t0 + k + 1
        overlapping = [c["other_cores"] for c in cpu if c["at"] - 1.0 < end and c["at"] > start]
        if overlapping and max(overlapping) < QUIET_OTHER_CORES:
            quiet.extend(lats)
            seconds += 1
    return {"seconds": seconds, "of_seconds": max(0, len(stats.per_second) - 1), "calls": len(quiet),
            "latency_ms": loadgen.summary_ms(quiet), "other_cores_below": QUIET_OTHER_CORES}


def _cache_counts(server: ServerProcess) -> tuple[float, float]:
    return (scrape_value(server.metrics_url, "mjsvc_cache_hits_total") or 0.0,
            scrape_value(server.metrics_url, "mjsvc_cache_misses_total") or 0.0)


def floor_capacity(seconds: float) -> dict[str, Any]:
    """The bare gRPC floor in the same run, for scale: a plain grpc.aio server answering the same bytes with
    the same bytes (bench.service_cost's floor, one process), driven by 16 closed-loop Play streams of
    bench.service_cost's raw-bytes client with the MCR Evaluate of the README."""
    from bench import service_cost
    from mjsvc.service import Service

    method, req = service_cost.requests()["evaluate"]
    play = service_cost.play_request("evaluate", method, req)
    raw = play.SerializeToString()
    srv = service_cost.FloorServer({raw: Service().play_bytes(play)})
    try:
        got = service_cost.measure(srv.address, srv.pid, "play", method, raw, 1.0, seconds)
    finally:
        srv.close()
    per_core = 1e6 / got["server_us_per_message"]
    print(f"== floor: {got['messages_per_s']:,.0f} messages/s, {per_core:,.0f} per server core", file=sys.stderr)
    return {"messages_per_s": got["messages_per_s"], "server_us_per_message": got["server_us_per_message"],
            "messages_per_server_core_s": round(per_core), "streams": service_cost.STREAMS,
            "server": "bare grpc.aio on uvloop, one process (bench.service_cost)"}


def run_phase(server: ServerProcess, name: str, cfg: loadgen.Config) -> dict[str, Any]:
    print(f"== {name}: {cfg.tables} tables, {cfg.mode}, "
          f"{'closed loop' if not cfg.rate else f'{cfg.rate:g} calls/s offered'}, {cfg.duration:g} s", file=sys.stderr)
    hits0, misses0 = _cache_counts(server)
    server_cpu0 = process_tree_cpu_seconds(server.process.pid)
    client_cpu0, t0 = time.process_time(), time.perf_counter()
    busy0 = machine_busy_seconds()
    sampler = CpuSampler(server.process.pid)
    sampler.start()
    stats = loadgen.Stats()
    report = loadgen.run_config(cfg, stats=stats)
    cpu_series = sampler.stop()
    report["quiet"] = quiet_seconds_summary(stats, cpu_series)
    for c in cpu_series:
        c["t"] = round(c.pop("at") - stats.t0, 1)  # seconds from the start of the run, as in `series`
    report["cpu_series"] = cpu_series
    wall = time.perf_counter() - t0
    hits1, misses1 = _cache_counts(server)
    lookups = (hits1 - hits0) + (misses1 - misses0)
    report["cache_hit_ratio"] = round((hits1 - hits0) / lookups, 3) if lookups else None
    report["cpu"] = {
        "wall_s": round(wall, 2),
        "client_cores": round((time.process_time() - client_cpu0) / wall, 2),
        "server_cores": round((process_tree_cpu_seconds(server.process.pid) - server_cpu0) / wall, 2),
        "machine_busy_cores": round((machine_busy_seconds() - busy0) / wall, 2),
        "machine_cores": os.cpu_count(),
    }
    report["cpu"]["other_cores"] = round(max(0.0, report["cpu"]["machine_busy_cores"] - report["cpu"]["client_cores"]
                                             - report["cpu"]["server_cores"]), 2)
    print(loadgen.format_report(report), file=sys.stderr)
    return report


def plot(phases: list[tuple[str, dict[str, Any]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_rps, ax_lat, ax_cpu) = plt.subplots(3, 1, figsize=(11, 9), sharex=True,
                                                 gridspec_kw={"height_ratios": [3, 3, 2]})
    offset = 0
    for i, (name, rep) in enumerate(phases):
        series = rep["series"][:-1] if len(rep["series"]) > 1 else rep["series"]  # last second is partial
        ts = [offset + s["t"] for s in series]
        color = f"C{i}"
        ax_rps.plot(ts, [s["calls"] for s in series], color=color, label=f"{name}: {rep['rps']:.0f} calls/s")
        ax_lat.plot(ts, [s["p50_ms"] for s in series], color=color, linestyle="--", label=f"{name} p50")
        ax_lat.plot(ts, [s["p99_ms"] for s in series], color=color, label=f"{name} p99")
        cpu = rep.get("cpu_series", [])
        if cpu:
            ct = [offset + c["t"] - 1 for c in cpu]
            ax_cpu.stackplot(ct, [c["server_cores"] for c in cpu], [c["client_cores"] for c in cpu],
                             [c["other_cores"] for c in cpu], colors=["C2", "C1", "C7"], alpha=0.6,
                             labels=["server", "load generator", "other processes"] if i == 0 else ())
        if rep.get("offered_rps"):
            ax_rps.axhline(rep["offered_rps"], color=color, linewidth=0.6, linestyle=":")
        if offset:
            for ax in (ax_rps, ax_lat, ax_cpu):
                ax.axvline(offset - 0.5, color="grey", linewidth=0.8)
        offset += len(rep["series"]) + 1
    ax_lat.axhline(5.0, color="red", linewidth=0.6, linestyle=":", label="5 ms")
    ax_rps.set_ylabel("calls per second")
    ax_rps.set_ylim(bottom=0)
    ax_lat.set_ylabel("latency per call, ms (log)")
    ax_lat.set_yscale("log")
    ax_cpu.set_ylabel("CPU cores busy")
    ax_cpu.set_ylim(0, os.cpu_count() or 2)
    ax_cpu.set_xlabel("seconds")
    for ax in (ax_rps, ax_lat, ax_cpu):
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper right", fontsize=8)
    tables = phases[0][1]["config"]["tables"]
    fig.suptitle(f"mjsvc: {tables} simulated tables over Play streams, {os.cpu_count()} cores "
                 "(client and server on one machine)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def markdown(summary: dict[str, Any]) -> str:
    """The results as a Markdown table, for docs and the README."""
    rows = ["| Phase | Offered | Calls | Calls/s | Errors | p50 ms | p90 ms | p99 ms | max ms "
            "| CPU server / load generator / others (cores) | p99 ms in quiet seconds |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, ph in summary["phases"].items():
        lat, cpu, quiet = ph["latency_ms"], ph["cpu"], ph["quiet"]
        offered = f"{ph['offered_rps']:g}/s" if ph["offered_rps"] else "closed loop"
        rows.append(f"| {name} | {offered} | {ph['calls']:,} | {ph['rps']:,.0f} | {ph['error_total']} "
                    f"| {lat['p50']:.2f} | {lat['p90']:.2f} | {lat['p99']:.2f} | {lat['max']:.1f} "
                    f"| {cpu['server_cores']:.2f} / "
                    f"{cpu['client_cores']:.2f} / {cpu['other_cores']:.2f} | {quiet['latency_ms']['p99']:.2f} "
                    f"({quiet['seconds']} of {quiet['of_seconds']} s) |")
    m = summary["machine"]
    lines = [f"{m['cores']} cores, Python {m['python']}, {m['server_workers']} server workers, "
             f"{next(iter(summary['phases'].values()))['tables']} tables over Play streams; the load generator "
             "runs on the same machine, its gRPC helper threads under "
             f"{m.get('load_generator_helper_threads', 'normal')} scheduling.", "", *rows]
    cap, floor = summary.get("capacity"), summary.get("floor")
    if cap:
        lines += ["", f"Capacity (closed loop, a fresh server): {cap['messages_per_s']:,.0f} messages/s on "
                  f"{cap['server_cores']:.2f} server cores, **{cap['messages_per_server_core_s']:,} messages/s per "
                  f"server core**; the open phase offered a second fresh server half of that "
                  f"({cap['open_phase_offered']:,.0f}/s)."]
    if floor:
        lines += ["", f"The bare gRPC floor in the same run ({floor['server']}, {floor['streams']} closed-loop "
                  f"Play streams, one request answered with stored bytes): {floor['messages_per_s']:,.0f} "
                  f"messages/s, {floor['messages_per_server_core_s']:,} per server core."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--workers", type=int, default=0, help="server workers (0: one per core)")
    ap.add_argument("--warmup-seconds", type=float, default=5.0)
    ap.add_argument("--closed-seconds", type=float, default=60.0)
    ap.add_argument("--open-seconds", type=float, default=60.0)
    ap.add_argument("--rate", type=float, default=0.0,
                    help="offered calls/s in the open-loop phase (0: half the closed loop's capacity)")
    ap.add_argument("--floor-seconds", type=float, default=10.0,
                    help="seconds of the bare gRPC floor's closed loop, for scale (0: none)")
    ap.add_argument("--mode", choices=("stream", "unary"), default="stream")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--normal-helper-threads", dest="batch_helper_threads", action="store_false",
                    help="the simulator's gRPC helper threads under the normal scheduling policy (by default "
                         "SCHED_BATCH, as the server's: mjsvc.threads)")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)

    workers = args.workers or os.cpu_count() or 1
    args.out.mkdir(parents=True, exist_ok=True)
    base = dict(tables=args.tables, connections=args.connections, mode=args.mode, progress=True, settle=1.0,
                batch_helper_threads=args.batch_helper_threads)
    phases: list[tuple[str, dict[str, Any]]] = []

    def warm(server: ServerProcess) -> None:
        print(f"server log: {server.log_path}", file=sys.stderr)
        if args.warmup_seconds > 0:
            loadgen.run_config(loadgen.Config(target=server.target, duration=args.warmup_seconds, rate=500.0,
                                              seed=args.seed + 1000, **{**base, "progress": False}))

    capacity = 0.0
    if args.closed_seconds > 0:
        with local_server(workers=workers) as server:  # a fresh server: its closed-loop capacity
            warm(server)
            phases.append(("closed loop", run_phase(server, "closed loop", loadgen.Config(
                target=server.target, duration=args.closed_seconds, seed=args.seed, **base))))
            capacity = phases[-1][1]["rps"]
    rate = args.rate or capacity / 2
    if args.open_seconds > 0 and rate > 0:
        with local_server(workers=workers) as server:  # a second fresh server, offered half of that
            warm(server)
            phases.append(("offered", run_phase(server, "open loop", loadgen.Config(
                target=server.target, duration=args.open_seconds, rate=rate, seed=args.seed + 1, **base))))
    floor = floor_capacity(args.floor_seconds) if args.floor_seconds > 0 else None

    names = {"closed loop": "closed", "offered": "open"}
    for name, rep in phases:
        (args.out / f"loadtest-{names[name]}.json").write_text(json.dumps(rep, indent=1) + "\n")
    summary = {
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(), "server_workers": workers,
                    "load_generator_helper_threads": "SCHED_BATCH" if args.batch_helper_threads else "normal"},
        "phases": {names[name]: {k: rep[k] for k in ("calls", "rps", "errors", "error_total", "latency_ms",
                                                      "per_rpc", "send_lag_ms", "offered_rps", "games", "wins",
                                                      "cpu", "cache_hit_ratio", "quiet")}
                   | {"duration_s": rep["duration_s"], "tables": rep["config"]["tables"]}
                   for name, rep in phases},
    }
    closed = dict(phases).get("closed loop")
    if closed is not None:
        summary["capacity"] = {
            "messages_per_s": closed["rps"],
            "server_cores": closed["cpu"]["server_cores"],
            "messages_per_server_core_s": round(closed["rps"] / max(closed["cpu"]["server_cores"], 1e-9)),
            "open_phase_offered": round(rate, 1),
        }
    if floor is not None:
        summary["floor"] = floor
    (args.out / "loadtest-summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    (args.out / "loadtest.md").write_text(markdown(summary))
    if phases:
        plot(phases, args.out / "loadtest.png")
    print(json.dumps({k: v for k, v in summary.items() if k != "machine"}, indent=1))
    return 1 if any(rep["error_total"] for _, rep in phases) else 0


if __name__ == "__main__":
    sys.exit(main())
