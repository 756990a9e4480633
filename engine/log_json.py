"""A hand's log as JSON, for `python -m engine legal|settle`: the proto3 JSON mapping of `mahjong.v1.HandLog`
(what `mjsvc batch` and grpc-web clients write), read into `engine.referee.HandLog` without protobuf.

Field names as in the proto (`rule_set`) or in lowerCamelCase (`ruleSet`); enum values by name
(`WIND_EAST`, `TILE_M1`, `MELD_KIND_PUNG`) or number; an unset field is its default, as protobuf reads it.
Rule options are not read from the file (`options` is refused): the command line gives them (`--option`).
Every fault is BAD_LOG (BAD_TILE for a tile) naming its field as the request would
(`log.events[3].discard.tile`); the rules of play are the referee's (ILLEGAL_EVENT).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from engine import referee as r
from engine import rules
from engine.errors import BadTileError, EngineError
from engine.hand import Flower, MeldKind, Suit, Wind
from engine.rules.model import RuleSet
from engine.tiles import NUM_KINDS

# The proto's enum names, in the order of their numbers from 1 (tests/unit/test_referee_cli.py holds them
# to the proto's).
_SUITED = tuple(f"TILE_{s}{n}" for s in "MPS" for n in range(1, 10))
TILE_NAMES = _SUITED + ("TILE_EAST", "TILE_SOUTH", "TILE_WEST", "TILE_NORTH", "TILE_RED", "TILE_GREEN", "TILE_WHITE")
WIND_NAMES = ("WIND_EAST", "WIND_SOUTH", "WIND_WEST", "WIND_NORTH")
MELD_KIND_NAMES = ("MELD_KIND_CHOW", "MELD_KIND_PUNG", "MELD_KIND_KONG")
SUIT_NAMES = ("SUIT_CHARACTERS", "SUIT_DOTS", "SUIT_BAMBOO")
FLOWER_NAMES = ("FLOWER_PLUM", "FLOWER_ORCHID", "FLOWER_CHRYSANTHEMUM", "FLOWER_BAMBOO", "FLOWER_SPRING",
                "FLOWER_SUMMER", "FLOWER_AUTUMN", "FLOWER_WINTER")
DRAWN_GAME_NAMES = tuple(f"DRAWN_GAME_KIND_{k.name}" for k in r.DrawnGameKind)
ACTION_NAMES: Mapping[r.ActionKind, str] = MappingProxyType({k: f"ACTION_KIND_{k.name}" for k in r.ActionKind})
EVENT_KINDS = ("deal", "draw", "discard", "claim", "kong", "dora", "win", "drawn_game", "void_suit", "flower",
               "exchange", "false_win", "kita")
assert len(TILE_NAMES) == NUM_KINDS


def _fault(field: str, message: str) -> EngineError:
    return r.BadLogError(f"{field}: {message}", field)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(w.title() for w in rest)


class _Obj:
    """One JSON object read as a proto message: each field by either name, unknown names refused."""

    def __init__(self, value: Any, field: str, names: tuple[str, ...]) -> None:
        if not isinstance(value, Mapping):
            raise _fault(field, "not a JSON object")
        allowed = {n: n for n in names} | {_camel(n): n for n in names}
        self.values: dict[str, Any] = {}
        for key, v in value.items():
            name = allowed.get(key)
            if name is None:
                raise _fault(f"{field}.{key}" if field else str(key), "not a field of this message")
            self.values[name] = v
        self.field = field

    def at(self, name: str) -> str:
        return f"{self.field}.{name}" if self.field else name

    def get(self, name: str, default: Any = None) -> Any:
        v = self.values.get(name)
        return default if v is None else v

    def list(self, name: str) -> list[Any]:
        v = self.get(name, [])
        if not isinstance(v, list):
            raise _fault(self.at(name), "not a JSON list")
        return v

    def int(self, name: str) -> int:
        v = self.get(name, 0)
        if isinstance(v, str) and v.lstrip("-").isdigit():  # int64 and friends may come as strings
            v = int(v)
        if not isinstance(v, int) or isinstance(v, bool):
            raise _fault(self.at(name), f"{v!r} is not an integer")
        return v

    def bool(self, name: str) -> bool:
        v = self.get(name, False)
        if not isinstance(v, bool):
            raise _fault(self.at(name), f"{v!r} is not true or false")
        return v


def _unset(value: Any, what: str) -> bool:
    return value is None or value == 0 or value == f"{what}_UNSPECIFIED"


def _enum(value: Any, names: tuple[str, ...], field: str, what: str) -> int:
    """The 0-based position of an enum value given by name or number (1-based on the wire)."""
    if isinstance(value, str) and value in names:
        return names.index(value)
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= len(names):
        return value - 1
    shown = "unset" if _unset(value, what) else repr(value)
    raise _fault(field, f"{shown}: not one of {names[0]} ... {names[-1]}")


def _tile(value: Any, field: str) -> int:
    """A tile; a fault is BAD_TILE, as everywhere a tile is read."""
    try:
        return _enum(value, TILE_NAMES, field, "TILE")
    except EngineError as err:
        raise BadTileError(err.message, field) from None


def _tiles(o: _Obj, name: str) -> tuple[int, ...]:
    return tuple(_tile(v, f"{o.at(name)}[{i}]") for i, v in enumerate(o.list(name)))


def _seat(o: _Obj, name: str = "seat") -> Wind:
    return Wind(_enum(o.get(name), WIND_NAMES, o.at(name), "WIND"))


def _deal(o: _Obj) -> r.HandEvent:
    hands = []
    for i, h in enumerate(o.list("hands")):
        s = _Obj(h, f"{o.at('hands')}[{i}]", ("seat", "tiles", "red_fives"))
        hands.append(r.SeatTiles(_seat(s), _tiles(s, "tiles"), _tiles(s, "red_fives")))
    return r.Deal(tuple(hands), _tiles(o, "dora_indicators"))


def _claim(o: _Obj) -> r.HandEvent:
    kind = _enum(o.get("kind"), MELD_KIND_NAMES, o.at("kind"), "MELD_KIND")
    return r.Claim(_seat(o), MeldKind(kind + 1), _tiles(o, "tiles"), _tiles(o, "red_fives"))


def _void(o: _Obj) -> r.HandEvent:
    suit = _enum(o.get("suit"), SUIT_NAMES, o.at("suit"), "SUIT")
    aside = o.get("set_aside")
    return r.VoidSuit(_seat(o), Suit(suit), None if _unset(aside, "TILE") else _tile(aside, o.at("set_aside")))


def _exchange(o: _Obj) -> r.HandEvent:
    out = []
    for i, x in enumerate(o.list("exchanges")):
        s = _Obj(x, f"{o.at('exchanges')}[{i}]", ("seat", "tiles", "to"))
        out.append(r.SeatExchange(_seat(s), _tiles(s, "tiles"), _seat(s, "to")))
    return r.ExchangeThree(tuple(out))


# event kind -> (its fields, its reader)
_EVENTS: Mapping[str, tuple[tuple[str, ...], Callable[[_Obj], r.HandEvent]]] = MappingProxyType({
    "deal": (("hands", "dora_indicators"), _deal),
    "draw": (("seat", "tile", "red"), lambda o: r.Draw(_seat(o), _tile(o.get("tile"), o.at("tile")), o.bool("red"))),
    "discard": (("seat", "tile", "red", "riichi"),
                lambda o: r.Discard(_seat(o), _tile(o.get("tile"), o.at("tile")), o.bool("red"), o.bool("riichi"))),
    "claim": (("seat", "kind", "tiles", "red_fives"), _claim),
    "kong": (("seat", "tile", "added", "red"),
             lambda o: r.Kong(_seat(o), _tile(o.get("tile"), o.at("tile")), o.bool("added"), o.bool("red"))),
    "dora": (("tile",), lambda o: r.DoraIndicator(_tile(o.get("tile"), o.at("tile")))),
    "win": (("seat", "self_drawn", "ura_dora_indicators", "horses"),
            lambda o: r.Win(_seat(o), o.bool("self_drawn"), _tiles(o, "ura_dora_indicators"), _tiles(o, "horses"))),
    "drawn_game": (("kind",), lambda o: r.DrawnGame(r.DrawnGameKind(
        1 + _enum(o.get("kind"), DRAWN_GAME_NAMES, o.at("kind"), "DRAWN_GAME_KIND")))),
    "void_suit": (("seat", "suit", "set_aside"), _void),
    "flower": (("seat", "flower"), lambda o: r.FlowerTile(_seat(o), Flower(
        _enum(o.get("flower"), FLOWER_NAMES, o.at("flower"), "FLOWER")))),
    "exchange": (("exchanges",), _exchange),
    "false_win": (("seat",), lambda o: r.FalseWin(_seat(o))),
    "kita": (("seat",), lambda o: r.Kita(_seat(o))),
})


def _event(value: Any, field: str) -> r.HandEvent:
    e = _Obj(value, field, EVENT_KINDS)
    if len(e.values) != 1:
        raise _fault(field, f"an event sets exactly one of {', '.join(EVENT_KINDS)}")
    (kind, body), = e.values.items()
    names, read = _EVENTS[kind]
    return read(_Obj(body if body is not None else {}, f"{field}.{kind}", names))


_LOG_FIELDS = ("rule_set", "options", "prevalent_wind", "honba", "riichi_sticks", "scores", "events")


def _rule_set(o: _Obj) -> RuleSet:
    name = o.get("rule_set", "")
    if not isinstance(name, str):
        raise _fault(o.at("rule_set"), f"{name!r} is not a string")
    try:
        return rules.get(name)
    except EngineError as err:
        raise type(err)(f"{o.field}.{err.message}", o.at("rule_set")) from None


def rule_set_of(value: Any, field: str = "log") -> RuleSet:
    """The rule set the log in `value` names (`rule_set` or `ruleSet`; unset: the default), before its options
    are read: BAD_LOG for a log that is no object or a name that is no string, UNKNOWN_RULE_SET as Evaluate's."""
    return _rule_set(_Obj(value, field, _LOG_FIELDS))


