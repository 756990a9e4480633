"""Test support: hand logs of the referee's contract (engine.referee) built by hand for the Chinese rule sets.

Seats are winds (East deals); `deal` takes each seat's tiles as text (engine.tiles notation), `log` wraps the
events in a HandLog, and `exhaust` plays a log on to the wall's end (each drawer throws the tile it drew) and
ends it with the drawn game, so a test can settle a drawn hand without writing every draw."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from engine import referee as r
from engine.hand import Flower, Wind
from engine.referee import ActionKind
from engine.tiles import NUM_FLOWERS, NUM_KINDS, parse_tile, parse_tiles

E, S, W, N = Wind
T = parse_tile


def deal(hands: Mapping[Wind, str] | Iterable[str]) -> r.Deal:
    """The deal: {wind: tiles}, or the hands East, South, West, North in order."""
    by_wind = dict(hands) if isinstance(hands, Mapping) else dict(zip(Wind, hands, strict=False))
    return r.Deal(tuple(r.SeatTiles(seat, tuple(parse_tiles(h))) for seat, h in by_wind.items()))


def log(rule_set: str, *events: r.HandEvent, options: Any = None, prevalent: Wind = Wind.EAST) -> r.HandLog:
    return r.HandLog(rule_set, tuple(events), options, prevalent_wind=prevalent)


def then(base: r.HandLog, *events: r.HandEvent) -> r.HandLog:
    """The log with more events."""
    return r.HandLog(base.rule_set, (*base.events, *events), base.options, base.prevalent_wind)


def upto(base: r.HandLog, n: int) -> r.HandLog:
    """The log's first n events."""
    return r.HandLog(base.rule_set, base.events[:n], base.options, base.prevalent_wind)


def nets(out: r.Settlement) -> tuple[int, ...]:
    """Each seat's net, in the settlement's seat order (East first)."""
    return tuple(m.net for m in out.seats)


def net(hand: r.HandLog) -> tuple[int, ...]:
    return nets(r.settle(hand))


def kinds(seats: tuple[r.SeatActions, ...]) -> dict[Wind, list[ActionKind]]:
    """Legal's answer as each acting seat's action kinds, in the answer's order."""
    return {s.seat: [a.kind for a in s.actions] for s in seats}


def actions(seats: tuple[r.SeatActions, ...], seat: Wind, kind: ActionKind) -> list[tuple[int, ...]]:
    """The tiles of each action of `kind` Legal gives `seat`."""
    return [a.tiles for s in seats if s.seat == seat for a in s.actions if a.kind == kind]


def illegal(hand: r.HandLog, at: int | None = None) -> str:
    """Legal refuses the log with ILLEGAL_EVENT naming event `at` (the last by default); the message."""
    with pytest.raises(r.IllegalEventError) as info:
        r.legal(hand)
    index = len(hand.events) - 1 if at is None else at
    assert (info.value.code, info.value.field) == ("ILLEGAL_EVENT", f"log.events[{index}]"), str(info.value)
    return str(info.value)


def reasons(out: r.Settlement, reason: str) -> list[tuple[Wind, Wind | None, int]]:
    """The settlement's lines for one reason: (payer, payee, amount)."""
    return [(m.payer, m.payee, m.amount) for m in out.lines if m.reason == reason]


def _tile_set(hand: r.HandLog) -> tuple[list[int], bool]:
    """The playing tiles (kinds) and whether the eight flowers are in the wall, for the log's rule set."""
    opts = hand.options
    if hand.rule_set == "sichuan":
        return list(range(27)), False
    if hand.rule_set == "mcr2p":
        from engine.rules.mcr2p import TILE_KINDS
        return sorted(TILE_KINDS), False
    if hand.rule_set == "guangdong":
        honors = True if opts is None else opts.honors
        return list(range(NUM_KINDS if honors else 27)), False
    if hand.rule_set == "hk":
        return list(range(NUM_KINDS)), True if opts is None else bool(opts.flowers)
    return list(range(NUM_KINDS)), True


def exhaust(hand: r.HandLog, drawn_game: bool = True) -> r.HandLog:
    """The log played on until the wall is empty: from the seat whose draw is due (Legal says), each seat in
    turn draws a tile still unseen (the flowers first, each shown and replaced) and throws it; then the drawn
    game. The seats keep the hands they hold (mind the void suit under Sichuan's strict rule)."""
    kinds_, with_flowers = _tile_set(hand)
    seen: Counter[int] = Counter()
    flowers_seen: set[Flower] = set()
    out_seats: set[Wind] = set()
    order: list[Wind] = []
    for ev in hand.events:
        if isinstance(ev, r.Deal):
            order = sorted(h.seat for h in ev.hands)
            for h in ev.hands:
                seen.update(h.tiles)
        elif isinstance(ev, r.Draw):
            seen[ev.tile] += 1
        elif isinstance(ev, r.FlowerTile):
            flowers_seen.add(Flower(ev.flower))
        elif isinstance(ev, r.Win):
            out_seats.add(ev.seat)
    wall = [t for t in kinds_ for _ in range(4 - seen[t])]
    flowers = [Flower(f) for f in range(NUM_FLOWERS) if with_flowers and Flower(f) not in flowers_seen]
    drawers = [s for s in r.legal(hand) if any(a.kind == ActionKind.DRAW for a in s.actions)]
    assert len(drawers) == 1, f"no single seat draws next: {drawers}"
    seat = drawers[0].seat
    order = [w for w in order if w not in out_seats]
    events: list[r.HandEvent] = []
    for f in flowers:
        events.append(r.FlowerTile(seat, f))
    for t in wall:
        events += [r.Draw(seat, t), r.Discard(seat, t)]
        seat = order[(order.index(seat) + 1) % len(order)]
    if drawn_game:
        events.append(r.DrawnGame(r.DrawnGameKind.EXHAUSTIVE))
    return then(hand, *events)
