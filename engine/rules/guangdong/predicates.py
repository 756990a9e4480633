"""One predicate per row of the 推倒胡 table (fans.py) that a hand earns or not, each with `@fan(Fan.X)`.

Every complete hand wins the same base (推倒胡), so what a predicate decides is which multipliers and
payment rules a win shows. A predicate registered `of_hand=True` is decided by the hand, its situation
and the options alone, and scoring asks it once per hand; the others (the big hands) once per reading of
the hand (decomposition). A 推倒胡 row shows no tiles, so an occurrence is always `()`: `ONCE` = there,
`NONE` = not. What a row is worth (its multiplier, often an option) is scoring's: scoring.py.

The rows scored by scoring.py itself (`in_scoring`): the base win every hand has (推倒胡), and the bonuses
counted from the context, not the hand's shape: horses (中马), horses on kongs (马跟杠), 节节高, 跟庄.
"""

from __future__ import annotations

from engine.hand import ClaimedFrom
from engine.registry import REGISTRY
from engine.rules.guangdong.facts import Facts
from engine.rules.guangdong.fans import TABLE, Fan
from engine.rules.model import Occurrence, Predicates
from engine.shapes import ShapeKind

PREDICATES = Predicates(TABLE, in_scoring=(Fan.WIN, Fan.HORSES, Fan.HORSE_KONGS, Fan.STREAK, Fan.FOLLOW_DEALER))
fan = PREDICATES.fan

NONE: list[Occurrence] = []  # not there (never mutated)
ONCE: list[Occurrence] = [()]  # there once, on no set (never mutated)


# ---------------------------------------------------------------------------------------------
# How the hand was won: one of 抢杠胡, 自摸, 点炮; then 杠上开花 and 杠爆全包


@fan(Fan.ROBBING_KONG, of_hand=True)
def robbing_kong(f: Facts) -> list[Occurrence]:
    """Won on a robbed kong's tile: scored as a self-draw (抢杠全包 decides who pays: payments.py)."""
    return ONCE if f.ctx.robbing_kong else NONE


@fan(Fan.SELF_DRAWN, of_hand=True)
def self_drawn(f: Facts) -> list[Occurrence]:
    return ONCE if f.ctx.self_drawn and not f.ctx.robbing_kong else NONE


@fan(Fan.DISCARD_WIN, of_hand=True)
def discard_win(f: Facts) -> list[Occurrence]:
    """Neither self-drawn nor robbing a kong (allowed only with self_draw_only off: context.py)."""
    return ONCE if not f.ctx.self_drawn and not f.ctx.robbing_kong else NONE


@fan(Fan.KONG_BLOOM, of_hand=True)
def kong_bloom(f: Facts) -> list[Occurrence]:
    return ONCE if f.ctx.replacement_tile else NONE


@fan(Fan.KONG_BURST, of_hand=True)
def kong_burst(f: Facts) -> list[Occurrence]:
    """杠爆全包: a replacement-tile win after a kong whose fourth tile was discarded (context.kong_fed_by), at
    a table where the feeder pays all."""
    return ONCE if f.ctx.replacement_tile and f.opts.kong_burst_pays_all \
        and f.ctx.kong_fed_by != ClaimedFrom.NONE else NONE


# ---------------------------------------------------------------------------------------------
# The ghosts held


@fan(Fan.NO_GHOSTS, of_hand=True)
def no_ghosts(f: Facts) -> list[Occurrence]:
    """无鬼加倍: ghosts are played and the hand holds none (a ghost in a declared meld is held)."""
    return ONCE if f.opts.ghosts and not f.ghosts_held and f.opts.no_ghost_double else NONE


@fan(Fan.FOUR_GHOSTS, of_hand=True)
def four_ghosts(f: Facts) -> list[Occurrence]:
    """四鬼胡牌: four ghosts concealed, at a table where they win (four_ghosts_win)."""
    return ONCE if f.four_ghosts else NONE


# ---------------------------------------------------------------------------------------------
# The big hands of one reading, shown where the room prices them (or, for 七对, doubles it)


@fan(Fan.SEVEN_PAIRS)
def seven_pairs(f: Facts) -> list[Occurrence]:
    """七对 x2 (seven_pairs_double), unless scored as 豪华七对."""
    return ONCE if f.seven_pairs and f.opts.seven_pairs_double and not luxury_seven_pairs(f) else NONE


@fan(Fan.LUXURY_SEVEN_PAIRS)
def luxury_seven_pairs(f: Facts) -> list[Occurrence]:
    """豪华七对: seven pairs counting a four of a kind, where the room prices it (in place of 七对)."""
    return ONCE if f.seven_pairs and f.opts.luxury_seven_pairs_multiplier and f.doubled_pair else NONE


@fan(Fan.ALL_PUNGS)
def all_pungs(f: Facts) -> list[Occurrence]:
    return ONCE if f.opts.all_pungs_multiplier > 1 and f.all_pungs else NONE


@fan(Fan.ONE_SUIT)
def one_suit(f: Facts) -> list[Occurrence]:
    return ONCE if f.opts.one_suit_multiplier > 1 and f.one_suit else NONE


@fan(Fan.THIRTEEN_ORPHANS)
def thirteen_orphans(f: Facts) -> list[Occurrence]:
    return ONCE if f.opts.thirteen_orphans_multiplier > 1 and f.dec.kind == ShapeKind.THIRTEEN_ORPHANS else NONE


# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("guangdong.predicates", NONE=NONE, ONCE=ONCE)
