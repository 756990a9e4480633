"""Chinese Official (MCR, 国标麻将) rules: the 81 fans, scored exactly as pymahjonggb scores them.

catalogue.py holds the fans as data, predicates.py one rule per fan, facts.py what the rules read,
scoring.py the mechanism (five principles, every decomposition, the best first).

Speed comes from memo tables keyed on small values that recur across different hands (one suit's
counts, which kinds are held, the situation, the tiles of a family of sets, a set of fan ids), never
on a whole hand: `MEMOS` lists them (with the shared shape tables) so a benchmark can clear them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import shapes
from engine.hand import Hand, WinContext
from engine.results import Evaluation, FanDef
from engine.rules.mcr import facts, predicates, scoring
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


# Every memo table scoring reads (functools caches: thread-safe, bounded by their key spaces or maxsize).
MEMOS = (
    shapes.suit_splits, shapes._dfs_splits, shapes._suit_options, shapes._tileset,
    facts._suit_status, facts._suit_waits, facts._open_suit_waits,
    predicates.tile_fans, predicates.situation_fans, predicates.set_rules_for,
    scoring._combinations_by_position, scoring._matching, scoring._fan_hit,
)


def clear_memos() -> None:
    """Empty every memo table (benchmarks measure the engine with nothing remembered)."""
    for memo in MEMOS:
        memo.cache_clear()
