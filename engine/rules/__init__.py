"""Rule sets are plugins: one package each under engine/rules/<name>/, found through this registry.

Each package exposes `RULE_SET`, an object satisfying `engine.rules.base.RuleSet`.
"""

from __future__ import annotations

from importlib import import_module

from engine.errors import UnknownRuleSetError
from engine.rules.base import RuleSet

_PACKAGES = {
    "mcr": "engine.rules.mcr",
    "mcr2p": "engine.rules.mcr2p",
    "hk": "engine.rules.hk",
}
DEFAULT = "mcr"


def names() -> tuple[str, ...]:
    return tuple(_PACKAGES)


def get(name: str = "") -> RuleSet:
    """The rule set called `name` ("" means the default, mcr). Imports are cached by Python."""
    key = (name or DEFAULT).lower()
    if key not in _PACKAGES:
        raise UnknownRuleSetError(f"rule_set: {name!r} is not a known rule set ({', '.join(_PACKAGES)})",
                                  "rule_set")
    return import_module(_PACKAGES[key]).RULE_SET
