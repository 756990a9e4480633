"""Guangdong 推倒胡: a golden fixture per fan, multiplier and payment rule, each naming its rule sheet.

S1: "广东麻将推倒胡的玩法和规则", bangkaow.com, 2024-07 (https://www.bangkaow.com/xxyw/202407/1475549.html):
    no chow; 点炮 1x, only the discarder pays; 自摸 2x, all three pay; 抢杠 scored as the winner's self-draw,
    the robbed player pays for all three; 杠开 is a self-draw, not doubled; 点杠 then 杠开: the feeder pays.
S2: the room options of public 广东推倒胡 game-server code (engine/rules/guangdong/options.py): 无鬼加倍,
    七小对 x2, 杠上花 x2, 四鬼胡牌 (2倍 choice), 抢杠全包, 杠爆全包, 跟庄, horses, 白板做鬼 / 翻鬼, 2-4 players.
Horses (买马) follow the common position rule 1 5 9 East Red / 2 6 South Green / 3 7 West White / 4 8 North.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from engine import api
from engine.errors import (
    BadContextError,
    BadMeldError,
    BadOptionError,
    BadTileError,
    ContradictoryContextError,
)
from engine.hand import ClaimedFrom, WinContext, Wind, chow, kong, pung, winning_hand
from engine.results import Evaluation
from engine.rules.guangdong.fans import Fan
from engine.shapes import ShapeKind
from engine.tiles import RED, WHITE, parse_tile, parse_tiles

ROOT = Path(__file__).resolve().parents[2]
PLAIN = "123m456p789s222sE"  # + E: four sets and a pair, no ghost
ROB = "13m456p789s222sEE"  # + 2m, a tile the hand does not hold (a robbed kong's fourth copy)
KONG_HAND = "123m456p789sE"  # + E, with a kong of 9p declared


def ev(concealed: str, win: str, melds: tuple | dict[str, Any] = (), options: dict[str, Any] | None = None,
       **ctx: Any) -> Evaluation:
    """Evaluate under guangdong; the third argument is the melds, or the options when there are none."""
    if isinstance(melds, dict):
        melds, options = (), melds
    hand = winning_hand(parse_tiles(concealed), melds, parse_tile(win))
    return api.evaluate(hand, WinContext(**ctx), "guangdong", options)


def pays(e: Evaluation) -> dict[str, int]:
    assert e.best is not None
    return {Wind(seat).name[0]: amount for seat, amount in e.best.payments}


def fans(e: Evaluation) -> dict[Fan, tuple[int, int]]:
    assert e.best is not None
    return {Fan(h.fan.id): (h.fan.points, h.count) for h in e.best.fans}


# --------------------------------------------------------------------------------------------- S1: payments


def test_self_draw_all_three_pay_two_each() -> None:
    """S1: 自摸 2倍, 3家都输."""
    e = ev(PLAIN, "E", self_drawn=True, seat_wind=Wind.SOUTH)
    assert e.is_win and e.best is not None
    assert fans(e) == {Fan.WIN: (1, 1), Fan.SELF_DRAWN: (1, 1)}
    assert (e.best.total, e.best.points) == (1, 1)
    assert pays(e) == {"E": -2, "S": 6, "W": -2, "N": -2}


def test_discard_win_only_the_discarder_pays_once() -> None:
    """S1: 点炮 1倍, 仅点炮者输 (with self_draw_only off)."""
    e = ev(PLAIN, "E", options={"self_draw_only": False}, discarded_by=ClaimedFrom.LEFT)
    assert Fan.DISCARD_WIN in fans(e)
    assert pays(e) == {"E": 1, "S": 0, "W": 0, "N": -1}  # LEFT of East plays just before it: North


def test_discard_win_refused_by_default() -> None:
    """S1 and S2: 推倒胡 wins by self-draw or robbing a kong only."""
    with pytest.raises(ContradictoryContextError) as err:
        ev(PLAIN, "E", discarded_by=ClaimedFrom.LEFT)
    assert err.value.field == "context.self_drawn"


def test_robbing_a_kong_the_robbed_player_pays_for_all() -> None:
    """S1: 抢杠 按胡牌家自摸计算, 被抢玩家包三家 (抢杠全包, also S2)."""
    e = ev(ROB, "2m", robbing_kong=True, discarded_by=ClaimedFrom.ACROSS)
    assert Fan.ROBBING_KONG in fans(e)
    assert pays(e) == {"E": 6, "S": 0, "W": -6, "N": 0}
    # S1 scores the robbed kong as the winner's self-draw: without 抢杠全包 each of the three pays its self-draw share
    plain = ev(ROB, "2m", options={"rob_kong_pays_all": False}, robbing_kong=True, discarded_by=ClaimedFrom.ACROSS)
    assert pays(plain) == {"E": 6, "S": -2, "W": -2, "N": -2}


def test_kong_burst_the_feeder_pays_for_all() -> None:
    """S1: 点杠后杠开的由点杠者包自摸; S2: 杠爆全包. The kong's fourth tile came from the left (North)."""
    melds = (kong(parse_tile("9p"), claimed_from=ClaimedFrom.LEFT),)
    e = ev(KONG_HAND, "E", melds, self_drawn=True, replacement_tile=True, kong_fed_by=ClaimedFrom.LEFT)
    f = fans(e)
    assert f[Fan.KONG_BLOOM] == (2, 1) and Fan.KONG_BURST in f
    assert pays(e) == {"E": 12, "S": 0, "W": 0, "N": -12}  # 2 x points (2) x three payers
    named = ev(KONG_HAND, "E", melds, self_drawn=True, replacement_tile=True,
               kong_fed_by=ClaimedFrom.RIGHT)
    assert pays(named) == {"E": 12, "S": -12, "W": 0, "N": 0}
    unnamed = ev(KONG_HAND, "E", melds, self_drawn=True, replacement_tile=True)  # the context names no feeder
    assert Fan.KONG_BURST not in fans(unnamed) and pays(unnamed)["N"] == -4
    off = ev(KONG_HAND, "E", melds, {"kong_burst_pays_all": False}, self_drawn=True, replacement_tile=True,
             kong_fed_by=ClaimedFrom.LEFT)
    assert Fan.KONG_BURST not in fans(off) and pays(off) == {"E": 12, "S": -4, "W": -4, "N": -4}


