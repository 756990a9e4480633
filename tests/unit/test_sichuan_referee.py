"""The Sichuan referee from the rule text: kong money when the kong is made (刮风下雨: concealed 2 from
each player still in, exposed 2 from the discarder, added 1 from each only with the fresh fourth tile;
MIL sheet as summarised in /work/shared/oracles/sichuan/README.md and the Chengdu sheet cited in
engine/rules/sichuan/payments.py), 杠上炮 refund (MIL) or 呼叫转移 (Chengdu), several winners on one
discard (一炮多响), the wall's end (查大叫, 退税, 查花猪, the lenient void penalty), the void suit enforced
and 诈胡. Each log is built by hand; a shortened wall (Round(wall=...)) stands for the wall's end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.hand import MeldKind, Suit
from engine.rules.round import Claim, Deal, Discard, Draw, FalseWin, IllegalEventError, Kong, WallEnd, Win
from engine.rules.sichuan.options import SichuanOptions, Variant
from engine.rules.sichuan.referee import Event, Line, Round, VoidSuits, settle
from engine.rules.sichuan.round_options import VoidDiscard
from engine.tiles import parse_tile, parse_tiles

M, P, S = Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO
PLAIN = SichuanOptions(set_aside=False)  # MIL without the set-aside tile unless a test says
T = parse_tile

# seat 1 waits on 9p / 4m, seat 2 on 6p / 9p; one 9p and one 1p are left in the wall
HANDS = ("1111m2345678m88p9p", "234p456p777p99p44m", "78p345m666m777m22m", "111p2p33p44p55p6p99m")


def deal(*hands: str, dealer: int = 0) -> Deal:
    return Deal(tuple(tuple(parse_tiles(h)) for h in hands), dealer)


def run(events: list[Event], opts: SichuanOptions = PLAIN, wall: int | None = None) -> Round:
    rnd = Round(opts) if wall is None else Round(opts, wall=wall)
    for ev in events:
        rnd.apply(ev)
    return rnd


def net(events: list[Event], opts: SichuanOptions = PLAIN) -> tuple[int, ...]:
    return settle(events, opts).net


def illegal(events: list[Event], opts: SichuanOptions = PLAIN, wall: int | None = None) -> str:
    with pytest.raises(IllegalEventError) as e:
        run(events, opts, wall)
    assert e.value.code == "ILLEGAL_EVENT" and e.value.index == len(events) - 1
    return str(e.value)


START = [deal(*HANDS), VoidSuits((S, S, S, S))]
KONG_SHOT = START + [Kong(0, T("1m"), concealed=True), Draw(0, T("9p")), Discard(0, T("9p"))]


def test_concealed_kong_is_paid_by_each_player_still_in() -> None:
    rnd = run(START + [Kong(0, T("1m"), concealed=True)])
    assert rnd.settlement().net == (6, -2, -2, -2)


def test_shoot_after_kong_two_winners_mil_refunds_once() -> None:
    # 杠上炮 on the replacement's discard: both win (一炮多响); MIL gives the kong money back to its payers
    s = settle(KONG_SHOT + [Win(1, T("9p"), 0), Win(2, T("9p"), 0)])
    assert [w.value for w in s.wins] == [2, 2]  # plain hand + Shoot After Kong
    assert s.net == (6 - 6 - 4, -2 + 2 + 2, -2 + 2 + 2, -2 + 2)
    assert sum(t.amount for t in s.transfers if t.kind == Line.KONG_REFUND) == 6


def test_shoot_after_kong_call_transfer_shared_by_the_winners() -> None:
    opts = SichuanOptions(set_aside=False, call_transfer=True)
    s = settle(KONG_SHOT + [Win(1, T("9p"), 0), Win(2, T("9p"), 0)], opts)
    moved = [(t.payee, t.amount) for t in s.transfers if t.kind == Line.KONG_TRANSFER]
    assert sorted(moved) == [(1, 3), (2, 3)]  # 6 shared, never more than the discarder took
    assert s.net == (6 - 6 - 4, -2 + 2 + 3, -2 + 2 + 3, -2)
    one = settle(KONG_SHOT + [Win(1, T("9p"), 0)], opts)
    assert one.net == (6 - 6 - 2, -2 + 2 + 6, -2, -2)


def test_after_several_winners_the_seat_after_the_last_draws() -> None:
    log = KONG_SHOT + [Win(1, T("9p"), 0), Win(2, T("9p"), 0)]
    assert "seat 3's draw" in illegal(log + [Draw(1, T("1p"))])
    assert "already won" in illegal(log + [Win(1, T("9p"), 0)])
    run(log + [Draw(3, T("1p"))])


def test_exposed_and_added_kong_money() -> None:
    # seat 2 pungs the dealer's 2m; later it draws the fourth 2m and adds it: 1 from each still in
    log = START + [Discard(0, T("2m")), Claim(2, MeldKind.PUNG, T("2m"), 0), Discard(2, T("3m")),
                   Draw(3, T("1p")), Kong(3, T("1p"), concealed=True), Draw(3, T("2m")), Discard(3, T("2m"))]
    s = settle(log)
    assert s.net == (-2, -2, -2, 6)
    # the 2m discarded by seat 3 could be konged by nobody (seat 2 holds a pung, not three in hand)
    assert "holds 0 2m" in illegal(log + [Claim(2, MeldKind.KONG, T("2m"), 3)])


def test_added_kong_with_the_drawn_tile_pays_one_each_else_nothing() -> None:
    hands = ("1111m2345678m88p9p", "234p456p777p99p44m", "78p345m666m777m22m", "111p2p33p44p55p6p99m")
    base = [deal(*hands), VoidSuits((S, S, S, S)), Discard(0, T("2m")), Claim(2, MeldKind.PUNG, T("2m"), 0),
            Discard(2, T("3m")), Draw(3, T("5s")), Discard(3, T("5s")), Draw(0, T("7s")), Discard(0, T("7s")),
            Draw(1, T("8s")), Discard(1, T("8s"))]
    fresh = base + [Draw(2, T("2m")), Kong(2, T("2m"), concealed=False)]
    assert settle(fresh).net == (-1, -1, 3, -1)
    # robbed: nobody waits on 2m here, so the rob window closes with the replacement draw
    assert settle(fresh + [Draw(2, T("9s"))]).net == (-1, -1, 3, -1)


def test_robbed_kong_refunds_its_money() -> None:
    # seat 1 waits on 2m / 5m; seat 2 pungs the dealer's 2m, later draws the fourth and adds it: seat 1 robs
    hands = (HANDS[0], "234p456p777p99p34m", HANDS[2], HANDS[3])
    log = [deal(*hands), VoidSuits((S, S, S, S)), Discard(0, T("2m")), Claim(2, MeldKind.PUNG, T("2m"), 0),
           Discard(2, T("3m")), Draw(3, T("5s")), Discard(3, T("5s")), Draw(0, T("7s")), Discard(0, T("7s")),
           Draw(1, T("8s")), Discard(1, T("8s")), Draw(2, T("2m")), Kong(2, T("2m"), concealed=False)]
    s = settle(log + [Win(1, T("2m"), 2)])
    assert [w.value for w in s.wins] == [2]  # plain + Robbing the Kong
    assert s.net == (0, 2, -2, 0)  # the kong's 3 went back; the robbed player pays the value
    # play goes on after the robber (seat 2, without a replacement tile), not at seat 3
    assert "seat 2's draw" in illegal(log + [Win(1, T("2m"), 2), Draw(3, T("9s"))])
    assert s.complete is False and run(log + [Win(1, T("2m"), 2), Draw(2, T("9s"))]).seats[2].melds[0].kind \
        == MeldKind.PUNG  # the robbed kong is a pung again
    no_rob = SichuanOptions(set_aside=False, robbing_kong=False)
    assert "no discard open" in illegal(log + [Win(1, T("2m"), 2)], no_rob)


def test_wall_end_ready_check_and_kong_refund() -> None:
    # dealer konged (6 in), then nobody wins before the wall runs out; seat 3 (void m) still holds 9m
    log = [deal(*HANDS), VoidSuits((S, S, S, M)), Kong(0, T("1m"), concealed=True), Draw(0, T("6s")),
           Discard(0, T("6s")), Draw(1, T("5s")), Discard(1, T("5s")), WallEnd()]
    rnd = run(log, wall=2)
    s = rnd.settlement()
    assert s.ready == (False, True, True, False)
    # 查大叫: seats 0 and 3 pay seats 1 and 2 their best value (1 each); 退税: seat 0 returns its 6
    assert s.net == (6 - 6 - 2, -2 + 2 + 1 + 1, -2 + 2 + 1 + 1, -2 + 2 - 2)
    assert s.complete and s.pot == 0
    off = run(log, SichuanOptions(set_aside=False, ready_check=False, kong_refund=False), wall=2).settlement()
    assert off.net == (6, -2, -2, -2)
    lenient = run(log, SichuanOptions(set_aside=False, void_discard=VoidDiscard.LENIENT), wall=2).settlement()
    assert lenient.pot == 48 and lenient.net[3] == -2 - 48 and sum(lenient.net) + lenient.pot == 0


def test_flower_pig_pays_everyone() -> None:
    # seat 3 (void s) draws and keeps a bamboo under the lenient rule: three suits at the wall's end
    opts = SichuanOptions(set_aside=False, flower_pig=True, void_discard=VoidDiscard.LENIENT, void_penalty=0)
    log = [deal(*HANDS), VoidSuits((S, S, S, S)), Discard(0, T("8m")), Draw(1, T("5s")), Discard(1, T("5s")),
           Draw(2, T("6s")), Discard(2, T("6s")), Draw(3, T("7s")), Discard(3, T("9m")), WallEnd()]
    s = run(log, opts, wall=3).settlement()
    pig = [t for t in s.transfers if t.kind == Line.FLOWER_PIG]
    assert {(t.payer, t.payee, t.amount) for t in pig} == {(3, 0, 16), (3, 1, 16), (3, 2, 16)}


def test_wall_end_only_when_the_wall_is_empty() -> None:
    assert "not empty" in illegal(START + [Discard(0, T("8m")), WallEnd()])


def test_void_suit_is_enforced() -> None:
    # seat 3 declares characters void while holding 99m: strict rule, 9m goes first
    log = [deal(*HANDS), VoidSuits((S, S, S, M)), Discard(0, T("8m")), Draw(1, T("5s")), Discard(1, T("5s")),
           Draw(2, T("6s")), Discard(2, T("6s")), Draw(3, T("7s"))]
    assert "must discard it first" in illegal(log + [Discard(3, T("7s"))])
    run(log + [Discard(3, T("9m"))])
    run(log + [Discard(3, T("7s"))], SichuanOptions(set_aside=False, void_discard=VoidDiscard.LENIENT))
    # nobody claims or wins with a tile of the void suit
    assert "void suit" in illegal([deal(*HANDS), VoidSuits((S, S, M, S)), Discard(0, T("2m")),
                                   Claim(2, MeldKind.PUNG, T("2m"), 0)])
    assert "does not win" in illegal([deal(*HANDS), VoidSuits((S, M, S, S)), Kong(0, T("1m"), concealed=True),
                                      Draw(0, T("9p")), Discard(0, T("9p")), Win(1, T("9p"), 0)])


def test_set_aside_tile_is_the_first_discard() -> None:
    mil = SichuanOptions()  # MIL: the void suit is declared by a tile set aside face down
    assert "sets no tile" in illegal([deal(*HANDS), VoidSuits((S, S, S, M))], mil)
    wrong = VoidSuits((S, S, S, M), (None, None, None, T("1p")))
    assert "not a tile of its void suit" in illegal([deal(*HANDS), wrong], mil)
    log = [deal(*HANDS), VoidSuits((S, S, M, S), (None, None, T("3m"), None)), Discard(0, T("8m")),
           Draw(1, T("5s")), Discard(1, T("5s")), Draw(2, T("6s"))]
    assert "set-aside tile 3m" in illegal(log + [Discard(2, T("2m"))], mil)
    run(log + [Discard(2, T("3m"))], mil)


def test_no_chow_and_turn_order() -> None:
    assert "never a chow" in illegal(START + [Discard(0, T("9p")), Claim(1, MeldKind.CHOW, T("9p"), 0)])
    assert "out of turn" in illegal(START + [Discard(1, T("4m"))])
    assert "seat 1's draw" in illegal(START + [Discard(0, T("8m")), Draw(2, T("5s"))])
    assert "fifth 9p" in illegal(START + [Discard(0, T("8m")), Draw(1, T("9p")), Discard(1, T("9p")),
                                          Draw(2, T("9p"))])


def test_passed_win_blocks_a_discard_win_until_the_next_draw() -> None:
    # 过水: seat 1 lets the dealer's 9p go, then may not win on seat 2's 9p with no more fan
    # 过水: seat 2 lets the dealer's 9p go (plain, 0 fan), then may not win on seat 1's 6p with no more fan
    lenient = SichuanOptions(set_aside=False, void_discard=VoidDiscard.LENIENT)
    log = START + [Discard(0, T("9p")), Draw(1, T("5s")), Discard(1, T("6p"))]
    assert "passed a win" in illegal(log + [Win(2, T("6p"), 1)], lenient)
    run(log + [Draw(2, T("5s")), Discard(2, T("5s"))], lenient)


def test_false_win_penalty_and_refund() -> None:
    log = START + [Kong(0, T("1m"), concealed=True), Draw(0, T("5s")), FalseWin(0)]
    assert net(log) == (6 - 24 - 6, -2 + 8 + 2, -2 + 8 + 2, -2 + 8 + 2)
    assert "does not win" in illegal(START + [Kong(0, T("1m"), concealed=True), Draw(0, T("5s")),
                                              Win(0, T("5s"), None)])


def test_self_draw_pays_value_plus_one_from_each_still_in() -> None:
    log = START + [Discard(0, T("8m")), Draw(1, T("9p")), Win(1, T("9p"), None)]
    # seat 1's first draw with nothing claimed yet: 地胡, the cap (2 ^ 4), + 1 from each
    assert net(log) == (-17, 51, -17, -17)
    plain = SichuanOptions(set_aside=False, heavenly_earthly=False)
    assert net(log, plain) == (-2, 6, -2, -2)
    # the round goes on: seat 2 draws next, and seat 1 (out) pays nothing more
    s = settle(log + [Draw(2, T("6p")), Win(2, T("6p"), None)], plain)
    assert s.net == (-4, 6, -2 + 4, -4)


def test_round_options_are_checked() -> None:
    from engine.errors import BadOptionError
    for bad in ({"void_penalty": -1}, {"false_win_penalty": 10**6}):
        with pytest.raises(BadOptionError) as e:
            Round(SichuanOptions(**bad))  # type: ignore[arg-type]
        assert e.value.field == f"options.sichuan.{next(iter(bad))}"


def test_chengdu_table_defaults() -> None:
    # Chengdu: no set-aside tile, 呼叫转移 on 杠上炮, 查花猪 at the wall's end
    chengdu = SichuanOptions(variant=Variant.CHENGDU)
    s = settle(KONG_SHOT + [Win(1, T("9p"), 0)], chengdu)
    assert [(t.payee, t.amount) for t in s.transfers if t.kind == Line.KONG_TRANSFER] == [(1, 6)]
    assert "sets a tile aside" in illegal([deal(*HANDS), VoidSuits((S, S, S, M), (None, None, None, T("9m")))],
                                          chengdu)
    log = [deal(*HANDS), VoidSuits((S, S, S, S)), Discard(0, T("8m")), Draw(1, T("5s")), Discard(1, T("5s")),
           Draw(2, T("6s")), Discard(2, T("6s")), Draw(3, T("7s")), Discard(3, T("9m")), WallEnd()]

    def pigs(opts: SichuanOptions) -> list[tuple[int, int | None, int]]:
        lenient = replace(opts, void_discard=VoidDiscard.LENIENT)
        return [(t.payer, t.payee, t.amount) for t in run(log, lenient, wall=3).settlement().transfers
                if t.kind == Line.FLOWER_PIG]
    assert pigs(chengdu) == [(3, 0, 64), (3, 1, 64), (3, 2, 64)]  # 2 ^ 6: the Chengdu cap
    assert pigs(PLAIN) == []  # MIL: no 查花猪 unless the option says
