"""MCR options: the one documented choice between two published readings of the same rules.

`convention` (RuleOptions.mcr.convention; `--option convention=rulebook` on the command line):

* CHINESE (default, MCR_CONVENTION_CHINESE; also what an unset or MCR_CONVENTION_UNSPECIFIED field
  means): the Chinese convention as ChineseOfficialMahjongHelper / pymahjonggb score it, this rule
  set's behaviour since its first version (tests/unit/test_mcr_oracle.py compares it with pymahjonggb).
* RULEBOOK (MCR_CONVENTION_RULEBOOK): the published English rulebook ("Mahjong Competition Rules",
  World Mahjong Organization, English edition 2006, the "Green Book") where it differs. Exactly four
  rulings change; `engine.rules.mcr.rulebook` lists them with their sources, and
  tests/unit/test_mcr_conventions.py shows on the shared MCR reference cases that nothing else does.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

from engine.rules.model import Options, option


class McrConvention(IntEnum):
    """Which reading of the rules scores a hand; the values are the proto's McrConvention numbers."""

    CHINESE = 1
    RULEBOOK = 2


@dataclass(frozen=True)
class McrOptions(Options):
    rule_set: ClassVar[str] = "mcr"

    convention: McrConvention = option(McrConvention.CHINESE, "1 the Chinese convention (ChineseOfficialMahjongHelper; "
                                                              "default), 2 the English rulebook of 2006 (four "
                                                              "rulings differ: engine/rules/mcr/rulebook.py)")
