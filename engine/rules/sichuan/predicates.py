"""One predicate per row of the Sichuan tables (fans.py), each registered with `@fan(Fan.X)`.

A predicate returns the fan's occurrences in one decomposition (engine.rules.model.Occurrence; [] = not
there, n items = counted n times): Kong one per declared kong (its set), Root / 根 one per four of a kind,
every other fan once on no set in particular (the whole hand, or the situation shown on the winning tile).
Everything they read is in facts.py. Which rows a variant asks is fans.py's data (`MIL_ROWS`,
`CHENGDU_ROWS`); scoring.py derives its dispatch from `PREDICATES`. Every row has a predicate
(`in_scoring` is empty). Exclusions (the Chengdu sheet's 只计最大番型 among them) are never written here;
they are fans.py's data.
"""

from __future__ import annotations

from typing import Final

from engine.registry import REGISTRY
from engine.rules.model import Occurrence, Predicates
from engine.rules.sichuan.facts import Facts, bloom_as_discard
from engine.rules.sichuan.fans import TABLE, Fan
from engine.rules.sichuan.options import SelfDraw
from engine.shapes import SetKind

PREDICATES: Final = Predicates(TABLE, in_scoring=())
fan: Final = PREDICATES.fan

# "Not there" and "once on no set": shared, never mutated.
NONE: Final[list[Occurrence]] = []
WHOLE: Final[list[Occurrence]] = [()]


def once(cond: bool) -> list[Occurrence]:
    """Once on no set in particular, or not there."""
    return WHOLE if cond else NONE


def times(n: int) -> list[Occurrence]:
    """n times on no set in particular."""
    return [()] * n if n > 0 else NONE


def arhats(f: Facts) -> bool:
    """十八罗汉: four kongs and a single wait."""
    return f.single_after_four_melds and f.h.kongs == 4


def golden_hook(f: Facts) -> bool:
    """金钩钓: four declared melds, won on the pair to the last standing tile."""
    return f.single_after_four_melds


def dragon_seven_pairs(f: Facts) -> bool:
    """龙七对: seven pairs holding a four of a kind."""
    return f.seven_pairs and f.h.fours >= 1


# ---------------------------------------------------------------------------------------------
# Shared by both tables (situations)


@fan(Fan.WIN_AFTER_KONG)
def win_after_kong(f: Facts) -> list[Occurrence]:
    return once(f.ctx.replacement_tile)


@fan(Fan.SHOOT_AFTER_KONG)
def shoot_after_kong(f: Facts) -> list[Occurrence]:
    return once(f.ctx.after_kong_discard)


@fan(Fan.ROBBING_THE_KONG)
def robbing_the_kong(f: Facts) -> list[Occurrence]:
    return once(f.ctx.robbing_kong)


@fan(Fan.SELF_DRAWN)
def self_drawn(f: Facts) -> list[Occurrence]:
    """自摸加番; not on 点杠花当炮, which counts as a win on the feeder's discard."""
    return once(f.ctx.self_drawn and f.opts.self_draw == SelfDraw.ADD_FAN and not bloom_as_discard(f.ctx, f.opts))


# ---------------------------------------------------------------------------------------------
# MIL: every row adds


@fan(Fan.KONG)
def kong(f: Facts) -> list[Occurrence]:
    return [(i,) for i, s in enumerate(f.sets) if s.meld_index is not None and s.kind == SetKind.KONG]


@fan(Fan.ROOT)
def root(f: Facts) -> list[Occurrence]:
    return times(f.h.undeclared_fours)


@fan(Fan.ALL_PUNGS)
def all_pungs(f: Facts) -> list[Occurrence]:
    return once(f.all_pungs)


@fan(Fan.GOLDEN_WAIT)
def golden_wait(f: Facts) -> list[Occurrence]:
    return once(f.all_pungs and f.won_on_pair)


@fan(Fan.FULL_FLUSH)
def full_flush(f: Facts) -> list[Occurrence]:
    return once(f.full_flush)


@fan(Fan.SEVEN_PAIRS)
def seven_pairs(f: Facts) -> list[Occurrence]:
    return once(f.seven_pairs)


@fan(Fan.UNDER_THE_SEA)
def under_the_sea(f: Facts) -> list[Occurrence]:
    return once(f.ctx.last_wall_tile)


