"""The engine's front door: validated entry points used by the CLI, `mjsvc batch` and the server.

Callers build `Hand` objects with `engine.hand.make_hand` / `winning_hand` (which validate
counts and copies); these functions add the rule-set checks and the context checks.

`options`: the rule set's options, as typed options (`RuleSet.options_type`), a mapping of the fields a
client set (checked: BAD_OPTION naming the field), or None for the documented defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import analysis, rules
from engine.hand import Hand, WinContext, validate_context
from engine.results import Analysis, Evaluation, FanDef
from engine.rules.model import Options
from engine.shapes import ShapeKind
from engine.tiles import check_tiles

OptionsArg = Options | Mapping[str, Any] | None
ALL_SHAPES = frozenset(ShapeKind)


def evaluate(hand: Hand, context: WinContext, rule_set: str = "", options: OptionsArg = None, *,
             validated: bool = False) -> Evaluation:
    """Is this 14-tile hand a win, and what is every decomposition worth? Best first.
    `validated`: the caller already ran `validate_context(context, hand)` on these very objects (the
    service does, to report context faults before rule-set checks); it is not run a second time."""
    rs = rules.get(rule_set)
    opts = rs.options(options)
    rs.check_tiles(hand)
    rs.check_unread(hand, context)
    if not validated:
        validate_context(context, hand)
    rs.check_context(hand, context, opts)
    return rs.score(hand, context, opts)


def analyze(hand: Hand, visible: Sequence[int] = (), rule_set: str = "", options: OptionsArg = None, *,
            validated: bool = False) -> Analysis:
    """Shanten, waits and useful tiles of a 13-tile hand; discard advice for a 14-tile one.
    `validated`: the caller already checked that `visible` holds tile indices (the service does, as it
    reads them from the request); they are not checked a second time."""
    rs = rules.get(rule_set)
    opts = rs.options(options)  # checked, so a bad option is the same error whatever the method
    rs.check_tiles(hand)
    if hand.red_fives and not rs.red_fives:
        rs.check_unread(hand, WinContext())
    if not validated:
        check_tiles(visible, "visible")
    if rs.analyze is not None:  # the rule set's own Analyze (guangdong: ghosts as wildcards)
        if visible:
            analysis.seen_counts(analysis.held_counts(hand), visible)  # more copies than a kind has: refused
        return rs.analyze(hand, visible, opts)
    shapes = None if rs.shapes == ALL_SHAPES else rs.shapes
    return analysis.analyze(hand, visible, tile_kinds=rs.tiles, allow_quad_pairs=rs.allow_quad_pairs, shapes=shapes)


def list_fans(rule_set: str = "", options: OptionsArg = None) -> tuple[tuple[FanDef, ...], int]:
    rs = rules.get(rule_set)
    rs.options(options)
    return rs.fans, rs.minimum
