"""The five Chinese referees on the one contract (engine.referee): a HandLog in, each seat's actions and a
Settlement out; seats are winds (East deals); an illegal event named by its index; what a Chinese rule set
does not read refused, never ignored. (Each table's rules: test_mcr_referee.py, test_gd_hk_referee.py,
test_sichuan_referee.py, and the Sichuan oracle test, which also settles every round through this contract.)"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import referee as r
from engine.errors import EngineError
from engine.hand import MeldKind, Suit, Wind
from engine.referee import ActionKind
from engine.tiles import parse_tile, parse_tiles

E, S, W, N = Wind
T = parse_tile


def deal(hands: dict[Wind, str]) -> r.Deal:
    return r.Deal(tuple(r.SeatTiles(seat, tuple(parse_tiles(h))) for seat, h in hands.items()))


# MCR: East throws 9p; each seat draws and throws what it drew; East's 5p: South wins (a Pure Straight),
# West could too.
MCR_HANDS = {E: "EEESSSWWWNNCF9p", S: "123m456m789m345s5p", W: "111p222p333p444p5p", N: "2468m2468s5m7mCFP"}


def mcr_log(win: bool = True) -> r.HandLog:
    events: list[r.HandEvent] = [deal(MCR_HANDS), r.Discard(E, T("9p"))]
    for seat, tile in ((S, "6p"), (W, "8p"), (N, "9s"), (E, "5p")):
        events += [r.Draw(seat, T(tile)), r.Discard(seat, T(tile))]
    if win:
        events.append(r.Win(S))
    return r.HandLog("mcr", tuple(events))


def kinds(seats: tuple[r.SeatActions, ...]) -> dict[Wind, list[ActionKind]]:
    return {s.seat: [a.kind for a in s.actions] for s in seats}


def test_mcr_hand_settles_by_the_competition_rule() -> None:
    out = r.settle(mcr_log())
    total = out.wins[0].best.total  # type: ignore[union-attr]
    assert [m.net for m in out.seats] == [-(total + 8), total + 24, -8, -8]
    assert {line.reason for line in out.lines} == {"WIN"} and {line.event_index for line in out.lines} == {10}
    assert not out.dealer_continues and out.pot == 0


def test_mcr_legal_at_each_point() -> None:
    log = mcr_log(win=False)
    after_deal = r.legal(replace(log, events=log.events[:1]))
    assert kinds(after_deal) == {E: [ActionKind.DISCARD] * 7}  # East's seven kinds
    before_win = r.legal(log)
    assert kinds(before_win) == {S: [ActionKind.WIN_DISCARD, ActionKind.PASS, ActionKind.DRAW],
                                 W: [ActionKind.WIN_DISCARD, ActionKind.PASS]}
    assert before_win[0].actions[0].tiles == (T("5p"),)
    assert r.legal(mcr_log()) == ()  # the hand is over


def test_an_illegal_event_is_named_by_its_index() -> None:
    log = mcr_log()
    bad = replace(log, events=(log.events[0], r.Discard(S, T("1m"))))
    with pytest.raises(r.IllegalEventError) as info:
        r.legal(bad)
    assert (info.value.code, info.value.field) == ("ILLEGAL_EVENT", "log.events[1]")
    with pytest.raises(r.BadLogError) as not_over:
        r.settle(mcr_log(win=False))
    assert not_over.value.field == "log.events"


@pytest.mark.parametrize("change, code, field", [
    (lambda lg: replace(lg, honba=1), "BAD_LOG", "log.honba"),
    (lambda lg: replace(lg, riichi_sticks=2), "BAD_LOG", "log.riichi_sticks"),
    (lambda lg: replace(lg, scores=(25000,) * 4), "BAD_LOG", "log.scores"),
    (lambda lg: replace(lg, events=(lg.events[0], r.Discard(E, T("9p"), red=True))), "ILLEGAL_EVENT", "log.events[1]"),
    (lambda lg: replace(lg, events=(lg.events[0], r.Discard(E, T("9p"), riichi=True))), "ILLEGAL_EVENT",
     "log.events[1]"),
    (lambda lg: replace(lg, events=(lg.events[0], r.DoraIndicator(T("1m")))), "ILLEGAL_EVENT", "log.events[1]"),
    (lambda lg: replace(lg, events=(lg.events[0], r.Kita(E))), "ILLEGAL_EVENT", "log.events[1]"),
    (lambda lg: replace(lg, events=(lg.events[0], r.DrawnGame(r.DrawnGameKind.FOUR_WINDS))), "ILLEGAL_EVENT",
     "log.events[1]"),
    (lambda lg: replace(lg, events=(*lg.events[:-1], r.Win(S, horses=(T("1m"),)))), "ILLEGAL_EVENT",
     "log.events[10]"),
    (lambda lg: replace(lg, events=(replace(lg.events[0], dora_indicators=(T("1m"),)),)), "ILLEGAL_EVENT",
     "log.events[0]"),
])
def test_what_a_chinese_table_does_not_read_is_refused(change: object, code: str, field: str) -> None:
    with pytest.raises(EngineError) as info:
        r.settle(change(mcr_log()))  # type: ignore[operator]
    assert (info.value.code, info.value.field) == (code, field)


def test_a_claim_names_the_open_discard() -> None:
    log = mcr_log(win=False)
    # South pungs East's 9p? It holds none: the claim is refused; a claim of another tile is refused too.
    with pytest.raises(r.IllegalEventError, match="of the discarded 9p"):
        r.legal(replace(log, events=(*log.events[:2], r.Claim(W, MeldKind.PUNG, (T("1p"),) * 3))))
    with pytest.raises(r.IllegalEventError):
        r.legal(replace(log, events=(*log.events[:2], r.Claim(S, MeldKind.PUNG, (T("9p"),) * 3))))


@pytest.mark.parametrize("rule_set, fan", [("hk", "天胡"), ("guangdong", "自摸")])
def test_a_dealt_win_and_the_dealer_deals_again(rule_set: str, fan: str) -> None:
    """East wins on its dealt 14 (Hong Kong scores it 天胡; Guangdong's table has no heavenly hand)."""
    hands = {E: "123m456m789mEEESS", S: "147m258p369sWNCF", W: "147p258s369mWNCP", N: "147s258m369pWNFP"}
    log = r.HandLog(rule_set, (deal(hands),))
    assert ActionKind.WIN_SELF_DRAWN in kinds(r.legal(log))[E]
    out = r.settle(replace(log, events=(*log.events, r.Win(E, self_drawn=True))))
    assert out.wins[0].is_win and out.seats[0].net > 0 and sum(m.net for m in out.seats) + out.pot == 0
    assert out.dealer_continues
    assert any(h.fan.name_zh == fan for h in out.wins[0].best.fans)  # type: ignore[union-attr]


def test_two_player_table_seats_east_and_west() -> None:
    hands = {E: "123456789mEEESS", W: "111222333mWWWN"}
    log = r.HandLog("mcr2p", (deal(hands),))
    assert set(kinds(r.legal(log))) == {E}
    with pytest.raises(r.IllegalEventError, match="South does not sit at this table"):
        r.legal(r.HandLog("mcr2p", (deal({E: hands[E], S: hands[W]}),)))


def test_sichuan_void_suits_one_seat_at_a_time() -> None:
    hands = {E: "123456789m12345p", S: "123456789p1234s", W: "123456789s1234m", N: "56789m56789p567s"}
    base = (deal(hands),)
    log = r.HandLog("sichuan", base)
    assert {s: set(k) for s, k in kinds(r.legal(log)).items()} == {w: {ActionKind.VOID_SUIT} for w in Wind}
    one = r.HandLog("sichuan", (*base, r.VoidSuit(E, Suit.DOTS, T("1p"))))
    assert set(kinds(r.legal(one))) == {S, W, N}
    with pytest.raises(r.IllegalEventError, match="twice"):
        r.legal(replace(one, events=(*one.events, r.VoidSuit(E, Suit.DOTS))))
    with pytest.raises(r.IllegalEventError, match="before the play"):
        r.legal(replace(one, events=(*one.events, r.Discard(E, T("1p")))))
    all_four = replace(one, events=(*one.events, r.VoidSuit(S, Suit.BAMBOO, T("1s")),
                                    r.VoidSuit(W, Suit.CHARACTERS, T("1m")), r.VoidSuit(N, Suit.BAMBOO, T("5s"))))
    assert kinds(r.legal(all_four)) == {E: [ActionKind.DISCARD]}  # the set-aside tile goes first
    with pytest.raises(r.IllegalEventError):
        r.legal(replace(all_four, events=(*all_four.events, r.Kita(E))))