def test_kong_bloom_after_a_concealed_kong_everyone_pays() -> None:
    """S2: 杠上花 x2; S1 does not double it (kong_bloom_multiplier=1); a concealed kong fed nobody."""
    melds = (kong(parse_tile("9p"), concealed=True),)
    e = ev(KONG_HAND, "E", melds, self_drawn=True, replacement_tile=True)
    assert e.best is not None and e.best.total == 2 and Fan.KONG_BURST not in fans(e)
    assert pays(e) == {"E": 12, "S": -4, "W": -4, "N": -4}
    s1 = ev(KONG_HAND, "E", melds, {"kong_bloom_multiplier": 1}, self_drawn=True, replacement_tile=True)
    assert s1.best is not None and s1.best.total == 1 and pays(s1)["E"] == 6


# --------------------------------------------------------------------------------------------- S2: multipliers


def test_no_ghosts_doubles_when_ghosts_are_played() -> None:
    """S2: 无鬼加倍."""
    e = ev(PLAIN, "E", options={"ghosts": (WHITE,)}, self_drawn=True)
    assert fans(e)[Fan.NO_GHOSTS] == (2, 1) and e.best is not None and e.best.total == 2
    assert pays(e) == {"E": 12, "S": -4, "W": -4, "N": -4}
    assert Fan.NO_GHOSTS not in fans(ev(PLAIN, "E", self_drawn=True))  # no ghosts played: nothing to double
    off = ev(PLAIN, "E", options={"ghosts": (WHITE,), "no_ghost_double": False}, self_drawn=True)
    assert Fan.NO_GHOSTS not in fans(off)


def test_a_ghost_in_a_meld_is_held() -> None:
    """A pung of the ghost kind is its own kind, but the hand holds ghosts: not 无鬼 (our ruling)."""
    e = ev("123m456p789sE", "E", (pung(WHITE),), {"ghosts": (WHITE,)}, self_drawn=True)
    assert e.is_win and Fan.NO_GHOSTS not in fans(e)


