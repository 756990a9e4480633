"""Test support: the shared Sichuan round records (/work/shared/oracles/settle/sichuan_rounds.jsonl.gz,
played by dcmshi/sichuan-mahjong, MIT) converted to the contract's HandLog (engine.referee) and Sichuan's options."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine import referee as r
from engine.hand import MeldKind, Suit, Wind
from engine.rules.sichuan.options import SelfDraw, SichuanOptions, Variant
from engine.rules.sichuan.round_options import VoidDiscard
from engine.tiles import parse_tile

ORACLE = Path(os.environ.get("MJSVC_ORACLES", "/work/shared/oracles")) / "settle" / "sichuan_rounds.jsonl.gz"
_SUITS = {"m": Suit.CHARACTERS, "p": Suit.DOTS, "s": Suit.BAMBOO}


def records() -> Iterator[dict[str, Any]]:
    with gzip.open(ORACLE, "rt", encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def tile(text: str) -> int:
    return parse_tile(text)


def options(rec: dict[str, Any]) -> SichuanOptions:
    r = rec["rules"]
    assert r["self_draw_bonus"] == 1
    return SichuanOptions(
        variant=Variant.MIL, fan_cap=r["fan_cap"], heavenly_earthly=r["heavenly_earthly"],
        self_draw=SelfDraw.ADD_BASE, exchange_three=r["exchange_three"], set_aside=True,
        void_discard=VoidDiscard.STRICT if r["void_discard_rule"] == "strict" else VoidDiscard.LENIENT,
        flower_pig=r["flower_pig"], robbing_kong=r["robbing_kong"])


def wind(rec: dict[str, Any], seat: int) -> Wind:
    """A record's absolute seat as the log's seat: the dealer is East."""
    return Wind((seat - rec["dealer"]) % 4)


def contract_events(rec: dict[str, Any]) -> list[r.HandEvent]:
    """The record as the contract's events (engine.referee): four VoidSuit events for the record's one."""
    w = lambda seat: wind(rec, seat)  # noqa: E731
    out: list[r.HandEvent] = []
    for e in rec["events"]:
        kind = e["type"]
        if kind == "deal":
            out.append(r.Deal(tuple(r.SeatTiles(w(s), tuple(tile(t) for t in h)) for s, h in enumerate(e["hands"]))))
        elif kind == "exchange":
            out.append(r.ExchangeThree(tuple(r.SeatExchange(w(s), tuple(tile(t) for t in ts), w(e["to"][s]))
                                             for s, ts in enumerate(e["tiles"]))))
        elif kind == "void":
            out += [r.VoidSuit(w(s), _SUITS[u], None if a is None else tile(a))
                    for s, (u, a) in enumerate(zip(e["suits"], e["set_aside"], strict=True))]
        elif kind == "draw":
            out.append(r.Draw(w(e["seat"]), tile(e["tile"])))
        elif kind == "discard":
            out.append(r.Discard(w(e["seat"]), tile(e["tile"])))
        elif kind == "call":
            n = 3 if e["kind"] == "pon" else 4
            out.append(r.Claim(w(e["seat"]), MeldKind.PUNG if n == 3 else MeldKind.KONG, (tile(e["tile"]),) * n))
        elif kind == "kong":
            out.append(r.Kong(w(e["seat"]), tile(e["tile"]), added=e["kind"] != "concealed"))
        elif kind == "win":
            out.append(r.Win(w(e["seat"]), self_drawn=e["from"] is None))
        elif kind == "false_win":
            out.append(r.FalseWin(w(e["seat"])))
        elif kind == "draw_game":
            out.append(r.DrawnGame(r.DrawnGameKind.EXHAUSTIVE))
    return out


def hand_log(rec: dict[str, Any]) -> r.HandLog:
    return r.HandLog("sichuan", tuple(contract_events(rec)), options(rec))
