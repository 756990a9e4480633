"""The Riichi context checks beyond engine.hand.validate_context (ruling 7 in __init__.py): what no game
produces is refused with a code naming the field. Compiled with mypyc (setup.py COMPILED): it runs on
every Evaluate.
"""

from __future__ import annotations

from typing import Any, Final

from engine.errors import BadContextError, ContradictoryContextError, TooManyCopiesError
from engine.hand import FIVES, ClaimedFrom, Hand, WinContext, Wind
from engine.rules.riichi.options import RiichiOptions
from engine.tiles import format_tile

MAX_INDICATORS: Final = 5
MAX_COUNTERS: Final = 100


def _clash(field: str, why: str) -> None:
    raise ContradictoryContextError(f"{field}: {why}", field)


_EAST: Final = Wind.EAST
_NOBODY: Final = ClaimedFrom.NONE


def _flag(value: object, name: str) -> None:
    if type(value) is not bool:
        raise BadContextError(f"{name}: expected true or false, got {value!r}", name)


def _counter(count: Any, name: str) -> None:
    if type(count) is not int or not 0 <= count <= MAX_COUNTERS:
        raise BadContextError(f"{name}: {count!r} is out of range 0..{MAX_COUNTERS}", name)


def _indicators(tiles: Any, name: str, counts: list[int]) -> None:
    """At most MAX_INDICATORS, none a fifth copy with what `counts` holds (the indicators are added to it)."""
    if len(tiles) > MAX_INDICATORS:
        raise BadContextError(f"{name}: at most {MAX_INDICATORS} indicators (one and one per kong), "
                              f"got {len(tiles)}", name)
    for t in tiles:
        counts[t] += 1
        if counts[t] > 4:
            raise TooManyCopiesError(f"{name}: {format_tile(t)} would be a fifth copy with the hand's tiles "
                                     "and the other indicators", name)


def _first_turn(hand: Hand, ctx: WinContext, name: str, dealer: bool, declared: bool) -> None:
    """Tenhou (`dealer`) or chiihou set: the dealer's (a non-dealer's), nothing declared, self-drawn."""
    if (ctx.seat_wind == _EAST) != dealer:
        _clash(name, "tenhou is the dealer's (East) win on the deal" if dealer
               else "chiihou is a non-dealer's win on the first draw; East is the dealer")
    if hand.melds:
        _clash(name, "a first-turn win has declared nothing, not even a concealed kong")
    if declared:
        _clash(name, "a first-turn win comes before any riichi")
    if not ctx.self_drawn:
        _clash(name, "a first-turn win is self-drawn")


def check_context(hand: Hand, ctx: WinContext, options: RiichiOptions) -> None:
    """The Riichi context checks beyond engine.hand.validate_context (ruling 7)."""
    # Values whose type is checked are read untyped (getattr), so a wrong type is this error, not the
    # compiled code's TypeError. The fields are named one by one (a loop over their names costs more, once
    # compiled).
    _flag(getattr(ctx, "riichi"), "riichi")  # noqa: B009 - read untyped, see above
    _flag(getattr(ctx, "double_riichi"), "double_riichi")  # noqa: B009 - read untyped, see above
    _flag(getattr(ctx, "ippatsu"), "ippatsu")  # noqa: B009 - read untyped, see above
    flower_tiles: object = ctx.flower_tiles  # read as an object: no type check here
    if ctx.flowers or flower_tiles:
        name = "flowers" if ctx.flowers else "flower_tiles"
        raise BadContextError(f"{name}: Riichi is played without flowers", name)
    _counter(getattr(ctx, "honba"), "honba")  # noqa: B009 - read untyped, see above
    _counter(getattr(ctx, "riichi_sticks"), "riichi_sticks")  # noqa: B009 - read untyped, see above
    counts = [0] * 34
    for t in hand.concealed:
        counts[t] = counts[t] + 1  # not +=: compiled, that is a generic in-place add
    win = hand.winning_tile
    if win is not None:
        counts[win] = counts[win] + 1
    melds = hand.melds
    claimed = False
    for m in melds:
        for t in m.tiles:
            counts[t] = counts[t] + 1
        if not m.concealed:
            claimed = True
    held = counts[:]
    ura: Any = getattr(ctx, "ura_dora_indicators")  # noqa: B009 - read untyped, see above
    _indicators(getattr(ctx, "dora_indicators"), "dora_indicators", counts)  # noqa: B009 - read untyped, see above
    _indicators(ura, "ura_dora_indicators", counts)
    if options.red_fives:
        for five in FIVES:
            if held[five] == 4 and five not in hand.red_fives:
                raise ContradictoryContextError(
                    f"red_fives: the hand holds all four {format_tile(five)}, so one is the red five (option "
                    "red_fives on): list it in red_fives", "red_fives")
    riichi = ctx.riichi
    declared = riichi or ctx.double_riichi
    if declared and claimed:
        _clash("riichi" if riichi else "double_riichi", "riichi is declared with a closed hand, and this hand "
               "has claimed a meld")
    ippatsu = ctx.ippatsu
    replacement = ctx.replacement_tile
    if ippatsu and not declared:
        _clash("ippatsu", "ippatsu is a win right after a riichi declaration; riichi is not set")
    if ippatsu and replacement:
        _clash("ippatsu", "declaring a kong after riichi ends the ippatsu, so no ippatsu on a replacement tile")
    if ura and not declared:
        _clash("ura_dora_indicators", "ura dora are revealed for a riichi hand only")
    self_drawn = ctx.self_drawn
    if getattr(ctx, "heavenly"):  # noqa: B009 - read untyped, see above
        _first_turn(hand, ctx, "heavenly", True, declared)
    if getattr(ctx, "earthly"):  # noqa: B009 - read untyped, see above
        _first_turn(hand, ctx, "earthly", False, declared)
    if replacement and ctx.last_wall_tile:
        _clash("replacement_tile", "no kong can be declared on the last wall tile, so no replacement tile follows")
    discarded_by = ctx.discarded_by
    if self_drawn and discarded_by != _NOBODY:
        _clash("discarded_by", "a self-drawn win has no discarder")
    if not self_drawn and discarded_by == _NOBODY:
        raise BadContextError("discarded_by: a win on a discard (or a robbed kong) needs the seat that "
                              "discarded: left, across or right", "discarded_by")
