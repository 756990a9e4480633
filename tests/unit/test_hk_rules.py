"""The hk rule set by hand: every fan present and absent, every ruling that departs from hk-mahjong
(engine/rules/hk/__init__.py, numbered as there), the options, points, payments and context checks."""

from __future__ import annotations

import pytest

from engine import api
from engine.errors import BadContextError, BadOptionError, ContradictoryContextError
from engine.hand import ClaimedFrom, Flower, Meld, WinContext, Wind, chow, kong, pung, winning_hand
from engine.results import Scoring
from engine.rules.hk import RULE_SET
from engine.rules.hk.fans import TABLE, Fan
from engine.rules.hk.options import HkOptions, PaymentRule, PointsTable, payments, points_for
from engine.tiles import parse_tiles

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH


def T(text: str) -> int:
    return parse_tiles(text)[0]


def score(concealed: str, win: str, melds: tuple[Meld, ...] = (), options: dict | None = None, **ctx: object
          ) -> Scoring:
    ctx.setdefault("discarded_by", ClaimedFrom.NONE if ctx.get("self_drawn") else ClaimedFrom.LEFT)
    hand = winning_hand(parse_tiles(concealed), melds, T(win))
    ev = api.evaluate(hand, WinContext(**ctx), "hk", options)  # type: ignore[arg-type]
    assert ev.is_win and ev.best is not None
    return ev.best


def fans(s: Scoring) -> dict[Fan, int]:
    """{fan: faan it added} of a scoring."""
    return {Fan(h.fan.id): h.points for h in s.fans}


# A plain base: 123m 456p 789s chows, a 22s pair; the fourth set varies.
BASE = "123m456p789s22s"


# ---------------------------------------------------------------------------------------------
# 鸡胡, flowers and the minimum


def test_chicken_hand_scores_zero_and_needs_min_faan_zero() -> None:
    s = score("123m456p22s55p", "5p", melds=(pung(T("9m")),), flower_tiles=(Flower.AUTUMN,), flowers=1)
    assert fans(s) == {Fan.CHICKEN_HAND: 0}
    assert s.total == 0 and not s.meets_minimum
    s0 = score("123m456p22s55p", "5p", melds=(pung(T("9m")),), flower_tiles=(Flower.AUTUMN,), flowers=1,
               options={"min_faan": 0})
    assert s0.meets_minimum


def test_no_flowers_is_one_faan_outside_the_minimum() -> None:
    # 2 faan from the hand (门前清 + 箭刻) plus 无花: 3 in total, yet below the 3-faan minimum
    s = score("123m456p789s22sCC", "C")
    assert fans(s) == {Fan.NO_FLOWERS: 1, Fan.CONCEALED_HAND: 1, Fan.DRAGON_PUNG: 1}
    assert s.total == 3 and not s.meets_minimum
    # a game without flower tiles has no 无花
    assert Fan.NO_FLOWERS not in fans(score("123m456p789s22sCC", "C", options={"flowers": False}))


def test_seat_flowers_and_complete_groups() -> None:
    # South's flowers are orchid and summer (number 2 of each group)
    s = score(BASE + "CC", "C", seat_wind=S, flower_tiles=(Flower.ORCHID, Flower.SUMMER, Flower.PLUM), flowers=3)
    assert fans(s)[Fan.SEAT_FLOWER] == 2 and Fan.NO_FLOWERS not in fans(s)
    # all four seasons: 一台花 2 faan, and the seat's season inside it is not counted again; the seat's flower is
    group = (Flower.SPRING, Flower.SUMMER, Flower.AUTUMN, Flower.WINTER, Flower.ORCHID)
    s = score(BASE + "CC", "C", seat_wind=S, flower_tiles=group, flowers=5)
    assert fans(s)[Fan.FLOWER_SET] == 2 and fans(s)[Fan.SEAT_FLOWER] == 1
    s = score(BASE + "CC", "C", seat_wind=S, flower_tiles=tuple(Flower), flowers=8)
    assert fans(s)[Fan.FLOWER_SET] == 4 and Fan.SEAT_FLOWER not in fans(s)


# ---------------------------------------------------------------------------------------------
# The way of winning


def test_self_drawn_and_concealed_hand() -> None:
    assert {Fan.SELF_DRAWN, Fan.CONCEALED_HAND} <= set(fans(score(BASE + "CC", "C", self_drawn=True)))
    # a concealed kong keeps the hand concealed; a claimed pung does not
    s = score("123m456p789s2s", "2s", melds=(kong(T("C"), concealed=True),))
    assert Fan.CONCEALED_HAND in fans(s)
    s = score("123m456p789s2s", "2s", melds=(pung(T("C")),))
    assert Fan.CONCEALED_HAND not in fans(s)


