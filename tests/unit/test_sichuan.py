"""Sichuan by hand: input errors, context checks, the rulings where the reference departs from the
published rules, payments (with property tests), the wall's-end value, and the Chengdu sheet's fans,
one golden fixture per fan and option."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import api
from engine.errors import BadMeldError, EngineError
from engine.hand import (
    ClaimedFrom,
    Meld,
    MeldKind,
    PriorKong,
    Suit,
    WinContext,
    Wind,
    make_hand,
    make_meld,
    winning_hand,
)
from engine.rules.sichuan.fans import Fan
from engine.rules.sichuan.options import SelfDraw, SichuanOptions, Variant
from engine.rules.sichuan.payments import seat_from
from engine.shapes import ShapeKind
from engine.tiles import parse_tile, parse_tiles, suit_of

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH
MIL = SichuanOptions()
CHENGDU = SichuanOptions(variant=Variant.CHENGDU)
# The Chengdu rule sheet every Chengdu fixture below follows (its 血战到底 page): named in each test.
CHENGDU_SHEET = ("scmj client rule sheet, 血战到底 "
                 "(QuiQiJingFeng/M2_CLIENT cocosstudio/games/scmj/scmjRuleListLayer.csd)")


def pung(t: str) -> Meld:
    return make_meld(MeldKind.PUNG, (parse_tile(t),) * 3, claimed_from=ClaimedFrom.LEFT)


def kong(t: str, how: str = "exposed") -> Meld:
    return make_meld(MeldKind.KONG, (parse_tile(t),) * 4, concealed=how == "concealed", added=how == "added",
                     claimed_from=ClaimedFrom.NONE if how == "concealed" else ClaimedFrom.LEFT)


def hand(concealed: str, win: str, *melds: Meld):  # type: ignore[no-untyped-def]
    return winning_hand(parse_tiles(concealed), melds, parse_tile(win))


def discard(**kw: Any) -> WinContext:
    """A win on the discard of the winner's left-hand player (South wins off East by default)."""
    return WinContext(**{"seat_wind": S, "discarded_by": ClaimedFrom.LEFT, **kw})


def drawn(**kw: Any) -> WinContext:
    return WinContext(**{"seat_wind": S, "self_drawn": True, **kw})


def evaluate(h, ctx: WinContext, opts: SichuanOptions = MIL):  # type: ignore[no-untyped-def]
    return api.evaluate(h, ctx, "sichuan", opts)


def fans(ev) -> dict[int, int]:  # type: ignore[no-untyped-def]
    return {h.fan.id: h.count for h in ev.best.fans}


def net(ev) -> dict[Wind, int]:  # type: ignore[no-untyped-def]
    return {Wind(seat): amount for seat, amount in ev.best.payments}


def code_of(fn) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    with pytest.raises(EngineError) as err:
        fn()
    return err.value.code, err.value.field


PLAIN = "123m456m789m234p5p"  # + 5p: four sets and a pair, characters and dots


# ---------------------------------------------------------------------------------------------
# Input errors


def test_honours_are_bad_tiles() -> None:
    assert code_of(lambda: evaluate(hand("123m456m789m234pE", "E"), discard())) == ("BAD_TILE", "concealed")
    assert code_of(lambda: evaluate(hand(PLAIN, "E"), discard())) == ("BAD_TILE", "winning_tile")
    assert code_of(lambda: evaluate(hand("456m789m234p5p", "5p", pung("C")), discard())) == ("BAD_TILE",
                                                                                          "melds[0].tiles")


def test_chow_meld_is_bad_meld() -> None:
    chow = make_meld(MeldKind.CHOW, parse_tiles("123m"), claimed_from=ClaimedFrom.LEFT)
    assert code_of(lambda: evaluate(hand("456m789m234p5p", "5p", chow), discard())) == ("BAD_MELD", "melds[0].kind")
    h13 = make_hand(parse_tiles("456m789m234p5p"), (chow,), sizes=(13,))
    assert code_of(lambda: api.analyze(h13, (), "sichuan"))[0] == "BAD_MELD"


def test_five_copies() -> None:
    """Ruling 3: five copies are never a hand."""
    assert code_of(lambda: hand("1111m23m456m789p5p", "1m"))[0] == "TOO_MANY_COPIES"


