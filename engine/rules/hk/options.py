"""Hong Kong options, the faan-to-points tables and who pays what.

Points (`Scoring.points`) are the base units a hand is worth: the points table applied to its faan
(the limit already applied). Payments turn them into every seat's signed change:

* DISCARDER_PAYS_DOUBLE (default; the "standard payment variations" of the Wikipedia article "Hong Kong
  mahjong scoring rules"): on a discard the discarder pays 2 x points and the other two 1 x each;
* DISCARDER_PAYS_ALL (全铳, the discarder is liable, "pays for the other two losing players" in the same
  article): on a discard the discarder alone pays what the three would have paid, 4 x points;
* ALL_PAY: on a discard each of the three pays 1 x points (no penalty for discarding);
* a self-draw (杠上开花 included): each of the three pays 2 x points (`self_draw_double`, default true, as
  in the same article and redmahjong.com's fan-laak table: 1 faan = 2 units, 2+2+4 on a discard, 4+4+4
  self-drawn) or 1 x points.
* 包 (liability, option `liability`, default true): `context.liable` names the player who let the winner
  complete 大三元 (the third dragon set), 大四喜 (the fourth wind set) or 十二张落地 (the fourth exposed
  meld). On a self-draw the liable player pays all three shares; on a discard (whoever discarded it, the
  liable player included) the liable player alone pays what the discard costs under `payment` (4 x points,
  or 3 x with ALL_PAY) and nobody else pays. With `liability_split`, a discard by another player is shared
  equally by the liable player and the discarder (the discarder's half rounded down). Sources: the self-draw
  rule is bigproduction.com's Hong Kong "Points & Penalties" page ("that player then picks up the winning
  tile ... you pay for everyone", the 12-piece penalty) and the common rule the project's issue states;
  paying alone on any discard is the proto's contract (HkOptions.liability); the equal split is the
  European Riichi Competition Rules' 3.3.6 (ooyamaneko.net's RCR 2012/2016 text: "he shares the payment
  equally with the player who fed"), which Chinese tables also play.
Robbing a kong counts as a discard by the player whose kong was robbed. The discarder is
`context.discarded_by` (relative to the winner: LEFT is the player before the winner in turn order);
on a win that is not self-drawn and names no discarder the payments are left empty (points still say
what the hand is worth).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

from engine.errors import BadOptionError
from engine.hand import ClaimedFrom, Wind
from engine.rules.model import Options, option


class PointsTable(IntEnum):
    """Faan to points; the values are the proto's HkPointsTable numbers."""

    HALF_DOUBLING = 1  # 半辣上: doubling every faan up to 4, then every second faan (x1.5 between)
    DOUBLING = 2  # plain doubling: 2^faan


class PaymentRule(IntEnum):
    """Who pays on a win by discard; the values are the proto's HkPayment numbers."""

    DISCARDER_PAYS_DOUBLE = 1
    DISCARDER_PAYS_ALL = 2
    ALL_PAY = 3


