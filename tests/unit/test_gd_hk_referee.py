"""The Guangdong 推倒胡 and Hong Kong referees on hand-built logs (the contract's HandLog, engine.referee).

Guangdong (engine/rules/guangdong/referee.py, sources there): kong money when the kong is made (S1
bangkaow.com: 直杠 "每家1倍, 均由点杠者出", 补杠 "每家出1倍"; S3 tsave.cn's 星辰广东麻将 page: 暗杠 2 from each,
点杠 3 from the feeder, 补杠 1 from each), 杠爆全包 and 抢杠全包 (S1), 跟庄 from the first discards, horses
from the Win event, a drawn game settling nothing (S1: 荒牌不结算), a discard win refused where only
self-draws win. Hong Kong: flowers from FlowerTile events and 包 derived from the claims."""

from __future__ import annotations

from dataclasses import replace

from referee_contract import E, N, S, T, W, deal, exhaust, illegal, log, net, reasons, then

from engine import referee as r
from engine.hand import Flower, MeldKind
from engine.rules.guangdong.options import GuangdongOptions
from engine.rules.hk.options import HkOptions


def fans(out: r.Settlement, i: int = 0) -> set[str]:
    return {h.fan.name_zh for h in out.wins[i].best.fans}  # type: ignore[union-attr]


# the dealer's 1111m, konged, and 9p on the replacement: 234m 567m 999p EE
BLOOM = deal(("1111m234m567m99pEE", "222p333p444p55p67p", "SSSWWWNNNCCCF", "123s456s789s11s55s"))
KONG = r.Kong(E, T("1m"))


def test_concealed_kong_and_kong_bloom() -> None:
    out = r.settle(log("guangdong", BLOOM, KONG, r.Draw(E, T("9p")), r.Win(E, self_drawn=True)))
    assert "杠上开花" in fans(out) and out.wins[0].best.points == 2  # type: ignore[union-attr]  # x2, the default
    # kong: 2 from each; the self-draw: 2 x points from each
    assert tuple(m.net for m in out.seats) == (6 + 3 * 4, -6, -6, -6)
    assert sorted(reasons(out, "KONG")) == [(S, E, 2), (W, E, 2), (N, E, 2)] and out.dealer_continues
    horses = r.settle(log("guangdong", BLOOM, KONG, r.Draw(E, T("9p")),
                          r.Win(E, self_drawn=True, horses=(T("5s"), T("2s")))))
    assert horses.wins[0].best.points == 2 * 2  # type: ignore[union-attr]  # one horse (5s) names the winner


def test_exposed_kong_fed_and_kong_burst_pays_all() -> None:
    hand = log("guangdong", deal(("1111m234m567m99pES", "SSS234p567p789p9s", "WWWNNNCCCFFPP", "123s456s11s55s789s")),
               r.Discard(E, T("S")), r.Claim(S, MeldKind.KONG, (T("S"),) * 4))
    out = r.settle(then(hand, r.Draw(S, T("9s")), r.Win(S, self_drawn=True)))
    assert reasons(out, "KONG") == [(E, S, 3)]  # 点杠: the feeder pays one per other player
    points = out.wins[0].best.points  # type: ignore[union-attr]
    assert "杠爆全包" in fans(out) and points == 2
    assert tuple(m.net for m in out.seats) == (-3 - 3 * 2 * points, 3 + 3 * 2 * points, 0, 0)  # 杠爆全包


def test_added_kong_robbed() -> None:
    hand = log("guangdong", deal(("1111m234m567m5pEES", "55pWWWNNN123s99s", "CCCFFFPP234m67m", "46p111s222s333s44s")),
               r.Discard(E, T("5p")), r.Claim(S, MeldKind.PUNG, (T("5p"),) * 3), r.Discard(S, T("3s")),
               r.Draw(W, T("9m")), r.Discard(W, T("9m")), r.Draw(N, T("8m")), r.Discard(N, T("8m")),
               r.Draw(E, T("7s")), r.Discard(E, T("7s")), r.Draw(S, T("5p")), r.Kong(S, T("5p"), added=True))
    out = r.settle(then(hand, r.Win(N)))
    assert sorted(reasons(out, "KONG")) == [(E, S, 1), (W, S, 1), (N, S, 1)]  # 补杠: one from each
    assert "抢杠胡" in fans(out)
    assert tuple(m.net for m in out.seats) == (0, -6, 0, 6)  # the money back; the robbed pays 3 x 2 x 1
    assert sorted(reasons(out, "KONG_REFUND")) == [(S, E, 1), (S, W, 1), (S, N, 1)]


