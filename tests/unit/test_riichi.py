"""Riichi rules beyond the oracles: no-yaku, pao, every option, payments, context checks, and the interfaces
(the wire, `mjsvc batch`, ListFans, the CLI) speaking all of it."""

from __future__ import annotations

import functools
import random

import pytest

from engine import api, rules
from engine.errors import BadContextError, BadOptionError, ContradictoryContextError, TooManyCopiesError
from engine.hand import ClaimedFrom, Meld, WinContext, Wind, chow, kong, pung, winning_hand
from engine.results import Evaluation
from engine.rules.riichi.fans import TABLE, Yaku
from engine.tiles import parse_tile, parse_tiles
from mjsvc import convert
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

T = parse_tile
PINFU = "23m456p789s55678s"  # waits on 1m / 4m, two-sided


def ev(concealed: str, win: str, *melds: Meld, options: dict | None = None, reds: str = "",
       **ctx: object) -> Evaluation:
    hand = winning_hand(parse_tiles(concealed), melds, T(win), parse_tiles(reds) if reds else ())
    if not ctx.get("self_drawn") and "discarded_by" not in ctx:
        ctx["discarded_by"] = ClaimedFrom.LEFT
    return api.evaluate(hand, WinContext(**ctx), "riichi", options)  # type: ignore[arg-type]


def yaku(e: Evaluation) -> dict[int, int]:
    assert e.best is not None
    return {f.fan.id: f.fan.points * f.count for f in e.best.fans}


def pay(e: Evaluation) -> list[int]:
    assert e.best is not None
    return [a for _, a in e.best.payments]


def test_table_has_every_tenhou_id_and_kita() -> None:
    # Tenhou's ids 0-54 (36 renhou, scored with the option renhou) and 55, ours, for North set aside (kita)
    assert sorted(int(r.id) for r in TABLE.rows) == list(range(56))
    assert rules.get("riichi").minimum == 1 and len(rules.get("riichi").tiles) == 34


def test_a_complete_hand_without_yaku_is_not_a_win_and_says_why() -> None:
    # open hand, no value tile, no tanyao (a 9): complete but no yaku; dora do not help
    e = ev("456p789s1235s", "5s", chow(T("2m")), dora_indicators=(T("4s"),))
    assert not e.is_win and e.best is not None and "no yaku" in e.best.reason
    assert e.best.han == 0 and e.best.payments == ()
    msg = convert.evaluation_to_proto(e)
    assert not msg.is_win and msg.best.reason.startswith("no yaku")


def test_pinfu_tsumo_is_20_fu_and_ron_30() -> None:
    e = ev(PINFU, "1m", self_drawn=True, seat_wind=Wind.SOUTH)
    assert e.best is not None and (e.best.han, e.best.fu) == (2, 20) and yaku(e) == {0: 1, 7: 1}
    assert pay(e) == [-700, 1500, -400, -400]  # 2 han 20 fu: 400 / 700
    e = ev(PINFU, "1m", seat_wind=Wind.SOUTH)
    assert e.best is not None and (e.best.han, e.best.fu) == (1, 30) and e.best.points == 1000


def test_highest_paying_decomposition_wins() -> None:
    # 111222333m: three pungs (sanankou) or three identical chows (iipeikou + pinfu shapes)
    e = ev("111222333m456p5s", "5s", self_drawn=True, riichi=True)
    assert e.best is not None and int(Yaku.SANANKOU) in yaku(e)


def test_a_yakuman_beats_a_counted_yakuman_of_the_same_points() -> None:
    """Found by the 100,000-case run against `mahjong`: 111222333m EEE WW + 1m self-drawn with riichi and
    five dora reads as suuankou (a yakuman) or as three identical chows (tsumo, riichi, iipeikou, chanta,
    honitsu and 5 dora: 13 counted han). Both pay 32,000; the yakuman is the answer (majiang-core too)."""
    e = ev("11222333mEEEWW", "1m", self_drawn=True, riichi=True, seat_wind=Wind.SOUTH,
           prevalent_wind=Wind.SOUTH, dora_indicators=(T("1m"),), ura_dora_indicators=(T("S"),))
    assert e.best is not None and e.best.yakuman == 1 and yaku(e) == {int(Yaku.SUUANKOU): 13}
    assert e.best.points == 32000 and any(a.points == 32000 and a.yakuman == 0 for a in e.alternatives)


