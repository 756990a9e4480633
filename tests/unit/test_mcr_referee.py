"""The MCR and two-player referees on hand-built logs (the contract's HandLog, engine.referee): the competition
rule's payments (WMO "Mahjong Competition Rules" 2006, base 8: the discarder pays total + 8 and the others 8;
self-drawn, each pays total + 8; engine.rules.mcr.payments), flowers from FlowerTile events, the situation
derived from the log, a drawn game settling nothing, and the illegal events."""

from __future__ import annotations

from referee_contract import E, N, S, T, W, actions, deal, exhaust, illegal, kinds, log, net, then

from engine import referee as r
from engine.hand import Flower, MeldKind
from engine.referee import ActionKind

# South: 123m456m789m345s + 9p (a Pure Straight waiting on 9p)
HANDS = ("EEESSSWWWNNCF9p", "123m456m789m345s9p", "111p222p333p444p5p", "2468m2468s5m7mCFP")


def fans(out: r.Settlement) -> set[str]:
    return {h.fan.name for h in out.wins[0].best.fans}  # type: ignore[union-attr]


def test_discard_win_discarder_pays_total_plus_8_others_8() -> None:
    wrong = log("mcr", deal((HANDS[0], "123m456m789m345s1s", HANDS[2], HANDS[3])), r.Discard(E, T("9p")))
    # South holds 1s, not 9p: a win on 9p is refused, its hand does not win
    assert "does not win" in illegal(then(wrong, r.Win(S)))
    hands = (HANDS[0], "123m456m789m345s5p", HANDS[2], HANDS[3])
    events: list[r.HandEvent] = [deal(hands), r.Discard(E, T("9p"))]
    for seat, tile in ((S, "6p"), (W, "8p"), (N, "9s"), (E, "5p")):
        events += [r.Draw(seat, T(tile)), r.Discard(seat, T(tile))]
    out = r.settle(log("mcr", *events, r.Win(S)))
    total = out.wins[0].best.total  # type: ignore[union-attr]
    assert total >= 8 and "Self-Drawn" not in fans(out)
    assert tuple(m.net for m in out.seats) == (-(total + 8), total + 24, -8, -8)
    assert {(m.reason, m.payee, m.event_index) for m in out.lines} == {("WIN", S, 10)}


def test_self_drawn_win_with_a_dealt_flower() -> None:
    # South was dealt the plum: it shows it and draws 5s before the dealer acts; then it draws 2s and wins
    hand = log("mcr", deal((HANDS[0], "123m456m789m345s", HANDS[2], HANDS[3])), r.FlowerTile(S, Flower.PLUM),
               r.Draw(S, T("5s")), r.Discard(E, T("F")), r.Draw(S, T("2s")), r.Win(S, self_drawn=True))
    out = r.settle(hand)
    assert "Flower Tiles" in fans(out)
    flower = next(h for h in out.wins[0].best.fans if h.fan.name == "Flower Tiles")  # type: ignore[union-attr]
    assert flower.points == 1  # one flower shown
    total = out.wins[0].best.total  # type: ignore[union-attr]
    assert net(hand) == (-(total + 8), 3 * (total + 8), -(total + 8), -(total + 8))


def test_flower_rules() -> None:
    short = log("mcr", deal((HANDS[0], "123m456m789m345s", HANDS[2], HANDS[3])))
    assert "more flower" in illegal(then(short, r.Discard(E, T("F"))))
    assert "second time" in illegal(then(short, r.FlowerTile(S, Flower.PLUM), r.Draw(S, T("5s")),
                                         r.Discard(E, T("F")), r.FlowerTile(S, Flower.PLUM)))
    two = log("mcr2p", deal({E: "123456789mEEESS", W: "123456789mWWWN"}), r.FlowerTile(W, Flower.PLUM))
    assert "plays no flowers" in illegal(two)
    # a flower drawn in play: shown in place of the draw, the same seat draws again
    played = then(short, r.FlowerTile(S, Flower.PLUM), r.Draw(S, T("5s")), r.Discard(E, T("F")),
                  r.FlowerTile(S, Flower.SPRING))
    assert kinds(r.legal(played)) == {S: [ActionKind.DRAW]}
    assert kinds(r.legal(then(played, r.Draw(S, T("6s")))))[S][-1] == ActionKind.DISCARD


def test_claims() -> None:
    hand = log("mcr", deal(HANDS), r.Discard(E, T("9p")))
    chow = (T("7p"), T("8p"), T("9p"))
    assert "only the next player may chow" in illegal(then(hand, r.Claim(W, MeldKind.CHOW, chow)))
    assert "holds 0 7p" in illegal(then(hand, r.Claim(S, MeldKind.CHOW, chow)))
    assert "holds 0 9p" in illegal(then(hand, r.Claim(N, MeldKind.PUNG, (T("9p"),) * 3)))
    assert "own discard" in illegal(then(hand, r.Claim(E, MeldKind.PUNG, (T("9p"),) * 3)))


def test_drawn_game_settles_nothing() -> None:
    hand = log("mcr", deal(HANDS), r.Discard(E, T("C")))
    assert "not empty" in illegal(then(hand, r.DrawnGame(r.DrawnGameKind.EXHAUSTIVE)))
    drawn = exhaust(hand)
    out = r.settle(drawn)
    assert net(drawn) == (0, 0, 0, 0) and out.lines == () and out.wins == () and not out.dealer_continues
    # no draw past the wall's end: the last discard is followed by the drawn game only
    last = kinds(r.legal(r.HandLog("mcr", drawn.events[:-1])))
    assert [k[-1] for k in last.values() if ActionKind.DRAWN_GAME in k] == [ActionKind.DRAWN_GAME]
    assert not any(ActionKind.DRAW in k for k in last.values())


def test_two_player_table() -> None:
    # the non-dealer (West) self-draws a Pure Straight: the dealer pays total + 8
    hand = log("mcr2p", deal({E: "EEESSSWWWNNCFP", W: "123456789m345m5m"}), r.Discard(E, T("P")),
               r.Draw(W, T("5m")), r.Win(W, self_drawn=True))
    out = r.settle(hand)
    total = out.wins[0].best.total  # type: ignore[union-attr]
    assert net(hand) == (-(total + 8), total + 8) and total >= 8
    assert [m.seat for m in out.seats] == [E, W]


def test_legal_after_a_discard_and_a_draw() -> None:
    hands = ("EEESSSWWWNNCF5p", "123m456m789m345s5p", "111p222p333p444p6p", "2468m2468s5m7mCFP")
    hand = log("mcr", deal(hands), r.Discard(E, T("5p")))
    legal = kinds(r.legal(hand))
    # South may win on 5p, or draw; West wins on it too (111p 222p 333p 44p + 456p), and holds 4p and 6p but
    # may not chow: not next
    assert legal[S] == [ActionKind.WIN_DISCARD, ActionKind.PASS, ActionKind.DRAW]
    assert legal[W] == [ActionKind.WIN_DISCARD, ActionKind.PASS] and N not in legal
    mine = r.legal(then(hand, r.Draw(S, T("6p"))))
    assert set(kinds(mine)[S]) == {ActionKind.DISCARD} and (T("6p"),) in actions(mine, S, ActionKind.DISCARD)
    dealer_first = r.legal(log("mcr", deal(hands)))
    assert set(kinds(dealer_first)[E]) == {ActionKind.DISCARD}