def test_bad_options() -> None:
    h = hand(PLAIN, "5p")
    assert code_of(lambda: api.evaluate(h, discard(), "sichuan", {"fan_cap": 9})) == ("BAD_OPTION",
                                                                                    "options.sichuan.fan_cap")
    assert code_of(lambda: api.evaluate(h, discard(), "sichuan", {"variant": 7}))[0] == "BAD_OPTION"
    assert code_of(lambda: api.evaluate(h, discard(), "sichuan", {"caps": 3}))[0] == "BAD_OPTION"


@pytest.mark.parametrize(("ctx", "code", "where"), [
    (drawn(discarded_by=ClaimedFrom.LEFT), "CONTRADICTORY_CONTEXT", "discarded_by"),
    (WinContext(seat_wind=S), "BAD_CONTEXT", "discarded_by"),
    (discard(seats_out=(S,)), "CONTRADICTORY_CONTEXT", "seats_out"),
    (discard(seats_out=(E,)), "CONTRADICTORY_CONTEXT", "discarded_by"),
    (discard(seats_out=(W, W)), "BAD_CONTEXT", "seats_out"),
    (drawn(after_kong_discard=True), "CONTRADICTORY_CONTEXT", "after_kong_discard"),
    (discard(prior_kong=PriorKong.CONCEALED), "CONTRADICTORY_CONTEXT", "prior_kong"),
    (discard(after_kong_discard=True, prior_kong=PriorKong.EXPOSED), "CONTRADICTORY_CONTEXT",
     "prior_kong_claimed_from"),
    (discard(after_kong_discard=True, prior_kong=PriorKong.CONCEALED, prior_kong_claimed_from=ClaimedFrom.LEFT),
     "CONTRADICTORY_CONTEXT", "prior_kong_claimed_from"),
    (drawn(heavenly=True), "CONTRADICTORY_CONTEXT", "heavenly"),  # South is not the dealer
    (drawn(seat_wind=E, earthly=True), "CONTRADICTORY_CONTEXT", "earthly"),
    (discard(earthly=True), "CONTRADICTORY_CONTEXT", "earthly"),
    (drawn(earthly=True, last_wall_tile=True), "CONTRADICTORY_CONTEXT", "earthly"),
])
def test_contradictions(ctx: WinContext, code: str, where: str) -> None:
    assert code_of(lambda: evaluate(hand(PLAIN, "5p"), ctx)) == (code, where)


def test_only_an_added_kong_is_robbed() -> None:
    h = hand("4p5p6p7p7p7p2s3s4s5s5s7s8s", "9s")
    for kind in (PriorKong.CONCEALED, PriorKong.EXPOSED):
        ctx = discard(robbing_kong=True, prior_kong=kind,
                      prior_kong_claimed_from=ClaimedFrom.LEFT if kind == PriorKong.EXPOSED else ClaimedFrom.NONE)
        assert code_of(lambda ctx=ctx: evaluate(h, ctx)) == ("CONTRADICTORY_CONTEXT", "prior_kong")


def test_options_void_suit_must_agree_with_the_context() -> None:
    opts = SichuanOptions(void_suit=Suit.DOTS)
    assert code_of(lambda: evaluate(hand(PLAIN, "5p"), discard(void_suit=Suit.BAMBOO), opts)) == (
        "BAD_OPTION", "options.sichuan.void_suit")


# ---------------------------------------------------------------------------------------------
# Wins, the void suit, the rulings


def test_plain_win_and_void_suit() -> None:
    h = hand(PLAIN, "5p")
    ev = evaluate(h, discard(void_suit=Suit.BAMBOO))
    assert ev.is_win and fans(ev) == {} and (ev.best.total, ev.best.points) == (0, 1)
    assert not evaluate(h, discard(void_suit=Suit.DOTS)).is_win  # holds dots, its void suit
    assert evaluate(h, discard()).is_win  # no void given: two suits are fine
    three = hand("123m456m789s234p5p", "5p")
    assert not evaluate(three, discard()).is_win  # three suits: 花猪, never a win
    assert not evaluate(three, discard(void_suit=Suit.BAMBOO)).is_win


