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
