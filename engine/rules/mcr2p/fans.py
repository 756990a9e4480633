"""The two-player fan table as data, each row beside the predicate that finds it.

A predicate returns the fan's occurrences in one decomposition: each occurrence names the sets
it was scored on (and, for fans not tied to sets, the tiles to highlight). An empty list means
the fan is not there. Exclusions are data (`excludes`, `excludes_on_sets`, `combo`: engine.rules.model),
applied by the mechanism every rule set shares (engine.rules.principles; see the package docstring).

Ids are this rule set's own: 1-61 in the order of the seed's table (88 points first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum
from itertools import combinations
from typing import NamedTuple

from engine.results import FanDef
from engine.rules.mcr2p.facts import Facts
from engine.rules.model import FanRow, FanTable, Scope
from engine.shapes import SetKind
from engine.tiles import DRAGONS, WINDS, is_honor, is_terminal_or_honor


class Occ(NamedTuple):
    """One occurrence of a fan: the sets it covers; `tiles` only when they are not the sets' tiles."""

    sets: tuple[int, ...]
    tiles: tuple[int, ...] = ()


NONE: list[Occ] = []


# ---------------------------------------------------------------------------------------------
# Small helpers the predicates share


def whole(f: Facts, cond: bool) -> list[Occ]:
    """A fan of the whole hand."""
    return [Occ(f.all_sets)] if cond else NONE


def situation(f: Facts, cond: bool) -> list[Occ]:
    """A fan of the situation (context), shown on the winning tile."""
    return [Occ((), (f.win,))] if cond else NONE


def group(idxs: Sequence[int], cond: bool) -> list[Occ]:
    return [Occ(tuple(idxs))] if cond and idxs else NONE


def each(idxs: Sequence[int]) -> list[Occ]:
    return [Occ((i,)) for i in idxs]


def chow_groups(f: Facts, n: int, steps: Sequence[int]) -> list[Occ]:
    """n chows (of one suit: only characters chow here) whose starts rise by a fixed step in `steps`."""
    out = []
    for combo in combinations(f.chows, n):
        starts = sorted(f.first(i) for i in combo)
        diffs = {b - a for a, b in zip(starts, starts[1:], strict=False)}
        if len(diffs) == 1 and diffs <= set(steps):
            out.append(Occ(tuple(sorted(combo, key=f.first))))
    return out


def pung_runs(f: Facts, n: int) -> list[Occ]:
    """n suited pungs/kongs with consecutive ranks."""
    out = []
    suited = [i for i in f.pungs if not is_honor(f.first(i))]
    for combo in combinations(suited, n):
        ranks = sorted(f.first(i) for i in combo)
        if all(b - a == 1 for a, b in zip(ranks, ranks[1:], strict=False)):
            out.append(Occ(tuple(sorted(combo, key=f.first))))
    return out


def chow_pairs(f: Facts, gap: int, lows: Sequence[int] | None = None) -> list[Occ]:
    """Two chows whose starts differ by `gap` (the lower starting at one of `lows` if given)."""
    out = []
    for a, b in combinations(f.chows, 2):
        lo, hi = sorted((a, b), key=f.first)
        if f.first(hi) - f.first(lo) == gap and (lows is None or f.first(lo) in lows):
            out.append(Occ((lo, hi)))
    return out


def nine_gates(f: Facts) -> bool:
    held = [0] * 9
    for t in f.hand.concealed:
        if t >= 9:
            return False
        held[t] += 1
    return not f.hand.melds and held == [3, 1, 1, 1, 1, 1, 1, 1, 3]


def seven_shifted_pairs(f: Facts) -> bool:
    ranks = sorted(t for t in f.kinds)
    return (f.seven_pairs and len(ranks) == 7 and all(t < 9 for t in ranks)
            and ranks[-1] - ranks[0] == 6)


def pure_terminal_chows(f: Facts) -> bool:
    starts = sorted(f.first(i) for i in f.chows)
    return f.standard and starts == [0, 0, 6, 6] and f.pair is not None and f.first(f.pair) == 4


def pure_straight(f: Facts) -> list[Occ]:
    pick = [next((i for i in f.chows if f.first(i) == s), None) for s in (0, 3, 6)]
    return [Occ(tuple(pick))] if None not in pick else NONE  # type: ignore[arg-type]


