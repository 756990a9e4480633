"""The one conversion layer between the mahjong.v1 protobuf messages and the engine's types.

Inbound, every message is validated while it is converted and any fault raises an engine error whose
`field` is the path in the request (`hand.melds[1].tiles`), so the batch tool and the server report
the same thing. Outbound, the engine's result dataclasses become response messages.

Proto enums are offset from the engine's: Tile value = tile index + 1 (0 = unspecified), Wind value =
engine wind + 1 with 0 read as east, and MeldKind / ClaimedFrom / SetKind share their numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final, cast

from engine import rules
from engine.errors import BadContextError, BadMeldError, BadOptionError, BadTileError, EngineError
from engine.hand import (
    ClaimedFrom,
    Flower,
    Hand,
    Meld,
    MeldKind,
    PriorKong,
    Suit,
    WinContext,
    Wind,
    make_hand,
    make_meld,
    winning_hand,
)
from engine.results import Analysis, DiscardOption, Evaluation, FanDef, FanHit, Scoring, TileCount
from engine.shapes import Decomposition, ShapeKind, TileSet
from engine.tiles import NUM_FLOWERS, NUM_KINDS
from mjsvc import limits
from mjsvc.errors import qualify
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.wire import (
    encode_varint,
    int_field,
    message_field,
    message_header,
    read_length,
    read_varint,
    skip_field,
)

# Values given to proto enum fields are typed Any: they are ints at run time, and the generated stubs type
# such fields as their enum class.
_SHAPES_TO_PROTO: Final[dict[ShapeKind, Any]] = {
    ShapeKind.STANDARD: pb.SHAPE_KIND_STANDARD,
    ShapeKind.SEVEN_PAIRS: pb.SHAPE_KIND_SEVEN_PAIRS,
    ShapeKind.THIRTEEN_ORPHANS: pb.SHAPE_KIND_THIRTEEN_ORPHANS,
    ShapeKind.HONORS_KNITTED: pb.SHAPE_KIND_HONORS_AND_KNITTED,
    ShapeKind.KNITTED_STRAIGHT: pb.SHAPE_KIND_KNITTED_STRAIGHT,
}
_WINDS: Final = {0: Wind.EAST, 1: Wind.EAST, 2: Wind.SOUTH, 3: Wind.WEST, 4: Wind.NORTH}


# ---------------------------------------------------------------------------------------------
# proto -> engine


def tile_from_proto(value: int, field: str) -> int:
    """A proto Tile value as an engine index; TILE_UNSPECIFIED and unknown values are BAD_TILE."""
    if 1 <= value <= NUM_KINDS:
        return value - 1
    if value == pb.TILE_UNSPECIFIED:
        raise BadTileError(f"{field}: TILE_UNSPECIFIED is not a tile", field)
    raise BadTileError(f"{field}: {value} is not a Tile value (1..{NUM_KINDS})", field)


def tiles_from_proto(values: Iterable[int], field: str) -> list[int]:
    read = values if type(values) is list else list(values)
    found = _proto_tiles(read)
    if found is not None:
        return found
    return [tile_from_proto(v, f"{field}[{i}]") for i, v in enumerate(read)]


def _proto_tiles(values: list[int]) -> list[int] | None:
    """Engine indices of proto Tile values; None when one is not a tile (`tiles_from_proto` names it).
    One compiled pass over the list, each value checked as it is converted (requests carry dozens: the
    visible tiles)."""
    out: list[int] = []
    for v in values:
        if v < 1 or v > NUM_KINDS:
            return None
        out.append(v - 1)
    return out


def meld_from_proto(msg: pb.Meld, field: str) -> Meld:
    if msg.kind not in (pb.MELD_KIND_CHOW, pb.MELD_KIND_PUNG, pb.MELD_KIND_KONG):
        what = "MELD_KIND_UNSPECIFIED" if msg.kind == 0 else str(msg.kind)
        raise BadMeldError(f"{field}.kind: {what} is not chow, pung or kong", f"{field}.kind")
    if msg.claimed_from not in (0, 1, 2, 3):
        raise BadMeldError(f"{field}.claimed_from: {msg.claimed_from} is not a ClaimedFrom value",
                           f"{field}.claimed_from")
    tiles = tiles_from_proto(msg.tiles, f"{field}.tiles")
    return make_meld(
        MeldKind(msg.kind),
        tiles,
        concealed=msg.concealed,
        added=msg.added,
        claimed_from=ClaimedFrom(msg.claimed_from),
        claimed_index=msg.claimed_index if msg.HasField("claimed_index") else None,
        field=field,
    )


def hand_from_proto(msg: pb.Hand, *, winning: bool, field: str = "hand") -> Hand:
    """A validated engine Hand. `winning`: a 14-tile win that needs its winning tile (Evaluate);
    otherwise a 13- or 14-tile hand to analyse, the winning tile optional."""
    # Field names are written only for an error: the usual hand is read without building one.
    # a slice of the repeated field: a list (of ints; the stubs say Tile values), at half list()'s cost
    concealed = _proto_tiles(cast(list[int], msg.concealed[:]))
    if concealed is None:
        concealed = tiles_from_proto(msg.concealed, f"{field}.concealed")
    in_melds = msg.melds
    melds = _melds_from_proto(in_melds, field) if len(in_melds) else []
    w = msg.winning_tile
    win = w - 1 if 1 <= w <= NUM_KINDS else tile_from_proto(w, f"{field}.winning_tile") if w else None
    reds = tiles_from_proto(msg.red_fives, f"{field}.red_fives") if msg.red_fives else ()
    if not reds:
        plain = _plain_hand(concealed, melds, win, winning)
        if plain is not None:
            return plain
    try:
        if winning:
            return winning_hand(concealed, melds, win, reds)
        return make_hand(concealed, melds, win, sizes=(13, 14), red_fives=reds)
    except EngineError as err:
        raise qualify(err, f"{field}.") from None


def _melds_from_proto(in_melds: Sequence[pb.Meld], field: str) -> list[Meld]:
    """The hand's melds, each one read before handed out again (see `_MELDS`); a bad meld is read by
    `meld_from_proto`, which names it, and never kept."""
    out = []
    for i, m in enumerate(in_melds):
        key = m.SerializeToString()
        meld = _MELDS.get(key)
        if meld is None:
            meld = meld_from_proto(m, f"{field}.melds[{i}]")
            if len(key) <= _MELD_BYTES:
                if len(_MELDS) >= _MELDS_KEPT:
                    _MELDS.clear()
                _MELDS[key] = meld
        out.append(meld)
    return out


# Melds by the bytes of their message (which only that content serializes to). A Meld is immutable and the
# valid ones are few (a few thousand, even counting every order of a chow's tiles and every claim), so each
# is read and checked once and handed out again: make_meld's checks and enum conversions cost a meld 7 µs.
# Only messages of a meld's usual size are kept (a valid meld with fields this server does not know is read
# each time), so the table holds at most _MELDS_KEPT small keys.
_MELDS: Final[dict[bytes, Meld]] = {}
_MELDS_KEPT = 8192
_MELD_BYTES: Final = 24  # a meld with every field set writes at most 16


def _plain_hand(concealed: list[int], melds: list[Meld], win: int | None, winning: bool) -> Hand | None:
    """The usual hand, no red fives, when `make_hand` would accept it (the size it asks for, so at most four
    melds; no kind over four across hand, melds and winning tile): the same Hand, built without its general
    checks (the tiles and melds were checked as they were read). None for anything else, which `make_hand`
    then answers or refuses. tests/unit/test_convert.py holds this to make_hand on random hands."""
    size = len(concealed) + 3 * len(melds) + (win is not None)
    if win is None and winning or size != 14 and (winning or size != 13):
        return None
    concealed.sort()
    every = concealed  # every tile of the hand, sorted: a kind over four is five equal tiles in a row
    if win is not None or melds:
        every = concealed + [win] if win is not None else concealed[:]
        for meld in melds:
            every.extend(meld.tiles)
        every.sort()
    for i in range(len(every) - 4):
        if every[i] == every[i + 4]:
            return None
    return _hand(tuple(concealed), tuple(melds), win)


def _hand(concealed: tuple[int, ...], melds: tuple[Meld, ...], win: int | None) -> Hand:
    """`Hand(concealed, melds, win)`, made the way its dataclass `__init__` makes it (each field set through
    `object.__setattr__`, as a frozen dataclass does). That `__init__` is generated at run time and so runs
    interpreted: it cost a compiled caller more than reading the whole hand besides (about 6,500 instructions
    a call, against about 1,000 here). tests/unit/test_convert.py holds the two to the same object."""
    hand = object.__new__(Hand)
    object.__setattr__(hand, "concealed", concealed)
    object.__setattr__(hand, "melds", melds)
    object.__setattr__(hand, "winning_tile", win)
    object.__setattr__(hand, "red_fives", ())
    return hand


def _wind(value: int, field: str) -> Wind:
    try:
        return _WINDS[value]
    except KeyError:
        raise BadContextError(f"{field}: {value} is not a Wind value", field) from None


def context_from_proto(msg: pb.WinContext, field: str = "context") -> WinContext:
    """The win context; a wind left unspecified is east. Range and consistency checks are the engine's
    (`engine.hand.validate_context`), run by the caller once the hand is known.

    A table sends the same few contexts again and again (a self-draw in the south seat...), and a WinContext
    is immutable: each one read is kept by the message's bytes (which only this content serializes to) and
    handed out again, saving its 37-field constructor. Bounded; a context that fails is never kept
    (tests/unit/test_convert_wire_eval.py compares it with the field-by-field reading)."""
    key = msg.SerializeToString()
    ctx = _CONTEXTS.get(key)
    if ctx is None:
        ctx = _context_set_fields(msg, field)
        if len(_CONTEXTS) >= _CONTEXTS_KEPT:
            _CONTEXTS.clear()
        _CONTEXTS[key] = ctx
    return ctx


_CONTEXTS: Final[dict[bytes, WinContext]] = {}
_CONTEXTS_KEPT = 4096


def _context_set_fields(msg: pb.WinContext, field: str) -> WinContext:
    """The context read from the fields the client set.

    Only the fields the client set are read (`ListFields`, one call into protobuf; an unset field is the
    WinContext default, as the field-by-field reading gives): each through a table of the values it may
    hold. A value outside its table takes the field-by-field path (`_context_fields`), which names the first
    bad field in its order, so errors are the same (tests/unit/test_convert_wire_eval.py compares the two)."""
    kwargs: dict[str, Any] = {}
    try:
        for desc, value in msg.ListFields():
            name = desc.name
            table = _CONTEXT_VALUES.get(name)
            if table is None:  # a bool or a count: as it is
                kwargs[name] = value
            elif table is _TILE_LIST:
                tiles = _proto_tiles(cast(list[int], value[:]))
                if tiles is None:
                    raise KeyError(name)
                kwargs[name] = tuple(tiles)
            elif name in _REPEATED_CONTEXT:
                kwargs[name] = tuple([table[v] for v in value])
            else:
                kwargs[name] = table[value]
    except KeyError:
        return _context_fields(msg, field)
    return WinContext(**kwargs)


_TILE_LIST: Final[dict[int, Any]] = {}  # marks the repeated Tile fields (engine index = value - 1)
_REPEATED_CONTEXT: Final = frozenset(("seats_out", "other_winners", "flower_tiles"))
_CLAIMED: Final = {v: ClaimedFrom(v) for v in (0, 1, 2, 3)}
_CONTEXT_VALUES: Final[dict[str, dict[int, Any]]] = {
    "seat_wind": _WINDS, "prevalent_wind": _WINDS, "seats_out": _WINDS, "other_winners": _WINDS,
    "dora_indicators": _TILE_LIST, "ura_dora_indicators": _TILE_LIST, "horse_tiles": _TILE_LIST,
    "discarded_by": _CLAIMED, "prior_kong_claimed_from": _CLAIMED, "kong_fed_by": _CLAIMED, "liable": _CLAIMED,
    "void_suit": {0: None, 1: Suit(0), 2: Suit(1), 3: Suit(2)},
    "prior_kong": {v: PriorKong(v) for v in (0, 1, 2, 3, 4)},
    "flower_tiles": {v: Flower(v - 1) for v in range(1, NUM_FLOWERS + 1)},
}


def _context_fields(msg: pb.WinContext, field: str) -> WinContext:
    """The context read field by field: every check in WinContext's order (the first bad field is named)."""
    return WinContext(
        self_drawn=msg.self_drawn,
        last_of_kind=msg.last_of_kind,
        replacement_tile=msg.replacement_tile,
        robbing_kong=msg.robbing_kong,
        last_wall_tile=msg.last_wall_tile,
        seat_wind=_wind(msg.seat_wind, f"{field}.seat_wind"),
        prevalent_wind=_wind(msg.prevalent_wind, f"{field}.prevalent_wind"),
        flowers=msg.flowers,
        heavenly=msg.heavenly,
        earthly=msg.earthly,
        ready_declared=msg.ready_declared,
        heavenly_ready=msg.heavenly_ready,
        riichi=msg.riichi,
        double_riichi=msg.double_riichi,
        ippatsu=msg.ippatsu,
        dora_indicators=tuple(tiles_from_proto(msg.dora_indicators, f"{field}.dora_indicators")),
        ura_dora_indicators=tuple(tiles_from_proto(msg.ura_dora_indicators, f"{field}.ura_dora_indicators")),
        honba=msg.honba,
        riichi_sticks=msg.riichi_sticks,
        discarded_by=_claimed_from(msg.discarded_by, f"{field}.discarded_by"),
        void_suit=_suit(msg.void_suit, f"{field}.void_suit"),
        after_kong_discard=msg.after_kong_discard,
        seats_out=tuple(_wind(w, f"{field}.seats_out") for w in msg.seats_out),
        prior_kong=_prior_kong(msg.prior_kong, f"{field}.prior_kong"),
        prior_kong_claimed_from=_claimed_from(msg.prior_kong_claimed_from, f"{field}.prior_kong_claimed_from"),
        other_winners=tuple(_wind(w, f"{field}.other_winners") for w in msg.other_winners),
        flower_tiles=_flowers(msg.flower_tiles, f"{field}.flower_tiles") if msg.flower_tiles else (),
        follow_dealer=msg.follow_dealer,
        horse_tiles=tuple(tiles_from_proto(msg.horse_tiles, f"{field}.horse_tiles")),
        kong_fed_by=_claimed_from(msg.kong_fed_by, f"{field}.kong_fed_by"),
        liable=_claimed_from(msg.liable, f"{field}.liable"),
        kita=msg.kita,
        streak=msg.streak,
        kong_on_kong=msg.kong_on_kong,
        flower_win=msg.flower_win,
    )


