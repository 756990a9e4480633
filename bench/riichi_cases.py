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
    if Path("/work/shared/oracles").is_dir():  # this workplace's shared/, wherever the checkout is
        return Path("/work/shared")
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
    from engine.rules.riichi.fans import TABLE

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


# ---------------------------------------------------------------------------------------------
# A seeded generator of legal winning situations, for the differential tests against `mahjong` and
# `riichienv` and for the benchmark. Themes bias the sets so that every yaku and yakuman appears.

THEMES = ("random", "random", "random", "simples", "flush", "half_flush", "outside", "junchan", "ittsu",
          "sanshoku", "doukou", "pungs", "dragons", "big_dragons", "winds", "big_winds", "honours", "green",
          "terminals", "honroutou", "peikou", "ryanpeikou", "pinfu", "kongs", "nine_gates", "seven_pairs",
          "seven_pairs", "kokushi", "value")

_GREEN_PUNGS = (19, 20, 21, 23, 25, 32)
_TERMINALS = (0, 8, 9, 17, 18, 26)
_HONOURS = tuple(range(27, 34))
_DRAGONS = (31, 32, 33)
_WINDS = (27, 28, 29, 30)


@dataclass(frozen=True)
class RCase:
    hand: Hand
    ctx: WinContext
    theme: str


def _chow_firsts(suits: tuple[int, ...] = (0, 1, 2), ranks: tuple[int, ...] = tuple(range(7))) -> list[int]:
    return [9 * s + r for s in suits for r in ranks]


def _sets_for(theme: str, rng: Any) -> tuple[list[tuple[str, int]], int] | None:
    """Four (kind, first tile) sets and the pair tile for a standard-shape theme."""
    suit = rng.randrange(3)
    def chow(firsts: list[int]) -> tuple[str, int]:
        return ("chow", rng.choice(firsts))
    def pung(tiles: tuple[int, ...] | list[int]) -> tuple[str, int]:
        return ("pung", rng.choice(list(tiles)))
    all_tiles = list(range(34))
    simples = [t for t in range(27) if t % 9 not in (0, 8)]
    sets: list[tuple[str, int]] = []
    if theme == "random":
        sets = [chow(_chow_firsts()) if rng.random() < 0.6 else pung(all_tiles) for _ in range(4)]
        pair = rng.choice(all_tiles)
    elif theme == "simples":
        sets = [chow(_chow_firsts(ranks=tuple(range(1, 6)))) if rng.random() < 0.6 else pung(simples)
                for _ in range(4)]
        pair = rng.choice(simples)
    elif theme in ("flush", "half_flush"):
        own = [9 * suit + r for r in range(9)]
        pool = own + (list(_HONOURS) if theme == "half_flush" else [])
        sets = [chow(_chow_firsts((suit,))) if rng.random() < 0.6 else pung(pool) for _ in range(4)]
        pair = rng.choice(pool)
        if theme == "half_flush" and not any(f >= 27 for _, f in sets) and pair < 27:
            pair = rng.choice(_HONOURS)
    elif theme in ("outside", "junchan"):
        ends = _chow_firsts(ranks=(0, 6))
        pool = list(_TERMINALS) + ([] if theme == "junchan" else list(_HONOURS))
        sets = [chow(ends)] + [chow(ends) if rng.random() < 0.6 else pung(pool) for _ in range(3)]
        pair = rng.choice(pool)
    elif theme == "ittsu":
        sets = [("chow", 9 * suit), ("chow", 9 * suit + 3), ("chow", 9 * suit + 6),
                chow(_chow_firsts()) if rng.random() < 0.5 else pung(all_tiles)]
        pair = rng.choice(all_tiles)
    elif theme == "sanshoku":
        r = rng.randrange(7)
        sets = [("chow", r), ("chow", 9 + r), ("chow", 18 + r), chow(_chow_firsts()) if rng.random() < 0.5
                else pung(all_tiles)]
        pair = rng.choice(all_tiles)
    elif theme == "doukou":
        r = rng.randrange(9)
        sets = [("pung", r), ("pung", 9 + r), ("pung", 18 + r), chow(_chow_firsts()) if rng.random() < 0.5
                else pung(all_tiles)]
        pair = rng.choice(all_tiles)
    elif theme in ("pungs", "kongs"):
        sets = [pung(all_tiles) for _ in range(4)]
        pair = rng.choice(all_tiles)
    elif theme in ("dragons", "big_dragons"):
        ds = list(_DRAGONS)
        rng.shuffle(ds)
        n = 3 if theme == "big_dragons" else 2
        sets = [("pung", d) for d in ds[:n]] + [chow(_chow_firsts()) if rng.random() < 0.5 else pung(all_tiles)
                                                for _ in range(4 - n)]
        pair = ds[2] if theme == "dragons" else rng.choice(all_tiles)
    elif theme in ("winds", "big_winds"):
        ws = list(_WINDS)
        rng.shuffle(ws)
        n = 4 if theme == "big_winds" else 3
        sets = [("pung", w) for w in ws[:n]] + [chow(_chow_firsts()) if rng.random() < 0.5 else pung(all_tiles)
                                                for _ in range(4 - n)]
        pair = ws[3] if theme == "winds" else rng.choice(all_tiles)
    elif theme == "honours":
        hs = rng.sample(_HONOURS, 5)
        sets = [("pung", h) for h in hs[:4]]
        pair = hs[4]
    elif theme == "green":
        sets = [("chow", 19) if rng.random() < 0.4 else pung(_GREEN_PUNGS) for _ in range(4)]
        pair = rng.choice(_GREEN_PUNGS)
    elif theme in ("terminals", "honroutou"):
        pool = list(_TERMINALS) + (list(_HONOURS) if theme == "honroutou" else [])
        picks = rng.sample(pool, 5)
        sets = [("pung", t) for t in picks[:4]]
        pair = picks[4]
    elif theme in ("peikou", "ryanpeikou"):
        a = rng.choice(_chow_firsts())
        sets = [("chow", a), ("chow", a)]
        if theme == "ryanpeikou":
            b = rng.choice(_chow_firsts())
            sets += [("chow", b), ("chow", b)]
        else:
            sets += [chow(_chow_firsts()) if rng.random() < 0.6 else pung(all_tiles) for _ in range(2)]
        pair = rng.choice(all_tiles)
    elif theme == "pinfu":
        sets = [chow(_chow_firsts()) for _ in range(4)]
        pair = rng.choice(list(range(30)))
    elif theme == "value":
        sets = [pung((*_DRAGONS, *_WINDS))] + [chow(_chow_firsts()) if rng.random() < 0.6 else pung(all_tiles)
                                               for _ in range(3)]
        pair = rng.choice(all_tiles)
    else:
        return None
    return sets, pair


