"""mcr2p's own context checks (RULE_SET.check_context), beyond engine.hand.validate_context: rulings 10 and 11
of the package docstring."""

from __future__ import annotations

from engine.errors import BadContextError, ContradictoryContextError
from engine.hand import Hand, WinContext, Wind
from engine.rules.mcr2p.options import DEALER_SEAT, TwoPlayerOptions


def check_context(hand: Hand, ctx: WinContext, options: TwoPlayerOptions) -> None:
    """RULE_SET.check_context: the seat the option names (BAD_CONTEXT naming seat_wind), then the situations
    the table makes impossible."""
    seat = options.non_dealer_seat
    if seat != "any" and ctx.seat_wind not in (DEALER_SEAT, Wind[seat.upper()]):
        raise BadContextError(f"seat_wind: a two-player table seats the dealer at East and the other player at "
                              f"{seat.title()} (option non_dealer_seat), not {ctx.seat_wind.name.title()}",
                              "seat_wind")
    impossible_situations(hand, ctx)


def impossible_situations(hand: Hand, ctx: WinContext) -> None:
    """Situations the two-player table makes impossible (beyond engine.hand.validate_context)."""
    if ctx.heavenly_ready and any(not m.concealed for m in hand.melds):
        raise ContradictoryContextError(
            "heavenly_ready: 天听 is declared on the deal, before any tile can be claimed, so a hand with a "
            "claimed meld cannot hold it", "heavenly_ready")
    first_turn = "heavenly" if ctx.heavenly else ("earthly" if ctx.earthly else "")
    if first_turn and hand.melds:
        raise ContradictoryContextError(
            f"{first_turn}: a first-turn win has no declared set (a kong after the deal voids it)", first_turn)
    if ctx.earthly and not ctx.self_drawn:
        raise ContradictoryContextError("earthly and self_drawn: 地胡 is won on the non-dealer's first draw",
                                        "earthly")
    if ctx.heavenly and ctx.seat_wind != Wind.EAST:
        raise ContradictoryContextError("heavenly and seat_wind: 天胡 is the dealer's, who sits East", "heavenly")
    if ctx.earthly and ctx.seat_wind == Wind.EAST:
        raise ContradictoryContextError("earthly and seat_wind: 地胡 is a non-dealer's, and East is the dealer",
                                        "earthly")
    if ctx.heavenly and ctx.ready_declared:
        raise ContradictoryContextError("heavenly and ready_declared: the dealer wins on the deal, before any "
                                        "ready declaration", "ready_declared")
    if first_turn and ctx.last_wall_tile:
        raise ContradictoryContextError(f"{first_turn} and last_wall_tile: a first-turn win is not on the last tile",
                                        "last_wall_tile")
