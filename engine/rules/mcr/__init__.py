"""Chinese Official (MCR, 国标麻将) rules: the 81 fans, scored exactly as pymahjonggb scores them.

catalogue.py holds the fans as data, predicates.py one rule per fan, facts.py what the rules read,
scoring.py the mechanism (five principles, every decomposition, the best first).

Speed comes from memo tables keyed on small values that recur across different hands (one suit's
counts, which kinds are held, the situation, the tiles of a family of sets, a set of fan ids), never
on a whole hand: `MEMOS` lists them (with the shared shape tables) so a benchmark can clear them.
"""

from __future__ import annotations

from engine import shapes
from engine.rules.mcr import facts, predicates, scoring
from engine.rules.mcr.catalogue import TABLE
from engine.rules.model import ALL_TILES, NoOptions, RuleSet
from engine.shapes import ShapeKind

RULE_SET = RuleSet(
    name="mcr",
    title="Chinese Official (国标麻将)",
    table=TABLE,
    tiles=ALL_TILES,
    shapes=frozenset(ShapeKind),
    options_type=NoOptions,
    # what the fans read; `extra`, the Riichi and Sichuan facts and the two-player flags are ignored
    context_fields=("self_drawn", "last_of_kind", "replacement_tile", "robbing_kong", "last_wall_tile",
                    "seat_wind", "prevalent_wind", "flowers"),
    minimum=8,
    score=scoring.evaluate,
    allow_quad_pairs=True,
)


# Every memo table scoring reads (functools caches and engine.memo.IntMemo: thread-safe, bounded by their key
# spaces or maxsize).
MEMOS = (
    shapes.suit_splits, shapes._dfs_splits, shapes._suit_options, shapes._tileset,
    facts._suit_status, facts._suit_waits, facts._open_suit_waits,
    predicates.tile_fans, predicates.situation_fans, predicates.set_rules_for,
    scoring._combinations_by_position, scoring._matching,
)


def clear_memos() -> None:
    """Empty every memo table (benchmarks measure the engine with nothing remembered)."""
    for memo in MEMOS:
        memo.cache_clear()
