"""The two-player fan table as data, each row beside the predicate that finds it.

A predicate returns the fan's occurrences in one decomposition: each occurrence names the sets
it was scored on (and, for fans not tied to sets, the tiles to highlight). An empty list means
the fan is not there. Exclusions are data (`excludes`, by Chinese name, resolved to ids at import);
`scope` and `combo` say how `scoring.py` applies them (see the package docstring).

Ids are this rule set's own: 1-61 in the order of the seed's table (88 points first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from engine.results import FanDef
from engine.rules.mcr2p.facts import Facts
from engine.shapes import SetKind
from engine.tiles import DRAGONS, WINDS, is_honor, is_terminal_or_honor


class Occ(NamedTuple):
    """One occurrence of a fan: the sets it covers; `tiles` only when they are not the sets' tiles."""

    sets: tuple[int, ...]
    tiles: tuple[int, ...] = ()


NONE: list[Occ] = []


@dataclass(frozen=True, slots=True)
class FanSpec:
    """A catalogue row. `scope`: "hand" exclusions remove the fan outright; "sets" exclusions remove
    only occurrences lying inside the excluding fan's sets. `combo`: a combination of sets subject
    to the account-once principle."""

    fan: FanDef
    find: Callable[[Facts], list[Occ]]
    scope: str = "hand"
    combo: bool = False


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