def test_void_suit_tile_in_a_meld_is_no_win() -> None:
    """Ruling 2 (reference row N00581 scores it): a void-suit tile only in a declared meld."""
    h = hand("222m55s77s", "5s", pung("4p"), kong("4m", "added"))
    assert not evaluate(h, discard(void_suit=Suit.DOTS)).is_win
    assert evaluate(h, discard(void_suit=Suit.CHARACTERS)).is_win is False  # holds characters too
    assert evaluate(hand("222m55s77s", "5s", pung("4s"), kong("4m", "added")), discard(void_suit=Suit.DOTS)).is_win


def test_shoot_after_kong_on_the_last_tile() -> None:
    """Ruling 1 (reference row W00056): 杠上炮 on the last tile counts 杠上炮 and 海底 both."""
    h = hand("2s3s3s4s4s5s6s7s8s8s", "5s", pung("2s"))
    ctx = WinContext(seat_wind=E, discarded_by=ClaimedFrom.RIGHT, seats_out=(N,), after_kong_discard=True,
                     last_wall_tile=True, void_suit=Suit.CHARACTERS, prior_kong=PriorKong.ADDED_LATER)
    ev = evaluate(h, ctx)
    assert fans(ev) == {Fan.ROOT: 1, Fan.FULL_FLUSH: 1, Fan.SHOOT_AFTER_KONG: 1, Fan.UNDER_THE_SEA: 1}
    assert (ev.best.total, ev.best.points) == (4, 16)
    assert net(ev) == {E: 16, S: -16, W: 0, N: 0}  # a kong held from an earlier turn collected nothing
    ev = evaluate(h, replace(ctx, prior_kong=PriorKong.CONCEALED))  # South's concealed kong: 2 back each
    assert net(ev) == {E: 16 + 2, S: -16 - 4, W: 2, N: 0}


def test_heavenly_declaration_on_an_incomplete_hand() -> None:
    """Ruling 4 (reference rows heavenly_not_winning): the cap is for winning hands only."""
    h = hand("3m4m4m6m6m7m7m7m9m1p2p3p6p", "7p")
    assert not evaluate(h, drawn(seat_wind=E, heavenly=True)).is_win


def test_heavenly_scores_the_cap_in_mil() -> None:
    h = hand(PLAIN, "5p")
    ev = evaluate(h, drawn(seat_wind=E, heavenly=True))
    assert fans(ev) == {} and (ev.best.total, ev.best.points) == (4, 16)
    assert net(ev) == {E: 3 * 17, S: -17, W: -17, N: -17}
    ev = evaluate(h, drawn(seat_wind=E, heavenly=True), SichuanOptions(heavenly_earthly=False, fan_cap=3))
    assert (ev.best.total, ev.best.points) == (0, 1)


def test_mil_fans() -> None:
    ev = evaluate(hand("9p1p1p1p", "9p", kong("3m"), pung("7m"), pung("5p")), discard())
    assert fans(ev) == {Fan.KONG: 1, Fan.ALL_PUNGS: 1, Fan.GOLDEN_WAIT: 1}
    ev = evaluate(hand("1p1p1p3p3p3p3p5p5p5p5p9p9p", "1p"), drawn(last_wall_tile=True), SichuanOptions(fan_cap=3))
    assert fans(ev) == {Fan.SEVEN_PAIRS: 1, Fan.ROOT: 3, Fan.FULL_FLUSH: 1, Fan.UNDER_THE_SEA: 1}
    assert (ev.best.total, ev.best.points) == (3, 8)


# ---------------------------------------------------------------------------------------------
# Payments


def test_self_draw_payments() -> None:
    h = hand(PLAIN, "5p")
    assert net(evaluate(h, drawn(seats_out=(W,)))) == {E: -2, S: 4, W: 0, N: -2}
    assert net(evaluate(h, drawn(seats_out=(W,)), SichuanOptions(self_draw=SelfDraw.NO_BONUS))) == {
        E: -1, S: 2, W: 0, N: -1}
    ev = evaluate(h, drawn(), SichuanOptions(self_draw=SelfDraw.ADD_FAN))
    assert fans(ev) == {Fan.SELF_DRAWN: 1} and net(ev) == {E: -2, S: 6, W: -2, N: -2}


