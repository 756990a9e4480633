"""Benchmarks: our engine against the anchors, in one process, median microseconds per call.

`python -m bench` runs every `bench/ops_*.py` module. Each exposes `rows(n, seed)` returning
`{"op", "impl", "median_us"}` dicts (impl `mjsvc` is ours) and may expose `TARGETS`, a tuple of
`(op, impl, max_ratio)`: our median must be at most `max_ratio` times that impl's.
`median_us` below is the timing helper they share.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

OURS = "mjsvc"


def median_us(fn: Callable[..., Any], inputs: Sequence[tuple[Any, ...]], repeat: int = 20) -> float:
    """Median over inputs of the mean time of `repeat` back-to-back calls on that input.

    Every input is called once first (untimed), so memo tables are as warm as in a running
    server. Timing a small batch per input keeps the clock's own cost out of sub-microsecond calls.
    """
    for args in inputs:
        fn(*args)
    per_call: list[float] = []
    clock = time.perf_counter_ns
    loop = range(repeat)
    for args in inputs:
        t0 = clock()
        for _ in loop:
            fn(*args)
        per_call.append((clock() - t0) / repeat)
    return statistics.median(per_call) / 1000.0