def hand_log(value: Any, options: Any = None, field: str = "log") -> r.HandLog:
    """The HandLog in `value` (a decoded JSON object); `options` the rule set's options (None: defaults)."""
    o = _Obj(value, field, _LOG_FIELDS)
    if o.get("options") is not None:
        raise _fault(o.at("options"), "give the rule options on the command line (--option NAME=VALUE)")
    rs = _rule_set(o)
    prevalent = o.get("prevalent_wind")
    scores = o.list("scores")
    if any(not isinstance(s, int) or isinstance(s, bool) for s in scores):
        raise _fault(o.at("scores"), "scores are integers")
    if len(scores) > 4:  # one per seat of the table (the referee checks its own count)
        raise _fault(o.at("scores"), f"{len(scores)} scores: give none or one per seat, East first")
    honba, sticks = o.int("honba"), o.int("riichi_sticks")
    if honba < 0 or sticks < 0:
        raise _fault(o.at("honba" if honba < 0 else "riichi_sticks"), "negative")
    events = tuple(_event(e, f"{o.at('events')}[{i}]") for i, e in enumerate(o.list("events")))
    return r.HandLog(rule_set=rs.name, events=events, options=rs.options(options),
                     prevalent_wind=Wind.EAST if _unset(prevalent, "WIND") else
                     Wind(_enum(prevalent, WIND_NAMES, o.at("prevalent_wind"), "WIND")),
                     honba=honba, riichi_sticks=sticks, scores=tuple(scores))


# -- the answers, in the same mapping (LegalResponse, SettleResponse; a win as its total and fans) --------


def legal_json(seats: tuple[r.SeatActions, ...]) -> dict[str, Any]:
    return {"seats": [{"seat": WIND_NAMES[s.seat], "furiten": s.furiten,
                       "actions": [{"kind": ACTION_NAMES[a.kind], "tiles": [TILE_NAMES[t] for t in a.tiles]}
                                   for a in s.actions]} for s in seats]}


def settlement_json(s: r.Settlement) -> dict[str, Any]:
    return {
        "seats": [{"seat": WIND_NAMES[m.seat], "net": m.net, "ready": m.ready} for m in s.seats],
        "lines": [{"payer": WIND_NAMES[line.payer], "payee": "" if line.payee is None else WIND_NAMES[line.payee],
                   "amount": line.amount, "reason": line.reason, "event_index": line.event_index}
                  for line in s.lines],
        "wins": [{"total": e.best.total if e.best else 0,
                  "fans": [h.fan.name for h in e.best.fans] if e.best else []} for e in s.wins],
        "honba_next": s.honba_next, "riichi_sticks_next": s.riichi_sticks_next,
        "dealer_continues": s.dealer_continues, "pot": s.pot,
    }
