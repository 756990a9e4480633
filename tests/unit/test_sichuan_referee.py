"""The Sichuan referee from the rule text, on hand-built logs (the contract's HandLog, engine.referee): kong
money when the kong is made (刮风下雨: concealed 2 from each player still in, exposed 2 from the discarder,
added 1 from each only with the fresh fourth tile; MIL sheet as summarised in /work/shared/oracles/sichuan/README.md
and the Chengdu sheet cited in engine/rules/sichuan/payments.py), 杠上炮 refund (MIL) or 呼叫转移 (Chengdu),
several winners on one discard (一炮多响), the wall's end (查大叫, 退税, 查花猪, the lenient void penalty), the void
suit enforced and 诈胡. A round still going on is played to the wall's end (`exhaust`) to be settled; `upto`
reads the money of its first events."""

from __future__ import annotations

from dataclasses import replace

import pytest
from referee_contract import E, N, S, T, W, deal, exhaust, illegal, log, reasons, then

from engine import referee as r
from engine.errors import BadOptionError
from engine.hand import MeldKind, Suit, Wind
from engine.rules.sichuan.options import SichuanOptions, Variant
from engine.rules.sichuan.round_options import VoidDiscard

M, P, B = Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO
PLAIN = SichuanOptions(set_aside=False)  # MIL without the set-aside tile unless a test says

# South waits on 9p / 4m, West on 6p / 9p; one 9p and one 1p are left in the wall
HANDS = ("1111m2345678m88p9p", "234p456p777p99p44m", "78p345m666m777m22m", "111p2p33p44p55p6p99m")


def voids(*suits: Suit, aside: tuple[str | None, ...] = (None,) * 4) -> list[r.HandEvent]:
    return [r.VoidSuit(w, u, None if a is None else T(a)) for w, u, a in zip(Wind, suits, aside, strict=True)]


def sc(*events: r.HandEvent, opts: SichuanOptions = PLAIN) -> r.HandLog:
    return log("sichuan", *events, options=opts)


def upto(out: r.Settlement, n: int) -> tuple[int, ...]:
    """Each seat's money from the lines of the first n events."""
    net = dict.fromkeys(Wind, 0)
    for m in out.lines:
        if m.event_index < n:
            net[m.payer] -= m.amount
            if m.payee is not None:
                net[m.payee] += m.amount
    return tuple(net[w] for w in Wind)


def at(out: r.Settlement, reason: str, index: int) -> list[tuple[Wind, Wind | None, int]]:
    """The lines of one reason at one event: (payer, payee, amount), payees in turn order."""
    return sorted((m.payer, m.payee, m.amount) for m in out.lines if m.reason == reason and m.event_index == index)


def played(hand: r.HandLog) -> tuple[r.Settlement, int]:
    """The round played on to the wall's end and settled; the number of events the test wrote."""
    return r.settle(exhaust(hand)), len(hand.events)


START = [deal(HANDS), *voids(B, B, B, B)]
KONG_SHOT = [*START, r.Kong(E, T("1m")), r.Draw(E, T("9p")), r.Discard(E, T("9p"))]


def test_concealed_kong_is_paid_by_each_player_still_in() -> None:
    out, n = played(sc(*START, r.Kong(E, T("1m")), r.Draw(E, T("6s")), r.Discard(E, T("6s"))))
    assert upto(out, n) == (6, -2, -2, -2)
    assert {(m.reason, m.event_index) for m in out.lines if m.event_index < n} == {("KONG", 5)}


def test_shoot_after_kong_two_winners_mil_refunds_once() -> None:
    # 杠上炮 on the replacement's discard: both win (一炮多响); MIL gives the kong money back to its payers
    out, n = played(sc(*KONG_SHOT, r.Win(S), r.Win(W)))
    assert [w.best.points for w in out.wins] == [2, 2]  # type: ignore[union-attr]  # plain + Shoot After Kong
    assert upto(out, n) == (6 - 6 - 4, -2 + 2 + 2, -2 + 2 + 2, -2 + 2)
    assert at(out, "KONG_REFUND", n - 2) == [(E, S, 2), (E, W, 2), (E, N, 2)]  # once, at the first win