def _prior_kong(value: int, field: str) -> PriorKong:
    """SichuanKong and PriorKong share their numbers (0: none given)."""
    if value not in (0, 1, 2, 3, 4):
        raise BadContextError(f"{field}: {value} is not a SichuanKong value", field)
    return PriorKong(value)


def _flowers(values: Iterable[int], field: str) -> tuple[Flower, ...]:
    """Proto Flower values (1-8) as engine Flowers (0-7); FLOWER_UNSPECIFIED and unknown values are BAD_CONTEXT.
    Repeats are the engine's to report (validate_context)."""
    out = []
    for i, v in enumerate(values):
        if not 1 <= v <= NUM_FLOWERS:
            what = "FLOWER_UNSPECIFIED" if v == 0 else str(v)
            raise BadContextError(f"{field}[{i}]: {what} is not a flower (FLOWER_PLUM ... FLOWER_WINTER)",
                                  f"{field}[{i}]")
        out.append(Flower(v - 1))
    return tuple(out)


def options_from_proto(rule_set: str, msg: pb.RuleOptions | None, field: str = "options") -> dict[str, Any] | None:
    """The options a client set, as the plain mapping `RuleSet.options` checks and types: the fields
    present in the sub-message named after `rule_set` (RuleOptions.riichi for "riichi", ...; a rule set
    adds its sub-message to the proto and nothing here). None when nothing is set (the defaults).
    Options for another rule set than the one asked for are BAD_OPTION naming the sub-message."""
    if msg is None:
        return None
    present = msg.ListFields()
    if not present:
        return None
    out: dict[str, Any] | None = None
    for desc, sub in present:
        if desc.name != rule_set:
            raise BadOptionError(f"{field}.{desc.name}: options of {desc.name} given for rule set {rule_set!r}",
                                 f"{field}.{desc.name}")
        out = {d.name: _option_value(rule_set, d.name, value, f"{field}.{desc.name}.{d.name}")
               for d, value in sub.ListFields()}
    return out or None


