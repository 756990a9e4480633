"""Hong Kong options of the expert review (issue "Wrong answers and silent fields"): 包 (liability), seven pairs,
杠上杠 and the flower hands 七抢一 / 八仙过海, every payment worked out by hand.

Sources (facts only, nothing copied):
* 包: on a self-draw the liable player pays for everyone (bigproduction.com, Hong Kong Mah Jong "Points &
  Penalties": "that player then picks up the winning tile ... you pay for everyone"; the issue's common HK
  rule); alone on a discard by default (the proto's contract for HkOptions.liability), or shared equally with
  another discarder with liability_split (European Riichi Competition Rules 3.3.6, as ooyamaneko.net gives
  it). The situations are 大三元, 大四喜 and 十二张落地 (four exposed melds).
* Seven pairs: 4 faan in Kimeiga/hkos docs/scoring.md (GitHub, "Seven Pairs 4 fan") and in dbrudnicki's Hong
  Kong old-style notes (dbrudnicki/dbrudnicki.github.com README, "Seven Pairs 4"); 3 in Kimeiga/hkos
  docs/scoring_2.md's non-traditional hands. Off in the traditional table (the default).
* 杠上杠 (槓上槓自摸) 8 faan, 七抢一 (7 Flowers 花糊) 3 faan, 八仙过海 (8 Flowers) 8 faan: Kimeiga/hkos
  docs/scoring_2.md.
Points: half doubling (半辣上), engine.rules.hk.options.points_for: 3 faan 8, 6 faan 32, 8 faan 64, 9 faan 96,
10 faan 128, 13 faan 384.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import api
from engine.errors import BadContextError, BadOptionError, ContradictoryContextError
from engine.hand import ClaimedFrom, Flower, Meld, WinContext, Wind, kong, make_hand, pung, winning_hand
from engine.results import Evaluation, Scoring
from engine.rules.hk.fans import Fan
from engine.tiles import parse_tiles

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH
ALL_FLOWERS = tuple(Flower(n) for n in range(8))


def T(text: str) -> int:
    return parse_tiles(text)[0]


def evaluate(concealed: str, win: str, melds: tuple[Meld, ...] | dict[str, Any] = (),
             options: dict[str, Any] | None = None, **ctx: Any) -> Evaluation:
    """Evaluate under hk; the third argument is the melds, or the options when there are none."""
    if isinstance(melds, dict):
        melds, options = (), dict(melds)
    hand = winning_hand(parse_tiles(concealed), melds, T(win))
    return api.evaluate(hand, WinContext(**ctx), "hk", options)


def best(concealed: str, win: str, melds: tuple[Meld, ...] = (), options: dict[str, Any] | None = None,
         **ctx: Any) -> Scoring:
    ev = evaluate(concealed, win, melds, options, **ctx)
    assert ev.is_win and ev.best is not None
    return ev.best


def fans(s: Scoring) -> dict[Fan, int]:
    return {Fan(h.fan.id): h.points for h in s.fans}


def pays(s: Scoring) -> dict[Wind, int]:
    return {Wind(seat): amount for seat, amount in s.payments}


# 大三元: an exposed red pung (claimed from the left), concealed green and white pungs, 123m and a 5p pair
DRAGONS_MELD = (pung(T("C"), claimed_from=ClaimedFrom.LEFT),)
DRAGONS = "FFFPPP123m5p"


# ---------------------------------------------------------------------------------------------
# 包 (liability)


def test_liable_player_pays_all_three_shares_of_a_self_draw() -> None:
    """包自摸: South self-draws 大三元 8 + 自摸 1 + 无花 1 = 10 faan, 128 points, a self-draw share 256; North
    (across) let the third dragon set be completed and pays the three shares, 768."""
    s = best(DRAGONS, "5p", DRAGONS_MELD, seat_wind=S, self_drawn=True, liable=ClaimedFrom.ACROSS)
    assert fans(s) == {Fan.GREAT_DRAGONS: 8, Fan.SELF_DRAWN: 1, Fan.NO_FLOWERS: 1}
    assert s.total == 10 and s.points == 128
    assert pays(s) == {E: 0, S: 768, W: 0, N: -768}
    # nobody liable: each of the three pays 256
    plain = best(DRAGONS, "5p", DRAGONS_MELD, seat_wind=S, self_drawn=True)
    assert pays(plain) == {E: -256, S: 768, W: -256, N: -256}


def test_liable_player_pays_alone_on_another_players_discard() -> None:
    """West (right of South) discards the winning 5p; North is liable and pays what the discard costs, alone:
    大三元 8 + 无花 1 = 9 faan, 96 points; 2 + 1 + 1 shares = 384 (ALL_PAY: 3 shares, 288)."""
    s = best(DRAGONS, "5p", DRAGONS_MELD, seat_wind=S, discarded_by=ClaimedFrom.RIGHT, liable=ClaimedFrom.ACROSS)
    assert s.total == 9 and s.points == 96
    assert pays(s) == {E: 0, S: 384, W: 0, N: -384}
    s = best(DRAGONS, "5p", DRAGONS_MELD, options={"payment": 3}, seat_wind=S, discarded_by=ClaimedFrom.RIGHT,
             liable=ClaimedFrom.ACROSS)
    assert pays(s) == {E: 0, S: 288, W: 0, N: -288}


def test_liability_split_shares_another_players_discard() -> None:
    """liability_split (the equal share of the European Riichi Competition Rules 3.3.6, ooyamaneko.net): West
    discards, North is liable: 384 shared, 192 each; the liable player's own discard is still paid alone."""
    split = {"liability_split": True}
    s = best(DRAGONS, "5p", DRAGONS_MELD, split, seat_wind=S, discarded_by=ClaimedFrom.RIGHT,
             liable=ClaimedFrom.ACROSS)
    assert pays(s) == {E: 0, S: 384, W: -192, N: -192}
    s = best(DRAGONS, "5p", DRAGONS_MELD, split, seat_wind=S, discarded_by=ClaimedFrom.ACROSS,
             liable=ClaimedFrom.ACROSS)
    assert pays(s) == {E: 0, S: 384, W: 0, N: -384}
    # a self-draw is the liable player's alone whatever the option
    s = best(DRAGONS, "5p", DRAGONS_MELD, split, seat_wind=S, self_drawn=True, liable=ClaimedFrom.ACROSS)
    assert pays(s) == {E: 0, S: 768, W: 0, N: -768}


