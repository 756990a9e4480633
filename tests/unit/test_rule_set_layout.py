"""Every registered rule set keeps the package contract written at the top of engine/rules/model.py.

One test per rule set (`engine.rules.names()`): the files are there and each holds its one kind of thing
(fans.py data only, one registry of predicates covering the table through the one decorator, one entry point
`score` in scoring.py, the options type in options.py, its own context checks in context.py, every other module
named in the package docstring)
and the service's conversion layer (mjsvc/convert.py) names no rule set.
"""

from __future__ import annotations

import ast
import dataclasses
from enum import IntEnum
from importlib import import_module
from pathlib import Path

import pytest

from engine import rules
from engine.rules.model import FanRow, FanTable, Options, Predicates, RuleSet, Scope, Showing, shown_tiles

ROOT = Path(__file__).resolve().parents[2]
CONTRACT_FILES = ("__init__.py", "fans.py", "facts.py", "predicates.py", "scoring.py", "options.py")
OPTIONAL_FILES = ("payments.py", "context.py", "referee.py")
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


def _is_fan_decorator(node: ast.expr) -> bool:
    """`@fan(Fan.X, ...)` or `@PREDICATES.fan(Fan.X, ...)`."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Name):
        return f.id == "fan"
    return isinstance(f, ast.Attribute) and f.attr == "fan" and getattr(f.value, "id", "") == "PREDICATES"


def _layout_problems(name: str) -> list[str]:
    """Everything in the package `name` that breaks the contract (empty: it keeps it)."""
    problems: list[str] = []
    package = ROOT / "engine" / "rules" / name
    rule_set = rules.get(name)
    missing = [f for f in CONTRACT_FILES if not (package / f).is_file()]
    if missing:
        return [f"missing {', '.join(missing)}"]
    base = f"engine.rules.{name}"

    # fans.py: data only, the IntEnum `Fan` and the rule set's TABLE
    for node in ast.walk(_tree(package / "fans.py")):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            problems.append(f"fans.py defines a function (line {node.lineno}): predicates go in predicates.py")
        if isinstance(node, ast.ClassDef) and not any(getattr(b, "id", "") == "IntEnum" for b in node.bases):
            problems.append(f"fans.py defines class {node.name}, which is not the IntEnum of fan ids")
    fans = import_module(f"{base}.fans")
    if not (isinstance(getattr(fans, "Fan", None), type) and issubclass(fans.Fan, IntEnum)):
        problems.append("fans.py has no `Fan` IntEnum")
    if getattr(fans, "TABLE", None) is not rule_set.table:
        problems.append("fans.TABLE is not the rule set's table")

    # predicates.py: one registry over the table, every predicate through the one decorator
    predicates = import_module(f"{base}.predicates")
    registry = getattr(predicates, "PREDICATES", None)
    if not isinstance(registry, Predicates):
        problems.append("predicates.py has no PREDICATES registry")
    else:
        if registry.table is not rule_set.table:
            problems.append("PREDICATES is not over the rule set's table")
        if registry.missing():
            problems.append(f"rows without a predicate and not in in_scoring: {[r.name for r in registry.missing()]}")
        decorated = 0
        for node in ast.walk(_tree(package / "predicates.py")):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.decorator_list:
                if all(_is_fan_decorator(d) for d in node.decorator_list) and len(node.decorator_list) == 1:
                    decorated += 1
                else:
                    problems.append(f"predicates.py: {node.name} is decorated otherwise than by @fan(Fan.X)")
        if decorated != len(registry):
            problems.append(f"{len(registry)} predicates registered, {decorated} functions decorated with @fan")

    # scoring.py: the one entry point, `score`
    scoring = import_module(f"{base}.scoring")
    if getattr(scoring, "score", None) is None or rule_set.score is not scoring.score:
        problems.append("RULE_SET.score is not scoring.score")
    top = {n.name for n in _tree(package / "scoring.py").body if isinstance(n, ast.FunctionDef)}
    if "evaluate" in top:
        problems.append("scoring.py defines `evaluate`: the entry point is `score`")

    # options.py: the options type
    if rule_set.options_type.__module__ != f"{base}.options" or not issubclass(rule_set.options_type, Options):
        problems.append(f"the options type {rule_set.options_type.__name__} is not defined in options.py")

    # its own context checks, where it has them (RULE_SET.check_context), in context.py
    check = rule_set.check_context
    if check is not RuleSet.__dataclass_fields__["check_context"].default and check.__module__ != f"{base}.context":
        problems.append("RULE_SET.check_context is not defined in context.py")

    # any other module is the rule set's own, named in the package docstring
    doc = import_module(base).__doc__ or ""
    for path in sorted(package.glob("*.py")):
        if path.name not in CONTRACT_FILES + OPTIONAL_FILES and path.name not in doc:
            problems.append(f"{path.name} is not a contract file and the package docstring does not name it")

    # the service maps options through the options type: convert.py names no rule set
    convert = _tree(ROOT / "mjsvc" / "convert.py")
    if any(isinstance(n, ast.Constant) and n.value == name for n in ast.walk(convert)):
        problems.append(f"mjsvc/convert.py names {name!r}: the rule set's options.py maps its own wire values")
    return problems


@pytest.mark.parametrize("name", rules.names())
def test_rule_set_keeps_the_package_contract(name: str) -> None:
    assert _layout_problems(name) == []


# -- the registry and the occurrence type themselves


class _Fan(IntEnum):
    PUNGS = 1
    SELF_DRAWN = 2
    FLOWERS = 3


_TABLE = FanTable("fan", (FanRow(_Fan.PUNGS, "Pungs", "碰", 2, scope=Scope.SETS),
                          FanRow(_Fan.SELF_DRAWN, "Self-Drawn", "自摸", 1, scope=Scope.SITUATION),
                          FanRow(_Fan.FLOWERS, "Flowers", "花", 1, scope=Scope.BONUS)))


def test_registry_records_each_predicate_under_its_row() -> None:
    registry = Predicates(_TABLE, in_scoring=(_Fan.FLOWERS,))
    assert [r.name for r in registry.missing()] == ["Pungs", "Self-Drawn"]

    @registry.fan(_Fan.SELF_DRAWN)
    def self_drawn(drawn: bool) -> list[tuple[int, ...]]:
        return [()] if drawn else []

    @registry.fan(_Fan.PUNGS, needs=0b10)
    def pungs(sets: tuple[int, ...]) -> list[tuple[int, ...]]:
        return [(i,) for i in sets]

    assert registry.missing() == []
    assert [p.id for p in registry] == [2, 1]  # registration order
    assert registry.by_id[1].scope is Scope.SETS and registry.by_id[1].hints == {"needs": 0b10}
    assert registry.by_id[2].find(True) == [()] and registry.by_id[1].find((0, 3)) == [(0,), (3,)]


def test_registry_refuses_a_second_predicate_an_unknown_row_and_a_row_scored_in_scoring() -> None:
    registry = Predicates(_TABLE, in_scoring=(_Fan.FLOWERS,))
    registry.fan(_Fan.PUNGS)(lambda f: [])
    with pytest.raises(ValueError, match="two predicates"):
        registry.fan(_Fan.PUNGS)(lambda f: [])
    with pytest.raises(ValueError, match="in_scoring"):
        registry.fan(_Fan.FLOWERS)
    with pytest.raises(ValueError, match="no row"):
        Predicates(FanTable("fan", _TABLE.rows[:1], None)).fan(_Fan.SELF_DRAWN)
    with pytest.raises(ValueError, match="no row"):
        Predicates(FanTable("fan", _TABLE.rows[:1], None), in_scoring=(_Fan.FLOWERS,))


def test_an_occurrence_is_its_set_indices_and_may_show_other_tiles() -> None:
    plain: tuple[int, ...] = (0, 2)
    hog = Showing((0, 2), (4, 4, 4, 4))
    assert hog == plain and hash(hog) == hash(plain) and list(hog) == [0, 2]
    assert shown_tiles(hog) == (4, 4, 4, 4) and shown_tiles(plain) == ()


def test_options_map_no_wire_value_unless_they_say_so() -> None:
    @dataclasses.dataclass(frozen=True)
    class Plain(Options):
        pass

    assert Plain.from_wire("cap", 8, "options.toy.cap", None) == 8  # type: ignore[arg-type]