def _option_value(rule_set: str, name: str, value: Any, field: str) -> Any:
    """An option's wire value in engine terms, as the rule set's options type maps it (`Options.from_wire`,
    given how the wire's shared enums read: `WIRE`); enums that share the engine's numbers pass as they are."""
    return rules.get(rule_set).options_type.from_wire(name, value, field, WIRE)


class _Wire:
    """How the proto's shared enums read (engine.rules.model.Wire), for the rule sets' `Options.from_wire`."""

    def tiles(self, values: Iterable[int], field: str) -> tuple[int, ...]:
        return tuple(tiles_from_proto(values, field))

    def suit(self, value: int) -> Suit | None:
        return Suit(value - 1) if value in (1, 2, 3) else None

    def wind(self, value: int) -> Wind | None:
        return Wind(value - 1) if value in (1, 2, 3, 4) else None

    def name(self, enum: str, value: int) -> str:
        wire_enum = pb.DESCRIPTOR.enum_types_by_name[enum]
        known = wire_enum.values_by_number.get(value)
        return known.name if known is not None else str(value)


WIRE = _Wire()


# Until these rule sets' options.py map their own wire values (`from_wire`), their mapping stays here.
def _claimed_from(value: int, field: str) -> ClaimedFrom:
    if value not in (0, 1, 2, 3):
        raise BadContextError(f"{field}: {value} is not a ClaimedFrom value", field)
    return ClaimedFrom(value)


def _suit(value: int, field: str) -> Suit | None:
    """SUIT_UNSPECIFIED (0) is no suit; 1-3 are the engine's suits 0-2."""
    if value == 0:
        return None
    if value not in (1, 2, 3):
        raise BadContextError(f"{field}: {value} is not a Suit value", field)
    return Suit(value - 1)