def tile_hogs(f: Facts) -> list[Occ]:
    """四归一: all four copies of a kind in the hand, not as a kong; sets = those holding it."""
    out = []
    for t in f.kinds:
        if f.counts[t] == 4 and not any(f.first(i) == t for i in f.kongs):
            out.append(Occ(tuple(i for i, s in enumerate(f.sets) if t in s.tiles), (t,) * 4))
    return out


def wait_kind(f: Facts) -> str:
    """边张 / 坎张 / 单钓将 for this decomposition, only when the hand waited on the winning tile alone."""
    if f.waits != {f.win} or f.win_set is None:
        return ""
    s = f.sets[f.win_set]
    if s.kind == SetKind.PAIR:
        return "single"
    if s.kind == SetKind.CHOW:
        if s.win_offset == 1:
            return "closed"
        rank = s.first % 9
        if (s.win_offset == 2 and rank == 0) or (s.win_offset == 0 and rank == 6):
            return "edge"
    return ""


def two_five_eight_pair(f: Facts) -> bool:
    return f.pair is not None and f.first(f.pair) in (1, 4, 7)


# ---------------------------------------------------------------------------------------------
# The table. (id, English, 中文 as in the seed's table, points, 不计 by Chinese name, predicate, how)

class TwoPlayerFan(IntEnum):
    """This rule set's own fan ids: 1-61 in the order of the seed's table (88 points first)."""

    BIG_FOUR_WINDS = 1
    BIG_THREE_DRAGONS = 2
    NINE_GATES = 3
    BIG_SEVEN_STARS = 4
    FOUR_KONGS = 5
    SEVEN_SHIFTED_PAIRS = 6
    HEAVENLY_HAND = 7
    EARTHLY_HAND = 8
    LITTLE_FOUR_WINDS = 9
    LITTLE_THREE_DRAGONS = 10
    ALL_HONORS = 11
    FOUR_CONCEALED_PUNGS = 12
    PURE_TERMINAL_CHOWS = 13
    QUADRUPLE_CHOW = 14
    FOUR_PURE_SHIFTED_PUNGS = 15
    FOUR_PURE_SHIFTED_CHOWS = 16
    THREE_KONGS = 17
    ALL_TERMINALS_AND_HONORS = 18
    SEVEN_PAIRS = 19
    FULL_FLUSH = 20
    PURE_TRIPLE_CHOW = 21
    PURE_SHIFTED_PUNGS = 22
    PURE_STRAIGHT = 23
    PURE_SHIFTED_CHOWS = 24
    HEAVENLY_READY = 25
    THREE_CONCEALED_PUNGS = 26
    UPPER_FOUR = 27
    LOWER_FOUR = 28
    BIG_THREE_WINDS = 29
    LAST_TILE_DRAW = 30
    LAST_TILE_CLAIM = 31
    OUT_WITH_REPLACEMENT_TILE = 32
    ROBBING_THE_KONG = 33
    ALL_PUNGS = 34
    TWO_CONCEALED_KONGS = 35
    HALF_FLUSH = 36
    MELDED_HAND = 37
    TWO_DRAGONS_PUNGS = 38
    OUTSIDE_HAND = 39
    FULLY_CONCEALED_HAND = 40
    TWO_MELDED_KONGS = 41
    LAST_TILE = 42
    DRAGON_PUNG = 43
    SEAT_WIND = 44
    CONCEALED_HAND = 45
    ALL_CHOWS = 46
    TILE_HOG = 47
    TWO_CONCEALED_PUNGS = 48
    CONCEALED_KONG = 49
    ALL_SIMPLES = 50
    READY_DECLARATION = 51
    PURE_DOUBLE_CHOW = 52
    SHORT_STRAIGHT = 53
    TWO_TERMINAL_CHOWS = 54
    PUNG_OF_TERMINALS_OR_HONORS = 55
    MELDED_KONG = 56
    EDGE_WAIT = 57
    CLOSED_WAIT = 58
    SINGLE_WAIT = 59
    SELF_DRAWN = 60
    TWO_FIVE_EIGHT_PAIR = 61


F = TwoPlayerFan
_HAND, _SETS, _SITUATION = Scope.HAND, Scope.SETS, Scope.SITUATION