def test_yakuman_and_limits() -> None:
    e = ev("111m999p111sEEEW", "W", self_drawn=True)  # suuankou tanki: a double
    assert e.best is not None and e.best.yakuman == 2 and yaku(e) == {int(Yaku.SUUANKOU_TANKI): 26}
    assert e.best.points == 96000 and e.best.fu == 0
    single = ev("111m999p111sEEEW", "W", self_drawn=True, options={"double_yakuman": False})
    assert single.best is not None and single.best.yakuman == 1 and single.best.points == 48000
    assert yaku(single) == {int(Yaku.SUUANKOU_TANKI): 13}
    # tsuuiisou + daisangen + suuankou tanki stacked: 1 + 1 + 2; without stacking the largest alone
    e = ev("CCCFFFPPPEEES", "S", self_drawn=True)
    assert e.best is not None and e.best.yakuman == 4
    e = ev("CCCFFFPPPEEES", "S", self_drawn=True, options={"yakuman_stacking": False})
    assert e.best is not None and e.best.yakuman == 2 and list(yaku(e)) == [int(Yaku.SUUANKOU_TANKI)]


def test_counted_yakuman_option() -> None:
    # riichi ippatsu tsumo chinitsu pinfu iipeikou + dora: 13+ han
    args = ("1122334567899m", "9m")
    ctx = {"self_drawn": True, "riichi": True, "ippatsu": True, "dora_indicators": (T("9m"),)}
    e = ev(*args, **ctx)
    assert e.best is not None and e.best.han >= 13 and e.best.points == 48000 and e.best.yakuman == 0
    e = ev(*args, options={"counted_yakuman": False}, **ctx)
    assert e.best is not None and e.best.points == 36000


def test_kiriage_mangan_and_double_wind_pair() -> None:
    e = ev("234m567p789s123sE", "E", seat_wind=Wind.EAST, prevalent_wind=Wind.EAST, riichi=True)
    assert e.best is not None and ("pair of E", 4) in e.best.fu_parts
    e2 = ev("234m567p789s123sE", "E", seat_wind=Wind.EAST, prevalent_wind=Wind.EAST, riichi=True,
            options={"double_wind_pair_fu": 2})
    assert e2.best is not None and ("pair of E", 2) in e2.best.fu_parts
    # riichi pinfu tanyao + one dora, on a discard: 4 han 30 fu, 7,700 for a non-dealer, 8,000 with kiriage
    kiri = ev("34m456p567s23488s", "2m", seat_wind=Wind.SOUTH, riichi=True, dora_indicators=(T("3s"),))
    assert kiri.best is not None and (kiri.best.han, kiri.best.fu, kiri.best.points) == (4, 30, 7700)
    on = ev("34m456p567s23488s", "2m", seat_wind=Wind.SOUTH, riichi=True, dora_indicators=(T("3s"),),
            options={"kiriage_mangan": True})
    assert on.best is not None and on.best.points == 8000


def test_open_tanyao_and_red_fives_options() -> None:
    e = ev("34m567p55s678s", "2m", chow(T("2p")), reds="5p")
    assert e.is_win and yaku(e) == {int(Yaku.TANYAO): 1, int(Yaku.AKA_DORA): 1}
    closed_only = ev("34m567p55s678s", "2m", chow(T("2p")), reds="5p", options={"open_tanyao": False})
    assert not closed_only.is_win  # red five is no yaku
    no_red = ev("34m567p55s678s", "2m", chow(T("2p")), reds="5p", options={"red_fives": False})
    assert yaku(no_red) == {int(Yaku.TANYAO): 1}


def _daisangen(last_from: ClaimedFrom) -> tuple[Meld, ...]:
    return (pung(T("C")), pung(T("F")), pung(T("P"), claimed_from=last_from))


