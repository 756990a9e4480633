"""Test support: hostile HandLogs for `Legal` and `Settle`, made from whole hands that were played.

`played_logs()` plays hands of every rule set (and its player counts) through the referee in process
(tests/support/referee_play.py) and writes them as the wire's `HandLog`. `mutated(log, rng)` damages one such
log the way a faulty or hostile game server might: most often it keeps the log up to a random event and
changes that last event (a tile, a seat, a kind, a flag or a repeated field set to any value, or an event of
the hand put in its place), so the log is legal up to its last event and the referee is probed in every
state a real hand passes through; otherwise it cuts, drops, repeats or swaps events, names another rule set,
sets the counters and scores to extremes, or sets the rule set's options to any values. `damaged_json(value,
rng)` does the like to a JSON value: some of its values replaced by JSON of another type."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from referee_logs import to_proto
from referee_play import play

from engine.rules.guangdong.options import GuangdongOptions
from engine.rules.riichi.options import RiichiOptions
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

# (rule set, engine options to play with, the same options on the wire)
TABLES = (
    ("riichi", None, None),
    ("riichi", RiichiOptions(players=3), pb.RuleOptions(riichi=pb.RiichiOptions(players=3))),
    ("sichuan", None, None),
    ("mcr", None, None),
    ("mcr2p", None, None),
    ("hk", None, None),
    ("guangdong", None, None),
    ("guangdong", GuangdongOptions(players=3), pb.RuleOptions(guangdong=pb.GuangdongOptions(players=3))),
)
RULE_SETS = ("mcr", "mcr2p", "riichi", "sichuan", "hk", "guangdong", "Riichi", "", "nope")
# int32 values at and around every bound a field could have: tiles (1-34), winds (1-4), counters, points
EXTREMES = (0, 1, 2, 3, 4, 5, 7, 9, 13, 14, 27, 34, 35, 36, 37, 100, 101, 1000, 25000, -1, -5, 2**31 - 1, -2**31)
_INTS = (FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT32)


@cache
def played_logs(hands_per_table: int = 6) -> tuple[pb.HandLog, ...]:
    out = []
    for rule_set, options, wire_options in TABLES:
        for seed in range(hands_per_table):
            log = to_proto(play(rule_set, seed, options))
            if wire_options is not None:
                log.options.CopyFrom(wire_options)
            out.append(log)
    return tuple(out)


def _scalars(msg: Message) -> list[tuple[Message, FieldDescriptor]]:
    """Every set non-message field of `msg` and of the messages inside it."""
    out: list[tuple[Message, FieldDescriptor]] = []
    for fd, value in msg.ListFields():
        if fd.type != FieldDescriptor.TYPE_MESSAGE:
            out.append((msg, fd))
        elif fd.is_repeated:
            for m in value:
                out += _scalars(m)
        else:
            out += _scalars(value)
    return out


def _value(fd: FieldDescriptor, rng: random.Random) -> object:
    if fd.type == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if fd.type == FieldDescriptor.TYPE_ENUM:
        return rng.randint(0, 40)  # open enums: unknown values reach the service as numbers
    if fd.type == FieldDescriptor.TYPE_STRING:
        return rng.choice(("", "x", "mcr"))
    return rng.choice(EXTREMES)


def _set_any(msg: Message, fd: FieldDescriptor, rng: random.Random) -> None:
    if fd.type not in (*_INTS, FieldDescriptor.TYPE_ENUM, FieldDescriptor.TYPE_BOOL, FieldDescriptor.TYPE_STRING):
        return
    if not fd.is_repeated:
        setattr(msg, fd.name, _value(fd, rng))
        return
    values = list(getattr(msg, fd.name))
    how = rng.randrange(4)
    if how == 0 and values:
        values[rng.randrange(len(values))] = _value(fd, rng)
    elif how == 1:
        values.append(_value(fd, rng))
    elif how == 2 and values:
        del values[rng.randrange(len(values))]
    else:
        values *= rng.randint(0, 3)
    getattr(msg, fd.name)[:] = values


def _change_last_event(log: pb.HandLog, original: pb.HandLog, rng: random.Random) -> None:
    del log.events[rng.randrange(1, len(log.events) + 1):]
    fields = _scalars(log.events[-1])
    if not fields or rng.random() < 0.3:
        log.events.append(rng.choice(original.events))  # an event of the hand, out of its place
    else:
        _set_any(*rng.choice(fields), rng)


def _options(log: pb.HandLog, rng: random.Random) -> None:
    name = log.rule_set.lower()
    if name not in pb.RuleOptions.DESCRIPTOR.fields_by_name:
        name = rng.choice(("riichi", "sichuan", "guangdong", "hk"))
    sub = getattr(log.options, name)
    sub.SetInParent()
    for fd in sub.DESCRIPTOR.fields:
        if rng.random() < 0.3 and fd.type != FieldDescriptor.TYPE_MESSAGE:
            _set_any(sub, fd, rng)


def mutated(original: pb.HandLog, rng: random.Random) -> pb.HandLog:
    log = pb.HandLog()
    log.CopyFrom(original)
    if rng.random() < 0.6 and log.events:
        _change_last_event(log, original, rng)
        return log
    for _ in range(rng.randint(1, 3)):
        ev, n = log.events, len(log.events)
        how = rng.randrange(8)
        if how == 0 and n > 1:
            del ev[rng.randrange(1, n):]
        elif how == 1 and n > 1:
            del ev[rng.randrange(n)]
        elif how == 2 and n:
            ev.append(ev[rng.randrange(n)])
        elif how == 3 and n > 2:
            i, j = rng.randrange(n), rng.randrange(n)
            a, b = pb.HandEvent(), pb.HandEvent()
            a.CopyFrom(ev[i])
            b.CopyFrom(ev[j])
            ev[i].CopyFrom(b)
            ev[j].CopyFrom(a)
        elif how == 4:
            log.rule_set = rng.choice(RULE_SETS)
        elif how == 5:
            log.scores[:] = [rng.choice(EXTREMES) for _ in range(rng.randint(0, 5))]
            log.honba, log.riichi_sticks = rng.choice(EXTREMES), rng.choice(EXTREMES)
        elif how == 6:
            _options(log, rng)
        else:
            fields = _scalars(log)
            if fields:
                _set_any(*rng.choice(fields), rng)
    return log


# JSON values of every type, for the JSON readers (`python -m engine legal|settle`, `mjsvc batch`)
JSON_JUNK: tuple[Any, ...] = (None, "x", "", 1.5, -1, 2**70, -2**70, [], {}, True, False, "TILE_M1", "WIND_NORTH", 0,
                              35, float("nan"), float("inf"), "1e400", [None], {"a": 1}, "Evaluate", ["Evaluate"])


def _json_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _json_paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _json_paths(v, (*path, i))


def damaged_json(value: Any, rng: random.Random) -> Any:
    """`value` (a JSON object, changed in place and returned) with up to three of its values, at any depth,
    replaced by a copy of one of JSON_JUNK."""
    for _ in range(rng.randint(0, 3)):
        paths = [p for p in _json_paths(value) if p]
        if not paths:
            break
        *head, last = rng.choice(paths)
        inner = value
        for key in head:
            inner = inner[key]
        inner[last] = copy.deepcopy(rng.choice(JSON_JUNK))
    return value