def test_shoot_after_kong_call_transfer_shared_by_the_winners() -> None:
    opts = SichuanOptions(set_aside=False, call_transfer=True)
    out, n = played(sc(*KONG_SHOT, r.Win(S), r.Win(W), opts=opts))
    assert sorted(reasons(out, "KONG_TRANSFER")) == [(E, S, 3), (E, W, 3)]  # 6 shared, never more than E took
    assert upto(out, n) == (6 - 6 - 4, -2 + 2 + 3, -2 + 2 + 3, -2)
    one, n = played(sc(*KONG_SHOT, r.Win(S), opts=opts))
    assert upto(one, n) == (6 - 6 - 2, -2 + 2 + 6, -2, -2)


def test_after_several_winners_the_seat_after_the_last_draws() -> None:
    hand = sc(*KONG_SHOT, r.Win(S), r.Win(W))
    assert "North's draw" in illegal(then(hand, r.Draw(S, T("1p"))))
    assert "already won" in illegal(then(hand, r.Win(S)))
    assert {s.seat for s in r.legal(then(hand, r.Draw(N, T("1p"))))} == {N}


def test_exposed_and_added_kong_money() -> None:
    # West pungs the dealer's 2m; North konges its 1p and throws the fourth 2m: nobody may kong it
    hand = sc(*START, r.Discard(E, T("2m")), r.Claim(W, MeldKind.PUNG, (T("2m"),) * 3), r.Discard(W, T("3m")),
              r.Draw(N, T("1p")), r.Kong(N, T("1p")), r.Draw(N, T("2m")), r.Discard(N, T("2m")))
    out, n = played(hand)
    assert upto(out, n) == (-2, -2, -2, 6)
    assert "holds 0 2m" in illegal(then(hand, r.Claim(W, MeldKind.KONG, (T("2m"),) * 4)))


def test_added_kong_with_the_drawn_tile_pays_one_each_else_nothing() -> None:
    base = [*START, r.Discard(E, T("2m")), r.Claim(W, MeldKind.PUNG, (T("2m"),) * 3), r.Discard(W, T("3m")),
            r.Draw(N, T("5s")), r.Discard(N, T("5s")), r.Draw(E, T("7s")), r.Discard(E, T("7s")),
            r.Draw(S, T("8s")), r.Discard(S, T("8s"))]
    fresh = sc(*base, r.Draw(W, T("2m")), r.Kong(W, T("2m"), added=True))
    # nobody waits on 2m here: the rob window closes with the replacement draw
    out, n = played(fresh)
    assert upto(out, n) == (-1, -1, 3, -1)
    assert at(out, "KONG", n - 1) == [(E, W, 1), (S, W, 1), (N, W, 1)]
    # the fourth 2m kept a go-round before it is added: the kong pays nothing
    later = sc(*base, r.Draw(W, T("2m")), r.Discard(W, T("4m")), r.Draw(N, T("1s")), r.Discard(N, T("1s")),
               r.Draw(E, T("2s")), r.Discard(E, T("2s")), r.Draw(S, T("3s")), r.Discard(S, T("3s")),
               r.Draw(W, T("9m")), r.Kong(W, T("2m"), added=True))
    out, n = played(later)
    assert upto(out, n) == (0, 0, 0, 0) and not at(out, "KONG", n - 1)


