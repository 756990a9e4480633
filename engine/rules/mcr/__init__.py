"""Chinese Official (MCR, 国标麻将) rules: the 81 fans, scored exactly as pymahjonggb scores them.

The package contract (engine/rules/model.py): fans.py holds the fans as data, predicates.py one rule per
fan (`@fan(Fan.X)`), facts.py what the rules read, scoring.py the mechanism (five principles, every
decomposition, the best first) and the payments (`score`, the entry point), options.py the one option,
payments.py the payment rule's source. Its own modules: rulebook.py, the other convention (the rows and
the one step it reads otherwise) and tables.py, the scoring look-ups answered at install time (read here;
built by tablebuild/mcr.py, outside the engine).

Rulings and sources (docs/rules/mcr.md says the same for readers):

* Conventions (`options.mcr.convention`): CHINESE, the default, is the Chinese convention as
  ChineseOfficialMahjongHelper / pymahjonggb score it (tests/unit/test_mcr_oracle.py); RULEBOOK is the English
  rulebook of 2006 (WMO, "Mahjong Competition Rules") where it differs, exactly four rulings: (a) Two
  Concealed Kongs is 8 points, (b) a melded plus a concealed kong is Two Melded Kongs + Concealed Kong, not
  the 5-point 明暗杠 (id 82), (c) the concealed-hand fans (Seven Pairs, Thirteen Orphans, the honours-and-
  knitted hands, Nine Gates, Seven Shifted Pairs, Four Concealed Pungs) do not waive Fully Concealed Hand,
  (d) All Green does not waive Half Flush. Sources in rulebook.py; tests/unit/test_mcr_conventions.py shows on
  the shared reference cases that nothing else changes.
* Flowers: fan 81 Flower Tiles, one point per flower, from `flowers` (a count) or `flower_tiles` (which
  ones); both given must agree (BAD_CONTEXT naming flower_tiles). They count in the total and the
  payments, never toward the 8-point minimum.
* Payments (`Scoring.payments`, every seat, summing to zero): the competition rule, base 8 (payments.py):
  self-drawn, each of the three pays total + 8; on a discard, the discarder (`discarded_by`, relative to the
  winner at `seat_wind`; a robbed kong's owner) pays total + 8 and the other two 8. A discard win without
  `discarded_by` has no payments; a self-draw naming a discarder is CONTRADICTORY_CONTEXT; a hand under the
  minimum has none.

Speed comes from tables keyed on small values that recur across different hands (one suit's counts,
which kinds are held, the situation, the tiles of a family of sets, a set of fan ids), never on a whole
hand: most answer every key (built at install time into the tables file: engine.tables and
tables.py here; or at import), the rest are memos that fill as hands come: `MEMOS` lists those (with the
shared shape memos), by their names in the engine's registry (engine.registry), so a benchmark can clear them.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.registry import REGISTRY
from engine.rules.mcr import scoring
from engine.rules.mcr import tables as mcr_tables
from engine.rules.mcr.fans import TABLE
from engine.rules.mcr.options import McrOptions
from engine.rules.mcr.referee import REFEREE
from engine.rules.model import ALL_TILES, RuleSet
from engine.shapes import ShapeKind
from engine.tables import TABLES

RULE_SET = RuleSet(
    name="mcr",
    title="Chinese Official (国标麻将)",
    table=TABLE,
    tiles=ALL_TILES,
    shapes=frozenset(ShapeKind),
    options_type=McrOptions,
    # what the fans and the payments read (`flower_tiles`: Flower Tiles by which flowers; `discarded_by`: who
    # pays); any other field is refused
    context_fields=("self_drawn", "last_of_kind", "replacement_tile", "robbing_kong", "last_wall_tile",
                    "seat_wind", "prevalent_wind", "flowers", "flower_tiles", "discarded_by"),
    minimum=8,
    score=scoring.score,
    allow_quad_pairs=True,
    referee=REFEREE,
)


# Every memo table scoring reads in this process (functools caches and engine.memo.IntMemo: thread-safe,
# bounded by their key spaces or maxsize). Where the tables file is mapped (engine.tables, and its MCR
# part: engine.rules.mcr.tables) the look-ups it answers are total and remember nothing, so their memos
# (which would only ever hold keys outside the tables) are not listed: what is left here is what a fresh
# worker still fills, the suit options (objects, see engine.shapes) and the set-fan lists by feature mask
# (predicates: a 32-bit key). Situation fans are a table built at import, in every process.
class Memo(Protocol):
    def cache_clear(self) -> None: ...
    def cache_info(self) -> Any: ...


_SUIT_TABLES = TABLES is not None
_MCR_TABLES = mcr_tables.TILE_FAN_TABLE is not None
MEMOS: tuple[Memo, ...] = tuple(REGISTRY.get(name) for name in (
    ("shapes.dfs_splits", "shapes.suit_options")
    + (() if _SUIT_TABLES else ("shapes.suit_splits", "mcr.facts.suit_status", "mcr.facts.suit_waits",
                                "mcr.facts.open_suit_waits"))
    + ("mcr.predicates.set_rules_for",)
    + (() if _MCR_TABLES else ("mcr.predicates.tile_fans", "mcr.scoring.searched_combinations",
                               "mcr.scoring.matching"))))


def clear_memos() -> None:
    """Empty every memo table (benchmarks measure the engine with nothing remembered)."""
    for memo in MEMOS:
        memo.cache_clear()
