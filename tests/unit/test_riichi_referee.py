"""The Riichi referee on hand-built logs: events the rules refuse (ILLEGAL_EVENT naming the event's index),
furiten, riichi, the money lines of a win, an exhaustive draw played out, double ron (tests/unit/
test_riichi_referee_oracle.py holds the majiang-core hands)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import referee
from engine.hand import FIVES, MeldKind, Wind
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
    Kong,
    SeatTiles,
    Win,
)
from engine.rules.riichi import referee as rref
from engine.rules.riichi.options import Renhou, RiichiOptions
from engine.tiles import parse_tile, parse_tiles

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH


def t(text: str) -> int:
    return parse_tile(text)


# South waits on 5s / 8s with pinfu (234m 567p 345s 99s 67s), West on green (seven pairs), North on 8s (seven
# pairs, all simples); East is ready on East / South; no red fives.
DEAL = Deal((SeatTiles(E, tuple(parse_tiles("123m456p789sEESS"))),
             SeatTiles(S, tuple(parse_tiles("234m567p345s99s67s"))),
             SeatTiles(W, tuple(parse_tiles("1199m1199pNNCCF"))),
             SeatTiles(N, tuple(parse_tiles("3344667788m22p8s")))), (t("P"),))


def log(*events: HandEvent, **kw: object) -> HandLog:
    return HandLog(rule_set="riichi", events=(DEAL, *events), **kw)  # type: ignore[arg-type]


def illegal(lg: HandLog) -> IllegalEventError:
    with pytest.raises(IllegalEventError) as err:
        referee.legal(lg)
    assert err.value.code == "ILLEGAL_EVENT"
    return err.value


def seat_actions(lg: HandLog, seat: Wind) -> set[ActionKind]:
    return {a.kind for s in referee.legal(lg) if s.seat == seat for a in s.actions}


def test_the_dealer_draws_first_and_a_wrong_seat_is_illegal() -> None:
    assert [(s.seat, [a.kind for a in s.actions]) for s in referee.legal(log())] == [(E, [ActionKind.DRAW])]
    err = illegal(log(Draw(S, t("N"))))
    assert err.index == 1 and err.field == "log.events[1]" and "EAST draws next" in str(err)


def test_a_discard_of_a_tile_not_held_is_illegal() -> None:
    err = illegal(log(Draw(E, t("N")), Discard(E, t("9m"))))
    assert err.index == 2 and "does not hold" in str(err)


def test_a_win_on_a_discard_is_settled_with_honba_and_sticks() -> None:
    lg = log(Draw(E, t("N")), Discard(E, t("8s")), honba=2, riichi_sticks=1, scores=(25000,) * 4)
    south = next(s for s in referee.legal(lg) if s.seat == S)
    assert ActionKind.WIN_DISCARD in {a.kind for a in south.actions} and not south.furiten
    s = referee.settle(replace(lg, events=(*lg.events, Win(S))))
    assert [(m.seat, m.net) for m in s.seats] == [(E, -1600), (S, 2600), (W, 0), (N, 0)]
    assert {(line.reason, line.payer, line.payee, line.amount, line.event_index) for line in s.lines} == {
        ("WIN", E, S, 1000, 3), ("HONBA", E, S, 600, 3), ("RIICHI_STICKS", S, None, -1000, 3)}
    assert s.pot == -1000 and sum(m.net for m in s.seats) + s.pot == 0
    assert (s.honba_next, s.riichi_sticks_next, s.dealer_continues) == (0, 0, False)
    assert len(s.wins) == 1 and s.wins[0].is_win and s.wins[0].best is not None and s.wins[0].best.points == 1000


def _south_discarded_5s() -> list[HandEvent]:
    return [Draw(E, t("N")), Discard(E, t("N")), Draw(S, t("5s")), Discard(S, t("5s")),
            Draw(W, t("2s")), Discard(W, t("2s")), Draw(N, t("1s")), Discard(N, t("1s")), Draw(E, t("3s"))]


def test_a_ron_in_furiten_on_its_own_discard_is_illegal() -> None:
    events = [*_south_discarded_5s(), Discard(E, t("8s"))]
    south = next(s for s in referee.legal(log(*events)) if s.seat == S)
    assert south.furiten and ActionKind.WIN_DISCARD not in {a.kind for a in south.actions}
    err = illegal(log(*events, Win(S)))
    assert err.index == len(events) + 1 and "furiten" in str(err)


def test_the_own_discard_ends_temporary_furiten() -> None:
    events = [Draw(E, t("N")), Discard(E, t("8s")), Draw(S, t("1s")), Discard(S, t("1s")),
              Draw(W, t("8s")), Discard(W, t("8s"))]
    assert ActionKind.WIN_DISCARD in seat_actions(log(*events), S)
    assert referee.settle(log(*events, Win(S))).wins[0].is_win


def test_temporary_furiten_refuses_the_ron_before_the_next_own_discard() -> None:
    # North discards 8s, South passes (East draws); East discards 5s: South may not ron
    events = [Draw(E, t("N")), Discard(E, t("N")), Draw(S, t("1p")), Discard(S, t("1p")),
              Draw(W, t("2s")), Discard(W, t("2s")), Draw(N, t("8s")), Discard(N, t("8s")),
              Draw(E, t("5s")), Discard(E, t("5s"))]
    south = next(s for s in referee.legal(log(*events)) if s.seat == S)
    assert south.furiten
    err = illegal(log(*events, Win(S)))
    assert err.index == len(events) + 1 and "furiten" in str(err)


def test_riichi_needs_1000_points_and_a_ready_hand() -> None:
    events = [Draw(E, t("N")), Discard(E, t("N")), Draw(S, t("E"))]
    assert seat_actions(log(*events, scores=(25000, 25000, 25000, 25000)), S) >= {ActionKind.RIICHI}
    assert ActionKind.RIICHI not in seat_actions(log(*events, scores=(25000, 900, 25000, 25000)), S)
    err = illegal(log(*events, Discard(S, t("E"), riichi=True), scores=(25000, 900, 25000, 25000)))
    assert err.index == 4 and "riichi" in str(err)
    err = illegal(log(*events, Discard(S, t("2m"), riichi=True)))  # not ready after it
    assert err.index == 4
    ok = log(*events, Discard(S, t("E"), riichi=True), Draw(W, t("2s")), scores=(25000,) * 4)
    assert referee.legal(ok)  # the stick goes down once the discard passes
    after = log(*events, Discard(S, t("E"), riichi=True), Draw(W, t("2s")), Discard(W, t("2s")), Draw(N, t("1s")),
                Discard(N, t("1s")), Draw(E, t("3s")), Discard(E, t("3s")), Draw(S, t("1p")))
    assert {a.tiles for s in referee.legal(after) if s.seat == S for a in s.actions
            if a.kind == ActionKind.DISCARD} == {(t("1p"),)}
    err = illegal(replace(after, events=(*after.events, Discard(S, t("2m")))))
    assert "only the tile drawn" in str(err)


def test_a_double_riichi_win_takes_its_stick_back_with_ippatsu() -> None:
    events = [Draw(E, t("N")), Discard(E, t("N")), Draw(S, t("E")), Discard(S, t("E"), riichi=True),
              Draw(W, t("8s"))]
    s = referee.settle(log(*events, Discard(W, t("8s")), Win(S), scores=(25000,) * 4))
    lines = {(line.reason, line.payer, line.amount) for line in s.lines}
    assert ("RIICHI_DEPOSIT", S, 1000) in lines and ("RIICHI_STICKS", S, -1000) in lines
    best = s.wins[0].best
    assert best is not None  # the first go-around: double riichi
    assert {h.fan.name.split(" (")[0] for h in best.fans} >= {"Double Riichi", "Ippatsu"}
    assert sum(m.net for m in s.seats) + s.pot == 0 and s.pot == 0


def test_a_win_on_the_riichi_discard_takes_no_stick() -> None:
    events = [Draw(E, t("N")), Discard(E, t("N")), Draw(S, t("F")), Discard(S, t("F"), riichi=True)]
    assert ActionKind.WIN_DISCARD in seat_actions(log(*events), W)
    s = referee.settle(log(*events, Win(W), riichi_sticks=1))
    assert not any(line.reason == "RIICHI_DEPOSIT" for line in s.lines)
    assert ("RIICHI_STICKS", W, -1000) in {(line.reason, line.payer, line.amount) for line in s.lines}
    assert (s.riichi_sticks_next, s.pot, s.seats[1].net) == (0, -1000, -s.wins[0].best.points)  # type: ignore[union-attr]


def test_claims_kuikae_and_a_claim_out_of_turn() -> None:
    events = [Draw(E, t("7p")), Discard(E, t("7p"))]
    # South (next after East) may chow 5-6-7p: it holds 5p 6p
    south = {a.tiles for s in referee.legal(log(*events)) if s.seat == S for a in s.actions
             if a.kind == ActionKind.CHOW}
    assert (t("5p"), t("6p"), t("7p")) in south
    err = illegal(log(*events, Claim(N, MeldKind.CHOW, (t("5p"), t("6p"), t("7p")))))
    assert err.index == 3
    called = log(*events, Claim(S, MeldKind.CHOW, (t("5p"), t("6p"), t("7p"))))
    discards = {a.tiles[0] for s in referee.legal(called) if s.seat == S for a in s.actions
                if a.kind == ActionKind.DISCARD}
    assert t("7p") not in discards and t("4p") not in discards and t("2m") in discards
    err = illegal(replace(called, events=(*called.events, Discard(S, t("7p")))))
    assert "kuikae" in str(err)


def test_settle_before_the_end_is_a_bad_log() -> None:
    with pytest.raises(BadLogError):
        referee.settle(log(Draw(E, t("N"))))


def test_the_dealer_may_be_dealt_fourteen() -> None:
    dealt = replace(DEAL, hands=(SeatTiles(E, tuple(parse_tiles("123m456p789sEESSN"))), *DEAL.hands[1:]))
    lg = HandLog(rule_set="riichi", events=(dealt,))
    east = referee.legal(lg)
    assert len(east) == 1 and east[0].seat == E and ActionKind.DISCARD in {a.kind for a in east[0].actions}
    lg = HandLog(rule_set="riichi", events=(dealt, Discard(E, t("N")), Draw(S, t("N"))))
    assert referee.legal(lg)[0].seat == S


def _playout(seed: int) -> HandLog:
    """A whole hand of draws and discards of the drawn tile to the wall's end; South is dealt a ready hand."""
    south = parse_tiles("234m567p345s99s67s")
    tiles = [k for k in range(34) for _ in range(4)]
    for k in south:
        tiles.remove(k)
    rng = random.Random(seed)
    rng.shuffle(tiles)
    dealt = [tiles[0:13], south, tiles[13:26], tiles[26:39]]
    dora = tiles[39]
    wall = tiles[40:40 + rref.LIVE_WALL]
    red = set(FIVES)  # the first five of each suit dealt or drawn is the red one
    dealt_reds = []
    for s in range(4):
        dealt_reds.append(tuple(f for f in sorted(red & set(dealt[s]))))
        red -= set(dealt[s])
    hands = tuple(SeatTiles(Wind(s), tuple(dealt[s]), dealt_reds[s]) for s in range(4))
    events: list[HandEvent] = [Deal(hands, (dora,))]
    for i, tile in enumerate(wall):
        seat = Wind(i % 4)
        is_red = tile in red
        red.discard(tile)
        events += [Draw(seat, tile, is_red), Discard(seat, tile, is_red)]
    return HandLog(rule_set="riichi", events=tuple(events), honba=1, riichi_sticks=2)