def test_seven_pairs_doubles() -> None:
    """S2: 七小对 x2; a four of a kind counts as two pairs."""
    e = ev("1122m3344p5566sE", "E", self_drawn=True)
    assert e.best is not None and e.best.decomposition.kind == ShapeKind.SEVEN_PAIRS
    assert fans(e)[Fan.SEVEN_PAIRS] == (2, 1) and e.best.total == 2
    quads = ev("1111m3344p5566sE", "E", self_drawn=True)
    assert quads.best is not None and quads.best.decomposition.kind == ShapeKind.SEVEN_PAIRS
    assert not ev("1122m3344p5566sE", "E", {"seven_pairs": False}, self_drawn=True).is_win
    plain = ev("1122m3344p5566sE", "E", {"seven_pairs_double": False}, self_drawn=True)
    assert plain.best is not None and plain.best.total == 1


def test_seven_pairs_with_a_ghost_and_no_ghost_multiply() -> None:
    """S2: a ghost completes a pair (七对 x2); without ghosts the same shape is 七对 x2 and 无鬼 x2."""
    e = ev("1122m3344p55s6sEP", "6s", options={"ghosts": (WHITE,)}, self_drawn=True)
    assert e.best is not None and e.best.total == 2 and e.best.decomposition.kind == ShapeKind.SEVEN_PAIRS
    pair = [s for s in e.best.decomposition.sets if s.wild]
    assert [(s.wild, s.wild_as) for s in pair] == [((WHITE,), (parse_tile("E"),))]
    e2 = ev("1122m3344p5566sE", "E", {"ghosts": (WHITE,)}, self_drawn=True)
    assert e2.best is not None and e2.best.total == 4


def test_thirteen_orphans_with_a_ghost() -> None:
    """S2 rooms allow 十三幺; a ghost may stand for the missing orphan, here its own kind (white)."""
    e = ev("119m19p19sESWNCF", "P", options={"ghosts": (WHITE,)}, self_drawn=True)
    assert e.is_win and e.best is not None and e.best.decomposition.kind == ShapeKind.THIRTEEN_ORPHANS
    assert WHITE in e.best.decomposition.knitted
    off = ev("119m19p19sESWNCF", "P", {"ghosts": (WHITE,), "thirteen_orphans": False}, self_drawn=True)
    assert not off.is_win


def test_four_ghosts_win_at_once() -> None:
    """S2: 四鬼胡牌 (with its 2倍 choice); off: the hand must be complete."""
    e = ev("159m159p159sEPPP", "P", options={"ghosts": (WHITE,)}, self_drawn=True)
    assert e.is_win and fans(e)[Fan.FOUR_GHOSTS] == (1, 1)
    assert e.best is not None and e.best.decomposition.knitted  # no shape: the concealed tiles as held
    double = ev("159m159p159sEPPP", "P", {"ghosts": (WHITE,), "four_ghosts_multiplier": 2}, self_drawn=True)
    assert double.best is not None and double.best.total == 2
    assert not ev("159m159p159sEPPP", "P", {"ghosts": (WHITE,), "four_ghosts_win": False}, self_drawn=True).is_win


def test_two_flipped_ghosts() -> None:
    """S2's 翻鬼 with two kinds (翻双鬼): 5m and 6m are wild; each stands for what the hand needs."""
    e = ev("13m46p789s222sEE5m", "6m", options={"ghosts": (4, 5)}, self_drawn=True)
    assert e.is_win and e.best is not None
    wild = sorted((w, a) for s in e.best.decomposition.sets for w, a in zip(s.wild, s.wild_as, strict=True))
    assert [w for w, _ in wild] == [4, 5] and sorted(a for _, a in wild) == [1, 13]  # 2m and 5p


