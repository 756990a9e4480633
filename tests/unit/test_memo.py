"""engine.memo.IntMemo, the memo the engine reads from compiled code: its answers are `compute`'s, and a
bounded one keeps at most `maxsize` entries, dropping the oldest first."""

from __future__ import annotations

import random

from engine import shapes
from engine.memo import IntMemo


def test_answers_are_the_computed_ones_and_the_bound_holds() -> None:
    calls: list[int] = []

    def compute(key: int) -> tuple[int, ...]:
        calls.append(key)
        return (key, key * key)

    memo = IntMemo(compute, maxsize=8)
    rng = random.Random(5)
    for _ in range(500):
        key = rng.randrange(20)
        assert memo.get(key) == (key, key * key)
        assert memo.cache_info().currsize <= 8
    assert len(calls) < 500  # repeats were answered from the table
    memo.cache_clear()
    assert memo.cache_info().currsize == 0


def test_the_oldest_entry_goes_first() -> None:
    memo = IntMemo(lambda key: [key], maxsize=3)
    first = memo.get(1)
    memo.get(2)
    memo.get(3)
    assert memo.get(1) is first  # still held: answered, not recomputed
    memo.get(4)  # full: 1, stored first, is dropped
    assert memo.get(1) is not first
    assert memo.get(1) == first


def test_unbounded_keeps_everything() -> None:
    memo = IntMemo(lambda key: -key)
    for key in range(1000):
        memo.get(key)
    assert memo.cache_info().currsize == 1000


def test_suit_options_memo_agrees_with_the_plain_split() -> None:
    """The shapes memo on suit codes answers what `_suit_options_of` computes from the counts."""
    rng = random.Random(7)
    shapes._suit_options.cache_clear()
    for _ in range(300):
        block = rng.randrange(4)
        counts = [0] * 34
        for _ in range(rng.randrange(1, 15)):
            t = 9 * block + rng.randrange(9 if block < 3 else 7)
            if counts[t] < 4:
                counts[t] += 1
        code = shapes.suit_code(counts, block)
        assert code is not None
        base = 9 * block
        plain = _fields(shapes._suit_options_of(block, counts[base:base + 9] if block < 3 else counts[27:34]))
        assert _fields(shapes._suit_options.get(code)) == plain
        assert _fields(shapes._suit_options.get(code)) == plain  # and again, from the table


def _fields(options: tuple[shapes._SuitOption, ...]) -> list[tuple[object, ...]]:
    return [(o.body_sets, o.body_ids, o.pair_set, o.pair_id) for o in options]
