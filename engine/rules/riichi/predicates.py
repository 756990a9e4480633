"""One predicate per yaku (fans.py holds names, han and exclusions), each registered with
`@fan(Fan.X, needs=...)` beside its rule.

Each takes the Facts of one decomposition (facts.py) and returns the yaku's occurrences: `NONE` (not
there) or `ONCE` (counted once; Riichi counts every yaku once, shown on no particular set). `needs`: the
bits of `Facts.have` (facts.py) the yaku cannot hold without, a necessary condition only, so the scoring
skips predicates that cannot hold (0 or absent: always asked). Whether an open hand may count it
(`open_value` 0) and what it excludes are table data, applied by the scoring. The dora (dora, ura dora,
red fives, kita) are counted in scoring.py, not here: they are no yaku (`in_scoring`).
"""

from __future__ import annotations

from typing import Final

from engine.registry import REGISTRY
from engine.rules.model import Occurrence, Predicates
from engine.rules.riichi.facts import (
    ALL_OUTSIDE,
    ALL_TERMINAL,
    CHOWS_2,
    CHOWS_3,
    CHOWS_4,
    CLOSED,
    CONCEALED_PUNGS_3,
    DOUBLE_RIICHI_SET,
    DRAGON_PUNG,
    DRAGON_PUNGS_2,
    EARTHLY,
    GREEN_TILES,
    HEAVENLY,
    HONOURS,
    HONOURS_HELD,
    IPPATSU_SET,
    KONGS_3,
    LAST_TILE,
    NO_OUTSIDE,
    NO_SIMPLES,
    ONE_SUIT,
    ONLY_GREEN,
    OUTSIDE,
    PUNGS_3,
    PUNGS_4,
    REPLACEMENT_TILE,
    RIICHI_SET,
    ROBBING_KONG,
    RYANMEN,
    SELF_DRAWN,
    SUIT_MASK,
    TANKI,
    TERMINALS,
    WIND_PUNG,
    WIND_PUNGS_3,
    Facts,
)
from engine.rules.riichi.fans import DORA_KINDS, TABLE, Fan
from engine.rules.riichi.options import Renhou
from engine.tile_kinds import EAST, GREEN, NORTH, RED, SOUTH, WEST, WHITE, is_dragon, is_wind

PREDICATES: Final = Predicates(TABLE, in_scoring=DORA_KINDS)
fan: Final = PREDICATES.fan

Hits = list[Occurrence]
NONE: Final[Hits] = []  # not there (never written: shared by every predicate)
ONCE: Final[Hits] = [()]  # counted once, on no particular set (never written)


# ---------------------------------------------------------------- the situation

@fan(Fan.MENZEN_TSUMO, needs=CLOSED | SELF_DRAWN)
def menzen_tsumo(f: Facts) -> Hits:
    return ONCE if f.closed and f.ctx.self_drawn else NONE


@fan(Fan.RIICHI, needs=RIICHI_SET)
def riichi(f: Facts) -> Hits:
    return ONCE if f.ctx.riichi and not f.ctx.double_riichi else NONE


@fan(Fan.DOUBLE_RIICHI, needs=DOUBLE_RIICHI_SET)
def double_riichi(f: Facts) -> Hits:
    return ONCE if f.ctx.double_riichi else NONE


@fan(Fan.IPPATSU, needs=IPPATSU_SET)
def ippatsu(f: Facts) -> Hits:
    return ONCE if f.ctx.ippatsu else NONE


@fan(Fan.CHANKAN, needs=ROBBING_KONG)
def chankan(f: Facts) -> Hits:
    return ONCE if f.ctx.robbing_kong else NONE


@fan(Fan.RINSHAN_KAIHOU, needs=REPLACEMENT_TILE)
def rinshan(f: Facts) -> Hits:
    return ONCE if f.ctx.replacement_tile else NONE


@fan(Fan.HAITEI, needs=LAST_TILE | SELF_DRAWN)
def haitei(f: Facts) -> Hits:
    # A replacement tile drawn as the last tile scores rinshan kaihou alone (Tenhou's rule).
    return ONCE if f.ctx.last_wall_tile and f.ctx.self_drawn and not f.ctx.replacement_tile else NONE


