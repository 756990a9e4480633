"""Keep Python's full garbage collections off the request path.

A worker holds large, long-lived tables (engine memos, the LRU caches). A full collection walks
every tracked object, and under load it stalled a worker for 30-130 ms, which was the whole p99 of
the load test. `gc.freeze()` moves the objects alive now out of the collector's sight, so later
full collections only walk what was created since. Re-freezing every few seconds keeps that set
small; every `full_every` seconds the frozen set is collected once, so cycles that became garbage
after being frozen (ended streams, evicted entries) are not kept for ever.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)


def freeze() -> None:
    """Collect what is garbage now, then exempt every surviving object from future collections."""
    gc.collect()
    gc.freeze()


async def keep_frozen(stop: asyncio.Event, interval: float = 5.0, full_every: float = 900.0) -> None:
    """Re-freeze every `interval` seconds; a full collection of everything every `full_every` seconds."""
    last_full = time.monotonic()
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), interval)
            return
        except TimeoutError:
            pass
        if time.monotonic() - last_full >= full_every:
            started = time.perf_counter()
            gc.unfreeze()
            freed = gc.collect()
            gc.freeze()
            last_full = time.monotonic()
            log.info("full collection: %d objects freed in %.1f ms", freed, (time.perf_counter() - started) * 1e3)
        else:
            gc.freeze()