def test_robbed_kong_refunds_its_money() -> None:
    # South waits on 2m / 5m; West pungs the dealer's 2m, later draws the fourth and adds it: South robs
    hands = (HANDS[0], "234p456p777p99p34m", HANDS[2], HANDS[3])
    hand = sc(deal(hands), *voids(B, B, B, B), r.Discard(E, T("2m")), r.Claim(W, MeldKind.PUNG, (T("2m"),) * 3),
              r.Discard(W, T("3m")), r.Draw(N, T("5s")), r.Discard(N, T("5s")), r.Draw(E, T("7s")),
              r.Discard(E, T("7s")), r.Draw(S, T("8s")), r.Discard(S, T("8s")), r.Draw(W, T("2m")),
              r.Kong(W, T("2m"), added=True))
    robbed = then(hand, r.Win(S))
    out, n = played(robbed)
    assert [w.best.points for w in out.wins] == [2]  # type: ignore[union-attr]  # plain + Robbing the Kong
    assert upto(out, n) == (0, 2, -2, 0)  # the kong's 3 went back; the robbed player pays the value
    assert at(out, "KONG_REFUND", n - 1) == [(W, E, 1), (W, S, 1), (W, N, 1)]
    # play goes on after the robber (West, without a replacement tile), not at North
    assert "West's draw" in illegal(then(robbed, r.Draw(N, T("9s"))))
    no_rob = replace(hand, options=SichuanOptions(set_aside=False, robbing_kong=False))
    assert "no discard open" in illegal(then(no_rob, r.Win(S)))


def test_wall_end_ready_check_and_kong_refund() -> None:
    # the dealer konged (6 in), then nobody wins before the wall runs out; North (void m) throws its 99m first
    head = [deal(HANDS), *voids(B, B, B, M), r.Kong(E, T("1m")), r.Draw(E, T("6s")), r.Discard(E, T("6s")),
            r.Draw(S, T("5s")), r.Discard(S, T("5s")), r.Draw(W, T("7s")), r.Discard(W, T("7s")),
            r.Draw(N, T("8s")), r.Discard(N, T("9m")), r.Draw(E, T("9s")), r.Discard(E, T("9s")),
            r.Draw(S, T("9s")), r.Discard(S, T("9s")), r.Draw(W, T("9s")), r.Discard(W, T("9s")),
            r.Draw(N, T("1s")), r.Discard(N, T("9m"))]
    out = r.settle(exhaust(sc(*head)))
    assert [m.ready for m in out.seats] == [False, True, True, False]
    # 查大叫: East and North pay South and West their best value (1 each); 退税: East returns its 6
    assert tuple(m.net for m in out.seats) == (6 - 6 - 2, -2 + 2 + 1 + 1, -2 + 2 + 1 + 1, -2 + 2 - 2)
    assert len(reasons(out, "NOT_READY")) == 4 and out.pot == 0 and not out.wins
    off = r.settle(exhaust(sc(*head, opts=SichuanOptions(set_aside=False, ready_check=False, kong_refund=False))))
    assert tuple(m.net for m in off.seats) == (6, -2, -2, -2)
    # the lenient rule: North keeps its 99m to the end and pays the void penalty to the pot
    lenient = SichuanOptions(set_aside=False, void_discard=VoidDiscard.LENIENT)
    kept = r.settle(exhaust(sc(deal(HANDS), *voids(B, B, B, M), r.Kong(E, T("1m")), r.Draw(E, T("6s")),
                               r.Discard(E, T("6s")), opts=lenient)))
    assert kept.pot == 48 and reasons(kept, "VOID_PENALTY") == [(N, None, 48)]
    assert sum(m.net for m in kept.seats) + kept.pot == 0


def test_flower_pig_pays_everyone() -> None:
    # North (void s) draws and keeps a bamboo under the lenient rule: three suits at the wall's end
    opts = SichuanOptions(set_aside=False, flower_pig=True, void_discard=VoidDiscard.LENIENT, void_penalty=0)
    hand = sc(deal(HANDS), *voids(B, B, B, B), r.Discard(E, T("8m")), r.Draw(S, T("5s")), r.Discard(S, T("5s")),
              r.Draw(W, T("6s")), r.Discard(W, T("6s")), r.Draw(N, T("7s")), r.Discard(N, T("9m")), opts=opts)
    out = r.settle(exhaust(hand))
    assert set(reasons(out, "FLOWER_PIG")) == {(N, E, 16), (N, S, 16), (N, W, 16)}


def test_wall_end_only_when_the_wall_is_empty() -> None:
    assert "not empty" in illegal(sc(*START, r.Discard(E, T("8m")), r.DrawnGame(r.DrawnGameKind.EXHAUSTIVE)))


