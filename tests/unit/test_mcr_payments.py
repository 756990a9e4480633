"""MCR flowers by `flower_tiles`, the base-8 payments, and the options over the wire (issue: "Wrong answers
and silent fields found by an expert review", MCR parts).

Sources: fan 81 Flower Tiles, one point per flower (the WMO's "Mahjong Competition Rules", 2006, fan list;
fans.py); the payments are the competition rule of the same book, "How to Add Points During
Competitions": on a discard the discarder pays the points + 8 and the other two 8 each; self-drawn, each of
the three pays the points + 8 (engine/rules/mcr/payments.py). The two-player table has no payment rule in
its seed (/work/shared/seeds 001, 二人麻将番型): the same base between its two players (mcr2p ruling 12).
"""

from __future__ import annotations

import pytest

from engine import api
from engine.errors import BadContextError, ContradictoryContextError
from engine.hand import ClaimedFrom, Flower, WinContext, Wind, winning_hand
from engine.rules.mcr import scoring
from engine.rules.mcr.fans import Fan as MCRFan
from engine.rules.mcr.payments import seat_of
from engine.tiles import parse_tile, parse_tiles
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service

# The README's hand: Mixed Straight 8, Seat Wind 2, Single Wait 1 and, self-drawn, Fully Concealed Hand 4
# (won on a discard: Concealed Hand 2): 15 self-drawn, 13 on a discard, before flowers.
HAND = winning_hand(parse_tiles("123m456p789s1sEEE"), (), parse_tile("1s"))
SELF_DRAWN = WinContext(self_drawn=True, seat_wind=Wind.EAST, prevalent_wind=Wind.SOUTH)


def T(text: str) -> list[str]:
    return [pb.Tile.Name(t + 1) for t in parse_tiles(text)]


def best(ctx: WinContext, rule_set: str = "mcr", hand: object = HAND):  # type: ignore[no-untyped-def]
    ev = api.evaluate(hand, ctx, rule_set)  # type: ignore[arg-type]
    assert ev.is_win and ev.best is not None
    return ev.best


def flower_fan(ctx: WinContext) -> int:
    return {f.fan.id: f.count for f in best(ctx).fans}.get(MCRFan.FLOWER_TILES, 0)


# ---------------------------------------------------------------- flowers

def test_flower_tiles_score_one_point_each() -> None:
    plain = best(SELF_DRAWN)
    assert plain.total == 15 and flower_fan(SELF_DRAWN) == 0
    by_tiles = WinContext(self_drawn=True, seat_wind=Wind.EAST, prevalent_wind=Wind.SOUTH,
                          flower_tiles=(Flower.PLUM, Flower.SPRING))
    assert flower_fan(by_tiles) == 2 and best(by_tiles).total == 17
    by_count = WinContext(self_drawn=True, seat_wind=Wind.EAST, prevalent_wind=Wind.SOUTH, flowers=2)
    both = WinContext(self_drawn=True, seat_wind=Wind.EAST, prevalent_wind=Wind.SOUTH, flowers=2,
                      flower_tiles=(Flower.PLUM, Flower.SPRING))
    assert best(by_count) == best(by_tiles) == best(both)
    # flowers never make the 8-point minimum (the minimum is judged without them)
    assert best(by_tiles).meets_minimum


def test_flowers_and_flower_tiles_must_agree() -> None:
    ctx = WinContext(self_drawn=True, flowers=3, flower_tiles=(Flower.PLUM, Flower.SPRING))
    with pytest.raises(BadContextError) as err:
        api.evaluate(HAND, ctx, "mcr")
    assert err.value.field == "flower_tiles" and "flowers" in str(err.value)


def test_flower_tiles_over_the_wire_and_the_service() -> None:
    req = pb.EvaluateRequest(
        hand=pb.Hand(concealed=T("123m456p789s1sEEE"), winning_tile="TILE_S1"),
        context=pb.WinContext(self_drawn=True, seat_wind=pb.WIND_EAST, prevalent_wind=pb.WIND_SOUTH,
                              flower_tiles=[pb.FLOWER_PLUM, pb.FLOWER_SPRING]))
    resp = Service(cache_size=0).evaluate(req)
    assert resp.best.total == 17
    assert [(f.id, f.count) for f in resp.best.fans if f.id == MCRFan.FLOWER_TILES] == [(81, 2)]
    assert [(p.seat_wind, p.amount) for p in resp.best.payments] == [
        (pb.WIND_EAST, 75), (pb.WIND_SOUTH, -25), (pb.WIND_WEST, -25), (pb.WIND_NORTH, -25)]
    req.context.flowers = 1
    with pytest.raises(BadContextError):
        Service(cache_size=0).evaluate(req)


# ---------------------------------------------------------------- payments

def test_self_drawn_each_pays_total_plus_8() -> None:
    paid = dict(best(SELF_DRAWN).payments)
    assert paid == {Wind.EAST: 3 * 23, Wind.SOUTH: -23, Wind.WEST: -23, Wind.NORTH: -23}
    south = WinContext(self_drawn=True, seat_wind=Wind.SOUTH, prevalent_wind=Wind.SOUTH, flowers=1)
    s = best(south)  # seat South: Seat Wind gone, the East pung scores Pung of Terminals or Honors instead
    assert dict(s.payments)[Wind.SOUTH] == 3 * (s.total + 8) and sum(dict(s.payments).values()) == 0


