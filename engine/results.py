"""What the engine answers: plain frozen dataclasses, mirrored one to one by the protobuf contract."""

from __future__ import annotations

from dataclasses import dataclass

from engine.shapes import Decomposition, ShapeKind


@dataclass(frozen=True, slots=True)
class TileCount:
    """A tile and the copies of it the player has not seen. `all_copies_held`: the player holds all four."""

    tile: int
    remaining: int
    all_copies_held: bool = False


@dataclass(frozen=True, slots=True)
class DiscardOption:
    tile: int
    shanten: int
    useful_tiles: tuple[TileCount, ...]
    useful_count: int


@dataclass(frozen=True, slots=True)
class Analysis:
    """shanten: -1 complete, 0 waiting, n tiles from waiting (pymahjonggb's meaning)."""

    shanten: int
    shanten_by_shape: tuple[tuple[ShapeKind, int], ...]
    waits: tuple[TileCount, ...] = ()
    useful_tiles: tuple[TileCount, ...] = ()
    useful_count: int = 0
    discards: tuple[DiscardOption, ...] = ()


@dataclass(frozen=True, slots=True)
class FanDef:
    """One entry of a rule set's fan catalogue. `excludes`: ids not counted when this fan is."""

    id: int
    name: str
    name_zh: str
    points: int
    excludes: tuple[int, ...] = ()
    description: str = ""


@dataclass(frozen=True, slots=True)
class FanHit:
    """A fan scored `count` times; `set_indices` point into the decomposition's sets."""

    fan: FanDef
    count: int = 1
    set_indices: tuple[int, ...] = ()
    tiles: tuple[int, ...] = ()

    @property
    def points(self) -> int:
        return self.fan.points * self.count


@dataclass(frozen=True, slots=True)
class Scoring:
    """One decomposition scored. `total` includes flowers; `meets_minimum` is judged without them."""

    fans: tuple[FanHit, ...]
    total: int
    meets_minimum: bool
    decomposition: Decomposition


@dataclass(frozen=True, slots=True)
class Evaluation:
    is_win: bool
    best: Scoring | None = None
    alternatives: tuple[Scoring, ...] = ()
