"""Load shedding: a worker whose event loop is saturated refuses part of its new unary calls at once.

Why not a count of calls in progress: a worker runs one call at a time on its event loop and the engine's
calls wait on nothing, so gRPC's own count (--max-concurrent-rpcs) sees one or two calls even when hundreds
wait. They wait in gRPC's transport, which hands the loop one new call at a time; neither the loop's delay
nor any count of ours sees that queue (measured: 256 concurrent h2load streams, calls waiting 97 ms on
average, loop delay under 1 ms). What the queue does show is a saturated loop: the worker's main thread
busy all the time.

`Overload` samples the main thread's CPU time (`time.thread_time`, read by a task on the loop itself) every
`window` seconds. While the busy fraction is at or over `limit`, the share of new unary calls it refuses
grows by `step` per window, up to `most` (some calls always get through); below it, the share shrinks by
`step`. A refusal is RESOURCE_EXHAUSTED with reason OVERLOADED, answered before any work: it saves the
engine's share of a call but not gRPC's own, so it relieves a worker of expensive calls (discard advice,
batches, the referee) more than of a flood of cheap ones (docs/serve.md, "Overload"). The published retry
policy does not retry RESOURCE_EXHAUSTED; a client backs off or tries another host. Play streams are
bounded by --max-streams and --stream-rate instead: a table's messages are not dropped for another
client's load.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class Overload:
    __slots__ = ("limit", "window", "step", "most", "share", "busy", "shed", "_credit", "report")

    def __init__(self, limit: float, window: float = 0.1, step: float = 0.1, most: float = 0.9,
                 report: Callable[[float, float], None] | None = None) -> None:
        self.limit = limit  # busy fraction of the main thread (0-1] from which calls are shed
        self.window = window
        self.step = step
        self.most = most
        self.share = 0.0  # fraction of new unary calls refused now
        self.busy = 0.0  # the last window's busy fraction
        self.shed = 0  # calls refused so far
        self._credit = 0.0
        self.report = report  # given (busy, share) after each window: the worker's gauges

    def observe(self, busy: float) -> float:
        """One window's busy fraction in; the share of calls to refuse from now on out."""
        self.busy = busy
        if busy >= self.limit:
            self.share = min(self.most, self.share + self.step)
        else:
            self.share = max(0.0, self.share - self.step)
        if self.report is not None:
            self.report(busy, self.share)
        return self.share

    def refuse(self) -> bool:
        """Whether to refuse this call: `share` of the calls, spread evenly (no randomness)."""
        if not self.share:
            return False
        self._credit += self.share
        if self._credit >= 1.0:
            self._credit -= 1.0
            self.shed += 1
            return True
        return False

    async def run(self, stop: asyncio.Event) -> None:
        cpu, wall = time.thread_time(), time.monotonic()
        while not stop.is_set():
            await asyncio.sleep(self.window)
            cpu2, wall2 = time.thread_time(), time.monotonic()
            if wall2 > wall:
                self.observe((cpu2 - cpu) / (wall2 - wall))
            cpu, wall = cpu2, wall2

    def describe(self) -> str:
        return (f"this worker is overloaded (busy {self.busy:.0%} of the time, at or over its {self.limit:.0%} "
                f"limit; {self.share:.0%} of new calls refused without work): back off, or try another host")
