"""One small predicate per yaku, registered under its id (yaku.py holds names, han and exclusions).

Each takes the Facts of one decomposition (facts.py) and says whether the yaku is there. Whether an
open hand may count it (`open_value` 0) and what it excludes are table data, applied by the scoring.
Dora are counted in scoring.py, not here: they are no yaku.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.registry import REGISTRY
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
from engine.rules.riichi.options import Renhou
from engine.rules.riichi.yaku import ROUND_WIND, SEAT_WIND, Yaku
from engine.tile_kinds import GREEN, RED, WHITE, WINDS, is_dragon, is_wind

Rule = Callable[[Facts], bool]
RULES: dict[int, Rule] = {}
# What each yaku needs before its predicate is asked (bits of Facts.have; facts.py): a necessary condition
# only, so the scoring skips predicates that cannot hold. 0: always asked.
NEEDS: dict[int, int] = {}


def yaku(y: Yaku, needs: int = 0) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        RULES[int(y)] = fn
        NEEDS[int(y)] = needs
        return fn
    return register


# ---------------------------------------------------------------- the situation

@yaku(Yaku.MENZEN_TSUMO, CLOSED | SELF_DRAWN)
def menzen_tsumo(f: Facts) -> bool:
    return f.closed and f.ctx.self_drawn


@yaku(Yaku.RIICHI, RIICHI_SET)
def riichi(f: Facts) -> bool:
    return f.ctx.riichi and not f.ctx.double_riichi


@yaku(Yaku.DOUBLE_RIICHI, DOUBLE_RIICHI_SET)
def double_riichi(f: Facts) -> bool:
    return f.ctx.double_riichi


@yaku(Yaku.IPPATSU, IPPATSU_SET)
def ippatsu(f: Facts) -> bool:
    return f.ctx.ippatsu


@yaku(Yaku.CHANKAN, ROBBING_KONG)
def chankan(f: Facts) -> bool:
    return f.ctx.robbing_kong


@yaku(Yaku.RINSHAN_KAIHOU, REPLACEMENT_TILE)
def rinshan(f: Facts) -> bool:
    return f.ctx.replacement_tile


@yaku(Yaku.HAITEI, LAST_TILE | SELF_DRAWN)
def haitei(f: Facts) -> bool:
    # A replacement tile drawn as the last tile scores rinshan kaihou alone (Tenhou's rule).
    return f.ctx.last_wall_tile and f.ctx.self_drawn and not f.ctx.replacement_tile


@yaku(Yaku.HOUTEI, LAST_TILE)
def houtei(f: Facts) -> bool:
    return f.ctx.last_wall_tile and not f.ctx.self_drawn


@yaku(Yaku.TENHOU, HEAVENLY)
def tenhou(f: Facts) -> bool:
    return f.ctx.heavenly


@yaku(Yaku.CHIIHOU, EARTHLY | SELF_DRAWN)
def chiihou(f: Facts) -> bool:
    return f.ctx.earthly and f.ctx.self_drawn


@yaku(Yaku.RENHOU, EARTHLY)
def renhou(f: Facts) -> bool:
    """Renhou as a yakuman (the option renhou; as a mangan it is scoring.py's, not a yaku that adds up)."""
    return f.ctx.earthly and not f.ctx.self_drawn and f.options.renhou == Renhou.YAKUMAN


# ---------------------------------------------------------------- the tiles

@yaku(Yaku.TANYAO, NO_OUTSIDE)
def tanyao(f: Facts) -> bool:
    return (f.closed or f.options.open_tanyao) and not f.tiles.present & OUTSIDE


@yaku(Yaku.HONITSU, ONE_SUIT | HONOURS_HELD)
def honitsu(f: Facts) -> bool:
    return f.tiles.suits == 1 and f.tiles.honours


@yaku(Yaku.CHINITSU, ONE_SUIT)
def chinitsu(f: Facts) -> bool:
    return f.tiles.suits == 1 and not f.tiles.honours


@yaku(Yaku.HONROUTOU, NO_SIMPLES | HONOURS_HELD)
def honroutou(f: Facts) -> bool:
    present = f.tiles.present
    return not present & ~OUTSIDE and bool(present & HONOURS) and bool(present & TERMINALS)


@yaku(Yaku.TSUUIISOU, NO_SIMPLES | HONOURS_HELD)
def tsuuiisou(f: Facts) -> bool:
    return not f.tiles.present & ~HONOURS


@yaku(Yaku.CHINROUTOU, NO_SIMPLES)
def chinroutou(f: Facts) -> bool:
    return not f.tiles.present & ~TERMINALS


@yaku(Yaku.RYUUIISOU, ONLY_GREEN)
def ryuuiisou(f: Facts) -> bool:
    """Only 2 3 4 6 8 bamboo and green dragons."""
    return not f.tiles.present & ~GREEN_TILES


@yaku(Yaku.CHIITOITSU)
def chiitoitsu(f: Facts) -> bool:
    return f.seven_pairs


@yaku(Yaku.KOKUSHI_MUSOU)
def kokushi(f: Facts) -> bool:
    return f.thirteen_orphans


@yaku(Yaku.KOKUSHI_MUSOU_13)
def kokushi_13(f: Facts) -> bool:
    """The 13 tiles before the win were the 13 different orphans: any of them won."""
    return f.thirteen_orphans and len(set(f.hand.concealed)) == 13


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


@yaku(Yaku.CHUUREN_POUTOU, CLOSED | ONE_SUIT)
def chuuren(f: Facts) -> bool:
    return _nine_gates_suit(f) >= 0


@yaku(Yaku.JUNSEI_CHUUREN_POUTOU, CLOSED | ONE_SUIT)
def junsei_chuuren(f: Facts) -> bool:
    """Nine gates whose 13 tiles before the win were 1112345678999 exactly (a nine-sided wait)."""
    base = _nine_gates_suit(f)
    if base < 0:
        return False
    held = [0] * 9
    for t in f.hand.concealed:
        held[t - base] += 1
    return tuple(held) == _GATES


# ---------------------------------------------------------------- the sets

@yaku(Yaku.PINFU, CLOSED | CHOWS_4)
def pinfu(f: Facts) -> bool:
    return (f.closed and len(f.chows) == 4 and f.pair >= 0 and not f.is_value_tile(f.pair)
            and f.wait == RYANMEN)


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


@yaku(Yaku.IIPEIKOU, CLOSED | CHOWS_2)
def iipeikou(f: Facts) -> bool:
    return _peikou(f) == 1


@yaku(Yaku.RYANPEIKOU, CLOSED | CHOWS_4)
def ryanpeikou(f: Facts) -> bool:
    return _peikou(f) == 2


def _seat_wind(index: int) -> Rule:
    def rule(f: Facts) -> bool:
        return f.seat_tile == WINDS[index] and f.seat_tile in f.pungs
    return rule


def _round_wind(index: int) -> Rule:
    def rule(f: Facts) -> bool:
        return f.round_tile == WINDS[index] and f.round_tile in f.pungs
    return rule


for _i in range(4):
    yaku(SEAT_WIND[_i], WIND_PUNG)(_seat_wind(_i))
    yaku(ROUND_WIND[_i], WIND_PUNG)(_round_wind(_i))


@yaku(Yaku.HAKU, DRAGON_PUNG)
def haku(f: Facts) -> bool:
    return WHITE in f.pungs


@yaku(Yaku.HATSU, DRAGON_PUNG)
def hatsu(f: Facts) -> bool:
    return GREEN in f.pungs


@yaku(Yaku.CHUN, DRAGON_PUNG)
def chun(f: Facts) -> bool:
    return RED in f.pungs


@yaku(Yaku.CHANTA, ALL_OUTSIDE | HONOURS_HELD)
def chanta(f: Facts) -> bool:
    """Every set and the pair hold a terminal or honour, there is a chow and an honour."""
    return bool(f.chows) and f.all_outside and f.tiles.honours


@yaku(Yaku.JUNCHAN, ALL_TERMINAL)
def junchan(f: Facts) -> bool:
    """Every set and the pair hold a terminal, and there is a chow."""
    return bool(f.chows) and f.all_terminal


@yaku(Yaku.ITTSU, CHOWS_3)
def ittsu(f: Facts) -> bool:
    c = f.chows
    return len(c) >= 3 and any(s in c and s + 3 in c and s + 6 in c for s in (0, 9, 18))


@yaku(Yaku.SANSHOKU_DOUJUN, CHOWS_3)
def sanshoku_doujun(f: Facts) -> bool:
    c = f.chows
    return len(c) >= 3 and any(r in c and r + 9 in c and r + 18 in c for r in c if r < 9)


@yaku(Yaku.SANSHOKU_DOUKOU, PUNGS_3)
def sanshoku_doukou(f: Facts) -> bool:
    p = f.pungs
    return len(p) >= 3 and any(r in p and r + 9 in p and r + 18 in p for r in p if r < 9)


@yaku(Yaku.TOITOI, PUNGS_4)
def toitoi(f: Facts) -> bool:
    return len(f.pungs) == 4


@yaku(Yaku.SANANKOU, CONCEALED_PUNGS_3)
def sanankou(f: Facts) -> bool:
    return f.n_concealed_pungs == 3


@yaku(Yaku.SUUANKOU, CONCEALED_PUNGS_3 | PUNGS_4)
def suuankou(f: Facts) -> bool:
    return f.n_concealed_pungs == 4


@yaku(Yaku.SUUANKOU_TANKI, CONCEALED_PUNGS_3 | PUNGS_4)
def suuankou_tanki(f: Facts) -> bool:
    return f.n_concealed_pungs == 4 and f.wait == TANKI


@yaku(Yaku.SANKANTSU, KONGS_3)
def sankantsu(f: Facts) -> bool:
    return f.n_kongs == 3


@yaku(Yaku.SUUKANTSU, KONGS_3 | PUNGS_4)
def suukantsu(f: Facts) -> bool:
    return f.n_kongs == 4


def _dragon_pungs(f: Facts) -> int:
    return sum([1 for t in f.pungs if is_dragon(t)])


def _wind_pungs(f: Facts) -> int:
    return sum([1 for t in f.pungs if is_wind(t)])


@yaku(Yaku.SHOUSANGEN, DRAGON_PUNGS_2)
def shousangen(f: Facts) -> bool:
    return is_dragon(f.pair) and _dragon_pungs(f) == 2


@yaku(Yaku.DAISANGEN, DRAGON_PUNGS_2 | PUNGS_3)
def daisangen(f: Facts) -> bool:
    return _dragon_pungs(f) == 3


@yaku(Yaku.SHOUSUUSHII, WIND_PUNGS_3 | PUNGS_3)
def shousuushii(f: Facts) -> bool:
    return is_wind(f.pair) and _wind_pungs(f) == 3


@yaku(Yaku.DAISUUSHII, WIND_PUNGS_3 | PUNGS_4)
def daisuushii(f: Facts) -> bool:
    return _wind_pungs(f) == 4


# Built at import (one entry per yaku) and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("riichi.predicates", RULES=RULES, NEEDS=NEEDS)