# ---------------------------------------------------------------------------------------------
# Chengdu: the hand patterns (基本番, smallest first; only the largest counts: fans.py's exclusions),
# then 根 and the room options 门清中张


@fan(Fan.BASIC_WIN)
def basic_win(f: Facts) -> list[Occurrence]:
    return WHOLE


@fan(Fan.CD_ALL_PUNGS)
def cd_all_pungs(f: Facts) -> list[Occurrence]:
    return once(f.all_pungs)


@fan(Fan.CD_FULL_FLUSH)
def cd_full_flush(f: Facts) -> list[Occurrence]:
    return once(f.full_flush)


@fan(Fan.TERMINALS)
def terminals(f: Facts) -> list[Occurrence]:
    return once(f.terminal_in_every_set)


@fan(Fan.CD_SEVEN_PAIRS)
def cd_seven_pairs(f: Facts) -> list[Occurrence]:
    return once(f.seven_pairs)


@fan(Fan.GOLDEN_HOOK)
def golden_hook_fan(f: Facts) -> list[Occurrence]:
    return once(golden_hook(f))


@fan(Fan.PURE_PUNGS)
def pure_pungs(f: Facts) -> list[Occurrence]:
    return once(f.all_pungs and f.full_flush)


@fan(Fan.TWO_FIVE_EIGHT_PUNGS)
def two_five_eight_pungs(f: Facts) -> list[Occurrence]:
    return once(f.all_pungs and f.all_two_five_eight)


@fan(Fan.DRAGON_SEVEN_PAIRS)
def dragon_seven_pairs_fan(f: Facts) -> list[Occurrence]:
    return once(dragon_seven_pairs(f))


@fan(Fan.PURE_SEVEN_PAIRS)
def pure_seven_pairs(f: Facts) -> list[Occurrence]:
    return once(f.seven_pairs and f.full_flush)


@fan(Fan.PURE_TERMINALS)
def pure_terminals(f: Facts) -> list[Occurrence]:
    return once(f.terminal_in_every_set and f.full_flush)


@fan(Fan.TWO_FIVE_EIGHT_GOLDEN_HOOK)
def two_five_eight_golden_hook(f: Facts) -> list[Occurrence]:
    return once(golden_hook(f) and f.all_two_five_eight)


@fan(Fan.PURE_GOLDEN_HOOK)
def pure_golden_hook(f: Facts) -> list[Occurrence]:
    return once(golden_hook(f) and f.full_flush)


@fan(Fan.PURE_DRAGON_SEVEN_PAIRS)
def pure_dragon_seven_pairs(f: Facts) -> list[Occurrence]:
    return once(dragon_seven_pairs(f) and f.full_flush)


@fan(Fan.HEAVENLY)
def heavenly(f: Facts) -> list[Occurrence]:
    return once(f.ctx.heavenly and f.opts.heavenly_earthly)


@fan(Fan.EARTHLY)
def earthly(f: Facts) -> list[Occurrence]:
    return once(f.ctx.earthly and f.opts.heavenly_earthly)


@fan(Fan.EIGHTEEN_ARHATS)
def eighteen_arhats(f: Facts) -> list[Occurrence]:
    return once(arhats(f))


@fan(Fan.PURE_EIGHTEEN_ARHATS)
def pure_eighteen_arhats(f: Facts) -> list[Occurrence]:
    return once(arhats(f) and f.full_flush)


@fan(Fan.CD_ROOT)
def cd_root(f: Facts) -> list[Occurrence]:
    """根: every four of a kind, kong or not, less those the pattern already prices (龙七对 one, 十八罗汉 four)."""
    absorbed = 4 if arhats(f) else (1 if dragon_seven_pairs(f) else 0)
    return times(f.h.fours - absorbed)


@fan(Fan.CONCEALED_HAND)
def concealed_hand(f: Facts) -> list[Occurrence]:
    return once(f.opts.concealed_simples and not f.h.has_pung_or_kong_meld and f.ctx.self_drawn)


@fan(Fan.ALL_SIMPLES)
def all_simples(f: Facts) -> list[Occurrence]:
    return once(f.opts.concealed_simples and f.no_terminals)


# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("sichuan.predicates", NONE=NONE, WHOLE=WHOLE)
