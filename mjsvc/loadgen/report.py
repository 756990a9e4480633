"""What a run measures and how it is reported: latencies per call and per second, errors, the games."""

from __future__ import annotations

import asyncio
import contextlib
import math
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from mjsvc.loadgen.transport import SANITY

RPCS = ("Evaluate", "Analyze", "Legal", "Settle")
MAX_VIOLATIONS_KEPT = 20


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (0 for an empty one)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def summary_ms(values: list[float]) -> dict[str, float]:
    s = sorted(values)
    out = {f"p{int(q * 100)}": round(percentile(s, q) * 1e3, 4) for q in (0.5, 0.9, 0.99)}
    out["max"] = round(s[-1] * 1e3, 4) if s else 0.0
    out["mean"] = round(sum(s) / len(s) * 1e3, 4) if s else 0.0
    return out


@dataclass
class Stats:
    """Everything one run counts. Latencies in seconds; seconds-buckets by completion time."""

    t0: float = field(default_factory=time.perf_counter)
    latencies: dict[str, list[float]] = field(default_factory=lambda: {r: [] for r in RPCS})
    per_second: list[list[float]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    send_lags: list[float] = field(default_factory=list)
    calls: int = 0
    games: int = 0
    games_started: int = 0
    aborted_games: int = 0
    wins: int = 0
    self_drawn_wins: int = 0
    draws: int = 0
    claims: Counter[str] = field(default_factory=Counter)

    def record(self, rpc: str, start: float, end: float) -> None:
        lat = end - start
        self.calls += 1
        self.latencies[rpc].append(lat)
        sec = int(end - self.t0)
        buckets = self.per_second
        while len(buckets) <= sec:
            buckets.append([])
        buckets[sec].append(lat)

    def violation(self, message: str) -> None:
        self.errors[SANITY] += 1
        if len(self.violations) < MAX_VIOLATIONS_KEPT:
            self.violations.append(message)

    @property
    def error_total(self) -> int:
        return sum(self.errors.values())

    def report(self, elapsed: float, config: dict[str, Any]) -> dict[str, Any]:
        all_lat = [x for r in RPCS for x in self.latencies[r]]
        series = []
        for sec, lats in enumerate(self.per_second):
            s = sorted(lats)
            series.append({"t": sec, "calls": len(s), "p50_ms": round(percentile(s, 0.5) * 1e3, 4),
                           "p99_ms": round(percentile(s, 0.99) * 1e3, 4)})
        return {
            "config": config,
            "duration_s": round(elapsed, 3),
            "calls": self.calls,
            "errors": dict(sorted(self.errors.items())),
            "error_total": self.error_total,
            "rps": round(self.calls / elapsed, 1) if elapsed > 0 else 0.0,
            "latency_ms": summary_ms(all_lat),
            "per_rpc": {r: {"calls": len(self.latencies[r]), "latency_ms": summary_ms(self.latencies[r])}
                        for r in RPCS},
            "send_lag_ms": summary_ms(self.send_lags) if self.send_lags else None,
            "games": self.games,
            "games_started": self.games_started,
            "aborted_games": self.aborted_games,
            "wins": self.wins,
            "self_drawn_wins": self.self_drawn_wins,
            "draws": self.draws,
            "claims": dict(self.claims),
            "violations": self.violations,
            "series": series,
        }



async def progress(stats: Stats, stop: asyncio.Event) -> None:
    """A progress line on stderr every two seconds until `stop`."""
    last_calls, last_t = 0, time.perf_counter()
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=2.0)
        now = time.perf_counter()
        recent = stats.per_second[-2] if len(stats.per_second) >= 2 else []
        p99 = percentile(sorted(recent), 0.99) * 1e3
        rps = (stats.calls - last_calls) / max(now - last_t, 1e-9)
        last_calls, last_t = stats.calls, now
        print(f"[loadgen] t={now - stats.t0:5.1f}s calls={stats.calls} rps={rps:7.0f} p99={p99:6.2f}ms "
              f"errors={stats.error_total} games={stats.games} wins={stats.wins}", file=sys.stderr, flush=True)


def format_report(r: dict[str, Any]) -> str:
    lat = r["latency_ms"]
    lines = [
        f"tables={r['config']['tables']} mode={r['config']['mode']} connections={r['config']['connections']} "
        f"offered={r['offered_rps'] or 'closed-loop'}",
        f"calls={r['calls']} in {r['duration_s']:.1f}s  rps={r['rps']:.0f}  errors={r['error_total']} "
        f"{r['errors'] or ''}" + (f"  stream breaks={r['stream_breaks']} (reopened, not errors)"
                                  if r.get("stream_breaks") else ""),
        f"latency ms: p50={lat['p50']:.3f} p90={lat['p90']:.3f} p99={lat['p99']:.3f} max={lat['max']:.3f}",
    ]
    for name, pr in r["per_rpc"].items():
        if not pr["calls"]:
            continue
        lm = pr["latency_ms"]
        lines.append(f"  {name:<9} calls={pr['calls']:<8} p50={lm['p50']:.3f} p90={lm['p90']:.3f} "
                     f"p99={lm['p99']:.3f} max={lm['max']:.3f}")
    if r["send_lag_ms"]:
        sl = r["send_lag_ms"]
        lines.append(f"send lag ms: p50={sl['p50']:.3f} p99={sl['p99']:.3f} max={sl['max']:.3f}")
    lines.append(f"games={r['games']} (aborted {r['aborted_games']}) wins={r['wins']} "
                 f"(self-drawn {r['self_drawn_wins']}) draws={r['draws']} claims={r['claims']}")
    for v in r["violations"]:
        lines.append(f"  ! {v}")
    return "\n".join(lines)