def test_horses_hit_the_winner() -> None:
    """买马: 1 5 9 East Red name the start seat (the winner by default); each hit adds the points once more."""
    e = ev(PLAIN, "E", self_drawn=True, horse_tiles=tuple(parse_tiles("1m5p9sCS")))
    assert fans(e)[Fan.HORSES] == (1, 4)  # 1m 5p 9s Red hit, South does not
    assert e.best is not None and (e.best.total, e.best.points) == (5, 5)
    assert pays(e) == {"E": 30, "S": -10, "W": -10, "N": -10}
    # counted from the dealer: a South winner is hit by 2 6 South Green
    dealer = ev(PLAIN, "E", {"horse_start": 2}, self_drawn=True, seat_wind=Wind.SOUTH,
                horse_tiles=tuple(parse_tiles("2m6pSF1m")))
    assert fans(dealer)[Fan.HORSES] == (1, 4)
    winner = ev(PLAIN, "E", self_drawn=True, seat_wind=Wind.SOUTH, horse_tiles=tuple(parse_tiles("2m6pSF1m")))
    assert fans(winner)[Fan.HORSES] == (1, 1)  # from the winner: only the 1m


def test_follow_dealer_the_dealer_pays_everyone() -> None:
    """S2: 跟庄, an input fact: the dealer pays every other player."""
    e = ev(PLAIN, "E", self_drawn=True, seat_wind=Wind.SOUTH, follow_dealer=True)
    assert Fan.FOLLOW_DEALER in fans(e)
    assert pays(e) == {"E": -5, "S": 7, "W": -1, "N": -1}
    assert sum(pays(e).values()) == 0


def test_base_points_scale_every_payment() -> None:
    e = ev(PLAIN, "E", {"base_points": 5, "ghosts": (RED,)}, self_drawn=True)
    assert e.best is not None and e.best.points == 10 and pays(e)["E"] == 60


# --------------------------------------------------------------------------------------------- players and seats


def test_three_players() -> None:
    e = ev(PLAIN, "E", {"players": 3}, self_drawn=True, seat_wind=Wind.WEST)
    assert pays(e) == {"E": -2, "S": -2, "W": 4}
    rob = ev(ROB, "2m", {"players": 3}, robbing_kong=True, discarded_by=ClaimedFrom.LEFT)
    assert pays(rob) == {"E": 4, "S": 0, "W": -4}  # LEFT of East at three: West
    with pytest.raises(BadContextError) as err:
        ev(PLAIN, "E", {"players": 3}, self_drawn=True, seat_wind=Wind.NORTH)
    assert err.value.field == "context.seat_wind"
    with pytest.raises(BadContextError):
        ev(ROB, "2m", {"players": 3}, robbing_kong=True, discarded_by=ClaimedFrom.ACROSS)


def test_two_players() -> None:
    e = ev(ROB, "2m", {"players": 2}, robbing_kong=True, discarded_by=ClaimedFrom.RIGHT)
    assert pays(e) == {"E": 2, "S": -2}
    assert pays(ev(PLAIN, "E", {"players": 2}, self_drawn=True, seat_wind=Wind.SOUTH)) == {"E": -2, "S": 2}


# --------------------------------------------------------------------------------------------- options and errors


def test_chow_melds_are_refused_unless_allowed() -> None:
    """S1: 只能碰、杠、胡, 不能吃."""
    with pytest.raises(BadMeldError) as err:
        ev("456p789s222sE", "E", (chow(0),), self_drawn=True)
    assert err.value.field == "hand.melds[0].kind"
    assert ev("456p789s222sE", "E", (chow(0),), {"chow_melds": True}, self_drawn=True).is_win


def test_without_honours() -> None:
    with pytest.raises(BadTileError) as err:
        ev(PLAIN, "E", {"honors": False}, self_drawn=True)
    assert err.value.field == "hand.concealed"
    with pytest.raises(BadOptionError):
        ev(PLAIN, "E", {"honors": False, "ghosts": (WHITE,)}, self_drawn=True)