@dataclass(frozen=True)
class HkOptions(Options):
    rule_set: ClassVar[str] = "hk"

    min_faan: int = option(3, "faan a win needs, flower faan (无花, 正花, 一台花) not counted: 3 (三番起糊) or 0 "
                              "(鸡胡 wins)", choices=(0, 3))
    limit: int = option(13, "the most faan a hand scores (爆棚); a limit hand scores exactly this", choices=(8, 10, 13))
    points_table: PointsTable = option(PointsTable.HALF_DOUBLING, "faan to points: 1 half doubling (半辣上), "
                                                                  "2 plain doubling (2^faan)")
    payment: PaymentRule = option(PaymentRule.DISCARDER_PAYS_DOUBLE, "on a discard: 1 the discarder pays double, "
                                                                     "2 the discarder pays for all three, 3 all pay")
    self_draw_double: bool = option(True, "on a self-draw each of the three pays double (false: single)")
    flowers: bool = option(True, "the game plays the eight flower tiles (false: no 无花 faan, no flower_tiles)")
    liability: bool = option(True, "包: context.liable, the player who let the winner complete 大三元, 大四喜 or "
                                   "four exposed melds, pays for everyone on a self-draw and alone on a discard "
                                   "(false: context.liable is refused)")
    liability_split: bool = option(False, "包 on a discard by another player: false, the liable player pays alone; "
                                          "true, the liable player and the discarder pay half each")
    flower_hand: bool = option(False, "花胡: eight flowers self-drawn (八仙过海) or seven flowers robbing the eighth "
                                      "(七抢一, context.discarded_by the player who drew it) win whatever the tiles, "
                                      "asked with context.flower_win")
    seven_pairs_faan: int = option(0, "七对: 0, seven pairs is not a win (the traditional table); 1-13, a seven-pairs "
                                      "win scores this (4 in Kimeiga/hkos docs/scoring.md and dbrudnicki's HK "
                                      "notes; 3 in Kimeiga/hkos docs/scoring_2.md)")
    kong_on_kong_faan: int = option(0, "杠上杠 (context.kong_on_kong): 0, not scored (the win scores 杠上开花); 1-13, "
                                       "this in place of 杠上开花 (8 in Kimeiga/hkos's table)")
    seven_flowers_faan: int = option(3, "七抢一 with flower_hand, 1-13 (3 in Kimeiga/hkos's table; the limit caps it)")
    eight_flowers_faan: int = option(8, "八仙过海 with flower_hand, 1-13 (8 in Kimeiga/hkos's table; the limit caps "
                                        "it)")

    def __post_init__(self) -> None:
        for name, low in (("seven_pairs_faan", 0), ("kong_on_kong_faan", 0), ("seven_flowers_faan", 1),
                          ("eight_flowers_faan", 1)):
            value = getattr(self, name)
            if type(value) is not int or not low <= value <= 13:
                raise BadOptionError(f"options.hk.{name}: {value!r} is out of range {low}..13", f"options.hk.{name}")


def points_for(faan: int, table: PointsTable) -> int:
    """Base units for `faan` (0 faan: 1 unit)."""
    if table == PointsTable.DOUBLING or faan <= 4:
        return 1 << faan
    steps, half = divmod(faan - 4, 2)
    base = 16 << steps
    return base * 3 // 2 if half else base


def seat_of(winner: Wind, discarded_by: ClaimedFrom) -> Wind:
    """The seat of the player `discarded_by` names, relative to the winner (turn order East, South, West, North)."""
    offset = {ClaimedFrom.LEFT: 3, ClaimedFrom.ACROSS: 2, ClaimedFrom.RIGHT: 1}[discarded_by]
    return Wind((int(winner) + offset) % 4)


def payments(points: int, winner: Wind, self_drawn: bool, discarded_by: ClaimedFrom, options: HkOptions,
             liable: ClaimedFrom = ClaimedFrom.NONE) -> tuple[tuple[Wind, int], ...]:
    """Every seat's signed change in seat order (East first); empty when a discard names no discarder and
    nobody is liable. `liable` (包): that player pays what the win costs all the others."""
    others = [w for w in Wind if w != winner]
    paid: dict[Wind, int] = {}
    if liable != ClaimedFrom.NONE:
        if self_drawn:
            cost = 3 * points * (2 if options.self_draw_double else 1)
        else:
            cost = (3 if options.payment == PaymentRule.ALL_PAY else 4) * points
        paid = dict.fromkeys(others, 0)
        if options.liability_split and not self_drawn and discarded_by not in (ClaimedFrom.NONE, liable):
            paid[seat_of(winner, discarded_by)] = cost // 2
            cost -= cost // 2
        paid[seat_of(winner, liable)] = cost
    elif self_drawn:
        share = points * (2 if options.self_draw_double else 1)
        paid = {w: share for w in others}
    elif discarded_by == ClaimedFrom.NONE:
        return ()
    else:
        discarder = seat_of(winner, discarded_by)
        rule = options.payment
        for w in others:
            if rule == PaymentRule.ALL_PAY:
                paid[w] = points
            elif rule == PaymentRule.DISCARDER_PAYS_ALL:
                paid[w] = 4 * points if w == discarder else 0
            else:
                paid[w] = 2 * points if w == discarder else points
    total = sum(paid.values())
    return tuple((w, total if w == winner else -paid[w]) for w in Wind)
