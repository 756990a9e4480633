"""The interface every rule set implements."""

from __future__ import annotations

from typing import Protocol

from engine.hand import Hand, WinContext
from engine.results import Evaluation, FanDef


class RuleSet(Protocol):
    name: str
    min_points: int  # a win must reach this many points, flowers excluded
    allow_quad_pairs: bool  # may a four of a kind count as two of the seven pairs
    tile_kinds: frozenset[int]  # the tiles this rule set plays with
    fans: tuple[FanDef, ...]

    def check_tiles(self, hand: Hand) -> None:
        """Raise BadTileError for a tile this rule set does not play with."""

    def evaluate(self, hand: Hand, context: WinContext) -> Evaluation:
        """Score every decomposition of a validated 14-tile hand; best first."""
        ...