def test_robbed_kong_is_refunded() -> None:
    """West adds a freshly drawn 9s to its pung; South robs it: West pays the value and gives back
    the 1 each that South and North paid for the kong (East is out and paid nothing)."""
    h = hand("4p5p6p7p7p7p2s3s4s5s5s7s8s", "9s")
    ctx = WinContext(seat_wind=S, discarded_by=ClaimedFrom.RIGHT, robbing_kong=True, prior_kong=PriorKong.ADDED,
                     seats_out=(E,))
    ev = evaluate(h, ctx)
    assert fans(ev) == {Fan.ROBBING_THE_KONG: 1} and ev.best.points == 2
    assert net(ev) == {E: 0, S: 2 + 1, W: -4, N: 1}
    # 呼叫转移 is for 杠上炮 only: a robbed kong is always refunded to its payers
    assert net(evaluate(h, ctx, SichuanOptions(call_transfer=True))) == net(ev)


def test_call_transfer() -> None:
    """杠上炮 after West's exposed kong on East's discard: MIL refunds East; 呼叫转移 gives South the 2."""
    h = hand(PLAIN, "5p")
    ctx = WinContext(seat_wind=S, discarded_by=ClaimedFrom.RIGHT, after_kong_discard=True,
                     prior_kong=PriorKong.EXPOSED, prior_kong_claimed_from=ClaimedFrom.ACROSS)
    assert net(evaluate(h, ctx)) == {E: 2, S: 2, W: -4, N: 0}
    assert net(evaluate(h, ctx, SichuanOptions(call_transfer=True))) == {E: 0, S: 4, W: -4, N: 0}


SEATS = st.sampled_from([E, S, W, N])
RELATIVE = st.sampled_from([ClaimedFrom.LEFT, ClaimedFrom.ACROSS, ClaimedFrom.RIGHT])
KONGS = st.sampled_from(list(PriorKong))
# What each kong collected when declared (the sheets' 刮风下雨), written out here on its own.
COLLECTED = {PriorKong.CONCEALED: 2, PriorKong.ADDED: 1, PriorKong.EXPOSED: 2}


@dataclass
class Situation:
    ctx: WinContext
    opts: SichuanOptions
    discarder: Wind | None = None
    supplier: Wind | None = None
    out: tuple[Wind, ...] = field(default=())


@st.composite
def situations(draw: st.DrawFn) -> Situation:
    winner = draw(SEATS)
    self_drawn = draw(st.booleans())
    rel = None if self_drawn else draw(RELATIVE)
    discarder = None if rel is None else seat_from(winner, rel)
    others = [s for s in (E, S, W, N) if s not in (winner, discarder)]
    out = tuple(draw(st.lists(st.sampled_from(others), unique=True, max_size=2)))
    kind, claimed, supplier, robbed, shoot = PriorKong.NONE, ClaimedFrom.NONE, None, False, False
    if discarder is not None:
        mode = draw(st.sampled_from(["plain", "shoot", "rob"]))
        if mode == "shoot":
            shoot = True
            kind = draw(KONGS)
            if kind == PriorKong.EXPOSED:
                candidates = [s for s in (E, S, W, N) if s != discarder and s not in out]
                supplier = draw(st.sampled_from(candidates))
                claimed = {3: ClaimedFrom.LEFT, 2: ClaimedFrom.ACROSS, 1: ClaimedFrom.RIGHT}[(supplier - discarder) % 4]
        elif mode == "rob":
            robbed = True
            kind = draw(st.sampled_from([PriorKong.NONE, PriorKong.ADDED, PriorKong.ADDED_LATER]))
    ctx = WinContext(seat_wind=winner, self_drawn=self_drawn, discarded_by=rel or ClaimedFrom.NONE, seats_out=out,
                     after_kong_discard=shoot, robbing_kong=robbed, prior_kong=kind, prior_kong_claimed_from=claimed)
    opts = SichuanOptions(variant=draw(st.sampled_from(list(Variant))), fan_cap=draw(st.sampled_from([3, 4])),
                          self_draw=draw(st.sampled_from(list(SelfDraw))), call_transfer=draw(st.sampled_from(
                              [None, True, False])))
    return Situation(ctx, opts, discarder, supplier, out)


