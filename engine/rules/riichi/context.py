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


_FLAGS: Final = ("riichi", "double_riichi", "ippatsu")
_COUNTERS: Final = ("honba", "riichi_sticks")
_INDICATORS: Final = ("dora_indicators", "ura_dora_indicators")
_FIRST_TURN: Final = (("heavenly", True), ("earthly", False))  # (field, the dealer's)
_EAST: Final = Wind.EAST
_NOBODY: Final = ClaimedFrom.NONE


def check_context(hand: Hand, ctx: WinContext, options: RiichiOptions) -> None:
    """The Riichi context checks beyond engine.hand.validate_context (ruling 7)."""
    # Values whose type is checked are read untyped (getattr), so a wrong type is this error, not the
    # compiled code's TypeError.
    for name in _FLAGS:
        value: object = getattr(ctx, name)
        if type(value) is not bool:
            raise BadContextError(f"{name}: expected true or false, got {value!r}", name)
    flower_tiles: object = ctx.flower_tiles  # read as an object: no type check here
    if ctx.flowers or flower_tiles:
        name = "flowers" if ctx.flowers else "flower_tiles"
        raise BadContextError(f"{name}: Riichi is played without flowers", name)
    for name in _COUNTERS:
        count: Any = getattr(ctx, name)
        if type(count) is not int or not 0 <= count <= MAX_COUNTERS:
            raise BadContextError(f"{name}: {count!r} is out of range 0..{MAX_COUNTERS}", name)
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
    ura: Any = ctx.ura_dora_indicators
    for name in _INDICATORS:
        tiles: Any = ura if name == "ura_dora_indicators" else ctx.dora_indicators
        if len(tiles) > MAX_INDICATORS:
            raise BadContextError(f"{name}: at most {MAX_INDICATORS} indicators (one and one per kong), "
                                  f"got {len(tiles)}", name)
        for t in tiles:
            counts[t] += 1
            if counts[t] > 4:
                raise TooManyCopiesError(f"{name}: {format_tile(t)} would be a fifth copy with the hand's tiles "
                                         "and the other indicators", name)
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
    for name, dealer in _FIRST_TURN:
        if getattr(ctx, name):
            if (ctx.seat_wind == _EAST) != dealer:
                _clash(name, "tenhou is the dealer's (East) win on the deal" if dealer
                       else "chiihou is a non-dealer's win on the first draw; East is the dealer")
            if melds:
                _clash(name, "a first-turn win has declared nothing, not even a concealed kong")
            if declared:
                _clash(name, "a first-turn win comes before any riichi")
            if not self_drawn:
                _clash(name, "a first-turn win is self-drawn")
    if replacement and ctx.last_wall_tile:
        _clash("replacement_tile", "no kong can be declared on the last wall tile, so no replacement tile follows")
    discarded_by = ctx.discarded_by
    if self_drawn and discarded_by != _NOBODY:
        _clash("discarded_by", "a self-drawn win has no discarder")
    if not self_drawn and discarded_by == _NOBODY:
        raise BadContextError("discarded_by: a win on a discard (or a robbed kong) needs the seat that "
                              "discarded: left, across or right", "discarded_by")