def test_pao_on_a_self_draw_the_feeder_pays_all() -> None:
    e = ev("123m5p", "5p", *_daisangen(ClaimedFrom.ACROSS), self_drawn=True, seat_wind=Wind.SOUTH, honba=1,
           riichi_sticks=1)
    # South wins; across from South is North, who fed the last dragon pung
    assert e.best is not None and e.best.yakuman == 1 and pay(e) == [0, 33300, 0, -32300]


def test_pao_on_another_players_discard_is_shared() -> None:
    e = ev("123m5p", "5p", *_daisangen(ClaimedFrom.ACROSS), seat_wind=Wind.SOUTH, discarded_by=ClaimedFrom.LEFT)
    # left of South is East: East pays half plus nothing else; North (liable) the other half
    assert pay(e) == [-16000, 32000, 0, -16000]
    # no pao when the last dragon set is a concealed kong
    e = ev("123m5p", "5p", pung(T("C")), pung(T("F")), kong(T("P"), concealed=True), seat_wind=Wind.SOUTH,
           self_drawn=True)
    assert pay(e) == [-16000, 32000, -8000, -8000]


def test_payments_dealer_and_non_dealer_with_honba_and_sticks() -> None:
    e = ev(PINFU, "1m", self_drawn=True, seat_wind=Wind.EAST, riichi=True, honba=2,
           riichi_sticks=3)
    # dealer riichi tsumo pinfu: 3 han 20 fu -> 1,300 all; +200 each; +3,000 sticks
    assert e.best is not None and e.best.points == 3900 and pay(e) == [3900 + 600 + 3000, -1500, -1500, -1500]
    e = ev(PINFU, "1m", seat_wind=Wind.WEST, discarded_by=ClaimedFrom.RIGHT, riichi=True, honba=1)
    # West's right is North; 2 han 30 fu = 2,000
    assert pay(e) == [0, 0, 2300, -2300]


@pytest.mark.parametrize(("ctx", "melds", "error", "field"), [
    ({"riichi": True}, (chow(0),), ContradictoryContextError, "riichi"),
    ({"ippatsu": True}, (), ContradictoryContextError, "ippatsu"),
    ({"ura_dora_indicators": (5,)}, (), ContradictoryContextError, "ura_dora_indicators"),
    ({"heavenly": True, "self_drawn": True, "seat_wind": Wind.SOUTH}, (), ContradictoryContextError, "heavenly"),
    ({"earthly": True, "self_drawn": True}, (), ContradictoryContextError, "earthly"),
    ({"earthly": True, "self_drawn": True, "seat_wind": Wind.WEST, "riichi": True}, (), ContradictoryContextError,
     "earthly"),
    ({"self_drawn": True, "discarded_by": ClaimedFrom.LEFT}, (), ContradictoryContextError, "discarded_by"),
    ({"discarded_by": ClaimedFrom.NONE}, (), BadContextError, "discarded_by"),
    ({"flowers": 1}, (), BadContextError, "flowers"),
    ({"honba": -1}, (), BadContextError, "honba"),
    ({"riichi_sticks": 101}, (), BadContextError, "riichi_sticks"),
    ({"dora_indicators": (1, 2, 3, 4, 5, 6)}, (), BadContextError, "dora_indicators"),
    ({"dora_indicators": (T("E"), T("E"))}, (), TooManyCopiesError, "dora_indicators"),
])
def test_contexts_no_game_produces_are_refused(ctx: dict, melds: tuple, error: type, field: str) -> None:
    h = (winning_hand(parse_tiles("23m456p789sEEE11s"), (), T("1m")) if not melds
         else winning_hand(parse_tiles("456p789sEEE1s"), melds, T("1s")))
    base = {"discarded_by": ClaimedFrom.LEFT} if not ctx.get("self_drawn") else {}
    with pytest.raises(error) as err:
        api.evaluate(h, WinContext(**{**base, **ctx}), "riichi")
    assert err.value.field == field


def test_four_fives_without_the_red_one_is_contradictory() -> None:
    h = winning_hand(parse_tiles("34555m678p123sEE"), (), T("5m"))
    with pytest.raises(ContradictoryContextError) as err:
        api.evaluate(h, WinContext(discarded_by=ClaimedFrom.LEFT, riichi=True), "riichi")
    assert err.value.field == "red_fives"
    assert api.evaluate(h, WinContext(discarded_by=ClaimedFrom.LEFT, riichi=True), "riichi",
                        {"red_fives": False}).is_win