def test_void_suit_is_enforced() -> None:
    # North declares characters void while holding 99m: strict rule, 9m goes first
    head = [deal(HANDS), *voids(B, B, B, M), r.Discard(E, T("8m")), r.Draw(S, T("5s")), r.Discard(S, T("5s")),
            r.Draw(W, T("6s")), r.Discard(W, T("6s")), r.Draw(N, T("7s"))]
    assert "must discard it first" in illegal(sc(*head, r.Discard(N, T("7s"))))
    assert r.legal(sc(*head, r.Discard(N, T("9m"))))
    lenient = SichuanOptions(set_aside=False, void_discard=VoidDiscard.LENIENT)
    assert r.legal(sc(*head, r.Discard(N, T("7s")), opts=lenient))
    # nobody claims or wins with a tile of the void suit
    assert "void suit" in illegal(sc(deal(HANDS), *voids(B, B, M, B), r.Discard(E, T("2m")),
                                     r.Claim(W, MeldKind.PUNG, (T("2m"),) * 3)))
    assert "does not win" in illegal(sc(deal(HANDS), *voids(B, M, B, B), r.Kong(E, T("1m")), r.Draw(E, T("9p")),
                                        r.Discard(E, T("9p")), r.Win(S)))


def test_an_honour_in_an_event_is_no_sichuan_tile() -> None:
    """Sichuan plays the three suits: an honour discarded or konged by a seat is named as no Sichuan tile (an
    honour index ran off the end of a seat's counts: an IndexError, INTERNAL over the wire)."""
    for ev in (r.Discard(E, T("E")), r.Kong(E, T("C")), r.Discard(E, T("P"))):
        lg = sc(*START, ev)
        assert "not a Sichuan tile" in illegal(lg)
        with pytest.raises(r.IllegalEventError) as err:
            r.settle(lg)
        assert err.value.field == f"log.events[{len(START)}]"


def test_set_aside_tile_is_the_first_discard() -> None:
    mil = SichuanOptions()  # MIL: the void suit is declared by a tile set aside face down
    assert "sets no tile" in illegal(sc(deal(HANDS), *voids(B, B, B, M), opts=mil))
    assert "not a tile of its void suit" in illegal(sc(deal(HANDS), *voids(B, B, B, M, aside=(None, None, None, "1p")),
                                                       opts=mil))
    head = [deal(HANDS), *voids(B, B, M, B, aside=(None, None, "3m", None)), r.Discard(E, T("8m")),
            r.Draw(S, T("5s")), r.Discard(S, T("5s")), r.Draw(W, T("6s"))]
    assert "set-aside tile 3m" in illegal(sc(*head, r.Discard(W, T("2m")), opts=mil))
    assert r.legal(sc(*head, r.Discard(W, T("3m")), opts=mil))


def test_no_chow_and_turn_order() -> None:
    assert "never a chow" in illegal(sc(*START, r.Discard(E, T("9p")),
                                        r.Claim(S, MeldKind.CHOW, (T("7p"), T("8p"), T("9p")))))
    assert "out of turn" in illegal(sc(*START, r.Discard(S, T("4m"))))
    assert "South's draw" in illegal(sc(*START, r.Discard(E, T("8m")), r.Draw(W, T("5s"))))
    assert "fifth 9p" in illegal(sc(*START, r.Discard(E, T("8m")), r.Draw(S, T("9p")), r.Discard(S, T("9p")),
                                    r.Draw(W, T("9p"))))


def test_passed_win_blocks_a_discard_win_until_the_next_draw() -> None:
    # 过水: West lets the dealer's 9p go (plain, 0 fan), then may not win on South's 6p with no more fan
    lenient = SichuanOptions(set_aside=False, void_discard=VoidDiscard.LENIENT)
    head = [*START, r.Discard(E, T("9p")), r.Draw(S, T("5s")), r.Discard(S, T("6p"))]
    assert "passed a win" in illegal(sc(*head, r.Win(W), opts=lenient))
    assert r.legal(sc(*head, r.Draw(W, T("5s")), r.Discard(W, T("5s")), opts=lenient))


