"""The five Chinese referees on the one contract (engine.referee): a HandLog in, each seat's actions and a
Settlement out; seats are winds (East deals); an illegal event named by its index; what a Chinese rule set
does not read refused, never ignored. (Each table's rules: test_mcr_referee.py, test_gd_hk_referee.py,
test_sichuan_referee.py, and the Sichuan oracle test, which also settles every round through this contract.)"""

from __future__ import annotations

from dataclasses import replace

import pytest
import referee_contract as rc

from engine import referee as r
from engine.errors import EngineError
from engine.hand import Flower, MeldKind, Suit, Wind
from engine.referee import ActionKind
from engine.rules.mcr.options import McrOptions
from engine.rules.sichuan.options import SichuanOptions
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


# ---------------------------------------------------------------------------------------------
# Each of the five rule sets: a whole hand settled, Legal at several points, an illegal event named by its
# index, and what the rule set does not read refused (tests/support/referee_contract.py builds the logs)

SC_HANDS = ("1111m2345678m88p9p", "234p456p777p99p44m", "78p345m666m777m22m", "111p2p33p44p55p6p99m")
SC_START = (rc.deal(SC_HANDS), *(r.VoidSuit(w, Suit.BAMBOO) for w in Wind))


def whole(rule_set: str) -> r.HandLog:
    """A whole hand of the rule set, ended by a win (or, for Sichuan's bloody round, one win and the wall's end)."""
    if rule_set == "mcr":
        return mcr_log()
    if rule_set == "mcr2p":
        return rc.log("mcr2p", rc.deal({E: "EEESSSWWWNNCFP", W: "123456789m345m5m"}), r.Discard(E, T("P")),
                      r.Draw(W, T("5m")), r.Win(W, self_drawn=True))
    if rule_set == "hk":
        return rc.log("hk", rc.deal({E: "1111m234m567m99pES", S: "123p456p789p11p2p", W: "WWWNNNCCCFFPP",
                                     N: "123s456s789sSS56s"}),
                      r.FlowerTile(S, Flower.SUMMER), r.Draw(S, T("4p")), r.Discard(E, T("E")),
                      r.Draw(S, T("9s")), r.Discard(S, T("9s")), r.Draw(W, T("9s")), r.Discard(W, T("9s")),
                      r.Draw(N, T("9s")), r.Discard(N, T("9s")), r.Draw(E, T("8s")), r.Discard(E, T("8s")),
                      r.Draw(S, T("3p")), r.Win(S, self_drawn=True))
    if rule_set == "guangdong":
        # East throws South's wind, South konges it and wins on the replacement (杠爆: East pays all)
        return rc.log("guangdong", rc.deal({E: "1111m234m567m99pES", S: "SSS234p567p789p9s", W: "WWWNNNCCCFFPP",
                                            N: "123s456s11s55s789s"}),
                      r.Discard(E, T("S")), r.Claim(S, MeldKind.KONG, (T("S"),) * 4), r.Draw(S, T("9s")),
                      r.Win(S, self_drawn=True))
    assert rule_set == "sichuan"
    won = rc.log("sichuan", *SC_START, r.Discard(E, T("8m")), r.Draw(S, T("9p")), r.Win(S, self_drawn=True),
                 options=SichuanOptions(set_aside=False))
    return rc.exhaust(won)


RULE_SETS = ("mcr", "mcr2p", "hk", "guangdong", "sichuan")


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_a_whole_hand_settles(rule_set: str) -> None:
    out = r.settle(whole(rule_set))
    winner = next(e.seat for e in whole(rule_set).events if isinstance(e, r.Win))
    assert len(out.wins) == 1 and out.wins[0].is_win and out.wins[0].best is not None
    assert sum(m.net for m in out.seats) + out.pot == 0
    assert max(out.seats, key=lambda m: m.net).seat == winner
    assert out.lines and all(line.reason.isupper() for line in out.lines)
    assert {line.payee for line in out.lines if line.reason == "WIN"} == {winner}
    seats = [m.seat for m in out.seats]
    assert seats == ([E, W] if rule_set == "mcr2p" else list(Wind))
    assert r.legal(whole(rule_set)) == ()  # nothing more to do


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_legal_at_several_points(rule_set: str) -> None:
    hand = whole(rule_set)
    first = next(i for i, e in enumerate(hand.events) if isinstance(e, r.Discard))
    # the turn before the first discard: its seat discards; after it: the next seat draws, others may claim
    before = rc.kinds(r.legal(rc.upto(hand, first)))
    discarder = hand.events[first].seat  # type: ignore[union-attr]
    assert ActionKind.DISCARD in before[discarder] and set(before) == {discarder}
    after = r.legal(rc.upto(hand, first + 1))
    drawers = [s.seat for s in after if any(a.kind == ActionKind.DRAW for a in s.actions)]
    assert len(drawers) == 1 and drawers[0] != discarder
    assert all(s.seat != discarder for s in after)
    draw = next(i for i, e in enumerate(hand.events) if i > first and isinstance(e, r.Draw))
    assert hand.events[draw].seat == drawers[0]  # type: ignore[union-attr]
    won = next(i for i, e in enumerate(hand.events) if isinstance(e, r.Win))
    at_win = rc.kinds(r.legal(rc.upto(hand, won)))
    winner = hand.events[won].seat  # type: ignore[union-attr]
    self_drawn = hand.events[won].self_drawn  # type: ignore[union-attr]
    assert (ActionKind.WIN_SELF_DRAWN if self_drawn else ActionKind.WIN_DISCARD) in at_win[winner]


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_an_illegal_event_in_each_rule_set(rule_set: str) -> None:
    hand = whole(rule_set)
    first = next(i for i, e in enumerate(hand.events) if isinstance(e, r.Discard))
    discarder = hand.events[first].seat  # type: ignore[union-attr]
    other = next(s.seat for s in hand.events[0].hands if s.seat != discarder)  # type: ignore[union-attr]
    bad = rc.then(rc.upto(hand, first), r.Discard(other, T("1p")))
    rc.illegal(bad, first)
    # a draw of a tile the table does not play, after the first discard
    rc.illegal(rc.then(rc.upto(hand, first + 1), r.Draw(S if rule_set != "mcr2p" else W, 99)), first + 1)
    with pytest.raises(r.BadLogError) as info:
        r.settle(rc.upto(hand, first + 1))  # not ended
    assert (info.value.code, info.value.field) == ("BAD_LOG", "log.events")


