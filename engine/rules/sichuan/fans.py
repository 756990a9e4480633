"""The Sichuan fan tables as data: one row per fan beside the predicate that counts it.

A predicate returns how many times its fan is in one decomposition (0: not there). Exclusions are
data (`excludes`): when a row counts, the rows it excludes do not (rows are tried from the most fan
down, ties by id). Ids are this rule set's own and never reused: MIL 1-10, shared situational rows
7-9 and 11, Chengdu 20-39.

MIL (Mahjong International League rules as dcmshi/sichuan-mahjong scores them): every row adds.
Chengdu (the 血战到底 page of the scmj client's rule sheet, QuiQiJingFeng/M2_CLIENT
cocosstudio/games/scmj/scmjRuleListLayer.csd): the hand patterns (基本番) are not added up, only the
largest counts ("不重复计算，只计最大番型"); 根, 杠上花, 杠上炮, 抢杠胡 add to it.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum

from engine.registry import REGISTRY
from engine.rules.model import FanRow, FanTable, Scope
from engine.rules.sichuan.facts import Facts, bloom_as_discard
from engine.rules.sichuan.options import SelfDraw
from engine.shapes import SetKind

# An occurrence of a fan: the decomposition's set indices it was scored on (empty: the whole hand or
# the situation). A predicate returns its fan's occurrences; an empty list means it is not there.
Occurrence = tuple[int, ...]
Find = Callable[[Facts], list[Occurrence]]
NONE: list[Occurrence] = []
WHOLE: list[Occurrence] = [()]


class Fan(IntEnum):
    # MIL
    KONG = 1
    ROOT = 2
    ALL_PUNGS = 3
    GOLDEN_WAIT = 4
    FULL_FLUSH = 5
    SEVEN_PAIRS = 6
    WIN_AFTER_KONG = 7  # also Chengdu
    SHOOT_AFTER_KONG = 8  # also Chengdu
    ROBBING_THE_KONG = 9  # also Chengdu
    UNDER_THE_SEA = 10
    SELF_DRAWN = 11  # both, with the option self_draw = ADD_FAN
    # Chengdu
    BASIC_WIN = 20
    CD_ALL_PUNGS = 21
    CD_FULL_FLUSH = 22
    TERMINALS = 23
    CD_SEVEN_PAIRS = 24
    GOLDEN_HOOK = 25
    PURE_PUNGS = 26
    TWO_FIVE_EIGHT_PUNGS = 27
    DRAGON_SEVEN_PAIRS = 28
    PURE_SEVEN_PAIRS = 29
    PURE_TERMINALS = 30
    TWO_FIVE_EIGHT_GOLDEN_HOOK = 31
    PURE_GOLDEN_HOOK = 32
    PURE_DRAGON_SEVEN_PAIRS = 33
    EIGHTEEN_ARHATS = 34
    PURE_EIGHTEEN_ARHATS = 35
    HEAVENLY = 36
    EARTHLY = 37
    CD_ROOT = 38
    CONCEALED_HAND = 39
    ALL_SIMPLES = 40


Entry = tuple[FanRow, Find]


def _row(fid: Fan, name: str, native: str, value: int, find: Find, excludes: tuple[Fan, ...] = (), *,
         scope: Scope = Scope.HAND, description: str = "") -> Entry:
    return FanRow(fid, name, native, value, excludes, scope=scope, description=description), find


def once(cond: bool) -> list[Occurrence]:
    return WHOLE if cond else NONE


def times(n: int) -> list[Occurrence]:
    return [()] * n if n > 0 else NONE


# ---------------------------------------------------------------------------------------------
# Predicates shared by both tables (situations)


def win_after_kong(f: Facts) -> list[Occurrence]:
    return once(f.ctx.replacement_tile)


def shoot_after_kong(f: Facts) -> list[Occurrence]:
    return once(f.ctx.after_kong_discard)


def robbing_the_kong(f: Facts) -> list[Occurrence]:
    return once(f.ctx.robbing_kong)


def self_drawn_fan(f: Facts) -> list[Occurrence]:
    """自摸加番; not on 点杠花当炮, which counts as a win on the feeder's discard."""
    return once(f.ctx.self_drawn and f.opts.self_draw == SelfDraw.ADD_FAN and not bloom_as_discard(f.ctx, f.opts))