def test_liable_discarder_of_great_winds_pays_everything() -> None:
    """大四喜 is a limit hand (13 faan, 384 points); the liable East (right of North) discards the winning tile."""
    melds = (pung(T("N"), claimed_from=ClaimedFrom.RIGHT),)  # the fourth wind set, claimed from East
    s = best("EEESSSWWW5p", "5p", melds, seat_wind=N, discarded_by=ClaimedFrom.RIGHT, liable=ClaimedFrom.RIGHT)
    assert fans(s) == {Fan.GREAT_WINDS: 13} and s.points == 384
    assert pays(s) == {E: -1536, S: 0, W: 0, N: 1536}


def test_twelve_exposed_tiles_liability() -> None:
    """十二张落地: four exposed melds; East (left of South) fed the fourth and South self-draws the pair.
    对对胡 3 + 圈风 (East round) 1 + 自摸 1 + 无花 1 = 6 faan, 32 points, share 64: East pays 192."""
    melds = (pung(T("1m"), claimed_from=ClaimedFrom.ACROSS), pung(T("5p"), claimed_from=ClaimedFrom.RIGHT),
             pung(T("9s"), claimed_from=ClaimedFrom.ACROSS), pung(T("E"), claimed_from=ClaimedFrom.LEFT))
    s = best("7m", "7m", melds, seat_wind=S, self_drawn=True, liable=ClaimedFrom.LEFT)
    assert fans(s) == {Fan.ALL_PUNGS: 3, Fan.PREVALENT_WIND: 1, Fan.SELF_DRAWN: 1, Fan.NO_FLOWERS: 1}
    assert s.points == 32
    assert pays(s) == {E: -192, S: 192, W: 0, N: 0}


def test_liable_needs_a_liability_situation_and_the_option() -> None:
    # three exposed melds and no dragon or wind sets: nobody can be liable
    melds = (pung(T("1m"), claimed_from=ClaimedFrom.ACROSS), pung(T("5p"), claimed_from=ClaimedFrom.RIGHT),
             pung(T("9s"), claimed_from=ClaimedFrom.ACROSS))
    with pytest.raises(ContradictoryContextError) as err:
        evaluate("EEE7m", "7m", melds, seat_wind=S, self_drawn=True, liable=ClaimedFrom.LEFT)
    assert err.value.field == "liable"
    # a concealed kong is not exposed: four melds, three exposed, still no 十二张落地
    with pytest.raises(ContradictoryContextError):
        evaluate("7m", "7m", melds + (kong(T("E"), concealed=True),), seat_wind=S, self_drawn=True,
                 liable=ClaimedFrom.LEFT)
    with pytest.raises(BadContextError) as bad:
        evaluate(DRAGONS, "5p", DRAGONS_MELD, {"liability": False}, seat_wind=S, self_drawn=True,
                 liable=ClaimedFrom.ACROSS)
    assert bad.value.field == "liable"