UNREAD: list[tuple[str, object, str]] = [
    ("honba", lambda lg: replace(lg, honba=1), "log.honba"),
    ("riichi sticks", lambda lg: replace(lg, riichi_sticks=1), "log.riichi_sticks"),
    ("scores", lambda lg: replace(lg, scores=(25000,) * 4), "log.scores"),
    ("dora indicator", lambda lg: rc.then(rc.upto(lg, 1), r.DoraIndicator(T("1m"))), "log.events[1]"),
    ("dealt dora", lambda lg: replace(lg, events=(replace(lg.events[0], dora_indicators=(T("1m"),)),)),
     "log.events[0]"),
    ("red five dealt", lambda lg: replace(lg, events=(replace(lg.events[0], hands=(
        replace(lg.events[0].hands[0], red_fives=(T("5m"),)), *lg.events[0].hands[1:])),)), "log.events[0]"),
    ("kita", lambda lg: rc.then(rc.upto(lg, 1), r.Kita(E)), "log.events[1]"),
    ("abortive draw", lambda lg: rc.then(rc.upto(lg, 1), r.DrawnGame(r.DrawnGameKind.NINE_TERMINALS)),
     "log.events[1]"),
]


@pytest.mark.parametrize("rule_set", RULE_SETS)
@pytest.mark.parametrize("what, change, field", UNREAD, ids=[u[0] for u in UNREAD])
def test_each_rule_set_refuses_what_it_does_not_read(rule_set: str, what: str, change: object, field: str) -> None:
    with pytest.raises(EngineError) as info:
        r.settle(change(whole(rule_set)))  # type: ignore[operator]
    assert info.value.field == field, what
    assert info.value.code == ("BAD_LOG" if field.startswith("log.") and "[" not in field else "ILLEGAL_EVENT")
    assert "not read" in info.value.message or field.split(".")[-1].replace("_", " ") in info.value.message


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_riichi_and_red_fives_in_play_are_refused(rule_set: str) -> None:
    hand = whole(rule_set)
    first = next(i for i, e in enumerate(hand.events) if isinstance(e, r.Discard))
    d = hand.events[first]
    assert isinstance(d, r.Discard)
    for bad in (replace(d, riichi=True), replace(d, red=True)):
        msg = rc.illegal(rc.then(rc.upto(hand, first), bad), first)
        assert "riichi" in msg or "red five" in msg
    won = next(i for i, e in enumerate(hand.events) if isinstance(e, r.Win))
    w = hand.events[won]
    assert isinstance(w, r.Win)
    assert "ura-dora" in rc.illegal(rc.then(rc.upto(hand, won), replace(w, ura_dora_indicators=(T("1m"),))), won)
    if rule_set != "guangdong":
        assert "horse" in rc.illegal(rc.then(rc.upto(hand, won), replace(w, horses=(T("1m"),))), won)


def test_sichuan_has_no_prevalent_wind() -> None:
    with pytest.raises(r.BadLogError) as info:
        r.settle(replace(whole("sichuan"), prevalent_wind=Wind.SOUTH))
    assert info.value.field == "log.prevalent_wind"


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_options_of_another_rule_set_are_refused(rule_set: str) -> None:
    other = McrOptions() if rule_set != "mcr" else SichuanOptions()
    with pytest.raises(r.BadLogError) as info:
        r.legal(replace(whole(rule_set), options=other))
    assert (info.value.code, info.value.field) == ("BAD_LOG", "log.options")
