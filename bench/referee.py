"""`python -m bench.referee [--logs N] [--rounds R]`: the Riichi referee against majiang-core on the same logs.

The logs are hands of the shared oracle file (`riichi_rounds.jsonl.gz`, played by majiang-core 1.4.1, MIT;
read by tests/support/riichi_rounds.py), a seeded sample of N. For each log, in one run:

* `settle`: ours, `engine.referee.settle` of the whole log (every event replayed and checked, every win
  scored, the money); majiang-core, bench/referee_node/replay.js replaying the same log in one Node process
  (every event applied, the options of every decision point computed, each win scored);
* `legal`: the log up to its middle discard, then what each seat may do: ours `engine.referee.legal` of
  that prefix, majiang-core the same replay stopped there.

Each figure is the median of R timings of one log; the table gives the median over the logs and the median
of the per-log ratios (ours / majiang-core). Written to bench/results/referee.json and referee.md. Needs
Node and `npm ci` in bench/referee_node (`make bench-referee` does both). Timings are information, never a
pass/fail test. Before timing, every log must settle to majiang-core's recorded money and leave some seat an
action at its middle discard, and majiang-core's replay must report the work done (its checksum).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.__main__ import engine_form

ROOT = Path(__file__).resolve().parents[1]
NODE_DIR = ROOT / "bench" / "referee_node"
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT / "tests" / "support"))  # the oracle file's reader, shared with the tests

import riichi_rounds  # noqa: E402

from engine import referee  # noqa: E402


def middle(rec: dict[str, Any]) -> int:
    """The prefix that ends with the middle discard (as replay.js's `middle`)."""
    discards = [i for i, e in enumerate(rec["events"]) if e["type"] == "discard"]
    return discards[len(discards) // 2] + 1 if discards else len(rec["events"])


def median_us(fn: Any, rounds: int) -> float:
    out = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(out)


def ours(recs: list[dict[str, Any]], rounds: int) -> dict[str, list[float]]:
    logs = [(riichi_rounds.hand_log(r), riichi_rounds.hand_log(r, middle(r))) for r in recs]
    for rec, (whole, prefix) in zip(recs, logs, strict=True):  # warm-up: each log settles to the record's money
        nets = [m.net for m in referee.settle(whole).seats]
        if nets != riichi_rounds.net_by_wind(rec):
            raise SystemExit(f"bench.referee: {rec['id']} settles to {nets}, majiang-core to "
                             f"{riichi_rounds.net_by_wind(rec)}: not timing a wrong answer")
        if not referee.legal(prefix):
            raise SystemExit(f"bench.referee: {rec['id']}: nobody may act at its middle discard")
    return {"settle_us": [median_us(lambda w=w: referee.settle(w), rounds) for w, _ in logs],
            "legal_us": [median_us(lambda p=p: referee.legal(p), rounds) for _, p in logs]}


def majiang_core(recs: list[dict[str, Any]], rounds: int) -> dict[str, list[float]]:
    if not (NODE_DIR / "node_modules").exists():
        raise SystemExit(f"bench.referee: run `npm ci` in {NODE_DIR} first (make bench-referee does)")
    lines = "".join(json.dumps(r) + "\n" for r in recs)
    out = subprocess.run(["node", "replay.js", str(rounds)], cwd=NODE_DIR, input=lines, capture_output=True,
                         text=True, check=True)
    got = json.loads(out.stdout)
    if got["logs"] != len(recs) or not got["checksum"]:
        raise SystemExit(f"bench.referee: majiang-core replayed {got['logs']} of {len(recs)} logs, "
                         f"work checksum {got['checksum']}")
    return {"settle_us": got["settle_us"], "legal_us": got["prefix_us"]}


def summary(a: list[float], b: list[float]) -> dict[str, float]:
    return {"ours_median_us": statistics.median(a), "majiang_core_median_us": statistics.median(b),
            "ratio_of_medians": statistics.median(a) / statistics.median(b),
            "median_of_ratios": statistics.median(x / y for x, y in zip(a, b, strict=True))}


def markdown(result: dict[str, Any]) -> str:
    lines = [f"# The Riichi referee against majiang-core {result['majiang_core']}",
             "",
             f"{result['logs']} hands of the shared oracle file (seed {result['seed']}), each timed "
             f"{result['rounds']} times; {result['engine']}. µs per call, median over the hands.",
             "",
             "| call | ours | majiang-core (Node) | ours / majiang-core (median of per-hand ratios) |",
             "|---|---|---|---|"]
    for op, what in (("settle", "Settle, whole hand"), ("legal", "Legal at the middle discard")):
        s = result[op]
        lines.append(f"| {what} | {s['ours_median_us']:.0f} | {s['majiang_core_median_us']:.0f} | "
                     f"{s['median_of_ratios']:.2f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.referee", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--logs", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    recs = random.Random(args.seed).sample(list(riichi_rounds.records()), args.logs)
    theirs = majiang_core(recs, args.rounds)
    mine = ours(recs, args.rounds)
    version = json.loads((NODE_DIR / "package.json").read_text())["dependencies"]["@kobalab/majiang-core"]
    result = {"logs": len(recs), "rounds": args.rounds, "seed": args.seed, "engine": engine_form(),
              "majiang_core": version, "date": time.strftime("%Y-%m-%d"),
              "settle": summary(mine["settle_us"], theirs["settle_us"]),
              "legal": summary(mine["legal_us"], theirs["legal_us"])}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "referee.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / "referee.md").write_text(markdown(result))
    print(markdown(result), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
