"""The options of the Sichuan rule set, with their documented defaults."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from types import MappingProxyType
from typing import Any, ClassVar

from engine.errors import BadOptionError
from engine.hand import Suit
from engine.rules.model import Wire, option
from engine.rules.sichuan.round_options import RoundOptions

# Caps a room may set: 3 (x8) up to 8 (x256, the Chengdu sheet's dearest hand, 清十八罗汉).
FAN_CAPS = (3, 4, 5, 6, 7, 8)
# the tile notation's suit letters
_SUIT_LETTERS = MappingProxyType({"m": Suit.CHARACTERS, "p": Suit.DOTS, "s": Suit.BAMBOO})


class Variant(IntEnum):
    """Which rule sheet scores the hand (the proto's SichuanVariant, same numbers)."""

    MIL = 1  # Mahjong International League rules, as dcmshi/sichuan-mahjong plays them
    CHENGDU = 2  # the Chengdu rule sheet named in the package docstring


class KongBloomPayer(IntEnum):
    """点杠花, a self-drawn win on the replacement tile of a kong fed by a discard (the proto's
    SichuanKongBloomPayer, same numbers; 0 there is ALL). The Chengdu sheet's room option: "点杠花当自摸，
    则B按照自摸赢三家。点杠花当炮，则B按照点炮赢一家"."""

    ALL = 1  # 点杠花当自摸: a self-draw, every player still in pays
    FEEDER = 2  # 点杠花当炮: scored and paid as a win on the feeder's discard


# The cap each sheet plays: MIL 4 (dcmshi/sichuan-mahjong's default, x16); Chengdu 6, the x64 its
# 血战到底 page names as the cap (查花猪: "花猪赔给非花猪玩家封顶倍数（x64）").
DEFAULT_CAPS = MappingProxyType({Variant.MIL: 4, Variant.CHENGDU: 6})


class SelfDraw(IntEnum):
    """What a self-drawn win adds (the proto's SichuanSelfDraw, same numbers; 0 there is ADD_BASE)."""

    ADD_BASE = 1  # 自摸加底: each player still in pays the value + 1
    ADD_FAN = 2  # 自摸加番: the Self-Drawn fan, +1 fan
    NO_BONUS = 3  # 自摸不加倍: nothing


@dataclass(frozen=True)
class SichuanOptions(RoundOptions):  # the round's options (referee) are its base
    rule_set: ClassVar[str] = "sichuan"

    variant: Variant = option(Variant.MIL, "the rule sheet: MIL, or the Chengdu app sheet")
    fan_cap: int | None = option(None, "most fan a hand scores, 3-8 (its value is 2 ^ capped fan); unset: the "
                                 "variant's, MIL 4, Chengdu 6 (the sheet's 封顶 x64)", choices=FAN_CAPS)
    heavenly_earthly: bool = option(True, "heavenly (天胡) and earthly (地胡) hands score: MIL the cap, "
                                    "Chengdu their rows (x32)")
    self_draw: SelfDraw = option(SelfDraw.ADD_BASE, "a self-draw adds 1 to each payment (自摸加底), "
                                 "1 fan (自摸加番) or nothing (自摸不加倍)")
    concealed_simples: bool = option(False, "Chengdu's 门清中张: +1 fan for a self-drawn hand with nothing "
                                     "declared (门清), +1 for no 1 or 9 anywhere (中张)")
    call_transfer: bool | None = option(None, "呼叫转移: on 杠上炮 the discarder's kong takings go to the "
                                        "winner instead of back to each payer (unset: the variant's rule, "
                                        "MIL refunds, Chengdu transfers)")
    void_suit: Suit | None = option(None, "the player's void suit, for Analyze (Evaluate reads the win "
                                    "context's void_suit; given both, they must agree)")
    kong_bloom_payer: KongBloomPayer = option(
        KongBloomPayer.ALL, "点杠花 (a self-draw on the replacement tile of a kong fed by a discard, "
        "WinContext.kong_fed_by): all pay as on a self-draw (点杠花当自摸), or the feeder alone as on a discard "
        "(点杠花当炮)")

    @classmethod
    def from_wire(cls, name: str, value: Any, field: str, wire: Wire) -> Any:
        """`void_suit` is a Suit on the wire (SUIT_CHARACTERS, SUIT_DOTS or SUIT_BAMBOO; anything else,
        SUIT_UNSPECIFIED included, is BAD_OPTION naming `field`); every other option is as the wire numbers it."""
        if name != "void_suit":
            return value
        suit = wire.suit(value)
        if suit is None:
            raise BadOptionError(f"{field}: {value} is not a Suit value", field)
        return suit

    def __post_init__(self) -> None:
        if self.fan_cap is not None and (type(self.fan_cap) is not int or self.fan_cap not in FAN_CAPS):
            raise BadOptionError(f"options.sichuan.fan_cap: {self.fan_cap!r} is not one of "
                                 f"{', '.join(map(str, FAN_CAPS))}", "options.sichuan.fan_cap")
        if self.call_transfer is not None and type(self.call_transfer) is not bool:
            raise BadOptionError("options.sichuan.call_transfer: expected true, false or unset",
                                 "options.sichuan.call_transfer")
        if self.void_suit is not None:
            given: object = self.void_suit  # as the client sent it, before it is known to be a Suit
            suit = _SUIT_LETTERS.get(given) if isinstance(given, str) else given
            if type(suit) is bool or suit not in (0, 1, 2):
                raise BadOptionError(f"options.sichuan.void_suit: {self.void_suit!r} is not a suit (m, p or s)",
                                     "options.sichuan.void_suit")
            object.__setattr__(self, "void_suit", Suit(suit))

    @property
    def cap(self) -> int:
        """The fan cap in force: `fan_cap`, or the variant's own (DEFAULT_CAPS)."""
        return self.fan_cap if self.fan_cap is not None else DEFAULT_CAPS[self.variant]

    @property
    def transfers_kong_money(self) -> bool:
        """呼叫转移 in force for this hand."""
        if self.call_transfer is None:
            return self.variant == Variant.CHENGDU
        return self.call_transfer


DEFAULT_OPTIONS = SichuanOptions()
