"""Caches of answers. `ResponseCache` is the service's: one per worker, keyed by the method and the parsed,
canonical request, bounded in entries and in bytes. Below it, the older `LRUCache` and the canonical hand keys
(`evaluate_key`, `analyze_key`), which the engine benchmarks use to price a repeated evaluation.

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

from google.protobuf.message import Message

from engine.hand import Hand, Meld, WinContext

V = TypeVar("V")

_MISSING = object()


class _Counter(Protocol):
    def inc(self) -> None: ...


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
        return value

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
# The service's response cache


class CacheObserver(Protocol):
    """Where a ResponseCache reports its use (the worker's Prometheus metrics)."""

    def cache_counters(self, operation: str) -> tuple[_Counter, _Counter]:
        """The counters of `operation`'s hits and misses (asked once per operation)."""

    def cache_size(self, entries: int, size_bytes: int) -> None: ...

    def cache_evicted(self, entries: int) -> None: ...


# Bytes an entry costs besides its key and answer bytes: the OrderedDict slot and link, the key tuple, two
# bytes objects' headers (measured with tracemalloc: 180-220 bytes on CPython 3.11; rounded up).
ENTRY_OVERHEAD = 256
DEFAULT_MAX_ENTRIES = 65536
DEFAULT_MAX_BYTES = 128 * 1024 * 1024  # with the engine's tables, a worker stays well under 512 MB


class ResponseCache:
    """The one response cache of a worker: (method, canonical request bytes) -> serialized response.

    The key is built from the request *as protobuf parsed it*: protobuf's serialization of the parsed
    message, fields in number order, repeated copies of a field merged, and any fields this server does
    not know kept as they came (so two requests that differ only there have two entries: never one entry
    for two different requests). Two byte strings that protobuf parses to the same message share an entry;
    two that parse differently never do; the method keeps Evaluate and Analyze of the same bytes apart.
    Nothing of the raw bytes a client sent is ever a key. (The request messages have no map fields, the
    one thing protobuf may write in varying order.) Only successful answers are stored (an error is computed
    afresh, so its message can name the item's place in a batch).

    Bounded by `max_entries` and by `max_bytes` (key + answer + ENTRY_OVERHEAD per entry); the least
    recently used entries go first. 0 for either disables the cache. Used from one event loop: no lock.
    """

    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES, max_bytes: int = DEFAULT_MAX_BYTES,
                 observer: CacheObserver | None = None) -> None:
        if max_entries < 0 or max_bytes < 0:
            raise ValueError(f"cache bounds must be >= 0, got {max_entries} entries, {max_bytes} bytes")
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.enabled = max_entries > 0 and max_bytes > 0
        self.observer = observer
        self._counters: dict[str, tuple[_Counter, _Counter]] = {}  # operation -> (hits, misses), the observer's
        self._data: OrderedDict[tuple[str, bytes], bytes] = OrderedDict()
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self.evictions = 0

    @staticmethod
    def key(method: str, request: Message) -> tuple[str, bytes]:
        """The key of `request` to `method`: what protobuf parsed, written by protobuf."""
        return method, request.SerializeToString()

    def get(self, key: tuple[str, bytes]) -> bytes | None:
        value = self._data.get(key)
        if value is not None:
            self._data.move_to_end(key)
            self.hits += 1
        else:
            self.misses += 1
        if self.observer is not None:
            counters = self._counters.get(key[0])
            if counters is None:
                counters = self._counters[key[0]] = self.observer.cache_counters(key[0])
            counters[value is None].inc()
        return value

    def put(self, key: tuple[str, bytes], value: bytes) -> None:
        if not self.enabled:
            return
        cost = len(key[1]) + len(value) + ENTRY_OVERHEAD
        if cost > self.max_bytes:
            return
        data = self._data
        old = data.pop(key, None)
        if old is not None:
            self.bytes -= len(key[1]) + len(old) + ENTRY_OVERHEAD
        data[key] = value
        self.bytes += cost
        evicted = 0
        while self.bytes > self.max_bytes or len(data) > self.max_entries:
            (_, k), v = data.popitem(last=False)
            self.bytes -= len(k) + len(v) + ENTRY_OVERHEAD
            evicted += 1
        self.evictions += evicted
        if self.observer is not None:
            if evicted:
                self.observer.cache_evicted(evicted)
            self.observer.cache_size(len(data), self.bytes)

    def clear(self) -> None:
        self._data.clear()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._data)


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