# ---------------------------------------------------------------------------------------------
# Seven pairs


PAIRS = "1122m3344p5566sE"  # + E: seven different pairs


def test_seven_pairs_is_off_by_default_and_priced_by_the_option() -> None:
    assert not evaluate(PAIRS, "E", discarded_by=ClaimedFrom.LEFT).is_win
    s = best(PAIRS, "E", options={"seven_pairs_faan": 4}, discarded_by=ClaimedFrom.LEFT)
    # 七对 4 + 门前清 1 + 无花 1 = 6 faan, 32 points; the discarder (North, left of East) pays double
    assert fans(s) == {Fan.SEVEN_PAIRS: 4, Fan.CONCEALED_HAND: 1, Fan.NO_FLOWERS: 1}
    assert s.total == 6 and s.points == 32
    assert pays(s) == {E: 128, S: -32, W: -32, N: -64}
    # a four of a kind is not two pairs in Hong Kong
    assert not evaluate("1111m3344p5566sE", "E", {"seven_pairs_faan": 4}, discarded_by=ClaimedFrom.LEFT).is_win


def test_seven_pairs_analysis_follows_the_option() -> None:
    ready = make_hand(parse_tiles(PAIRS), (), None, sizes=(13,))  # waiting on E for seven pairs
    assert api.analyze(ready, (), "hk", {"seven_pairs_faan": 4}).shanten == 0
    assert api.analyze(ready, (), "hk").shanten > 0


def test_seven_pairs_faan_out_of_range() -> None:
    with pytest.raises(BadOptionError) as err:
        evaluate(PAIRS, "E", {"seven_pairs_faan": 14}, discarded_by=ClaimedFrom.LEFT)
    assert err.value.field == "options.hk.seven_pairs_faan"


# ---------------------------------------------------------------------------------------------
# 杠上杠


KONGS = (kong(T("5p"), concealed=True), kong(T("9s"), claimed_from=ClaimedFrom.LEFT))


def test_kong_on_kong_replaces_the_replacement_tile_fan() -> None:
    """Kimeiga/hkos: 槓上槓自摸 8. 杠上杠 8 + 自摸 1 + 无花 1 = 10 faan (杠上开花 not counted with it)."""
    ctx: dict[str, Any] = {"self_drawn": True, "replacement_tile": True}
    s = best("123m789m2s", "2s", KONGS, {"kong_on_kong_faan": 8}, kong_on_kong=True, **ctx)
    assert fans(s) == {Fan.KONG_ON_KONG: 8, Fan.SELF_DRAWN: 1, Fan.NO_FLOWERS: 1}
    assert s.total == 10 and pays(s) == {E: 768, S: -256, W: -256, N: -256}
    plain = best("123m789m2s", "2s", KONGS, **ctx)
    assert fans(plain) == {Fan.REPLACEMENT_TILE: 1, Fan.SELF_DRAWN: 1, Fan.NO_FLOWERS: 1}


def test_kong_on_kong_checks() -> None:
    ctx: dict[str, Any] = {"self_drawn": True, "replacement_tile": True, "kong_on_kong": True}
    with pytest.raises(BadContextError) as bad:  # not priced at this table: the fact is not read
        evaluate("123m789m2s", "2s", KONGS, **ctx)
    assert bad.value.field == "kong_on_kong"
    with pytest.raises(ContradictoryContextError) as err:  # one kong cannot be a kong on a kong
        evaluate("123m789m2s", "2s", (KONGS[0], pung(T("9s"))), {"kong_on_kong_faan": 8}, **ctx)
    assert err.value.field == "kong_on_kong"


# ---------------------------------------------------------------------------------------------
# 花胡: flower hands


LOOSE = "1357m1357p1357s9m"  # + 9p: no complete hand
FLOWER = {"flower_hand": True}


def test_eight_flowers_win_whatever_the_tiles() -> None:
    """八仙过海 8 faan (Kimeiga/hkos), 64 points; a self-draw: each of the three pays 128."""
    s = best(LOOSE, "9p", options=FLOWER, self_drawn=True, flower_tiles=ALL_FLOWERS, flower_win=True)
    assert fans(s) == {Fan.EIGHT_FLOWERS: 8} and s.meets_minimum
    assert s.points == 64 and pays(s) == {E: 384, S: -128, W: -128, N: -128}
    assert len(s.decomposition.knitted) == 14  # the tiles as held, not judged
    # the limit caps it: 13 faan asked, limit 10
    capped = best(LOOSE, "9p", options={**FLOWER, "eight_flowers_faan": 13, "limit": 10}, self_drawn=True,
                  flower_tiles=ALL_FLOWERS, flower_win=True)
    assert capped.total == 10
    # without flower_win the tiles are judged as ever: eight flowers are flower fans, and these tiles no win
    assert not evaluate(LOOSE, "9p", FLOWER, self_drawn=True, flower_tiles=ALL_FLOWERS).is_win