@fan(Fan.HOUTEI, needs=LAST_TILE)
def houtei(f: Facts) -> Hits:
    return ONCE if f.ctx.last_wall_tile and not f.ctx.self_drawn else NONE


@fan(Fan.TENHOU, needs=HEAVENLY)
def tenhou(f: Facts) -> Hits:
    return ONCE if f.ctx.heavenly else NONE


@fan(Fan.CHIIHOU, needs=EARTHLY | SELF_DRAWN)
def chiihou(f: Facts) -> Hits:
    return ONCE if f.ctx.earthly and f.ctx.self_drawn else NONE


@fan(Fan.RENHOU, needs=EARTHLY)
def renhou(f: Facts) -> Hits:
    """Renhou as a yakuman (the option renhou; as a mangan it is scoring.py's, not a yaku that adds up)."""
    return ONCE if f.ctx.earthly and not f.ctx.self_drawn and f.options.renhou == Renhou.YAKUMAN else NONE


# ---------------------------------------------------------------- the tiles

@fan(Fan.TANYAO, needs=NO_OUTSIDE)
def tanyao(f: Facts) -> Hits:
    return ONCE if (f.closed or f.options.open_tanyao) and not f.tiles.present & OUTSIDE else NONE


@fan(Fan.HONITSU, needs=ONE_SUIT | HONOURS_HELD)
def honitsu(f: Facts) -> Hits:
    return ONCE if f.tiles.suits == 1 and f.tiles.honours else NONE


@fan(Fan.CHINITSU, needs=ONE_SUIT)
def chinitsu(f: Facts) -> Hits:
    return ONCE if f.tiles.suits == 1 and not f.tiles.honours else NONE


@fan(Fan.HONROUTOU, needs=NO_SIMPLES | HONOURS_HELD)
def honroutou(f: Facts) -> Hits:
    present = f.tiles.present
    return ONCE if not present & ~OUTSIDE and bool(present & HONOURS) and bool(present & TERMINALS) else NONE


@fan(Fan.TSUUIISOU, needs=NO_SIMPLES | HONOURS_HELD)
def tsuuiisou(f: Facts) -> Hits:
    return ONCE if not f.tiles.present & ~HONOURS else NONE


@fan(Fan.CHINROUTOU, needs=NO_SIMPLES)
def chinroutou(f: Facts) -> Hits:
    return ONCE if not f.tiles.present & ~TERMINALS else NONE


@fan(Fan.RYUUIISOU, needs=ONLY_GREEN)
def ryuuiisou(f: Facts) -> Hits:
    """Only 2 3 4 6 8 bamboo and green dragons."""
    return ONCE if not f.tiles.present & ~GREEN_TILES else NONE


@fan(Fan.CHIITOITSU)
def chiitoitsu(f: Facts) -> Hits:
    return ONCE if f.seven_pairs else NONE


@fan(Fan.KOKUSHI_MUSOU)
def kokushi(f: Facts) -> Hits:
    return ONCE if f.thirteen_orphans else NONE


@fan(Fan.KOKUSHI_MUSOU_13)
def kokushi_13(f: Facts) -> Hits:
    """The 13 tiles before the win were the 13 different orphans: any of them won."""
    return ONCE if f.thirteen_orphans and len(set(f.hand.concealed)) == 13 else NONE


_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _nine_gates_suit(f: Facts) -> int:
    """The first tile of the suit if the whole hand (concealed, no meld) is 1112345678999 plus one of its
    suit, else -1."""
    t = f.tiles
    if t.n_melds or t.suits != 1 or t.honours:
        return -1
    base = 0 if t.present & SUIT_MASK else (9 if (t.present >> 9) & SUIT_MASK else 18)
    c = t.counts
    for r in range(9):
        if c[base + r] < _GATES[r]:
            return -1
    return base


@fan(Fan.CHUUREN_POUTOU, needs=CLOSED | ONE_SUIT)
def chuuren(f: Facts) -> Hits:
    return ONCE if _nine_gates_suit(f) >= 0 else NONE


