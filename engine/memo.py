"""`IntMemo`: the engine's memo tables on small int keys (compiled with mypyc: setup.py COMPILED).

A memo read from compiled code as one dict look-up, where a functools cache costs a Python-level call
(and, bounded, a linked-list update per hit). Keys are values that recur across different hands (a packed
fact, a feature mask, one suit's counts as a code), never a whole hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, NamedTuple, TypeVar

V = TypeVar("V")


class MemoInfo(NamedTuple):
    currsize: int


class IntMemo(Generic[V]):
    """`get(key)` answers from a dict and fills it with `compute(key)` on a miss. `maxsize` (0: unbounded,
    for key spaces that are small by construction) bounds the table: past it, the entry stored first is
    dropped (first in, first out). `cache_clear` and `cache_info().currsize` as functools memos have them
    (engine.rules.mcr.MEMOS lists both kinds). Thread-safe under the GIL (a race computes a value twice and
    keeps one)."""

    def __init__(self, compute: Callable[[int], V], maxsize: int = 0) -> None:
        self.compute = compute
        self.maxsize = maxsize
        self._table: dict[int, V] = {}

    def get(self, key: int) -> V:
        found = self._table.get(key)
        if found is None:
            value = self.compute(key)
            table = self._table
            if self.maxsize and len(table) >= self.maxsize:
                for oldest in table:  # dicts keep insertion order: the first key is the oldest
                    table.pop(oldest, None)
                    break
            found = table.setdefault(key, value)
        return found

    def cache_clear(self) -> None:
        self._table.clear()

    def cache_info(self) -> MemoInfo:
        return MemoInfo(len(self._table))


class KeyTable(Generic[V]):
    """A total table on the int keys `range(size)`: `answer(key)` is `answers[number]`, where `number` is
    the key's answer number, a 16-bit little-endian word at `2 * key` in `keys` (a bytes object: a compiled
    bytes read costs a fraction of a memoryview's). `answers` holds each distinct answer once. Where they
    come from: engine.rules.mcr.tables (the tables file) and engine.rules.mcr.predicates (the situation
    table)."""

    def __init__(self, keys: bytes, answers: list[V]) -> None:
        self.keys = keys
        self.answers = answers
        self.size = len(keys) // 2

    def answer(self, key: int) -> V:
        keys = self.keys
        at = 2 * key
        return self.answers[keys[at] | keys[at + 1] << 8]


class TabledMemo(Generic[V]):
    """`IntMemo`'s interface (`get`, `cache_clear`, `cache_info`) over a `KeyTable` where there is one: keys
    inside the table are read from it (nothing is remembered, nothing is missed); others, and every key
    when `table` is None (no tables file, or a stale one), go to the memo (`compute` on a miss)."""

    def __init__(self, compute: Callable[[int], V], table: KeyTable[V] | None, maxsize: int = 0) -> None:
        self.table = table
        self.size = table.size if table is not None else 0
        self.memo: IntMemo[V] = IntMemo(compute, maxsize)

    def get(self, key: int) -> V:
        table = self.table
        if table is not None and 0 <= key < self.size:
            return table.answer(key)
        return self.memo.get(key)

    def cache_clear(self) -> None:
        self.memo.cache_clear()

    def cache_info(self) -> MemoInfo:
        return self.memo.cache_info()
