"""Rule sets are plugins: one package each under engine/rules/<name>/, found through the directory in
`engine.rules.catalog` (re-exported here).

Each package exposes `RULE_SET`, an `engine.rules.model.RuleSet`, and keeps the package contract written at the
top of model.py (fans.py, facts.py, predicates.py, scoring.py, options.py; tests/unit/test_rule_set_layout.py checks
every name here). Adding a rule set is one line in catalog.py and its own package.
"""

from __future__ import annotations

from engine.rules.catalog import DEFAULT, get, names

__all__ = ["DEFAULT", "get", "names"]
