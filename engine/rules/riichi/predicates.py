"""One small predicate per yaku, registered under its id (yaku.py holds names, han and exclusions).

Each takes the Facts of one decomposition (facts.py) and says whether the yaku is there. Whether an
open hand may count it (`open_value` 0) and what it excludes are table data, applied by the scoring.
Dora are counted in scoring.py, not here: they are no yaku.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from engine.rules.riichi.facts import PAIR, RYANMEN, TANKI, Facts
from engine.rules.riichi.yaku import ROUND_WIND, SEAT_WIND, Yaku
from engine.tiles import DRAGONS, GREEN, RED, WHITE, WINDS, is_honor, is_terminal, is_terminal_or_honor

Rule = Callable[[Facts], bool]
RULES: dict[int, Rule] = {}


def yaku(y: Yaku) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        RULES[int(y)] = fn
        return fn
    return register


# ---------------------------------------------------------------- the situation

@yaku(Yaku.MENZEN_TSUMO)
def menzen_tsumo(f: Facts) -> bool:
    return f.closed and f.ctx.self_drawn


@yaku(Yaku.RIICHI)
def riichi(f: Facts) -> bool:
    return f.ctx.riichi and not f.ctx.double_riichi


@yaku(Yaku.DOUBLE_RIICHI)
def double_riichi(f: Facts) -> bool:
    return f.ctx.double_riichi


@yaku(Yaku.IPPATSU)
def ippatsu(f: Facts) -> bool:
    return f.ctx.ippatsu


@yaku(Yaku.CHANKAN)
def chankan(f: Facts) -> bool:
    return f.ctx.robbing_kong


@yaku(Yaku.RINSHAN_KAIHOU)
def rinshan(f: Facts) -> bool:
    return f.ctx.replacement_tile


@yaku(Yaku.HAITEI)
def haitei(f: Facts) -> bool:
    return f.ctx.last_wall_tile and f.ctx.self_drawn


@yaku(Yaku.HOUTEI)
def houtei(f: Facts) -> bool:
    return f.ctx.last_wall_tile and not f.ctx.self_drawn


@yaku(Yaku.TENHOU)
def tenhou(f: Facts) -> bool:
    return f.ctx.heavenly


@yaku(Yaku.CHIIHOU)
def chiihou(f: Facts) -> bool:
    return f.ctx.earthly


# ---------------------------------------------------------------- the tiles

def _simple(t: int) -> bool:
    return not is_terminal_or_honor(t)


@yaku(Yaku.TANYAO)
def tanyao(f: Facts) -> bool:
    return (f.closed or f.options.open_tanyao) and f.all_tiles(_simple)


def _suits(f: Facts) -> set[int]:
    return {t // 9 for t in f.kinds if t < 27}


@yaku(Yaku.HONITSU)
def honitsu(f: Facts) -> bool:
    return len(_suits(f)) == 1 and any(is_honor(t) for t in f.kinds)


@yaku(Yaku.CHINITSU)
def chinitsu(f: Facts) -> bool:
    return len(_suits(f)) == 1 and not any(is_honor(t) for t in f.kinds)


@yaku(Yaku.HONROUTOU)
def honroutou(f: Facts) -> bool:
    return (f.all_tiles(is_terminal_or_honor) and any(is_honor(t) for t in f.kinds)
            and any(is_terminal(t) for t in f.kinds))


@yaku(Yaku.TSUUIISOU)
def tsuuiisou(f: Facts) -> bool:
    return f.all_tiles(is_honor)


@yaku(Yaku.CHINROUTOU)
def chinroutou(f: Facts) -> bool:
    return f.all_tiles(is_terminal)


_GREEN = frozenset({19, 20, 21, 23, 25, GREEN})  # 2 3 4 6 8 bamboo, green dragon


@yaku(Yaku.RYUUIISOU)
def ryuuiisou(f: Facts) -> bool:
    return f.all_tiles(_GREEN.__contains__)


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


def _nine_gates(f: Facts) -> tuple[int, ...] | None:
    """The suit's counts 1-9 if the whole hand (concealed, no meld) is 1112345678999 plus one of its suit."""
    if f.hand.melds or len(_suits(f)) != 1 or any(is_honor(t) for t in f.kinds):
        return None
    base = 9 * next(iter(_suits(f)))
    c = f.counts[base:base + 9]
    if c[0] >= 3 and c[8] >= 3 and all(c[r] >= 1 for r in range(1, 8)):
        return tuple(c)
    return None


@yaku(Yaku.CHUUREN_POUTOU)
def chuuren(f: Facts) -> bool:
    return _nine_gates(f) is not None