# ---------------------------------------------------------------------------------------------
# A request read in one pass, its limits checked as it is read
#
# The plain path walks a request twice: `limits.check` reads every limited field, then `hand_from_proto`
# and `context_from_proto` read them again (each read of a field builds a new protobuf container: about a
# quarter of an Evaluate's work around the engine). `read_evaluate` and `read_analyze` read the usual request
# once and hold each field to its limit as they go. They answer only what the plain path would answer
# without a fault: every limit held, no options, no red fives, each meld and the context already read once
# by the plain path (so found in `_MELDS` / `_CONTEXTS`), the hand of the usual shape (`_plain_hand`).
# Anything else is None, and the caller takes the plain path, which answers it or names its fault in the
# usual order. tests/unit/test_request_reading.py holds the two paths to the same answers and errors.
#
# They read the request's bytes as protobuf wrote them once it had parsed the request (the cache key, made
# on every call anyway), not the message's attributes: each attribute read makes a protobuf container or a
# list (about 1,000 instructions each; a hand took five, the visible tiles a list of Python ints), where a
# tag, a tile or a length is one byte here. A meld or the context is looked up by its own bytes, a slice of
# these (protobuf writes a sub-message inside its parent as it writes it alone). Fields this reading does not
# use are passed over as protobuf passes over them. Requests are still parsed by protobuf only: these bytes
# are protobuf's output, never the client's.
#
# What they check is derived from `limits.LIMITS` (`limits.limited_fields`): a limited field this reading
# does not cover (one added to the contract later) turns it off (`READS_AHEAD` False; a test fails).

_EVALUATE_LIMITS: Final = limits.limited_fields(pb.EvaluateRequest)
_ANALYZE_LIMITS: Final = limits.limited_fields(pb.AnalyzeRequest)
_HAND_READ: Final = ("hand.concealed", "hand.melds", "hand.melds[].tiles", "hand.red_fives")
# The context's limited lists, checked on the WinContext kept for its bytes (one element per value read)
_CONTEXT_LIMITS: Final = tuple((path[len("context."):], limit) for path, limit in _EVALUATE_LIMITS.items()
                               if path.startswith("context."))


def _covered(limited: dict[str, int], read: tuple[str, ...]) -> bool:
    """Whether every limited path is read here: by name, under `options` (read only when unset), or a list
    directly in the context."""
    for path in limited:
        if path in read or path.startswith("options."):
            continue
        if not path.startswith("context.") or "." in path[len("context."):] or "[" in path:
            return False
    return True


READS_AHEAD: Final = (_covered(_EVALUATE_LIMITS, ("rule_set",) + _HAND_READ)
                      and _covered(_ANALYZE_LIMITS, ("rule_set", "visible") + _HAND_READ))
_RULE_SET_LIMIT: Final = _EVALUATE_LIMITS.get("rule_set", 0)
_A_RULE_SET_LIMIT: Final = _ANALYZE_LIMITS.get("rule_set", 0)
_CONCEALED_LIMIT: Final = _EVALUATE_LIMITS.get("hand.concealed", 0)
_MELDS_LIMIT: Final = _EVALUATE_LIMITS.get("hand.melds", 0)
_MELD_TILES_LIMIT: Final = _EVALUATE_LIMITS.get("hand.melds[].tiles", 0)
_VISIBLE_LIMIT: Final = _ANALYZE_LIMITS.get("visible", 0)


def _tag(message: Any, name: str, wire_type: int) -> int:
    """The tag protobuf writes before field `name` of `message` with this wire type."""
    return int(message.DESCRIPTOR.fields_by_name[name].number) << 3 | wire_type


_VARINT, _LENGTH = 0, 2  # the wire types read here
_RULE_SET_TAG: Final = _tag(pb.EvaluateRequest, "rule_set", _LENGTH)
_HAND_TAG: Final = _tag(pb.EvaluateRequest, "hand", _LENGTH)
_OPTIONS_TAG: Final = _tag(pb.EvaluateRequest, "options", _LENGTH)
_CONTEXT_TAG: Final = _tag(pb.EvaluateRequest, "context", _LENGTH)
_A_RULE_SET_TAG: Final = _tag(pb.AnalyzeRequest, "rule_set", _LENGTH)
_A_HAND_TAG: Final = _tag(pb.AnalyzeRequest, "hand", _LENGTH)
_A_OPTIONS_TAG: Final = _tag(pb.AnalyzeRequest, "options", _LENGTH)
_VISIBLE_TAG: Final = _tag(pb.AnalyzeRequest, "visible", _LENGTH)
_VISIBLE_ONE_TAG: Final = _tag(pb.AnalyzeRequest, "visible", _VARINT)
_CONCEALED_TAG: Final = _tag(pb.Hand, "concealed", _LENGTH)
_CONCEALED_ONE_TAG: Final = _tag(pb.Hand, "concealed", _VARINT)
_MELD_TAG: Final = _tag(pb.Hand, "melds", _LENGTH)
_WINNING_TAG: Final = _tag(pb.Hand, "winning_tile", _VARINT)
_RED_FIVES_NUMBER: Final = _tag(pb.Hand, "red_fives", 0) >> 3


def _tiles_into(out: list[int], raw: bytes, pos: int, end: int, limit: int) -> bool:
    """Append the packed Tile values in raw[pos:end] to `out` as engine indices; False when one is not a
    tile or `out` would pass `limit` elements (then `tiles_from_proto` or `limits.check` names it). A tile's
    varint is one byte (1-34); a byte with the continuation bit (0x80 up) is over 34, so a longer value
    is never taken for a tile."""
    while pos < end:
        v = raw[pos]  # a tile is one byte; anything longer is not one
        if v < 1 or v > NUM_KINDS or len(out) >= limit:
            return False
        out.append(v - 1)
        pos += 1
    return True


def read_evaluate(raw: bytes) -> tuple[Hand, WinContext] | None:
    """The hand and context of the usual Evaluate request, its limits held as it is read; None for anything
    else (see above): then `limits.check`, `hand_from_proto` and `context_from_proto` answer it. `raw` is
    the request as protobuf serialized it once parsed (the cache key: `ResponseCache.key`)."""
    if not READS_AHEAD:
        return None
    hand: Hand | None = None
    context = b""
    pos, end = 0, len(raw)
    try:
        while pos < end:
            tag, pos = read_varint(raw, pos, end)
            if tag == _HAND_TAG:
                n, pos = read_length(raw, pos, end)
                hand = _read_hand(raw, pos, pos + n, True)
                if hand is None:
                    return None
                pos += n
            elif tag == _CONTEXT_TAG:
                n, pos = read_length(raw, pos, end)
                context = raw[pos:pos + n]
                pos += n
            elif tag in (_RULE_SET_TAG, _OPTIONS_TAG):
                # options are read by the plain path; a name of more bytes than its limit has characters
                # is held to the limit (by characters) there
                if tag == _OPTIONS_TAG or read_varint(raw, pos, end)[0] > _RULE_SET_LIMIT:
                    return None
                pos = skip_field(raw, pos, end, tag)
            else:
                pos = skip_field(raw, pos, end, tag)
    except IndexError:
        return None
    if hand is None:
        return None
    ctx = _CONTEXTS.get(context)
    if ctx is None:
        return None
    for name, limit in _CONTEXT_LIMITS:
        if len(getattr(ctx, name)) > limit:
            return None
    return hand, ctx


