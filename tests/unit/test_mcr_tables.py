"""The MCR look-ups that answer every key from a table (engine.rules.mcr.tables, the situation table,
the wait facts read from the mapped per-suit tables), against the plain computation they replace.

Each table is compared with the code that computes it on every key of its key space: the tile fans
on all 65,536 packed tile-facts keys, the pung combinations on all 52,921 sets of two to four distinct
tiles, the chow combinations (read at import) on all 12,628 multisets of two to four chows, the
situation fans on all 160 situation keys, the wait facts read in place on every suit and
honour key (448,480: a few seconds compiled), each in `make test`. A fresh process meets
no memo miss on those look-ups while scoring hands it never saw, the MCR part of the file is rebuilt
alone into the same bytes, and a stale MCR part is not read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import shapes, tables
from engine.rules.mcr import facts, scoring
from engine.rules.mcr import predicates as P
from engine.rules.mcr import tables as mcr_tables
from tablebuild import builder

pytestmark = pytest.mark.skipif(tables.TABLES is None, reason=f"no tables file: {tables.PROBLEM}")


def test_the_mcr_part_is_read() -> None:
    assert mcr_tables.PROBLEM == "", mcr_tables.PROBLEM
    assert P.tile_fans.table is mcr_tables.TILE_FAN_TABLE is not None
    assert scoring._PUNG_TABLE is mcr_tables.PUNG_COMBINATION_TABLE is not None
    assert mcr_tables.CHOW_COMBINATION_TABLE is not None
    assert "read from the mapped file" in mcr_tables.status()


def test_tile_fans_table_matches_the_rules_on_every_key() -> None:
    table = mcr_tables.TILE_FAN_TABLE
    assert table is not None and table.size == 1 << 16
    for key in range(1 << 16):
        assert table.answer(key) == P._tile_fans(key), key
    assert P.tile_fans.memo.cache_info().currsize == 0  # every key came from the table


def test_situation_fans_table_matches_the_rules_on_every_key() -> None:
    table = P.situation_fans.table
    assert table is not None and table.size == 5 << facts._SITUATION_FLAGS
    for key in range(table.size):
        assert P.situation_fans.get(key) == P._situation_fans(key), key
    assert P.situation_fans.get(table.size) == P._situation_fans(table.size)  # outside: by the memo


def test_pung_combination_index_numbers_every_key_once() -> None:
    keys = list(scoring.pung_combination_keys())
    assert len(keys) == mcr_tables.PUNG_COMBINATION_KEYS == 52_921
    assert sorted(scoring.pung_combination_index(k) for k in keys) == list(range(len(keys)))
    order = scoring.TILE_KEY
    for k in keys:
        assert [order[t] for t in k] == sorted(order[t] for t in k)
    # anything else is not a key: a repeated tile, the wrong order, another size, not a tile
    assert scoring.pung_combination_index((0, 0)) == -1
    assert scoring.pung_combination_index((1, 0)) == -1
    assert scoring.pung_combination_index((0,)) == scoring.pung_combination_index(tuple(range(5))) == -1
    assert scoring.pung_combination_index((0, 34)) == scoring.pung_combination_index((-1, 0)) == -1


def test_pung_combinations_table_matches_the_search_on_every_key() -> None:
    for tiles in scoring.pung_combination_keys():
        assert scoring._combinations_by_position("pung", tiles) == scoring._search_combinations("pung", tiles), tiles
    assert scoring._searched_combinations.cache_info().currsize == 0  # type: ignore[attr-defined]


def test_chow_combinations_read_at_import_match_the_search_on_every_key() -> None:
    table = mcr_tables.CHOW_COMBINATION_TABLE
    assert table is not None and table.size == mcr_tables.CHOW_COMBINATION_KEYS == 12_628
    searched = {}
    for number, tiles in enumerate(scoring.chow_combination_keys()):
        found = scoring._search_combinations("chow", tiles)
        assert table.answer(number) == found, tiles
        if found:
            searched[tiles] = found
    assert searched == scoring._CHOW_COMBINATIONS


def _standing(key: tuple[int, ...], block: int) -> list[int]:
    """A standing hand holding `key` in `block` (0-2 the suits, 3 the honours) and nothing else."""
    counts = [0] * 34
    lo = facts._BLOCKS[block][0]
    counts[lo:lo + len(key)] = key
    return counts


def test_wait_facts_read_in_place_match_the_memoized_functions() -> None:
    """`_block_status`, `_block_waits` and `_open_wait_mask` read the waits word of the mapped tables;
    the memoized functions they stand in for (compared with the search on every key in test_tables)."""
    status, waits = facts._suit_status.__wrapped__, facts._suit_waits.__wrapped__  # type: ignore[attr-defined]
    open_waits = facts._open_suit_waits.__wrapped__  # type: ignore[attr-defined]
    for ranks, blocks in ((9, (0, 1, 2)), (7, (3,))):
        for n, key in enumerate(builder.part_keys(ranks)):
            block = blocks[n % len(blocks)]
            honors = block == 3
            standing = _standing(key, block)
            assert facts._block_status(standing, block) == status(key, honors), key
            assert facts._block_waits(standing, block) == waits(key, honors), key
            offsets = open_waits(key, honors)
            mask = facts._open_wait_mask(standing, facts._BLOCKS[block][0], honors)
            assert mask == (-1 if offsets is None else sum(1 << r for r in offsets)), key


def test_wait_facts_outside_the_tables_answer_by_the_memoized_search() -> None:
    five = (5, 2, 2, 0, 0, 0, 0, 0, 0)  # a fifth copy: 111 123 123, not tabled
    standing = _standing(five, 1)
    assert facts._waits_word(standing, 9, False) == -1
    assert facts._block_status(standing, 1) == facts._suit_status(five, False) == 0
    assert facts._block_waits(standing, 1) == facts._suit_waits(five, False)


def test_the_mcr_part_is_rebuilt_alone_into_the_same_bytes() -> None:
    """A build next to a file whose per-suit part is current reuses it and computes the MCR part: the
    bytes of the installed file (a build from nothing gives them too: test_tables, slow)."""
    assert tables.TABLES is not None
    data, header = builder.build(tables.TABLES.path)
    assert data == Path(tables.TABLES.path).read_bytes()
    assert header["parts"] == tables.TABLES.parts


def test_memos_lists_only_what_still_fills() -> None:
    from engine.rules.mcr import MEMOS

    tabled = {id(m) for m in (P.tile_fans, P.situation_fans, scoring._searched_combinations, scoring._matching,
                              facts._suit_status, facts._suit_waits, facts._open_suit_waits, shapes.suit_splits)}
    assert not tabled & {id(m) for m in MEMOS}
    assert {id(shapes._suit_options), id(P.set_rules_for)} <= {id(m) for m in MEMOS}
