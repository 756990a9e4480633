"""Riichi: our evaluation and shanten against the `mahjong` package and riichienv, on the same hands.

Rows, each impl on its own input form built before timing, every call timed once on its own:
- op `evaluate_riichi` (cold, the row the targets read): each impl in a fresh process of its own
  (bench/riichi_cold.py), as an operator meets a new `mjsvc serve` worker: the install-time suit tables
  mapped, the worker's own warm-up (`mjsvc.worker.warm_up`) and nothing more, then the generated
  situations (bench/riichi_cases.py: open and closed, kongs, red fives, every flag, dora and ura, honba
  and sticks), each evaluated once and never seen before by the process. `mjsvc`: validation (the shared
  and the Riichi context checks) and scoring of a validated `Hand` through the rule set;
  `mahjong`: `HandCalculator.estimate_hand_value` (open tanyao and red fives on); `riichienv`:
  `HandEvaluator(tiles, melds).calc(...)` (the evaluator built in the timed call, as a caller with a new
  hand must). The anchors get one warm-up call on the worker's warm-up hand. Five rounds, the impls
  alternating, each in new processes; each impl's figure is the median of its five (on this shared 2-core
  machine one process's median moved between ~36 and ~70 µs with the neighbours' load).
- op `evaluate_riichi_warm`: the same, in this process, after our shape memos were warmed by 25x as many
  other generated hands (a long-running worker's state; friendlier to us than the cold row).
- op `shanten_riichi` (each impl: one untimed call per hand, then the mean of 20; our suit-shape memo is
  then warm, as in a running server): the 14-tile hands of majiang-core's xiangting_1.json; `mjsvc`:
  `engine.analysis.shanten_for` over Riichi's shapes; `mahjong`: `Shanten().calculate_shanten` on 34
  counts; `riichienv`: `calculate_shanten` on 136-tile ids.
"""

from __future__ import annotations

import json
import random
import statistics

from bench import OURS, median_us
from bench.riichi_cases import generate, majiang_tile, shared_dir
from bench.riichi_cold import IMPLS, fresh_process_us, once_us
from bench.riichi_oracles import mahjong_inputs, riichienv_inputs
from bench.riichi_ours import RS, evaluate_validated
from engine import analysis
from engine.tiles import to_counts

COLD_ROUNDS = 5  # fresh processes per impl, alternating
WARM_POOL = 25  # evaluate_riichi_warm: other hands, several times the timed pool
TARGETS: tuple[tuple, ...] = (
    ("evaluate_riichi", "mahjong", 1 / 3),
    ("evaluate_riichi", "riichienv", 8.0),
    ("shanten_riichi", "mahjong", 0.25),
)


def rows(n: int, seed: int) -> list[dict]:
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.shanten import Shanten

    cases = generate(n, seed)
    random.Random(seed).shuffle(cases)
    note = f"{len(cases)} generated situations, each timed once"
    out = []
    # The cold row: a fresh process per impl and round, the impls alternating, COLD_ROUNDS rounds; each impl's
    # figure is the median of its rounds (a neighbour's burst then moves one round, not the ratio).
    per_impl: dict[str, list[float]] = {impl: [] for impl in IMPLS}
    for _ in range(COLD_ROUNDS):
        for impl in IMPLS:
            us = fresh_process_us(impl, cases)
            if us is not None:
                per_impl[impl].append(us)
    for impl, figures in per_impl.items():
        if figures:
            out.append({"op": "evaluate_riichi", "impl": impl, "median_us": round(statistics.median(figures), 3),
                        "rounds": figures,
                        **({"note": f"{note}, in a fresh process after the worker's warm-up only; median of "
                                    f"{COLD_ROUNDS} alternating rounds"} if impl == OURS else {})})
    for c in generate(WARM_POOL * n, seed + 7919):
        try:
            evaluate_validated(c.hand, c.ctx)
        except Exception:  # noqa: S112 - a warm-up hand the checks refuse warms nothing more
            continue
    out.append({"op": "evaluate_riichi_warm", "impl": OURS,
                "median_us": once_us(evaluate_validated, [(c.hand, c.ctx) for c in cases]),
                "note": f"{note}, memos warmed by {WARM_POOL}x as many other hands"})
    calc = HandCalculator()
    m_inputs = [mahjong_inputs(c) for c in cases]
    out.append({"op": "evaluate_riichi_warm", "impl": "mahjong",
                "median_us": once_us(lambda kw: calc.estimate_hand_value(**kw), [(kw,) for kw in m_inputs])})
    try:
        import riichienv as rv
    except ImportError:
        rv = None
    if rv is not None:
        r_inputs = [riichienv_inputs(c) for c in cases]
        out.append({"op": "evaluate_riichi_warm", "impl": "riichienv",
                    "median_us": once_us(lambda t, m, kw: rv.HandEvaluator(t, m).calc(**kw), r_inputs)})
    data = json.loads((shared_dir() / "oracles" / "riichi" / "xiangting_1.json").read_text())[: 5 * n]
    hands = [[majiang_tile(t[0], t[1])[0] for t in item["q"]] for item in data]
    counts = [to_counts(h) for h in hands]
    shapes = RS.shapes
    out.append({"op": "shanten_riichi", "impl": OURS,
                "median_us": round(median_us(analysis.shanten_for, [(c, 0, shapes, False) for c in counts]), 3),
                "note": f"{len(counts)} 14-tile hands of xiangting_1.json, mean of 20 calls each (after one "
                        "untimed call, as for every impl)"})
    sh = Shanten()
    theirs = [[c[t] for t in (*range(31), 33, 32, 31)] for c in counts]
    out.append({"op": "shanten_riichi", "impl": "mahjong",
                "median_us": round(median_us(sh.calculate_shanten, [(c,) for c in theirs]), 3)})
    if rv is not None:
        ids = []
        for kinds in theirs:
            tiles = [4 * k + j for k in range(34) for j in range(kinds[k])]
            ids.append((tiles,))
        out.append({"op": "shanten_riichi", "impl": "riichienv",
                    "median_us": round(median_us(rv.calculate_shanten, ids), 3)})
    return out