def test_false_win_penalty_and_refund() -> None:
    out, n = played(sc(*START, r.Kong(E, T("1m")), r.Draw(E, T("5s")), r.FalseWin(E), r.Discard(E, T("5s"))))
    assert upto(out, n) == (6 - 24 - 6, -2 + 8 + 2, -2 + 8 + 2, -2 + 8 + 2)
    assert len(reasons(out, "FALSE_WIN")) == 3
    assert "does not win" in illegal(sc(*START, r.Kong(E, T("1m")), r.Draw(E, T("5s")), r.Win(E, self_drawn=True)))


def test_self_draw_pays_value_plus_one_from_each_still_in() -> None:
    head = [*START, r.Discard(E, T("8m")), r.Draw(S, T("9p")), r.Win(S, self_drawn=True)]
    # South's first draw with nothing claimed yet: 地胡, the cap (2 ^ 4), + 1 from each
    out, n = played(sc(*head))
    assert upto(out, n) == (-17, 51, -17, -17)
    plain = SichuanOptions(set_aside=False, heavenly_earthly=False)
    out, n = played(sc(*head, opts=plain))
    assert upto(out, n) == (-2, 6, -2, -2)
    # the round goes on: West draws next, and South (out) pays nothing more
    out, n = played(sc(*head, r.Draw(W, T("6p")), r.Win(W, self_drawn=True), opts=plain))
    assert upto(out, n) == (-4, 6, -2 + 4, -4)


def test_round_options_are_checked() -> None:
    for bad in ({"void_penalty": -1}, {"false_win_penalty": 10**6}):
        with pytest.raises(BadOptionError) as e:
            r.legal(sc(deal(HANDS), opts=SichuanOptions(**bad)))  # type: ignore[arg-type]
        # named where the log holds them (the fuzz of tests/unit/test_referee_fuzz.py found them named as
        # an EvaluateRequest's)
        assert e.value.field == f"log.options.sichuan.{next(iter(bad))}"
        assert e.value.message.startswith(e.value.field + ": ")


def test_a_players_void_suit_option_is_refused_at_a_table() -> None:
    """options.sichuan.void_suit is one player's (Analyze's); a table's seats declare theirs by VoidSuit events.
    It was ignored, or refused as an EvaluateRequest's option only when a win's void differed."""
    for suit in Suit:
        with pytest.raises(BadOptionError) as e:
            r.legal(sc(deal(HANDS), opts=SichuanOptions(set_aside=False, void_suit=suit)))
        assert e.value.field == "log.options.sichuan.void_suit" and "VoidSuit" in e.value.message


def test_chengdu_table_defaults() -> None:
    # Chengdu: no set-aside tile, 呼叫转移 on 杠上炮, 查花猪 at the wall's end
    chengdu = SichuanOptions(variant=Variant.CHENGDU)
    out, _ = played(sc(*KONG_SHOT, r.Win(S), opts=chengdu))
    assert reasons(out, "KONG_TRANSFER") == [(E, S, 6)]
    assert "sets a tile aside" in illegal(sc(deal(HANDS), *voids(B, B, B, M, aside=(None, None, None, "9m")),
                                             opts=chengdu))
    head = [deal(HANDS), *voids(B, B, B, B), r.Discard(E, T("8m")), r.Draw(S, T("5s")), r.Discard(S, T("5s")),
            r.Draw(W, T("6s")), r.Discard(W, T("6s")), r.Draw(N, T("7s")), r.Discard(N, T("9m"))]

    def pigs(opts: SichuanOptions) -> list[tuple[Wind, Wind | None, int]]:
        lenient = replace(opts, void_discard=VoidDiscard.LENIENT)
        return reasons(r.settle(exhaust(sc(*head, opts=lenient))), "FLOWER_PIG")
    assert pigs(chengdu) == [(N, E, 64), (N, S, 64), (N, W, 64)]  # 2 ^ 6: the Chengdu cap
    assert pigs(PLAIN) == []  # MIL: no 查花猪 unless the option says
