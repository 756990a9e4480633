"""The rule-set directory: each rule set's name and the package that declares it (`engine.rules` re-exports
`names`, `get` and `DEFAULT`; modules inside `engine.rules` import this module, not their own package).
Adding a rule set is one line here and its own package.
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
