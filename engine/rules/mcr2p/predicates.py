"""One predicate per row of the two-player table (fans.py), each registered with `@fan(Fan.X)`.

A predicate returns the fan's occurrences in one decomposition (engine.rules.model.Occurrence: the set
indices it was scored on; [] = not there): the whole hand, a group of sets, each set, or for a fan of the
situation no set (scoring shows it on the winning tile). Tile Hog shows the four copies of its kind
(`Showing`). Everything they read is in facts.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.registry import REGISTRY
from engine.rules.mcr2p.facts import Facts
from engine.rules.mcr2p.fans import TABLE, F
from engine.rules.model import Occurrence, Predicates, Showing
from engine.shapes import SetKind
from engine.tile_kinds import DRAGONS, P1, WINDS, is_honor, is_terminal_or_honor, rank_of

PREDICATES = Predicates(TABLE)
fan = PREDICATES.fan

NONE: list[Occurrence] = []


# ---------------------------------------------------------------------------------------------
# Small helpers the predicates share


def whole(f: Facts, cond: bool) -> list[Occurrence]:
    """A fan of the whole hand."""
    return [f.all_sets] if cond else NONE


def situation(cond: bool) -> list[Occurrence]:
    """A fan of the situation (context): on no set (scoring shows it on the winning tile: its row's scope)."""
    return [()] if cond else NONE


def group(idxs: Sequence[int], cond: bool) -> list[Occurrence]:
    return [tuple(idxs)] if cond and idxs else NONE


def each(idxs: Sequence[int]) -> list[Occurrence]:
    return [(i,) for i in idxs]


def chow_groups(f: Facts, n: int, steps: Sequence[int]) -> list[Occurrence]:
    """n chows (of one suit: only characters chow here) whose starts rise by a fixed step in `steps`."""
    out: list[Occurrence] = []
    for combo in combinations(f.chows, n):
        starts = sorted(f.first(i) for i in combo)
        diffs = {b - a for a, b in zip(starts, starts[1:], strict=False)}
        if len(diffs) == 1 and diffs <= set(steps):
            out.append(tuple(sorted(combo, key=f.first)))
    return out


def pung_runs(f: Facts, n: int) -> list[Occurrence]:
    """n suited pungs/kongs with consecutive ranks."""
    out: list[Occurrence] = []
    suited = [i for i in f.pungs if not is_honor(f.first(i))]
    for combo in combinations(suited, n):
        ranks = sorted(f.first(i) for i in combo)
        if all(b - a == 1 for a, b in zip(ranks, ranks[1:], strict=False)):
            out.append(tuple(sorted(combo, key=f.first)))
    return out


def chow_pairs(f: Facts, gap: int, lows: Sequence[int] | None = None) -> list[Occurrence]:
    """Two chows whose starts differ by `gap` (the lower starting at one of `lows` if given)."""
    out: list[Occurrence] = []
    for a, b in combinations(f.chows, 2):
        lo, hi = sorted((a, b), key=f.first)
        if f.first(hi) - f.first(lo) == gap and (lows is None or f.first(lo) in lows):
            out.append((lo, hi))
    return out


def is_nine_gates(f: Facts) -> bool:
    held = [0] * 9
    for t in f.hand.concealed:
        if t >= 9:
            return False
        held[t] += 1
    return not f.hand.melds and held == [3, 1, 1, 1, 1, 1, 1, 1, 3]


def is_seven_shifted_pairs(f: Facts) -> bool:
    ranks = sorted(t for t in f.kinds)
    return (f.seven_pairs and len(ranks) == 7 and all(t < 9 for t in ranks)
            and ranks[-1] - ranks[0] == 6)


def is_pure_terminal_chows(f: Facts) -> bool:
    starts = sorted(f.first(i) for i in f.chows)
    return f.standard and starts == [0, 0, 6, 6] and f.pair is not None and f.first(f.pair) == 4


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
        rank = rank_of(s.first)
        if (s.win_offset == 2 and rank == 1) or (s.win_offset == 0 and rank == 7):
            return "edge"
    return ""


def is_two_five_eight_pair(f: Facts) -> bool:
    return f.pair is not None and f.first(f.pair) in (1, 4, 7)


# ---------------------------------------------------------------------------------------------
# One predicate per fan, in the table's order

# 88
@fan(F.BIG_FOUR_WINDS)
def big_four_winds(f: Facts) -> list[Occurrence]:
    return group(f.wind_pungs(), len(f.wind_pungs()) == 4)


@fan(F.BIG_THREE_DRAGONS)
def big_three_dragons(f: Facts) -> list[Occurrence]:
    return group(f.dragon_pungs(), len(f.dragon_pungs()) == 3)


@fan(F.NINE_GATES)
def nine_gates(f: Facts) -> list[Occurrence]:
    return whole(f, is_nine_gates(f))


@fan(F.BIG_SEVEN_STARS)
def big_seven_stars(f: Facts) -> list[Occurrence]:
    return whole(f, f.seven_pairs and all(f.counts[t] == 2 for t in WINDS + DRAGONS))


@fan(F.FOUR_KONGS)
def four_kongs(f: Facts) -> list[Occurrence]:
    return group(f.kongs, len(f.kongs) == 4)


@fan(F.SEVEN_SHIFTED_PAIRS)
def seven_shifted_pairs(f: Facts) -> list[Occurrence]:
    return whole(f, is_seven_shifted_pairs(f))


@fan(F.HEAVENLY_HAND)
def heavenly_hand(f: Facts) -> list[Occurrence]:
    return whole(f, f.ctx.heavenly)


@fan(F.EARTHLY_HAND)
def earthly_hand(f: Facts) -> list[Occurrence]:
    return whole(f, f.ctx.earthly)


# 64
@fan(F.LITTLE_FOUR_WINDS)
def little_four_winds(f: Facts) -> list[Occurrence]:
    return group(f.wind_pungs() + (f.pair,), len(f.wind_pungs()) == 3 and f.pair is not None  # type: ignore[operator]
           and f.first(f.pair) in WINDS)


@fan(F.LITTLE_THREE_DRAGONS)
def little_three_dragons(f: Facts) -> list[Occurrence]:
    return group(f.dragon_pungs() + (f.pair,), len(f.dragon_pungs()) == 2 and f.pair is not None  # type: ignore[operator]
           and f.first(f.pair) in DRAGONS)


@fan(F.ALL_HONORS)
def all_honors(f: Facts) -> list[Occurrence]:
    return whole(f, f.all_tiles(is_honor))


@fan(F.FOUR_CONCEALED_PUNGS)
def four_concealed_pungs(f: Facts) -> list[Occurrence]:
    return group(f.concealed_pungs, len(f.concealed_pungs) == 4)


@fan(F.PURE_TERMINAL_CHOWS)
def pure_terminal_chows(f: Facts) -> list[Occurrence]:
    return whole(f, is_pure_terminal_chows(f))


# 48
@fan(F.QUADRUPLE_CHOW)
def quadruple_chow(f: Facts) -> list[Occurrence]:
    return chow_groups(f, 4, (0,))


@fan(F.FOUR_PURE_SHIFTED_PUNGS)
def four_pure_shifted_pungs(f: Facts) -> list[Occurrence]:
    return pung_runs(f, 4)


# 32
@fan(F.FOUR_PURE_SHIFTED_CHOWS)
def four_pure_shifted_chows(f: Facts) -> list[Occurrence]:
    return chow_groups(f, 4, (1, 2))


@fan(F.THREE_KONGS)
def three_kongs(f: Facts) -> list[Occurrence]:
    return group(f.kongs, len(f.kongs) == 3)


@fan(F.ALL_TERMINALS_AND_HONORS)
def all_terminals_and_honors(f: Facts) -> list[Occurrence]:
    return whole(f, f.standard and len(f.pungs) == 4 and f.all_tiles(is_terminal_or_honor))


# 24
@fan(F.SEVEN_PAIRS)
def seven_pairs(f: Facts) -> list[Occurrence]:
    return whole(f, f.seven_pairs)


@fan(F.FULL_FLUSH)
def full_flush(f: Facts) -> list[Occurrence]:
    return whole(f, f.all_tiles(lambda t: t < 9))


@fan(F.PURE_TRIPLE_CHOW)
def pure_triple_chow(f: Facts) -> list[Occurrence]:
    return chow_groups(f, 3, (0,))


@fan(F.PURE_SHIFTED_PUNGS)
def pure_shifted_pungs(f: Facts) -> list[Occurrence]:
    return pung_runs(f, 3)


# 16
@fan(F.PURE_STRAIGHT)
def pure_straight(f: Facts) -> list[Occurrence]:
    pick = [next((i for i in f.chows if f.first(i) == s), -1) for s in (0, 3, 6)]  # 123 456 789
    return [tuple(pick)] if -1 not in pick else NONE


@fan(F.PURE_SHIFTED_CHOWS)
def pure_shifted_chows(f: Facts) -> list[Occurrence]:
    return chow_groups(f, 3, (1, 2))


@fan(F.HEAVENLY_READY)
def heavenly_ready(f: Facts) -> list[Occurrence]:
    return situation(f.ctx.heavenly_ready)


@fan(F.THREE_CONCEALED_PUNGS)
def three_concealed_pungs(f: Facts) -> list[Occurrence]:
    return group(f.concealed_pungs, len(f.concealed_pungs) == 3)


# 12
@fan(F.UPPER_FOUR)
def upper_four(f: Facts) -> list[Occurrence]:
    return whole(f, f.all_tiles(lambda t: t < P1 and rank_of(t) >= 6))


@fan(F.LOWER_FOUR)
def lower_four(f: Facts) -> list[Occurrence]:
    return whole(f, f.all_tiles(lambda t: t < P1 and rank_of(t) <= 4))


@fan(F.BIG_THREE_WINDS)
def big_three_winds(f: Facts) -> list[Occurrence]:
    return group(f.wind_pungs(), len(f.wind_pungs()) >= 3)


# 8
@fan(F.LAST_TILE_DRAW)
def last_tile_draw(f: Facts) -> list[Occurrence]:
    return situation(f.ctx.last_wall_tile and f.ctx.self_drawn)


@fan(F.LAST_TILE_CLAIM)
def last_tile_claim(f: Facts) -> list[Occurrence]:
    return situation(f.ctx.last_wall_tile and not f.ctx.self_drawn)


@fan(F.OUT_WITH_REPLACEMENT_TILE)
def out_with_replacement_tile(f: Facts) -> list[Occurrence]:
    return situation(f.ctx.replacement_tile)


@fan(F.ROBBING_THE_KONG)
def robbing_the_kong(f: Facts) -> list[Occurrence]:
    return situation(f.ctx.robbing_kong)


# 6
@fan(F.ALL_PUNGS)
def all_pungs(f: Facts) -> list[Occurrence]:
    return group(f.pungs, f.standard and len(f.pungs) == 4)


@fan(F.TWO_CONCEALED_KONGS)
def two_concealed_kongs(f: Facts) -> list[Occurrence]:
    return group(f.concealed_kongs, len(f.concealed_kongs) >= 2)


@fan(F.HALF_FLUSH)
def half_flush(f: Facts) -> list[Occurrence]:
    return whole(f, any(t < 9 for t in f.kinds) and any(is_honor(t) for t in f.kinds))


@fan(F.MELDED_HAND)
def melded_hand(f: Facts) -> list[Occurrence]:
    return whole(f, len(f.claimed_melds) == 4 and not f.ctx.self_drawn)


@fan(F.TWO_DRAGONS_PUNGS)
def two_dragons_pungs(f: Facts) -> list[Occurrence]:
    return group(f.dragon_pungs(), len(f.dragon_pungs()) == 2)


# 4
@fan(F.OUTSIDE_HAND)
def outside_hand(f: Facts) -> list[Occurrence]:
    return whole(f, f.standard and all(any(is_terminal_or_honor(t) for t in s.tiles) for s in f.sets))


@fan(F.FULLY_CONCEALED_HAND)
def fully_concealed_hand(f: Facts) -> list[Occurrence]:
    return situation(not f.claimed_melds and f.ctx.self_drawn)


@fan(F.TWO_MELDED_KONGS)
def two_melded_kongs(f: Facts) -> list[Occurrence]:
    return group(f.melded_kongs, len(f.melded_kongs) >= 2)


@fan(F.LAST_TILE)
def last_tile(f: Facts) -> list[Occurrence]:
    return situation(f.ctx.last_of_kind)


# 2
@fan(F.DRAGON_PUNG)
def dragon_pung(f: Facts) -> list[Occurrence]:
    return each(f.dragon_pungs())


@fan(F.SEAT_WIND)
def seat_wind(f: Facts) -> list[Occurrence]:
    return each([i for i in f.pungs if f.first(i) == f.seat_wind_tile])


@fan(F.CONCEALED_HAND)
def concealed_hand(f: Facts) -> list[Occurrence]:
    return situation(not f.claimed_melds and not f.ctx.self_drawn)


@fan(F.ALL_CHOWS)
def all_chows(f: Facts) -> list[Occurrence]:
    return whole(f, len(f.chows) == 4 and f.pair is not None and not is_honor(f.first(f.pair)))


@fan(F.TILE_HOG)
def tile_hog(f: Facts) -> list[Occurrence]:
    """四归一: all four copies of a kind in the hand, not as a kong; the sets holding it, showing the four."""
    out: list[Occurrence] = []
    for t in f.kinds:
        if f.counts[t] == 4 and not any(f.first(i) == t for i in f.kongs):
            out.append(Showing((i for i, s in enumerate(f.sets) if t in s.tiles), (t,) * 4))
    return out


@fan(F.TWO_CONCEALED_PUNGS)
def two_concealed_pungs(f: Facts) -> list[Occurrence]:
    return group(f.concealed_pungs, len(f.concealed_pungs) == 2)


@fan(F.CONCEALED_KONG)
def concealed_kong(f: Facts) -> list[Occurrence]:
    return group(f.concealed_kongs, len(f.concealed_kongs) >= 1)


@fan(F.ALL_SIMPLES)
def all_simples(f: Facts) -> list[Occurrence]:
    return whole(f, not any(is_terminal_or_honor(t) for t in f.kinds))


@fan(F.READY_DECLARATION)
def ready_declaration(f: Facts) -> list[Occurrence]:
    return situation(f.ctx.ready_declared)


# 1
@fan(F.PURE_DOUBLE_CHOW)
def pure_double_chow(f: Facts) -> list[Occurrence]:
    return chow_pairs(f, 0)


@fan(F.SHORT_STRAIGHT)
def short_straight(f: Facts) -> list[Occurrence]:
    return chow_pairs(f, 3)


@fan(F.TWO_TERMINAL_CHOWS)
def two_terminal_chows(f: Facts) -> list[Occurrence]:
    return chow_pairs(f, 6, (0,))


@fan(F.PUNG_OF_TERMINALS_OR_HONORS)
def pung_of_terminals_or_honors(f: Facts) -> list[Occurrence]:
    return each(f.terminal_or_honour_pungs())


@fan(F.MELDED_KONG)
def melded_kong(f: Facts) -> list[Occurrence]:
    return group(f.melded_kongs, len(f.melded_kongs) >= 1)


@fan(F.EDGE_WAIT)
def edge_wait(f: Facts) -> list[Occurrence]:
    return group((f.win_set,), wait_kind(f) == "edge")  # type: ignore[arg-type]


@fan(F.CLOSED_WAIT)
def closed_wait(f: Facts) -> list[Occurrence]:
    return group((f.win_set,), wait_kind(f) == "closed")  # type: ignore[arg-type]


@fan(F.SINGLE_WAIT)
def single_wait(f: Facts) -> list[Occurrence]:
    return group((f.win_set,), wait_kind(f) == "single")  # type: ignore[arg-type]


@fan(F.SELF_DRAWN)
def self_drawn(f: Facts) -> list[Occurrence]:
    return situation(f.ctx.self_drawn)


@fan(F.TWO_FIVE_EIGHT_PAIR)
def two_five_eight_pair(f: Facts) -> list[Occurrence]:
    return group((f.pair,), is_two_five_eight_pair(f))  # type: ignore[arg-type]

# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("mcr2p.predicates", NONE=NONE)
