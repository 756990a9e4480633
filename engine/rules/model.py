"""The rule-set package contract, and the fan-table model every rule set is declared on.

A rule set is a package `engine/rules/<name>/`, listed in `engine/rules/__init__.py`, whose `__init__.py`
exposes `RULE_SET`, a `RuleSet` (below). Adding one touches no other rule set and nothing in `mjsvc`. Every
package has the same files, each holding one kind of thing (tests/unit/test_rule_set_layout.py checks every
registered rule set against this list):

* `fans.py`, data only (no function): `class Fan(IntEnum)`, the ids with the reader's names for them (no
  bare id appears in code), and `TABLE`, a `FanTable` of one `FanRow` per id: English and native names,
  the value of one occurrence (points, han, fan or faan: `FanTable.unit`), what counting it excludes, its
  `scope` (where it is scored).
* `facts.py`: everything derived from a hand and one decomposition that the predicates read; all bit
  packing (feature masks, table keys) lives here.
* `predicates.py`: `PREDICATES = Predicates(TABLE, in_scoring=(...))`, `fan = PREDICATES.fan`, and one
  function per fan, registered with `@fan(Fan.X)` beside its rule, returning a list of `Occurrence`s (one
  return type: [] = not there, n items = counted n times). What a predicate is called with is the rule
  set's facts; where a rule set dispatches by kind (MCR: the tiles held, the situation, one decomposition,
  a combination of sets), the kind comes from the row (`scope`) and the registration's hints (`needs`:
  feature bits that must be present; MCR's combinations: `family`, `arity`), and its dispatch tables
  are derived from the one registry. A row without a predicate is named in `in_scoring` (a bonus such as
  flowers, a fallback such as MCR's Chicken Hand) and scored by scoring.py itself.
* `scoring.py`: `score(hand, context, options) -> Evaluation`, the one entry point (`RULE_SET.score`):
  decompose, run the predicates into `{fan id: [occurrences]}`, `Principles.apply(raw)`, build Scoring
  (tiles and shared context checks are done before it is called).
* `options.py`: the options type, a frozen dataclass subclassing `Options`, each field an `option(...)`
  with its documented default; `Options.from_wire` where a field's wire value is a tile, a suit or a seat.
* `payments.py` (who pays what), `context.py` (its own context checks) and `referee.py` (the hand's
  event log replayed: what each seat may do, and the settled money; see engine/referee.py), where the
  rule set has them.

Any other module is the rule set's own and is named in its package docstring (MCR's `rulebook.py`, its
second convention, and `tables.py`, its install-time tables).

An occurrence (`Occurrence`) is the tuple of the decomposition's set indices the fan was scored on (`()`:
no particular set: the tiles held, the situation); the fan id is the registration's. Which tiles a FanHit
shows follows from the row: a SITUATION fan the winning tile, a fan with sets the tiles of its sets, one
without the decomposition's own (thirteen orphans). An occurrence that shows other tiles (the four copies
of a Tile Hog) is a `Showing(sets, tiles)`, still a tuple of set indices. Plain tuples cost nothing to
build on the hot path and are what `Principles.apply` reads.

The exclusions are applied by ONE mechanism, `engine.rules.principles.Principles` (highest value first; an
excluded fan excludes nothing; `excludes` removes a fan outright, `excludes_on_sets` only its occurrences
inside the excluding fan's sets; an optional account-once forest for `combo` rows).

The parts of a 20-line rule set (a toy; see engine/rules/mcr2p for a real one):

    # fans.py
    class Fan(IntEnum):
        ALL_PUNGS = 1
        SELF_DRAWN = 2

    TABLE = FanTable("fan", (
        FanRow(Fan.ALL_PUNGS, "All Pungs", "对对胡", 3, scope=Scope.SETS),
        FanRow(Fan.SELF_DRAWN, "Self-Drawn", "自摸", 1, scope=Scope.SITUATION),
    ))

    # predicates.py
    PREDICATES = Predicates(TABLE)
    fan = PREDICATES.fan

    @fan(Fan.ALL_PUNGS)
    def all_pungs(f: Facts) -> list[Occurrence]:
        return [f.pungs] if len(f.pungs) == 4 else []

    @fan(Fan.SELF_DRAWN)
    def self_drawn(f: Facts) -> list[Occurrence]:
        return [()] if f.ctx.self_drawn else []

    # options.py
    @dataclass(frozen=True)
    class ToyOptions(Options):
        rule_set: ClassVar[str] = "toy"
        cap: int = option(8, "most fan a hand scores", choices=(6, 8))

    # scoring.py
    PRINCIPLES = Principles(TABLE.rows)

    def score(hand: Hand, ctx: WinContext, options: ToyOptions) -> Evaluation:
        ...  # per decomposition: {fid: p.find(facts) for fid, p in PREDICATES.by_id.items()}, PRINCIPLES.apply

    # __init__.py
    RULE_SET = RuleSet(name="toy", title="A toy", table=TABLE, tiles=ALL_TILES,
                       shapes=frozenset({ShapeKind.STANDARD}), options_type=ToyOptions,
                       context_fields=("self_drawn",), minimum=1, score=score)

Options reach a rule set as a plain mapping of the fields a client set (the proto's `optional` fields
that are present, the CLI's flags): `RuleSet.options(mapping)` checks every name and type (and
`choices`) and raises `BadOptionError` (code BAD_OPTION) naming `options.<rule set>.<field>`; unset
fields keep their defaults. The service first maps each wire value with the options type's own
`from_wire(name, value, field, wire)` (`Wire`: how the wire's shared Tile, Suit and Wind enums read, which
mjsvc.convert supplies), so the service never names a rule set. `RuleSet.evaluate(hand, context,
options=None)` validates the tiles, runs the rule set's own context checks and scores; None means the
defaults.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from operator import attrgetter
from typing import Any, ClassVar, Protocol, TypeVar

from engine.errors import BadContextError, BadOptionError, BadTileError
from engine.hand import Hand, Suit, WinContext, Wind
from engine.results import Analysis, Evaluation, FanDef
from engine.shapes import ShapeKind
from engine.tiles import NUM_KINDS, format_tile, tile_name

ALL_TILES: frozenset[int] = frozenset(range(NUM_KINDS))
CONTEXT_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(WinContext) if f.name != "extra")
# Each WinContext field with its default: a field left at its default is "not sent" (proto3 cannot tell
# an explicit default from an unset field).
CONTEXT_DEFAULTS: tuple[tuple[str, Any], ...] = tuple(
    (name, getattr(WinContext(), name)) for name in CONTEXT_FIELDS)


def _nothing(context: WinContext) -> tuple[()]:
    return ()


class Scope(Enum):
    """Where a fan is scored, which is also what an exclusion of it can remove."""

    HAND = "hand"  # a property of the whole hand (its tiles or its shape)
    SETS = "sets"  # per set or group of sets; may be counted several times
    SITUATION = "situation"  # the circumstances of the win (context flags), shown on the winning tile
    BONUS = "bonus"  # counted outside the hand's fans proper (flowers, dora)


@dataclass(frozen=True, slots=True)
class FanRow:
    """One row of a fan table.

    `value`: points / han / fan / faan of one occurrence (the table's unit). `open_value`: the value
    when the hand has claimed melds where it differs (Riichi's kuisagari); None = the same, 0 = the
    fan needs a closed hand. `excludes`: fans not counted at all when this one is. `excludes_on_sets`:
    fans not counted on the sets this one was scored on (MCR's non-repeat per set). `combo`: a
    combination of sets subject to the account-once principle. `limit`: a limit hand (Riichi's
    yakuman: `value` is then 13 per multiple).
    """

    id: IntEnum
    name: str
    native: str
    value: int
    excludes: tuple[IntEnum, ...] = ()
    excludes_on_sets: tuple[IntEnum, ...] = ()
    scope: Scope = Scope.HAND
    combo: bool = False
    open_value: int | None = None
    limit: bool = False
    description: str = ""

    def value_for(self, closed: bool) -> int:
        return self.value if closed or self.open_value is None else self.open_value

    def to_def(self) -> FanDef:
        return FanDef(int(self.id), self.name, self.native, self.value,
                      tuple(sorted(int(x) for x in self.excludes + self.excludes_on_sets)), self.description)


class FanTable:
    """A rule set's fans: rows by id, checked once at import (unique ids, every enum member has a row,
    exclusions name rows of the same table)."""

    def __init__(self, unit: str, rows: Iterable[FanRow], ids: type[IntEnum] | None = None) -> None:
        self.unit = unit
        self.rows: tuple[FanRow, ...] = tuple(rows)
        self.by_id: dict[int, FanRow] = {}
        for row in self.rows:
            if int(row.id) in self.by_id:
                raise ValueError(f"fan table: id {row.id!r} has two rows")
            self.by_id[int(row.id)] = row
        enum = ids or (type(self.rows[0].id) if self.rows else None)
        if enum is not None:
            missing = [m for m in enum if int(m) not in self.by_id]
            if missing:
                raise ValueError(f"fan table: no row for {missing}")
        for row in self.rows:
            for x in row.excludes + row.excludes_on_sets:
                if int(x) not in self.by_id:
                    raise ValueError(f"fan table: {row.name} excludes {x!r}, which has no row")
        self.defs: tuple[FanDef, ...] = tuple(r.to_def() for r in self.rows)
        self.def_by_id: dict[int, FanDef] = {d.id: d for d in self.defs}

    def __getitem__(self, fan_id: int) -> FanRow:
        return self.by_id[int(fan_id)]

    def __iter__(self) -> Any:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


# ---------------------------------------------------------------------------------------------
# Predicates and their occurrences

# One occurrence of a fan: the indices (into the decomposition's sets) of the sets it was scored on; () for
# none in particular. A predicate returns a list of them: [] the fan is not there, n items counted n times.
Occurrence = tuple[int, ...]


class Showing(tuple[int, ...]):
    """An occurrence (its set indices, as any) that shows other tiles than its sets' (`tiles`): mcr2p's
    Tile Hog shows the four copies of its kind. Equal to the plain tuple of its sets."""

    tiles: tuple[int, ...]

    def __new__(cls, sets: Iterable[int], tiles: tuple[int, ...]) -> Showing:
        occurrence = super().__new__(cls, sets)
        occurrence.tiles = tiles
        return occurrence


def shown_tiles(occurrence: Occurrence) -> tuple[int, ...]:
    """The tiles a `Showing` occurrence shows; () for any other (its row says which tiles it shows)."""
    return occurrence.tiles if isinstance(occurrence, Showing) else ()


FindT = TypeVar("FindT", bound=Callable[..., list[Occurrence]])


@dataclass(frozen=True)
class Predicate:
    """A registered predicate: its row (id, scope, ...), the function, and the registration's hints."""

    row: FanRow
    find: Callable[..., list[Occurrence]]
    hints: Mapping[str, Any]

    @property
    def id(self) -> int:
        return int(self.row.id)

    @property
    def scope(self) -> Scope:
        return self.row.scope


class Predicates:
    """The predicates of one rule set (its predicates.py: `PREDICATES = Predicates(TABLE)`,
    `fan = PREDICATES.fan`), one per row of `table`, each registered with `@fan(Fan.X, **hints)`.

    `by_id`: fan id -> `Predicate`, in registration order (the order a rule set may try them in).
    `in_scoring`: the rows that have no predicate because scoring.py scores them itself (a bonus, a
    fallback); a row is registered or named here, never both (`missing` lists the rows that are neither).
    `hints`: what the rule set's scoring reads besides the row (e.g. `needs`: feature bits of its facts
    that must all be present for the fan to be possible); the rule set checks its own hints.
    """

    def __init__(self, table: FanTable, *, in_scoring: Iterable[IntEnum] = ()) -> None:
        self.table = table
        self.by_id: dict[int, Predicate] = {}
        self.in_scoring: frozenset[int] = frozenset(int(x) for x in in_scoring)
        for fid in self.in_scoring:
            if fid not in table.by_id:
                raise ValueError(f"predicates: in_scoring names {fid}, which has no row")

    def fan(self, fan_id: IntEnum, **hints: Any) -> Callable[[FindT], FindT]:
        """The decorator: register the function as the predicate of the row `fan_id`."""
        fid = int(fan_id)
        if fid not in self.table.by_id:
            raise ValueError(f"predicates: {fan_id!r} has no row in the table")
        if fid in self.in_scoring:
            raise ValueError(f"predicates: {fan_id!r} is scored in scoring.py (in_scoring), not by a predicate")
        row = self.table.by_id[fid]

        def register(find: FindT) -> FindT:
            if fid in self.by_id:
                raise ValueError(f"predicates: {fan_id!r} has two predicates")
            self.by_id[fid] = Predicate(row, find, dict(hints))
            return find
        return register

    def missing(self) -> list[FanRow]:
        """The rows with neither a predicate nor a place in `in_scoring` (a complete rule set has none)."""
        return [r for r in self.table.rows if int(r.id) not in self.by_id and int(r.id) not in self.in_scoring]

    def __iter__(self) -> Iterator[Predicate]:
        return iter(self.by_id.values())

    def __len__(self) -> int:
        return len(self.by_id)


# ---------------------------------------------------------------------------------------------
# Options


def option(default: Any, doc: str, *, choices: tuple[Any, ...] = ()) -> Any:
    """A field of an Options dataclass: its default, what it means, and (optionally) the values allowed."""
    return field(default=default, metadata={"doc": doc, "choices": choices})


OptionsT = TypeVar("OptionsT", bound="Options")


class Wire(Protocol):
    """How the wire (proto/mahjong/v1) encodes the shared enums an option may hold, supplied by the service
    (mjsvc.convert) to `Options.from_wire`: the engine knows no proto, the service names no rule set."""

    def tiles(self, values: Iterable[int], field: str) -> tuple[int, ...]:
        """Tile values as engine indices; a value that is no tile is BAD_TILE naming `field[i]`."""
        ...

    def suit(self, value: int) -> Suit | None:
        """A Suit value as the engine's suit; None for SUIT_UNSPECIFIED or a value that is no suit."""
        ...

    def wind(self, value: int) -> Wind | None:
        """A Wind value as the engine's wind; None for WIND_UNSPECIFIED or a value that is no wind."""
        ...

    def name(self, enum: str, value: int) -> str:
        """The wire's name of a value of the enum called `enum` ("WIND_EAST"), or the number itself."""
        ...


@dataclass(frozen=True)
class Options:
    """Base of every rule set's options: a frozen dataclass whose fields are `option(...)`s."""

    rule_set: ClassVar[str] = ""

    @classmethod
    def from_mapping(cls: type[OptionsT], values: Mapping[str, Any] | None) -> OptionsT:
        """Options from the fields a client set (any missing one keeps its default), every value checked:
        an unknown name, a value of the wrong type or outside its `choices` is BAD_OPTION naming the field."""
        if not values:
            return cls()
        known = {f.name: f for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}
        for name, value in values.items():
            where = f"options.{cls.rule_set}.{name}" if cls.rule_set else f"options.{name}"
            f = known.get(name)
            if f is None:
                raise BadOptionError(f"{where}: {cls.rule_set or 'this rule set'} has no option {name!r} "
                                     f"(options: {', '.join(known) or 'none'})", where)
            default = f.default
            if type(default) is bool:
                if type(value) is not bool:
                    raise BadOptionError(f"{where}: expected true or false, got {value!r}", where)
            elif type(default) is int:
                if type(value) is not int:
                    raise BadOptionError(f"{where}: expected an integer, got {value!r}", where)
            elif isinstance(default, Enum):
                enum = type(default)
                try:
                    # a member's value, or its name in any case (the command line's points_table=doubling)
                    value = enum[value.upper()] if isinstance(value, str) and value.upper() in enum.__members__ \
                        else enum(value)
                except ValueError:
                    names = ", ".join(f"{m.value} ({m.name.lower()})" for m in enum)
                    raise BadOptionError(f"{where}: {value!r} is not one of {names}", where) from None
            choices = f.metadata.get("choices", ())
            if choices and value not in choices:
                raise BadOptionError(f"{where}: {value!r} is not one of {', '.join(map(str, choices))}", where)
            kwargs[name] = value
        return cls(**kwargs)

    @classmethod
    def from_wire(cls, name: str, value: Any, field: str, wire: Wire) -> Any:
        """One option's wire value in engine terms, before `from_mapping` checks it (`field`: its path in
        the request, for errors). By default the value as it is: booleans, integers, and enums the wire
        numbers as the engine does. A rule set whose option is a tile, a suit or a seat on the wire
        overrides this for that field (BAD_OPTION naming `field` for a value that is none of them)."""
        return value

    @classmethod
    def documented(cls) -> tuple[tuple[str, Any, str], ...]:
        """(name, default, meaning) of every option, for help texts and docs."""
        return tuple((f.name, f.default, f.metadata.get("doc", "")) for f in dataclasses.fields(cls))


@dataclass(frozen=True)
class NoOptions(Options):
    """A rule set without options."""


# ---------------------------------------------------------------------------------------------
# The rule set declaration


def _no_check(hand: Hand, context: WinContext, options: Any) -> None:
    """The default for `check_context`: nothing beyond engine.hand.validate_context."""


@dataclass(frozen=True)
class RuleSet:
    """A rule set as the engine and the service see it.

    `tiles`: the kinds it plays with (any other is BAD_TILE naming the field). `shapes`: the winning
    shapes it allows (Analyze reports only these). `context_fields`: the WinContext fields its answer
    depends on (the service's cache key holds exactly these). `minimum`: the least a win must reach (in
    the table's unit; `meets_minimum` says whether it did). `score`: hand, context, options -> Evaluation
    (tiles and shared context checks already done). `check_context`: its own context checks
    (CONTRADICTORY_CONTEXT). `allow_quad_pairs`: may four of a kind count as two of the seven pairs.
    `red_fives`: the rule set reads `Hand.red_fives` (Riichi); elsewhere red fives given are BAD_CONTEXT.

    No silent fields: a WinContext field outside `context_fields` that a request sets (to anything but its
    default) is BAD_CONTEXT naming it (`check_unread`, run by `engine.api.evaluate`), so a client never gets
    an answer that silently differs from what it asked.
    """

    name: str
    title: str
    table: FanTable
    tiles: frozenset[int]
    shapes: frozenset[ShapeKind]
    options_type: type[Options]
    context_fields: tuple[str, ...]
    minimum: int
    score: Callable[[Hand, WinContext, Any], Evaluation]
    check_context: Callable[[Hand, WinContext, Any], None] = _no_check
    allow_quad_pairs: bool = True
    tiles_note: str = ""  # said after a BAD_TILE message, e.g. "which uses characters and honours only"
    # Analyze in the rule set's own way (hand, visible, options -> Analysis; tiles and options already
    # checked) where its answer adds to the shared analysis (Sichuan: the void suit, the wall's-end value);
    # None: engine.analysis over `tiles`.
    analyze: Callable[[Hand, Sequence[int], Any], Analysis] | None = None
    red_fives: bool = False
    referee: Any = None  # engine.referee.Referee: Legal and Settle on a hand's log (the rule set's referee.py)
    default_options: Options = field(init=False)
    unread_context: tuple[tuple[str, Any], ...] = field(init=False)
    # The unread fields' values of a context, in one C call, and what they are in a context that sets
    # none of them (WinContext()): check_unread's usual case is one comparison.
    _unread_values: Callable[[WinContext], Any] = field(init=False, repr=False, compare=False)
    _unread_defaults: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        unknown = [f for f in self.context_fields if f not in CONTEXT_FIELDS]
        if unknown:
            raise ValueError(f"rule set {self.name}: unknown context fields {unknown}")
        object.__setattr__(self, "default_options", self.options_type())
        unread = tuple((n, d) for n, d in CONTEXT_DEFAULTS if n not in self.context_fields)
        object.__setattr__(self, "unread_context", unread)
        values: Callable[[WinContext], Any] = attrgetter(*(n for n, _ in unread)) if unread else _nothing
        object.__setattr__(self, "_unread_values", values)
        object.__setattr__(self, "_unread_defaults", values(WinContext()))

    def check_unread(self, hand: Hand, context: WinContext) -> None:
        """BAD_CONTEXT naming the first field the request sets that this rule set does not read."""
        if self._unread_values(context) != self._unread_defaults:
            for name, default in self.unread_context:
                if getattr(context, name) != default:
                    raise BadContextError(f"{name}: {self.name} does not read this field ({self.title} has no use "
                                          "for it); leave it unset", name)
        if hand.red_fives and not self.red_fives:
            raise BadContextError(f"red_fives: {self.name} plays no red fives; leave hand.red_fives empty",
                                  "red_fives")

    # The names the rest of the engine has always used.
    @property
    def fans(self) -> tuple[FanDef, ...]:
        return self.table.defs

    @property
    def min_points(self) -> int:
        return self.minimum

    @property
    def tile_kinds(self) -> frozenset[int]:
        return self.tiles

    def options(self, values: Options | Mapping[str, Any] | None = None) -> Options:
        """Typed options from None (the defaults), a mapping of the fields set, or typed options."""
        if values is None:
            return self.default_options
        if isinstance(values, Options):
            if not isinstance(values, self.options_type):
                raise BadOptionError(f"options: {type(values).__name__} are not options of {self.name}",
                                     f"options.{self.name}")
            return values
        return self.options_type.from_mapping(values)

    def check_tiles(self, hand: Hand) -> None:
        """BAD_TILE naming the field for a tile this rule set does not play with."""
        if self.tiles is ALL_TILES:
            return
        tiles = self.tiles
        where = [("concealed", t) for t in hand.concealed]
        where += [(f"melds[{i}].tiles", t) for i, m in enumerate(hand.melds) for t in m.tiles]
        if hand.winning_tile is not None:
            where.append(("winning_tile", hand.winning_tile))
        for name, t in where:
            if t not in tiles:
                note = f", {self.tiles_note}" if self.tiles_note else ""
                raise BadTileError(f"{name}: {format_tile(t)} ({tile_name(t)}) is not played in {self.name}{note}",
                                   name)

    def evaluate(self, hand: Hand, context: WinContext, options: Options | Mapping[str, Any] | None = None
                 ) -> Evaluation:
        """Score a validated 14-tile hand (engine.api.evaluate also runs the shared context checks)."""
        # What `options`, `check_tiles` and the default `check_context` would answer for the usual call
        # (default options, a rule set playing every tile, no checks of its own), without the calls.
        opts = self.default_options if options is None else self.options(options)
        if self.tiles is not ALL_TILES:
            self.check_tiles(hand)
        if self.check_context is not _no_check:
            self.check_context(hand, context, opts)
        return self.score(hand, context, opts)