_SHAPE_DRAW = {"chow": MeldKind.CHOW, "pung": MeldKind.PUNG}


def _tiles_of(kind: str, first: int) -> list[int]:
    return [first, first + 1, first + 2] if kind == "chow" else [first] * (4 if kind == "kong" else 3)


def _ok_counts(tiles: list[int]) -> bool:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return max(counts) <= 4


def generate(n: int, seed: int) -> list[RCase]:
    """`n` legal winning situations (each theme in turn, random within it), reproducible from `seed`."""
    import random

    rng = random.Random(seed)
    out: list[RCase] = []
    i = 0
    while len(out) < n:
        theme = THEMES[i % len(THEMES)]
        i += 1
        case = _one(theme, rng)
        if case is not None:
            out.append(case)
    return out


def _one(theme: str, rng: Any) -> RCase | None:
    melds: list[Meld] = []
    if theme == "seven_pairs":
        kinds = rng.sample(range(34), 7)
        concealed = [t for k in kinds for t in (k, k)]
        win = concealed.pop(rng.randrange(14))
    elif theme == "kokushi":
        extra = rng.choice(_TERMINALS + _HONOURS)
        concealed = list(_TERMINALS + _HONOURS) + [extra]
        win = concealed.pop(13 if rng.random() < 0.3 else rng.randrange(14))  # the extra one: 13-sided
    elif theme == "nine_gates":
        suit = rng.randrange(3)
        concealed = [9 * suit + r for r, c in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)) for _ in range(c)]
        concealed.append(9 * suit + rng.randrange(9))
        win = concealed.pop(13 if rng.random() < 0.3 else rng.randrange(14))  # the extra one: nine-sided
    else:
        made = _sets_for(theme, rng)
        if made is None:
            return None
        sets, pair = made
        every = [t for k, f in sets for t in _tiles_of(k, f)] + [pair, pair]
        if not _ok_counts(every):
            return None
        # Kongs: the kong theme makes three or four, others sometimes one.
        kinds = [k for k, _ in sets]
        pungs = [j for j, k in enumerate(kinds) if k == "pung"]
        n_kongs = (rng.choice((3, 3, 4)) if theme == "kongs" else (1 if rng.random() < 0.12 else 0))
        kong_at = set(rng.sample(pungs, min(n_kongs, len(pungs))))
        if any(every.count(sets[j][1]) > 3 for j in kong_at):
            return None
        open_p = 0.0 if theme in ("pinfu", "peikou", "ryanpeikou") else rng.choice((0.0, 0.0, 0.3, 0.6))
        concealed = []
        win_choices: list[int] = []
        for j, (k, f) in enumerate(sets):
            tiles = _tiles_of(k, f)
            if j in kong_at:
                style = rng.choice(("concealed", "exposed", "added"))
                if style == "concealed":
                    melds.append(make_meld(MeldKind.KONG, [f] * 4, concealed=True))
                else:
                    melds.append(make_meld(MeldKind.KONG, [f] * 4, added=style == "added",
                                           claimed_from=rng.choice(list(_MARKS.values()))))
            elif rng.random() < open_p:
                src = ClaimedFrom.LEFT if k == "chow" else rng.choice(list(_MARKS.values()))
                melds.append(make_meld(_SHAPE_DRAW[k], tiles, claimed_from=src, claimed_index=rng.randrange(3)))
            else:
                concealed += tiles
                win_choices.append(rng.choice(tiles))
        concealed += [pair, pair]
        win_choices.append(pair)
        win = rng.choice(win_choices)
        concealed.remove(win)
    return _situation(theme, concealed, melds, win, rng)


