"""Legal and Settle through the service layer (mjsvc.service, mjsvc.convert, mjsvc.limits), in process: a
HandLog's every event kind read from the wire, the faults of a log named by their field, the answers written
back, and the same through Play and `mjsvc batch`. The referees' own rules are tested with each rule set."""

from __future__ import annotations

import dataclasses
import json

import pytest
from referee_logs import EVERY_KIND, P, p

from engine import referee as r
from engine import rules
from engine.errors import EngineError
from engine.hand import Flower, MeldKind, Suit, Wind
from engine.tiles import parse_tile, parse_tiles
from mjsvc import convert
from mjsvc.batch import BatchRunner
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service


def test_every_event_kind_is_read_from_the_wire() -> None:
    T = parse_tile
    log = convert.hand_log_from_proto(pb.HandLog(rule_set="Riichi", prevalent_wind=pb.WIND_SOUTH, honba=2,
                                                 riichi_sticks=1, scores=[25000, 24000, 26000, 25000],
                                                 events=EVERY_KIND))
    assert (log.rule_set, log.prevalent_wind, log.honba, log.riichi_sticks) == ("riichi", Wind.SOUTH, 2, 1)
    assert log.scores == (25000, 24000, 26000, 25000) and log.options == rules.get("riichi").default_options
    assert log.events == (
        r.Deal((r.SeatTiles(Wind.EAST, tuple(parse_tiles("123456789m1234p5p")), (T("5p"),)),
                r.SeatTiles(Wind.SOUTH, tuple(parse_tiles("123456789s1234p")))), (T("3z"),)),
        r.Draw(Wind.SOUTH, T("5m"), True),
        r.Discard(Wind.SOUTH, T("9s"), False, True),
        r.Claim(Wind.WEST, MeldKind.PUNG, tuple(parse_tiles("999s"))),
        r.Kong(Wind.WEST, T("9s"), True),
        r.DoraIndicator(T("1z")),
        r.Win(Wind.NORTH, True, (T("2p"),), (T("1m"), T("5m"))),
        r.DrawnGame(r.DrawnGameKind.FOUR_WINDS),
        r.VoidSuit(Wind.EAST, Suit.DOTS, T("4p")),
        r.VoidSuit(Wind.SOUTH, Suit.BAMBOO, None),
        r.FlowerTile(Wind.NORTH, Flower.SPRING),
        r.ExchangeThree((r.SeatExchange(Wind.EAST, tuple(parse_tiles("123m")), Wind.WEST),)),
        r.FalseWin(Wind.WEST),
        r.Kita(Wind.SOUTH),
    )


def test_every_event_kind_of_the_proto_is_read() -> None:
    assert {e.WhichOneof("event") for e in EVERY_KIND} == {f.name for f in pb.HandEvent.DESCRIPTOR.fields}


def test_rule_set_and_options_are_read_as_evaluate_reads_them() -> None:
    log = convert.hand_log_from_proto(pb.HandLog(options=pb.RuleOptions(sichuan=pb.SichuanOptions(fan_cap=4)),
                                                 rule_set="sichuan"))
    assert log.rule_set == "sichuan" and log.options.fan_cap == 4
    assert convert.hand_log_from_proto(pb.HandLog()).rule_set == "mcr"  # "" : the default rule set


def fault(log: pb.HandLog) -> tuple[str, str]:
    with pytest.raises(EngineError) as info:
        Service(0).legal(pb.LegalRequest(log=log))
    return info.value.code, info.value.field


