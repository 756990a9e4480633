"""Riichi against majiang-core's 5,000 scored wins (shared/oracles/riichi/hule_5000.json, MIT) and its
20,000 shanten cases (xiangting_1.json, xiangting_2.json): every one must agree.

Compared per win: the yaku and their han (dora, ura dora and red fives by count), fu and han (not for a
yakuman, where majiang-core reports none), the yakuman multiple, the hand's points and every seat's
payment with honba and sticks. No ruling was needed: all 5,000 agree.
"""

from __future__ import annotations

import json

import pytest

from bench.riichi_cases import load_hule, majiang_tile, read_majiang, shared_dir
from engine import analysis, api
from engine.hand import make_hand
from engine.rules import riichi
from engine.shapes import ShapeKind

pytestmark = pytest.mark.skipif(not (shared_dir() / "oracles" / "riichi").is_dir(), reason="shared/ not found")


def test_all_5000_majiang_core_wins_agree() -> None:
    data = load_hule()
    assert len(data) == 5000
    failures = []
    for i, item in enumerate(data):
        hand, ctx, exp = read_majiang(item)
        ev = api.evaluate(hand, ctx, "riichi")
        b = ev.best
        assert b is not None
        got = {f.fan.id: f.fan.points * f.count for f in b.fans}
        same = (ev.is_win and got == exp.yaku and b.points == exp.points and b.yakuman == exp.yakuman
                and tuple(a for _, a in b.payments) == exp.payments
                and (exp.yakuman > 0 or (b.fu, b.han) == (exp.fu, exp.han)))
        if not same:
            failures.append((i, item["in"], exp, got, b.fu, b.han, b.points, b.payments))
    assert not failures, f"{len(failures)} differ, first: {failures[:3]}"


_SHAPES = (ShapeKind.STANDARD, ShapeKind.THIRTEEN_ORPHANS, ShapeKind.SEVEN_PAIRS)


@pytest.mark.parametrize("name", ["xiangting_1.json", "xiangting_2.json"])
def test_shanten_per_shape_agrees_with_majiang_core(name: str) -> None:
    data = json.loads((shared_dir() / "oracles" / "riichi" / name).read_text())
    assert len(data) == 10000
    failures = []
    for item in data:
        tiles = [majiang_tile(t[0], t[1])[0] for t in item["q"]]
        hand = make_hand(tiles, sizes=(14,))
        got = analysis.shanten_by_shape_for(hand, riichi.RULE_SET.shapes, allow_quad_pairs=False)
        want = dict(zip(_SHAPES, item["x"], strict=True))
        if got != want:
            failures.append((item["q"], want, got))
    assert not failures, f"{len(failures)} differ, first: {failures[:3]}"
