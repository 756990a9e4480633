"""The per-suit tables file (engine/tables) against the search it replaces, on every key it holds.

Every look-up the engine makes through the mapped tables is compared with the engine's own search
(the `*_dfs` functions and the fallback bodies) on every suit key (405,350: nine counts 0-4, at most
14 tiles) and every honour key (43,130), field by field; keys outside the tables answer by search.
`make test` compares the splits on every key and samples the two slowest comparisons (every fourth /
third key); `make test-slow` compares everything on every key.
The file is checked on load (magic, format, SHA-256); that the build is deterministic is a slow test of
tests/integration/test_tables_processes.py.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import analysis as A
from engine import shapes as S
from engine import tables
from engine.rules.mcr import facts
from engine.tables import format as F
from engine.tables.loader import TableError, open_tables
from tablebuild import builder

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(tables.TABLES is None, reason=f"no suit tables: {tables.PROBLEM}")


def _keys(ranks: int, stride: int = 1) -> Iterator[tuple[int, ...]]:
    """Every tabled key of a part (every `stride`-th: `make test` samples the slowest comparisons,
    `make test-slow` runs them on every key)."""
    yield from builder.part_keys(ranks)[::stride]


def test_the_installed_file_is_mapped_current_and_complete() -> None:
    t = tables.TABLES
    assert t is not None
    assert t.path == os.environ.get("MJSVC_SUIT_TABLES", tables.DEFAULT_PATH)
    assert tables.DEFAULT_PATH.endswith(os.path.join("engine", "tables", F.FILE_NAME))
    assert t.sources == builder.source_digest(), "the tables file is stale: run make (the build rewrites it)"
    assert t.suits.size == 405_350 and t.honors.size == 43_130
    assert len(t.vectors) <= 256 and len(t.combine) == len(t.vectors) ** 2
    assert "mapped read-only" in tables.status()


def test_dense_index_is_the_position_among_tabled_keys() -> None:
    t = tables.TABLES
    assert t is not None
    for part, ranks in ((t.suits, 9), (t.honors, 7)):
        for i, key in enumerate(_keys(ranks)):
            assert part.index(key) == i
        # outside the tables: a fifth copy, too many tiles, a negative count, another length
        assert part.index((5,) + (0,) * (ranks - 1)) == -1
        assert part.index((4, 4, 4, 3) + (0,) * (ranks - 4)) == -1
        assert part.index((-1,) + (0,) * (ranks - 1)) == -1
        assert part.index((0,) * (ranks + 1)) == -1


def _check_analysis(stride: int) -> None:
    for ranks in (9, 7):
        for key in _keys(ranks, stride):
            assert A._info(key) == A._info_dfs(key), key
            assert A._completions(key) == A._completions_dfs(key), key
            odd = sum(1 << r for r, n in enumerate(key) if n % 2 == 1)
            single = sum(1 << r for r, n in enumerate(key) if n == 1)
            assert A._pair_masks(key) == (odd, single), key
            if sum(key) < 14:
                assert A._plus(key)[1] == A._plus_dfs(key), key


def test_analysis_summaries_match_the_search_on_every_fourth_key() -> None:
    _check_analysis(4)


@pytest.mark.slow
def test_analysis_summaries_match_the_search_on_every_key() -> None:
    _check_analysis(1)


def test_class_combinations_match_the_search() -> None:
    t = tables.TABLES
    assert t is not None
    n = len(t.vectors)
    assert A._VECS[:n] == t.vectors
    for a in range(n):
        for b in range(n):
            va, vb = A._VECS[a], A._VECS[b]
            g = [0] * 10
            for k in range(5):
                g[k] = max(va[i] + vb[k - i] for i in range(k + 1))
                v = max(max(va[5 + i] + vb[k - i], va[i] + vb[5 + k - i]) for i in range(k + 1))
                g[5 + k] = v if v > 0 else A._NEG
            assert A._VECS[A._c(a, b)] == tuple(g)


def test_suit_splits_match_the_search_on_every_key() -> None:
    for key in _keys(9):
        assert S.suit_splits.__wrapped__(key) == S._suit_splits_dfs(key), key  # type: ignore[attr-defined,arg-type]


@pytest.mark.parametrize("stride", [pytest.param(1, marks=pytest.mark.slow), 3])
def test_mcr_suit_facts_match_the_search(monkeypatch: pytest.MonkeyPatch, stride: int) -> None:
    status, waits = facts._suit_status.__wrapped__, facts._suit_waits.__wrapped__  # type: ignore[attr-defined]
    keys = [(k, False) for k in _keys(9, stride)] + [(k, True) for k in _keys(7, stride)]
    tabled = [(status(k, h), waits(k, h)) for k, h in keys]
    monkeypatch.setattr(facts, "TABLES", None)
    assert facts.TABLES is None
    for (k, h), found in zip(keys, tabled, strict=True):
        assert found == (status(k, h), waits(k, h)), k


def test_keys_outside_the_tables_answer_by_search() -> None:
    five = (5, 2, 2, 0, 0, 0, 0, 0, 0)  # a fifth copy (only ever asked with a drawn tile added): 111 123 123
    assert S.suit_splits(five) == S._suit_splits_dfs(five) != ()
    assert facts._suit_status(five, False) == 0
    assert A._completions((4, 1, 1, 0, 0, 0, 0, 0, 0)) == A._completions_dfs((4, 1, 1, 0, 0, 0, 0, 0, 0))


def _damaged_copy(tmp_path: Path, at: int) -> str:
    assert tables.TABLES is not None
    path = tmp_path / "suits.bin"
    shutil.copyfile(tables.TABLES.path, path)
    with open(path, "r+b") as f:
        f.seek(at)
        byte = f.read(1)
        f.seek(at)
        f.write(bytes([byte[0] ^ 1]))
    return str(path)


def test_a_damaged_or_foreign_file_is_refused(tmp_path: Path) -> None:
    assert tables.TABLES is not None
    with pytest.raises(TableError, match="SHA-256"):
        open_tables(_damaged_copy(tmp_path, tables.TABLES.size - 100))
    with pytest.raises(TableError, match="magic"):
        open_tables(_damaged_copy(tmp_path, 0))
