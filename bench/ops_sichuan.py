"""Sichuan: a win's evaluation (fans, capped value, payments) against an MCR evaluation of the same
hands, and the wall's-end value (查大叫) of ready hands against the plain analysis of the same hands.

Rows, all ours, on seeded Sichuan wins (bench/sichuan_cases.py: one or two suits, standard or seven
pairs, up to four declared pungs and kongs, self-drawn or on a discard):
- op `evaluate_sichuan`: `mjsvc` the Sichuan rule set (context checks + scoring + payments), each
  hand timed once and never evaluated before (memo tables warmed by other hands, as in
  ops_scoring); `mjsvc_mcr` the MCR rule set on the very same hands and contexts, timed the same way.
  The ratio column is Sichuan / MCR.
- op `sichuan_max_value`: `mjsvc` Analyze under sichuan of a ready 13-tile hand (the wins above less
  their winning tile): shanten, waits and `max_value` (every wait scored); `mjsvc_mcr` the MCR
  Analyze of the same 13 tiles (shanten, waits, useful tiles, no values), each timed once.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

from bench import OURS
from bench.sichuan_cases import Situation, situations
from engine import analysis, api
from engine.hand import Hand, make_hand, validate_context
from engine.rules import get
from engine.rules.mcr import RULE_SET as MCR

WARM_POOL = 10

TARGETS: tuple[tuple, ...] = (("evaluate_sichuan", "mjsvc_mcr", 3.0),)


def _once_us(fn: Callable[..., object], inputs: Sequence[tuple]) -> float:
    clock = time.perf_counter_ns
    per_call = []
    for args in inputs:
        t0 = clock()
        fn(*args)
        per_call.append(clock() - t0)
    return statistics.median(per_call) / 1000.0


def rows(n: int, seed: int) -> list[dict]:
    sichuan = get("sichuan")
    opts = sichuan.default_options

    def evaluate_sichuan(s: Situation) -> object:
        validate_context(s.ctx, s.hand)
        sichuan.check_context(s.hand, s.ctx, opts)
        return sichuan.score(s.hand, s.ctx, opts)

    def evaluate_mcr(s: Situation) -> object:
        validate_context(s.ctx, s.hand)
        return MCR.evaluate(s.hand, s.ctx)

    def thirteen(s: Situation) -> Hand:
        return make_hand(s.hand.concealed, s.hand.melds, sizes=(13,))

    timed = list(situations(n, seed))
    for s in situations(WARM_POOL * n, seed + 7919):
        evaluate_sichuan(s)
        evaluate_mcr(s)
    note = f"{len(timed)} Sichuan wins, each timed once; memo tables warmed by {WARM_POOL * n} other hands"
    ready = [(thirteen(s),) for s in timed]
    wins = [(s,) for s in timed]
    return [
        {"op": "evaluate_sichuan", "impl": OURS, "median_us": round(_once_us(evaluate_sichuan, wins), 3), "note": note},
        {"op": "evaluate_sichuan", "impl": "mjsvc_mcr", "median_us": round(_once_us(evaluate_mcr, wins), 3),
         "note": "the same hands under MCR"},
        {"op": "sichuan_max_value", "impl": OURS,
         "median_us": round(_once_us(lambda h: api.analyze(h, (), "sichuan"), ready), 3),
         "note": f"{len(ready)} ready 13-tile hands: waits and max_value"},
        {"op": "sichuan_max_value", "impl": "mjsvc_mcr",
         "median_us": round(_once_us(lambda h: analysis.analyze(h, ()), ready), 3),
         "note": "the same hands, the MCR analysis (no values)"},
    ]