HANDS = [hand(PLAIN, "5p"), hand("1p1p1p3p3p3p3p5p5p5p5p9p9p", "1p"), hand("9p1p1p1p", "9p", kong("3m"), pung("7m"),
                                                                            pung("5p"))]


@settings(max_examples=300, deadline=None)
@given(situations(), st.sampled_from(HANDS))
def test_payment_properties(sit: Situation, h: Any) -> None:
    ctx = sit.ctx
    if ctx.robbing_kong and h.winning_tile in h.concealed:
        ctx = replace(ctx, robbing_kong=False, prior_kong=PriorKong.NONE)  # a robbed tile is not also held
    ev = evaluate(h, ctx, sit.opts)
    got = net(ev)
    assert sum(got.values()) == 0  # payments sum to zero
    for seat in sit.out:
        assert got[seat] == 0  # seats out never pay (nor receive)
    plain = net(evaluate(h, replace(ctx, prior_kong=PriorKong.NONE, prior_kong_claimed_from=ClaimedFrom.NONE),
                         sit.opts))
    moved = {s: got[s] - plain[s] for s in got}  # what the kong part of the answer does
    kind = ctx.prior_kong
    if kind in COLLECTED and sit.discarder is not None:
        still_in = [s for s in (E, S, W, N) if s not in sit.out and s != sit.discarder]
        paid = {sit.supplier: 2} if kind == PriorKong.EXPOSED else {s: COLLECTED[kind] for s in still_in}
        total = sum(paid.values())
        if ctx.after_kong_discard and sit.opts.transfers_kong_money:
            assert moved == {s: (total if s == ctx.seat_wind else -total if s == sit.discarder else 0)
                             for s in got}
        else:  # refunded: each payer's kong money comes back exactly, the declarer's takings go
            assert {s: moved[s] for s in got if s != sit.discarder} == {s: paid.get(s, 0) for s in got
                                                                         if s != sit.discarder}
            assert moved[sit.discarder] == -total
    else:
        assert set(moved.values()) == {0}


# ---------------------------------------------------------------------------------------------
# The wall's end (查大叫)


def analyze(concealed: str, *melds: Meld, opts: SichuanOptions = MIL):  # type: ignore[no-untyped-def]
    return api.analyze(make_hand(parse_tiles(concealed), melds, sizes=(13,)), (), "sichuan", opts)


def test_max_value() -> None:
    # 1122m and three pungs: waits 1m (all pungs) and 2m (all pungs)
    a = analyze("11m22m", pung("5m"), pung("7p"), pung("9p"))
    assert {t.tile for t in a.waits} == {parse_tile("1m"), parse_tile("2m")}
    assert {shape for shape, _ in a.shanten_by_shape} == {ShapeKind.STANDARD}  # melds: no seven pairs
    assert {shape for shape, _ in analyze("1122334455667m").shanten_by_shape} == {ShapeKind.STANDARD,
                                                                                 ShapeKind.SEVEN_PAIRS}
    assert a.max_value == 2  # all pungs, 1 fan (MIL's golden wait needs the pair, not the pung)
    # a full-flush seven-pairs wait with a root: 2 + 2 + 1 = 5, capped at 4
    assert analyze("1122334455667m").max_value == 16
    assert analyze("1122334455667m", opts=SichuanOptions(fan_cap=3)).max_value == 8
    # not ready: 0
    assert analyze("1357m2468p1357s9s").max_value == 0
    # a ready hand still holding its void suit is not ready for 查大叫
    assert analyze("123m456m789m234p5s", opts=SichuanOptions(void_suit=Suit.BAMBOO)).max_value == 0
    assert analyze("123m456m789m234p5p", opts=SichuanOptions(void_suit=Suit.BAMBOO)).max_value == 1


def test_wait_on_a_tile_all_held_is_no_wait() -> None:
    a = analyze("23m456p789p55p", kong("1m"))  # waits 1m and 4m, but all four 1m are in the kong
    assert {t.tile for t in a.waits} == {parse_tile("4m")}


