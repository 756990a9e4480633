"""The rule-set directory: each rule set's name and the package that declares it (`engine.rules` re-exports
`names`, `get` and `DEFAULT`; modules inside `engine.rules` import this module, not their own package).
Adding a rule set is one line here and its own package.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from types import MappingProxyType

from engine.errors import UnknownRuleSetError
from engine.registry import REGISTRY
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
# Rule sets looked up before, by canonical name and "" (at most one entry each): every call asks for one.
_LOADED: dict[str, RuleSet] = REGISTRY.table("rules.catalog.loaded", {})


def names() -> tuple[str, ...]:
    return tuple(_PACKAGES)


def get(name: str = "") -> RuleSet:
    """The rule set called `name` ("" means the default, mcr; any case). Its package is imported at the
    first call that names it."""
    rule_set = _LOADED.get(name)
    if rule_set is not None:
        return rule_set
    key = (name or DEFAULT).lower()
    if key not in _PACKAGES:
        raise UnknownRuleSetError(f"rule_set: {name!r} is not a known rule set ({', '.join(_PACKAGES)})",
                                  "rule_set")
    found: RuleSet = import_module(_PACKAGES[key]).RULE_SET
    _LOADED[key] = found
    if not name:
        _LOADED[""] = found
    return found
