"""bench/ops_hk.py: the Hong Kong evaluation row and its MCR comparison row are measured and say what they timed."""

from __future__ import annotations


def test_hk_rows() -> None:
    from bench import ops_hk

    rows = ops_hk.rows(8, seed=3)
    assert [r["impl"] for r in rows] == ["mjsvc", "mjsvc_mcr"]
    assert all(r["op"] == "evaluate_hk" and r["median_us"] > 0 for r in rows)
    assert rows[0]["note"].startswith("hk: 8 hands") and rows[1]["note"].startswith("mcr: 8 hands")
