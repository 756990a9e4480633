"""mjsvc.threads: every thread but the caller goes under SCHED_BATCH, the caller keeps its policy, threads
started later are swept up, and where the policy cannot be set nothing is changed and it is said."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator

import pytest

from mjsvc import threads

pytestmark = pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="Linux scheduling policies")


def _policies() -> dict[int, int]:
    out = {}
    for tid in threads._thread_ids():
        try:
            out[tid] = os.sched_getscheduler(tid)
        except ProcessLookupError:
            continue
    return out


@pytest.fixture(autouse=True)
def restore() -> Iterator[None]:
    """Leave this process's threads as the test found them."""
    before = _policies()
    yield
    for tid, policy in before.items():
        try:
            if os.sched_getscheduler(tid) != policy:
                os.sched_setscheduler(tid, policy, os.sched_param(0))
        except ProcessLookupError:
            continue


class Parked:
    """A thread that waits until told to end."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.started = threading.Event()
        self.tid = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.started.wait(5)

    def _run(self) -> None:
        self.tid = threading.get_native_id()
        self.started.set()
        self.go.wait(30)

    def end(self) -> None:
        self.go.set()
        self.thread.join(5)


def test_other_threads_batched_caller_left_as_it_is() -> None:
    me = threading.get_native_id()
    mine = os.sched_getscheduler(me)
    parked = Parked()
    try:
        assert os.sched_getscheduler(parked.tid) == os.SCHED_OTHER
        changed = threads.batch_other_threads()
        assert changed is not None and changed >= 1
        assert os.sched_getscheduler(parked.tid) == os.SCHED_BATCH
        assert os.sched_getscheduler(me) == mine
        assert all(p == os.SCHED_BATCH for tid, p in _policies().items() if tid != me)
        assert threads.batch_other_threads() == 0  # nothing left to change
    finally:
        parked.end()


def test_keep_batched_sweeps_threads_started_later() -> None:
    async def run() -> int:
        stop = asyncio.Event()
        task = asyncio.create_task(threads.keep_batched(stop, every=0.05))
        await asyncio.sleep(0.01)
        late = Parked()
        try:
            for _ in range(100):
                if os.sched_getscheduler(late.tid) == os.SCHED_BATCH:
                    break
                await asyncio.sleep(0.02)
            return os.sched_getscheduler(late.tid)
        finally:
            stop.set()
            await task
            late.end()

    assert asyncio.run(run()) == os.SCHED_BATCH


def test_refused_policy_changes_nothing_and_is_logged(monkeypatch: pytest.MonkeyPatch,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    def refuse(tid: int, policy: int, param: os.sched_param) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "sched_setscheduler", refuse)
    parked = Parked()
    try:
        assert threads.batch_other_threads() is None
        assert os.sched_getscheduler(parked.tid) == os.SCHED_OTHER
        caplog.set_level("INFO", logger="mjsvc.threads")
        asyncio.run(threads.keep_batched(asyncio.Event(), every=0.01))  # returns at once: nothing to keep
        assert "normal scheduling policy" in caplog.text
    finally:
        parked.end()
