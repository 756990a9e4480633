"""The speed machinery of the MCR rule set changes no answer.

- Feature gates: a set fan is only asked when the decomposition has the features it declares; the
  gates must be necessary conditions, so every fan that is not asked would have found nothing.
- Memo tables: answers are the same whether the tables are empty, warm, or warmed in another order.
"""

from __future__ import annotations

import random

from bench.mcr_cases import cases
from engine import rules, shapes
from engine.hand import MeldKind, WinContext, winning_hand
from engine.rules.mcr import MEMOS, RULE_SET, clear_memos, facts
from engine.rules.mcr import predicates as P
from engine.rules.mcr.facts import (
    REVERSIBLE,
    HandFacts,
    SetFacts,
    Situation,
    TileFacts,
    tile_facts,
    tile_facts_of,
    tile_key,
)
from engine.rules.principles import Forest, Principles
from engine.rules.sichuan.fans import CHENGDU_ROWS, MIL_ROWS
from engine.shapes import decompositions
from engine.tables import TABLES
from engine.tile_kinds import ALL_GREEN
from engine.tiles import parse_tile, parse_tiles


def test_fans_not_asked_would_have_found_nothing() -> None:
    asked = 0
    for case in cases(1500, 77):
        h = HandFacts(case.hand, case.ctx)
        for d in decompositions(case.hand):
            sf = SetFacts(d, h)
            run = {fid for fid, _ in P.set_rules_for.get(sf.features)}
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
    assert {fid for fid, _ in P.tile_fans.get(h.tile_key)} == {68, 76}  # All Simples, No Honors


def _plain_principles(rows: tuple, raw: dict, forest: Forest | None) -> dict:
    """The exclusion principles written out plainly from engine.rules.principles' docstring (sets and
    lookups by row, nothing precomputed): what the compiled mechanism must agree with."""
    by_id = {int(r.id): r for r in rows}
    excluded: set[int] = set()
    fenced: dict[int, list[set[int]]] = {}
    kept: dict[int, list] = {}
    for fid in sorted(raw, key=lambda f: (-by_id[f].value, f)):
        if fid in excluded:
            continue
        hits = [h for h in raw[fid] if not any(set(h) <= g for g in fenced.get(fid, []))]
        if forest is not None and by_id[fid].combo:
            hits = [h for h in hits if forest.admit(h)]
        if not hits:
            continue
        kept[fid] = hits
        excluded.update(int(x) for x in by_id[fid].excludes)
        covered = {i for h in hits for i in h}
        for victim in by_id[fid].excludes_on_sets:
            fenced.setdefault(int(victim), []).append(covered)
    return {fid: kept[fid] for fid in sorted(kept)}


def test_principles_agree_with_a_plain_reading_on_every_table() -> None:
    """Principles.apply (tables as lists by fan id, compiled) against the plain reading above, on random
    findings over every rule set's table: per-set exclusions and the account-once forest included."""
    rng = random.Random(13)
    tables = {name: rules.get(name).table.rows for name in rules.names()}
    tables.update({f"sichuan-{v}": rows for v, rows in (("mil", MIL_ROWS), ("chengdu", CHENGDU_ROWS))})
    checked = 0
    for name, rows in tables.items():
        principles = Principles(rows)
        ids = [int(r.id) for r in rows]
        # fans that exclude per set, with their victims, are drawn often so that rule 3 is exercised
        per_set = [int(r.id) for r in rows if r.excludes_on_sets]
        per_set += [int(x) for r in rows for x in r.excludes_on_sets]
        for _ in range(400):
            found = set(rng.sample(ids, rng.randint(0, min(12, len(ids)))))
            found.update(f for f in per_set if rng.random() < 0.3)
            raw = {fid: [tuple(sorted(rng.sample(range(6), rng.randint(0, 3)))) for _ in range(rng.randint(1, 3))]
                   for fid in found}
            use_forest = rng.random() < 0.3
            got = principles.apply(raw, Forest(6) if use_forest else None)
            want = _plain_principles(rows, raw, Forest(6) if use_forest else None)
            assert got == want, (name, raw, use_forest)
            assert list(got) == sorted(got)
            checked += 1
    assert checked >= 2000


def test_packed_tile_and_situation_keys_unpack_to_their_facts() -> None:
    """The tile fans and situational fans are memoized on ints packing TileFacts and Situation: the
    packing loses nothing (checked against the facts computed directly from the hand)."""
    rng = random.Random(7)
    for _ in range(3000):
        present = rng.getrandbits(34) | 1 << rng.randrange(34)
        m, p, s, z = present & 0x1FF, present >> 9 & 0x1FF, present >> 18 & 0x1FF, present >> 27
        kinds = {t for t in range(34) if present >> t & 1}
        assert tile_facts_of(tile_key(present)) == TileFacts(
            (not m) + (not p) + (not s), bool(z), bool(z & 0xF), bool(z >> 4), m | p | s,
            kinds <= REVERSIBLE, kinds <= ALL_GREEN)
    for case in cases(600, 31):
        h = HandFacts(case.hand, case.ctx)
        ctx = case.ctx
        melded = sum(1 for m in case.hand.melds if not (m.kind == MeldKind.KONG and m.concealed))
        shown = sum(m.tiles.count(case.hand.winning_tile) for m in case.hand.melds)
        assert h.situation == Situation(
            ctx.self_drawn, (ctx.last_of_kind or shown == 3) and not ctx.robbing_kong, ctx.last_wall_tile,
            ctx.replacement_tile, ctx.robbing_kong, melded)
        assert h.tiles == tile_facts(h.present)


def _seven_pairs_wait_plain(counts: list[int]) -> int | None:
    """The definition, as it was written before the one-pass version: at most seven kinds, six pairs."""
    if counts.count(0) < 27 or counts.count(2) + counts.count(3) + 2 * counts.count(4) != 6:
        return None
    lone = [counts.index(c) for c in (1, 3) if c in counts]
    return min(lone) if lone else None


def test_seven_pairs_wait_agrees_with_its_plain_definition() -> None:
    rng = random.Random(11)
    found = 0
    for _ in range(20000):
        counts = [0] * 34
        kinds = rng.sample(range(34), rng.randrange(1, 10))
        for t in kinds:
            counts[t] = rng.choice((1, 2, 2, 2, 3, 4, 5))
        want = _seven_pairs_wait_plain(counts)
        assert facts._seven_pairs_wait(counts) == want, counts
        found += want is not None
    assert found > 100  # the generator reaches real seven-pairs waits, not only rejections


def test_fours_counted_as_the_counts_grow_agree_with_the_counts() -> None:
    """`HandFacts.fours` is counted while the counts are built; against the plain count over `counts`, on
    generated situations (kongs, four concealed copies) and on hands holding five or more of a kind (not
    valid, answered alike)."""
    from engine.hand import Hand

    checked = 0
    for case in cases(1500, 41):
        h = HandFacts(case.hand, case.ctx)
        assert h.fours == sum(1 for c in h.counts if c == 4)
        checked += h.fours > 0
    assert checked >= 50
    for concealed in ("111m2222p5m", "1111m222p", "11111m22p"):  # won on 1m: four, five, six of it
        h = HandFacts(Hand(tuple(parse_tiles(concealed)), (), parse_tile("1m")), WinContext())
        assert h.fours == sum(1 for c in h.counts if c == 4)
