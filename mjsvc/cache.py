"""A bounded, thread-safe LRU cache of answers keyed by the canonical form of a request.

Game servers ask about the same hands again and again (every seat's client polls its waits after
each discard), so answers are cached per process on a key that two equivalent requests share:
the rule set's canonical name and options, the sorted concealed tiles, the melds in order (their order
decides `meld_index` in the answer), the winning tile, the red fives, and the context fields the rule
set declares it reads (`RuleSet.context_fields`; see `evaluate_key` / `analyze_key`). Nothing here
knows a rule set: what an answer depends on is the rule set's declaration.

Errors are never cached: a request that fails is validated again next time.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import Any, Protocol, TypeVar

from engine.hand import Hand, Meld, WinContext

V = TypeVar("V")

_MISSING = object()


class _Counter(Protocol):
    def inc(self, amount: float = 1) -> None: ...


@dataclass(frozen=True, slots=True)
class CacheStats:
    hits: int
    misses: int
    size: int
    maxsize: int


class LRUCache:
    """LRU map with hit/miss counts. `maxsize` 0 disables caching (every lookup is a miss).

    `get_or_compute(key, fn)` runs `fn` outside the lock, so a slow computation never blocks other
    threads; two threads missing the same key at once both compute and the later store wins, which is
    harmless because answers are pure functions of the key.
    """

    def __init__(self, maxsize: int, *, hit_counter: _Counter | None = None,
                 miss_counter: _Counter | None = None) -> None:
        if maxsize < 0:
            raise ValueError(f"cache size must be >= 0, got {maxsize}")
        self.maxsize = maxsize
        self._data: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._hits = 0
        self._misses = 0
        self._hit_counter = hit_counter
        self._miss_counter = miss_counter

    def get(self, key: Hashable, default: Any = None) -> Any:
        data = self._data
        with self._lock:
            value = data.get(key, _MISSING)
            if value is not _MISSING:
                # the hit path runs on every repeated request: no helper calls on it
                data.move_to_end(key)
                self._hits += 1
                if self._hit_counter is not None:
                    self._hit_counter.inc()
                return value
            self._misses += 1
        if self._miss_counter is not None:
            self._miss_counter.inc()
        return default

    def put(self, key: Hashable, value: Any) -> None:
        if self.maxsize == 0:
            return
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def get_or_compute(self, key: Hashable, fn: Callable[[], V]) -> V:
        value = self.get(key, _MISSING)
        if value is _MISSING:
            value = fn()
            self.put(key, value)
        return value  # type: ignore[no-any-return]

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(self._hits, self._misses, len(self._data), self.maxsize)


# ---------------------------------------------------------------------------------------------
# Canonical keys


def _meld_keys(melds: tuple[Meld, ...]) -> tuple[tuple[int, int, bool, bool], ...]:
    """What of each meld the answer depends on: which set it is and how it was declared. The seat it was
    claimed from and which tile of a chow was claimed change no score. (A MeldKind hashes and compares
    as its int, so it stands in the key as it is.)"""
    return tuple([(m.kind, m.tiles[0], m.concealed, m.added) for m in melds]) if melds else ()


def _hand_key(hand: Hand) -> tuple[Any, ...]:
    return (hand.concealed, _meld_keys(hand.melds), hand.winning_tile, hand.red_fives)


@lru_cache(maxsize=64)
def _context_reader(fields: tuple[str, ...]) -> Callable[[WinContext], tuple[Any, ...]]:
    """A C-level reader of `fields` that always answers a tuple."""
    if not fields:
        return lambda ctx: ()
    get = attrgetter(*fields)
    return get if len(fields) != 1 else (lambda ctx: (get(ctx),))


@lru_cache(maxsize=64)
def _declared_fields(rule_set: str) -> tuple[str, ...]:
    from engine import rules

    return rules.get(rule_set).context_fields


def context_key(ctx: WinContext, fields: Sequence[str]) -> tuple[Any, ...]:
    """The values of the context `fields` (a rule set's declared `context_fields`), in their order."""
    return _context_reader(fields if type(fields) is tuple else tuple(fields))(ctx)


def evaluate_key(rule_set: str, hand: Hand, ctx: WinContext, fields: Sequence[str] | None = None,
                 options: Hashable = None) -> tuple[Any, ...]:
    """Key of an evaluation: the rule set's canonical name, its typed options (frozen, so hashable; None:
    the defaults), the canonical hand, and the values of exactly the context fields the rule set declares
    (`RuleSet.context_fields`; `fields` overrides). The context must have been validated first: fields
    outside the declaration are not in the key."""
    if fields is None:
        fields = _declared_fields(rule_set)
    return ("evaluate", rule_set, options, hand.concealed, _meld_keys(hand.melds), hand.winning_tile,
            hand.red_fives, context_key(ctx, fields))


def analyze_key(rule_set: str, hand: Hand, visible: Sequence[int], options: Hashable = None) -> tuple[Any, ...]:
    """Key of an analysis: the visible tiles count, their order does not."""
    return ("analyze", rule_set, options, *_hand_key(hand), tuple(sorted(visible)))