@pytest.mark.parametrize("discarded_by, discarder", [
    (ClaimedFrom.LEFT, Wind.NORTH), (ClaimedFrom.ACROSS, Wind.WEST), (ClaimedFrom.RIGHT, Wind.SOUTH)])
def test_a_discard_the_discarder_pays_total_plus_8_the_others_8(discarded_by: ClaimedFrom, discarder: Wind) -> None:
    ctx = WinContext(seat_wind=Wind.EAST, prevalent_wind=Wind.SOUTH, flowers=2, discarded_by=discarded_by)
    s = best(ctx)
    assert s.total == 15  # 13 + 2 flowers: flowers count in what is paid
    paid = dict(s.payments)
    assert paid[discarder] == -23 and paid[Wind.EAST] == 23 + 16
    assert sorted(v for w, v in paid.items() if w not in (discarder, Wind.EAST)) == [-8, -8]
    assert sum(paid.values()) == 0 and [w for w, _ in s.payments] == [0, 1, 2, 3]


def test_left_is_the_player_before_the_winner() -> None:
    assert seat_of(Wind.EAST, ClaimedFrom.LEFT) == Wind.NORTH
    assert seat_of(Wind.SOUTH, ClaimedFrom.LEFT) == Wind.EAST
    assert seat_of(Wind.NORTH, ClaimedFrom.RIGHT) == Wind.EAST
    assert seat_of(Wind.WEST, ClaimedFrom.ACROSS) == Wind.EAST


def test_the_scoring_pays_the_seat_seat_of_names() -> None:
    for winner in Wind:
        for claimed in (ClaimedFrom.LEFT, ClaimedFrom.ACROSS, ClaimedFrom.RIGHT):
            paid = dict(scoring.payments(20, winner, False, claimed))
            assert paid[seat_of(winner, claimed)] == -28 and paid[winner] == 44 and sum(paid.values()) == 0
        assert dict(scoring.payments(20, winner, True, ClaimedFrom.NONE))[winner] == 84


def test_robbing_a_kong_the_robbed_player_pays_as_discarder() -> None:
    hand = winning_hand(parse_tiles("23m456p789s11sEEE"), (), parse_tile("1m"))
    ctx = WinContext(robbing_kong=True, seat_wind=Wind.WEST, discarded_by=ClaimedFrom.ACROSS)
    s = best(ctx, hand=hand)
    assert dict(s.payments)[Wind.EAST] == -(s.total + 8)


def test_no_discarder_no_payments_and_contradictions() -> None:
    on_discard = WinContext(seat_wind=Wind.EAST, prevalent_wind=Wind.SOUTH)
    assert best(on_discard).payments == () and best(on_discard).total == 13
    with pytest.raises(ContradictoryContextError) as err:
        api.evaluate(HAND, WinContext(self_drawn=True, discarded_by=ClaimedFrom.LEFT), "mcr")
    assert err.value.field == "discarded_by"


def test_below_the_minimum_nobody_pays() -> None:
    # All Chows 2, No Honors... : 123m 456m 789p 234s + 55s pair on a discard is under 8 points
    hand = winning_hand(parse_tiles("123m456m789p234s5s"), (), parse_tile("5s"))
    s = best(WinContext(discarded_by=ClaimedFrom.LEFT, flowers=8), hand=hand)
    assert not s.meets_minimum and s.payments == ()


def test_two_player_table_the_other_player_pays_total_plus_8() -> None:
    hand = winning_hand(parse_tiles("123m456m789mNNN1m"), (), parse_tile("1m"))
    north = best(WinContext(seat_wind=Wind.NORTH, self_drawn=True), "mcr2p", hand)
    assert north.payments == ((Wind.EAST, -(north.total + 8)), (Wind.NORTH, north.total + 8))
    dealer = best(WinContext(seat_wind=Wind.EAST), "mcr2p", hand)
    assert dealer.payments == ((Wind.EAST, dealer.total + 8), (Wind.WEST, -(dealer.total + 8)))
    south = api.evaluate(hand, WinContext(seat_wind=Wind.EAST), "mcr2p", {"non_dealer_seat": "south"}).best
    assert south is not None and south.payments == ((Wind.EAST, south.total + 8), (Wind.SOUTH, -(south.total + 8)))


# ---------------------------------------------------------------- the option over the wire and the CLI

def test_convention_over_the_wire() -> None:
    opts = pb.RuleOptions(mcr=pb.McrOptions(convention=pb.MCR_CONVENTION_RULEBOOK))
    assert convert.options_from_proto("mcr", opts) == {"convention": 2}
    assert convert.options_from_proto("mcr", pb.RuleOptions(mcr=pb.McrOptions())) is None  # UNSPECIFIED
    green = pb.EvaluateRequest(
        hand=pb.Hand(concealed=T("234s234s666s888sF"), winning_tile=pb.TILE_GREEN),
        context=pb.WinContext(self_drawn=True))
    chinese = Service(cache_size=0).evaluate(green)
    green.options.CopyFrom(opts)
    rulebook = Service(cache_size=0).evaluate(green)
    assert rulebook.best.total == chinese.best.total + 6  # (d) Half Flush; (c) does not apply: a standard hand
    green.options.CopyFrom(pb.RuleOptions(mcr=pb.McrOptions(convention=pb.MCR_CONVENTION_CHINESE)))
    assert Service(cache_size=0).evaluate(green) == chinese


