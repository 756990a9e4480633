"""Our Riichi evaluation as the Riichi benches time it (bench/ops_riichi.py in process, bench/riichi_cold.py in
a fresh process): what the service runs for an Evaluate once the request is parsed and converted."""

from __future__ import annotations

from typing import Any

from engine.hand import validate_context
from engine.rules import riichi

RS = riichi.RULE_SET


def evaluate_validated(hand: Any, ctx: Any) -> object:
    """The context checks (the shared ones, then Riichi's), then the rule set's scoring."""
    validate_context(ctx, hand)
    RS.check_context(hand, ctx, RS.default_options)
    return RS.score(hand, ctx, RS.default_options)