@pytest.mark.parametrize("log, code, field", [
    (pb.HandLog(rule_set="riichi", events=[pb.HandEvent(draw=pb.Draw(tile=p("1m")))]),
     "BAD_LOG", "log.events[0].draw.seat"),
    (pb.HandLog(rule_set="riichi", events=[pb.HandEvent(draw=pb.Draw(seat=9, tile=p("1m")))]),
     "BAD_LOG", "log.events[0].draw.seat"),
    (pb.HandLog(rule_set="riichi", events=[pb.HandEvent(), pb.HandEvent()]), "BAD_LOG", "log.events[0]"),
    (pb.HandLog(rule_set="riichi", events=[pb.HandEvent(discard=pb.Discard(seat=pb.WIND_EAST))]),
     "BAD_TILE", "log.events[0].discard.tile"),
    (pb.HandLog(rule_set="riichi", events=[pb.HandEvent(deal=pb.Deal(hands=[pb.SeatTiles(
        seat=pb.WIND_EAST, tiles=[5, 99])]))]), "BAD_TILE", "log.events[0].deal.hands[0].tiles[1]"),
    (pb.HandLog(rule_set="mcr", events=[pb.HandEvent(claim=pb.Claim(seat=pb.WIND_EAST, tiles=P("111m")))]),
     "BAD_LOG", "log.events[0].claim.kind"),
    (pb.HandLog(rule_set="mcr", events=[pb.HandEvent(drawn_game=pb.DrawnGame())]),
     "BAD_LOG", "log.events[0].drawn_game.kind"),
    (pb.HandLog(rule_set="sichuan", events=[pb.HandEvent(void_suit=pb.VoidSuit(seat=pb.WIND_EAST))]),
     "BAD_LOG", "log.events[0].void_suit.suit"),
    (pb.HandLog(rule_set="mcr", events=[pb.HandEvent(flower=pb.FlowerTile(seat=pb.WIND_EAST, flower=9))]),
     "BAD_LOG", "log.events[0].flower.flower"),
    (pb.HandLog(rule_set="sichuan", events=[pb.HandEvent(exchange=pb.ExchangeThree(exchanges=[
        pb.SeatExchange(seat=pb.WIND_EAST, tiles=P("123m"))]))]), "BAD_LOG", "log.events[0].exchange.exchanges[0].to"),
    (pb.HandLog(rule_set="riichi", scores=[25000, 25000, 25000]), "BAD_LOG", "log.scores"),
    (pb.HandLog(rule_set="riichi", honba=-1), "BAD_LOG", "log.honba"),
    (pb.HandLog(rule_set="riichi", prevalent_wind=7), "BAD_LOG", "log.prevalent_wind"),
    (pb.HandLog(rule_set="nope"), "UNKNOWN_RULE_SET", "log.rule_set"),
    (pb.HandLog(rule_set="mcr", options=pb.RuleOptions(riichi=pb.RiichiOptions(kiriage_mangan=True))),
     "BAD_OPTION", "log.options.riichi"),
    (pb.HandLog(rule_set="riichi", events=[pb.HandEvent(draw=pb.Draw(seat=pb.WIND_EAST, tile=p("1m")))] * 401),
     "LIMIT_EXCEEDED", "log.events"),
    (pb.HandLog(rule_set="x" * 33), "LIMIT_EXCEEDED", "log.rule_set"),
])
def test_a_faulty_log_is_refused_naming_its_field(log: pb.HandLog, code: str, field: str) -> None:
    assert fault(log) == (code, field)


def test_a_rule_set_without_a_referee_is_no_referee(monkeypatch: pytest.MonkeyPatch) -> None:
    bare = dataclasses.replace(rules.get("hk"), referee=None)
    real_get = rules.get
    monkeypatch.setattr(rules, "get", lambda name="": bare if name == "hk" else real_get(name))
    assert fault(pb.HandLog(rule_set="hk")) == ("NO_REFEREE", "log.rule_set")


def test_answers_are_written_field_for_field() -> None:
    legal = convert.legal_to_proto((r.SeatActions(Wind.SOUTH, (r.Action(r.ActionKind.PUNG, (3, 3, 3)),
                                                               r.Action(r.ActionKind.PASS)), furiten=True),))
    assert legal == pb.LegalResponse(seats=[pb.SeatActions(
        seat=pb.WIND_SOUTH, furiten=True,
        actions=[pb.Action(kind=pb.ACTION_KIND_PUNG, tiles=[4, 4, 4]), pb.Action(kind=pb.ACTION_KIND_PASS)])])
    settled = convert.settlement_to_proto(r.Settlement(
        seats=(r.SeatMoney(Wind.EAST, -48, False), r.SeatMoney(Wind.WEST, 0, True)),
        lines=(r.MoneyLine(Wind.EAST, Wind.NORTH, 40, "WIN", 12), r.MoneyLine(Wind.EAST, None, 8, "VOID_PENALTY", 30)),
        wins=(), honba_next=1, riichi_sticks_next=2, dealer_continues=True, pot=8))
    assert settled == pb.SettleResponse(
        seats=[pb.SeatMoney(seat=pb.WIND_EAST, net=-48), pb.SeatMoney(seat=pb.WIND_WEST, ready=True)],
        lines=[pb.MoneyLine(payer=pb.WIND_EAST, payee=pb.WIND_NORTH, amount=40, reason="WIN", event_index=12),
               pb.MoneyLine(payer=pb.WIND_EAST, amount=8, reason="VOID_PENALTY", event_index=30)],
        honba_next=1, riichi_sticks_next=2, dealer_continues=True, pot=8)


