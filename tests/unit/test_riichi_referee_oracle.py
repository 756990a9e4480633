"""The Riichi referee against whole hands played by majiang-core 1.4.1 (MIT;
/work/shared/oracles/settle/riichi_rounds.jsonl.gz, format in its README): every hand's log replays with each
event legal, settles to the record's net seat by seat, honba and sticks after it and whether the dealer
continues; and at every decision point the record kept (its `legal`, `ron_blocked`), our Legal offers the
same: the seats that may ron (robbing a kong too), those in furiten, pung, open kong and chow claims, the
self-drawn win, nine terminals, the riichi discards, the kongs in turn and the discards after a call (swap
calling removed).

A seeded sample runs here; all 1,879 hands run in tests/slow/test_riichi_referee_oracle_full.py."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from riichi_rounds import ORACLE, event, hand_log, kind, net_by_wind, records, wind

from engine import referee
from engine.hand import Wind
from engine.referee import ActionKind, SeatActions
from engine.rules.riichi.referee import Table

pytestmark = pytest.mark.skipif(not ORACLE.exists(), reason="shared oracle data not present")
SAMPLE = 150
_FURITEN = {"furiten_discard", "furiten_temporary", "furiten_riichi"}


def _tiles(acts: SeatActions | None, what: ActionKind) -> set[tuple[int, ...]]:
    return set() if acts is None else {a.tiles for a in acts.actions if a.kind == what}


def _has(acts: SeatActions | None, what: ActionKind) -> bool:
    return acts is not None and any(a.kind == what for a in acts.actions)


def expected_vs_ours(rec: dict[str, Any], e: dict[str, Any], legal: tuple[SeatActions, ...]) -> list[str]:
    """What differs between the record's options after event `e` and our Legal there."""
    by = {a.seat: a for a in legal}
    lg = e.get("legal") or {}
    out: list[str] = []

    def check(what: str, theirs: Any, ours: Any) -> None:
        if theirs != ours:
            out.append(f"{e['type']} {what}: majiang {theirs} ours {ours}")

    if e["type"] == "draw":
        me = by.get(wind(rec, e["seat"]))
        check("tsumo", bool(lg.get("tsumo")), _has(me, ActionKind.WIN_SELF_DRAWN))
        check("nine_terminals", bool(lg.get("nine_terminals")), _has(me, ActionKind.NINE_TERMINALS))
        check("riichi", {kind(t) for t in lg.get("riichi", [])}, {t[0] for t in _tiles(me, ActionKind.RIICHI)})
        kongs = {(kind(k["tiles"][0]), k["kind"]) for k in lg.get("kan", [])}
        ours = {(t[0], "concealed") for t in _tiles(me, ActionKind.KONG_CONCEALED)}
        ours |= {(t[0], "added") for t in _tiles(me, ActionKind.KONG_ADDED)}
        check("kan", kongs, ours)
    elif e["type"] in ("discard", "kong"):
        if e["type"] == "kong" and e["kind"] != "added":
            return out
        rons = set(lg.get("ron" if e["type"] == "discard" else "chankan", []))
        check("ron", {wind(rec, s) for s in rons}, {s for s, a in by.items() if _has(a, ActionKind.WIN_DISCARD)})
        blocked = {wind(rec, b["seat"]) for b in e.get("ron_blocked", []) if b["reason"] in _FURITEN}
        check("furiten", blocked, {s for s, a in by.items() if a.furiten})
        if e["type"] == "discard":
            check("pon", {wind(rec, s) for s in lg.get("pon", [])},
                  {s for s, a in by.items() if _has(a, ActionKind.PUNG)})
            check("kan", {wind(rec, s) for s in lg.get("kan", [])},
                  {s for s, a in by.items() if _has(a, ActionKind.KONG_CLAIMED)})
            nxt = Wind((wind(rec, e["seat"]) + 1) % 4)
            check("chi", {tuple(sorted(kind(t) for t in c)) for c in lg.get("chi", [])},
                  _tiles(by.get(nxt), ActionKind.CHOW))
    elif e["type"] == "call" and e["kind"] in ("chi", "pon"):
        me = by.get(wind(rec, e["seat"]))
        check("discards", {kind(t) for t in lg.get("discards", [])}, {t[0] for t in _tiles(me, ActionKind.DISCARD)})
    return out


def check_hand(rec: dict[str, Any], counts: Counter[str]) -> list[str]:
    """Replay one record: every decision point against ours, then the settlement. Counts what it compared."""
    log = hand_log(rec)
    table = Table(log)
    problems: list[str] = []
    for i, e in enumerate(rec["events"]):
        table.apply(i, event(rec, e))
        if e["type"] in ("draw", "discard", "kong", "call"):
            found = expected_vs_ours(rec, e, table.legal())
            counts["decision points"] += 1
            counts["decision points agreeing"] += not found
            problems += [f"{rec['id']} event {i}: {p}" for p in found]
    s = table.settlement()
    counts["hands"] += 1
    got = ([m.net for m in s.seats], s.honba_next, s.riichi_sticks_next, s.dealer_continues)
    want = (net_by_wind(rec), rec["honba_after"], rec["sticks_after"], rec["reference"]["dealer_continues"])
    if got != want:
        problems.append(f"{rec['id']}: settled {got}, majiang-core {want}")
    else:
        counts["hands settled alike"] += 1
    return problems


def sample() -> list[dict[str, Any]]:
    recs = list(records())
    rng = random.Random(20260601)
    return rng.sample(recs, SAMPLE)


def test_a_sample_of_hands_agrees_with_majiang_core() -> None:
    counts: Counter[str] = Counter()
    problems = [p for rec in sample() for p in check_hand(rec, counts)]
    assert problems == []
    assert counts["hands settled alike"] == SAMPLE and counts["decision points"] > 10 * SAMPLE


def test_the_public_entry_points_answer_as_the_replay() -> None:
    """legal(prefix) and settle(log) through engine.referee (the rule set's registered referee) answer as the
    step-by-step replay the sample uses."""
    rng = random.Random(7)
    for rec in rng.sample(sample(), 8):
        log = hand_log(rec)
        s = referee.settle(log)
        assert [m.net for m in s.seats] == net_by_wind(rec)
        assert sum(m.net for m in s.seats) + s.pot == 0
        for upto in sorted(rng.sample(range(1, len(rec["events"])), 5)):
            e = rec["events"][upto - 1]
            assert expected_vs_ours(rec, e, referee.legal(hand_log(rec, upto))) == []