@yaku(Yaku.JUNSEI_CHUUREN_POUTOU)
def junsei_chuuren(f: Facts) -> bool:
    """Nine gates whose 13 tiles before the win were 1112345678999 exactly (a nine-sided wait)."""
    c = _nine_gates(f)
    return c is not None and c[f.win % 9] in (2, 4) and sorted(f.hand.concealed) == sorted(
        [f.win // 9 * 9 + r for r, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)) for _ in range(n)])


# ---------------------------------------------------------------- the sets

@yaku(Yaku.PINFU)
def pinfu(f: Facts) -> bool:
    p = f.pair
    return (f.closed and f.standard and len(f.chows) == 4 and p is not None and not f.is_value_tile(p.first)
            and f.wait == RYANMEN)


def _peikou(f: Facts) -> int:
    """How many pairs of identical chows (a closed hand's)."""
    if not f.closed or not f.standard:
        return 0
    return sum(n // 2 for n in Counter(g.first for g in f.chows).values())


@yaku(Yaku.IIPEIKOU)
def iipeikou(f: Facts) -> bool:
    return _peikou(f) == 1


@yaku(Yaku.RYANPEIKOU)
def ryanpeikou(f: Facts) -> bool:
    return _peikou(f) == 2


def _value_pung(f: Facts, tile: int) -> bool:
    return any(g.first == tile for g in f.pungs)


def _seat_wind(index: int) -> Rule:
    def rule(f: Facts) -> bool:
        return int(f.ctx.seat_wind) == index and _value_pung(f, f.seat_tile)
    return rule


def _round_wind(index: int) -> Rule:
    def rule(f: Facts) -> bool:
        return int(f.ctx.prevalent_wind) == index and _value_pung(f, f.round_tile)
    return rule


for _i in range(4):
    yaku(SEAT_WIND[_i])(_seat_wind(_i))
    yaku(ROUND_WIND[_i])(_round_wind(_i))


@yaku(Yaku.HAKU)
def haku(f: Facts) -> bool:
    return _value_pung(f, WHITE)


@yaku(Yaku.HATSU)
def hatsu(f: Facts) -> bool:
    return _value_pung(f, GREEN)


@yaku(Yaku.CHUN)
def chun(f: Facts) -> bool:
    return _value_pung(f, RED)


def _outside(f: Facts, terminals_only: bool) -> bool:
    """Every set and the pair hold a terminal (or honour), and there is a chow."""
    if not f.standard or not f.chows:
        return False
    return all(g.terminal if terminals_only else g.outside for g in f.groups)


@yaku(Yaku.CHANTA)
def chanta(f: Facts) -> bool:
    return _outside(f, False) and any(is_honor(g.first) for g in f.groups)


@yaku(Yaku.JUNCHAN)
def junchan(f: Facts) -> bool:
    return _outside(f, True)


@yaku(Yaku.ITTSU)
def ittsu(f: Facts) -> bool:
    firsts = {g.first for g in f.chows}
    return any({s, s + 3, s + 6} <= firsts for s in (0, 9, 18))


@yaku(Yaku.SANSHOKU_DOUJUN)
def sanshoku_doujun(f: Facts) -> bool:
    firsts = {g.first for g in f.chows}
    return any({r, r + 9, r + 18} <= firsts for r in range(7))


@yaku(Yaku.SANSHOKU_DOUKOU)
def sanshoku_doukou(f: Facts) -> bool:
    firsts = {g.first for g in f.pungs}
    return any({r, r + 9, r + 18} <= firsts for r in range(9))


@yaku(Yaku.TOITOI)
def toitoi(f: Facts) -> bool:
    return f.standard and len(f.pungs) == 4


@yaku(Yaku.SANANKOU)
def sanankou(f: Facts) -> bool:
    return len(f.concealed_pungs) == 3


@yaku(Yaku.SUUANKOU)
def suuankou(f: Facts) -> bool:
    return len(f.concealed_pungs) == 4


@yaku(Yaku.SUUANKOU_TANKI)
def suuankou_tanki(f: Facts) -> bool:
    return len(f.concealed_pungs) == 4 and f.wait == TANKI


@yaku(Yaku.SANKANTSU)
def sankantsu(f: Facts) -> bool:
    return len(f.kongs) == 3


@yaku(Yaku.SUUKANTSU)
def suukantsu(f: Facts) -> bool:
    return len(f.kongs) == 4


def _honour_sets(f: Facts, tiles: tuple[int, ...]) -> tuple[int, bool]:
    """(pungs of `tiles`, is the pair one of them)."""
    p = f.pair
    return sum(1 for g in f.pungs if g.first in tiles), p is not None and p.kind == PAIR and p.first in tiles


@yaku(Yaku.SHOUSANGEN)
def shousangen(f: Facts) -> bool:
    return _honour_sets(f, DRAGONS) == (2, True)


@yaku(Yaku.DAISANGEN)
def daisangen(f: Facts) -> bool:
    return _honour_sets(f, DRAGONS)[0] == 3


@yaku(Yaku.SHOUSUUSHII)
def shousuushii(f: Facts) -> bool:
    return _honour_sets(f, WINDS) == (3, True)


@yaku(Yaku.DAISUUSHII)
def daisuushii(f: Facts) -> bool:
    return _honour_sets(f, WINDS)[0] == 4
