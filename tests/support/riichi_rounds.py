"""Test support: the shared Riichi hand records (/work/shared/oracles/settle/riichi_rounds.jsonl.gz, played by
majiang-core 1.4.1, MIT; format in that directory's README) as the referee's HandLog.

Seats: the records number seats absolutely (0-3 in turn order); the log's seats are winds, the dealer East,
so a record's seat s is Wind((s - dealer) mod 4). Tiles: `0m 0p 0s` are the red fives (a 5 with its red
flag). The dealer's 14th tile is its first `draw` event, as in the records."""

from __future__ import annotations

import gzip
import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.hand import MeldKind, Wind
from engine.referee import (
    ActionKind,
    Claim,
    Deal,
    Discard,
    DoraIndicator,
    Draw,
    DrawnGame,
    DrawnGameKind,
    HandEvent,
    HandLog,
    Kong,
    SeatActions,
    SeatTiles,
    Win,
)
from engine.rules.riichi.referee import Table
from engine.tiles import parse_tile

ORACLE = Path(os.environ.get("MJSVC_ORACLES", "/work/shared/oracles")) / "settle" / "riichi_rounds.jsonl.gz"
_ROUNDS = {"E": Wind.EAST, "S": Wind.SOUTH, "W": Wind.WEST, "N": Wind.NORTH}
_CALLS = {"chi": MeldKind.CHOW, "pon": MeldKind.PUNG, "kan": MeldKind.KONG}
_DRAWN = {"exhaustive": DrawnGameKind.EXHAUSTIVE, "nine_terminals": DrawnGameKind.NINE_TERMINALS,
          "four_winds": DrawnGameKind.FOUR_WINDS, "four_riichi": DrawnGameKind.FOUR_RIICHI,
          "four_kongs": DrawnGameKind.FOUR_KONGS, "three_ron": DrawnGameKind.THREE_RON}


def records() -> Iterator[dict[str, Any]]:
    with gzip.open(ORACLE, "rt", encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def tile(text: str) -> tuple[int, bool]:
    """A record's tile: (engine index, red)."""
    if text[0] == "0":
        return parse_tile("5" + text[1]), True
    return parse_tile(text), False


def kind(text: str) -> int:
    return tile(text)[0]


def wind(rec: dict[str, Any], seat: int) -> Wind:
    return Wind((seat - rec["dealer"]) % 4)


def seat_of(rec: dict[str, Any], w: Wind) -> int:
    """The record's absolute seat of a wind."""
    return (rec["dealer"] + int(w)) % 4


def _reds(tiles: list[str]) -> tuple[int, ...]:
    return tuple(kind(t) for t in tiles if t[0] == "0")


def event(rec: dict[str, Any], e: dict[str, Any]) -> HandEvent:
    k = e["type"]
    if k == "deal":
        hands = tuple(SeatTiles(wind(rec, s), tuple(kind(t) for t in h), _reds(h)) for s, h in enumerate(e["hands"]))
        return Deal(tuple(sorted(hands, key=lambda h: h.seat)), (kind(e["dora_indicator"]),))
    if k == "draw":
        t, red = tile(e["tile"])
        return Draw(wind(rec, e["seat"]), t, red)
    if k == "discard":
        t, red = tile(e["tile"])
        return Discard(wind(rec, e["seat"]), t, red, bool(e["riichi"]))
    if k == "call":
        return Claim(wind(rec, e["seat"]), _CALLS[e["kind"]], tuple(kind(t) for t in e["tiles"]), _reds(e["tiles"]))
    if k == "kong":
        t, red = tile(e["tile"])
        return Kong(wind(rec, e["seat"]), t, e["kind"] == "added", red and e["kind"] == "added")
    if k == "dora":
        return DoraIndicator(kind(e["indicator"]))
    if k == "win":
        ura = (e.get("reference") or {}).get("ura_indicators") or ()
        return Win(wind(rec, e["seat"]), e["from"] is None, tuple(kind(t) for t in ura))
    if k == "draw_game":
        return DrawnGame(_DRAWN[e["kind"]])
    raise ValueError(f"unknown event {k}")


def hand_log(rec: dict[str, Any], upto: int | None = None) -> HandLog:
    """The record as a HandLog (its first `upto` events when given)."""
    evs = rec["events"] if upto is None else rec["events"][:upto]
    scores = tuple(rec["scores_before"][seat_of(rec, Wind(w))] for w in range(4))
    return HandLog(rule_set="riichi", events=tuple(event(rec, e) for e in evs), options=None,
                   prevalent_wind=_ROUNDS[rec["round_wind"]], honba=rec["honba"], riichi_sticks=rec["sticks"],
                   scores=scores)


def net_by_wind(rec: dict[str, Any]) -> list[int]:
    return [rec["settlement"]["net"][seat_of(rec, Wind(w))] for w in range(4)]


# ---------------------------------------------------------------------------------------------
# The record's options at each decision point against our Legal

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


