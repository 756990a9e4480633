"""gRPC's helper threads and the kernel's scheduler: their wakeups never preempt the event loop.

A worker's event loop (its main thread) runs our code. gRPC's core does the socket work on threads of its
own (the `event_engine` pool) and hands each finished operation to the loop through a poller thread: for
every message one of them wakes. Linux lets a waking thread of the normal policy preempt the thread that
is running, so the event loop was switched out about once a message, in the middle of its work, and came
back to caches the other thread had filled with its own (measured on a closed loop of Play messages: one
involuntary switch of the loop per message).

A thread under SCHED_BATCH never preempts another when it wakes: it takes a free core, or waits for the
running thread to block or for the scheduler's tick. The loop blocks as soon as it has nothing to do, so a
helper waits at most that long. gRPC's helpers are put under SCHED_BATCH; the loop keeps the normal policy.
Measured side by side: a bare grpc.aio echo server spends about a fifth less CPU per message this way, 5 µs
of work per message adds half as much server CPU as before, and a cache hit of `mjsvc serve` costs a third
less (docs/performance.md, "The helper threads").

Switching between SCHED_OTHER and SCHED_BATCH needs no privilege. Where it is refused (a seccomp profile
that forbids sched_setscheduler) or not on Linux, the worker runs as before and says so once in its log.
Threads started later by the helpers inherit the policy; `keep_batched` sweeps again now and then for any
the loop starts itself.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading

log = logging.getLogger(__name__)

SWEEP_EVERY = 2.0  # seconds between sweeps for threads started since


def _thread_ids() -> list[int]:
    return [int(t) for t in os.listdir("/proc/self/task")]


def batch_other_threads() -> int | None:
    """Every thread of this process but the caller under SCHED_BATCH (the caller's own policy is left as
    it is). Returns how many were changed now, or None where the policy cannot be set here."""
    if not hasattr(os, "SCHED_BATCH"):
        return None
    me = threading.get_native_id()
    batch = os.SCHED_BATCH
    param = os.sched_param(0)
    changed = 0
    try:
        tids = _thread_ids()
    except OSError:
        return None
    for tid in tids:
        if tid == me:
            continue
        try:
            if os.sched_getscheduler(tid) != batch:
                os.sched_setscheduler(tid, batch, param)
                changed += 1
        except ProcessLookupError:  # the thread ended meanwhile
            continue
        except PermissionError:
            return None
    return changed


async def keep_batched(stop: asyncio.Event, every: float = SWEEP_EVERY) -> None:
    """Sweep now and then until `stop` (run from the event loop's thread, which is left as it is)."""
    if batch_other_threads() is None:
        log.info("helper threads keep the normal scheduling policy (SCHED_BATCH cannot be set here)")
        return
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), every)
        except TimeoutError:
            batch_other_threads()