@pytest.mark.parametrize("seed", range(6))
def test_an_exhaustive_draw_pays_noten_and_keeps_the_sticks(seed: int) -> None:
    lg = _playout(seed)
    last = referee.legal(lg)
    assert {a.kind for s in last for a in s.actions} & {ActionKind.DRAWN_GAME}
    err = illegal(replace(lg, events=(*lg.events, Draw(Wind.EAST, 0))))
    assert err.index == len(lg.events)
    s = referee.settle(replace(lg, events=(*lg.events, DrawnGame(DrawnGameKind.EXHAUSTIVE))))
    ready = [m.ready for m in s.seats]
    n = sum(ready)
    assert ready[1]
    nets = [m.net for m in s.seats]
    if any(line.reason == "NAGASHI_MANGAN" for line in s.lines):
        return
    if 0 < n < 4:
        assert all(net == (3000 // n if r else -3000 // (4 - n)) for net, r in zip(nets, ready, strict=True))
    else:
        assert nets == [0, 0, 0, 0]
    assert (s.honba_next, s.riichi_sticks_next, s.dealer_continues, s.pot) == (2, 2, ready[0], 0)


def test_an_abortive_draw_needs_its_condition() -> None:
    err = illegal(log(Draw(E, t("N")), Discard(E, t("N")), DrawnGame(DrawnGameKind.FOUR_WINDS)))
    assert err.index == 3
    err = illegal(log(Draw(E, t("N")), DrawnGame(DrawnGameKind.NINE_TERMINALS)))
    assert err.index == 2
    four = log(Draw(E, t("W")), Discard(E, t("W")), Draw(S, t("W")), Discard(S, t("W")), Draw(W, t("W")),
               Discard(W, t("W")), Draw(N, t("W")))
    assert ActionKind.DRAW not in {a.kind for x in referee.legal(replace(four, events=(*four.events, Discard(
        N, t("W"))))) for a in x.actions}
    four = replace(four, events=(*four.events, Discard(N, t("W"))))
    s = referee.settle(replace(four, events=(*four.events, DrawnGame(DrawnGameKind.FOUR_WINDS))))
    assert (s.dealer_continues, s.honba_next, [m.net for m in s.seats]) == (True, 1, [0, 0, 0, 0])


def test_double_ron_pays_honba_and_sticks_to_the_first_in_turn() -> None:
    events = [Draw(E, t("N")), Discard(E, t("8s"))]
    assert {x.seat for x in referee.legal(log(*events)) for a in x.actions if a.kind == ActionKind.WIN_DISCARD} == {
        S, N}
    one = log(*events, Win(S), honba=1, riichi_sticks=1)
    assert [(x.seat, [a.kind for a in x.actions]) for x in referee.legal(one)] == [
        (N, [ActionKind.WIN_DISCARD, ActionKind.PASS])]
    s = referee.settle(replace(one, events=(*one.events, Win(N))))
    north = s.wins[1].best.points  # type: ignore[union-attr]
    assert [m.net for m in s.seats] == [-(1000 + 300 + north), 1000 + 300 + 1000, 0, north]
    assert (s.honba_next, s.riichi_sticks_next, s.dealer_continues) == (0, 0, False)
    err = illegal(log(*events, Win(N), Win(S)))
    assert err.index == 4 and "turn order" in str(err)


def test_a_tile_out_of_range_is_a_bad_log_and_other_rule_sets_events_are_illegal() -> None:
    with pytest.raises(BadLogError) as err:
        referee.legal(log(Draw(E, 40)))
    assert err.value.field == "log.events[1].tile"
    err2 = illegal(log(Draw(E, t("N")), referee.Kita(E)))
    assert err2.index == 2
    err2 = illegal(log(Draw(E, t("N")), Discard(E, t("8s")), Win(S, horses=(t("1m"),))))
    assert err2.index == 3


@pytest.mark.parametrize("name", ["honba", "riichi_sticks"])
def test_counters_outside_a_win_contexts_range_are_a_bad_log(name: str) -> None:
    """A hand's counters are read as a win's context reads them (0..100): 2**31 - 1 made the next hand's
    counter overflow the answer's int32 (an INTERNAL error over the wire)."""
    ended = (Draw(E, t("N")), Discard(E, t("8s")), Win(S))
    for count in (101, 2**31 - 1):
        for lg in (log(**{name: count}), log(*ended, **{name: count})):
            for ask in (referee.legal, referee.settle):
                with pytest.raises(BadLogError) as err:
                    ask(lg)
                assert err.value.field == f"log.{name}" and "0..100" in err.value.message
    assert referee.settle(log(*ended, **{name: 100})).seats  # the bound itself is played


def test_the_round_options() -> None:
    # swap_calling: the called tile may go straight back
    events = (Draw(E, t("7p")), Discard(E, t("7p")), Claim(S, MeldKind.CHOW, (t("5p"), t("6p"), t("7p"))))
    assert illegal(log(*events, Discard(S, t("7p")))).index == 4
    assert referee.legal(log(*events, Discard(S, t("7p")), options=RiichiOptions(swap_calling=True)))
    # abortive_draws off: four winds play on
    winds = (Draw(E, t("W")), Discard(E, t("W")), Draw(S, t("W")), Discard(S, t("W")), Draw(W, t("W")),
             Discard(W, t("W")), Draw(N, t("W")), Discard(N, t("W")))
    assert ActionKind.DRAW in seat_actions(log(*winds, options=RiichiOptions(abortive_draws=False)), E)
    assert illegal(log(*winds, DrawnGame(DrawnGameKind.FOUR_WINDS), options=RiichiOptions(abortive_draws=False)))
    # max_ron 1: one winner per discard
    ron = (Draw(E, t("N")), Discard(E, t("8s")), Win(S))
    assert referee.legal(log(*ron, options=RiichiOptions(max_ron=1))) == ()
    assert illegal(log(*ron, Win(N), options=RiichiOptions(max_ron=1))).index == 4
    # noten_payments off: the exhaustive draw moves no money
    lg = replace(_playout(1), options=RiichiOptions(noten_payments=False, nagashi_mangan=False))
    s = referee.settle(replace(lg, events=(*lg.events, DrawnGame(DrawnGameKind.EXHAUSTIVE))))
    assert [m.net for m in s.seats] == [0, 0, 0, 0] and s.lines == () and s.seats[1].ready


def test_four_kongs_by_two_players_abort_after_the_next_discard() -> None:
    deal = Deal((SeatTiles(E, tuple(parse_tiles("1111222233337m"))),
                 SeatTiles(S, tuple(parse_tiles("4444p56789sESWN"))),
                 SeatTiles(W, tuple(parse_tiles("CCCFFFPPP1234s"))),
                 SeatTiles(N, tuple(parse_tiles("1122335566778p")))), (t("9p"),))
    events: tuple[HandEvent, ...] = (
        deal, Draw(E, t("8m")), referee.Kong(E, t("1m")), Draw(E, t("9m")), referee.DoraIndicator(t("1s")),
        referee.Kong(E, t("2m")), Draw(E, t("4m")), referee.DoraIndicator(t("2s")), referee.Kong(E, t("3m")),
        Draw(E, t("5m")), referee.DoraIndicator(t("3s")), Discard(E, t("9m")), Draw(S, t("6m")),
        referee.Kong(S, t("4p")), Draw(S, t("7m")), referee.DoraIndicator(t("4s")))
    lg = HandLog(rule_set="riichi", events=events)
    assert not any(a.kind in (ActionKind.KONG_CONCEALED, ActionKind.KONG_ADDED) for s in referee.legal(lg)
                   for a in s.actions)  # four kongs on the table: no fifth
    lg = replace(lg, events=(*events, Discard(S, t("6m"))))
    assert seat_actions(lg, W) == {ActionKind.DRAWN_GAME}
    assert illegal(replace(lg, events=(*lg.events, Draw(W, t("5s"))))).index == len(lg.events)
    s = referee.settle(replace(lg, events=(*lg.events, DrawnGame(DrawnGameKind.FOUR_KONGS))))
    assert (s.dealer_continues, s.honba_next, s.lines) == (True, 1, ())
    assert illegal(replace(lg, events=(*lg.events, referee.DoraIndicator(t("5s"))))).index == len(lg.events)


def test_red_fives_are_tracked() -> None:
    reds = replace(DEAL, hands=(DEAL.hands[0], SeatTiles(S, DEAL.hands[1].tiles, (t("5p"),)), *DEAL.hands[2:]))
    events = (reds, Draw(E, t("N")), Discard(E, t("N")), Draw(S, t("E")))
    lg = HandLog(rule_set="riichi", events=events)
    err = illegal(replace(lg, events=(*events, Discard(S, t("5p")))))  # its only 5p is red
    assert err.index == 4 and "red" in str(err)
    with_red = referee.settle(replace(lg, events=(*events, Discard(S, t("E")), Draw(W, t("8s")),
                                                  Discard(W, t("8s")), Win(S))))
    plain = referee.settle(log(Draw(E, t("N")), Discard(E, t("N")), Draw(S, t("E")), Discard(S, t("E")),
                               Draw(W, t("8s")), Discard(W, t("8s")), Win(S)))
    assert with_red.wins[0].best is not None and plain.wins[0].best is not None
    assert with_red.wins[0].best.han == plain.wins[0].best.han + 1  # the red five is a dora
    err = illegal(replace(lg, events=(*events, Discard(S, t("E")), Draw(W, t("5p"), red=True))))
    assert err.index == 5 and "more red" in str(err)
    err = illegal(log(Draw(E, t("N")), Discard(E, t("N")), Draw(S, t("E")), Discard(S, t("E")), Draw(W, t("5p")),
                      Discard(W, t("5p")), Draw(N, t("5p"))))
    assert err.index == 7 and "plain" in str(err)


def test_legal_and_settle_over_the_wire() -> None:
    from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
    from mjsvc.service import Service

    def tiles(text: str) -> list[int]:
        return [k + 1 for k in parse_tiles(text)]

    deal = pb.HandEvent(deal=pb.Deal(hands=[pb.SeatTiles(seat=int(h.seat) + 1, tiles=[k + 1 for k in h.tiles])
                                            for h in DEAL.hands], dora_indicators=tiles("P")))
    events = [deal, pb.HandEvent(draw=pb.Draw(seat=pb.WIND_EAST, tile=t("N") + 1)),
              pb.HandEvent(discard=pb.Discard(seat=pb.WIND_EAST, tile=t("8s") + 1))]
    svc = Service(0)
    legal = svc.legal(pb.LegalRequest(log=pb.HandLog(rule_set="riichi", events=events)))
    assert {s.seat for s in legal.seats if any(a.kind == pb.ACTION_KIND_WIN_DISCARD for a in s.actions)} == {
        pb.WIND_SOUTH, pb.WIND_NORTH}
    win = pb.HandEvent(win=pb.Win(seat=pb.WIND_SOUTH))
    settled = svc.settle(pb.SettleRequest(log=pb.HandLog(rule_set="riichi", events=[*events, win], riichi_sticks=1)))
    assert [m.net for m in settled.seats] == [-1000, 2000, 0, 0] and settled.pot == -1000
    assert [(line.reason, line.amount) for line in settled.lines] == [("WIN", 1000), ("RIICHI_STICKS", -1000)]
    with pytest.raises(IllegalEventError) as err:
        svc.settle(pb.SettleRequest(log=pb.HandLog(rule_set="riichi", events=[*events, win, win])))
    assert err.value.code == "ILLEGAL_EVENT" and err.value.field == "log.events[4]"


def test_renhou_with_its_option() -> None:
    events = (Draw(E, t("8s")), Discard(E, t("8s")))
    off = referee.settle(log(*events, Win(S)))
    on = referee.settle(log(*events, Win(S), options=RiichiOptions(renhou=Renhou.MANGAN)))
    assert off.wins[0].best is not None and off.wins[0].best.points == 1000
    assert on.wins[0].best is not None and on.wins[0].best.points == 8000
    later = (Draw(E, t("N")), Discard(E, t("N")), Draw(S, t("1s")), Discard(S, t("1s")), Draw(W, t("8s")),
             Discard(W, t("8s")))
    assert referee.settle(log(*later, Win(S), options=RiichiOptions(renhou=Renhou.MANGAN))).seats[1].net == 1000


def test_fast_waits_are_the_plain_ones() -> None:
    """The table-driven waits against trying every tile: random concealed parts of every size a hand has
    (13, 10, 7, 4, 1 tiles), and hands built to be ready (seven pairs, orphans, standard)."""
    import random

    from engine.rules.riichi.referee import waits, waits_plain

    rng = random.Random(17)
    wall = [t for t in range(34) for _ in range(4)]
    cases = 0
    for size in (13, 10, 7, 4, 1):
        for _ in range(1500):
            counts = [0] * 34
            for t in rng.sample(wall, size):
                counts[t] += 1
            assert waits(counts) == waits_plain(counts), counts
            cases += bool(waits_plain(counts))
    for text in ("1122334455667m", "19m19p19s1234567z", "19m19p19s123456z1z", "1112345678999m", "1112m", "5m"):
        counts = [0] * 34
        for t in parse_tiles(text):
            counts[t] += 1
        assert waits(counts) == waits_plain(counts) != [], text
    assert cases > 20  # ready hands were met, not only the empty answer


def test_thirteen_orphans_robs_a_concealed_kong_only_with_the_option() -> None:
    """Tenhou's rule (majiang-core's default does not allow it): South, waiting on 1m with thirteen orphans,
    may rob East's concealed kong of 1m; a seat with any other hand never robs a concealed kong."""
    deal = Deal((SeatTiles(E, tuple(parse_tiles("1111m234p567s3456p"))),
                 SeatTiles(S, tuple(parse_tiles("99m19p19s1234567z"))),
                 SeatTiles(W, tuple(parse_tiles("2345678m223456p"))),
                 SeatTiles(N, tuple(parse_tiles("2345678s667788p")))), (t("P"),))
    events = (deal, Kong(E, t("1m")))
    off = HandLog(rule_set="riichi", events=events)
    assert {s.seat for s in referee.legal(off)} == {E}  # the replacement draw: nobody may rob
    with pytest.raises(IllegalEventError):
        referee.legal(HandLog(rule_set="riichi", events=(*events, Win(S))))
    on = HandLog(rule_set="riichi", events=events, options=RiichiOptions(kokushi_robs_concealed_kong=True))
    offered = {s.seat: [a.kind for a in s.actions] for s in referee.legal(on)}
    assert offered == {E: [ActionKind.DRAW], S: [ActionKind.WIN_DISCARD, ActionKind.PASS]}
    out = referee.settle(HandLog(rule_set="riichi", events=(*events, Win(S)), options=on.options))
    assert out.wins[0].best is not None and out.wins[0].best.yakuman == 1
    assert [m.net for m in out.seats] == [-32000, 32000, 0, 0]
    # South lets it go (East draws its replacement): South is in furiten until its next discard, and
    # West and North, whose shapes 1m does not complete, are not
    after = rref.replay(HandLog(rule_set="riichi", events=(*events, Draw(E, t("9p"))), options=on.options))
    assert [seat.can_ron for seat in after.seats] == [True, False, True, True]
