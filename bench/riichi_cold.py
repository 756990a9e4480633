"""Cold Riichi evaluation, the way an operator meets it: each implementation timed in a process of its own.

`fresh_process_us(impl, cases)` starts a new interpreter (`python -m bench.riichi_cold IMPL FILE`), which
1. imports the implementation (ours: the engine, its install-time suit tables mapped read-only, as every
   `mjsvc serve` worker has them);
2. warms up as its server would: ours runs `mjsvc.worker.warm_up()`, exactly what a worker runs before it
   reports SERVING (one evaluation and one analysis per rule set, on a hand none of the cases holds), then
   `mjsvc.gctune.freeze()` as the worker does next; the anchors (`mahjong`, `riichienv`) get one call each
   on the same warm-up hand, their first-call costs (imports, lazy tables) paid likewise, then `gc.freeze()`;
3. times every case once on its own (`perf_counter_ns` around one call) and prints the median.

The cases come pickled from the parent and were never evaluated by the child: no memo of ours has seen
any of them, and no other hand has warmed those memos beyond the worker's warm-up. Their input forms
(`mahjong_inputs`, `riichienv_inputs`) are built in the child before the clock starts, as in the
in-process rows.
"""

from __future__ import annotations

import gc
import json
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.riichi_cases import RCase

IMPLS = ("mjsvc", "mahjong", "riichienv")


def fresh_process_us(impl: str, cases: Sequence[RCase]) -> float | None:
    """The median microseconds per call of `impl` on `cases` in a fresh interpreter (None: not installed)."""
    with tempfile.NamedTemporaryFile(suffix=".pickle") as f:
        pickle.dump(list(cases), f)
        f.flush()
        out = subprocess.run([sys.executable, "-m", "bench.riichi_cold", impl, f.name], capture_output=True,
                             text=True, cwd=Path(__file__).resolve().parents[1], timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"bench.riichi_cold {impl} failed: {out.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout)
    median: float | None = result["median_us"]
    return median


def once_us(fn: Callable[..., object], inputs: Sequence[tuple]) -> float:
    """Median microseconds of one call per input, each timed on its own (no call repeated)."""
    clock = time.perf_counter_ns
    per_call = []
    for args in inputs:
        t0 = clock()
        fn(*args)
        per_call.append(clock() - t0)
    return round(statistics.median(per_call) / 1000.0, 3)


def _warm_up_case() -> RCase:
    """The worker's warm-up hand (1112345678999m + 5m, self-drawn) as a Riichi case, for the anchors."""
    from engine.hand import WinContext, winning_hand
    from engine.tiles import parse_tiles

    hand = winning_hand(parse_tiles("1112345678999m"), (), parse_tiles("5m")[0])
    return RCase(hand, WinContext(self_drawn=True), "warm-up")


def _measure(impl: str, cases: list[RCase]) -> float | None:
    if impl == "mjsvc":
        from bench.riichi_ours import evaluate_validated
        from mjsvc import gctune
        from mjsvc.worker import warm_up

        if not warm_up():
            raise RuntimeError("the worker's warm-up failed")
        gctune.freeze()  # as the worker does next
        return once_us(evaluate_validated, [(c.hand, c.ctx) for c in cases])
    if impl == "mahjong":
        from mahjong.hand_calculating.hand import HandCalculator

        from bench.riichi_oracles import mahjong_inputs

        calc = HandCalculator()
        calc.estimate_hand_value(**mahjong_inputs(_warm_up_case()))
        gc.freeze()
        inputs = [(mahjong_inputs(c),) for c in cases]
        return once_us(lambda kw: calc.estimate_hand_value(**kw), inputs)
    try:
        import riichienv as rv
    except ImportError:
        return None
    from bench.riichi_oracles import riichienv_inputs

    def call(tiles: list[int], melds: list[Any], kw: dict[str, Any]) -> object:
        return rv.HandEvaluator(tiles, melds).calc(**kw)

    call(*riichienv_inputs(_warm_up_case()))
    gc.freeze()
    return once_us(call, [riichienv_inputs(c) for c in cases])


def main(argv: list[str]) -> int:
    impl, path = argv
    if impl not in IMPLS:
        print(f"unknown impl {impl!r} ({', '.join(IMPLS)})", file=sys.stderr)
        return 2
    cases = pickle.loads(Path(path).read_bytes())
    print(json.dumps({"impl": impl, "median_us": _measure(impl, cases)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