_SITUATIONS: tuple[Entry, ...] = (
    _row(Fan.WIN_AFTER_KONG, "Win After Kong", "杠上花", 1, win_after_kong, scope=Scope.SITUATION,
        description="won on the replacement tile drawn after a kong"),
    _row(Fan.SHOOT_AFTER_KONG, "Shoot After Kong", "杠上炮", 1, shoot_after_kong, scope=Scope.SITUATION,
        description="won on the tile a player discarded right after declaring a kong"),
    _row(Fan.ROBBING_THE_KONG, "Robbing the Kong", "抢杠胡", 1, robbing_the_kong, scope=Scope.SITUATION,
        description="won on the tile another player added to a pung to make a kong"),
    _row(Fan.SELF_DRAWN, "Self-Drawn", "自摸", 1, self_drawn_fan, scope=Scope.SITUATION,
        description="self-drawn win, counted only with the option self_draw = ADD_FAN (自摸加番)"),
)


# ---------------------------------------------------------------------------------------------
# MIL: every row adds


def kongs(f: Facts) -> list[Occurrence]:
    return [(i,) for i, s in enumerate(f.sets) if s.meld_index is not None and s.kind == SetKind.KONG]


def mil_roots(f: Facts) -> list[Occurrence]:
    return times(f.h.undeclared_fours)


def mil_all_pungs(f: Facts) -> list[Occurrence]:
    return once(f.all_pungs)


def golden_wait(f: Facts) -> list[Occurrence]:
    return once(f.all_pungs and f.won_on_pair)


def full_flush(f: Facts) -> list[Occurrence]:
    return once(f.full_flush)


def seven_pairs(f: Facts) -> list[Occurrence]:
    return once(f.seven_pairs)


def under_the_sea(f: Facts) -> list[Occurrence]:
    return once(f.ctx.last_wall_tile)


MIL_ROWS: tuple[Entry, ...] = (
    _row(Fan.KONG, "Kong", "杠", 1, kongs, scope=Scope.SETS,
         description="+1 per declared kong (exposed, added or concealed)"),
    _row(Fan.ROOT, "Root", "根", 1, mil_roots,
        description="+1 per four of a kind among all the hand's tiles that is not a declared kong"),
    _row(Fan.ALL_PUNGS, "All Pungs", "对对胡", 1, mil_all_pungs, description="four pungs or kongs and a pair"),
    _row(Fan.GOLDEN_WAIT, "Golden Wait", "金钩钓", 1, golden_wait,
        description="all pungs, and the winning tile completed the pair"),
    _row(Fan.FULL_FLUSH, "Full Flush", "清一色", 2, full_flush, description="every tile of one suit"),
    _row(Fan.SEVEN_PAIRS, "Seven Pairs", "七对", 2, seven_pairs,
        description="seven pairs; a four of a kind counts as two pairs (and adds a Root: 龙七对)"),
    *_SITUATIONS[:3],
    _row(Fan.UNDER_THE_SEA, "Under the Sea", "海底", 1, under_the_sea, scope=Scope.SITUATION,
        description="won on the last tile of the wall, drawn or discarded"),
    _SITUATIONS[3],
)


# ---------------------------------------------------------------------------------------------
# Chengdu: the largest hand pattern counts alone; roots and situations add


def arhats(f: Facts) -> bool:
    """十八罗汉: four kongs and a single wait."""
    return f.single_after_four_melds and f.h.kongs == 4


def golden_hook(f: Facts) -> bool:
    return f.single_after_four_melds


def dragon_seven_pairs(f: Facts) -> bool:
    return f.seven_pairs and f.h.fours >= 1


def cd_roots(f: Facts) -> list[Occurrence]:
    """根: every four of a kind, kong or not, less those the pattern already prices (龙七对 one, 十八罗汉 four)."""
    absorbed = 4 if arhats(f) else (1 if dragon_seven_pairs(f) else 0)
    return times(f.h.fours - absorbed)


def concealed_hand(f: Facts) -> list[Occurrence]:
    return once(f.opts.concealed_simples and not f.h.has_pung_or_kong_meld and f.ctx.self_drawn)


def all_simples(f: Facts) -> list[Occurrence]:
    return once(f.opts.concealed_simples and f.no_terminals)


