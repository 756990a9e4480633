"""The three-player Riichi referee (options.riichi.players = 3, sanma) on hand-built logs, from the rule text
(riichi.wiki "Sanma"; Mahjong Soul's sanma as riichienv plays it: tests/unit/test_riichi_referee_riichienv.py):
a North set aside (kita) with its replacement draw, a win on it that is no robbed kong, the furiten of
letting it go, kita ending the first go-around, no chow, no 2m-8m, no four riichi or four winds, riichi with
3 tiles left, noten payments of 2,000, a ron's honba at 200 a counter, nagashi mangan and pao paid as
self-draws with tsumo loss, and the logs three players cannot have."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import referee
from engine.hand import MeldKind, Wind
from engine.referee import (
    ActionKind,
    BadLogError,
    Claim,
    Deal,
    Discard,
    Draw,
    DrawnGame,
    DrawnGameKind,
    HandEvent,
    HandLog,
    IllegalEventError,
    Kita,
    SeatTiles,
    Win,
)
from engine.rules.riichi import referee as rref
from engine.rules.riichi.options import RiichiOptions
from engine.tiles import parse_tile, parse_tiles

E, S, W = Wind.EAST, Wind.SOUTH, Wind.WEST
SANMA = RiichiOptions(players=3)


def t(text: str) -> int:
    return parse_tile(text)


# East: 123p 456p 789s 1s 99m and a North (drawing 1s and setting the North aside leaves it ready on 1s / 9m);
# South: 789p 222s 333s 444s waiting on North alone (three concealed pungs); West: nine different terminals and
# honours (nine terminals on its first draw).
DEAL = Deal((SeatTiles(E, tuple(parse_tiles("123p456p789s1s99mN"))),
             SeatTiles(S, tuple(parse_tiles("789p222s333s444sN"))),
             SeatTiles(W, tuple(parse_tiles("19m19pEESSWWCCF")))), (t("P"),))


def log(*events: HandEvent, **kw: object) -> HandLog:
    return HandLog("riichi", (DEAL, *events), SANMA, **kw)  # type: ignore[arg-type]


def actions(lg: HandLog, seat: Wind) -> dict[ActionKind, list[tuple[int, ...]]]:
    out: dict[ActionKind, list[tuple[int, ...]]] = {}
    for s in referee.legal(lg):
        if s.seat == seat:
            for a in s.actions:
                out.setdefault(a.kind, []).append(a.tiles)
    return out


def illegal(lg: HandLog) -> IllegalEventError:
    with pytest.raises(IllegalEventError) as err:
        referee.legal(lg)
    assert err.value.code == "ILLEGAL_EVENT"
    return err.value


def fan_names(s: referee.Settlement) -> list[str]:
    best = s.wins[0].best
    assert best is not None
    return [h.fan.name for h in best.fans]


KITA = (Draw(E, t("1s")), Kita(E))


def test_a_north_set_aside_draws_a_replacement_and_a_win_on_it_is_rinshan() -> None:
    assert actions(log(Draw(E, t("1s"))), E)[ActionKind.KITA] == [(t("N"),)]
    # after the kita: South may win on the North, East draws its replacement
    assert [(s.seat, [a.kind for a in s.actions]) for s in referee.legal(log(*KITA))] == [
        (E, [ActionKind.DRAW]), (S, [ActionKind.WIN_DISCARD, ActionKind.PASS])]
    assert ActionKind.WIN_SELF_DRAWN in actions(log(*KITA, Draw(E, t("9m"))), E)
    s = referee.settle(log(*KITA, Draw(E, t("9m")), Win(E, self_drawn=True)))
    assert "After a Kong (rinshan kaihou)" in fan_names(s) and "North Dora (kita)" in fan_names(s)
    # 3 han 30 fu, the dealer's self-draw with tsumo loss: 2,000 from each of the two others
    assert [(m.seat, m.net) for m in s.seats] == [(E, 4000), (S, -2000), (W, -2000)]
    assert [(line.payer, line.reason, line.amount) for line in s.lines] == [(S, "WIN", 2000), (W, "WIN", 2000)]


def test_a_win_on_a_north_set_aside_is_no_robbed_kong_and_pays_200_a_counter() -> None:
    s = referee.settle(log(*KITA, Win(S), honba=2))
    assert fan_names(s) == ["Three Concealed Pungs (sanankou)"]  # no chankan
    # 2 han 50 fu, 3,200; two counters at 200 each from the seat that set the North aside
    assert [(m.seat, m.net) for m in s.seats] == [(E, -3600), (S, 3600), (W, 0)]
    assert [(line.reason, line.amount) for line in s.lines] == [("WIN", 3200), ("HONBA", 400)]
    assert s.dealer_continues is False and s.honba_next == 0


def test_letting_a_north_set_aside_go_is_temporary_furiten() -> None:
    table = rref.replay(log(*KITA, Draw(E, t("9m"))))
    assert table.seats[S].can_ron is False  # until South's own next discard
    table = rref.replay(log(*KITA, Draw(E, t("9m")), Discard(E, t("1s")), Draw(S, t("E")), Discard(S, t("E"))))
    assert table.seats[S].can_ron is True


def test_kita_ends_the_first_go_around() -> None:
    plain = (Draw(E, t("1s")), Discard(E, t("1s")), Draw(S, t("9s")), Discard(S, t("9s")), Draw(W, t("N")))
    assert ActionKind.NINE_TERMINALS in actions(log(*plain), W)
    after_kita = (*KITA, Draw(E, t("5p")), Discard(E, t("5p")), Draw(S, t("9s")), Discard(S, t("9s")),
                  Draw(W, t("N")))
    assert ActionKind.NINE_TERMINALS not in actions(log(*after_kita), W)
    err = illegal(log(*after_kita, DrawnGame(DrawnGameKind.NINE_TERMINALS)))
    assert err.index == len(after_kita) + 1


def test_kita_only_in_turn_after_a_draw_with_a_north_and_never_with_four_players() -> None:
    assert "may not set a North aside" in str(illegal(log(Draw(E, t("1s")), Kita(S))))
    assert "may not set a North aside" in str(illegal(log(Draw(E, t("1s")), Discard(E, t("N")), Draw(S, t("9s")),
                                                          Discard(S, t("N")), Draw(W, t("9s")), Kita(W))))
    # after a pung: no kita before the discard
    pung = (Draw(E, t("1s")), Discard(E, t("1s")), Draw(S, t("E")), Discard(S, t("E")),
            Claim(W, MeldKind.PUNG, (t("E"),) * 3))
    assert ActionKind.KITA not in actions(log(*pung), W)
    four = HandLog("riichi", (replace(DEAL, hands=(*DEAL.hands, SeatTiles(Wind.NORTH, tuple(parse_tiles(
        "1199s1199pEEWWC"))))), Draw(E, t("1s")), Kita(E)))
    assert "three players" in str(illegal(four))


def test_after_riichi_only_the_north_just_drawn_is_set_aside() -> None:
    # East draws a second North and declares riichi on 1s (ready on North / 9m), then draws the last North: it
    # may set that one aside
    riichi = (Draw(E, t("N")), Discard(E, t("1s"), riichi=True), Draw(S, t("9s")), Discard(S, t("9s")),
              Draw(W, t("9s")), Discard(W, t("9s")))
    assert ActionKind.KITA in actions(log(*riichi, Draw(E, t("N"))), E)
    # the North it holds is part of its wait: drawing another tile, it may not set that North aside
    assert ActionKind.KITA not in actions(log(*riichi, Draw(E, t("5p"))), E)
    assert "after riichi the North just drawn" in str(illegal(log(*riichi, Draw(E, t("5p")), Kita(E))))


def test_no_chow_and_no_2m_to_8m() -> None:
    chow = (Draw(E, t("1s")), Discard(E, t("7s")))
    assert ActionKind.CHOW not in actions(log(*chow), S)
    assert "may not chow" in str(illegal(log(*chow, Claim(S, MeldKind.CHOW, tuple(parse_tiles("789s"))))))
    err = illegal(log(Draw(E, t("5m"))))
    assert err.index == 1 and "no 2m-8m" in str(err)


def test_three_winds_and_three_riichi_do_not_abort() -> None:
    winds = (Draw(E, t("E")), Discard(E, t("E")), Draw(S, t("E")), Discard(S, t("E")), Draw(W, t("9s")),
             Discard(W, t("E")))
    assert ActionKind.DRAW in actions(log(*winds), E)
    assert "no four_winds" in str(illegal(log(*winds, DrawnGame(DrawnGameKind.FOUR_WINDS))))
    assert "no four_riichi" in str(illegal(log(*winds, DrawnGame(DrawnGameKind.FOUR_RIICHI))))


def test_riichi_needs_three_tiles_left_to_draw() -> None:
    table = rref.replay(log(Draw(E, t("1s")), Kita(E), Draw(E, t("5p"))))
    assert table.riichi_tiles(0)
    table.left = 3
    assert table.riichi_tiles(0)
    table.left = 2
    assert table.riichi_tiles(0) == []


def test_an_exhaustive_draw_pays_2000_shared() -> None:
    pytest.importorskip("riichienv")
    import riichienv_hands  # hands played toward a ready hand, so that drawn games have ready seats

    seen: set[int] = set()
    for seed in range(200):
        lg = riichienv_hands.play(seed).log
        if not isinstance(lg.events[-1], DrawnGame):
            continue
        s = referee.settle(lg)
        ready = sum(m.ready for m in s.seats)
        tenpai = [line for line in s.lines if line.reason == "TENPAI"]
        if any(line.reason == "NAGASHI_MANGAN" for line in s.lines) or ready in (0, 3):
            assert tenpai == []
            continue
        seen.add(ready)
        # one ready: 1,000 from each of the two others; two: 1,000 to each from the third
        assert all(line.amount == 1000 for line in tenpai) and len(tenpai) == 2
        assert {line.payee for line in tenpai} == {m.seat for m in s.seats if m.ready}
    assert seen == {1, 2}


def test_logs_three_players_cannot_have() -> None:
    with pytest.raises(BadLogError) as err:
        referee.legal(log(prevalent_wind=Wind.NORTH))
    assert err.value.field == "log.prevalent_wind"
    with pytest.raises(BadLogError) as err:
        referee.legal(log(scores=(35000,) * 4))
    assert err.value.field == "log.scores" and "East to West" in err.value.message
    with pytest.raises(BadLogError) as err:  # and four players four
        referee.legal(HandLog("riichi", (), scores=(25000,) * 3))
    assert err.value.field == "log.scores" and "East to North" in err.value.message
    four_hands = replace(DEAL, hands=(*DEAL.hands, SeatTiles(Wind.NORTH, tuple(parse_tiles("1199s1199pEEWWC")))))
    assert "East, South and West" in str(illegal(HandLog("riichi", (four_hands,), SANMA)))
    # an event of North, the seat three players do not have, is named (it was an IndexError: INTERNAL)
    N = Wind.NORTH
    for ev in (Kita(N), Draw(N, t("9s")), Discard(N, t("N")), Claim(N, MeldKind.PUNG, (t("N"),) * 3), Win(N)):
        for lg in (log(ev), log(Draw(E, t("1s")), ev), log(*KITA, ev)):
            for ask in (referee.legal, referee.settle):
                with pytest.raises(IllegalEventError) as bad:
                    ask(lg)
                assert bad.value.field == f"log.events[{len(lg.events) - 1}]"
                assert "North has no seat" in bad.value.message


def test_sanma_over_the_wire_and_as_json() -> None:
    from google.protobuf import json_format

    from engine import log_json
    from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
    from mjsvc.service import Service

    events = [pb.HandEvent(deal=pb.Deal(hands=[pb.SeatTiles(seat=int(h.seat) + 1, tiles=[k + 1 for k in h.tiles])
                                               for h in DEAL.hands], dora_indicators=[t("P") + 1])),
              pb.HandEvent(draw=pb.Draw(seat=pb.WIND_EAST, tile=t("1s") + 1)),
              pb.HandEvent(kita=pb.Kita(seat=pb.WIND_EAST))]
    options = pb.RuleOptions(riichi=pb.RiichiOptions(players=3))
    svc = Service(0)
    legal = svc.legal(pb.LegalRequest(log=pb.HandLog(rule_set="riichi", options=options, events=events)))
    assert [(s.seat, [a.kind for a in s.actions]) for s in legal.seats] == [
        (pb.WIND_EAST, [pb.ACTION_KIND_DRAW]), (pb.WIND_SOUTH, [pb.ACTION_KIND_WIN_DISCARD, pb.ACTION_KIND_PASS])]
    win = pb.HandEvent(win=pb.Win(seat=pb.WIND_SOUTH))
    settled = svc.settle(pb.SettleRequest(log=pb.HandLog(rule_set="riichi", options=options, events=[*events, win])))
    assert [m.net for m in settled.seats] == [-3200, 3200, 0]
    # `python -m engine settle` reads the same log as protobuf's JSON of it
    as_json = json_format.MessageToDict(pb.HandLog(rule_set="riichi", options=options, events=[*events, win]))
    del as_json["options"]  # the command line gives the options (--option players=3)
    lg = log_json.hand_log(as_json, SANMA)
    assert [m.net for m in referee.settle(lg).seats] == [-3200, 3200, 0]


def test_random_sanma_hands_play_out() -> None:
    import referee_play

    kinds = set()
    for seed in range(40):
        lg = referee_play.play("riichi", random.Random(seed).randrange(10**6), SANMA)
        s = referee.settle(lg)
        assert sum(m.net for m in s.seats) + s.pot == 0 and len(s.seats) == 3
        kinds |= {type(e).__name__ for e in lg.events}
    assert {"Kita", "Win", "DrawnGame"} <= kinds


def _nagashi_log(options: RiichiOptions) -> HandLog:
    """A whole sanma hand in which East (the dealer) discards only terminals and honours and nobody claims:
    East is dealt 13 terminals and honours and discards each tile it draws, all terminals and honours; South
    and West hold the other terminals and honours and discard the simples they draw. 55 draws, then the
    exhaustive draw."""
    orphans = [k for k in parse_tiles("19m19p19sESWNCFP") for _ in range(4)]
    simples = [k for k in parse_tiles("234678p234678s") for _ in range(4)]  # no fives: no red ones to name
    east = orphans[:13]  # 1m x4, 9m x4, 1p x4, 9p
    rest_orphans = orphans[13:]
    east_draws = rest_orphans[:19]
    south = rest_orphans[19:32]
    west = rest_orphans[32:38] + simples[:7]
    dora = simples[7]
    others = simples[8:8 + 36]
    deal = Deal((SeatTiles(E, tuple(east)), SeatTiles(S, tuple(south)), SeatTiles(W, tuple(west))), (dora,))
    events: list[HandEvent] = [deal]
    for turn in range(55):
        seat = (E, S, W)[turn % 3]
        tile = east_draws.pop() if seat == E else others.pop()
        events += [Draw(seat, tile), Discard(seat, tile)]
    events.append(DrawnGame(DrawnGameKind.EXHAUSTIVE))
    return HandLog("riichi", tuple(events), options)


def test_nagashi_mangan_is_paid_as_a_self_draw_with_tsumo_loss() -> None:
    lg = _nagashi_log(SANMA)
    s = referee.settle(lg)
    assert [(line.payer, line.payee, line.amount, line.reason) for line in s.lines] == [
        (S, E, 4000, "NAGASHI_MANGAN"), (W, E, 4000, "NAGASHI_MANGAN")]  # the dealer's mangan: 4,000 each
    assert s.dealer_continues == s.seats[0].ready and s.honba_next == 1
    split = referee.settle(_nagashi_log(RiichiOptions(players=3, tsumo_loss=False)))
    assert [line.amount for line in split.lines] == [6000, 6000]  # North's share split
    with pytest.raises(IllegalEventError):  # one more draw: the wall has 55
        referee.legal(replace(lg, events=(*lg.events[:-1], Draw(E, t("E")))))


def test_pao_on_a_self_draw_pays_what_the_two_payers_would() -> None:
    """South pungs red and green from East and white from West, then draws its big three dragons: West, who
    fed the last dragon set, pays the whole self-draw (the dealer's 16,000 and its own 8,000: tsumo loss)."""
    deal = Deal((SeatTiles(E, tuple(parse_tiles("19m19p19sESWNECF"))),
                 SeatTiles(S, tuple(parse_tiles("1m9m1p9p234sCCFFPP"))),
                 SeatTiles(W, tuple(parse_tiles("234678p23467s8sP")))), (t("9s"),))
    events = (Draw(E, t("4p")), Discard(E, t("C")), Claim(S, MeldKind.PUNG, (t("C"),) * 3), Discard(S, t("1m")),
              Draw(W, t("6p")), Discard(W, t("6p")),
              Draw(E, t("4s")), Discard(E, t("F")), Claim(S, MeldKind.PUNG, (t("F"),) * 3), Discard(S, t("9m")),
              Draw(W, t("7p")), Discard(W, t("P")), Claim(S, MeldKind.PUNG, (t("P"),) * 3), Discard(S, t("1p")),
              Draw(W, t("2p")), Discard(W, t("2p")), Draw(E, t("3p")), Discard(E, t("3p")), Draw(S, t("9p")),
              Win(S, self_drawn=True))
    s = referee.settle(HandLog("riichi", (deal, *events), SANMA))
    assert [(line.payer, line.amount, line.reason) for line in s.lines] == [(W, 24000, "PAO")]
    assert [(m.seat, m.net) for m in s.seats] == [(E, 0), (S, 24000), (W, -24000)]
