"""Keep Python's full garbage collections off the request path.

A worker holds large, long-lived tables (engine memos, the LRU caches). A full collection walks
every tracked object, and under load it stalled a worker for 30-130 ms, which was the whole p99 of
the load test. `gc.freeze()` moves the objects alive now out of the collector's sight, so later
full collections only walk what was created since. Re-freezing every few seconds keeps that set
small; every `full_every` seconds the frozen set is collected once, so cycles that became garbage
after being frozen (ended streams, evicted entries) are not kept for ever.

Freezing alone does not cover the memo tables. The collector untracks a plain dict whose keys and
values are all untracked (ints, tuples of ints): the engine's large memo dicts are untracked when
`freeze` runs, so they are not frozen; the next insert of a fresh tuple key tracks the dict again,
as a young object, and every young collection then walks all its entries (3-15 ms per
collection with a few hundred thousand entries, measured in the load test) and untracks it again.
`pin_memo_tables` tracks those dicts (insert and remove a tracked key) just before they are frozen:
frozen objects are never examined, so they stay tracked and frozen and inserts cost nothing more.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time

log = logging.getLogger(__name__)

MEMO_MODULES = ("mjsvc.",)  # whose module-level dicts and functools caches are pinned (the engine's: its registry)


class _Pin:
    """A key no memo uses; instances are tracked by the collector, which is all it is for."""


def _memo_dicts(prefixes: tuple[str, ...] = MEMO_MODULES) -> list[dict]:
    """The engine's memo tables (asked of its registry, engine.registry), then the module-level dicts
    of the named service packages and the dicts inside their functools caches."""
    from engine.registry import REGISTRY

    found: dict[int, dict] = {id(d): d for d in REGISTRY.containers()}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(prefixes):
            continue
        for value in list(vars(module).values()):
            if type(value) is dict:
                found[id(value)] = value
            elif hasattr(value, "cache_info") and hasattr(value, "cache_clear"):
                # A C lru_cache wrapper reports its table among the objects it refers to.
                for ref in gc.get_referents(value):
                    if type(ref) is dict:
                        found[id(ref)] = ref
    return list(found.values())


def pin(dicts: list[dict]) -> int:
    """Make each untracked dict tracked, contents unchanged, so that a `gc.freeze()` that follows
    freezes it. Returns how many were untracked."""
    key = _Pin()
    n = 0
    for d in dicts:
        if not gc.is_tracked(d):
            d[key] = None  # storing a tracked key makes the dict tracked...
            del d[key]  # ...and removing it does not untrack it (only a collection does)
            n += 1
    return n


def pin_memo_tables() -> int:
    """`pin` every memo table of the engine and the service (see the module docstring)."""
    return pin(_memo_dicts())


def freeze() -> None:
    """Collect what is garbage now, then exempt every surviving object (and the memo tables, which
    the collection may have untracked) from future collections."""
    gc.collect()
    pin_memo_tables()
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
            pin_memo_tables()
            gc.freeze()
            last_full = time.monotonic()
            log.info("full collection: %d objects freed in %.1f ms", freed, (time.perf_counter() - started) * 1e3)
        else:
            # What died since the last freeze goes first: the cycles of finished calls (gRPC's interceptor
            # chain, an aborted call's exception and frames, with the request they hold) reach the oldest
            # generation while the call runs, and frozen they would stay until the next full collection
            # (a worker under hostile traffic grew by ~20 MB a minute that way, issue 11). Only objects
            # created since the last freeze are walked.
            gc.collect()
            gc.freeze()


def _biggest_young(generation: int) -> list[tuple[int, str]]:
    """The three largest containers in `generation` (diagnosis: what a slow young collection walks)."""
    sizes = []
    for o in gc.get_objects(generation):
        if isinstance(o, (dict, list, set, tuple)):
            n = len(o)
            if n > 100:
                sizes.append((n, type(o).__name__ + ":" + ",".join(repr(k)[:40] for k in list(o)[:2])))
    sizes.sort(reverse=True)
    return sizes[:3]


class StallProbe:
    """Measures how late the event loop wakes a task that sleeps `interval` seconds, and times every
    garbage collection: a stall of the loop delays every call in flight, so this tells a slow second
    caused by this process from one caused elsewhere. `stalls` holds (time.time(), lag s, gc ms, gen)
    for each wake-up later than `threshold`; gc ms is the collector's share of that stall."""

    def __init__(self, threshold: float = 0.004, interval: float = 0.002, log_stalls: bool = False) -> None:
        self.threshold = threshold
        self.interval = interval
        self.log_stalls = log_stalls
        self.stalls: list[tuple[float, float, float, int]] = []
        self.gc_seconds = [0.0, 0.0, 0.0]
        self.gc_counts = [0, 0, 0]
        self._gc_start = 0.0
        self._gc_since = 0.0  # collector seconds since the probe last woke
        self._gc_gen = -1
        self._memo_sizes: dict[int, int] = {}

    def _grown_memos(self) -> str:
        """The memo tables that grew since the last long stall, largest first (a dict that grows
        past two thirds of its table is copied into a table twice as large, all at once)."""
        grown = []
        for d in _memo_dicts():
            old, new = self._memo_sizes.get(id(d), 0), len(d)
            self._memo_sizes[id(d)] = new
            if new > old and new >= 10_000:
                grown.append((new, old))
        grown.sort(reverse=True)
        return "; memos grown: " + ", ".join(f"{o}->{n}" for n, o in grown[:5]) if grown else ""

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            if self.log_stalls:
                self._biggest = _biggest_young(info["generation"])
            self._gc_start = time.perf_counter()
        else:
            took = time.perf_counter() - self._gc_start
            gen = info["generation"]
            self.gc_seconds[gen] += took
            self.gc_counts[gen] += 1
            self._gc_since += took
            self._gc_gen = max(self._gc_gen, gen)
            if self.log_stalls and took > 0.004:
                log.warning("gen %d collection took %.1f ms; largest young containers %s", gen, took * 1e3,
                            self._biggest)

    async def run(self, stop: asyncio.Event) -> None:
        gc.callbacks.append(self._on_gc)
        try:
            while not stop.is_set():
                before = time.perf_counter()
                self._gc_since, self._gc_gen = 0.0, -1
                await asyncio.sleep(self.interval)
                lag = time.perf_counter() - before - self.interval
                if lag > self.threshold:
                    stall = (time.time(), lag, self._gc_since * 1e3, self._gc_gen)
                    self.stalls.append(stall)
                    if self.log_stalls:
                        log.warning("event loop stalled %.1f ms (gc %.1f ms, gen %d)%s", lag * 1e3, stall[2],
                                    stall[3], self._grown_memos() if lag > 0.01 else "")
        finally:
            gc.callbacks.remove(self._on_gc)