_ROWS: tuple[tuple, ...] = (
    # 88
    (1, "Big Four Winds", "大四喜", 88, ("门风刻", "小四喜", "三风刻", "碰碰胡", "幺九刻"),
     lambda f: group(f.wind_pungs(), len(f.wind_pungs()) == 4)),
    (2, "Big Three Dragons", "大三元", 88, ("双箭刻", "箭刻", "幺九刻"),
     lambda f: group(f.dragon_pungs(), len(f.dragon_pungs()) == 3)),
    (3, "Nine Gates", "九莲宝灯", 88, ("清一色", "门前清", "自摸", "不求人"),
     lambda f: whole(f, nine_gates(f))),
    (4, "Big Seven Stars", "大七星", 88, ("七对", "全带幺", "单钓将", "门前清", "自摸", "字一色", "不求人"),
     lambda f: whole(f, f.seven_pairs and all(f.counts[t] == 2 for t in WINDS + DRAGONS))),
    (5, "Four Kongs", "四杠", 88, ("三杠", "双明杠", "明杠", "单钓将", "双暗杠", "暗杠", "碰碰胡"),
     lambda f: group(f.kongs, len(f.kongs) == 4)),
    (6, "Seven Shifted Pairs", "连七对", 88, ("七对", "单钓将", "门前清", "自摸", "清一色", "不求人"),
     lambda f: whole(f, seven_shifted_pairs(f))),
    (7, "Heavenly Hand", "天胡", 88, ("边张", "坎张", "单钓将", "不求人", "和绝张", "自摸"),
     lambda f: whole(f, f.ctx.heavenly)),
    (8, "Earthly Hand", "地胡", 88, ("自摸", "不求人"),
     lambda f: whole(f, f.ctx.earthly)),
    # 64
    (9, "Little Four Winds", "小四喜", 64, ("三风刻", "幺九刻"),
     lambda f: group(f.wind_pungs() + (f.pair,), len(f.wind_pungs()) == 3 and f.pair is not None
                     and f.first(f.pair) in WINDS)),
    (10, "Little Three Dragons", "小三元", 64, ("箭刻", "双箭刻", "幺九刻"),
     lambda f: group(f.dragon_pungs() + (f.pair,), len(f.dragon_pungs()) == 2 and f.pair is not None
                     and f.first(f.pair) in DRAGONS)),
    (11, "All Honors", "字一色", 64, ("碰碰胡", "混幺九", "全带幺", "幺九刻"),
     lambda f: whole(f, f.all_tiles(is_honor))),
    (12, "Four Concealed Pungs", "四暗刻", 64, ("门前清", "碰碰胡", "三暗刻", "双暗刻", "不求人"),
     lambda f: group(f.concealed_pungs, len(f.concealed_pungs) == 4)),
    (13, "Pure Terminal Chows", "一色双龙会", 64, ("平胡", "七对", "清一色", "一般高", "老少副", "二五八将"),
     lambda f: whole(f, pure_terminal_chows(f)), "hand", True),
    # 48
    (14, "Quadruple Chow", "一色四同顺", 48, ("一色三节高", "一般高", "四归一", "一色三同顺", "七对"),
     lambda f: chow_groups(f, 4, (0,)), "hand", True),
    (15, "Four Pure Shifted Pungs", "一色四节高", 48, ("一色三同顺", "一色三节高", "碰碰胡"),
     lambda f: pung_runs(f, 4), "hand", True),
    # 32
    (16, "Four Pure Shifted Chows", "一色四步高", 32, ("一色三步高",),
     lambda f: chow_groups(f, 4, (1, 2)), "hand", True),
    (17, "Three Kongs", "三杠", 32, ("双明杠", "明杠", "双暗杠", "暗杠"),
     lambda f: group(f.kongs, len(f.kongs) == 3)),
    (18, "All Terminals and Honors", "混幺九", 32, ("碰碰胡", "幺九刻", "全带幺"),
     lambda f: whole(f, f.standard and len(f.pungs) == 4 and f.all_tiles(is_terminal_or_honor))),
    # 24
    (19, "Seven Pairs", "七对", 24, ("门前清", "不求人", "单钓将"),
     lambda f: whole(f, f.seven_pairs)),
    (20, "Full Flush", "清一色", 24, (),
     lambda f: whole(f, f.all_tiles(lambda t: t < 9))),
    (21, "Pure Triple Chow", "一色三同顺", 24, ("一色三节高", "一般高"),
     lambda f: chow_groups(f, 3, (0,)), "hand", True),
    (22, "Pure Shifted Pungs", "一色三节高", 24, ("一色三同顺",),
     lambda f: pung_runs(f, 3), "hand", True),
    # 16
    (23, "Pure Straight", "清龙", 16, ("连六", "老少副"), pure_straight, "hand", True),
    (24, "Pure Shifted Chows", "一色三步高", 16, (),
     lambda f: chow_groups(f, 3, (1, 2)), "hand", True),
    (25, "Heavenly Ready", "天听", 16, ("报听",),
     lambda f: situation(f, f.ctx.heavenly_ready)),
    (26, "Three Concealed Pungs", "三暗刻", 16, ("双暗刻",),
     lambda f: group(f.concealed_pungs, len(f.concealed_pungs) == 3)),
    # 12
    (27, "Upper Four", "大于五", 12, (),
     lambda f: whole(f, f.all_tiles(lambda t: t < 9 and t % 9 >= 5))),
    (28, "Lower Four", "小于五", 12, (),
     lambda f: whole(f, f.all_tiles(lambda t: t < 9 and t % 9 <= 3))),
    (29, "Big Three Winds", "三风刻", 12, ("幺九刻",),
     lambda f: group(f.wind_pungs(), len(f.wind_pungs()) >= 3)),
    # 8
    (30, "Last Tile Draw", "妙手回春", 8, ("自摸",),
     lambda f: situation(f, f.ctx.last_wall_tile and f.ctx.self_drawn)),
    (31, "Last Tile Claim", "海底捞月", 8, (),
     lambda f: situation(f, f.ctx.last_wall_tile and not f.ctx.self_drawn)),
    (32, "Out with Replacement Tile", "杠上开花", 8, ("自摸",),
     lambda f: situation(f, f.ctx.replacement_tile)),
    (33, "Robbing The Kong", "抢杠胡", 8, ("和绝张",),
     lambda f: situation(f, f.ctx.robbing_kong)),
    # 6
    (34, "All Pungs", "碰碰胡", 6, (),
     lambda f: group(f.pungs, f.standard and len(f.pungs) == 4)),
    (35, "Two Concealed Kongs", "双暗杠", 6, ("暗杠", "双暗刻"),
     lambda f: group(f.concealed_kongs, len(f.concealed_kongs) >= 2)),
    (36, "Half Flush", "混一色", 6, (),
     lambda f: whole(f, any(t < 9 for t in f.kinds) and any(is_honor(t) for t in f.kinds))),
    (37, "Melded Hand", "全求人", 6, ("单钓将",),
     lambda f: whole(f, len(f.claimed_melds) == 4 and not f.ctx.self_drawn)),
    (38, "Two Dragons Pungs", "双箭刻", 6, ("箭刻", "幺九刻"),
     lambda f: group(f.dragon_pungs(), len(f.dragon_pungs()) == 2)),
    # 4
    (39, "Outside Hand", "全带幺", 4, (),
     lambda f: whole(f, f.standard and all(any(is_terminal_or_honor(t) for t in s.tiles) for s in f.sets))),
    (40, "Fully Concealed Hand", "不求人", 4, ("自摸",),
     lambda f: situation(f, not f.claimed_melds and f.ctx.self_drawn)),
    (41, "Two Melded Kongs", "双明杠", 4, ("明杠",),
     lambda f: group(f.melded_kongs, len(f.melded_kongs) >= 2)),
    (42, "Last Tile", "和绝张", 4, (),
     lambda f: situation(f, f.ctx.last_of_kind)),
    # 2
    (43, "Dragon Pung", "箭刻", 2, ("幺九刻",),
     lambda f: each(f.dragon_pungs()), "sets"),
    (44, "Seat Wind", "门风刻", 2, ("幺九刻",),
     lambda f: each([i for i in f.pungs if f.first(i) == f.seat_wind_tile]), "sets"),
    (45, "Concealed Hand", "门前清", 2, (),
     lambda f: situation(f, not f.claimed_melds and not f.ctx.self_drawn)),
    (46, "All Chows", "平胡", 2, (),
     lambda f: whole(f, len(f.chows) == 4 and f.pair is not None and not is_honor(f.first(f.pair)))),
    (47, "Tile Hog", "四归一", 2, (), tile_hogs, "sets"),
    (48, "Two Concealed Pungs", "双暗刻", 2, (),
     lambda f: group(f.concealed_pungs, len(f.concealed_pungs) == 2)),
    (49, "Concealed Kong", "暗杠", 2, (),
     lambda f: group(f.concealed_kongs, len(f.concealed_kongs) >= 1)),
    (50, "All Simples", "断幺", 2, (),
     lambda f: whole(f, not any(is_terminal_or_honor(t) for t in f.kinds))),
    (51, "Ready Declaration", "报听", 2, (),
     lambda f: situation(f, f.ctx.ready_declared)),
    # 1
    (52, "Pure Double Chow", "一般高", 1, (),
     lambda f: chow_pairs(f, 0), "sets", True),
    (53, "Short Straight", "连六", 1, (),
     lambda f: chow_pairs(f, 3), "sets", True),
    (54, "Two Terminal Chows", "老少副", 1, (),
     lambda f: chow_pairs(f, 6, (0,)), "sets", True),
    (55, "Pung of Terminals or Honors", "幺九刻", 1, (),
     lambda f: each(f.terminal_or_honour_pungs()), "sets"),
    (56, "Melded Kong", "明杠", 1, (),
     lambda f: group(f.melded_kongs, len(f.melded_kongs) >= 1)),
    (57, "Edge Wait", "边张", 1, (),
     lambda f: group((f.win_set,), wait_kind(f) == "edge")),  # type: ignore[arg-type]
    (58, "Closed Wait", "坎张", 1, (),
     lambda f: group((f.win_set,), wait_kind(f) == "closed")),  # type: ignore[arg-type]
    (59, "Single Wait", "单钓将", 1, (),
     lambda f: group((f.win_set,), wait_kind(f) == "single")),  # type: ignore[arg-type]
    (60, "Self-Drawn", "自摸", 1, (),
     lambda f: situation(f, f.ctx.self_drawn)),
    (61, "Two-Five-Eight Pair", "二五八将", 1, (),
     lambda f: group((f.pair,), two_five_eight_pair(f))),  # type: ignore[arg-type]
)


def _build() -> tuple[FanSpec, ...]:
    ids = {row[2]: row[0] for row in _ROWS}
    specs = []
    for row in _ROWS:
        fid, en, zh, points, excludes, find, *how = row
        scope = how[0] if how else "hand"
        combo = how[1] if len(how) > 1 else False
        fan = FanDef(fid, en, zh, points, tuple(sorted(ids[x] for x in excludes)))
        specs.append(FanSpec(fan, find, scope, combo))
    return tuple(specs)


SPECS: tuple[FanSpec, ...] = _build()
FANS: tuple[FanDef, ...] = tuple(s.fan for s in SPECS)
BY_ZH: dict[str, FanDef] = {f.name_zh: f for f in FANS}
