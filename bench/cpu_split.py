"""`python -m bench.cpu_split`: where a live server's CPU goes per message, by library and by thread.

`bench.service_cost` prices a message in server CPU; this asks which code that CPU ran in. For Evaluate (the
README's MCR hand) and Analyze of 14 tiles, each over `Play` (16 closed-loop streams, one worker), and for
unary Evaluate (16 concurrent closed-loop calls), the three servers of `bench.service_cost` (`floor`, `hit`,
`engine`: a bare grpc.aio server, `mjsvc serve` with every call a cache hit, and with the cache off) are
measured twice per round:

1. server CPU per message from /proc, nothing attached (as `bench.service_cost` measures it);
2. the same load with `perf record -e cpu-clock` sampling every thread of the server's processes; each sample
   is counted for the library (shared object) its instruction was in, and for the thread that ran it.

Part of the kernel's time is carved out: `loopback delivery`, the samples inside the delivery of a loopback
packet (`process_backlog`, `__netif_receive_skb` in the kernel's call chain). On loopback a send runs the
receiving socket's side of TCP too and wakes the reader, so the server's sends pay for part of the client's
receive, which a client on another host would pay itself.

A library's µs per message is its share of the samples times the µs per message of step 1 (the profiler's
own cost is left out of the total, not of the shares). The libraries are grouped:

- `kernel`: the Linux kernel and its vDSO (system calls, scheduling, loopback TCP);
- `gRPC core`: gRPC's C core and its Cython layer (`cygrpc`);
- `event loop`: uvloop and libuv (`loop`);
- `Python interpreter`: libpython and its C modules (objects, dicts, the bytecode loop for what is not compiled);
- `compiled engine and conversion`: the mypyc-compiled modules (`engine/_native__mypyc`);
- `protobuf`: upb's Python extension (`_message`);
- `C library`: libc, the dynamic loader, libstdc++;
- `other`: anything else.

By thread: the event loop's thread (the process's main thread, which runs every handler) against gRPC's
helper threads (its polling and event-engine threads), and the context switches per message of each
(voluntary and involuntary, from /proc, over the window of step 1). Needs Linux's `perf` (Debian's `linux-perf`) and
permission to profile the server (root, or `kernel.perf_event_paranoid` at most 1); without them it says so
and exits with status 2. Writes bench/results/cpu_split.json (see --out), dated inside.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.service_cost import FloorServer, measure, play_request, requests
from mjsvc.launcher import ServerProcess, descendants
from mjsvc.service import Service

RESULTS = Path(__file__).resolve().parent / "results"
# case -> (request of bench.service_cost, how it is sent)
CASES = {"evaluate": ("evaluate", "play"), "analyze14": ("analyze14", "play"), "evaluate unary": ("evaluate", "unary")}
SERVERS = ("floor", "hit", "engine")
GROUPS = ("kernel", "gRPC core", "event loop", "Python interpreter", "compiled engine and conversion", "protobuf",
          "C library", "other")


def group(dso: str) -> str:
    """The group of a shared object as perf names it (`[kernel.kallsyms]`, `libpython3.11.so.1.0`, ...)."""
    name = dso.strip()
    if name.startswith("[kernel") or name in ("[vdso]", "[vsyscall]"):
        return "kernel"
    if name.startswith("cygrpc"):
        return "gRPC core"
    if name.startswith("loop.") or name.startswith("libuv"):
        return "event loop"
    if "mypyc" in name:
        return "compiled engine and conversion"
    if name.startswith("_message"):
        return "protobuf"
    if name.startswith(("libc.", "libc-", "ld-linux", "libstdc++", "libm.", "libgcc", "libpthread")):
        return "C library"
    if name.startswith("libpython") or (name.startswith("_") and ".cpython-" in name) or name == "python3":
        return "Python interpreter"
    return "other"


LOOPBACK = ("process_backlog", "__netif_receive_skb")  # kernel frames of a loopback packet's delivery


def parse_script(text: str) -> list[tuple[int, int, str, bool]]:
    """`perf script -F tid,period,ip,sym,dso` output (call chains recorded) -> per sample: (thread id,
    period in ns of CPU, the shared object it landed in, whether it was inside a loopback delivery)."""
    samples = []
    for block in text.split("\n\n"):
        lines = block.strip().splitlines()
        if len(lines) < 2:
            continue
        head = lines[0].split()
        if len(head) < 2 or not head[0].isdigit() or not head[1].isdigit():
            continue
        frame = lines[1].rstrip()
        dso = frame[frame.rfind("(") + 1:-1] if frame.endswith(")") else "[unknown]"
        delivery = dso.startswith("[kernel") and any(name in line for line in lines[1:] for name in LOOPBACK)
        samples.append((int(head[0]), int(head[1]), dso.rsplit("/", 1)[-1], delivery))
    return samples


def perf_available() -> str:
    """'' when `perf record` can sample a process of ours here, else why not."""
    perf = shutil.which("perf")
    if perf is None:
        return "perf is not installed (Debian: apt-get install linux-perf)"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run([perf, "record", "-e", "cpu-clock", "-o", f"{tmp}/probe.data", "--", "true"],
                              capture_output=True, text=True)
    if proc.returncode != 0:
        return "perf record cannot sample here: " + (proc.stderr.strip().splitlines() or ["no reason given"])[-1]
    return ""


def server_pids(srv: FloorServer | ServerProcess) -> list[int]:
    """The server's process and those below it (a floor server and `mjsvc serve` both keep theirs in `proc`)."""
    return [srv.proc.pid, *descendants(srv.proc.pid)]


