"""`mjsvc loadgen`: its arguments, a run from the command line, and the ghz request data it can write."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message

from mjsvc.cli_types import number, whole
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.loadgen.report import format_report
from mjsvc.loadgen.simulation import WIN, Config, run_config
from mjsvc.loadgen.transport import Unreachable
from mjsvc.service_config import several_hosts

HELP = "play N simulated tables of MCR against a server and report throughput, latency and errors"


class RequestSampler:
    """Keeps a seeded sample of the requests a run sends, for ghz data files.

    Wins are rare among Evaluate calls (one per game against ~70 draws), so up to `wins_n` winning
    requests are kept apart and put first in the Evaluate data, which keeps scoring in the mix.
    """

    def __init__(self, seed: int, evaluate_n: int = 300, analyze_n: int = 300, play_n: int = 400,
                 wins_n: int = 60) -> None:
        self._rng = random.Random(seed)
        self.limits = {"Evaluate": evaluate_n - wins_n, "Analyze": analyze_n}
        self.kept: dict[str, list[Message]] = {"Evaluate": [], "Analyze": []}
        self.wins: list[Message] = []
        self._wins_n = wins_n
        self.seen = Counter[str]()
        self.play: list[pb.PlayRequest] = []
        self._play_n = play_n

    def __call__(self, rpc: str, req: Message) -> None:
        copy = type(req)()
        copy.CopyFrom(req)
        if rpc == WIN:
            if len(self.wins) < self._wins_n:
                self.wins.append(copy)
            return
        self.seen[rpc] += 1
        if len(self.play) < self._play_n:
            msg = pb.PlayRequest(id=f"m{len(self.play) + 1}")
            getattr(msg, rpc.lower()).CopyFrom(copy)
            self.play.append(msg)
        # Reservoir sampling keeps every request equally likely whatever the run length.
        kept, limit, n = self.kept[rpc], self.limits[rpc], self.seen[rpc]
        if len(kept) < limit:
            kept.append(copy)
        else:
            j = self._rng.randrange(n)
            if j < limit:
                kept[j] = copy


def to_json(msg: Message) -> dict[str, Any]:
    return json_format.MessageToDict(msg, preserving_proto_field_name=True)


def write_request_files(sampler: RequestSampler, out: Path) -> dict[str, int]:
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "evaluate.json": [to_json(m) for m in [*sampler.wins, *sampler.kept["Evaluate"]]],
        "analyze.json": [to_json(m) for m in sampler.kept["Analyze"]],
        "play.json": [to_json(m) for m in sampler.play],
    }
    for name, data in files.items():
        # One message per line: readable, and diffs stay small when the data is regenerated.
        body = ",\n".join(json.dumps(d, separators=(",", ":")) for d in data)
        (out / name).write_text(f"[\n{body}\n]\n")
    return {name: len(data) for name, data in files.items()}




_over_0 = number(0, low_allowed=False)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--target", default="127.0.0.1:50051",
                   help="server HOST:PORT, or several hosts as a gRPC target the published service config "
                        "balances with round_robin: HOST:PORT,HOST:PORT (made an ipv4:/ipv6: list), "
                        "ipv4:10.0.0.2:50051,10.0.0.3:50051 or dns:///NAME:PORT (default %(default)s)")
    p.add_argument("--tables", type=whole(1), default=200, help="tables playing at once (default %(default)s)")
    p.add_argument("--connections", type=whole(1), default=8, help="gRPC channels, each its own TCP connection")
    p.add_argument("--game", choices=("mcr", "riichi", "riichi3", "sichuan"), default="mcr",
                   help="mcr: the MCR simulator (Evaluate, Analyze); riichi, riichi3 (three players), sichuan: "
                        "tables refereed by the server, every step a Legal call on the hand's log, each hand "
                        "settled (default %(default)s)")
    p.add_argument("--mode", choices=("stream", "unary"), default="stream",
                   help="one Play stream per table, or unary Evaluate/Analyze calls")
    p.add_argument("--duration", type=_over_0, default=None, help="seconds to run (default 60 unless --games)")
    p.add_argument("--games", type=whole(1), default=None, help="stop after this many games in all")
    p.add_argument("--rate", type=_over_0, default=None, help="offered load in calls/s over all tables (open loop)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=_over_0, default=10.0,
                   help="per-call deadline in seconds (unary), and how long to wait for the server to connect "
                        "and open the tables' streams at start")
    p.add_argument("--json", type=Path, default=None, help="write the report as JSON to this path")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--dump-requests", type=Path, default=None, metavar="DIR",
                   help="write a sample of the requests sent as ghz data files into DIR")
    p.add_argument("--no-stagger", dest="stagger", action="store_false",
                   help="start every table at the deal (by default each joins its first game at a random turn)")
    p.add_argument("--no-retries", dest="retries", action="store_false",
                   help="channels without the published service config (no retry of calls refused with UNAVAILABLE)")
    p.add_argument("--normal-helper-threads", dest="batch_helper_threads", action="store_false",
                   help="leave gRPC's helper threads of the simulator under the normal scheduling policy (by "
                        "default they run under SCHED_BATCH, as a server worker's do, so that they do not "
                        "preempt the event loop that measures the latency)")
    p.add_argument("--spawn-server", action="store_true",
                   help="start a fresh local `mjsvc serve` on free ports for this run (ignores --target)")


def config_from_args(args: argparse.Namespace) -> Config:
    duration = args.duration
    if duration is None and args.games is None:
        duration = 60.0
    return Config(target=args.target, tables=args.tables, connections=args.connections, mode=args.mode,
                  duration=duration, games=args.games, rate=args.rate, seed=args.seed, timeout=args.timeout,
                  progress=not args.quiet, stagger=args.stagger, retries=args.retries,
                  connect_settle=1.0 if several_hosts(args.target) else 0.0, game=args.game,
                  batch_helper_threads=args.batch_helper_threads)


def run(args: argparse.Namespace) -> int:
    """Entry point for `mjsvc loadgen`; exit status 1 when any call failed or any answer was wrong."""
    cfg = config_from_args(args)
    sampler = RequestSampler(cfg.seed) if args.dump_requests else None
    try:
        if args.spawn_server:
            from mjsvc.launcher import local_server

            with local_server(workers=os.cpu_count() or 1) as server:
                cfg.target = server.target
                report = run_config(cfg, sampler)
        else:
            report = run_config(cfg, sampler)
    except Unreachable as e:
        print(f"mjsvc loadgen: {e}", file=sys.stderr)
        return 1
    print(format_report(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    if sampler is not None:
        counts = write_request_files(sampler, args.dump_requests)
        print(f"request data written to {args.dump_requests}: {counts}", file=sys.stderr)
    return 1 if report["error_total"] else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mjsvc loadgen", description=HELP)
    add_arguments(parser)
    return run(parser.parse_args(argv))
