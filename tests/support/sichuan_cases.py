"""The shared Sichuan reference cases (/work/shared/oracles/sichuan, scored by dcmshi/sichuan-mahjong,
MIT) read into engine terms: hand, context, options, and what the reference expects.

The reference numbers seats 0-3 with a dealer; here seats are winds, East the dealer, play passing
seat s -> s + 1 (so seat s sits at wind (s - dealer) mod 4).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.riichi_cases import shared_dir
from engine.hand import ClaimedFrom, Hand, Meld, MeldKind, PriorKong, Suit, WinContext, Wind, make_meld, winning_hand
from engine.rules.sichuan.fans import Fan
from engine.rules.sichuan.options import SichuanOptions
from engine.rules.sichuan.payments import relative
from engine.tiles import parse_tile

# shared/ beside the repository, as CI lays it out (or MJSVC_SHARED; MJSVC_SICHUAN_ORACLE names the folder itself).
_SHARED = shared_dir()
if not (_SHARED / "oracles" / "sichuan").is_dir() and Path("/work/shared/oracles/sichuan").is_dir():
    _SHARED = Path("/work/shared")
ORACLE_DIR = Path(os.environ.get("MJSVC_SICHUAN_ORACLE", str(_SHARED / "oracles" / "sichuan")))
CASES = ORACLE_DIR / "sichuan_cases_public.jsonl"

FAN_BY_NAME = {
    "Kong": Fan.KONG, "Root": Fan.ROOT, "AllPungs": Fan.ALL_PUNGS, "GoldenWait": Fan.GOLDEN_WAIT,
    "FullFlush": Fan.FULL_FLUSH, "SevenPairs": Fan.SEVEN_PAIRS, "WinAfterKong": Fan.WIN_AFTER_KONG,
    "ShootAfterKong": Fan.SHOOT_AFTER_KONG, "RobbingTheKong": Fan.ROBBING_THE_KONG, "UnderTheSea": Fan.UNDER_THE_SEA,
}
_SUITS = {"m": Suit.CHARACTERS, "p": Suit.DOTS, "s": Suit.BAMBOO}
_KONGS = {"concealed": PriorKong.CONCEALED, "exposed": PriorKong.EXPOSED, "promoted": PriorKong.ADDED,
          "postponed": PriorKong.ADDED_LATER}


def load() -> list[dict[str, Any]]:
    with CASES.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@dataclass(frozen=True)
class Case:
    row: dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.row["id"])

    @property
    def input(self) -> dict[str, Any]:
        return self.row["input"]

    @property
    def expected(self) -> dict[str, Any]:
        return self.row["expected"]

    def wind(self, seat: int) -> Wind:
        return Wind((seat - self.input["table"]["dealer"]) % 4)

    def seat(self, wind: int) -> int:
        return (wind + self.input["table"]["dealer"]) % 4

    def melds(self) -> list[Meld]:
        out = []
        for i, m in enumerate(self.input["melds"]):
            t = parse_tile(m["tile"])
            if m["kind"] == "pung":
                out.append(make_meld(MeldKind.PUNG, (t,) * 3, claimed_from=ClaimedFrom.LEFT, field=f"melds[{i}]"))
            else:
                concealed = m.get("kong_type") == "concealed"
                out.append(make_meld(MeldKind.KONG, (t,) * 4, concealed=concealed, added=m.get("kong_type") == "added",
                                     claimed_from=ClaimedFrom.NONE if concealed else ClaimedFrom.LEFT,
                                     field=f"melds[{i}]"))
        return out

    def hand(self) -> Hand:
        return winning_hand([parse_tile(t) for t in self.input["concealed"]], self.melds(),
                            parse_tile(self.input["winning_tile"]))

    def context(self) -> WinContext:
        i, table, flags = self.input, self.input["table"], self.input["flags"]
        winner = self.wind(table["winner"])
        discarded_by = ClaimedFrom.NONE
        if not i["self_drawn"] and table["discarder"] is not None:
            discarded_by = relative(winner, self.wind(table["discarder"]))
        prior = PriorKong.NONE
        claimed = ClaimedFrom.NONE
        if (flags["after_kong_discard"] or flags["rob_kong"]) and "discarder_kong_type" in table:
            prior = _KONGS[table["discarder_kong_type"]]
            if prior == PriorKong.EXPOSED:
                claimed = relative(self.wind(table["kong_declarer"]), self.wind(table["kong_supplier"]))
        return WinContext(
            self_drawn=i["self_drawn"], replacement_tile=flags["kong_replacement"], robbing_kong=flags["rob_kong"],
            last_wall_tile=flags["last_tile"], heavenly=flags["heavenly"], earthly=flags["earthly"],
            after_kong_discard=flags["after_kong_discard"], seat_wind=winner, discarded_by=discarded_by,
            void_suit=_SUITS[i["void_suit"]], seats_out=tuple(self.wind(s) for s in table["already_won"]),
            prior_kong=prior, prior_kong_claimed_from=claimed)

    def options(self) -> SichuanOptions:
        o = self.input["options"]
        return SichuanOptions(fan_cap=o["fan_cap"], heavenly_earthly=o["heavenly_earthly_scores_max"])

    def expected_fans(self) -> dict[int, int]:
        return {int(FAN_BY_NAME[f["name"]]): f["count"] for f in self.expected["fans"]}

    def expected_net(self) -> list[int]:
        """Signed change by reference seat (0 for all when the reference lists none)."""
        net = self.expected["net_by_seat"]
        return list(net) if net is not None else [0, 0, 0, 0]