def test_play_answers_a_faulty_log_in_the_stream_naming_the_field() -> None:
    bad = pb.HandLog(rule_set="riichi", events=[pb.HandEvent(draw=pb.Draw(tile=p("1m")))])
    for kind, cls in (("legal", pb.LegalRequest), ("settle", pb.SettleRequest)):
        request = pb.PlayRequest(id="t1", **{kind: cls(log=bad)})
        out = Service(0).play(request)
        assert out.id == "t1" and out.WhichOneof("response") == "error"
        assert (out.error.reason, out.error.field) == ("BAD_LOG", f"{kind}.log.events[0].draw.seat")


def test_batch_runs_legal_and_settle_lines() -> None:
    runner = BatchRunner(0, compact=True)
    line = json.dumps({"id": 7, "method": "Settle", "request": {"log": {"rule_set": "riichi", "scores": [1, 2]}}})
    out = runner.answer(line)
    assert out["id"] == 7 and out["error"]["reason"] == "BAD_LOG" and out["error"]["field"] == "log.scores"
    assert "Legal" in runner.methods and "Settle" in runner.methods


def test_oracle_logs_cross_the_wire_unchanged() -> None:
    """Whole Riichi hands (the shared oracle's) written to the wire and read back: the same HandLog, and the
    same settlement through the service as in process."""
    import itertools

    import riichi_rounds
    from referee_logs import to_proto

    if not riichi_rounds.ORACLE.exists():
        pytest.skip("shared oracle data not present")
    service = Service(0)
    for rec in itertools.islice(riichi_rounds.records(), 0, 400, 40):
        log = riichi_rounds.hand_log(rec)
        wire = to_proto(log)
        assert convert.hand_log_from_proto(wire) == dataclasses.replace(log, options=rules.get("riichi").options())
        answer = service.settle(pb.SettleRequest(log=wire))
        assert answer == convert.settlement_to_proto(r.settle(log))
        assert [m.net for m in answer.seats] == riichi_rounds.net_by_wind(rec)


def test_an_illegal_event_in_play_is_named_under_its_request() -> None:
    log = pb.HandLog(rule_set="mcr", events=[
        pb.HandEvent(deal=pb.Deal(hands=[pb.SeatTiles(seat=w, tiles=P(h)) for w, h in (
            (pb.WIND_EAST, "EEESSSWWWNNCF9p"), (pb.WIND_SOUTH, "123m456m789m345s5p"),
            (pb.WIND_WEST, "111p222p333p444p5p"), (pb.WIND_NORTH, "2468m2468s5m7mCFP"))])),
        pb.HandEvent(discard=pb.Discard(seat=pb.WIND_SOUTH, tile=p("1m")))])
    out = Service(0).play(pb.PlayRequest(id="x", legal=pb.LegalRequest(log=log)))
    assert (out.error.reason, out.error.field) == ("ILLEGAL_EVENT", "legal.log.events[1]")
    assert out.error.message.startswith("legal.log.events[1]: ") and "out of turn" in out.error.message


def test_riichi_round_options_reach_the_referee() -> None:
    wire = pb.RuleOptions(riichi=pb.RiichiOptions(abortive_draws=False, nagashi_mangan=False, noten_payments=False,
                                                  max_ron=1, swap_calling=True))
    opts = convert.hand_log_from_proto(pb.HandLog(rule_set="riichi", options=wire)).options
    assert (opts.abortive_draws, opts.nagashi_mangan, opts.noten_payments, opts.max_ron, opts.swap_calling) == (
        False, False, False, 1, True)
    with pytest.raises(EngineError) as info:
        convert.hand_log_from_proto(pb.HandLog(rule_set="riichi", options=pb.RuleOptions(
            riichi=pb.RiichiOptions(max_ron=4))))
    assert (info.value.code, info.value.field) == ("BAD_OPTION", "log.options.riichi.max_ron")