@pytest.mark.parametrize("options,field", [
    ({"ghosts": (34,)}, "options.guangdong.ghosts[0]"),
    ({"ghosts": (WHITE, WHITE)}, "options.guangdong.ghosts[1]"),
    ({"players": 5}, "options.guangdong.players"),
    ({"kong_bloom_multiplier": 3}, "options.guangdong.kong_bloom_multiplier"),
    ({"base_points": 0}, "options.guangdong.base_points"),
    ({"no_such": True}, "options.guangdong.no_such"),
    ({"seven_pairs": 1}, "options.guangdong.seven_pairs"),
])
def test_bad_options_name_the_field(options: dict[str, Any], field: str) -> None:
    with pytest.raises(BadOptionError) as err:
        ev(PLAIN, "E", options, self_drawn=True)
    assert err.value.field == field


def test_context_checks() -> None:
    with pytest.raises(BadContextError):
        ev(PLAIN, "E", self_drawn=True, horse_tiles=tuple([0] * 21))
    with pytest.raises(ContradictoryContextError):
        ev(PLAIN, "E", self_drawn=True, kong_fed_by=ClaimedFrom.LEFT)
    with pytest.raises(ContradictoryContextError):
        ev(PLAIN, "E", self_drawn=True, discarded_by=ClaimedFrom.LEFT)
    with pytest.raises(ContradictoryContextError) as err:  # a concealed kong was fed by nobody
        ev(KONG_HAND, "E", (kong(parse_tile("9p"), concealed=True),), self_drawn=True, replacement_tile=True,
           kong_fed_by=ClaimedFrom.LEFT)
    assert err.value.field == "context.kong_fed_by"


def test_not_a_win() -> None:
    assert not ev("123m456p789s223sE", "N", {"ghosts": (WHITE,)}, self_drawn=True).is_win


def test_analyze_with_ghosts() -> None:
    from engine.hand import make_hand

    hand = make_hand(parse_tiles("13m46p789s999sEEP"), sizes=(13,))
    a = api.analyze(hand, (), "guangdong", {"ghosts": (WHITE,)})
    assert a.shanten == 0
    assert [t.tile for t in a.waits] == [1, 13, WHITE]  # 2m, 5p, or a ghost
    assert [s for s, _ in a.shanten_by_shape] == [ShapeKind.STANDARD, ShapeKind.SEVEN_PAIRS,
                                                  ShapeKind.THIRTEEN_ORPHANS]
    plain = api.analyze(hand, (), "guangdong")  # no ghosts: the white is a white
    assert plain.shanten == 1


def test_without_ghosts_the_plain_path_answers_as_the_wildcard_path() -> None:
    """No ghosts: engine.shapes / engine.analysis answer (no wildcard table is built); they agree with
    engine.wildcards with no wild kind on seeded hands."""
    import random

    from engine import wildcards
    from engine.hand import make_hand
    from engine.rules.guangdong.options import GuangdongOptions
    from engine.rules.guangdong.scoring import decompose, wild_shapes

    rng = random.Random(5)
    wall = [t for t in range(34) for _ in range(4)]
    for sp in (True, False):
        opts = GuangdongOptions(seven_pairs=sp)
        for _ in range(300):
            tiles = rng.sample(wall, 14) if rng.random() < 0.5 else sorted(
                [f + k for f in rng.sample(range(0, 7), 2) for k in (0, 1, 2)] + [27, 27, 28, 28, 28] + [9, 10, 11])
            rng.shuffle(tiles)
            win = tiles.pop()
            hand = make_hand(tiles, (), win, sizes=(14,))
            plain = {str(d) for d in decompose(hand, opts)}
            wild = {str(d) for d in wildcards.decompositions_wild(hand, (), wild_shapes(opts))}
            assert plain == wild, hand
            h13 = make_hand(tiles, sizes=(13,))
            a = api.analyze(h13, (), "guangdong", {"seven_pairs": sp})
            w = wildcards.analyze_wild(h13, (), (), range(34), wild_shapes(opts))
            assert (a.shanten, a.waits, a.useful_tiles) == (w.shanten, w.waits, w.useful_tiles), h13


def test_list_fans() -> None:
    fans_, minimum = api.list_fans("guangdong")
    assert minimum == 0 and {f.id for f in fans_} == {int(f) for f in Fan}


# --------------------------------------------------------------------------------------------- the interfaces


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}