def test_seven_flowers_rob_the_eighth() -> None:
    """七抢一 3 faan (Kimeiga/hkos "7 Flowers (花糊) 3"), 8 points; the player who drew the eighth flower (left)
    pays as a discarder: 16, the other two 8 each."""
    seven = ALL_FLOWERS[:7]
    s = best(LOOSE, "9p", options=FLOWER, discarded_by=ClaimedFrom.LEFT, flower_tiles=seven, flower_win=True)
    assert fans(s) == {Fan.SEVEN_FLOWERS: 3} and s.points == 8
    assert pays(s) == {E: 32, S: -8, W: -8, N: -16}


def test_flower_win_checks() -> None:
    seven = ALL_FLOWERS[:7]
    with pytest.raises(BadContextError) as bad:  # 花胡 not played: the fact is not read
        evaluate(LOOSE, "9p", self_drawn=True, flower_tiles=ALL_FLOWERS, flower_win=True)
    assert bad.value.field == "flower_win"
    cases: tuple[dict[str, Any], ...] = (
        {"self_drawn": True, "flower_tiles": seven},  # seven flowers self-drawn: no flower hand
        {"discarded_by": ClaimedFrom.LEFT, "flower_tiles": ALL_FLOWERS},  # eight on a discard
        {"self_drawn": True, "flower_tiles": ALL_FLOWERS[:6]})
    for ctx in cases:
        with pytest.raises(ContradictoryContextError) as err:
            evaluate(LOOSE, "9p", FLOWER, flower_win=True, **ctx)
        assert err.value.field == "flower_win"


def test_a_complete_hand_with_eight_flowers_is_judged_on_its_tiles_without_flower_win() -> None:
    """Declining the flower hand and winning later (here on a discard, with all eight flowers): the tiles are
    scored, 混一色 3 + 箭刻 1 + 门前清 1 + two flower groups 4 = 9 faan."""
    s = best("123m456m11mSSSCC", "C", options=FLOWER, discarded_by=ClaimedFrom.LEFT, flower_tiles=ALL_FLOWERS)
    assert s.total == 9 and Fan.EIGHT_FLOWERS not in fans(s)


def test_wire_fields_reach_the_engine() -> None:
    """WinContext.liable (51), kong_on_kong (53), flower_win (54), HkOptions 7-13 pass through mjsvc.convert."""
    from mjsvc import convert
    from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

    ctx = convert.context_from_proto(pb.WinContext(liable=pb.CLAIMED_FROM_ACROSS, kong_on_kong=True, flower_win=True))
    assert ctx.liable == ClaimedFrom.ACROSS and ctx.kong_on_kong and ctx.flower_win
    opts = pb.RuleOptions(hk=pb.HkOptions(liability=False, flower_hand=True, seven_pairs_faan=4, kong_on_kong_faan=8,
                                          seven_flowers_faan=3, eight_flowers_faan=8, liability_split=True))
    assert convert.options_from_proto("hk", opts) == {"liability": False, "flower_hand": True, "seven_pairs_faan": 4,
                                                      "kong_on_kong_faan": 8, "seven_flowers_faan": 3,
                                                      "eight_flowers_faan": 8, "liability_split": True}


def test_service_answers_and_caches_by_liable() -> None:
    """Through the service in process: the same hand with and without 包 is two answers (the cache keys on
    context.liable), each with its own payments."""
    from mjsvc import convert
    from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
    from mjsvc.service import Service

    hand = pb.Hand(concealed=convert.tiles_to_proto(parse_tiles(DRAGONS)), winning_tile=convert.tiles_to_proto(
        [T("5p")])[0], melds=[pb.Meld(kind=pb.MELD_KIND_PUNG, tiles=convert.tiles_to_proto([T("C")] * 3),
                                      claimed_from=pb.CLAIMED_FROM_LEFT)])
    svc = Service()
    cases: tuple[tuple[Any, list[int]], ...] = ((pb.CLAIMED_FROM_ACROSS, [0, 768, 0, -768]),
                                                (pb.CLAIMED_FROM_UNSPECIFIED, [-256, 768, -256, -256]))
    for liable, expected in cases:
        ctx = pb.WinContext(self_drawn=True, seat_wind=pb.WIND_SOUTH, liable=liable)
        for _ in range(2):  # cold, then cached
            got = svc.evaluate(pb.EvaluateRequest(rule_set="hk", hand=hand, context=ctx))
            assert [p.amount for p in got.best.payments] == expected
