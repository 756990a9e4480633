"""Test support: the shared Riichi hand records (/work/shared/oracles/settle/riichi_rounds.jsonl.gz, played by
majiang-core 1.4.1, MIT; format in that directory's README) as the referee's HandLog.

Seats: the records number seats absolutely (0-3 in turn order); the log's seats are winds, the dealer East,
so a record's seat s is Wind((s - dealer) mod 4). Tiles: `0m 0p 0s` are the red fives (a 5 with its red
flag). The dealer's 14th tile is its first `draw` event, as in the records."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.hand import MeldKind, Wind
from engine.referee import (
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
    SeatTiles,
    Win,
)
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
