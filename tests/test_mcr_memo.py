"""The speed machinery of the MCR rule set changes no answer.

- Feature gates: a set fan is only asked when the decomposition has the features it declares; the
  gates must be necessary conditions, so every fan that is not asked would have found nothing.
- Memo tables: answers are the same whether the tables are empty, warm, or warmed in another order.
"""

from __future__ import annotations

import random

from bench.mcr_cases import cases
from engine import shapes
from engine.hand import WinContext, winning_hand
from engine.rules.mcr import MEMOS, RULE_SET, clear_memos
from engine.rules.mcr import predicates as P
from engine.rules.mcr.facts import HandFacts, SetFacts, tile_facts
from engine.shapes import decompositions
from engine.tables import TABLES
from engine.tiles import parse_tile, parse_tiles


def test_fans_not_asked_would_have_found_nothing() -> None:
    asked = 0
    for case in cases(1500, 77):
        h = HandFacts(case.hand, case.ctx)
        for d in decompositions(case.hand):
            sf = SetFacts(d, h)
            run = {fid for fid, _ in P.set_rules_for(sf.features)}
            asked += len(run)
            for fid, (needs, rule) in P.SETS.items():
                if fid not in run:
                    assert sf.features & needs != needs
                    # a fresh SetFacts: rules may remember things on it (the wait kind)
                    assert rule(h, SetFacts(d, h)) == [], (fid, str(case.hand), str(d))
    assert asked > 1500  # the gates let fans through, too


def test_answers_do_not_depend_on_memo_state() -> None:
    selected = list(cases(300, 5))
    clear_memos()
    cold = [repr(RULE_SET.evaluate(c.hand, c.ctx)) for c in selected]
    # the search behind the suit splits only runs where the mapped tables do not answer
    idle = [P.situation_fans] + ([shapes._dfs_splits] if TABLES is not None else [])
    assert all(m.cache_info().currsize for m in MEMOS if m not in idle)
    shuffled = list(enumerate(selected))
    random.Random(1).shuffle(shuffled)
    warm = {i: repr(RULE_SET.evaluate(c.hand, c.ctx)) for i, c in shuffled}
    assert cold == [warm[i] for i in range(len(selected))]


def test_tile_facts_read_the_presence_mask() -> None:
    hand = winning_hand(parse_tiles("234m456p678s345s5p"), [], parse_tile("5p"))
    h = HandFacts(hand, WinContext())
    t = h.tiles
    assert t == tile_facts(h.present)
    assert (t.suits_absent, t.honors, t.winds, t.dragons) == (0, False, False, False)
    assert t.rank_union == 0b011111110  # ranks 2-8
    assert {fid for fid, _ in P.tile_fans(t)} == {68, 76}  # All Simples, No Honors