# The table: each row beside its predicate. Exclusions of a fan counted per set (its scope SETS) are
# `excludes_on_sets`: only its occurrences inside the excluding fan's sets go.
_ROWS: tuple[tuple[FanRow, Callable[[Facts], list[Occ]]], ...] = (
    # 88
    (FanRow(F.BIG_FOUR_WINDS, "Big Four Winds", "大四喜", 88,
            excludes=(F.LITTLE_FOUR_WINDS, F.BIG_THREE_WINDS, F.ALL_PUNGS),
            excludes_on_sets=(F.SEAT_WIND, F.PUNG_OF_TERMINALS_OR_HONORS), scope=_HAND),
     lambda f: group(f.wind_pungs(), len(f.wind_pungs()) == 4)),
    (FanRow(F.BIG_THREE_DRAGONS, "Big Three Dragons", "大三元", 88,
            excludes=(F.TWO_DRAGONS_PUNGS,),
            excludes_on_sets=(F.DRAGON_PUNG, F.PUNG_OF_TERMINALS_OR_HONORS), scope=_HAND),
     lambda f: group(f.dragon_pungs(), len(f.dragon_pungs()) == 3)),
    (FanRow(F.NINE_GATES, "Nine Gates", "九莲宝灯", 88,
            excludes=(F.FULL_FLUSH, F.CONCEALED_HAND, F.SELF_DRAWN, F.FULLY_CONCEALED_HAND), scope=_HAND),
     lambda f: whole(f, nine_gates(f))),
    (FanRow(F.BIG_SEVEN_STARS, "Big Seven Stars", "大七星", 88,
            excludes=(F.SEVEN_PAIRS, F.OUTSIDE_HAND, F.SINGLE_WAIT, F.CONCEALED_HAND, F.SELF_DRAWN, F.ALL_HONORS,
                F.FULLY_CONCEALED_HAND), scope=_HAND),
     lambda f: whole(f, f.seven_pairs and all(f.counts[t] == 2 for t in WINDS + DRAGONS))),
    (FanRow(F.FOUR_KONGS, "Four Kongs", "四杠", 88,
            excludes=(F.THREE_KONGS, F.TWO_MELDED_KONGS, F.MELDED_KONG, F.SINGLE_WAIT, F.TWO_CONCEALED_KONGS,
                F.CONCEALED_KONG, F.ALL_PUNGS), scope=_HAND),
     lambda f: group(f.kongs, len(f.kongs) == 4)),
    (FanRow(F.SEVEN_SHIFTED_PAIRS, "Seven Shifted Pairs", "连七对", 88,
            excludes=(F.SEVEN_PAIRS, F.SINGLE_WAIT, F.CONCEALED_HAND, F.SELF_DRAWN, F.FULL_FLUSH,
                F.FULLY_CONCEALED_HAND), scope=_HAND),
     lambda f: whole(f, seven_shifted_pairs(f))),
    (FanRow(F.HEAVENLY_HAND, "Heavenly Hand", "天胡", 88,
            excludes=(F.EDGE_WAIT, F.CLOSED_WAIT, F.SINGLE_WAIT, F.FULLY_CONCEALED_HAND, F.LAST_TILE, F.SELF_DRAWN),
                scope=_HAND),
     lambda f: whole(f, f.ctx.heavenly)),
    (FanRow(F.EARTHLY_HAND, "Earthly Hand", "地胡", 88, excludes=(F.SELF_DRAWN, F.FULLY_CONCEALED_HAND), scope=_HAND),
     lambda f: whole(f, f.ctx.earthly)),
    # 64
    (FanRow(F.LITTLE_FOUR_WINDS, "Little Four Winds", "小四喜", 64,
            excludes=(F.BIG_THREE_WINDS,),
            excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_HAND),
     lambda f: group(f.wind_pungs() + (f.pair,), len(f.wind_pungs()) == 3 and f.pair is not None  # type: ignore[operator]
                     and f.first(f.pair) in WINDS)),
    (FanRow(F.LITTLE_THREE_DRAGONS, "Little Three Dragons", "小三元", 64,
            excludes=(F.TWO_DRAGONS_PUNGS,),
            excludes_on_sets=(F.DRAGON_PUNG, F.PUNG_OF_TERMINALS_OR_HONORS), scope=_HAND),
     lambda f: group(f.dragon_pungs() + (f.pair,), len(f.dragon_pungs()) == 2 and f.pair is not None  # type: ignore[operator]
                     and f.first(f.pair) in DRAGONS)),
    (FanRow(F.ALL_HONORS, "All Honors", "字一色", 64,
            excludes=(F.ALL_PUNGS, F.ALL_TERMINALS_AND_HONORS, F.OUTSIDE_HAND),
            excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_HAND),
     lambda f: whole(f, f.all_tiles(is_honor))),
    (FanRow(F.FOUR_CONCEALED_PUNGS, "Four Concealed Pungs", "四暗刻", 64,
            excludes=(F.CONCEALED_HAND, F.ALL_PUNGS, F.THREE_CONCEALED_PUNGS, F.TWO_CONCEALED_PUNGS,
                F.FULLY_CONCEALED_HAND), scope=_HAND),
     lambda f: group(f.concealed_pungs, len(f.concealed_pungs) == 4)),
    (FanRow(F.PURE_TERMINAL_CHOWS, "Pure Terminal Chows", "一色双龙会", 64,
            excludes=(F.ALL_CHOWS, F.SEVEN_PAIRS, F.FULL_FLUSH, F.TWO_FIVE_EIGHT_PAIR),
            excludes_on_sets=(F.PURE_DOUBLE_CHOW, F.TWO_TERMINAL_CHOWS), scope=_HAND, combo=True),
     lambda f: whole(f, pure_terminal_chows(f))),
    # 48
    (FanRow(F.QUADRUPLE_CHOW, "Quadruple Chow", "一色四同顺", 48,
            excludes=(F.PURE_SHIFTED_PUNGS, F.PURE_TRIPLE_CHOW, F.SEVEN_PAIRS),
            excludes_on_sets=(F.PURE_DOUBLE_CHOW, F.TILE_HOG), scope=_HAND, combo=True),
     lambda f: chow_groups(f, 4, (0,))),
    (FanRow(F.FOUR_PURE_SHIFTED_PUNGS, "Four Pure Shifted Pungs", "一色四节高", 48,
            excludes=(F.PURE_TRIPLE_CHOW, F.PURE_SHIFTED_PUNGS, F.ALL_PUNGS), scope=_HAND, combo=True),
     lambda f: pung_runs(f, 4)),
    # 32
    (FanRow(F.FOUR_PURE_SHIFTED_CHOWS, "Four Pure Shifted Chows", "一色四步高", 32,
            excludes=(F.PURE_SHIFTED_CHOWS,), scope=_HAND, combo=True),
     lambda f: chow_groups(f, 4, (1, 2))),
    (FanRow(F.THREE_KONGS, "Three Kongs", "三杠", 32,
            excludes=(F.TWO_MELDED_KONGS, F.MELDED_KONG, F.TWO_CONCEALED_KONGS, F.CONCEALED_KONG), scope=_HAND),
     lambda f: group(f.kongs, len(f.kongs) == 3)),
    (FanRow(F.ALL_TERMINALS_AND_HONORS, "All Terminals and Honors", "混幺九", 32,
            excludes=(F.ALL_PUNGS, F.OUTSIDE_HAND),
            excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_HAND),
     lambda f: whole(f, f.standard and len(f.pungs) == 4 and f.all_tiles(is_terminal_or_honor))),
    # 24
    (FanRow(F.SEVEN_PAIRS, "Seven Pairs", "七对", 24,
            excludes=(F.CONCEALED_HAND, F.FULLY_CONCEALED_HAND, F.SINGLE_WAIT), scope=_HAND),
     lambda f: whole(f, f.seven_pairs)),
    (FanRow(F.FULL_FLUSH, "Full Flush", "清一色", 24, scope=_HAND),
     lambda f: whole(f, f.all_tiles(lambda t: t < 9))),
    (FanRow(F.PURE_TRIPLE_CHOW, "Pure Triple Chow", "一色三同顺", 24,
            excludes=(F.PURE_SHIFTED_PUNGS,),
            excludes_on_sets=(F.PURE_DOUBLE_CHOW,), scope=_HAND, combo=True),
     lambda f: chow_groups(f, 3, (0,))),
    (FanRow(F.PURE_SHIFTED_PUNGS, "Pure Shifted Pungs", "一色三节高", 24,
            excludes=(F.PURE_TRIPLE_CHOW,), scope=_HAND, combo=True),
     lambda f: pung_runs(f, 3)),
    # 16
    (FanRow(F.PURE_STRAIGHT, "Pure Straight", "清龙", 16,
            excludes_on_sets=(F.SHORT_STRAIGHT, F.TWO_TERMINAL_CHOWS), scope=_HAND, combo=True),
     pure_straight),
    (FanRow(F.PURE_SHIFTED_CHOWS, "Pure Shifted Chows", "一色三步高", 16, scope=_HAND, combo=True),
     lambda f: chow_groups(f, 3, (1, 2))),
    (FanRow(F.HEAVENLY_READY, "Heavenly Ready", "天听", 16, excludes=(F.READY_DECLARATION,), scope=_SITUATION),
     lambda f: situation(f, f.ctx.heavenly_ready)),
    (FanRow(F.THREE_CONCEALED_PUNGS, "Three Concealed Pungs", "三暗刻", 16,
            excludes=(F.TWO_CONCEALED_PUNGS,), scope=_HAND),
     lambda f: group(f.concealed_pungs, len(f.concealed_pungs) == 3)),
    # 12
    (FanRow(F.UPPER_FOUR, "Upper Four", "大于五", 12, scope=_HAND),
     lambda f: whole(f, f.all_tiles(lambda t: t < 9 and t % 9 >= 5))),
    (FanRow(F.LOWER_FOUR, "Lower Four", "小于五", 12, scope=_HAND),
     lambda f: whole(f, f.all_tiles(lambda t: t < 9 and t % 9 <= 3))),
    (FanRow(F.BIG_THREE_WINDS, "Big Three Winds", "三风刻", 12,
            excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_HAND),
     lambda f: group(f.wind_pungs(), len(f.wind_pungs()) >= 3)),
    # 8
    (FanRow(F.LAST_TILE_DRAW, "Last Tile Draw", "妙手回春", 8, excludes=(F.SELF_DRAWN,), scope=_SITUATION),
     lambda f: situation(f, f.ctx.last_wall_tile and f.ctx.self_drawn)),
    (FanRow(F.LAST_TILE_CLAIM, "Last Tile Claim", "海底捞月", 8, scope=_SITUATION),
     lambda f: situation(f, f.ctx.last_wall_tile and not f.ctx.self_drawn)),
    (FanRow(F.OUT_WITH_REPLACEMENT_TILE, "Out with Replacement Tile", "杠上开花", 8,
            excludes=(F.SELF_DRAWN,), scope=_SITUATION),
     lambda f: situation(f, f.ctx.replacement_tile)),
    (FanRow(F.ROBBING_THE_KONG, "Robbing The Kong", "抢杠胡", 8, excludes=(F.LAST_TILE,), scope=_SITUATION),
     lambda f: situation(f, f.ctx.robbing_kong)),
    # 6
    (FanRow(F.ALL_PUNGS, "All Pungs", "碰碰胡", 6, scope=_HAND),
     lambda f: group(f.pungs, f.standard and len(f.pungs) == 4)),
    (FanRow(F.TWO_CONCEALED_KONGS, "Two Concealed Kongs", "双暗杠", 6,
            excludes=(F.CONCEALED_KONG, F.TWO_CONCEALED_PUNGS), scope=_HAND),
     lambda f: group(f.concealed_kongs, len(f.concealed_kongs) >= 2)),
    (FanRow(F.HALF_FLUSH, "Half Flush", "混一色", 6, scope=_HAND),
     lambda f: whole(f, any(t < 9 for t in f.kinds) and any(is_honor(t) for t in f.kinds))),
    (FanRow(F.MELDED_HAND, "Melded Hand", "全求人", 6, excludes=(F.SINGLE_WAIT,), scope=_HAND),
     lambda f: whole(f, len(f.claimed_melds) == 4 and not f.ctx.self_drawn)),
    (FanRow(F.TWO_DRAGONS_PUNGS, "Two Dragons Pungs", "双箭刻", 6,
            excludes_on_sets=(F.DRAGON_PUNG, F.PUNG_OF_TERMINALS_OR_HONORS), scope=_HAND),
     lambda f: group(f.dragon_pungs(), len(f.dragon_pungs()) == 2)),
    # 4
    (FanRow(F.OUTSIDE_HAND, "Outside Hand", "全带幺", 4, scope=_HAND),
     lambda f: whole(f, f.standard and all(any(is_terminal_or_honor(t) for t in s.tiles) for s in f.sets))),
    (FanRow(F.FULLY_CONCEALED_HAND, "Fully Concealed Hand", "不求人", 4, excludes=(F.SELF_DRAWN,), scope=_SITUATION),
     lambda f: situation(f, not f.claimed_melds and f.ctx.self_drawn)),
    (FanRow(F.TWO_MELDED_KONGS, "Two Melded Kongs", "双明杠", 4, excludes=(F.MELDED_KONG,), scope=_HAND),
     lambda f: group(f.melded_kongs, len(f.melded_kongs) >= 2)),
    (FanRow(F.LAST_TILE, "Last Tile", "和绝张", 4, scope=_SITUATION),
     lambda f: situation(f, f.ctx.last_of_kind)),
    # 2
    (FanRow(F.DRAGON_PUNG, "Dragon Pung", "箭刻", 2, excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_SETS),
     lambda f: each(f.dragon_pungs())),
    (FanRow(F.SEAT_WIND, "Seat Wind", "门风刻", 2, excludes_on_sets=(F.PUNG_OF_TERMINALS_OR_HONORS,), scope=_SETS),
     lambda f: each([i for i in f.pungs if f.first(i) == f.seat_wind_tile])),
    (FanRow(F.CONCEALED_HAND, "Concealed Hand", "门前清", 2, scope=_SITUATION),
     lambda f: situation(f, not f.claimed_melds and not f.ctx.self_drawn)),
    (FanRow(F.ALL_CHOWS, "All Chows", "平胡", 2, scope=_HAND),
     lambda f: whole(f, len(f.chows) == 4 and f.pair is not None and not is_honor(f.first(f.pair)))),
    (FanRow(F.TILE_HOG, "Tile Hog", "四归一", 2, scope=_SETS),
     tile_hogs),
    (FanRow(F.TWO_CONCEALED_PUNGS, "Two Concealed Pungs", "双暗刻", 2, scope=_HAND),
     lambda f: group(f.concealed_pungs, len(f.concealed_pungs) == 2)),
    (FanRow(F.CONCEALED_KONG, "Concealed Kong", "暗杠", 2, scope=_HAND),
     lambda f: group(f.concealed_kongs, len(f.concealed_kongs) >= 1)),
    (FanRow(F.ALL_SIMPLES, "All Simples", "断幺", 2, scope=_HAND),
     lambda f: whole(f, not any(is_terminal_or_honor(t) for t in f.kinds))),
    (FanRow(F.READY_DECLARATION, "Ready Declaration", "报听", 2, scope=_SITUATION),
     lambda f: situation(f, f.ctx.ready_declared)),
    # 1
    (FanRow(F.PURE_DOUBLE_CHOW, "Pure Double Chow", "一般高", 1, scope=_SETS, combo=True),
     lambda f: chow_pairs(f, 0)),
    (FanRow(F.SHORT_STRAIGHT, "Short Straight", "连六", 1, scope=_SETS, combo=True),
     lambda f: chow_pairs(f, 3)),
    (FanRow(F.TWO_TERMINAL_CHOWS, "Two Terminal Chows", "老少副", 1, scope=_SETS, combo=True),
     lambda f: chow_pairs(f, 6, (0,))),
    (FanRow(F.PUNG_OF_TERMINALS_OR_HONORS, "Pung of Terminals or Honors", "幺九刻", 1, scope=_SETS),
     lambda f: each(f.terminal_or_honour_pungs())),
    (FanRow(F.MELDED_KONG, "Melded Kong", "明杠", 1, scope=_HAND),
     lambda f: group(f.melded_kongs, len(f.melded_kongs) >= 1)),
    (FanRow(F.EDGE_WAIT, "Edge Wait", "边张", 1, scope=_HAND),
     lambda f: group((f.win_set,), wait_kind(f) == "edge")),  # type: ignore[arg-type]
    (FanRow(F.CLOSED_WAIT, "Closed Wait", "坎张", 1, scope=_HAND),
     lambda f: group((f.win_set,), wait_kind(f) == "closed")),  # type: ignore[arg-type]
    (FanRow(F.SINGLE_WAIT, "Single Wait", "单钓将", 1, scope=_HAND),
     lambda f: group((f.win_set,), wait_kind(f) == "single")),  # type: ignore[arg-type]
    (FanRow(F.SELF_DRAWN, "Self-Drawn", "自摸", 1, scope=_SITUATION),
     lambda f: situation(f, f.ctx.self_drawn)),
    (FanRow(F.TWO_FIVE_EIGHT_PAIR, "Two-Five-Eight Pair", "二五八将", 1, scope=_HAND),
     lambda f: group((f.pair,), two_five_eight_pair(f))),  # type: ignore[arg-type]
)


TABLE = FanTable("points", (row for row, _ in _ROWS), TwoPlayerFan)
FIND: dict[int, Callable[[Facts], list[Occ]]] = {int(row.id): find for row, find in _ROWS}
FANS: tuple[FanDef, ...] = TABLE.defs
BY_ZH: dict[str, FanDef] = {f.name_zh: f for f in FANS}