def test_replacement_tile_counts_with_self_drawn() -> None:
    """Ruling 4: 杠上开花 1 + 自摸 1 (hk-mahjong: one 2-faan 'win by kong')."""
    s = score("123m456p789s2s", "2s", melds=(kong(T("C"), concealed=True),), self_drawn=True,
              replacement_tile=True)
    assert fans(s)[Fan.REPLACEMENT_TILE] == 1 and fans(s)[Fan.SELF_DRAWN] == 1


def test_robbing_a_kong_and_the_last_tile() -> None:
    assert Fan.ROBBING_KONG in fans(score("23m456p789s22sCCC", "1m", robbing_kong=True))
    # ruling 8: 海底捞月 on the last tile, drawn or discarded
    assert Fan.LAST_TILE in fans(score(BASE + "CC", "C", last_wall_tile=True, self_drawn=True))
    assert Fan.LAST_TILE in fans(score(BASE + "CC", "C", last_wall_tile=True))


# ---------------------------------------------------------------------------------------------
# Hand patterns


def test_all_chows() -> None:
    assert fans(score("123m456p789s345s2s", "2s"))[Fan.ALL_CHOWS] == 1
    assert Fan.ALL_CHOWS not in fans(score(BASE + "CC", "C"))


def test_all_pungs_one_suit_and_honours() -> None:
    s = score("111m555pEESS", "S", melds=(pung(T("7s")),))
    assert fans(s)[Fan.ALL_PUNGS] == 3 and Fan.MIXED_ONE_SUIT not in fans(s)
    s = score("123m456m11mSS", "S", melds=(pung(T("9m")),))
    assert fans(s)[Fan.MIXED_ONE_SUIT] == 3
    s = score("123m456m11m22m", "2m", melds=(pung(T("9m")),))
    assert fans(s)[Fan.ALL_ONE_SUIT] == 7 and Fan.MIXED_ONE_SUIT not in fans(s)


def test_dragon_and_wind_pungs() -> None:
    s = score("123m22sCCCPP", "P", melds=(pung(T("E")),), seat_wind=E, prevalent_wind=E)
    assert fans(s)[Fan.DRAGON_PUNG] == 2  # two dragon pungs, one faan each
    assert fans(s)[Fan.SEAT_WIND] == 1 and fans(s)[Fan.PREVALENT_WIND] == 1  # east-east: both
    s = score("123m22sCCCPP", "P", melds=(pung(T("E")),), seat_wind=S, prevalent_wind=W)
    assert Fan.SEAT_WIND not in fans(s) and Fan.PREVALENT_WIND not in fans(s)


def test_small_three_dragons_includes_its_dragon_pungs() -> None:
    s = score("123m456pCCCFFFP", "P")
    assert fans(s)[Fan.SMALL_DRAGONS] == 5 and Fan.DRAGON_PUNG not in fans(s)


def test_great_three_dragons_is_eight_faan() -> None:
    """Ruling 1: 大三元 8 faan (hk-mahjong: a limit hand)."""
    s = score("123m22pCCCFFFPP", "P")
    assert fans(s)[Fan.GREAT_DRAGONS] == 8 and Fan.DRAGON_PUNG not in fans(s)
    assert s.total == 8 + 1 + 1  # 无花, 门前清
    assert s.meets_minimum


def test_small_four_winds_is_ten_faan() -> None:
    """Ruling 1: 小四喜 10 faan (hk-mahjong: a limit hand); the wind pungs still score seat and round."""
    s = score("123pEEESSSWWWN", "N", seat_wind=S, prevalent_wind=E, options={"flowers": False})
    assert fans(s)[Fan.SMALL_WINDS] == 10
    assert fans(s)[Fan.SEAT_WIND] == 1 and fans(s)[Fan.PREVALENT_WIND] == 1
    assert s.total == 13  # 10 + 混一色 3 + 门风 1 + 圈风 1 + 门前清 1 = 16, capped at the limit (ruling 7)


def test_great_four_winds_is_a_limit_hand() -> None:
    s = score("EEESSSWWW2p", "2p", melds=(pung(T("N")),))
    assert fans(s) == {Fan.GREAT_WINDS: 13} and s.total == 13
    # with four concealed pungs as well: both limit fans are shown, the hand still scores the limit once
    s = score("EEESSSWWWNNN2p", "2p")
    assert fans(s) == {Fan.GREAT_WINDS: 13, Fan.FOUR_CONCEALED_PUNGS: 13} and s.total == 13


def test_all_honours_and_orphans_are_ten_faan() -> None:
    """Ruling 1: 字一色 and 清幺九 10 faan (hk-mahjong: limit hands)."""
    s = score("EEESSSWWWCCPP", "P", seat_wind=N, prevalent_wind=N, options={"flowers": False})
    assert fans(s) == {Fan.ALL_HONOURS: 10, Fan.DRAGON_PUNG: 1, Fan.CONCEALED_HAND: 1}
    s = score("111m999m111p99p11s", "9p", options={"flowers": False})
    assert fans(s) == {Fan.ORPHANS: 10, Fan.CONCEALED_HAND: 1}