def test_max_value_is_the_best_wait_evaluated() -> None:
    """max_value equals the best Evaluate over every wait, on a plain discard win."""
    for concealed in ("1122334455667m", "123m456m789m23p55p", "1112345678999m"):
        a = analyze(concealed)
        base = make_hand(parse_tiles(concealed), (), sizes=(13,))
        values = [evaluate(winning_hand(base.concealed, (), t.tile), discard()).best.points for t in a.waits]
        assert a.max_value == max(values) > 0


# ---------------------------------------------------------------------------------------------
# Chengdu: a golden fixture per fan and option, each following CHENGDU_SHEET


@dataclass(frozen=True)
class Golden:
    name: str
    hand: Any
    ctx: WinContext
    fans: dict[Fan, int]
    total: int
    points: int
    opts: SichuanOptions = CHENGDU
    payments: dict[Wind, int] | None = None


GOLDEN = [
    Golden("平胡", hand(PLAIN, "5p"), discard(), {Fan.BASIC_WIN: 1}, 0, 1),
    Golden("对对胡", hand("111m333m555p777p9p", "9p"), discard(), {Fan.CD_ALL_PUNGS: 1}, 1, 2),
    Golden("清一色", hand("123m456m789m234m5m", "5m"), discard(), {Fan.CD_FULL_FLUSH: 1}, 2, 4),
    Golden("带幺九", hand("123m789m123p999p1p", "1p"), discard(), {Fan.TERMINALS: 1}, 2, 4),
    Golden("七对", hand("11m33m55m77m22p44p6p", "6p"), discard(), {Fan.CD_SEVEN_PAIRS: 1}, 2, 4),
    Golden("金钩钓", hand("9p", "9p", pung("2m"), pung("5m"), pung("3p"), pung("7p")), discard(),
           {Fan.GOLDEN_HOOK: 1}, 2, 4),
    Golden("清对", hand("111m333m555m777m9m", "9m"), discard(), {Fan.PURE_PUNGS: 1}, 3, 8),
    Golden("将对", hand("222m555m888m222p5p", "5p"), discard(), {Fan.TWO_FIVE_EIGHT_PUNGS: 1}, 3, 8),
    Golden("龙七对", hand("1111m33m55m22p44p6p", "6p"), discard(), {Fan.DRAGON_SEVEN_PAIRS: 1}, 4, 16),
    Golden("龙七对 + 根", hand("1111m3333m22p44p6p", "6p"), discard(), {Fan.DRAGON_SEVEN_PAIRS: 1, Fan.CD_ROOT: 1},
           5, 32),
    Golden("清七对", hand("11m22m44m55m66m88m9m", "9m"), discard(), {Fan.PURE_SEVEN_PAIRS: 1}, 4, 16),
    Golden("清七对, cap 3", hand("11m22m44m55m66m88m9m", "9m"), discard(), {Fan.PURE_SEVEN_PAIRS: 1}, 3, 8,
           SichuanOptions(variant=Variant.CHENGDU, fan_cap=3)),
    Golden("清幺九", hand("123m123m789m789m9m", "9m"), discard(), {Fan.PURE_TERMINALS: 1, Fan.CD_ROOT: 1}, 5, 32),
    Golden("将金钩钓", hand("5p", "5p", pung("2m"), pung("5m"), pung("8m"), pung("2p")), discard(),
           {Fan.TWO_FIVE_EIGHT_GOLDEN_HOOK: 1}, 4, 16),
    Golden("清金钩钓", hand("9m", "9m", pung("1m"), pung("3m"), pung("5m"), pung("7m")), discard(),
           {Fan.PURE_GOLDEN_HOOK: 1}, 4, 16),
    Golden("清龙七对", hand("1111m22m33m55m66m8m", "8m"), discard(), {Fan.PURE_DRAGON_SEVEN_PAIRS: 1}, 5, 32),
    Golden("十八罗汉", hand("9p", "9p", kong("2m", "concealed"), kong("5m"), kong("3p"), kong("7p")), discard(),
           {Fan.EIGHTEEN_ARHATS: 1}, 6, 64),
    Golden("清十八罗汉, the x64 cap", hand("9m", "9m", kong("1m"), kong("3m"), kong("5m"), kong("7m")), discard(),
           {Fan.PURE_EIGHTEEN_ARHATS: 1}, 6, 64),
    Golden("清十八罗汉, fan_cap 8", hand("9m", "9m", kong("1m"), kong("3m"), kong("5m"), kong("7m")), discard(),
           {Fan.PURE_EIGHTEEN_ARHATS: 1}, 8, 256, SichuanOptions(variant=Variant.CHENGDU, fan_cap=8)),
    Golden("十八罗汉, fan_cap 4", hand("9p", "9p", kong("2m", "concealed"), kong("5m"), kong("3p"), kong("7p")),
           discard(), {Fan.EIGHTEEN_ARHATS: 1}, 4, 16, SichuanOptions(variant=Variant.CHENGDU, fan_cap=4)),
    Golden("清龙七对 + 根, fan_cap 8", hand("1111m2222m33m55m8m", "8m"), discard(),
           {Fan.PURE_DRAGON_SEVEN_PAIRS: 1, Fan.CD_ROOT: 1}, 6, 64, SichuanOptions(variant=Variant.CHENGDU, fan_cap=8)),
    Golden("根 (a kong is one)", hand("123m456m789m1p", "1p", kong("5p")), discard(),
           {Fan.BASIC_WIN: 1, Fan.CD_ROOT: 1}, 1, 2),
    Golden("杠上花", hand("123m456m789m1p", "1p", kong("5p")), drawn(replacement_tile=True),
           {Fan.BASIC_WIN: 1, Fan.CD_ROOT: 1, Fan.WIN_AFTER_KONG: 1}, 2, 4, payments={E: -5, S: 15, W: -5, N: -5}),
    Golden("杠上炮, 呼叫转移", hand(PLAIN, "5p"),
           discard(discarded_by=ClaimedFrom.ACROSS, after_kong_discard=True, prior_kong=PriorKong.CONCEALED),
           {Fan.BASIC_WIN: 1, Fan.SHOOT_AFTER_KONG: 1}, 1, 2, payments={E: 0, S: 2 + 6, W: 0, N: -8}),
    Golden("杠上炮, no 呼叫转移", hand(PLAIN, "5p"),
           discard(discarded_by=ClaimedFrom.ACROSS, after_kong_discard=True, prior_kong=PriorKong.CONCEALED),
           {Fan.BASIC_WIN: 1, Fan.SHOOT_AFTER_KONG: 1}, 1, 2,
           SichuanOptions(variant=Variant.CHENGDU, call_transfer=False), payments={E: 2, S: 2 + 2, W: 2, N: -8}),
    Golden("抢杠胡", hand("4p5p6p7p7p7p2s3s4s5s5s7s8s", "9s"),
           discard(robbing_kong=True, prior_kong=PriorKong.ADDED), {Fan.BASIC_WIN: 1, Fan.ROBBING_THE_KONG: 1}, 1, 2,
           payments={E: -2 - 3, S: 2 + 1, W: 1, N: 1}),
    Golden("no 海底 on this sheet", hand(PLAIN, "5p"), discard(last_wall_tile=True), {Fan.BASIC_WIN: 1}, 0, 1),
    Golden("天胡", hand(PLAIN, "5p"), drawn(seat_wind=E, heavenly=True), {Fan.HEAVENLY: 1}, 5, 32,
           payments={E: 99, S: -33, W: -33, N: -33}),
    Golden("天胡, fan_cap 4", hand(PLAIN, "5p"), drawn(seat_wind=E, heavenly=True), {Fan.HEAVENLY: 1}, 4, 16,
           SichuanOptions(variant=Variant.CHENGDU, fan_cap=4), payments={E: 51, S: -17, W: -17, N: -17}),
    Golden("天胡 off", hand(PLAIN, "5p"), drawn(seat_wind=E, heavenly=True), {Fan.BASIC_WIN: 1}, 0, 1,
           SichuanOptions(variant=Variant.CHENGDU, heavenly_earthly=False)),
    Golden("地胡", hand(PLAIN, "5p"), drawn(earthly=True), {Fan.EARTHLY: 1}, 5, 32),
    Golden("自摸加底", hand(PLAIN, "5p"), drawn(), {Fan.BASIC_WIN: 1}, 0, 1, payments={E: -2, S: 6, W: -2, N: -2}),
    Golden("自摸加番", hand(PLAIN, "5p"), drawn(), {Fan.BASIC_WIN: 1, Fan.SELF_DRAWN: 1}, 1, 2,
           SichuanOptions(variant=Variant.CHENGDU, self_draw=SelfDraw.ADD_FAN), payments={E: -2, S: 6, W: -2, N: -2}),
    Golden("自摸不加倍", hand(PLAIN, "5p"), drawn(), {Fan.BASIC_WIN: 1}, 0, 1,
           SichuanOptions(variant=Variant.CHENGDU, self_draw=SelfDraw.NO_BONUS), payments={E: -1, S: 3, W: -1, N: -1}),
    Golden("门清中张", hand("234m456m678m345p5p", "5p"), drawn(), {Fan.BASIC_WIN: 1, Fan.CONCEALED_HAND: 1,
                                                                  Fan.ALL_SIMPLES: 1}, 2, 4,
           SichuanOptions(variant=Variant.CHENGDU, concealed_simples=True)),
    Golden("门清中张 off", hand("234m456m678m345p5p", "5p"), drawn(), {Fan.BASIC_WIN: 1}, 0, 1),
    Golden("中张 on a discard, no 门清", hand("234m456m678m345p5p", "5p"), discard(),
           {Fan.BASIC_WIN: 1, Fan.ALL_SIMPLES: 1}, 1, 2,
           SichuanOptions(variant=Variant.CHENGDU, concealed_simples=True)),
]


