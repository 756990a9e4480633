"""Chinese Official (MCR, 国标麻将) rules: the 81 fans, scored exactly as pymahjonggb scores them.

catalogue.py holds the fans as data, predicates.py one rule per fan, facts.py what the rules read,
scoring.py the mechanism (five principles, every decomposition, the best first).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.hand import Hand, WinContext
from engine.results import Evaluation, FanDef
from engine.rules.mcr.catalogue import FANS
from engine.rules.mcr.scoring import evaluate as _evaluate
from engine.tiles import NUM_KINDS


@dataclass(frozen=True)
class MCRRuleSet:
    name: str = "mcr"
    min_points: int = 8
    allow_quad_pairs: bool = True
    tile_kinds: frozenset[int] = frozenset(range(NUM_KINDS))
    fans: tuple[FanDef, ...] = FANS

    def check_tiles(self, hand: Hand) -> None:
        """MCR plays with all 34 kinds; hand validation already checked every tile."""

    def evaluate(self, hand: Hand, context: WinContext) -> Evaluation:
        return _evaluate(hand, context)


RULE_SET = MCRRuleSet()
