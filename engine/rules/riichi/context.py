"""The Riichi context checks beyond engine.hand.validate_context (ruling 7 in __init__.py): what no game
produces is refused with a code naming the field. Compiled with mypyc (setup.py COMPILED): it runs on
every Evaluate.
"""

from __future__ import annotations

from typing import Any, Final

from engine.errors import BadContextError, BadMeldError, BadTileError, ContradictoryContextError, TooManyCopiesError
from engine.hand import FIVES, ClaimedFrom, Hand, MeldKind, WinContext, Wind
from engine.rules.riichi.options import Renhou, RiichiOptions
from engine.tiles import M1, NORTH, NUM_KINDS, format_tile, rank_of, suit_of, tile_name

MAX_INDICATORS: Final = 5
MAX_COUNTERS: Final = 100
MAX_KITA: Final = 4
# Three-player Riichi (sanma) plays 108 tiles: no 2m-8m.
SANMA_TILES: Final = frozenset(t for t in range(NUM_KINDS) if suit_of(t) != suit_of(M1) or rank_of(t) in (1, 9))


def _clash(field: str, why: str) -> None:
    raise ContradictoryContextError(f"{field}: {why}", field)


_EAST: Final = Wind.EAST
_NOBODY: Final = ClaimedFrom.NONE
_ACROSS: Final = ClaimedFrom.ACROSS


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


def _first_turn(hand: Hand, ctx: WinContext, name: str, dealer: bool, declared: bool, options: RiichiOptions
                ) -> None:
    """Tenhou (`dealer`), chiihou or renhou set: the dealer's (a non-dealer's), nothing declared (no kita
    either), self-drawn (renhou: on a discard, with the option renhou on, not on a robbed kong)."""
    if (ctx.seat_wind == _EAST) != dealer:
        _clash(name, "tenhou is the dealer's (East) win on the deal" if dealer
               else "chiihou (renhou) is a non-dealer's win on the first draw (discard); East is the dealer")
    if hand.melds:
        _clash(name, "a first-turn win has declared nothing, not even a concealed kong")
    if ctx.kita:
        _clash(name, "setting a North aside (kita) is a call: no first-turn win after it")
    if declared:
        _clash(name, "a first-turn win comes before any riichi")
    if not ctx.self_drawn:
        if dealer:
            _clash(name, "a first-turn win is self-drawn")
        if options.renhou == Renhou.OFF:
            raise BadContextError("earthly: a non-dealer's win on a discard before its first draw (renhou) is not "
                                  "a yaku with the option renhou off; set renhou (mangan or yakuman), or leave "
                                  "earthly unset", name)
        if ctx.robbing_kong or ctx.last_wall_tile:
            _clash(name, "renhou is a win on a discard in the first go-around, before any kong and long before "
                   "the wall's end")


def _sanma(hand: Hand, ctx: WinContext, options: RiichiOptions) -> None:
    """Three players: no 2m-8m, no chow, no claim from across, seats East South West."""
    where = [("concealed", t) for t in hand.concealed]
    for i, m in enumerate(hand.melds):
        where += [(f"melds[{i}].tiles", t) for t in m.tiles]
    if hand.winning_tile is not None:
        where.append(("winning_tile", hand.winning_tile))
    where += [("dora_indicators", t) for t in ctx.dora_indicators]
    where += [("ura_dora_indicators", t) for t in ctx.ura_dora_indicators]
    for name, t in where:
        if t not in SANMA_TILES:
            raise BadTileError(f"{name}: {format_tile(t)} ({tile_name(t)}) is not played in three-player Riichi "
                               "(options.riichi.players = 3: no 2m-8m)", name)
    for i, m in enumerate(hand.melds):
        if m.kind == MeldKind.CHOW:
            raise BadMeldError(f"melds[{i}]: three-player Riichi has no chow (options.riichi.players = 3)",
                               f"melds[{i}]")
        if m.claimed_from == _ACROSS:
            raise BadMeldError(f"melds[{i}].claimed_from: three players have no seat across; left is the player "
                               "before in turn, right the one after", f"melds[{i}].claimed_from")
    for name in ("seat_wind", "prevalent_wind"):
        if getattr(ctx, name) == Wind.NORTH:
            raise BadContextError(f"{name}: three-player Riichi has the seats and rounds East, South and West; "
                                  "North is no seat (its tiles are kita dora)", name)
    for name in ("discarded_by", "liable"):
        if getattr(ctx, name) == _ACROSS:
            raise BadContextError(f"{name}: three players have no seat across; left is the player before in "
                                  "turn, right the one after", name)