def test_follow_dealer() -> None:
    events = (deal(("123m456m789m5s6sE11p", "234p567p888p999pE", "SSSWWWNNNCCCE", "FFFPPP345s789sE")),
              r.Discard(E, T("E")), r.Draw(S, T("1s")), r.Discard(S, T("E")), r.Draw(W, T("2s")), r.Discard(W, T("E")),
              r.Draw(N, T("9m")), r.Discard(N, T("E")), r.Draw(E, T("2s")), r.Discard(E, T("2s")), r.Draw(S, T("1s")),
              r.Win(S, self_drawn=True))
    hand = log("guangdong", *events)
    assert "跟庄" in fans(r.settle(hand))
    assert net(hand) == (-2 - 3, 6 + 1, -2 + 1, -2 + 1)
    assert net(replace(hand, options=GuangdongOptions(follow_dealer_points=0))) == (-2, 6, -2, -2)


def test_drawn_game_and_discard_wins() -> None:
    konged = log("guangdong", BLOOM, KONG, r.Draw(E, T("3s")), r.Discard(E, T("3s")))
    drawn = r.settle(exhaust(konged))
    assert tuple(m.net for m in drawn.seats) == (0, 0, 0, 0)  # 荒牌不结算: the kong money goes back
    assert sorted(reasons(drawn, "KONG_REFUND")) == [(E, S, 2), (E, W, 2), (E, N, 2)] and drawn.dealer_continues
    assert "cannot win so" in illegal(log("guangdong", BLOOM, KONG, r.Draw(E, T("7p")), r.Discard(E, T("7p")),
                                          r.Win(S)))
    assert "no chow" in illegal(log("guangdong", BLOOM, r.Discard(E, T("4m")),
                                    r.Claim(S, MeldKind.CHOW, (T("2m"), T("3m"), T("4m")))))


HK_DRAGONS = (deal(("1111m234m567mCFPS", "CCFFPP123p456p9s", "WWWNNN234s567s8s", "345p678p9p11p22pEE")),
              r.Discard(E, T("C")), r.Claim(S, MeldKind.PUNG, (T("C"),) * 3), r.Discard(S, T("9s")),
              r.Draw(W, T("7p")), r.Discard(W, T("7p")), r.Draw(N, T("8p")), r.Discard(N, T("8p")),
              r.Draw(E, T("2p")), r.Discard(E, T("F")), r.Claim(S, MeldKind.PUNG, (T("F"),) * 3), r.Discard(S, T("1p")),
              r.Draw(W, T("7p")), r.Discard(W, T("7p")), r.Draw(N, T("8p")), r.Discard(N, T("8p")),
              r.Draw(E, T("3p")), r.Discard(E, T("P")), r.Claim(S, MeldKind.PUNG, (T("P"),) * 3),
              r.Discard(S, T("6p")), r.Draw(W, T("5p")), r.Discard(W, T("5p")), r.Win(S))


def test_hk_liability_from_the_claims() -> None:
    # South holds CC FF PP and pungs the dealer's red, green and white: the third dragon set is fed by East,
    # who alone pays South's win on West's 5p (包, the option's default); without 包 the discarder pays
    out = r.settle(log("hk", *HK_DRAGONS))
    assert "大三元" in fans(out)
    nets = tuple(m.net for m in out.seats)
    assert nets[0] < 0 and nets[1] == -nets[0] and nets[2] == nets[3] == 0
    plain = net(log("hk", *HK_DRAGONS, options=HkOptions(liability=False)))
    assert plain[2] == 2 * plain[0] == 2 * plain[3] < 0 and sum(plain) == 0  # the discarder pays double


def test_hk_flowers_from_the_log() -> None:
    dealt = deal(("1111m234m567m99pES", "123p456p789p11p2p", "WWWNNNCCCFFPP", "123s456s789sSS56s"))
    assert "second time" in illegal(log("hk", dealt, r.FlowerTile(S, Flower.SUMMER), r.Draw(S, T("4p")),
                                        r.Discard(E, T("E")), r.FlowerTile(S, Flower.SUMMER)))
    good = log("hk", dealt, r.FlowerTile(S, Flower.SUMMER), r.Draw(S, T("4p")), r.Discard(E, T("E")),
               r.Draw(S, T("9s")), r.Discard(S, T("9s")), r.Draw(W, T("9s")), r.Discard(W, T("9s")),
               r.Draw(N, T("9s")), r.Discard(N, T("9s")), r.Draw(E, T("8s")), r.Discard(E, T("8s")),
               r.Draw(S, T("3p")), r.Win(S, self_drawn=True))
    out = r.settle(good)
    assert "正花" in fans(out) and "自摸" in fans(out) and "地胡" not in fans(out)  # summer: South's own flower
    nets = tuple(m.net for m in out.seats)
    assert nets[1] == -(nets[0] + nets[2] + nets[3]) > 0
    assert nets[0] == nets[2] == nets[3]  # a self-draw: each of the three pays the same
    assert not out.dealer_continues
