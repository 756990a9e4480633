"""Hong Kong's own context checks (RULE_SET.check_context), beyond engine.hand.validate_context: the flowers,
the discarder of a self-draw, 天胡 / 地胡, 包 (`liable`), 杠上杠 (`kong_on_kong`) and the flower hands
(`flower_win`), as the package docstring's Context paragraph lists them."""

from __future__ import annotations

from engine.errors import BadContextError, ContradictoryContextError
from engine.hand import ClaimedFrom, Hand, WinContext, Wind
from engine.rules.hk.options import HkOptions
from engine.tiles import DRAGONS, NUM_FLOWERS, WINDS


def liability_situation(hand: Hand) -> bool:
    """包 applies: three dragon sets (大三元), four wind sets (大四喜) or four exposed melds (十二张落地)."""
    counts = hand.counts()
    return (all(counts[t] >= 3 for t in DRAGONS) or all(counts[t] >= 3 for t in WINDS)
            or sum(1 for m in hand.melds if not m.concealed) == 4)


def check_context(hand: Hand, ctx: WinContext, options: HkOptions) -> None:
    """RULE_SET.check_context: situations Hong Kong rules make impossible, beyond engine.hand.validate_context."""
    if ctx.flower_tiles and not options.flowers:
        raise ContradictoryContextError("flower_tiles: the game is played without flowers (options.hk.flowers is "
                                        "false)", "flower_tiles")
    if ctx.flowers and ctx.flowers != len(ctx.flower_tiles):
        raise BadContextError(f"flowers: hk scores which flowers the winner holds (the seat's own, complete groups); "
                              f"give them in flower_tiles (flowers says {ctx.flowers}, flower_tiles holds "
                              f"{len(ctx.flower_tiles)})", "flower_tiles")
    if ctx.self_drawn and ctx.discarded_by != ClaimedFrom.NONE:
        raise ContradictoryContextError("discarded_by and self_drawn: a self-drawn tile was discarded by no one",
                                        "discarded_by")
    first_turn = "heavenly" if ctx.heavenly else ("earthly" if ctx.earthly else "")
    if first_turn and hand.melds:
        raise ContradictoryContextError(f"{first_turn}: a first-turn win has no declared set (a kong voids it)",
                                        first_turn)
    if ctx.heavenly and ctx.seat_wind != Wind.EAST:
        raise ContradictoryContextError("heavenly and seat_wind: 天胡 is the dealer's, who sits East", "heavenly")
    if ctx.earthly and ctx.seat_wind == Wind.EAST:
        raise ContradictoryContextError("earthly and seat_wind: 地胡 is a non-dealer's, and East is the dealer",
                                        "earthly")
    if first_turn and (ctx.last_wall_tile or ctx.replacement_tile or ctx.robbing_kong):
        raise ContradictoryContextError(f"{first_turn}: a first-turn win is not on the last tile, a replacement tile "
                                        "or a robbed kong", first_turn)
    if ctx.liable != ClaimedFrom.NONE:
        if type(ctx.liable) is not ClaimedFrom:
            raise BadContextError(f"liable: {ctx.liable!r} is not a seat relative to the winner (left, across, right)",
                                  "liable")
        if not options.liability:
            raise BadContextError("liable: 包 is not played at this table (options.hk.liability is false)", "liable")
        if not liability_situation(hand):
            raise ContradictoryContextError("liable: 包 needs three dragon sets (大三元), four wind sets (大四喜) or "
                                            "four exposed melds (十二张落地), and this hand has none", "liable")
    if type(ctx.kong_on_kong) is not bool:
        raise BadContextError(f"kong_on_kong: expected true or false, got {ctx.kong_on_kong!r}", "kong_on_kong")
    if ctx.kong_on_kong:
        if not options.kong_on_kong_faan:
            raise BadContextError("kong_on_kong: 杠上杠 is not priced at this table (options.hk.kong_on_kong_faan is "
                                  "0)", "kong_on_kong")
        if not ctx.replacement_tile or sum(1 for m in hand.melds if m.is_kong) < 2:
            raise ContradictoryContextError("kong_on_kong: 杠上杠 is a win on a replacement tile (replacement_tile) "
                                            "after two kongs, and the hand declares fewer", "kong_on_kong")
    if type(ctx.flower_win) is not bool:
        raise BadContextError(f"flower_win: expected true or false, got {ctx.flower_win!r}", "flower_win")
    if ctx.flower_win:
        if not options.flower_hand:
            raise BadContextError("flower_win: 花胡 is not played at this table (options.hk.flower_hand is false)",
                                  "flower_win")
        held = len(ctx.flower_tiles)
        if not ((held == NUM_FLOWERS and ctx.self_drawn) or (held == NUM_FLOWERS - 1 and not ctx.self_drawn)):
            raise ContradictoryContextError(f"flower_win: a flower hand is all eight flowers self-drawn (八仙过海) or "
                                            f"seven robbing the eighth, not self-drawn (七抢一); flower_tiles holds "
                                            f"{held}, self_drawn is {str(ctx.self_drawn).lower()}", "flower_win")
        if ctx.robbing_kong or ctx.replacement_tile or ctx.kong_on_kong:
            raise ContradictoryContextError("flower_win: a flower hand is won on a flower, not on a robbed kong or a "
                                            "kong's replacement tile", "flower_win")
