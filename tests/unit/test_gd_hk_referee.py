"""The Guangdong 推倒胡 and Hong Kong referees on hand-built logs.

Guangdong (engine/rules/guangdong/referee.py, sources there): kong money when the kong is made (S1
bangkaow.com: 直杠 "每家1倍, 均由点杠者出", 补杠 "每家出1倍"; S3 tsave.cn's 星辰广东麻将 page: 暗杠 2 from each,
点杠 3 from the feeder, 补杠 1 from each), 杠爆全包 and 抢杠全包 (S1), 跟庄 from the first discards, horses
from the Win event, a drawn game settling nothing (S1: 荒牌不结算), a discard win refused where only
self-draws win. Hong Kong: flowers from FlowerTile events and 包 derived from the claims."""

from __future__ import annotations

import pytest

from engine.hand import Flower, MeldKind
from engine.rules.guangdong import referee as gd
from engine.rules.guangdong.options import GuangdongOptions
from engine.rules.hk import referee as hk
from engine.rules.round import Claim, Deal, Discard, Draw, FlowerTile, IllegalEventError, Kong, WallEnd, Win
from engine.tiles import parse_tile, parse_tiles

T = parse_tile


def deal(*hands: str, dealer: int = 0) -> Deal:
    return Deal(tuple(tuple(parse_tiles(h)) for h in hands), dealer)


# the dealer's 1111m, konged, and 9p on the replacement: 234m 567m 999p EE
BLOOM = deal("1111m234m567m99pEE", "222p333p444p55p67p", "SSSWWWNNNCCCF", "123s456s789s11s55s")


def test_concealed_kong_and_kong_bloom() -> None:
    out = gd.settle([BLOOM, Kong(0, T("1m"), concealed=True), Draw(0, T("9p")), Win(0, T("9p"), None)])
    w = out.wins[0]
    assert w.context.replacement_tile and w.scoring.points == 2  # 杠上开花 x2 (the option's default)
    # kong: 2 from each; the self-draw: 2 x points from each
    assert out.net == (6 + 3 * 4, -6, -6, -6)
    horses = gd.settle([BLOOM, Kong(0, T("1m"), concealed=True), Draw(0, T("9p")),
                        Win(0, T("9p"), None, horses=(T("5s"), T("2s")))])
    assert horses.wins[0].scoring.points == 2 * 2  # one horse (5s) names the winner: x (1 + 1)


def test_exposed_kong_fed_and_kong_burst_pays_all() -> None:
    log = [deal("1111m234m567m99pES", "SSS234p567p789p9s", "WWWNNNCCCFFPP", "123s456s11s55s789s"),
           Discard(0, T("S")), Claim(1, MeldKind.KONG, T("S"), 0)]
    assert gd.settle(log).net == (-3, 3, 0, 0)  # 点杠: the feeder pays one per other player
    out = gd.settle(log + [Draw(1, T("9s")), Win(1, T("9s"), None)])
    points = out.wins[0].scoring.points
    assert out.wins[0].context.kong_fed_by != 0 and points == 2
    assert out.net == (-3 - 3 * 2 * points, 3 + 3 * 2 * points, 0, 0)  # 杠爆全包


def test_added_kong_robbed() -> None:
    log = [deal("1111m234m567m5pEES", "55pWWWNNN123s99s", "CCCFFFPP234m67m", "46p111s222s333s44s"),
           Discard(0, T("5p")), Claim(1, MeldKind.PUNG, T("5p"), 0), Discard(1, T("3s")),
           Draw(2, T("9m")), Discard(2, T("9m")), Draw(3, T("8m")), Discard(3, T("8m")),
           Draw(0, T("7s")), Discard(0, T("7s")), Draw(1, T("5p")), Kong(1, T("5p"), concealed=False)]
    assert gd.settle(log).net == (-1, 3, -1, -1)
    out = gd.settle(log + [Win(3, T("5p"), 1)])
    assert out.wins[0].context.robbing_kong
    assert out.net == (0, -6, 0, 6)  # the kong's money back; 抢杠全包: the robbed pays 3 x 2 x 1