def read_analyze(raw: bytes) -> tuple[Hand, list[int]] | None:
    """The hand and visible tiles of the usual Analyze request, as `read_evaluate` reads an Evaluate."""
    if not READS_AHEAD:
        return None
    hand: Hand | None = None
    visible: list[int] = []
    pos, end = 0, len(raw)
    try:
        while pos < end:
            tag, pos = read_varint(raw, pos, end)
            if tag == _VISIBLE_TAG:
                n, pos = read_length(raw, pos, end)
                if not _tiles_into(visible, raw, pos, pos + n, _VISIBLE_LIMIT):
                    return None
                pos += n
            elif tag == _A_HAND_TAG:
                n, pos = read_length(raw, pos, end)
                hand = _read_hand(raw, pos, pos + n, False)
                if hand is None:
                    return None
                pos += n
            elif tag == _VISIBLE_ONE_TAG:  # one tile, unpacked: its one byte
                if pos >= end or not _tiles_into(visible, raw, pos, pos + 1, _VISIBLE_LIMIT):
                    return None
                pos += 1
            elif tag in (_A_RULE_SET_TAG, _A_OPTIONS_TAG):
                if tag == _A_OPTIONS_TAG or read_varint(raw, pos, end)[0] > _A_RULE_SET_LIMIT:
                    return None
                pos = skip_field(raw, pos, end, tag)
            else:
                pos = skip_field(raw, pos, end, tag)
    except IndexError:
        return None
    if hand is None:
        return None
    return hand, visible


def _read_hand(raw: bytes, pos: int, end: int, winning: bool) -> Hand | None:
    """`hand_from_proto`'s usual hand from the Hand message in raw[pos:end], its limits held; None where
    that reading would do more: red fives, a meld not read before (`_MELDS`), a value not a tile."""
    concealed: list[int] = []
    melds: list[Meld] = []
    win: int | None = None
    while pos < end:
        tag, pos = read_varint(raw, pos, end)
        if tag == _CONCEALED_TAG:
            n, pos = read_length(raw, pos, end)
            if not _tiles_into(concealed, raw, pos, pos + n, _CONCEALED_LIMIT):
                return None
            pos += n
        elif tag == _MELD_TAG:
            n, pos = read_length(raw, pos, end)
            meld = _MELDS.get(raw[pos:pos + n])
            if meld is None or len(meld.tiles) > _MELD_TILES_LIMIT or len(melds) >= _MELDS_LIMIT:
                return None
            melds.append(meld)
            pos += n
        elif tag == _WINNING_TAG:
            w, pos = read_varint(raw, pos, end)
            if not 1 <= w <= NUM_KINDS:
                return None  # not a tile (protobuf writes no zero)
            win = w - 1
        elif tag == _CONCEALED_ONE_TAG:  # one tile, unpacked: its one byte
            if pos >= end or not _tiles_into(concealed, raw, pos, pos + 1, _CONCEALED_LIMIT):
                return None
            pos += 1
        elif tag >> 3 == _RED_FIVES_NUMBER:
            return None
        else:
            pos = skip_field(raw, pos, end, tag)
    return _plain_hand(concealed, melds, win, winning)


# ---------------------------------------------------------------------------------------------
# engine -> proto


def _enum(value: int) -> Any:
    return value


def _tc(tc: TileCount) -> pb.TileCount:
    return pb.TileCount(tile=_enum(tc.tile + 1), remaining=tc.remaining, all_copies_held=tc.all_copies_held)


def _discard(d: DiscardOption) -> pb.DiscardOption:
    return pb.DiscardOption(tile=_enum(d.tile + 1), shanten=d.shanten, useful_tiles=[_tc(t) for t in d.useful_tiles],
                            useful_count=d.useful_count)


def analysis_to_wire(a: Analysis) -> bytes:
    """`analysis_to_proto(a).SerializeToString()`, written directly: discard advice lists hundreds of
    TileCounts, and building them as messages cost more than the analysis itself (the Play and
    Analyze paths answer with these bytes). Field order and encoding are protobuf's own. Every piece
    goes into one list joined once: a discard's header is put in front of its fields when their length
    is known."""
    parts = [int_field(1, a.shanten)]
    _add_tile_counts(parts, a.waits, _TILE_COUNTS_2, 2)
    _add_tile_counts(parts, a.useful_tiles, _TILE_COUNTS_3, 3)
    for d in a.discards:
        tile, shanten, count = _TILE_FIELD[d.tile], int_field(2, d.shanten), int_field(4, d.useful_count)
        at = len(parts)
        parts.append(b"")  # the header, once the size is known
        parts.append(tile)
        parts.append(shanten)
        size = len(tile) + len(shanten) + len(count) + _add_tile_counts(parts, d.useful_tiles, _TILE_COUNTS_3, 3)
        parts.append(count)
        parts[at] = message_header(4, size)
    for k, n in a.shanten_by_shape:
        parts.append(message_field(5, int_field(1, _SHAPES_TO_PROTO[k]) + int_field(2, n)))
    parts.append(int_field(6, a.useful_count))
    if a.max_value:
        parts.append(int_field(7, a.max_value))
    return b"".join(parts)


def _tile_count_bytes(tile: int, remaining: int, held: bool) -> bytes:
    return int_field(1, tile + 1) + int_field(2, remaining) + int_field(3, held)


_TILE_FIELD: Final = tuple(int_field(1, t + 1) for t in range(NUM_KINDS))  # a DiscardOption's tile, framed