def test_bad_options_name_the_field() -> None:
    h = winning_hand(parse_tiles(PINFU), (), T("1m"))
    for opts, field in (({"double_wind_pair_fu": 3}, "options.riichi.double_wind_pair_fu"),
                        ({"open_tanyao": 1}, "options.riichi.open_tanyao"),
                        ({"sanma": True}, "options.riichi.sanma")):
        with pytest.raises(BadOptionError) as err:
            api.evaluate(h, WinContext(self_drawn=True), "riichi", opts)
        assert err.value.field == field


def test_analyze_reports_riichi_shapes_only() -> None:
    from engine.hand import make_hand

    a = api.analyze(make_hand(parse_tiles("19m19p19sESWNCFP"), sizes=(13,)), (), "riichi")
    assert [k.value for k, _ in a.shanten_by_shape] == ["standard", "seven_pairs", "thirteen_orphans"]
    assert a.shanten == 0 and len(a.waits) == 13
    # four of a kind is not two pairs: 1111m22m33m44m55m6m waits on 6m only as standard, never as seven pairs
    a = api.analyze(make_hand(parse_tiles("11112233445566m"), sizes=(14,)), (), "riichi")
    assert a.discards


# -- the interfaces


def _request() -> pb.EvaluateRequest:
    return pb.EvaluateRequest(
        rule_set="riichi",
        hand=pb.Hand(concealed=[t + 1 for t in parse_tiles(PINFU)], winning_tile=T("1m") + 1,
                     red_fives=[T("5s") + 1]),
        context=pb.WinContext(self_drawn=True, seat_wind=pb.WIND_SOUTH, riichi=True, honba=1, riichi_sticks=1,
                              dora_indicators=[T("4s") + 1]),
        options=pb.RuleOptions(riichi=pb.RiichiOptions(red_fives=True)))


def test_the_service_answers_riichi_with_options() -> None:
    from mjsvc.service import Service

    svc = Service(cache_size=16)
    r = svc.evaluate(_request())
    # riichi tsumo pinfu, two dora (5s), one red five: 6 han, a haneman
    assert r.is_win and r.best.han == 6 and r.best.fu == 20 and r.best.points == 12000
    assert {f.id: f.count for f in r.best.fans}[int(Yaku.DORA)] == 2
    assert [p.amount for p in r.best.payments] == [-6100, 13300, -3100, -3100]
    assert [p.seat_wind for p in r.best.payments] == [pb.WIND_EAST, pb.WIND_SOUTH, pb.WIND_WEST, pb.WIND_NORTH]
    assert r.best.fu_parts[0].reason == "base"
    off = _request()
    off.options.riichi.red_fives = False
    assert svc.evaluate(off).best.han == 5  # the option is in the cache key
    other = _request()
    other.rule_set = "mcr"
    from engine.errors import EngineError

    with pytest.raises(EngineError) as err:
        svc.evaluate(other)
    assert err.value.code == "BAD_OPTION" and err.value.field == "options.riichi"
    fans = svc.list_fans(pb.ListFansRequest(rule_set="riichi"))
    assert fans.min_points == 1 and {f.id for f in fans.fans} == {int(y) for y in Yaku}


@functools.cache
def _plain_path() -> tuple[dict[int, int], list[tuple[str, str]], set[int]]:
    """Every predicate asked (no gate) on the 2,000 generated cases and majiang-core's 5,000 wins: how often
    each yaku held, the predicates that held without their bits, and every set of yaku found (bit per id)."""
    from bench.riichi_cases import generate, load_hule, read_majiang
    from engine.rules.riichi import scoring
    from engine.rules.riichi.facts import Facts, TileFacts
    from engine.shapes import decompositions

    options = rules.get("riichi").default_options
    situations = [(c.hand, c.ctx) for c in generate(2000, 20241201)]
    situations += [read_majiang(item)[:2] for item in load_hule()]
    held: dict[int, int] = {}
    missing = []
    found_sets = set()
    for hand, ctx in situations:
        tiles = TileFacts(hand, ctx)
        for dec in decompositions(hand, False):
            if dec.kind not in scoring.SHAPES:
                continue
            f = Facts(hand, ctx, options, tiles, dec)
            found = 0
            shape = scoring._RULES_FOR[f.kind]
            for y, needs, rule in zip(shape.yaku, shape.needs, shape.rules, strict=True):
                if rule(f):
                    found |= 1 << y
                    held[y] = held.get(y, 0) + 1
                    if needs & ~f.have:
                        missing.append((str(hand), Yaku(y).name))
            found_sets.add(found)
    return held, missing, found_sets


