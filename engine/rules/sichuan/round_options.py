"""The Sichuan options of a whole 血战 round (read by the referee, engine/rules/sichuan/referee.py).

They are a base of `SichuanOptions` (options.py), so one RuleOptions.sichuan message carries the
hand's options and the round's; Evaluate and Analyze do not read these. An option left unset
(None) takes its sheet's rule (`variant`: MIL, the Mahjong International League sheet as
dcmshi/sichuan-mahjong plays it; Chengdu, the 血战到底 sheet of QuiQiJingFeng/M2_CLIENT).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from engine.rules.model import Options, option


class VoidDiscard(IntEnum):
    """Must the void suit be played first (the proto's SichuanVoidDiscard, same numbers)?"""

    STRICT = 1  # every tile of the void suit is discarded before any other tile (打缺)
    LENIENT = 2  # any order; still holding the void suit when the wall runs out costs `void_penalty`


@dataclass(frozen=True)
class RoundOptions(Options):
    """Options of the round around the hands (proto SichuanOptions fields 12-20)."""

    exchange_three: bool = option(False, "换三张: after the deal each player passes three tiles of one suit "
                                  "(the ExchangeThree event)")
    set_aside: bool | None = option(None, "MIL's declaring tile: the void suit is declared by a tile of it set aside "
                                    "face down, the player's forced first discard (unset: MIL yes, Chengdu no)")
    void_discard: VoidDiscard = option(VoidDiscard.STRICT, "the void suit is discarded first (strict), or in any "
                                       "order with a penalty at the wall's end (lenient)")
    void_penalty: int = option(48, "lenient rule: what a player still in and still holding its void suit pays to "
                               "the pot when the wall runs out")
    false_win_penalty: int = option(8, "诈胡: a declared win without a winning hand pays this to each player "
                                    "still in and returns the kong money it received (0: no penalty)")
    flower_pig: bool | None = option(None, "查花猪: at the wall's end a player still holding three suits pays "
                                     "2 ^ fan_cap to every other player (unset: MIL no, Chengdu yes)")
    ready_check: bool = option(True, "查大叫: at the wall's end each player not ready pays each ready player the "
                               "most its hand could win")
    kong_refund: bool = option(True, "退税: at the wall's end a player not ready returns the kong money it took")
    robbing_kong: bool = option(True, "抢杠胡: an added kong may be robbed")