def _framed_counts(field_number: int) -> tuple[tuple[bytes, ...], ...]:
    """Framed TileCount fields for every tile with 0-4 copies left (all there can be), as field
    `field_number`: [tile][remaining * 2 + all_copies_held]."""
    return tuple(tuple(message_field(field_number, _tile_count_bytes(t, r, h)) for r in range(5) for h in (False, True))
                 for t in range(NUM_KINDS))


_TILE_COUNTS_2: Final = _framed_counts(2)
_TILE_COUNTS_3: Final = _framed_counts(3)


def _add_tile_counts(parts: list[bytes], tcs: tuple[TileCount, ...], table: tuple[tuple[bytes, ...], ...],
                     field_number: int) -> int:
    """Appends each TileCount framed as field `field_number` (`table`: its framed fields); returns their
    length. A count the table does not hold (not one the engine gives) is written field by field."""
    size = 0
    for t in tcs:
        tile, remaining = t.tile, t.remaining
        if 0 <= tile < NUM_KINDS and 0 <= remaining <= 4:
            piece = table[tile][remaining * 2 + (1 if t.all_copies_held else 0)]
        else:
            piece = message_field(field_number, _tile_count_bytes(tile, remaining, t.all_copies_held))
        parts.append(piece)
        size += len(piece)
    return size


def analysis_to_proto(a: Analysis) -> pb.AnalyzeResponse:
    return pb.AnalyzeResponse(
        shanten=a.shanten,
        waits=[_tc(t) for t in a.waits],
        useful_tiles=[_tc(t) for t in a.useful_tiles],
        discards=[_discard(d) for d in a.discards],
        shanten_by_shape=[pb.ShapeShanten(shape=_SHAPES_TO_PROTO[k], shanten=s) for k, s in a.shanten_by_shape],
        useful_count=a.useful_count,
        max_value=a.max_value,
    )


def _tiles(tiles: Sequence[int]) -> list[Any]:
    return [t + 1 for t in tiles]


def _tile_set(s: TileSet) -> pb.TileSet:
    """`tiles` as held (a wildcard as the tile it is), `wild_as` the kind each wildcard stood for."""
    out = pb.TileSet(kind=_enum(s.kind), tiles=_tiles(s.held), concealed=s.concealed, wild_as=_tiles(s.wild_as))
    if s.meld_index is not None:
        out.meld_index = s.meld_index
    if s.win_offset is not None:
        out.win_offset = s.win_offset
    return out


def decomposition_to_proto(d: Decomposition) -> pb.Decomposition:
    return pb.Decomposition(shape=_SHAPES_TO_PROTO[d.kind], sets=[_tile_set(s) for s in d.sets],
                            knitted=_tiles(d.knitted))


def _fan(h: FanHit) -> pb.Fan:
    f = h.fan
    return pb.Fan(id=f.id, name=f.name, name_zh=f.name_zh, points=f.points, count=h.count,
                  set_indices=h.set_indices, tiles=_tiles(h.tiles))


def scoring_to_proto(s: Scoring) -> pb.Scoring:
    out = pb.Scoring(fans=[_fan(h) for h in s.fans], total=s.total, meets_minimum=s.meets_minimum,
                     decomposition=decomposition_to_proto(s.decomposition))
    if s.han or s.fu or s.points or s.payments or s.reason:  # rule sets that price or settle a win (Riichi, Sichuan)
        out.han, out.fu, out.yakuman, out.points, out.reason = s.han, s.fu, s.yakuman, s.points, s.reason
        out.payments.extend([pb.Payment(seat_wind=_enum(seat + 1), amount=amount) for seat, amount in s.payments])
        out.fu_parts.extend([pb.FuPart(reason=why, fu=fu) for why, fu in s.fu_parts])
    return out


def evaluation_to_proto(e: Evaluation) -> pb.EvaluateResponse:
    out = pb.EvaluateResponse(is_win=e.is_win, alternatives=[scoring_to_proto(s) for s in e.alternatives])
    if e.best is not None:
        out.best.CopyFrom(scoring_to_proto(e.best))
    return out


def evaluation_to_wire(e: Evaluation) -> bytes:
    """`evaluation_to_proto(e).SerializeToString()`, written directly as wire bytes (as analysis_to_wire):
    building the nested messages cost more than the evaluation itself. Field order and encoding are
    protobuf's own (tests/unit/test_convert_wire.py compares the two on thousands of evaluations)."""
    out = b"\x08\x01" if e.is_win else b""
    if e.best is not None:
        out += message_field(2, _scoring_wire(e.best))
    for s in e.alternatives:
        out += message_field(3, _scoring_wire(s))
    return out


def _scoring_wire(s: Scoring) -> bytes:
    parts = [_fan_wire(h) for h in s.fans]
    parts.append(int_field(2, s.total))
    parts.append(int_field(3, s.meets_minimum))
    parts.append(message_field(4, _decomposition_wire(s.decomposition)))
    if s.han or s.fu or s.points or s.payments or s.reason:  # as scoring_to_proto
        parts += [int_field(5, s.han), int_field(6, s.fu), int_field(7, s.yakuman), int_field(8, s.points)]
        parts += [_payment_wire(seat, amount) for seat, amount in s.payments]
        parts += [message_field(10, _string_field(1, why) + int_field(2, fu)) for why, fu in s.fu_parts]
        parts.append(_string_field(11, s.reason))
    return b"".join(parts)


def _payment_wire(seat: int, amount: int) -> bytes:
    """Scoring.payments (field 9) of one seat, framed; each (seat, amount) written once (a negative amount
    takes ten bytes), in a table of at most _PAYMENTS_KEPT, emptied when full."""
    key = (seat, amount)
    framed = _PAYMENTS.get(key)
    if framed is None:
        if len(_PAYMENTS) >= _PAYMENTS_KEPT:
            _PAYMENTS.clear()
        framed = _PAYMENTS[key] = message_field(9, int_field(1, seat + 1) + int_field(2, amount))
    return framed


_PAYMENTS: Final[dict[tuple[int, int], bytes]] = {}
_PAYMENTS_KEPT: Final = 4096  # the amounts a rule set pays come from a few hundred totals


