"""Scoring a Hong Kong win, against scoring an MCR win in the same process.

Rows (op `evaluate_hk`), both timed the same way: every timed hand evaluated once, never seen before by
the process (the clock around each call, median over the hands); the shared memo tables (engine.shapes'
suit splits) first warmed by a disjoint pool of other generated hands of the same rule set.
- `mjsvc`: `engine.api.evaluate(hand, context, "hk")` (context checks, every decomposition, the table,
  points and payments) on bench/hk_cases.py's wins (every pattern of the table, flowers, kongs, limits).
- `mjsvc_mcr`: `engine.api.evaluate(hand, context, "mcr")` on bench/mcr_cases.py's wins: the ratio says
  what a Hong Kong evaluation costs next to an MCR one (81 fans and their exclusion principles, compiled
  by setup.py; the hk rule set runs from its Python source: it is not in setup.py's COMPILED list).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence

from bench import OURS, hk_cases, mcr_cases
from engine import api
from engine.hand import Hand, WinContext

WARM_POOL = 10  # warm-up hands per timed hand, all distinct from the timed ones


def _cold_us(rule_set: str, situations: Sequence[tuple[Hand, WinContext]]) -> float:
    clock = time.perf_counter_ns
    evaluate = api.evaluate
    per_call = []
    for hand, ctx in situations:
        t0 = clock()
        evaluate(hand, ctx, rule_set)
        per_call.append(clock() - t0)
    return statistics.median(per_call) / 1000.0


def _situations(cases: Sequence[hk_cases.Case | mcr_cases.Case], seed: int) -> list[tuple[Hand, WinContext]]:
    out = [(c.hand, c.ctx) for c in cases]
    random.Random(seed).shuffle(out)
    return out


def rows(n: int, seed: int) -> list[dict]:
    out: list[dict] = []
    for impl, rule_set, gen in ((OURS, "hk", hk_cases.cases), ("mjsvc_mcr", "mcr", mcr_cases.cases)):
        for hand, ctx in _situations(list(gen(WARM_POOL * n, seed + 7919)), seed):
            api.evaluate(hand, ctx, rule_set)
        timed = _situations(list(gen(n, seed)), seed)
        out.append({"op": "evaluate_hk", "impl": impl, "median_us": round(_cold_us(rule_set, timed), 3),
                    "note": f"{rule_set}: {len(timed)} hands, each timed once and never evaluated before; "
                            f"memo tables warmed by {WARM_POOL * n} other hands"})
    return out
