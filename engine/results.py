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
    max_value: int = 0  # Sichuan (查大叫): the most a ready 13-tile hand's waits would score (0: not ready)

    def __init__(
        self,
        shanten: int,
        shanten_by_shape: tuple[tuple[ShapeKind, int], ...],
        waits: tuple[TileCount, ...] = (),
        useful_tiles: tuple[TileCount, ...] = (),
        useful_count: int = 0,
        discards: tuple[DiscardOption, ...] = (),
        max_value: int = 0,
    ) -> None:
        object.__setattr__(self, "shanten", shanten)
        object.__setattr__(self, "shanten_by_shape", shanten_by_shape)
        object.__setattr__(self, "waits", waits)
        object.__setattr__(self, "useful_tiles", useful_tiles)
        object.__setattr__(self, "useful_count", useful_count)
        object.__setattr__(self, "discards", discards)
        object.__setattr__(self, "max_value", max_value)


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
class Scoring(Value):
    """One decomposition scored. `total` includes flowers; `meets_minimum` is judged without them.

    Rule sets that pay in han and fu (Riichi) also fill: `han`, `fu` (rounded) and `fu_parts` (what each
    part of the hand added, before rounding: (reason, fu)), `yakuman` (the multiple, 0 if none), `points`
    (what the hand is worth to the winner before honba and sticks), `payments` (each seat's signed change,
    as (seat wind, amount), honba and sticks included) and `reason` (why a complete hand is not a win).
    Sichuan fills `points` (the hand's value, 2 ^ capped fan; `total` is the capped fan) and `payments`
    (every seat's change for the win, kong money it refunds or moves included).
    """

    fans: tuple[FanHit, ...]
    total: int
    meets_minimum: bool
    decomposition: Decomposition
    han: int = 0
    fu: int = 0
    yakuman: int = 0
    points: int = 0
    payments: tuple[tuple[int, int], ...] = ()
    fu_parts: tuple[tuple[str, int], ...] = ()
    reason: str = ""

    def __init__(self, fans: tuple[FanHit, ...], total: int, meets_minimum: bool, decomposition: Decomposition,
                 han: int = 0, fu: int = 0, yakuman: int = 0, points: int = 0,
                 payments: tuple[tuple[int, int], ...] = (), fu_parts: tuple[tuple[str, int], ...] = (),
                 reason: str = "") -> None:
        object.__setattr__(self, "fans", fans)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "meets_minimum", meets_minimum)
        object.__setattr__(self, "decomposition", decomposition)
        object.__setattr__(self, "han", han)
        object.__setattr__(self, "fu", fu)
        object.__setattr__(self, "yakuman", yakuman)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "payments", payments)
        object.__setattr__(self, "fu_parts", fu_parts)
        object.__setattr__(self, "reason", reason)


@dataclass(frozen=True, slots=True, init=False)
class Evaluation(Value):
    is_win: bool
    best: Scoring | None = None
    alternatives: tuple[Scoring, ...] = ()

    def __init__(self, is_win: bool, best: Scoring | None = None, alternatives: tuple[Scoring, ...] = ()) -> None:
        object.__setattr__(self, "is_win", is_win)
        object.__setattr__(self, "best", best)
        object.__setattr__(self, "alternatives", alternatives)