@pytest.mark.parametrize("g", GOLDEN, ids=[g.name for g in GOLDEN])
def test_chengdu_golden(g: Golden) -> None:
    """Each fixture scores as the Chengdu sheet (CHENGDU_SHEET) says."""
    ev = evaluate(g.hand, g.ctx, g.opts)
    where = f"{g.name}, per {CHENGDU_SHEET}"
    assert ev.is_win, where
    assert fans(ev) == {int(k): v for k, v in g.fans.items()}, where
    assert (ev.best.total, ev.best.points) == (g.total, g.points), where
    if g.payments is not None:
        assert net(ev) == g.payments, where


def test_chengdu_covers_every_row() -> None:
    """Every Chengdu fan has a golden fixture above."""
    from engine.rules.sichuan.fans import CHENGDU_ROWS

    covered = {int(f) for g in GOLDEN for f in g.fans}
    assert {int(r.id) for r in CHENGDU_ROWS} <= covered


def test_list_fans() -> None:
    fans_, minimum = api.list_fans("sichuan")
    assert minimum == 0
    assert {f.id for f in fans_} == {int(f) for f in Fan}


@pytest.mark.parametrize("void", [None, Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO])
def test_max_value_fast_path_matches_every_tile_tried(void: Suit | None) -> None:
    """Analyze tries only the shared analysis's waits; trying all 27 tiles gives the same waits and value."""
    from bench.sichuan_cases import situations
    from engine.rules.sichuan.ready import wall_end_value

    opts = SichuanOptions(void_suit=void)
    for s in situations(150, 5 + (void or 0)):
        h = make_hand(s.hand.concealed, s.hand.melds, sizes=(13,))
        if void is not None and any(suit_of(m.tiles[0]) == void for m in h.melds):
            with pytest.raises(BadMeldError, match="void suit"):  # never wins: no shanten (ready.py)
                api.analyze(h, (), "sichuan", opts)
            continue
        a = api.analyze(h, (), "sichuan", opts)
        value, waits = wall_end_value(h, opts)
        assert (a.max_value, tuple(t.tile for t in a.waits)) == (value, waits), str(h)


# ---------------------------------------------------------------------------------------------
# The CLI, as a user runs it (installed interpreter, empty working directory, clean environment)


def _cli(*args: str):  # type: ignore[no-untyped-def]
    import installed

    return installed.run([installed.python(), "-m", "engine", *args], capture_output=True, timeout=60)