def _fan_wire(h: FanHit) -> bytes:
    f = h.fan
    cached = _FAN_HEADS.get(id(f))
    if cached is None or cached[0] is not f:  # the fan's constant fields, written once per FanDef
        cached = _FAN_HEADS[id(f)] = (f, _fan_head(f.id, f.name, f.name_zh, f.points), {})
    hits = cached[2]
    key = (h.count, h.set_indices, h.tiles)
    try:
        framed = hits.get(key)
    except TypeError:  # not tuples (not what the engine builds): written without the table
        return message_field(
            1, cached[1] + int_field(5, h.count) + _packed(6, h.set_indices) + _packed_tiles(7, h.tiles))
    if framed is None:  # this fan scored this way: written once (a few thousand ways at most per fan)
        if len(hits) >= 4096:
            hits.clear()
        framed = hits[key] = message_field(
            1, cached[1] + int_field(5, h.count) + _packed(6, h.set_indices) + _packed_tiles(7, h.tiles))
    return framed


def _fan_head(fan_id: int, name: str, name_zh: str, points: int) -> bytes:
    return int_field(1, fan_id) + _string_field(2, name) + _string_field(3, name_zh) + int_field(4, points)


_FAN_HEADS: Final[dict[int, tuple[FanDef, bytes, dict[tuple[int, tuple[int, ...], tuple[int, ...]], bytes]]]] = {}


def _decomposition_wire(d: Decomposition) -> bytes:
    parts = [int_field(1, _SHAPES_TO_PROTO[d.kind])]
    for s in d.sets:
        if s.wild:
            parts.append(message_field(2, _tile_set_body(s)))
            continue
        key = (s.kind, s.first, s.concealed, s.meld_index, s.win_offset)  # every field of a set without wildcards
        framed = _SET_FIELDS.get(key)
        if framed is None:
            if len(_SET_FIELDS) >= 50_000:  # more than the sets there are; kept bounded all the same
                _SET_FIELDS.clear()
            framed = _SET_FIELDS[key] = message_field(2, _tile_set_body(s))
        parts.append(framed)
    parts.append(_packed_tiles(3, d.knitted))
    return b"".join(parts)


_SET_FIELDS: Final[dict[tuple[int, int, bool, int | None, int | None], bytes]] = {}


def _tile_set_body(s: TileSet) -> bytes:
    return (int_field(1, s.kind) + _packed_tiles(2, s.held) + int_field(3, s.concealed)
            + (b"" if s.meld_index is None else _present_int(4, s.meld_index))
            + (b"" if s.win_offset is None else _present_int(5, s.win_offset))
            + _packed_tiles(6, s.wild_as))


def _present_int(field_number: int, value: int) -> bytes:
    """An `optional int32` field that is set: written even when it is zero."""
    return int_field(field_number, value) if value else bytes((field_number << 3, 0))


def _string_field(field_number: int, value: str) -> bytes:
    return message_field(field_number, value.encode()) if value else b""


def _packed(field_number: int, values: Sequence[int]) -> bytes:
    """A packed repeated int32 field (proto3's default for repeated scalars); nothing when empty."""
    if not values:
        return b""
    if all(0 <= v < 128 for v in values):
        return message_field(field_number, bytes(values))
    return message_field(field_number, b"".join([encode_varint(v & 0xFFFFFFFFFFFFFFFF) for v in values]))


def _packed_tiles(field_number: int, tiles: Sequence[int]) -> bytes:
    """Engine tile indices as a packed repeated Tile field (value = index + 1)."""
    if not tiles:
        return b""
    return _packed(field_number, [t + 1 for t in tiles])


def fan_def_to_proto(f: FanDef) -> pb.FanDefinition:
    return pb.FanDefinition(id=f.id, name=f.name, name_zh=f.name_zh, points=f.points, excludes=f.excludes,
                            description=f.description)


def fans_to_proto(rule_set: str, fans: Sequence[FanDef], min_points: int, unit: str = "",
                  context_fields: Sequence[str] = (), tiles: Iterable[int] = ()) -> pb.ListFansResponse:
    return pb.ListFansResponse(rule_set=rule_set, fans=[fan_def_to_proto(f) for f in fans], min_points=min_points,
                               unit=unit, context_fields=context_fields, tiles=tiles_to_proto(sorted(tiles)))


# ---------------------------------------------------------------------------------------------
# engine -> proto requests: what a client sends (the load generator, tests and benches share these)


def tiles_to_proto(tiles: Iterable[int]) -> list[Any]:
    """Engine tile indices as proto Tile values."""
    return [t + 1 for t in tiles]


def meld_to_proto(m: Meld) -> pb.Meld:
    """An engine Meld as the request's Meld (MeldKind and ClaimedFrom share their numbers)."""
    out = pb.Meld(kind=_enum(m.kind), tiles=tiles_to_proto(m.tiles), concealed=m.concealed, added=m.added,
                  claimed_from=_enum(m.claimed_from))
    if m.claimed_index is not None:
        out.claimed_index = m.claimed_index
    return out


def hand_to_proto(concealed: Iterable[int], melds: Iterable[Meld] = (), winning_tile: int | None = None) -> pb.Hand:
    """A request's Hand from engine tile indices and melds; the concealed tiles sorted."""
    out = pb.Hand(concealed=tiles_to_proto(sorted(concealed)), melds=[meld_to_proto(m) for m in melds])
    if winning_tile is not None:
        out.winning_tile = _enum(winning_tile + 1)
    return out


# ---------------------------------------------------------------------------------------------
# The referee (Legal, Settle): a HandLog in, SeatActions and a Settlement out (engine.referee)


def _log_fault(message: str, field: str) -> EngineError:
    from engine.referee import BadLogError

    return BadLogError(f"{field}: {message}", field)


def _seat(value: int, field: str) -> Wind:
    """A seat of the log: a Wind set explicitly (WIND_UNSPECIFIED names no seat)."""
    if value in (1, 2, 3, 4):
        return Wind(value - 1)
    what = "WIND_UNSPECIFIED" if value == 0 else str(value)
    raise _log_fault(f"{what} is not a seat (WIND_EAST ... WIND_NORTH)", field)


def _flower(value: int, field: str) -> Flower:
    if 1 <= value <= NUM_FLOWERS:
        return Flower(value - 1)
    what = "FLOWER_UNSPECIFIED" if value == 0 else str(value)
    raise _log_fault(f"{what} is not a flower (FLOWER_PLUM ... FLOWER_WINTER)", field)


