"""The Riichi options (RiichiOptions in the proto). Defaults: majiang-core's default rule."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules.model import Options, option


@dataclass(frozen=True)
class RiichiOptions(Options):
    rule_set = "riichi"

    open_tanyao: bool = option(True, "all simples counts in an open hand too (kuitan)")
    red_fives: bool = option(True, "red fives are dora (aka dora); off: a red five is a plain five")
    kiriage_mangan: bool = option(False, "4 han 30 fu and 3 han 60 fu are paid as a mangan")
    counted_yakuman: bool = option(True, "13 han or more is a yakuman (kazoe); off: capped at sanbaiman")
    double_yakuman: bool = option(True, "13-sided kokushi, suuankou tanki, junsei chuuren and daisuushii count "
                                  "twice; off: once")
    yakuman_stacking: bool = option(True, "several yakuman in one hand add up; off: the largest one counts")
    double_wind_pair_fu: int = option(4, "fu of a pair of the wind that is both seat and round wind",
                                      choices=(2, 4))