@fan(Fan.JUNSEI_CHUUREN_POUTOU, needs=CLOSED | ONE_SUIT)
def junsei_chuuren(f: Facts) -> Hits:
    """Nine gates whose 13 tiles before the win were 1112345678999 exactly (a nine-sided wait)."""
    base = _nine_gates_suit(f)
    if base < 0:
        return NONE
    held = [0] * 9
    for t in f.hand.concealed:
        held[t - base] += 1
    return ONCE if tuple(held) == _GATES else NONE


# ---------------------------------------------------------------- the sets

@fan(Fan.PINFU, needs=CLOSED | CHOWS_4)
def pinfu(f: Facts) -> Hits:
    found = (f.closed and len(f.chows) == 4 and f.pair >= 0 and not f.is_value_tile(f.pair)
             and f.wait == RYANMEN)
    return ONCE if found else NONE


def _peikou(f: Facts) -> int:
    """How many pairs of identical chows (a closed hand's)."""
    chows = f.chows
    if not f.closed or len(chows) < 2:
        return 0
    firsts = sorted(chows)
    n = 0
    i = 0
    while i + 1 < len(firsts):
        if firsts[i] == firsts[i + 1]:
            n += 1
            i += 2
        else:
            i += 1
    return n


@fan(Fan.IIPEIKOU, needs=CLOSED | CHOWS_2)
def iipeikou(f: Facts) -> Hits:
    return ONCE if _peikou(f) == 1 else NONE


@fan(Fan.RYANPEIKOU, needs=CLOSED | CHOWS_4)
def ryanpeikou(f: Facts) -> Hits:
    return ONCE if _peikou(f) == 2 else NONE


# A pung (or kong) of the player's own wind, or of the round's: one predicate per wind.

@fan(Fan.SEAT_WIND_EAST, needs=WIND_PUNG)
def seat_wind_east(f: Facts) -> Hits:
    return ONCE if f.seat_tile == EAST and EAST in f.pungs else NONE


@fan(Fan.SEAT_WIND_SOUTH, needs=WIND_PUNG)
def seat_wind_south(f: Facts) -> Hits:
    return ONCE if f.seat_tile == SOUTH and SOUTH in f.pungs else NONE


@fan(Fan.SEAT_WIND_WEST, needs=WIND_PUNG)
def seat_wind_west(f: Facts) -> Hits:
    return ONCE if f.seat_tile == WEST and WEST in f.pungs else NONE


@fan(Fan.SEAT_WIND_NORTH, needs=WIND_PUNG)
def seat_wind_north(f: Facts) -> Hits:
    return ONCE if f.seat_tile == NORTH and NORTH in f.pungs else NONE


@fan(Fan.ROUND_WIND_EAST, needs=WIND_PUNG)
def round_wind_east(f: Facts) -> Hits:
    return ONCE if f.round_tile == EAST and EAST in f.pungs else NONE


@fan(Fan.ROUND_WIND_SOUTH, needs=WIND_PUNG)
def round_wind_south(f: Facts) -> Hits:
    return ONCE if f.round_tile == SOUTH and SOUTH in f.pungs else NONE


@fan(Fan.ROUND_WIND_WEST, needs=WIND_PUNG)
def round_wind_west(f: Facts) -> Hits:
    return ONCE if f.round_tile == WEST and WEST in f.pungs else NONE


@fan(Fan.ROUND_WIND_NORTH, needs=WIND_PUNG)
def round_wind_north(f: Facts) -> Hits:
    return ONCE if f.round_tile == NORTH and NORTH in f.pungs else NONE


@fan(Fan.HAKU, needs=DRAGON_PUNG)
def haku(f: Facts) -> Hits:
    return ONCE if WHITE in f.pungs else NONE


@fan(Fan.HATSU, needs=DRAGON_PUNG)
def hatsu(f: Facts) -> Hits:
    return ONCE if GREEN in f.pungs else NONE


