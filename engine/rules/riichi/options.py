"""The Riichi options (RiichiOptions in the proto). Defaults: majiang-core's default rule (four players,
Tenhou's rules); three players (`players=3`) follow Tenhou's sanma as Mahjong Soul plays it by default
(docs/rules/riichi.md names the sources)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, ClassVar

from engine.errors import BadOptionError
from engine.rules.model import Options, Wire, option


class Renhou(IntEnum):
    """人和, a non-dealer's win on a discard before its own first draw (the proto's RiichiRenhou numbers)."""

    OFF = 1  # not a yaku (Tenhou, majiang-core's default rule)
    MANGAN = 2  # a mangan, or the hand's own value when that is more (riichi.wiki "Renhou")
    YAKUMAN = 3  # a yakuman


PLAYERS = (3, 4)
MAX_RED_PER_SUIT = 2
SUITS = "mps"


@dataclass(frozen=True)
class RiichiOptions(Options):
    rule_set: ClassVar[str] = "riichi"

    open_tanyao: bool = option(True, "all simples counts in an open hand too (kuitan)")
    red_fives: bool = option(True, "red fives are dora (aka dora); off: a red five is a plain five")
    kiriage_mangan: bool = option(False, "4 han 30 fu and 3 han 60 fu are paid as a mangan")
    counted_yakuman: bool = option(True, "13 han or more is a yakuman (kazoe); off: capped at sanbaiman")
    double_yakuman: bool = option(True, "13-sided kokushi, suuankou tanki, junsei chuuren and daisuushii count "
                                  "twice; off: once")
    yakuman_stacking: bool = option(True, "several yakuman in one hand add up; off: the largest one counts")
    double_wind_pair_fu: int = option(4, "fu of a pair of the wind that is both seat and round wind",
                                      choices=(2, 4))
    players: int = option(4, "players at the table: 4, or 3 (sanma: 108 tiles without 2m-8m, no chow, North "
                          "tiles set aside as kita dora, seats East South West)", choices=PLAYERS)
    renhou: Renhou = option(Renhou.OFF, "a non-dealer's win on a discard before its first draw (context earthly "
                            "with self_drawn false): off (not a yaku), mangan, yakuman")
    red_fives_per_suit: tuple[int, ...] = option((), "red fives in the set per suit, m p s, each 0-2 (three "
                                                 "entries); empty: one each while red_fives is on")
    tsumo_loss: bool = option(True, "three players: a self-draw is paid as in four-player and the absent North's "
                              "share is lost (ツモ損, Tenhou, Mahjong Soul's default); off: the North's share is "
                              "split between the two payers (Mahjong Soul's 北家折半)")
    counted_double_yakuman: bool = option(False, "26 counted han or more is a double yakuman (kazoe); off: a "
                                          "single one (majiang-core's default rule)")

    # The round (the referee: engine/rules/riichi/referee.py); defaults: majiang-core's default rule.
    abortive_draws: bool = option(True, "abortive draws: nine terminals, four winds, four riichi, four kongs (a "
                                  "third ron is max_ron's); off: the hand plays on")
    nagashi_mangan: bool = option(True, "nagashi mangan at an exhaustive draw: all discards terminals and honours, "
                                  "none claimed, paid as a mangan self-draw")
    noten_payments: bool = option(True, "at an exhaustive draw the seats not ready pay 3,000 to the ready ones")
    max_ron: int = option(2, "players who may win on one discard: 1 (the first in turn order), 2 (double ron; a "
                          "third aborts the hand), 3 (triple ron)", choices=(1, 2, 3))
    kokushi_robs_concealed_kong: bool = option(False, "a thirteen orphans hand may rob a concealed kong of its "
                                               "winning tile (chankan on an ankan: Tenhou, many rooms); off: no "
                                               "concealed kong is robbed (majiang-core's default rule)")
    swap_calling: bool = option(False, "kuikae: after a chow or pung the player may discard the tile it called "
                                "(or the other end of the chow); off: forbidden")

    @classmethod
    def from_wire(cls, name: str, value: Any, field: str, wire: Wire) -> Any:
        """The wire's repeated counts of red fives are a tuple here; every other option reads as it is."""
        return tuple(value) if name == "red_fives_per_suit" else value

    def __post_init__(self) -> None:
        where = "options.riichi.red_fives_per_suit"
        reds = self.red_fives_per_suit
        if isinstance(reds, list):
            reds = tuple(reds)
            object.__setattr__(self, "red_fives_per_suit", reds)
        if not isinstance(reds, tuple):
            raise BadOptionError(f"{where}: expected three counts (m, p, s), got {reds!r}", where)
        if reds:
            if len(reds) != len(SUITS):
                raise BadOptionError(f"{where}: expected three counts (m, p, s), got {len(reds)}", where)
            for i, n in enumerate(reds):
                if type(n) is not int or not 0 <= n <= MAX_RED_PER_SUIT:
                    raise BadOptionError(f"{where}[{i}]: {n!r} red 5{SUITS[i]} is out of range "
                                         f"0..{MAX_RED_PER_SUIT}", where)
            if not self.red_fives and any(reds):
                raise BadOptionError(f"{where}: red fives are counted while red_fives is on; red_fives is off, "
                                     "so no suit can have red fives", where)
            if self.players == 3 and reds[0]:
                raise BadOptionError(f"{where}[0]: three-player Riichi has no 5m, so no red 5m", where)

    def reds_allowed(self, suit: int) -> int:
        """How many red fives of `suit` (0 m, 1 p, 2 s) the set has."""
        if not self.red_fives:
            return 0
        if self.red_fives_per_suit:
            return self.red_fives_per_suit[suit]
        return 0 if self.players == 3 and suit == 0 else 1