def switches(pids: list[int]) -> tuple[int, int]:
    """Context switches so far (voluntary + involuntary) of the processes' main threads and of their other
    threads, from /proc."""
    main = helpers = 0
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                status = (task / "status").read_text()
            except OSError:
                continue
            n = 0
            for line in status.splitlines():
                key, _, value = line.partition(":")
                if key in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"):
                    n += int(value)
            if int(task.name) == pid:
                main += n
            else:
                helpers += n
    return main, helpers


def _loaded(srv: FloorServer | ServerProcess, shape: str, method: str, raw: bytes, warmup: float, duration: float,
            beside: Callable[[], None]) -> dict[str, float]:
    """`measure` the closed loop, running `beside` on a thread from the end of the warm-up."""

    def after_warmup() -> None:
        time.sleep(warmup)
        beside()

    thread = threading.Thread(target=after_warmup)
    thread.start()
    try:
        return measure(srv.address, server_pids(srv)[0], shape, method, raw, warmup, duration)
    finally:
        thread.join()


def plain(srv: FloorServer | ServerProcess, shape: str, method: str, raw: bytes, warmup: float,
          duration: float) -> dict[str, float]:
    """`measure` with nothing attached, and the context switches per message over the same window."""
    pids = server_pids(srv)
    marks: list[tuple[int, int]] = []

    def mark() -> None:
        marks.append(switches(pids))
        time.sleep(duration)
        marks.append(switches(pids))

    got = _loaded(srv, shape, method, raw, warmup, duration, mark)
    n = max(got["messages_per_s"] * duration, 1.0)
    return {**got, "switches_event_loop_thread": (marks[1][0] - marks[0][0]) / n,
            "switches_helper_threads": (marks[1][1] - marks[0][1]) / n}


def profile(srv: FloorServer | ServerProcess, shape: str, method: str, raw: bytes, warmup: float, duration: float,
            freq: int, data: Path) -> dict[str, Any]:
    """The shares of `srv`'s CPU by library group and by thread, under the same closed loop as `measure`."""
    pids = server_pids(srv)
    main_threads = set(pids)

    def record() -> None:
        subprocess.run(["perf", "record", "-e", "cpu-clock", "-g", "-F", str(freq), "-o", str(data),
                        "-p", ",".join(map(str, pids)), "--", "sleep", str(duration)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)

    loaded = _loaded(srv, shape, method, raw, warmup, duration + 0.5, record)

    text = subprocess.run(["perf", "script", "-i", str(data), "-F", "tid,period,ip,sym,dso"],
                          capture_output=True, text=True, check=True).stdout
    by_group = dict.fromkeys(GROUPS, 0)
    loop_thread = delivery = 0
    for tid, ns, dso, in_delivery in parse_script(text):
        by_group[group(dso)] += ns
        if tid in main_threads:
            loop_thread += ns
        if in_delivery:
            delivery += ns
    total = sum(by_group.values()) or 1
    return {"groups": {g: ns / total for g, ns in by_group.items()},
            "event_loop_thread": loop_thread / total, "loopback_delivery": delivery / total,
            "samples_ns": total, "profiled_us_per_message": loaded["server_us_per_message"]}


def run(args: argparse.Namespace) -> dict[str, Any]:
    reqs = requests()
    svc = Service()
    answers: dict[bytes, bytes] = {}
    sent: dict[str, tuple[str, str, bytes]] = {}  # case -> (shape, method, request bytes)
    for case, (request, shape) in CASES.items():
        method, req = reqs[request]
        if shape == "play":
            play = play_request(request, method, req)
            raw = play.SerializeToString()
            answers[raw] = svc.play_bytes(play)
        else:
            raw = req.SerializeToString()
            answers[raw] = svc.evaluate_bytes(req) if method == "Evaluate" else svc.analyze_bytes(req)
        sent[case] = (shape, method, raw)
    common = ("--stream-rate", "0", "--log-level", "WARNING", "--batch-helper-threads")
    servers: dict[str, Any] = {}
    rows: dict[str, dict[str, list[dict[str, Any]]]] = {c: {s: [] for s in SERVERS} for c in CASES}
    order = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="cpu-split-"))
    try:
        servers["floor"] = FloorServer(answers)
        servers["hit"] = ServerProcess(*common, workers=1)
        servers["engine"] = ServerProcess(*common, "--cache-size", "0", workers=1)
        for srv in servers.values():
            if isinstance(srv, ServerProcess):
                srv.wait_ready()
        for r in range(args.rounds):
            plan = [(c, s) for c in CASES for s in SERVERS]
            order.shuffle(plan)
            for case, name in plan:
                srv = servers[name]
                unprofiled = plain(srv, *sent[case], args.warmup, args.duration)
                split = profile(srv, *sent[case], args.warmup, args.duration, args.freq,
                                tmp / f"{case.replace(' ', '-')}-{name}-{r}.data")
                row = {**split, "us_per_message": unprofiled["server_us_per_message"],
                       "messages_per_s": unprofiled["messages_per_s"],
                       "switches_event_loop_thread": unprofiled["switches_event_loop_thread"],
                       "switches_helper_threads": unprofiled["switches_helper_threads"]}
                rows[case][name].append(row)
                print(f"round {r + 1} {case:<14} {name:<7} {row['us_per_message']:>7.1f} µs/msg "
                      f"(profiled {row['profiled_us_per_message']:.1f}), event loop thread "
                      f"{row['event_loop_thread']:.0%}, context switches per message "
                      f"{row['switches_event_loop_thread']:.2f} + {row['switches_helper_threads']:.2f}",
                      file=sys.stderr, flush=True)
    finally:
        for srv in servers.values():
            srv.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "engine": "python source" if os.environ.get("MJSVC_PURE_PYTHON") == "1" else "compiled where built",
            "workers": 1, "streams_or_calls": 16, "rounds": args.rounds, "duration_s": args.duration,
            "perf_frequency_hz": args.freq, "load_average": os.getloadavg()[0],
            "cases": {c: {s: summarize(rows[c][s]) for s in SERVERS} for c in CASES},
            "rounds_raw": rows}


