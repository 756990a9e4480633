"""The Riichi options and context of issue #17 (rules real rooms choose): three players (sanma) with kita and
the tsumo-loss choice, renhou, red fives per suit, 26 counted han, rinshan on the last tile, pao's `liable`.

Every expected figure is worked out by hand from the rule it cites (docs/rules/riichi.md lists the sources):
- riichi.wiki "Sanma" (https://riichi.wiki/Sanma, the page "Kita" redirects there): 2m-8m removed, no chii,
  North set aside as a dora (twice with West as the indicator), 1m indicates 9m, North is no seat, a self-draw
  paid with the usual table and no one paying North's share (tsumo loss).
- riichi.wiki "Majsoul" (3P-Mahjong section): Mahjong Soul's sanma follows Tenhou's; tsumo loss by default,
  North-Bisection (the North's share split between the two payers) as the alternative; North is a guest wind.
- riichi.wiki "Renhou" and "Rule variations" (Renhou): as a mangan, the hand is paid a mangan or its normal
  value with at least one yaku when that is more (6 han or more); as a yakuman; or not a yaku.
- riichi.wiki "Rinshan kaihou" and "Haitei raoyue and houtei raoyui": after a kan on the second-to-last tile
  the last tile is the replacement, drawn from the dead wall: rinshan kaihou, never haitei (Tenhou's rule).
- The scoring table (fu x 2^(han+2), mangan 2,000 base) as engine/rules/riichi/payments.py states it.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import api
from engine.errors import (
    BadContextError,
    BadMeldError,
    BadOptionError,
    BadTileError,
    ContradictoryContextError,
    EngineError,
    TooManyCopiesError,
)
from engine.hand import (
    ClaimedFrom,
    Meld,
    MeldKind,
    WinContext,
    Wind,
    chow,
    kong,
    make_hand,
    make_meld,
    pung,
    winning_hand,
)
from engine.results import Evaluation
from engine.rules.riichi.fans import Yaku
from engine.rules.riichi.options import Renhou, RiichiOptions
from engine.rules.riichi.payments import pay
from engine.tiles import parse_tile, parse_tiles
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

T = parse_tile
SANMA = {"players": 3}
BISECT = {"players": 3, "tsumo_loss": False}
# 234p 678p 34s 567s 99p, waiting on 2s / 5s (two-sided): riichi, tsumo and pinfu when self-drawn, 3 han 20 fu
OPEN_WAIT = "234p678p34s567s99p"


def ev(concealed: str, win: str, *melds: Meld, options: dict | None = None, reds: str = "",
       **ctx: object) -> Evaluation:
    hand = winning_hand(parse_tiles(concealed), melds, T(win), parse_tiles(reds) if reds else ())
    if not ctx.get("self_drawn") and "discarded_by" not in ctx:
        ctx["discarded_by"] = ClaimedFrom.LEFT
    return api.evaluate(hand, WinContext(**ctx), "riichi", options)  # type: ignore[arg-type]


def fans(e: Evaluation) -> dict[int, int]:
    assert e.best is not None
    return {f.fan.id: f.fan.points * f.count for f in e.best.fans}


def pays(e: Evaluation) -> list[int]:
    assert e.best is not None
    return [a for _, a in e.best.payments]


# -- three players: kita, dora, payments


def test_sanma_kita_are_dora_and_a_self_draw_pays_with_tsumo_loss_or_split() -> None:
    # riichi tsumo pinfu 3 han + 2 kita = 5 han, a mangan (base 2,000). South (non-dealer) self-draws:
    # tsumo loss (riichi.wiki Sanma, Tenhou): East 4,000, West 2,000, North's 2,000 lost: 6,000 in all;
    # North's share split (Mahjong Soul's North-Bisection): East 4,000 + 1,000, West 2,000 + 1,000 = 8,000.
    e = ev(OPEN_WAIT, "2s", options=SANMA, self_drawn=True, seat_wind=Wind.SOUTH, riichi=True, kita=2)
    assert fans(e) == {Yaku.MENZEN_TSUMO: 1, Yaku.RIICHI: 1, Yaku.PINFU: 1, Yaku.KITA: 2}
    assert e.best is not None and e.best.han == 5 and e.best.points == 6000 and pays(e) == [-4000, 6000, -2000]
    e = ev(OPEN_WAIT, "2s", options=BISECT, self_drawn=True, seat_wind=Wind.SOUTH, riichi=True, kita=2)
    assert e.best is not None and e.best.points == 8000 and pays(e) == [-5000, 8000, -3000]


def test_sanma_dealer_self_draw_and_honba() -> None:
    # the dealer's mangan: 4,000 from each of the two (8,000; North's 4,000 lost), split: 6,000 each (12,000)
    e = ev(OPEN_WAIT, "2s", options=SANMA, self_drawn=True, seat_wind=Wind.EAST, riichi=True, kita=2)
    assert pays(e) == [8000, -4000, -4000]
    e = ev(OPEN_WAIT, "2s", options=BISECT, self_drawn=True, seat_wind=Wind.EAST, riichi=True, kita=2)
    assert pays(e) == [12000, -6000, -6000]
    # honba: 100 a counter from each payer with tsumo loss, 150 when North's share is split (ours, documented)
    e = ev(OPEN_WAIT, "2s", options=SANMA, self_drawn=True, seat_wind=Wind.SOUTH, riichi=True, kita=2, honba=1,
           riichi_sticks=1)
    assert pays(e) == [-4100, 6000 + 200 + 1000, -2100]
    e = ev(OPEN_WAIT, "2s", options=BISECT, self_drawn=True, seat_wind=Wind.SOUTH, riichi=True, kita=2, honba=1)
    assert pays(e) == [-5150, 8300, -3150]
    # on a discard a counter costs the discarder what the two payers of a self-draw pay: 200 with tsumo loss
    # (`mahjong` 2.1's three-player scores and riichienv's sanma), 300 without
    assert pay(2000, Wind.SOUTH, 0, 2, 0, players=3, tsumo_loss=True) == (8000, [-8400, 8400, 0])
    assert pay(2000, Wind.SOUTH, 0, 2, 0, players=3, tsumo_loss=False) == (8000, [-8600, 8600, 0])
    assert pay(2000, Wind.SOUTH, 0, 2, 0) == (8000, [-8600, 8600, 0, 0])


def test_sanma_split_rounds_each_payment_up() -> None:
    # 1 han 30 fu, base 240 (30 x 2^3): four-player 500 / 300; split: 2.5 x 240 = 600, 1.5 x 240 = 360 -> 400
    assert pay(240, Wind.SOUTH, None, 0, 0, players=3, tsumo_loss=True) == (800, [-500, 800, -300])
    assert pay(240, Wind.SOUTH, None, 0, 0, players=3, tsumo_loss=False) == (1000, [-600, 1000, -400])
    # the dealer's: 3 x 240 = 720 -> 800 from each
    assert pay(240, Wind.EAST, None, 0, 0, players=3, tsumo_loss=False) == (1600, [1600, -800, -800])


def test_sanma_discard_is_paid_as_in_four_player_left_and_right_by_turn() -> None:
    # ron, riichi pinfu 2 han + 2 kita = 4 han 30 fu: 7,700 from the discarder
    e = ev(OPEN_WAIT, "2s", options=SANMA, seat_wind=Wind.SOUTH, riichi=True, kita=2, discarded_by=ClaimedFrom.RIGHT)
    assert pays(e) == [0, 7700, -7700]  # South's right (the next in turn) is West
    e = ev(OPEN_WAIT, "2s", options=SANMA, seat_wind=Wind.EAST, riichi=True, kita=2, discarded_by=ClaimedFrom.LEFT)
    assert pays(e) == [11600, 0, -11600]  # East's left (the one before in turn) is West; dealer 4 han 30 fu


def test_sanma_dora_wrap_and_kita_under_a_west_indicator() -> None:
    # 1m indicates 9m in three-player (riichi.wiki Sanma), 2m in four-player
    hand = "234p678p34s567s99m"
    e = ev(hand, "2s", options=SANMA, self_drawn=True, seat_wind=Wind.SOUTH, riichi=True, dora_indicators=(T("1m"),))
    assert fans(e)[Yaku.DORA] == 2 and e.best is not None and e.best.points == 6000
    e = ev(hand, "2s", self_drawn=True, seat_wind=Wind.SOUTH, riichi=True, dora_indicators=(T("1m"),))
    assert Yaku.DORA not in fans(e) and pays(e) == [-1300, 2700, -700, -700]  # 3 han 20 fu
    # 9m indicates 1m in both
    e = ev("234p678p34s567s11m", "2s", options=SANMA, self_drawn=True, seat_wind=Wind.SOUTH, riichi=True,
           dora_indicators=(T("9m"),))
    assert fans(e)[Yaku.DORA] == 2
    # West indicates North: each kita is then a dora twice (riichi.wiki Sanma)
    e = ev(OPEN_WAIT, "2s", options=SANMA, self_drawn=True, seat_wind=Wind.SOUTH, riichi=True, kita=1,
           dora_indicators=(T("W"),))
    assert fans(e) == {Yaku.MENZEN_TSUMO: 1, Yaku.RIICHI: 1, Yaku.PINFU: 1, Yaku.DORA: 1, Yaku.KITA: 1}
    # kita are dora, not yaku: no yaku, no win
    e = ev("234p678p35s567s99p", "4s", options=SANMA, seat_wind=Wind.SOUTH, kita=3)
    assert not e.is_win


@pytest.mark.parametrize(("concealed", "win", "melds", "ctx", "error", "field"), [
    ("234m678p34s567s99p", "2s", (), {}, BadTileError, "concealed"),
    ("234p678p34s567s99p", "2s", (), {"dora_indicators": (T("4m"),)}, BadTileError, "dora_indicators"),
    ("678p34s567s99p", "2s", (chow(T("2p")),), {}, BadMeldError, "melds[0]"),
    ("678p34s567s99p", "2s", (pung(T("2p"), ClaimedFrom.ACROSS),), {}, BadMeldError, "melds[0].claimed_from"),
    (OPEN_WAIT, "2s", (), {"seat_wind": Wind.NORTH}, BadContextError, "seat_wind"),
    (OPEN_WAIT, "2s", (), {"prevalent_wind": Wind.NORTH}, BadContextError, "prevalent_wind"),
    (OPEN_WAIT, "2s", (), {"discarded_by": ClaimedFrom.ACROSS}, BadContextError, "discarded_by"),
    (OPEN_WAIT, "2s", (), {"kita": 5}, BadContextError, "kita"),
    ("234p678p34s567sNN", "2s", (), {"kita": 3}, TooManyCopiesError, "kita"),
    (OPEN_WAIT, "2s", (), {"kita": 1, "earthly": True, "self_drawn": True, "seat_wind": Wind.SOUTH},
     ContradictoryContextError, "earthly"),
])
def test_sanma_refuses_what_three_players_do_not_have(concealed: str, win: str, melds: tuple, ctx: dict,
                                                      error: type[EngineError], field: str) -> None:
    base: dict = {"discarded_by": ClaimedFrom.LEFT, "seat_wind": Wind.SOUTH} if not ctx.get("self_drawn") else {}
    with pytest.raises(error) as err:
        api.evaluate(winning_hand(parse_tiles(concealed), melds, T(win)), WinContext(**{**base, **ctx}), "riichi",
                     SANMA)
    assert err.value.field == field


def test_kita_needs_three_players() -> None:
    with pytest.raises(BadContextError) as err:
        ev(OPEN_WAIT, "2s", self_drawn=True, kita=1)
    assert err.value.field == "kita"


def test_kita_replacement_tile_is_rinshan() -> None:
    # a win on the tile drawn after setting a North aside scores rinshan kaihou (riichi.wiki Sanma)
    e = ev(OPEN_WAIT, "2s", options=SANMA, self_drawn=True, seat_wind=Wind.SOUTH, kita=1, replacement_tile=True)
    assert fans(e) == {Yaku.MENZEN_TSUMO: 1, Yaku.RINSHAN_KAIHOU: 1, Yaku.PINFU: 1, Yaku.KITA: 1}


def test_sanma_analyze_offers_no_2m_to_8m() -> None:
    # 1m 9m 123p 456p 789p 1s S: an isolated 1m is helped by 2m/3m in four-player, by 1m alone in three
    hand = make_hand(parse_tiles("19m123p456p789p1sS"), sizes=(13,))
    four = {t.tile for t in api.analyze(hand, (), "riichi").useful_tiles}
    three = {t.tile for t in api.analyze(hand, (), "riichi", SANMA).useful_tiles}
    assert {T("2m"), T("3m")} <= four
    assert T("1m") in three and not {t for t in three if T("2m") <= t <= T("8m")}
    waits = api.analyze(make_hand(parse_tiles("123p456p789p11s99m"), sizes=(13,)), (), "riichi", SANMA).waits
    assert {t.tile for t in waits} == {T("1s"), T("9m")}
    with pytest.raises(BadTileError) as err:
        api.analyze(make_hand(parse_tiles("23m123p456p789p11s"), sizes=(13,)), (), "riichi", SANMA)
    assert err.value.field == "concealed"
    with pytest.raises(BadTileError) as err:
        api.analyze(hand, (T("5m"),), "riichi", SANMA)
    assert err.value.field == "visible"


# -- renhou

RENHOU: dict[str, Any] = {"earthly": True, "seat_wind": Wind.SOUTH, "discarded_by": ClaimedFrom.LEFT}
TANYAO_PINFU = "234p678p34s567s88p"  # on 2s by a discard: tanyao pinfu, 2 han 30 fu = 2,000


def test_renhou_off_is_refused_mangan_and_yakuman_pay_their_value() -> None:
    with pytest.raises(BadContextError) as err:
        ev(TANYAO_PINFU, "2s", **RENHOU)
    assert err.value.field == "earthly"
    # yakuman: 32,000 from the discarder (East)
    e = ev(TANYAO_PINFU, "2s", options={"renhou": "yakuman"}, **RENHOU)
    assert fans(e) == {Yaku.RENHOU: 13} and e.best is not None and e.best.yakuman == 1 and pays(e)[:2] == [-32000,
                                                                                                          32000]
    # mangan, the higher of a mangan and the hand's value: 2 han -> a mangan, 8,000, renhou alone (5 han)
    e = ev(TANYAO_PINFU, "2s", options={"renhou": "mangan"}, **RENHOU)
    assert fans(e) == {Yaku.RENHOU: 5} and e.best is not None and e.best.points == 8000
    # a hand without any yaku wins on renhou
    e = ev("234p678p35s567s99p", "4s", options={"renhou": Renhou.MANGAN}, **RENHOU)
    assert e.is_win and fans(e) == {Yaku.RENHOU: 5}
    # chinitsu ittsu closed, 8 han: a baiman (16,000) is more than renhou's mangan, so the hand is scored as is
    e = ev("123p456p789p234p5p", "5p", options={"renhou": "mangan"}, **RENHOU)
    assert Yaku.RENHOU not in fans(e) and e.best is not None and e.best.points == 16000


def test_renhou_is_a_non_dealers_and_chiihou_stays_self_drawn() -> None:
    with pytest.raises(ContradictoryContextError) as err:
        ev(TANYAO_PINFU, "2s", options={"renhou": "yakuman"}, **{**RENHOU, "seat_wind": Wind.EAST})
    assert err.value.field == "earthly"
    with pytest.raises(ContradictoryContextError) as err:
        ev(TANYAO_PINFU, "2s", options={"renhou": "yakuman"}, **RENHOU, riichi=True)
    assert err.value.field == "earthly"
    e = ev(TANYAO_PINFU, "2s", options={"renhou": "yakuman"}, earthly=True, self_drawn=True, seat_wind=Wind.SOUTH)
    assert fans(e) == {Yaku.CHIIHOU: 13}


# -- red fives per suit


def test_red_fives_per_suit() -> None:
    # two red 5p, tanyao pinfu + 2 aka dora: 4 han 30 fu = 7,700
    e = ev("234p678p34s567s55p", "2s", reds="5p5p", options={"red_fives_per_suit": (0, 2, 2)},
           seat_wind=Wind.SOUTH)
    assert fans(e)[Yaku.AKA_DORA] == 2 and e.best is not None and e.best.points == 7700
    with pytest.raises(TooManyCopiesError) as err:  # the default set has one red 5p
        ev("234p678p34s567s55p", "2s", reds="5p5p")
    assert err.value.field == "red_fives"
    with pytest.raises(TooManyCopiesError):  # no red 5m in a (0, 2, 2) set
        ev("345m678p34s567s99p", "2s", reds="5m", options={"red_fives_per_suit": [0, 2, 2]})
    # three 5p held in a set with two red 5p and two plain ones: one at least is red
    with pytest.raises(ContradictoryContextError) as clash:
        ev("555p678p34s567s99p", "2s", options={"red_fives_per_suit": (1, 2, 1)})
    assert clash.value.field == "red_fives"
    assert ev("555p678p34s567s99p", "2s", reds="5p", options={"red_fives_per_suit": (1, 2, 1)}, riichi=True).is_win


@pytest.mark.parametrize("opts", [
    {"red_fives_per_suit": (1, 1)}, {"red_fives_per_suit": (1, 3, 1)}, {"red_fives_per_suit": (1, -1, 1)},
    {"red_fives_per_suit": "1,1,1"}, {"red_fives": False, "red_fives_per_suit": (0, 1, 1)},
    {"players": 3, "red_fives_per_suit": (1, 1, 1)}, {"players": 2}, {"renhou": 4},
])
def test_bad_red_fives_per_suit_and_options_are_named(opts: dict) -> None:
    with pytest.raises(BadOptionError) as err:
        ev(OPEN_WAIT, "2s", options=opts)
    assert err.value.field.startswith("options.riichi.") and err.value.field.split(".")[2] in opts


def test_red_fives_off_with_an_all_zero_list_is_consistent() -> None:
    assert RiichiOptions(red_fives=False, red_fives_per_suit=(0, 0, 0)).reds_allowed(1) == 0
    assert RiichiOptions(players=3).reds_allowed(0) == 0 and RiichiOptions(players=3).reds_allowed(1) == 1


# -- 26 counted han, rinshan on the last tile


def test_26_counted_han_is_a_double_yakuman_with_the_option() -> None:
    # 2233445566778p + 8p self-drawn with riichi, five dora and five ura indicators 1p-5p (each hits a pair):
    # at least chinitsu 6 + riichi 1 + tsumo 1 + 10 dora + 10 ura = 28 han, a counted yakuman
    ind = tuple(parse_tiles("12345p"))
    ctx: dict[str, Any] = {"self_drawn": True, "seat_wind": Wind.SOUTH, "riichi": True, "dora_indicators": ind,
           "ura_dora_indicators": ind}
    e = ev("2233445566778p", "8p", **ctx)
    assert e.best is not None and e.best.han >= 26 and e.best.yakuman == 0 and pays(e) == [-16000, 32000, -8000,
                                                                                              -8000]
    e = ev("2233445566778p", "8p", options={"counted_double_yakuman": True}, **ctx)
    assert e.best is not None and e.best.yakuman == 0 and pays(e) == [-32000, 64000, -16000, -16000]
    # 13-25 han stays a single counted yakuman with the option on
    e = ev("2233445566778p", "8p", options={"counted_double_yakuman": True}, self_drawn=True,
           seat_wind=Wind.SOUTH, riichi=True, dora_indicators=ind)
    assert e.best is not None and 13 <= e.best.han < 26 and e.best.points == 32000


def test_replacement_tile_that_is_the_last_tile_scores_rinshan_alone() -> None:
    # Tenhou: rinshan kaihou, no haitei (formerly refused as contradictory)
    e = ev("234p678p34s99p", "2s", kong(T("9s"), concealed=True), self_drawn=True, seat_wind=Wind.SOUTH,
           replacement_tile=True, last_wall_tile=True)
    assert fans(e) == {Yaku.MENZEN_TSUMO: 1, Yaku.RINSHAN_KAIHOU: 1}
    e = ev("234p678p34s99p", "2s", kong(T("9s"), concealed=True), self_drawn=True, seat_wind=Wind.SOUTH,
           last_wall_tile=True)
    assert fans(e) == {Yaku.MENZEN_TSUMO: 1, Yaku.HAITEI: 1}


# -- pao: liable


def _dragons(last: Meld) -> tuple[Meld, ...]:
    return (pung(T("C")), pung(T("F")), last)


def test_liable_agrees_with_the_melds_or_fills_in_for_them() -> None:
    feed = pung(T("P"), claimed_from=ClaimedFrom.ACROSS)
    base: dict[str, Any] = {"self_drawn": True, "seat_wind": Wind.SOUTH}
    derived = pays(ev("123m5p", "5p", *_dragons(feed), **base))
    assert derived == [0, 32000, 0, -32000]
    assert pays(ev("123m5p", "5p", *_dragons(feed), liable=ClaimedFrom.ACROSS, **base)) == derived
    with pytest.raises(ContradictoryContextError) as err:
        ev("123m5p", "5p", *_dragons(feed), liable=ClaimedFrom.RIGHT, **base)
    assert err.value.field == "liable"
    # the last dragon pung claimed, its claimed_from unsaid: no pao unless `liable` names the seat
    unsaid = make_meld(MeldKind.PUNG, (T("P"),) * 3)
    assert pays(ev("123m5p", "5p", *_dragons(unsaid), **base)) == [-16000, 32000, -8000, -8000]
    assert pays(ev("123m5p", "5p", *_dragons(unsaid), liable=ClaimedFrom.RIGHT, **base)) == [0, 32000, -32000, 0]
    # the last dragon set a concealed kong: nobody fed it
    with pytest.raises(ContradictoryContextError) as err:
        ev("123m5p", "5p", *_dragons(kong(T("P"), concealed=True)), liable=ClaimedFrom.LEFT, **base)
    assert err.value.field == "liable"


def test_liable_without_a_pao_yakuman_is_contradictory() -> None:
    with pytest.raises(ContradictoryContextError) as err:
        ev(OPEN_WAIT, "2s", self_drawn=True, riichi=True, liable=ClaimedFrom.LEFT)
    assert err.value.field == "liable"


def test_sanma_pao_the_liable_seat_pays_the_whole_self_draw() -> None:
    # three players, tsumo loss: a non-dealer's yakuman self-draw is 16,000 + 8,000; West (right) pays it all
    e = ev("123p5s", "5s", *_dragons(pung(T("P"), claimed_from=ClaimedFrom.RIGHT)), options=SANMA,
           self_drawn=True, seat_wind=Wind.SOUTH)
    assert pays(e) == [0, 24000, -24000]


# -- the table and the interfaces


def test_list_fans_lists_renhou_and_kita() -> None:
    listed, _ = api.list_fans("riichi")
    ids = {f.id for f in listed}
    assert {int(Yaku.RENHOU), int(Yaku.KITA)} <= ids


def test_options_and_context_over_the_wire() -> None:
    msg = pb.RuleOptions(riichi=pb.RiichiOptions(players=3, renhou=pb.RIICHI_RENHOU_MANGAN, tsumo_loss=False,
                                                 red_fives_per_suit=[0, 2, 1], counted_double_yakuman=True))
    opts = api.rules.get("riichi").options(convert.options_from_proto("riichi", msg))
    assert isinstance(opts, RiichiOptions)
    assert (opts.players, opts.renhou, opts.tsumo_loss, opts.red_fives_per_suit, opts.counted_double_yakuman) == (
        3, Renhou.MANGAN, False, (0, 2, 1), True)
    from mjsvc.service import Service

    req = pb.EvaluateRequest(
        rule_set="riichi",
        hand=pb.Hand(concealed=[t + 1 for t in parse_tiles(OPEN_WAIT)],  # type: ignore[misc]
                     winning_tile=T("2s") + 1),  # type: ignore[arg-type]
        context=pb.WinContext(self_drawn=True, seat_wind=pb.WIND_SOUTH, riichi=True, kita=2),
        options=pb.RuleOptions(riichi=pb.RiichiOptions(players=3)))
    r = Service(cache_size=16).evaluate(req)
    assert r.best.points == 6000 and [p.amount for p in r.best.payments] == [-4000, 6000, -2000]


