"""What the engine answers: plain frozen dataclasses, mirrored one to one by the protobuf contract.

Each declares its own `__init__` (`init=False`): the build compiles it to direct stores, where the
generated one would stay interpreted and cost ~15x more per object (setup.py, README "Speed").
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.shapes import Decomposition, ShapeKind, Value


@dataclass(frozen=True, slots=True, init=False)
class TileCount(Value):
    """A tile and the copies of it the player has not seen. `all_copies_held`: the player holds all four."""

    tile: int
    remaining: int
    all_copies_held: bool = False

    def __init__(self, tile: int, remaining: int, all_copies_held: bool = False) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "remaining", remaining)
        object.__setattr__(self, "all_copies_held", all_copies_held)


@dataclass(frozen=True, slots=True, init=False)
class DiscardOption(Value):
    tile: int
    shanten: int
    useful_tiles: tuple[TileCount, ...]
    useful_count: int

    def __init__(self, tile: int, shanten: int, useful_tiles: tuple[TileCount, ...], useful_count: int) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "shanten", shanten)
        object.__setattr__(self, "useful_tiles", useful_tiles)
        object.__setattr__(self, "useful_count", useful_count)


@dataclass(frozen=True, slots=True, init=False)
class Analysis(Value):
    """shanten: -1 complete, 0 waiting, n tiles from waiting (pymahjonggb's meaning)."""

    shanten: int
    shanten_by_shape: tuple[tuple[ShapeKind, int], ...]
    waits: tuple[TileCount, ...] = ()
    useful_tiles: tuple[TileCount, ...] = ()
    useful_count: int = 0
    discards: tuple[DiscardOption, ...] = ()

    def __init__(
        self,
        shanten: int,
        shanten_by_shape: tuple[tuple[ShapeKind, int], ...],
        waits: tuple[TileCount, ...] = (),
        useful_tiles: tuple[TileCount, ...] = (),
        useful_count: int = 0,
        discards: tuple[DiscardOption, ...] = (),
    ) -> None:
        object.__setattr__(self, "shanten", shanten)
        object.__setattr__(self, "shanten_by_shape", shanten_by_shape)
        object.__setattr__(self, "waits", waits)
        object.__setattr__(self, "useful_tiles", useful_tiles)
        object.__setattr__(self, "useful_count", useful_count)
        object.__setattr__(self, "discards", discards)


@dataclass(frozen=True, slots=True, init=False)
class FanDef(Value):
    """One entry of a rule set's fan catalogue. `excludes`: ids not counted when this fan is."""

    id: int
    name: str
    name_zh: str
    points: int
    excludes: tuple[int, ...] = ()
    description: str = ""

    def __init__(
        self,
        id: int,
        name: str,
        name_zh: str,
        points: int,
        excludes: tuple[int, ...] = (),
        description: str = "",
    ) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "name_zh", name_zh)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "excludes", excludes)
        object.__setattr__(self, "description", description)


@dataclass(frozen=True, slots=True, init=False)
class FanHit(Value):
    """A fan scored `count` times; `set_indices` point into the decomposition's sets."""

    fan: FanDef
    count: int = 1
    set_indices: tuple[int, ...] = ()
    tiles: tuple[int, ...] = ()

    def __init__(
        self,
        fan: FanDef,
        count: int = 1,
        set_indices: tuple[int, ...] = (),
        tiles: tuple[int, ...] = (),
    ) -> None:
        object.__setattr__(self, "fan", fan)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "set_indices", set_indices)
        object.__setattr__(self, "tiles", tiles)

    @property
    def points(self) -> int:
        return self.fan.points * self.count


@dataclass(frozen=True, slots=True, init=False)
class Payment(Value):
    """One seat's signed change of score for a win; `seat` is a wind (0 East, the dealer ... 3 North)."""

    seat: int
    amount: int

    def __init__(self, seat: int, amount: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True, slots=True, init=False)
class Scoring(Value):
    """One decomposition scored. `total` includes flowers; `meets_minimum` is judged without them.
    `points`: what the hand is worth where the rule set prices it beyond `total` (Sichuan: 2 ^ capped
    fan), else 0; `payments`: every seat's signed change, where the rule set settles a win (else empty)."""

    fans: tuple[FanHit, ...]
    total: int
    meets_minimum: bool
    decomposition: Decomposition
    points: int = 0
    payments: tuple[Payment, ...] = ()

    def __init__(self, fans: tuple[FanHit, ...], total: int, meets_minimum: bool, decomposition: Decomposition,
                 points: int = 0, payments: tuple[Payment, ...] = ()) -> None:
        object.__setattr__(self, "fans", fans)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "meets_minimum", meets_minimum)
        object.__setattr__(self, "decomposition", decomposition)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "payments", payments)


@dataclass(frozen=True, slots=True, init=False)
class Evaluation(Value):
    is_win: bool
    best: Scoring | None = None
    alternatives: tuple[Scoring, ...] = ()

    def __init__(self, is_win: bool, best: Scoring | None = None, alternatives: tuple[Scoring, ...] = ()) -> None:
        object.__setattr__(self, "is_win", is_win)
        object.__setattr__(self, "best", best)
        object.__setattr__(self, "alternatives", alternatives)