@fan(Fan.CHUN, needs=DRAGON_PUNG)
def chun(f: Facts) -> Hits:
    return ONCE if RED in f.pungs else NONE


@fan(Fan.CHANTA, needs=ALL_OUTSIDE | HONOURS_HELD)
def chanta(f: Facts) -> Hits:
    """Every set and the pair hold a terminal or honour, there is a chow and an honour."""
    return ONCE if bool(f.chows) and f.all_outside and f.tiles.honours else NONE


@fan(Fan.JUNCHAN, needs=ALL_TERMINAL)
def junchan(f: Facts) -> Hits:
    """Every set and the pair hold a terminal, and there is a chow."""
    return ONCE if bool(f.chows) and f.all_terminal else NONE


@fan(Fan.ITTSU, needs=CHOWS_3)
def ittsu(f: Facts) -> Hits:
    c = f.chows
    return ONCE if len(c) >= 3 and any(s in c and s + 3 in c and s + 6 in c for s in (0, 9, 18)) else NONE


@fan(Fan.SANSHOKU_DOUJUN, needs=CHOWS_3)
def sanshoku_doujun(f: Facts) -> Hits:
    c = f.chows
    return ONCE if len(c) >= 3 and any(r in c and r + 9 in c and r + 18 in c for r in c if r < 9) else NONE


@fan(Fan.SANSHOKU_DOUKOU, needs=PUNGS_3)
def sanshoku_doukou(f: Facts) -> Hits:
    p = f.pungs
    return ONCE if len(p) >= 3 and any(r in p and r + 9 in p and r + 18 in p for r in p if r < 9) else NONE


@fan(Fan.TOITOI, needs=PUNGS_4)
def toitoi(f: Facts) -> Hits:
    return ONCE if len(f.pungs) == 4 else NONE


@fan(Fan.SANANKOU, needs=CONCEALED_PUNGS_3)
def sanankou(f: Facts) -> Hits:
    return ONCE if f.n_concealed_pungs == 3 else NONE


@fan(Fan.SUUANKOU, needs=CONCEALED_PUNGS_3 | PUNGS_4)
def suuankou(f: Facts) -> Hits:
    return ONCE if f.n_concealed_pungs == 4 else NONE


@fan(Fan.SUUANKOU_TANKI, needs=CONCEALED_PUNGS_3 | PUNGS_4)
def suuankou_tanki(f: Facts) -> Hits:
    return ONCE if f.n_concealed_pungs == 4 and f.wait == TANKI else NONE


@fan(Fan.SANKANTSU, needs=KONGS_3)
def sankantsu(f: Facts) -> Hits:
    return ONCE if f.n_kongs == 3 else NONE


@fan(Fan.SUUKANTSU, needs=KONGS_3 | PUNGS_4)
def suukantsu(f: Facts) -> Hits:
    return ONCE if f.n_kongs == 4 else NONE


def _dragon_pungs(f: Facts) -> int:
    return sum([1 for t in f.pungs if is_dragon(t)])


def _wind_pungs(f: Facts) -> int:
    return sum([1 for t in f.pungs if is_wind(t)])


@fan(Fan.SHOUSANGEN, needs=DRAGON_PUNGS_2)
def shousangen(f: Facts) -> Hits:
    return ONCE if is_dragon(f.pair) and _dragon_pungs(f) == 2 else NONE


@fan(Fan.DAISANGEN, needs=DRAGON_PUNGS_2 | PUNGS_3)
def daisangen(f: Facts) -> Hits:
    return ONCE if _dragon_pungs(f) == 3 else NONE


@fan(Fan.SHOUSUUSHII, needs=WIND_PUNGS_3 | PUNGS_3)
def shousuushii(f: Facts) -> Hits:
    return ONCE if is_wind(f.pair) and _wind_pungs(f) == 3 else NONE


@fan(Fan.DAISUUSHII, needs=WIND_PUNGS_3 | PUNGS_4)
def daisuushii(f: Facts) -> Hits:
    return ONCE if _wind_pungs(f) == 4 else NONE


# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("riichi.predicates", NONE=NONE, ONCE=ONCE)