def check_context(hand: Hand, ctx: WinContext, options: RiichiOptions) -> None:
    """The Riichi context checks beyond engine.hand.validate_context (ruling 7)."""
    # Values whose type is checked are read untyped (getattr), so a wrong type is this error, not the
    # compiled code's TypeError. The fields are named one by one (a loop over their names costs more, once
    # compiled).
    _flag(getattr(ctx, "riichi"), "riichi")  # noqa: B009 - read untyped, see above
    _flag(getattr(ctx, "double_riichi"), "double_riichi")  # noqa: B009 - read untyped, see above
    _flag(getattr(ctx, "ippatsu"), "ippatsu")  # noqa: B009 - read untyped, see above
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
    kita: Any = getattr(ctx, "kita")  # noqa: B009 - read untyped, see above
    if kita:
        if options.players != 3:
            raise BadContextError("kita: North tiles are set aside as dora in three-player Riichi only "
                                  "(options.riichi.players = 3)", "kita")
        if type(kita) is not int or not 0 <= kita <= MAX_KITA:
            raise BadContextError(f"kita: {kita!r} is out of range 0..{MAX_KITA}", "kita")
        counts[NORTH] = counts[NORTH] + kita
        if counts[NORTH] > 4:
            raise TooManyCopiesError(f"kita: {kita} North set aside and {counts[NORTH] - kita} in the hand make "
                                     f"{counts[NORTH]}; there are 4", "kita")
    if options.players == 3:
        _sanma(hand, ctx, options)
    held = counts[:]
    ura: Any = getattr(ctx, "ura_dora_indicators")  # noqa: B009 - read untyped, see above
    _indicators(getattr(ctx, "dora_indicators"), "dora_indicators", counts)  # noqa: B009 - read untyped, see above
    _indicators(ura, "ura_dora_indicators", counts)
    reds = hand.red_fives
    for suit, five in enumerate(FIVES):
        allowed = options.reds_allowed(suit)
        listed = 0
        for t in reds:
            if t == five:
                listed += 1
        if listed > allowed and options.red_fives:
            raise TooManyCopiesError(f"red_fives: {listed} red {format_tile(five)}, and the set has {allowed} "
                                     "(options.riichi.red_fives_per_suit)", "red_fives")
        if allowed and held[five] - listed > 4 - allowed:
            raise ContradictoryContextError(
                f"red_fives: the hand holds {held[five]} {format_tile(five)} and the set has only "
                f"{4 - allowed} that are not red, so at least {held[five] - 4 + allowed} are red: list them in "
                "red_fives", "red_fives")
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
        _first_turn(hand, ctx, "heavenly", True, declared, options)
    if getattr(ctx, "earthly"):  # noqa: B009 - read untyped, see above
        _first_turn(hand, ctx, "earthly", False, declared, options)
    discarded_by = ctx.discarded_by
    if self_drawn and discarded_by != _NOBODY:
        _clash("discarded_by", "a self-drawn win has no discarder")
    if not self_drawn and discarded_by == _NOBODY:
        raise BadContextError("discarded_by: a win on a discard (or a robbed kong) needs the seat that "
                              "discarded: left, across or right", "discarded_by")
    liable = ctx.liable
    if type(liable) is not ClaimedFrom:
        raise BadContextError(f"liable: {liable!r} is not a seat (left, across, right)", "liable")