def test_mixed_orphans_is_four_faan_with_its_all_pungs() -> None:
    """Ruling 2: 混幺九 4 faan including 对对胡 (hk-mahjong: 混幺 1 + 对对胡 3, the same total)."""
    s = score("111m999pEENN", "N", melds=(pung(T("C")),), options={"flowers": False}, seat_wind=S)
    assert fans(s) == {Fan.MIXED_ORPHANS: 4, Fan.DRAGON_PUNG: 1}


# ---------------------------------------------------------------------------------------------
# Limit hands


def test_thirteen_orphans() -> None:
    s = score("19m19p19sESWNCFP", "1m")
    assert fans(s) == {Fan.THIRTEEN_ORPHANS: 13}


def test_nine_gates_is_concealed() -> None:
    """Ruling 5: 九莲宝灯 is a limit hand and concealed."""
    assert fans(score("1112345678999m", "5m")) == {Fan.NINE_GATES: 13}
    s = score("1112345999m", "5m", melds=(chow(T("6m")),))
    assert Fan.NINE_GATES not in fans(s) and fans(s)[Fan.ALL_ONE_SUIT] == 7


def test_four_concealed_pungs() -> None:
    """Ruling 3: 四暗刻 with a concealed kong, and on a discard completing the pair (hk-mahjong: neither)."""
    assert fans(score("111m555p999sEEES", "S", self_drawn=True)) == {Fan.FOUR_CONCEALED_PUNGS: 13}
    assert fans(score("111m555p999sEEES", "S")) == {Fan.FOUR_CONCEALED_PUNGS: 13}  # the discard makes the pair
    assert fans(score("111m555p999sE", "E", melds=(kong(T("C"), concealed=True),), self_drawn=True)) == {
        Fan.FOUR_CONCEALED_PUNGS: 13}
    # a discard completing a pung leaves three concealed pungs: 对对胡, not a limit
    s = score("111m555p999sEESS", "S")
    assert Fan.FOUR_CONCEALED_PUNGS not in fans(s) and fans(s)[Fan.ALL_PUNGS] == 3
    # the same hand with a claimed pung
    s = score("111m555p99sSS", "9s", melds=(pung(T("E")),))
    assert Fan.FOUR_CONCEALED_PUNGS not in fans(s)


def test_all_kongs() -> None:
    melds = (kong(T("1m")), kong(T("5p"), concealed=True), kong(T("9s")), kong(T("E"), added=True))
    assert fans(score("S", "S", melds=melds)) == {Fan.ALL_KONGS: 13}


def test_heavenly_and_earthly_hands() -> None:
    assert fans(score(BASE + "CC", "C", self_drawn=True, heavenly=True, seat_wind=E)) == {Fan.HEAVENLY_HAND: 13}
    # ruling 6: 地胡 on the dealer's first discard, or on the first own draw
    assert fans(score(BASE + "CC", "C", earthly=True, seat_wind=S, discarded_by=ClaimedFrom.LEFT)) == {
        Fan.EARTHLY_HAND: 13}
    assert fans(score(BASE + "CC", "C", earthly=True, self_drawn=True, seat_wind=W)) == {Fan.EARTHLY_HAND: 13}


# ---------------------------------------------------------------------------------------------
# Options: limit, minimum, points, payments


@pytest.mark.parametrize("limit", [8, 10, 13])
def test_limit_option_caps_every_hand(limit: int) -> None:
    s = score("EEESSSWWW2p", "2p", melds=(pung(T("N")),), options={"limit": limit})
    assert s.total == limit and fans(s) == {Fan.GREAT_WINDS: limit}
    # 清一色 7 + 对对胡 3 + 门前清 1 + 自摸 1 + 无花 1 = 13 faan, capped
    s = score("111333555777m9m", "9m", self_drawn=True, options={"limit": limit})
    assert sum(h.points for h in s.fans) == 13 or Fan.FOUR_CONCEALED_PUNGS in fans(s)
    assert s.total == limit


def test_half_doubling_and_doubling_tables() -> None:
    half = [points_for(f, PointsTable.HALF_DOUBLING) for f in range(14)]
    assert half == [1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384]
    assert [points_for(f, PointsTable.DOUBLING) for f in range(14)] == [1 << f for f in range(14)]


