"""`REGISTRY`: the one owner of the engine's per-process state (every memo, cache, growing table and lock).

The engine answers from pure functions, but a process remembers: memo dicts filled as hands come
(engine.analysis, engine.wildcards), functools caches and `engine.memo.IntMemo` tables (engine.shapes,
the MCR rules), class tables that grow as new part vectors are met, and the locks that guard them.
Each is created here, at its module's import, under a name (`<module>.<what>`), and the module keeps
the object it was given for its hot path (a module global read from compiled code costs one load):

* `table(name, container)`: a dict or list the module fills itself (a memo or a growing table;
  `limit`: a bounded one, emptied by its module when full);
* `memo(name)`: a decorator registering a functools cache or an `IntMemo` (anything with
  `cache_clear` and `cache_info`);
* `lock(name)`: a lock guarding some of the above.

Through the registry, and nowhere else, the rest of the program finds them: `sizes()` counts every
entry (how much this process remembers), `limits()` gives the bounded ones' bounds, `clear()` empties
the memos and bounded tables (benchmarks measure a cold
engine; a cleared memo refills with the same answers), `containers()` hands the dicts (with those
inside functools caches) to the service's garbage-collector tuning (mjsvc.gctune), and `owns(obj)`
lets tests/unit/test_engine_state.py check that every mutable module global of `engine/` is either
registered here or a constant. Nothing here does I/O, and registering is all an import does.

`frozen` (a `table` argument) marks a table that is complete when registered (built at import and
never written after): `clear()` keeps it, `sizes()` counts it.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol, TypeVar

T = TypeVar("T")
C = TypeVar("C", bound=Callable[..., Any])


class Memo(Protocol):
    """A functools cache or an `engine.memo.IntMemo`: what `Registry.memo` registers."""

    def cache_clear(self) -> None: ...
    def cache_info(self) -> Any: ...


class Entry(NamedTuple):
    name: str
    kind: str  # "table" | "frozen" | "memo" | "lock"
    obj: Any
    limit: int = 0  # a bounded table's entries at most (its module empties it when full); 0: not bounded


class Registry:
    """Every memo, cache, table and lock of the engine, by name (module docstring)."""

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}
        self._ids: set[int] = set()

    def _add(self, name: str, kind: str, obj: Any, limit: int = 0) -> None:
        old = self._entries.get(name)
        if old is not None and old.obj is not obj:
            # a module imported twice (importlib.reload): the new object replaces the old one
            self._ids.discard(id(old.obj))
        self._entries[name] = Entry(name, kind, obj, limit)
        self._ids.add(id(obj))

    def table(self, name: str, container: T, frozen: bool = False, limit: int = 0) -> T:
        """Register a dict, list or set the caller fills (or, `frozen`, has filled), and return it.
        `limit`: the table is a bounded memo that its module empties when it holds that many entries
        (so `clear` may empty it too)."""
        if not isinstance(container, (dict, list, set)):
            raise TypeError(f"{name}: a table is a dict, list or set, not {type(container).__name__}")
        if limit < 0 or (limit and frozen):
            raise ValueError(f"{name}: a limit is a positive bound of a table that fills")
        self._add(name, "frozen" if frozen else "table", container, limit)
        return container

    def frozen(self, module: str, **tables: Any) -> None:
        """Register, as `frozen` and named `<module>.<NAME>`, tables a module built at import and
        never writes after (lookup tables, rule registries): one call at the end of the module."""
        for name, container in tables.items():
            self.table(f"{module}.{name}", container, frozen=True)

    def memo(self, name: str) -> Callable[[C], C]:
        """A decorator (put it above `functools.cache`/`lru_cache`) registering a cached function."""

        def register(fn: C) -> C:
            self.add_memo(name, fn)
            return fn

        return register

    def add_memo(self, name: str, memo: T) -> T:
        """Register an object with `cache_clear` and `cache_info` (an `IntMemo`, a functools cache)."""
        if not (hasattr(memo, "cache_clear") and hasattr(memo, "cache_info")):
            raise TypeError(f"{name}: a memo has cache_clear and cache_info")
        self._add(name, "memo", memo)
        return memo

    def lock(self, name: str) -> threading.Lock:
        """A new lock, registered."""
        lock = threading.Lock()
        self._add(name, "lock", lock)
        return lock

    # ---------------------------------------------------------------- asking

    def names(self) -> list[str]:
        return sorted(self._entries)

    def get(self, name: str) -> Any:
        return self._entries[name].obj

    def owns(self, obj: object) -> bool:
        """Whether `obj` is registered (the very object, not an equal one)."""
        return id(obj) in self._ids and any(e.obj is obj for e in self._entries.values())

    def sizes(self) -> dict[str, int]:
        """Entries held now, by name (locks excluded)."""
        out: dict[str, int] = {}
        for e in self._entries.values():
            if e.kind == "memo":
                out[e.name] = int(e.obj.cache_info().currsize)
            elif e.kind != "lock":
                out[e.name] = len(e.obj)
        return out

    def limits(self) -> dict[str, int]:
        """The bound of every bounded memo and table, by name (the others fill up to their key space)."""
        out: dict[str, int] = {}
        for e in self._entries.values():
            if e.limit:
                out[e.name] = e.limit
            elif e.kind == "memo":
                bound = getattr(e.obj, "maxsize", None)  # an IntMemo; a functools cache reports its own
                if bound is None:
                    bound = getattr(e.obj.cache_info(), "maxsize", None)
                if bound:
                    out[e.name] = int(bound)
        return out

    def clear(self, prefix: str = "") -> None:
        """Empty every memo, and every bounded table, whose name starts with `prefix`. Other tables are
        kept: a growing table's ids (class ids, row ids) are referenced from other tables, so only its
        module may reset it."""
        for e in self._entries.values():
            if not e.name.startswith(prefix):
                continue
            if e.kind == "memo":
                e.obj.cache_clear()
            elif e.limit:
                e.obj.clear()

    def containers(self) -> list[dict[Any, Any]]:
        """The dicts the engine's state lives in: registered dicts, the tables of registered
        `IntMemo`s and the dicts inside functools caches (what mjsvc.gctune pins before freezing)."""
        found: dict[int, dict[Any, Any]] = {}
        for e in self._entries.values():
            if type(e.obj) is dict:
                found[id(e.obj)] = e.obj
            elif e.kind == "memo":
                for ref in gc.get_referents(e.obj):
                    if type(ref) is dict:
                        found[id(ref)] = ref
                inner = getattr(e.obj, "_table", None)
                if type(inner) is dict:
                    found[id(inner)] = inner
                memo = getattr(e.obj, "memo", None)  # a TabledMemo's IntMemo
                inner = getattr(memo, "_table", None)
                if type(inner) is dict:
                    found[id(inner)] = inner
        return list(found.values())


REGISTRY = Registry()