def summarize(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the rounds: µs per message in all, per library group, and on the event loop's thread."""
    us = statistics.median(r["us_per_message"] for r in rounds)
    shares = {g: statistics.median(r["groups"][g] for r in rounds) for g in GROUPS}
    loop = statistics.median(r["event_loop_thread"] for r in rounds)
    delivery = statistics.median(r["loopback_delivery"] for r in rounds)
    return {"us_per_message": round(us, 1), "loopback_delivery_us": round(delivery * us, 1),
            "by_group_us": {g: round(s * us, 1) for g, s in shares.items()},
            "event_loop_thread_us": round(loop * us, 1), "helper_threads_us": round((1 - loop) * us, 1),
            "switches_per_message": {
                "event_loop_thread": round(statistics.median(r["switches_event_loop_thread"] for r in rounds), 2),
                "helper_threads": round(statistics.median(r["switches_helper_threads"] for r in rounds), 2)}}


def report_lines(row: dict[str, Any]) -> list[tuple[str, float]]:
    """One server's summary as (label, value) lines, in the printed order."""
    lines = [("all", row["us_per_message"])]
    lines += [(g, row["by_group_us"][g]) for g in GROUPS]
    lines.insert(2, ("  kernel: loopback delivery", row["loopback_delivery_us"]))
    return lines + [("event loop's thread", row["event_loop_thread_us"]),
                    ("gRPC's helper threads", row["helper_threads_us"]),
                    ("switches/msg, event loop", row["switches_per_message"]["event_loop_thread"]),
                    ("switches/msg, helpers", row["switches_per_message"]["helper_threads"])]


def print_report(rep: dict[str, Any]) -> None:
    print(f"server CPU per message (Play) or call (unary) by library, µs (median of {rep['rounds']} rounds, "
          f"{rep['when']})")
    for case, by_server in rep["cases"].items():
        print(f"\n{case:<32}" + "".join(f"{s:>10}" for s in SERVERS) + f"{'hit-floor':>11}{'engine-hit':>11}")
        columns = [report_lines(by_server[s]) for s in SERVERS]
        for i, (label, _) in enumerate(columns[0]):
            v = [col[i][1] for col in columns]
            print(f"{label:<32}" + "".join(f"{x:>10.1f}" for x in v) + f"{v[1] - v[0]:>11.1f}{v[2] - v[1]:>11.1f}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.cpu_split", description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--duration", type=float, default=3.0, help="measured seconds per server, case and round")
    p.add_argument("--warmup", type=float, default=0.5)
    p.add_argument("--freq", type=int, default=999, help="perf's samples per second per CPU")
    p.add_argument("--seed", type=int, default=0, help="of the order the servers are measured in")
    p.add_argument("--out", type=Path, default=RESULTS / "cpu_split.json")
    args = p.parse_args(argv)
    why = perf_available()
    if why:
        print(f"bench.cpu_split: {why}", file=sys.stderr)
        return 2
    rep = run(args)
    args.out.write_text(json.dumps(rep, indent=1) + "\n")
    print_report(rep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
