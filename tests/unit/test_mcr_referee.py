"""The MCR and two-player referees on hand-built logs: the competition rule's payments (WMO "Mahjong
Competition Rules" 2006, base 8: the discarder pays total + 8 and the others 8; self-drawn, each pays
total + 8; engine.rules.mcr.payments), flowers from FlowerTile events, the situation derived from the log,
a drawn game settling nothing, and the illegal events."""

from __future__ import annotations

import pytest

from engine.hand import Flower, MeldKind
from engine.rules.mcr import referee as mcr
from engine.rules.mcr2p import referee as mcr2p
from engine.rules.round import Claim, Deal, Discard, Draw, FlowerTile, IllegalEventError, WallEnd, Win
from engine.tiles import parse_tile, parse_tiles

T = parse_tile
# seat 1: 123m456m789m345s + 9p (a Pure Straight waiting on 9p)
HANDS = ("EEESSSWWWNNCF9p", "123m456m789m345s9p", "111p222p333p444p5p", "2468m2468s5m7mCFP")


def deal(*hands: str, dealer: int = 0) -> Deal:
    return Deal(tuple(tuple(parse_tiles(h)) for h in hands), dealer)


def test_discard_win_discarder_pays_total_plus_8_others_8() -> None:
    log = [deal(HANDS[0], "123m456m789m345s1s", HANDS[2], HANDS[3]), Discard(0, T("9p"))]
    # seat 1 holds 1s, not 9p: a win on 9p is refused, its hand does not win
    with pytest.raises(IllegalEventError, match="does not win"):
        mcr.settle(log + [Win(1, T("9p"), 0)])
    hands = (HANDS[0], "123m456m789m345s5p", HANDS[2], HANDS[3])
    log = [deal(*hands), Discard(0, T("9p")), Draw(1, T("6p")), Discard(1, T("6p")), Draw(2, T("8p")),
           Discard(2, T("8p")), Draw(3, T("9s")), Discard(3, T("9s")), Draw(0, T("5p")), Discard(0, T("5p"))]
    out = mcr.settle(log + [Win(1, T("5p"), 0)])
    total = out.wins[0].scoring.total
    assert total >= 8 and not out.wins[0].context.self_drawn
    assert out.net == (-(total + 8), total + 24, -8, -8)


def test_self_drawn_win_with_a_dealt_flower() -> None:
    # seat 1 was dealt the plum: it shows it and draws 5s before the dealer acts; then it draws 2s and wins
    log = [deal(HANDS[0], "123m456m789m345s", HANDS[2], HANDS[3]), FlowerTile(1, Flower.PLUM), Draw(1, T("5s")),
           Discard(0, T("F")), Draw(1, T("2s")), Win(1, T("2s"), None)]
    out = mcr.settle(log)
    w = out.wins[0]
    assert w.context.self_drawn and w.context.flowers == 1 and w.context.flower_tiles == (Flower.PLUM,)
    assert any(h.fan.name == "Flower Tiles" for h in w.scoring.fans)
    total = w.scoring.total
    assert out.net == (-(total + 8), 3 * (total + 8), -(total + 8), -(total + 8))


def test_flower_rules() -> None:
    short = [deal(HANDS[0], "123m456m789m345s", HANDS[2], HANDS[3])]
    with pytest.raises(IllegalEventError, match="more flower"):
        mcr.settle(short + [Discard(0, T("F"))])
    with pytest.raises(IllegalEventError, match="second time"):
        mcr.settle(short + [FlowerTile(1, Flower.PLUM), Draw(1, T("5s")), Discard(0, T("F")),
                            FlowerTile(1, Flower.PLUM)])
    with pytest.raises(IllegalEventError, match="plays no flowers"):
        mcr2p.settle([Deal((tuple(parse_tiles("123456789mEEESS")), tuple(parse_tiles("123456789mWWWN"))), 0),
                      FlowerTile(1, Flower.PLUM)])
    # a flower drawn in play: shown in place of the draw, the same seat draws again
    mcr.settle(short + [FlowerTile(1, Flower.PLUM), Draw(1, T("5s")), Discard(0, T("F")),
                        FlowerTile(1, Flower.SPRING), Draw(1, T("6s"))])


def test_claims() -> None:
    log = [deal(*HANDS), Discard(0, T("9p"))]
    with pytest.raises(IllegalEventError, match="only the next player may chow"):
        mcr.settle(log + [Claim(2, MeldKind.CHOW, T("9p"), 0, chow_first=T("7p"))])
    with pytest.raises(IllegalEventError, match="holds 0 7p"):
        mcr.settle(log + [Claim(1, MeldKind.CHOW, T("9p"), 0, chow_first=T("7p"))])
    with pytest.raises(IllegalEventError, match="holds 0 9p"):
        mcr.settle(log + [Claim(3, MeldKind.PUNG, T("9p"), 0)])
    with pytest.raises(IllegalEventError, match="own discard"):
        mcr.settle(log + [Claim(0, MeldKind.PUNG, T("9p"), 0)])


def test_drawn_game_settles_nothing() -> None:
    t = mcr.table()
    log = [deal(*HANDS), Discard(0, T("C"))]
    for ev in log:
        t.apply(ev)
    t.wall = 0  # the wall ran out with that discard
    t.apply(WallEnd())
    assert t.outcome().net == (0, 0, 0, 0) and t.outcome().complete
    with pytest.raises(IllegalEventError, match="not empty"):
        mcr.settle(log + [WallEnd()])


def test_two_player_table() -> None:
    # the non-dealer (West) self-draws a Pure Straight: the dealer pays total + 8
    log = [Deal((tuple(parse_tiles("EEESSSWWWNNCFP")), tuple(parse_tiles("123456789m345m5m"))), 0),
           Discard(0, T("P")), Draw(1, T("5m")), Win(1, T("5m"), None)]
    out = mcr2p.settle(log)
    total = out.wins[0].scoring.total
    assert out.net == (-(total + 8), total + 8) and total >= 8


def test_legal_after_a_discard_and_a_draw() -> None:
    hands = ("EEESSSWWWNNCF5p", "123m456m789m345s5p", "111p222p333p444p6p", "2468m2468s5m7mCFP")
    t = mcr.table()
    for ev in [deal(*hands), Discard(0, T("5p"))]:
        t.apply(ev)
    legal = t.legal()
    assert legal[1].win and legal[1].draw and not legal[1].pung  # seat 1 may win on 5p, or draw
    # seat 2 wins on it too (111p 222p 333p 44p + 456p), and holds 4p and 6p but may not chow: not next
    assert legal[2].win and legal[2].chows == () and not legal[2].draw
    t.apply(Draw(1, T("6p")))
    mine = t.legal()[1]
    assert mine.discards and not mine.self_win and mine.kongs == ()
    dealer_first = mcr.table()
    dealer_first.apply(deal(*hands))
    assert dealer_first.legal()[0].discards and not dealer_first.legal()[0].self_win
