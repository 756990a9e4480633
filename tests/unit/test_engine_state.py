"""The engine's per-process state lives in one place (engine.registry, docs/design.md "State").

Every module of `engine/` is imported and its globals inspected: a mutable container (dict, list, set,
bytearray, deque, a lock, a functools cache or anything else with `cache_clear`, such as an
`engine.memo.IntMemo`) must be an object the registry owns; anything else a module keeps must be a
constant (tuples, frozensets, read-only mappings, enums, frozen objects), which this test does not list.
"""

from __future__ import annotations

import collections
import importlib
import pkgutil
import threading
import types
from typing import Any

import pytest

import engine
from engine.registry import REGISTRY, Registry

_LOCKS = (type(threading.Lock()), type(threading.RLock()))
_MUTABLE = (dict, list, set, bytearray, collections.deque, *_LOCKS)

# Globals of modules this check reaches but whose conversion belongs with the rule-set packages'
# own rework (the Riichi package and the referees): each named one by one, so any new mutable global
# anywhere fails. Shrink it as they are registered or made constant; never add to it.
_PENDING: frozenset[tuple[str, str]] = frozenset()


def _engine_modules() -> list[types.ModuleType]:
    modules = [engine]
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        modules.append(importlib.import_module(info.name))  # engine.__main__ runs only as __main__
    return modules


def _is_mutable(value: Any) -> bool:
    if isinstance(value, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)):
        return False
    return isinstance(value, _MUTABLE) or (hasattr(value, "cache_clear") and hasattr(value, "cache_info"))


def _unregistered() -> set[tuple[str, str]]:
    found = set()
    for module in _engine_modules():
        for name, value in vars(module).items():
            if name.startswith("__") or value is REGISTRY:
                continue
            if _is_mutable(value) and not REGISTRY.owns(value):
                found.add((module.__name__, name))
    return found


def test_every_mutable_global_of_the_engine_is_registered_or_pending() -> None:
    unregistered = _unregistered()
    assert unregistered <= _PENDING, sorted(unregistered - _PENDING)


def test_the_pending_list_names_only_what_is_still_mutable() -> None:
    """A pending global that became a constant or was registered leaves the list."""
    assert _unregistered() >= _PENDING, sorted(_PENDING - _unregistered())


def test_the_check_sees_a_module_level_memo() -> None:
    """The inspection itself: a plain module dict and a functools cache are caught, a registered one
    and a read-only mapping are not."""
    import functools

    module = types.ModuleType("engine._probe")
    registry = Registry()
    module.memo = {}  # type: ignore[attr-defined]
    module.cached = functools.cache(lambda k: k)  # type: ignore[attr-defined]
    module.fixed = types.MappingProxyType({1: 2})  # type: ignore[attr-defined]
    module.owned = registry.table("probe.owned", {})  # type: ignore[attr-defined]
    flagged = {n for n, v in vars(module).items() if _is_mutable(v) and not registry.owns(v)}
    assert flagged == {"memo", "cached"}


def test_the_registry_counts_clears_and_hands_out_its_tables() -> None:
    names = REGISTRY.names()
    assert {"analysis.info", "shapes.dfs_splits", "mcr.predicates.set_rules_for", "wildcards.row_comb",
            "shapes.COMPLETE_SUITS"} <= set(names)
    sizes = REGISTRY.sizes()
    assert sizes["shapes.COMPLETE_SUITS"] > 20_000  # a frozen table, built at import
    memo = REGISTRY.get("mcr.predicates.set_rules_for")
    memo.get(0b1011)
    assert REGISTRY.sizes()["mcr.predicates.set_rules_for"] >= 1
    REGISTRY.clear("mcr.predicates.")
    assert REGISTRY.sizes()["mcr.predicates.set_rules_for"] == 0
    assert REGISTRY.sizes()["shapes.COMPLETE_SUITS"] == sizes["shapes.COMPLETE_SUITS"]  # frozen: kept
    limits = REGISTRY.limits()
    assert limits["analysis.umask"] == 1 << 16 and limits["shapes.dfs_splits"] == 1 << 17
    assert "analysis.info" not in limits  # fills up to its key space
    containers = {id(d) for d in REGISTRY.containers()}
    assert id(REGISTRY.get("analysis.info")) in containers
    assert all(type(d) is dict for d in REGISTRY.containers())


def test_registering_refuses_what_is_not_a_table_or_a_memo() -> None:
    registry = Registry()
    with pytest.raises(TypeError, match="probe.t"):
        registry.table("probe.t", (1, 2))
    with pytest.raises(TypeError, match="probe.m"):
        registry.add_memo("probe.m", {})
    with pytest.raises(ValueError, match="probe.f"):
        registry.table("probe.f", {}, frozen=True, limit=10)


def test_clearing_empties_memos_and_bounded_tables_only() -> None:
    registry = Registry()
    bounded = registry.table("probe.bounded", {1: 1}, limit=4)
    growing = registry.table("probe.growing", [1, 2])
    frozen = registry.table("probe.frozen", {1: 2}, frozen=True)
    registry.clear("probe.")
    assert bounded == {} and growing == [1, 2] and frozen == {1: 2}
    assert registry.sizes() == {"probe.bounded": 0, "probe.growing": 2, "probe.frozen": 1}


def test_the_service_pins_what_the_registry_hands_out() -> None:
    """mjsvc.gctune finds the engine's tables by asking the registry (it scans no engine module)."""
    from mjsvc import gctune

    pinned = {id(d) for d in gctune._memo_dicts()}
    assert {id(d) for d in REGISTRY.containers()} <= pinned
    assert not any(prefix.startswith("engine") for prefix in gctune.MEMO_MODULES)