def test_payments_discarder_pays_double() -> None:
    opts = HkOptions()
    # South wins 8 points on a discard by the player before them (East)
    assert payments(8, S, False, ClaimedFrom.LEFT, opts) == ((E, -16), (S, 32), (W, -8), (N, -8))
    # self-drawn: each of the three pays double
    assert payments(8, S, True, ClaimedFrom.NONE, opts) == ((E, -16), (S, 48), (W, -16), (N, -16))
    assert payments(8, S, True, ClaimedFrom.NONE, HkOptions(self_draw_double=False)) == (
        (E, -8), (S, 24), (W, -8), (N, -8))


def test_payments_discarder_pays_all_and_all_pay() -> None:
    pays_all = HkOptions(payment=PaymentRule.DISCARDER_PAYS_ALL)
    assert payments(8, N, False, ClaimedFrom.ACROSS, pays_all) == ((E, 0), (S, -32), (W, 0), (N, 32))
    all_pay = HkOptions(payment=PaymentRule.ALL_PAY)
    assert payments(8, N, False, ClaimedFrom.RIGHT, all_pay) == ((E, -8), (S, -8), (W, -8), (N, 24))
    # a discard naming no discarder: no payments
    assert payments(8, N, False, ClaimedFrom.NONE, all_pay) == ()


# ---------------------------------------------------------------------------------------------
# Checks


def test_bad_options_name_their_field() -> None:
    for opts, field in (({"min_faan": 2}, "options.hk.min_faan"), ({"limit": 12}, "options.hk.limit"),
                        ({"points_table": 7}, "options.hk.points_table"), ({"bogus": 1}, "options.hk.bogus")):
        with pytest.raises(BadOptionError) as err:
            score(BASE + "CC", "C", options=opts)
        assert err.value.field == field


def test_context_checks() -> None:
    with pytest.raises(BadContextError, match="flower_tiles"):
        score(BASE + "CC", "C", flowers=2)  # a count without the flowers
    with pytest.raises(BadContextError, match="twice"):
        score(BASE + "CC", "C", flowers=2, flower_tiles=(Flower.PLUM, Flower.PLUM))
    with pytest.raises(ContradictoryContextError, match="without flowers"):
        score(BASE + "CC", "C", flowers=1, flower_tiles=(Flower.PLUM,), options={"flowers": False})
    with pytest.raises(ContradictoryContextError, match="discarded"):
        score(BASE + "CC", "C", self_drawn=True, discarded_by=ClaimedFrom.LEFT)
    with pytest.raises(ContradictoryContextError, match="dealer"):
        score(BASE + "CC", "C", self_drawn=True, heavenly=True, seat_wind=S)
    with pytest.raises(ContradictoryContextError, match="dealer"):
        score(BASE + "CC", "C", earthly=True, seat_wind=E)
    with pytest.raises(ContradictoryContextError, match="declared"):
        score("123m456p789s2s", "2s", melds=(kong(T("C"), concealed=True),), self_drawn=True, heavenly=True)


def test_table_is_complete_and_flowers_number_seats() -> None:
    assert {int(r.id) for r in TABLE} == {int(f) for f in Fan}
    assert [f.seat for f in Flower] == [E, S, W, N, E, S, W, N]
    assert RULE_SET.name == "hk" and RULE_SET.minimum == 3


def test_scoring_carries_points_and_payments() -> None:
    # 混一色 3 + 箭刻 1 + 门前清 1 + 无花 1 = 6 faan: 32 points on the half-doubling table, 64 doubling
    s = score("123m456m11mSSSCC", "C", seat_wind=W, discarded_by=ClaimedFrom.ACROSS)
    assert s.total == 6 and s.points == 32
    assert s.payments == ((E, -64), (S, -32), (W, 128), (N, -32))
    s = score("123m456m11mSSSCC", "C", seat_wind=W, discarded_by=ClaimedFrom.ACROSS,
              options={"points_table": PointsTable.DOUBLING})
    assert s.points == 64
    # a hand below the minimum cannot be won: its value is said (无花 1 faan: 2 points), nobody pays
    s = score("123m456p22s55p", "5p", melds=(pung(T("9m")),))
    assert not s.meets_minimum and s.total == 1 and s.points == 2 and s.payments == ()
    # a discard without its discarder: no payments
    s = score("123m456m11mSSSCC", "C", discarded_by=ClaimedFrom.NONE)
    assert s.points == 32 and s.payments == ()


def test_nine_gates_tiles_with_a_declared_chow_are_not_nine_gates() -> None:
    """Ruling 5, the case the 10,000-case oracle run met: 111s 123s 456s declared, 7899s + 9s in hand."""
    s = score("7899s", "9s", melds=(chow(T("4s")), chow(T("1s")), pung(T("1s"))), seat_wind=S,
              flower_tiles=(Flower.SUMMER,), flowers=1)
    assert fans(s) == {Fan.ALL_ONE_SUIT: 7, Fan.SEAT_FLOWER: 1} and s.total == 8
