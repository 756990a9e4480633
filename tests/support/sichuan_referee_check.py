"""Test support: one Sichuan oracle round (sichuan_rounds) checked through the referee's contract only: the
record as a HandLog, engine.referee.settle and engine.referee.legal. The rulings where the reference departs
from the common rules (listed in tests/unit/test_sichuan_referee_oracle.py) are applied to our settlement
before the comparison; `check` returns the rulings it used."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sichuan_rounds import hand_log, tile

from engine import api
from engine import referee as r
from engine.hand import Wind
from engine.referee import ActionKind
from engine.rules.sichuan.fans import Fan
from engine.rules.sichuan.referee import RULE_SET, replay_log
from engine.tiles import suit_of

_SUITS = {"m": 0, "p": 1, "s": 2}


def _upto(log: r.HandLog, n: int) -> r.HandLog:
    return replace(log, events=log.events[:n])


def value_without_kong_fan(state: Any, seat: int, payer: int) -> int:
    """Ruling 1: the reference's 查大叫 amount, the best wait's value without the Kong fan."""
    s = state.seats[seat]
    opts = replace(state.opts, void_suit=s.void)
    best = 0
    for tc in api.analyze(state.hand(seat, None), (), RULE_SET, opts).waits:
        ev = api.evaluate(state.hand(seat, tc.tile), state.context(seat, payer), RULE_SET, opts)
        for sc in (ev.best, *ev.alternatives):
            if sc is not None:
                fan = sum(h.points for h in sc.fans if h.fan.id != Fan.KONG)
                best = max(best, 2 ** min(fan, opts.cap))
    return best


def reference_view(log: r.HandLog, out: r.Settlement) -> tuple[list[int], int, set[str]]:
    """Our settlement (seats by wind, East = seat 0 of the replay) with the reference's documented departures
    applied; the rulings used."""
    used: set[str] = set()
    lines = [(m.reason, int(m.payer), None if m.payee is None else int(m.payee), m.amount, m.event_index)
             for m in out.lines]
    win_at = [i for i, e in enumerate(log.events) if isinstance(e, r.Win)]
    for at, w in zip(win_at, out.wins, strict=True):  # ruling 3
        assert w.best is not None
        ids = {h.fan.id for h in w.best.fans}
        if Fan.SHOOT_AFTER_KONG in ids and Fan.UNDER_THE_SEA in ids:
            used.add("shoot_after_kong_last_tile")
            state = replay_log(_upto(log, at)).state
            discarder, t = state.discard
            seat = int(log.events[at].seat)  # type: ignore[union-attr]
            ctx = state.context(seat, discarder, last_wall_tile=True)
            value = api.evaluate(state.hand(seat, t), ctx, RULE_SET, state.opts).best.points  # type: ignore[union-attr]
            lines = [(k, p, q, value if k == "WIN" and i == at and q == seat else a, i) for k, p, q, a, i in lines
                     if not (i == at and k == "KONG_REFUND")]
    end = replay_log(log).state if any(k == "NOT_READY" for k, *_ in lines) else None
    fixed = []
    for k, p, q, a, i in lines:  # ruling 1
        if k == "NOT_READY":
            assert end is not None and q is not None
            theirs = value_without_kong_fan(end, q, p)
            if theirs != a:
                used.add("ready_check_without_kong_fan")
                a = theirs
        fixed.append((k, p, q, a, i))
    net, pot = [0] * 4, 0
    for _, p, q, a, _ in fixed:
        net[p] -= a
        if q is None:
            pot += a
        else:
            net[q] += a
    return net, pot, used


def expected(rec: dict[str, Any]) -> tuple[list[int], int, set[str]]:
    """The reference's net and pot (seats by wind), without the end-of-round lines it settles after three wins
    (ruling 2)."""
    net, pot = list(rec["settlement"]["net"]), rec["settlement"]["pot"]
    used: set[str] = set()
    if rec["events"][-1]["type"] == "round_end":
        for line in rec["settlement"]["lines"]:
            if line.get("round_end"):
                assert line["kind"] in ("kong_refund", "flower_pig", "void_penalty", "not_ready_payout"), line
                used.add("end_settlement_after_three_wins")
                net[line["from"]] += line["amount"]
                if line["to"] is None:
                    pot -= line["amount"]
                else:
                    net[line["to"]] -= line["amount"]
    d = rec["dealer"]
    return [net[(w + d) % 4] for w in range(4)], pot, used


def check_legal(rec: dict[str, Any], log: r.HandLog) -> set[str]:
    """After every event that carries the reference's `legal`, our Legal (through the contract) offers the same."""
    used: set[str] = set()
    d = rec["dealer"]
    void_event = next(e for e in rec["events"] if e["type"] == "void")
    at = 0  # the contract events after the record's event i (the record's one void event is four)
    for i, e in enumerate(rec["events"]):
        at += 4 if e["type"] == "void" else 0 if e["type"] == "round_end" else 1
        offered = e.get("legal")
        if offered is None:
            continue
        ours = r.legal(_upto(log, at))
        where = f"{rec['id']} events[{i}]"

        def seats(kind: ActionKind, ours: tuple[r.SeatActions, ...] = ours) -> list[int]:
            return sorted((int(a.seat) + d) % 4 for a in ours if any(x.kind == kind for x in a.actions))

        if e["type"] == "discard":
            assert seats(ActionKind.WIN_DISCARD) == sorted(offered.get("hu", [])), where
            assert seats(ActionKind.PUNG) == sorted(offered.get("pung", [])), where
            assert seats(ActionKind.KONG_CLAIMED) == sorted(offered.get("kong", [])), where
            continue
        if e["type"] == "kong":
            assert seats(ActionKind.WIN_DISCARD) == sorted(offered.get("rob", [])), where
            continue
        assert e["type"] in ("void", "draw", "call"), where
        turn = [a for a in ours if any(x.kind == ActionKind.DISCARD for x in a.actions)]
        assert len(turn) == 1, where
        me = turn[0]
        seat = (int(me.seat) + d) % 4
        acts = {x.kind: [] for x in me.actions}  # type: dict[ActionKind, list[tuple[int, ...]]]
        for x in me.actions:
            acts[x.kind].append(x.tiles)
        assert bool(offered.get("self_win")) == (ActionKind.WIN_SELF_DRAWN in acts), where
        void = _SUITS[void_event["suits"][seat]]
        theirs = sorted((tile(k["tile"]), k["kind"] == "concealed") for k in offered.get("kan", []))
        void_kongs = [k for k in theirs if suit_of(k[0]) == void]
        if void_kongs:
            used.add("no_kong_of_the_void_suit")
            theirs = [k for k in theirs if k not in void_kongs]
        mine = sorted([(ts[0], True) for ts in acts.get(ActionKind.KONG_CONCEALED, [])]
                      + [(ts[0], False) for ts in acts.get(ActionKind.KONG_ADDED, [])])
        assert mine == theirs, where
        discards = [ts[0] for ts in acts[ActionKind.DISCARD]]
        if "must_flip_set_aside" in offered:
            assert discards == [tile(void_event["set_aside"][seat])], where
        elif "discard_void_suit_first" in offered:
            assert {suit_of(t) for t in discards} == {void}, where
        else:
            held = replay_log(_upto(log, at)).state.seats[int(me.seat)].counts
            assert discards == [t for t in range(27) if held[t]], where
    return used


def check(rec: dict[str, Any], legal_too: bool) -> set[str]:
    """The round settles through the contract to the reference's net, pot, ready seats and next dealer;
    `legal_too`: Legal agrees at every decision point the reference recorded."""
    log = hand_log(rec)
    out = r.settle(log)
    ours, our_pot, used = reference_view(log, out)
    theirs, their_pot, used2 = expected(rec)
    assert (ours, our_pot) == (theirs, their_pot), rec["id"]
    assert sum(m.net for m in out.seats) + out.pot == 0 and all(w.is_win for w in out.wins)
    assert [m.seat for m in out.seats] == list(Wind)
    if rec["events"][-1]["type"] == "draw_game":
        ready = rec["settlement"]["ready"]
        assert [m.ready for m in out.seats] == [ready[(w + rec["dealer"]) % 4] is True for w in range(4)], rec["id"]
    assert out.dealer_continues == (rec["settlement"]["next_dealer"] == rec["dealer"]), rec["id"]
    return used | used2 | (check_legal(rec, log) if legal_too else set())
