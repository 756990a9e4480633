"""Guangdong 推倒胡 room variants of the expert review: a robbed kong without 抢杠全包, fixed-value horses,
马跟杠, 节节高 and the big-hand multipliers, every payment worked out by hand.

S1: "广东麻将推倒胡的玩法和规则", bangkaow.com (2024-07): a robbed kong is scored as the winner's self-draw.
S3: guogeer/gofishing-game (GitHub), demo/mahjong/internal/guangdong.go (推倒胡) and chaoshan.go (潮汕), read for
    the rules they score: a horse hit is worth a fixed amount unless 马跟底分 makes it the hand's points; 马跟杠
    scores the winner's kongs again per horse (concealed 2, exposed or added 1); 节节高 adds one more base per
    consecutive dealer win; the 潮汕 table prices 对对胡, 清一色, 七对, 豪华七对 and 十三幺 over the plain win.
A self-draw costs each other player 2 x points; points = base x the multiple (Scoring.total).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import api
from engine.errors import BadContextError, BadOptionError
from engine.hand import ClaimedFrom, Meld, WinContext, Wind, kong, winning_hand
from engine.results import Scoring
from engine.rules.guangdong.fans import Fan
from engine.tiles import parse_tile, parse_tiles

PLAIN = "123m456p789s222sE"  # + E: four sets and a pair, no ghost
ROB = "13m456p789s222sEE"  # + 2m, a robbed kong's fourth copy
PAIRS = "1122m3344p5566sE"  # + E: seven pairs
HORSES = tuple(parse_tiles("1m5p"))  # two horses naming the winner (1 5 9: the winner's position)


def best(concealed: str, win: str, melds: tuple[Meld, ...] | dict[str, Any] = (),
         options: dict[str, Any] | None = None, **ctx: Any) -> Scoring:
    """Evaluate under guangdong (self-drawn unless robbing); the third argument is the melds, or the options."""
    if isinstance(melds, dict):
        melds, options = (), dict(melds)
    ctx.setdefault("self_drawn", not ctx.get("robbing_kong"))
    hand = winning_hand(parse_tiles(concealed), melds, parse_tile(win))
    ev = api.evaluate(hand, WinContext(**ctx), "guangdong", options)
    assert ev.is_win and ev.best is not None
    return ev.best


def pays(s: Scoring) -> dict[str, int]:
    return {Wind(seat).name[0]: amount for seat, amount in s.payments}


def fans(s: Scoring) -> dict[Fan, tuple[int, int]]:
    return {Fan(h.fan.id): (h.fan.points, h.count) for h in s.fans}


def test_robbed_kong_without_pays_all_is_a_self_draw_everyone_pays() -> None:
    """S1: 抢杠 is scored as the winner's self-draw. Without 抢杠全包 the robbed player (West, across) pays only
    its own share: 2 each (the old answer, the robbed player paying 1 as a discarder, was wrong)."""
    s = best(ROB, "2m", {"rob_kong_pays_all": False}, robbing_kong=True, discarded_by=ClaimedFrom.ACROSS)
    assert pays(s) == {"E": 6, "S": -2, "W": -2, "N": -2}
    full = best(ROB, "2m", robbing_kong=True, discarded_by=ClaimedFrom.ACROSS)
    assert pays(full) == {"E": 6, "S": 0, "W": -6, "N": 0}


def test_horses_follow_the_hand_by_default_or_count_a_fixed_value() -> None:
    """Seven pairs x2 with two horses: 马跟底分 (the default) 2 + 2 x 2 = 6; S3's fixed horse (horse_value 1)
    2 + 2 x 1 = 4; horse_value 3: 2 + 2 x 3 = 8. Each of three pays 2 x that."""
    s = best(PAIRS, "E", horse_tiles=HORSES)
    assert s.total == 6 and pays(s) == {"E": 36, "S": -12, "W": -12, "N": -12}
    s = best(PAIRS, "E", {"horse_value": 1}, horse_tiles=HORSES)
    assert s.total == 4 and fans(s)[Fan.HORSES] == (1, 2)
    assert pays(s) == {"E": 24, "S": -8, "W": -8, "N": -8}
    assert best(PAIRS, "E", {"horse_value": 3}, horse_tiles=HORSES).total == 8


def test_horses_on_kongs() -> None:
    """马跟杠 (S3): one horse hit and an exposed kong: 1 + 1 (the horse) + 1 x 1 (the kong) = 3; a concealed kong
    counts 2: 1 + 1 + 2 = 4. Without the option the kong adds nothing: 2."""
    exposed = (kong(parse_tile("9p"), claimed_from=ClaimedFrom.LEFT),)
    concealed = (kong(parse_tile("9p"), concealed=True),)
    one = (parse_tile("9m"),)
    s = best("123m456p789sE", "E", exposed, {"horse_kongs": True}, horse_tiles=one)
    assert s.total == 3 and fans(s)[Fan.HORSE_KONGS] == (1, 1)
    assert pays(s) == {"E": 18, "S": -6, "W": -6, "N": -6}
    assert best("123m456p789sE", "E", concealed, {"horse_kongs": True}, horse_tiles=one).total == 4
    assert best("123m456p789sE", "E", exposed, horse_tiles=one).total == 2
    # no horse hit: nothing to add
    assert best("123m456p789sE", "E", exposed, {"horse_kongs": True}).total == 1


def test_streak_adds_a_base_per_consecutive_win() -> None:
    """节节高 (S3): two consecutive dealer wins before this one, streak_value 1: 1 + 2 = 3, each pays 6."""
    s = best(PLAIN, "E", {"streak_value": 1}, streak=2)
    assert s.total == 3 and fans(s)[Fan.STREAK] == (1, 2)
    assert pays(s) == {"E": 18, "S": -6, "W": -6, "N": -6}
    assert best(PLAIN, "E", {"streak_value": 1}).total == 1
    with pytest.raises(BadContextError) as err:  # not played: the streak is not read
        best(PLAIN, "E", streak=2)
    assert err.value.field == "context.streak"
    with pytest.raises(BadContextError):
        best(PLAIN, "E", {"streak_value": 1}, streak=-1)


def test_big_hand_multipliers() -> None:
    """The room's multipliers (S3's 潮汕 table over a plain win of 2: 对对胡 x2, 清一色 x3, 豪华七对 x5, 十三幺
    x13); they multiply together and with 七对; default 1, nothing shown (as before)."""
    big = {"all_pungs_multiplier": 2, "one_suit_multiplier": 3, "luxury_seven_pairs_multiplier": 5,
           "thirteen_orphans_multiplier": 13}
    pungs = "111m555p999s222sE"
    assert best(pungs, "E").total == 1 and Fan.ALL_PUNGS not in fans(best(pungs, "E"))
    assert best(pungs, "E", big).total == 2
    assert best("123m456m789m111m5m", "5m", big).total == 3  # 清一色 only
    both = "111m333m555m777m9m"  # + 9m: 碰碰胡 and 清一色
    s = best(both, "9m", big)
    assert s.total == 6 and fans(s)[Fan.ALL_PUNGS] == (2, 1) and fans(s)[Fan.ONE_SUIT] == (3, 1)
    luxury = "1111m3344p5566sE"  # + E: seven pairs counting a four of a kind
    assert best(luxury, "E").total == 2  # 七对 x2 by default
    s = best(luxury, "E", big)
    assert s.total == 5 and Fan.SEVEN_PAIRS not in fans(s) and fans(s)[Fan.LUXURY_SEVEN_PAIRS] == (5, 1)
    assert best(PAIRS, "E", big).total == 2  # no four of a kind: plain 七对
    assert best("19m19p19sESWNCFP", "1m", big).total == 13


def test_one_suit_with_a_ghost_counts_what_it_stands_for() -> None:
    """A white-dragon ghost standing in for a character: the hand is 清一色 (x3), not 无鬼 (a ghost is held)."""
    s = best("123m456m789m111mP", "9m", {"ghosts": (parse_tile("P"),), "one_suit_multiplier": 3})
    assert s.total == 3 and Fan.NO_GHOSTS not in fans(s)


def test_variant_options_are_checked() -> None:
    for name, value in (("horse_value", 101), ("streak_value", -1), ("all_pungs_multiplier", 0),
                        ("luxury_seven_pairs_multiplier", 101)):
        with pytest.raises(BadOptionError) as err:
            best(PLAIN, "E", {name: value})
        assert err.value.field == f"options.guangdong.{name}"


def test_wire_fields_reach_the_engine() -> None:
    """WinContext.streak (52) and the GuangdongOptions 18-24 pass through mjsvc.convert unchanged."""
    from mjsvc import convert
    from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

    assert convert.context_from_proto(pb.WinContext(streak=3)).streak == 3
    opts = pb.RuleOptions(guangdong=pb.GuangdongOptions(horse_value=2, horse_kongs=True, streak_value=1,
                                                        all_pungs_multiplier=2, one_suit_multiplier=3,
                                                        luxury_seven_pairs_multiplier=5,
                                                        thirteen_orphans_multiplier=13))
    assert convert.options_from_proto("guangdong", opts) == {
        "horse_value": 2, "horse_kongs": True, "streak_value": 1, "all_pungs_multiplier": 2, "one_suit_multiplier": 3,
        "luxury_seven_pairs_multiplier": 5, "thirteen_orphans_multiplier": 13}