def _situation(theme: str, concealed: list[int], melds: list[Meld], win: int, rng: Any) -> RCase | None:
    every = concealed + [win] + [t for m in melds for t in m.tiles]
    counts = [every.count(t) for t in range(34)]
    closed = all(m.concealed for m in melds)
    kongs = sum(1 for m in melds if m.kind == MeldKind.KONG)
    first_turn = not melds and rng.random() < 0.05
    seat = Wind(rng.randrange(4)) if not first_turn or rng.random() < 0.5 else Wind.EAST
    self_drawn = first_turn or rng.random() < 0.45
    riichi = closed and not first_turn and rng.random() < 0.5
    double = riichi and rng.random() < 0.15
    rinshan = self_drawn and kongs > 0 and not first_turn and rng.random() < 0.25
    ippatsu = riichi and not rinshan and rng.random() < 0.25
    chankan = (not self_drawn and counts[win] == 1 and rng.random() < 0.08)
    last = not rinshan and not chankan and not first_turn and rng.random() < 0.08
    heavenly = first_turn and seat == Wind.EAST
    earthly = first_turn and seat != Wind.EAST
    # Dora indicators: one plus one per kong, never a fifth copy with the hand's tiles.
    def indicators(k: int) -> tuple[int, ...] | None:
        out: list[int] = []
        for _ in range(k):
            choices = [t for t in range(34) if counts[t] + out.count(t) < 4]
            out.append(rng.choice(choices))
        for t in out:
            counts[t] += 1
        return tuple(out)
    dora = indicators(1 + kongs)
    ura = indicators(1 + kongs) if riichi else ()
    # a 5 held four times includes its suit's red five
    held = [every.count(t) for t in (4, 13, 22)]
    reds = [t for t, n in zip((4, 13, 22), held, strict=True) if n == 4 or (n and rng.random() < 0.5)]
    ctx = WinContext(
        self_drawn=self_drawn, robbing_kong=chankan, replacement_tile=rinshan, last_wall_tile=last,
        seat_wind=seat, prevalent_wind=Wind(rng.randrange(4)), heavenly=heavenly, earthly=earthly,
        riichi=riichi, double_riichi=double, ippatsu=ippatsu, dora_indicators=dora or (),
        ura_dora_indicators=ura or (), honba=rng.choice((0, 0, 0, 1, 2, 5)), riichi_sticks=rng.choice((0, 0, 1, 2)),
        discarded_by=ClaimedFrom.NONE if self_drawn else rng.choice(list(_MARKS.values())))
    try:
        hand = winning_hand(concealed, melds, win, reds)
    except Exception:
        return None
    return RCase(hand, ctx, theme)
