"""mjsvc.gctune: frozen objects leave the collector's sight; the periodic task re-freezes and stops."""

from __future__ import annotations

import asyncio
import gc

from mjsvc import gctune


def test_freeze_moves_live_objects_to_the_permanent_generation() -> None:
    gc.unfreeze()
    try:
        keep = [[i] for i in range(10_000)]  # tracked containers
        before = gc.get_freeze_count()
        gctune.freeze()
        assert gc.get_freeze_count() >= before + len(keep)
    finally:
        gc.unfreeze()


def test_keep_frozen_refreezes_and_runs_a_full_collection_then_stops() -> None:
    async def scenario() -> tuple[int, int]:
        gc.unfreeze()
        stop = asyncio.Event()
        task = asyncio.create_task(gctune.keep_frozen(stop, interval=0.05, full_every=0.1))
        garbage = []
        for _ in range(5000):  # cycles that become garbage after a freeze must still be freed
            a: list = []
            a.append(a)
            garbage.append(a)
        # Wait for the events themselves, not for a fixed time: a loaded machine may run the task late.
        for _ in range(500):
            if gc.get_freeze_count() > 0:
                break
            await asyncio.sleep(0.01)
        frozen_with_garbage = gc.get_freeze_count()
        garbage.clear()
        for _ in range(500):
            if gc.get_freeze_count() < frozen_with_garbage:
                break
            await asyncio.sleep(0.01)
        stop.set()
        await asyncio.wait_for(task, 10.0)
        return frozen_with_garbage, gc.get_freeze_count()

    try:
        with_garbage, after_full = asyncio.run(scenario())
        assert with_garbage > 0
        assert after_full < with_garbage  # the full collection unfroze and freed the dead cycles
    finally:
        gc.unfreeze()


def test_pinned_memo_dict_stays_frozen_when_it_grows() -> None:
    gc.unfreeze()
    try:
        memo = {(i, i + 1): (i,) for i in range(20_000)}  # ints and tuples only: the collector untracks it
        gc.collect()
        assert not gc.is_tracked(memo)
        memo[tuple([-1, -2])] = (0,)  # a fresh (tracked) tuple key tracks it again, as a young object
        assert gc.is_tracked(memo)
        gc.collect()
        assert not gc.is_tracked(memo)

        assert gctune.pin([memo]) == 1
        assert len(memo) == 20_001 and (-1, -2) in memo  # contents unchanged
        gc.freeze()
        memo[tuple([-3, -4])] = (0,)
        gc.collect()
        assert gc.is_tracked(memo)  # frozen: collections neither walk nor untrack it
        assert not any(o is memo for o in gc.get_objects())
    finally:
        gc.unfreeze()


def test_pin_memo_tables_finds_engine_memos() -> None:
    from engine import analysis  # noqa: F401 - its module-level memo dicts must be found

    found = gctune._memo_dicts()
    assert any(d is analysis._INFO for d in found)
