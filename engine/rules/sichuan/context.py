"""Sichuan's own context checks (RULE_SET.check_context), beyond engine.hand.validate_context: the hand
declares no chow (BAD_MELD), and the situation is one a 血战到底 round can produce (the package docstring's
"Context" paragraph: CONTRADICTORY_CONTEXT or BAD_CONTEXT naming the field)."""

from __future__ import annotations

from engine.errors import BadContextError, BadMeldError, BadOptionError, ContradictoryContextError
from engine.hand import ClaimedFrom, Hand, MeldKind, PriorKong, Suit, WinContext, Wind
from engine.registry import REGISTRY
from engine.rules.sichuan import payments
from engine.rules.sichuan.options import SichuanOptions

DEALER = Wind.EAST
_SUIT_NAMES = {Suit.CHARACTERS: "characters", Suit.DOTS: "dots", Suit.BAMBOO: "bamboo"}


def check_hand(hand: Hand) -> None:
    """No chow can be declared (BAD_MELD); the tiles are checked by the rule set's `tiles`."""
    for i, m in enumerate(hand.melds):
        if m.kind == MeldKind.CHOW:
            raise BadMeldError(f"melds[{i}]: sichuan declares pungs and kongs only, not a chow", f"melds[{i}].kind")


def _clash(a: str, b: str, why: str) -> None:
    raise ContradictoryContextError(f"{a} and {b}: {why}", a)


def _check_other_winners(ctx: WinContext) -> None:
    """一炮多响: the other winners on the same discard are seats still in, neither the winner nor the discarder."""
    others = ctx.other_winners
    if not others:
        return
    if any(type(w) is not Wind for w in others):
        raise BadContextError(f"other_winners: {others!r} is not a list of winds", "other_winners")
    if len(set(others)) != len(others):
        raise BadContextError("other_winners: a seat is listed twice", "other_winners")
    if ctx.self_drawn:
        _clash("other_winners", "self_drawn", "several players win together only on a discard or a robbed kong")
    if ctx.seat_wind in others:
        _clash("other_winners", "seat_wind", "the winner is not one of the other winners")
    if payments.seat_from(ctx.seat_wind, ctx.discarded_by) in others:
        _clash("other_winners", "discarded_by", "the discarder does not win on its own discard")
    if set(others) & set(ctx.seats_out):
        _clash("other_winners", "seats_out", "a player who has already won does not win again on this discard")


def _check_kong_fed_by(ctx: WinContext) -> None:
    """点杠花: kong_fed_by names who discarded the fourth tile of the kong whose replacement tile won."""
    if ctx.kong_fed_by == ClaimedFrom.NONE:
        return
    if not (ctx.self_drawn and ctx.replacement_tile):
        _clash("kong_fed_by", "replacement_tile", "a kong's feeder matters only for a self-draw on its "
               "replacement tile (点杠花)")
    if payments.seat_from(ctx.seat_wind, ctx.kong_fed_by) in ctx.seats_out:
        _clash("kong_fed_by", "seats_out", "a player who has already won discards no more")


def check_context(hand: Hand, ctx: WinContext, opts: SichuanOptions) -> None:
    """RULE_SET.check_context: no chow declared, the options' void suit agrees with the context's, then the
    situation (seats, discarder, kongs, first-turn wins)."""
    check_hand(hand)
    if opts.void_suit is not None and ctx.void_suit is not None and opts.void_suit != ctx.void_suit:
        raise BadOptionError(f"options.sichuan.void_suit: {_SUIT_NAMES[opts.void_suit]} differs from "
                             f"context.void_suit ({_SUIT_NAMES[ctx.void_suit]})", "options.sichuan.void_suit")
    winner = ctx.seat_wind
    out = ctx.seats_out
    if len(set(out)) != len(out):
        raise BadContextError("seats_out: a seat is listed twice", "seats_out")
    if winner in out:
        _clash("seats_out", "seat_wind", "the winner cannot be a seat that has already won")
    if len(out) > 2:
        raise ContradictoryContextError("seats_out: once three players have won the round is over", "seats_out")
    if ctx.self_drawn and ctx.discarded_by != ClaimedFrom.NONE:
        _clash("discarded_by", "self_drawn", "a self-drawn tile was discarded by no one")
    if not ctx.self_drawn:
        if ctx.discarded_by == ClaimedFrom.NONE:
            raise BadContextError("discarded_by: a win on a discard (or a robbed kong) needs who discarded it",
                                  "discarded_by")
        if payments.seat_from(winner, ctx.discarded_by) in out:
            _clash("discarded_by", "seats_out", "a player who has already won discards no more")
    if ctx.after_kong_discard:
        if ctx.self_drawn:
            _clash("after_kong_discard", "self_drawn", "杠上炮 is a win on a discard")
        if ctx.robbing_kong:
            _clash("after_kong_discard", "robbing_kong", "the tile was either discarded or added to a kong")
    if ctx.prior_kong != PriorKong.NONE:
        if not (ctx.after_kong_discard or ctx.robbing_kong):
            _clash("prior_kong", "after_kong_discard",
                   "a kong's money moves only on 杠上炮 (after_kong_discard) or a robbed kong (robbing_kong)")
        if ctx.robbing_kong and ctx.prior_kong not in (PriorKong.ADDED, PriorKong.ADDED_LATER):
            _clash("prior_kong", "robbing_kong", "only an added kong can be robbed")
    if (ctx.prior_kong == PriorKong.EXPOSED) != (ctx.prior_kong_claimed_from != ClaimedFrom.NONE):
        raise ContradictoryContextError(
            "prior_kong_claimed_from: says who discarded an exposed kong's fourth tile, and only that",
            "prior_kong_claimed_from")
    if ctx.prior_kong == PriorKong.EXPOSED and not ctx.self_drawn:
        declarer = payments.seat_from(winner, ctx.discarded_by)
        if payments.seat_from(declarer, ctx.prior_kong_claimed_from) in out:
            _clash("prior_kong_claimed_from", "seats_out", "a player who has already won discards no more")
    _check_other_winners(ctx)
    _check_kong_fed_by(ctx)
    first_turn = "heavenly" if ctx.heavenly else ("earthly" if ctx.earthly else "")
    if first_turn:
        if hand.melds:
            raise ContradictoryContextError(f"{first_turn}: a first-turn win has no declared set", first_turn)
        if ctx.heavenly and winner != DEALER:
            _clash("heavenly", "seat_wind", "天胡 is the dealer's, who sits East")
        if ctx.earthly and winner == DEALER:
            _clash("earthly", "seat_wind", "地胡 is a non-dealer's, and East is the dealer")
        if ctx.earthly and not ctx.self_drawn:
            _clash("earthly", "self_drawn", "地胡 is won on a non-dealer's first draw")
        if ctx.last_wall_tile or ctx.replacement_tile or ctx.after_kong_discard or ctx.robbing_kong:
            raise ContradictoryContextError(f"{first_turn}: a first-turn win is not on the last tile or "
                                            "after a kong", first_turn)


# Built at import and never written after: the registry lists them (engine.registry).
REGISTRY.frozen("sichuan.context", _SUIT_NAMES=_SUIT_NAMES)