def _event_from_proto(msg: pb.HandEvent, field: str) -> Any:
    from engine import referee as r

    kind = msg.WhichOneof("event")
    if kind is None:
        raise _log_fault("an event with none of its kinds set", field)
    e: Any = getattr(msg, kind)
    at = f"{field}.{kind}"

    def tiles(name: str) -> tuple[int, ...]:
        return tuple(tiles_from_proto(getattr(e, name), f"{at}.{name}"))

    if kind == "deal":
        hands = tuple(r.SeatTiles(_seat(h.seat, f"{at}.hands[{i}].seat"),
                                  tuple(tiles_from_proto(h.tiles, f"{at}.hands[{i}].tiles")),
                                  tuple(tiles_from_proto(h.red_fives, f"{at}.hands[{i}].red_fives")))
                      for i, h in enumerate(e.hands))
        return r.Deal(hands, tiles("dora_indicators"))
    if kind == "draw":
        return r.Draw(_seat(e.seat, f"{at}.seat"), tile_from_proto(e.tile, f"{at}.tile"), e.red)
    if kind == "discard":
        return r.Discard(_seat(e.seat, f"{at}.seat"), tile_from_proto(e.tile, f"{at}.tile"), e.red, e.riichi)
    if kind == "claim":
        if e.kind not in (pb.MELD_KIND_CHOW, pb.MELD_KIND_PUNG, pb.MELD_KIND_KONG):
            raise _log_fault(f"{e.kind} is not chow, pung or kong", f"{at}.kind")
        return r.Claim(_seat(e.seat, f"{at}.seat"), MeldKind(e.kind), tiles("tiles"), tiles("red_fives"))
    if kind == "kong":
        return r.Kong(_seat(e.seat, f"{at}.seat"), tile_from_proto(e.tile, f"{at}.tile"), e.added, e.red)
    if kind == "dora":
        return r.DoraIndicator(tile_from_proto(e.tile, f"{at}.tile"))
    if kind == "win":
        return r.Win(_seat(e.seat, f"{at}.seat"), e.self_drawn, tiles("ura_dora_indicators"), tiles("horses"))
    if kind == "drawn_game":
        if e.kind not in tuple(int(k) for k in r.DrawnGameKind):
            raise _log_fault(f"{e.kind} is not a DrawnGameKind", f"{at}.kind")
        return r.DrawnGame(r.DrawnGameKind(e.kind))
    if kind == "void_suit":
        if e.suit not in (1, 2, 3):
            raise _log_fault(f"{e.suit} is not a suit (SUIT_CHARACTERS, SUIT_DOTS, SUIT_BAMBOO)", f"{at}.suit")
        aside = tile_from_proto(e.set_aside, f"{at}.set_aside") if e.set_aside else None
        return r.VoidSuit(_seat(e.seat, f"{at}.seat"), Suit(e.suit - 1), aside)
    if kind == "flower":
        return r.FlowerTile(_seat(e.seat, f"{at}.seat"), _flower(e.flower, f"{at}.flower"))
    if kind == "exchange":
        return r.ExchangeThree(tuple(
            r.SeatExchange(_seat(x.seat, f"{at}.exchanges[{i}].seat"),
                           tuple(tiles_from_proto(x.tiles, f"{at}.exchanges[{i}].tiles")),
                           _seat(x.to, f"{at}.exchanges[{i}].to"))
            for i, x in enumerate(e.exchanges)))
    if kind == "false_win":
        return r.FalseWin(_seat(e.seat, f"{at}.seat"))
    return r.Kita(_seat(e.seat, f"{at}.seat"))  # the last member of the oneof


def hand_log_from_proto(msg: pb.HandLog, field: str = "log") -> Any:
    """The engine's `engine.referee.HandLog`: the rule set's canonical name and options object, every event
    converted and checked for what the wire alone can say (tiles, seats, enum values); the rules of play
    are the referee's."""
    from engine import referee as r

    try:
        rs = rules.get(msg.rule_set)  # "" : the default, as in EvaluateRequest
        options = rs.options(options_from_proto(rs.name, msg.options, f"{field}.options")
                             if msg.HasField("options") else None)
    except EngineError as err:
        raise qualify(err, f"{field}.") from None
    if msg.honba < 0 or msg.riichi_sticks < 0:
        name = "honba" if msg.honba < 0 else "riichi_sticks"
        raise _log_fault(f"{getattr(msg, name)} is negative", f"{field}.{name}")
    if len(msg.scores) > 4:  # one per seat of the table (the referee checks its own count)
        raise _log_fault(f"{len(msg.scores)} scores: give none or one per seat, East first", f"{field}.scores")
    prevalent = msg.prevalent_wind
    if prevalent not in (0, 1, 2, 3, 4):
        raise _log_fault(f"{prevalent} is not a Wind value", f"{field}.prevalent_wind")
    events = tuple(_event_from_proto(e, f"{field}.events[{i}]") for i, e in enumerate(msg.events))
    return r.HandLog(rule_set=rs.name, events=events, options=options, prevalent_wind=_WINDS[prevalent],
                     honba=msg.honba, riichi_sticks=msg.riichi_sticks, scores=tuple(msg.scores))


def legal_to_proto(seats: Sequence[Any]) -> pb.LegalResponse:
    """`engine.referee.legal`'s SeatActions as a LegalResponse."""
    return pb.LegalResponse(seats=[
        pb.SeatActions(seat=_enum(s.seat + 1), furiten=s.furiten,
                       actions=[pb.Action(kind=_enum(a.kind), tiles=_tiles(a.tiles)) for a in s.actions])
        for s in seats])


def settlement_to_proto(s: Any) -> pb.SettleResponse:
    """`engine.referee.settle`'s Settlement as a SettleResponse (a line to the pot has no payee)."""
    return pb.SettleResponse(
        seats=[pb.SeatMoney(seat=_enum(m.seat + 1), net=m.net, ready=m.ready) for m in s.seats],
        lines=[pb.MoneyLine(payer=_enum(line.payer + 1), payee=_enum(0 if line.payee is None else line.payee + 1),
                            amount=line.amount, reason=line.reason, event_index=line.event_index)
               for line in s.lines],
        wins=[evaluation_to_proto(e) for e in s.wins],
        honba_next=s.honba_next, riichi_sticks_next=s.riichi_sticks_next, dealer_continues=s.dealer_continues,
        pot=s.pot)
