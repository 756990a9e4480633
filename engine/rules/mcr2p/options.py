"""mcr2p options: the non-dealer's seat (ruling 11 of the package docstring).

`non_dealer_seat` (RuleOptions.mcr2p.non_dealer_seat, a Wind on the wire; `--option non_dealer_seat=west` on
the command line): "any" (the default, the field unset) accepts any of South, West and North as the
non-dealer's seat wind; "south", "west" or "north" names the one seat a table uses, and then a seat wind that
is neither East (the dealer's) nor that one is BAD_CONTEXT naming `seat_wind`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import BadOptionError
from engine.hand import Wind
from engine.rules.model import Options, Wire, option

# The seats of a two-player table: the dealer sits East, the other player at one seat the table agrees
# on (ruling 11); which one changes no fan, so any non-East seat is accepted as the non-dealer's.
DEALER_SEAT = Wind.EAST


@dataclass(frozen=True)
class TwoPlayerOptions(Options):
    rule_set: ClassVar[str] = "mcr2p"

    non_dealer_seat: str = option("any", "the non-dealer's seat wind (ruling 11): any non-East seat, or the one "
                                  "seat the table uses", choices=("any", "south", "west", "north"))

    @classmethod
    def from_wire(cls, name: str, value: Any, field: str, wire: Wire) -> Any:
        """`non_dealer_seat` is a Wind on the wire: South, West or North name the seat; anything else
        (East, the dealer's; unspecified; no wind) is BAD_OPTION (unset means any)."""
        if name != "non_dealer_seat":
            return value
        seat = wire.wind(value)
        if seat is None or seat == DEALER_SEAT:
            raise BadOptionError(f"{field}: {wire.name('Wind', value)} is not a non-dealer seat (the dealer sits at "
                                 "East; WIND_SOUTH, WIND_WEST or WIND_NORTH, or unset for any of them)", field)
        return seat.name.lower()
