"""Rule sets are plugins: one package each under engine/rules/<name>/, found through this registry.

Each package exposes `RULE_SET`, an `engine.rules.model.RuleSet`, and keeps the package contract written at the
top of model.py (fans.py, facts.py, predicates.py, scoring.py, options.py; tests/unit/test_rule_set_layout.py checks
every name here). Adding a rule set is one line here and its own package.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from types import MappingProxyType

from engine.errors import UnknownRuleSetError
from engine.rules.model import RuleSet

_PACKAGES: Mapping[str, str] = MappingProxyType({
    "mcr": "engine.rules.mcr",
    "mcr2p": "engine.rules.mcr2p",
    "riichi": "engine.rules.riichi",
    "sichuan": "engine.rules.sichuan",
    "hk": "engine.rules.hk",
    "guangdong": "engine.rules.guangdong",
})
DEFAULT = "mcr"


def names() -> tuple[str, ...]:
    return tuple(_PACKAGES)


def get(name: str = "") -> RuleSet:
    """The rule set called `name` ("" means the default, mcr). Imports are cached by Python."""
    key = (name or DEFAULT).lower()
    if key not in _PACKAGES:
        raise UnknownRuleSetError(f"rule_set: {name!r} is not a known rule set ({', '.join(_PACKAGES)})",
                                  "rule_set")
    rule_set: RuleSet = import_module(_PACKAGES[key]).RULE_SET
    return rule_set