def test_every_predicate_holds_only_with_what_it_needs() -> None:
    """The scoring asks a predicate only when the decomposition's `Facts.have` holds the bits it declares
    (`@fan(..., needs=)`, a fast path). The plain path, every predicate asked, on the 2,000 generated cases and
    majiang-core's 5,000 wins: a predicate that holds always has its bits, so skipping never changes a yaku."""
    held, missing, _ = _plain_path()
    assert not missing, missing[:5]
    # each one held (renhou only with its option: tests/unit/test_riichi_options.py; kita is a bonus, no predicate)
    assert {Yaku(y) for y in held} == set(Yaku) - {Yaku.DORA, Yaku.URA_DORA, Yaku.AKA_DORA, Yaku.KITA, Yaku.RENHOU}


def test_counted_yaku_answers_as_the_mechanism_on_the_whole_set() -> None:
    """scoring.counted_yaku asks engine.rules.principles only about the yaku tied (by an exclusion either way)
    to another one found, through a bounded memo; scoring.plain_counted_yaku applies the mechanism to the
    whole set. Equal on every set of yaku the plain path finds in the generated and majiang-core hands (memo
    emptied, then warm) and on random sets of every yaku id, many of them of yakuman and related yaku."""
    from engine.rules.riichi import scoring

    _, _, found_sets = _plain_path()
    ids = scoring._IDS
    rng = random.Random(12)
    related = [int(y) for y in (Yaku.RIICHI, Yaku.DOUBLE_RIICHI, Yaku.IIPEIKOU, Yaku.RYANPEIKOU, Yaku.CHANTA,
                                Yaku.JUNCHAN, Yaku.HONROUTOU, Yaku.HONITSU, Yaku.CHINITSU, Yaku.TOITOI,
                                Yaku.SANANKOU, Yaku.SUUANKOU, Yaku.DAISANGEN, Yaku.SHOUSANGEN, Yaku.PINFU)]
    randoms = set()
    for _ in range(20000):
        pool = related if rng.random() < 0.5 else ids
        randoms.add(sum(1 << y for y in rng.sample(pool, rng.randint(1, min(8, len(pool))))))
    tied = 0
    for clear in (True, False):
        scoring._COUNTED.clear()
        for found in sorted(found_sets | randoms):
            if clear:
                scoring._COUNTED.clear()
            assert scoring.counted_yaku(found) == scoring.plain_counted_yaku(found), bin(found)
            tied += any(scoring._TIED[y] & found for y in ids if found >> y & 1)
    assert 0 < len(scoring._COUNTED) <= scoring.COUNTED_MAX
    assert tied > 1000  # the mechanism was asked, not only skipped
    assert sum(1 for found in found_sets if any(scoring._TIED[y] & found for y in ids if found >> y & 1)) > 50


def test_the_exclusions_memo_answers_as_the_plain_mechanism() -> None:
    """scoring.counted_yaku keeps the exclusions' result per set of yaku found; with the memo emptied before
    every hand (the plain path: Principles.apply each time) the answers are the same, byte for byte."""
    from bench.riichi_cases import generate
    from engine.rules.riichi import scoring

    cases = generate(600, 7)

    def answers(clear: bool) -> list[bytes]:
        out = []
        for c in cases:
            if clear:
                scoring._COUNTED.clear()
            ev = api.evaluate(c.hand, c.ctx, "riichi")
            out.append(convert.evaluation_to_proto(ev).SerializeToString(deterministic=True))
        return out

    plain = answers(clear=True)
    scoring._COUNTED.clear()
    memo = answers(clear=False)
    assert 0 < len(scoring._COUNTED) <= scoring.COUNTED_MAX
    assert memo == plain