# (id, English, 中文, fan, predicate, description): the sheet's 基本番, smallest first.
_CHENGDU_PATTERNS: tuple[tuple[Fan, str, str, int, Callable[[Facts], bool], str], ...] = (
    (Fan.BASIC_WIN, "Basic Win", "平胡", 0, lambda f: True, "four sets and a pair"),
    (Fan.CD_ALL_PUNGS, "All Pungs", "对对胡", 1, lambda f: f.all_pungs, "four pungs or kongs and a pair"),
    (Fan.CD_FULL_FLUSH, "Full Flush", "清一色", 2, lambda f: f.full_flush, "every tile of one suit"),
    (Fan.TERMINALS, "Terminals in Every Set", "带幺九", 2, lambda f: f.terminal_in_every_set,
     "every set and the pair hold a 1 or a 9"),
    (Fan.CD_SEVEN_PAIRS, "Seven Pairs", "七对", 2, lambda f: f.seven_pairs, "seven pairs, nothing declared"),
    (Fan.GOLDEN_HOOK, "Golden Hook", "金钩钓", 2, golden_hook,
     "four declared pungs or kongs, won on the pair to the last standing tile"),
    (Fan.PURE_PUNGS, "Pure All Pungs", "清对", 3, lambda f: f.all_pungs and f.full_flush, "清一色 and 对对胡"),
    (Fan.TWO_FIVE_EIGHT_PUNGS, "Two-Five-Eight Pungs", "将对", 3,
     lambda f: f.all_pungs and f.all_two_five_eight, "对对胡 of 2s, 5s and 8s only"),
    (Fan.DRAGON_SEVEN_PAIRS, "Dragon Seven Pairs", "龙七对", 4, dragon_seven_pairs,
     "seven pairs holding a four of a kind (that four is not also a 根)"),
    (Fan.PURE_SEVEN_PAIRS, "Pure Seven Pairs", "清七对", 4, lambda f: f.seven_pairs and f.full_flush,
     "清一色 and 七对"),
    (Fan.PURE_TERMINALS, "Pure Terminals in Every Set", "清幺九", 4,
     lambda f: f.terminal_in_every_set and f.full_flush, "清一色 and 带幺九"),
    (Fan.TWO_FIVE_EIGHT_GOLDEN_HOOK, "Two-Five-Eight Golden Hook", "将金钩钓", 4,
     lambda f: golden_hook(f) and f.all_two_five_eight, "金钩钓 of 2s, 5s and 8s only"),
    (Fan.PURE_GOLDEN_HOOK, "Pure Golden Hook", "清金钩钓", 4, lambda f: golden_hook(f) and f.full_flush,
     "清一色 and 金钩钓"),
    (Fan.PURE_DRAGON_SEVEN_PAIRS, "Pure Dragon Seven Pairs", "清龙七对", 5,
     lambda f: dragon_seven_pairs(f) and f.full_flush, "清一色 and 龙七对 (its four is not also a 根)"),
    (Fan.HEAVENLY, "Heavenly Hand", "天胡", 5, lambda f: f.ctx.heavenly and f.opts.heavenly_earthly,
     "the dealer wins on the deal (option heavenly_earthly)"),
    (Fan.EARTHLY, "Earthly Hand", "地胡", 5, lambda f: f.ctx.earthly and f.opts.heavenly_earthly,
     "a non-dealer wins on the first draw (option heavenly_earthly)"),
    (Fan.EIGHTEEN_ARHATS, "Eighteen Arhats", "十八罗汉", 6, arhats,
     "金钩钓 with four kongs (its four kongs are not also 根)"),
    (Fan.PURE_EIGHTEEN_ARHATS, "Pure Eighteen Arhats", "清十八罗汉", 8, lambda f: arhats(f) and f.full_flush,
     "清一色 and 十八罗汉"),
)


def _pattern(cond: Callable[[Facts], bool]) -> Find:
    return lambda f: once(cond(f))


def _pattern_rows() -> tuple[Entry, ...]:
    """Each pattern excludes every other pattern worth no more (ties: the later id), so the largest
    counts alone: the sheet's 只计最大番型, written as exclusions."""
    rows = []
    for fid, en, zh, fan, cond, desc in _CHENGDU_PATTERNS:
        lower = tuple(p[0] for p in _CHENGDU_PATTERNS if p[0] != fid and (p[3], -p[0]) < (fan, -fid))
        rows.append(_row(fid, en, zh, fan, _pattern(cond), lower, description=desc))
    return tuple(rows)


CHENGDU_ROWS: tuple[Entry, ...] = (
    *_pattern_rows(),
    _row(Fan.CD_ROOT, "Root", "根", 1, cd_roots,
        description="+1 per four of a kind, declared kong or not (less those 龙七对 / 十八罗汉 price)"),
    *_SITUATIONS,
    _row(Fan.CONCEALED_HAND, "Concealed Hand", "门清", 1, concealed_hand,
        description="nothing declared, self-drawn (option concealed_simples, 门清中张)"),
    _row(Fan.ALL_SIMPLES, "All Simples", "中张", 1, all_simples,
        description="no 1 or 9 anywhere (option concealed_simples, 门清中张)"),
)


# The whole catalogue (ListFans lists both variants' rows), and each variant's rows.
TABLE = FanTable("fan", {row.id: row for row, _ in MIL_ROWS + CHENGDU_ROWS}.values(), Fan)
FIND: dict[int, Find] = {int(row.id): find for row, find in MIL_ROWS + CHENGDU_ROWS}

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("sichuan.fans", NONE=NONE, WHOLE=WHOLE, FIND=FIND)
