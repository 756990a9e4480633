"""Test support: the shared Sichuan round records (/work/shared/oracles/settle/sichuan_rounds.jsonl.gz,
played by dcmshi/sichuan-mahjong, MIT) converted to the referee's events and options."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.hand import MeldKind, Suit
from engine.rules.round import Claim, Deal, Discard, Draw, FalseWin, Kong, WallEnd, Win
from engine.rules.sichuan.options import SelfDraw, SichuanOptions, Variant
from engine.rules.sichuan.referee import Event, Exchange, VoidSuits
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


def event(e: dict[str, Any]) -> Event | None:
    kind = e["type"]
    if kind == "deal":
        return Deal(tuple(tuple(tile(t) for t in h) for h in e["hands"]), e["dealer"])
    if kind == "exchange":
        return Exchange(tuple(tuple(tile(t) for t in ts) for ts in e["tiles"]), tuple(e["to"]))
    if kind == "void":
        return VoidSuits(tuple(_SUITS[s] for s in e["suits"]),
                         tuple(None if t is None else tile(t) for t in e["set_aside"]))
    if kind == "draw":
        return Draw(e["seat"], tile(e["tile"]))
    if kind == "discard":
        return Discard(e["seat"], tile(e["tile"]))
    if kind == "call":
        return Claim(e["seat"], MeldKind.PUNG if e["kind"] == "pon" else MeldKind.KONG, tile(e["tile"]), e["from"])
    if kind == "kong":
        return Kong(e["seat"], tile(e["tile"]), e["kind"] == "concealed")
    if kind == "win":
        return Win(e["seat"], tile(e["tile"]), e["from"])
    if kind == "false_win":
        return FalseWin(e["seat"])
    if kind == "draw_game":
        assert e["kind"] == "exhaustive"
        return WallEnd()
    if kind == "round_end":
        return None  # derived: the third win ends the round
    raise ValueError(f"unknown event {kind}")


def events(rec: dict[str, Any]) -> list[Event]:
    return [ev for ev in (event(e) for e in rec["events"]) if ev is not None]
