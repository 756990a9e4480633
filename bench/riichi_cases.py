"""Riichi cases for the oracle tests and the benchmark: majiang-core's scored wins read into engine types.

`read_majiang(item)` turns one item of `shared/oracles/riichi/hule_5000.json` (majiang-core's test data,
MIT; its README there describes the notation) into (Hand, WinContext, expected answer).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.hand import ClaimedFrom, Hand, Meld, MeldKind, WinContext, Wind, make_meld, winning_hand
from engine.tiles import parse_tile

_MARKS = {"-": ClaimedFrom.LEFT, "=": ClaimedFrom.ACROSS, "+": ClaimedFrom.RIGHT}


def shared_dir() -> Path:
    """shared/ beside the repository (or MJSVC_SHARED)."""
    env = os.environ.get("MJSVC_SHARED")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parents[1]
    for base in (here.parent, here.parent.parent):
        if (base / "shared" / "oracles").is_dir():
            return base / "shared"
    return here.parent / "shared"


def majiang_tile(suit: str, digit: str) -> tuple[int, bool]:
    """(engine tile, is a red five) of a majiang tile such as m0 (red 5m) or z5 (white)."""
    red = digit == "0"
    return parse_tile(f"{'5' if red else digit}{suit}"), red


@dataclass(frozen=True)
class Expected:
    yaku: dict[int, int]  # Tenhou id -> han (dora: their count; yakuman: 13 per multiple)
    fu: int | None
    han: int | None
    yakuman: int
    points: int
    payments: tuple[int, int, int, int]


def _meld(text: str, index: int, reds: list[int]) -> Meld:
    suit = text[0]
    tiles: list[int] = []
    claimed_at: int | None = None
    source = ClaimedFrom.NONE
    for ch in text[1:]:
        if ch in _MARKS:
            claimed_at = len(tiles) - 1
            source = _MARKS[ch]
            continue
        t, red = majiang_tile(suit, ch)
        tiles.append(t)
        if red:
            reds.append(t)
    field = f"melds[{index}]"
    if len(tiles) == 4:
        if claimed_at is None:
            return make_meld(MeldKind.KONG, tiles, concealed=True, field=field)
        return make_meld(MeldKind.KONG, tiles, added=claimed_at != 3, claimed_from=source, field=field)
    kind = MeldKind.PUNG if len(set(tiles)) == 1 else MeldKind.CHOW
    index_in_sorted = sorted(range(3), key=lambda i: tiles[i]).index(claimed_at) if claimed_at is not None else None
    return make_meld(kind, tiles, claimed_from=source, claimed_index=index_in_sorted, field=field)


def read_majiang(item: dict[str, Any]) -> tuple[Hand, WinContext, Expected]:
    src = item["in"]
    parts = src["shoupai"].split(",")
    reds: list[int] = []
    concealed: list[int] = []
    suit = ""
    for ch in parts[0]:
        if ch in "mpsz":
            suit = ch
        elif ch.isdigit():
            t, red = majiang_tile(suit, ch)
            concealed.append(t)
            if red:
                reds.append(t)
    melds = [_meld(p, i, reds) for i, p in enumerate(p for p in parts[1:] if p)]
    rong = src.get("rongpai")
    discarded_by = ClaimedFrom.NONE
    if rong:
        win, red = majiang_tile(rong[0], rong[1])
        if red:
            reds.append(win)
        discarded_by = _MARKS[rong[2]]
    else:
        win = concealed.pop()
    param = src["param"]
    hupai = param.get("hupai", {})
    lizhi = hupai.get("lizhi", 0)
    haidi = hupai.get("haidi", 0)
    tianhu = hupai.get("tianhu", 0)
    ctx = WinContext(
        self_drawn=not rong,
        robbing_kong=bool(hupai.get("qianggang")),
        replacement_tile=bool(hupai.get("lingshang")),
        last_wall_tile=bool(haidi),
        seat_wind=Wind(param["menfeng"]),
        prevalent_wind=Wind(param["zhuangfeng"]),
        heavenly=tianhu == 1,
        earthly=tianhu == 2,
        riichi=lizhi >= 1,
        double_riichi=lizhi == 2,
        ippatsu=bool(hupai.get("yifa")),
        dora_indicators=tuple(majiang_tile(t[0], t[1])[0] for t in param.get("baopai") or ()),
        ura_dora_indicators=tuple(majiang_tile(t[0], t[1])[0] for t in param.get("fubaopai") or ()),
        honba=param["jicun"]["changbang"],
        riichi_sticks=param["jicun"]["lizhibang"],
        discarded_by=discarded_by,
    )
    hand = winning_hand(concealed, melds, win, reds)
    return hand, ctx, _expected(item["out"])


def _expected(out: dict[str, Any]) -> Expected:
    from engine.rules.riichi.yaku import TABLE

    by_name = {row.native: int(row.id) for row in TABLE.rows}
    yaku = {}
    for h in out.get("hupai") or ():
        n = h["fanshu"]
        yaku[by_name[h["name"]]] = 13 * len(n) if isinstance(n, str) else n
    return Expected(yaku, out.get("fu"), out.get("fanshu"), out.get("damanguan") or 0, out["defen"],
                    tuple(out["fenpei"]))


def load_hule(limit: int | None = None) -> list[dict[str, Any]]:
    path = shared_dir() / "oracles" / "riichi" / "hule_5000.json"
    data: list[dict[str, Any]] = json.loads(path.read_text())
    return data[:limit] if limit else data
