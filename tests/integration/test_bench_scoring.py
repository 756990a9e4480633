"""The scoring benchmark rows (bench), run as a process."""

from __future__ import annotations

import pytest

import engine

pytest.importorskip("MahjongGB")

pytest.importorskip("mahjong")


def test_scoring_rows() -> None:
    from bench import ops_scoring

    rows = ops_scoring.rows(8, seed=3)
    by_impl = {r["impl"]: r for r in rows}
    expected = {"mjsvc", "mjsvc_nomemo", "mjsvc_cached", "pymahjonggb", "pymahjonggb_once", "mahjong"}
    if engine.compiled_modules():  # the same row, measured on the engine's Python source in a child process
        expected.add("mjsvc_source")
    assert set(by_impl) == expected
    assert all(r["op"] == "evaluate_mcr" and r["median_us"] > 0 for r in rows)
    note = by_impl["mjsvc"]["note"]
    assert "8 hands" in note and f"{8 * ops_scoring.WARM_POOL} other hands" in note
    # the cold row and its anchors: one figure per fresh process, the rows those of the median-ratio process
    ours, gb = by_impl["mjsvc"], by_impl["pymahjonggb"]
    assert len(ours["rounds"]) == len(gb["rounds"]) == ops_scoring.COLD_ROUNDS
    ratios = sorted(o / g for o, g in zip(ours["rounds"], gb["rounds"], strict=True))
    assert ours["median_us"] / gb["median_us"] == ratios[len(ratios) // 2]
    assert f"{ops_scoring.COLD_ROUNDS} fresh processes" in note
    assert "emptied" in by_impl["mjsvc_nomemo"]["note"]