def test_follow_dealer() -> None:
    log = [deal("123m456m789m5s6sE11p", "234p567p888p999pE", "SSSWWWNNNCCCE", "FFFPPP345s789sE"),
           Discard(0, T("E")), Draw(1, T("1s")), Discard(1, T("E")), Draw(2, T("2s")), Discard(2, T("E")),
           Draw(3, T("9m")), Discard(3, T("E")), Draw(0, T("2s")), Discard(0, T("2s")), Draw(1, T("1s")),
           Win(1, T("1s"), None)]
    out = gd.settle(log)
    assert out.wins[0].context.follow_dealer
    assert out.net == (-2 - 3, 6 + 1, -2 + 1, -2 + 1)
    off = gd.settle(log, GuangdongOptions(follow_dealer_points=0))
    assert off.net == (-2, 6, -2, -2)


def test_drawn_game_and_discard_wins() -> None:
    t = gd.table()
    for ev in [BLOOM, Kong(0, T("1m"), concealed=True), Draw(0, T("3s")), Discard(0, T("3s"))]:
        t.apply(ev)
    t.wall = 0
    t.apply(WallEnd())
    assert t.outcome().net == (0, 0, 0, 0)  # 荒牌不结算: the kong money goes back
    with pytest.raises(IllegalEventError, match="cannot win so"):
        gd.settle([BLOOM, Kong(0, T("1m"), concealed=True), Draw(0, T("7p")), Discard(0, T("7p")),
                   Win(1, T("7p"), 0)])
    with pytest.raises(IllegalEventError, match="no chow"):
        gd.settle([BLOOM, Discard(0, T("4m")), Claim(1, MeldKind.CHOW, T("4m"), 0, chow_first=T("2m"))])


def test_hk_liability_from_the_claims() -> None:
    # seat 1 holds CC FF PP and pungs the dealer's red, green and white: the third dragon set is fed by seat 0
    t = hk.table()
    for ev in [deal("1111m234m567mCFPS", "CCFFPP123p456p9s", "WWWNNN234s567s8s", "345p678p9p11p22pEE"),
               Discard(0, T("C")), Claim(1, MeldKind.PUNG, T("C"), 0), Discard(1, T("9s")),
               Draw(2, T("7p")), Discard(2, T("7p")), Draw(3, T("8p")), Discard(3, T("8p")),
               Draw(0, T("2p")), Discard(0, T("F")), Claim(1, MeldKind.PUNG, T("F"), 0), Discard(1, T("1p")),
               Draw(2, T("7p")), Discard(2, T("7p")), Draw(3, T("8p")), Discard(3, T("8p")),
               Draw(0, T("3p")), Discard(0, T("P")), Claim(1, MeldKind.PUNG, T("P"), 0)]:
        t.apply(ev)
    assert t.liable_seat(1) == 0  # 大三元包: the dealer discarded the third dragon
    assert t.liable_seat(2) is None


def test_hk_flowers_from_the_log() -> None:
    dealt = deal("1111m234m567m99pES", "123p456p789p11p2p", "WWWNNNCCCFFPP", "123s456s789sSS56s")
    with pytest.raises(IllegalEventError, match="second time"):
        hk.settle([dealt, FlowerTile(1, Flower.SUMMER), Draw(1, T("4p")), Discard(0, T("E")),
                   FlowerTile(1, Flower.SUMMER)])
    good = [dealt, FlowerTile(1, Flower.SUMMER), Draw(1, T("4p")), Discard(0, T("E")),
            Draw(1, T("9s")), Discard(1, T("9s")), Draw(2, T("9s")), Discard(2, T("9s")),
            Draw(3, T("9s")), Discard(3, T("9s")), Draw(0, T("8s")), Discard(0, T("8s")),
            Draw(1, T("3p")), Win(1, T("3p"), None)]
    out = hk.settle(good)
    ctx = out.wins[0].context
    assert ctx.flower_tiles == (Flower.SUMMER,) and ctx.flowers == 1 and ctx.self_drawn and not ctx.earthly
    assert out.net[1] == -(out.net[0] + out.net[2] + out.net[3]) > 0
    assert out.net[0] == out.net[2] == out.net[3]  # a self-draw: each of the three pays the same
