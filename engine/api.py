"""The engine's front door: validated entry points used by the CLI, `mjsvc batch` and the server.

Callers build `Hand` objects with `engine.hand.make_hand` / `winning_hand` (which validate
counts and copies); these functions add the rule-set checks and the context checks.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import analysis, rules
from engine.hand import Hand, WinContext, validate_context
from engine.results import Analysis, Evaluation, FanDef
from engine.tiles import check_tiles


def evaluate(hand: Hand, context: WinContext, rule_set: str = "") -> Evaluation:
    """Is this 14-tile hand a win, and what is every decomposition worth? Best first."""
    rs = rules.get(rule_set)
    rs.check_tiles(hand)
    validate_context(context, hand)
    return rs.evaluate(hand, context)


def analyze(hand: Hand, visible: Sequence[int] = (), rule_set: str = "") -> Analysis:
    """Shanten, waits and useful tiles of a 13-tile hand; discard advice for a 14-tile one."""
    rs = rules.get(rule_set)
    rs.check_tiles(hand)
    check_tiles(visible, "visible")
    return analysis.analyze(hand, visible, tile_kinds=rs.tile_kinds, allow_quad_pairs=rs.allow_quad_pairs)


def list_fans(rule_set: str = "") -> tuple[tuple[FanDef, ...], int]:
    rs = rules.get(rule_set)
    return rs.fans, rs.min_points
