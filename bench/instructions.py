"""`make bench-instructions`: the instructions one call of the service executes, counted by valgrind.

On this shared 2-core machine a timing of the same code moves by a third from one run to the next; the number
of instructions a call executes does not (about 0.1% between runs). So a change to the engine or the
conversion can be weighed here before a timing can tell it apart from the noise. It is not a timing: a
change that adds cache misses can cost time without adding instructions (`make bench-mix` and
`make loadtest` say what the live traffic pays).

The requests are the load test's own: the MCR tables of `mjsvc.loadgen.simulation` play `--games` games
against `mjsvc.service.Service` in this process (as `bench.engine_mix` does), and the first `--requests`
requests of each operation (Evaluate, Analyze of 13 tiles, Analyze of 14 tiles: discard advice) are kept.
For each operation a child process answers them with `Service.evaluate_bytes` / `analyze_bytes`, the cache
off, under valgrind's cachegrind (`--cache-sim=no`: instructions only): one warm-up pass (then a collection
and `gc.freeze()`, as a worker does after its warm-up), then one pass in one run and three in another, with
the same hash seed. The difference of the two counts over 2 x requests is one call's instructions, without
the interpreter's start, the imports and the warm-up. Run it in two checkouts (a second worktree)
to compare two builds.

Needs valgrind (Debian's `valgrind`); without it, says so and exits with status 2. Writes
bench/results/instructions.json (see --out), dated inside.

    python -m bench.instructions [--games 200] [--requests 1000] [--seed 1] [--out PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
OPERATIONS = ("Evaluate", "Analyze 13", "Analyze 14")
PASSES = (1, 3)  # the two runs per operation; their difference is (3 - 1) passes
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def requests(games: int, seed: int, per_operation: int) -> dict[str, list[bytes]]:
    """The load test's requests by operation (serialized), the first `per_operation` of each."""
    from bench import engine_mix

    _, asked, _, _ = asyncio.run(engine_mix._play(20, games, seed))
    return {op: [r.SerializeToString() for r in asked.get(op, [])[:per_operation]] for op in OPERATIONS}


def answer(path: Path, op: str, passes: int) -> None:
    """The child's work: a warm-up pass over the operation's requests, then `passes` passes."""
    from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
    from mjsvc.service import Service

    raw = pickle.loads(path.read_bytes())[op]
    service = Service(cache_size=0)
    call: Callable[[Any], bytes]
    if op == "Evaluate":
        msgs: list[Any] = [pb.EvaluateRequest.FromString(b) for b in raw]
        call = service.evaluate_bytes
    else:
        msgs = [pb.AnalyzeRequest.FromString(b) for b in raw]
        call = service.analyze_bytes
    for m in msgs:  # the warm-up pass
        call(m)
    gc.collect()
    gc.freeze()  # as a worker does after its warm-up (mjsvc.gctune): what survived is not walked again
    for _ in range(passes):
        for m in msgs:
            call(m)


def instructions(output: str) -> int:
    """The total from cachegrind's summary (`==pid== I   refs:      12,345,678`)."""
    found = _REFS.search(output)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output: {output[-500:]}")
    return int(found.group(1).replace(",", ""))


def count(path: Path, op: str, passes: int) -> int:
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, "-m", "bench.instructions", "--child", str(path), op, str(passes)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # the same dict and set orders, so the same collections, each run
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"{op}: the child failed: {proc.stderr[-2000:]}")
    return instructions(proc.stderr)


def run(games: int, per_operation: int, seed: int) -> dict[str, Any]:
    import engine

    asked = requests(games, seed, per_operation)
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "requests.pickle"
        path.write_bytes(pickle.dumps(asked))
        for op in OPERATIONS:
            n = len(asked[op])
            if not n:
                continue
            low, high = (count(path, op, p) for p in PASSES)
            out[op] = {"requests": n, "instructions_per_call": round((high - low) / ((PASSES[1] - PASSES[0]) * n))}
    compiled = engine.compiled_modules()
    version = subprocess.run(["valgrind", "--version"], capture_output=True, text=True).stdout.strip()
    return {"bench": "instructions", "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "engine": f"{len(compiled)} modules compiled" if compiled else "Python source",
            "python": sys.version.split()[0], "valgrind": version, "games": games, "seed": seed,
            "what": "Service.evaluate_bytes / analyze_bytes, cache off: limits, conversion in, engine, answer bytes",
            "operations": out}


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["--child"]:
        answer(Path(args_in[1]), args_in[2], int(args_in[3]))
        return 0
    ap = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--requests", type=int, default=1000, help="requests per operation")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=RESULTS / "instructions.json")
    args = ap.parse_args(args_in)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    rep = run(args.games, args.requests, args.seed)
    for op, r in rep["operations"].items():
        print(f"{op:12s} {r['instructions_per_call']:>10,d} instructions a call ({r['requests']} requests)")
    args.out.write_text(json.dumps(rep, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
