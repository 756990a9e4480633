"""Every rule set's declared `context_fields` are complete, shown by behaviour (issue 12).

A rule set declares the WinContext fields its answers read (`RuleSet.context_fields`); a key built from the
declaration (`mjsvc.cache.evaluate_key`) is right only if no undeclared field can change an answer. The AST
check in test_model.py finds fields read by name (`ctx.x`); this one also catches reads through `getattr`,
helpers and shared modules: on generated winning situations, every undeclared field is set to each of a few
other values, and the evaluation must stay exactly the same or be refused (an EngineError: validation may
read any field; a refusal is never an answer served under another request's key, because the service keys
its response cache on the whole parsed request, a superset of the declaration).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from bench import hk_cases, mcr_cases, riichi_cases, sichuan_cases
from engine import api, rules
from engine.errors import EngineError
from engine.hand import ClaimedFrom, Flower, Hand, MeldKind, PriorKong, Suit, WinContext, Wind, make_meld, winning_hand
from engine.rules.model import CONTEXT_FIELDS
from engine.tiles import parse_tile, parse_tiles
from mjsvc import convert

N = 50  # situations per generator and rule set
MIN_ANSWERED = 20  # a rule set must answer at least this many situations (the check is never vacuous)


def _situations() -> Iterator[tuple[Hand, WinContext]]:
    """Winning situations of every kind the generators make (rule-neutral hands: each rule set answers the
    ones it plays and refuses the others)."""
    for c in mcr_cases.cases(N, 12):
        yield c.hand, c.ctx
    for r in riichi_cases.generate(N, 12):
        yield r.hand, r.ctx
    for s in sichuan_cases.situations(N, 12):
        yield s.hand, s.ctx
    for h in hk_cases.cases(N, 12):
        yield h.hand, h.ctx
    # the two-player table (characters and honours) and Guangdong (self-drawn by default, no chows melded)
    for concealed, win in (("123m456m789mEEES", "S"), ("1112345678999m", "5m"), ("EESSWWNNCCFFP", "P"),
                           ("123m456m789mNNN1m", "1m"), ("123m456p789s222sE", "E"), ("11m22m33p44p55s66sE", "E")):
        yield winning_hand(parse_tiles(concealed), (), parse_tile(win)), WinContext(self_drawn=True)
    pung = make_meld(MeldKind.PUNG, [parse_tile("9p")] * 3, claimed_from=ClaimedFrom.LEFT)
    yield winning_hand(parse_tiles("123m456p789sE"), (pung,), parse_tile("E")), WinContext(self_drawn=True,
                                                                                              seat_wind=Wind.SOUTH)


def _others(name: str, value: Any, hand: Hand) -> list[Any]:
    """A few values of field `name` other than `value` (some may be refused: that is allowed)."""
    kinds = sorted(set(hand.concealed) | {hand.winning_tile or 0})
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, Wind):
        return [w for w in Wind if w != value]
    if isinstance(value, ClaimedFrom):
        return [c for c in ClaimedFrom if c != value]
    if isinstance(value, PriorKong):
        return [p for p in PriorKong if p != value]
    if name == "void_suit":
        return [s for s in (None, *Suit) if s != value]
    if isinstance(value, int):
        return [value + 1, value + 3]
    if name in ("dora_indicators", "ura_dora_indicators", "horse_tiles"):
        # the tile before a held kind indicates it as dora; a horse is read by its rank
        return [t for t in ((), (kinds[0],), (max(kinds[0] - 1, 0),), (kinds[-1], kinds[0])) if t != value]
    if name in ("seats_out", "other_winners"):
        return [s for s in ((), (Wind.SOUTH,), (Wind.WEST, Wind.NORTH)) if s != value]
    if name == "flower_tiles":
        return [f for f in ((), (Flower.PLUM,), (Flower.SPRING, Flower.ORCHID)) if f != value]
    raise AssertionError(f"no other values for WinContext.{name} ({value!r}): add them here")


def _answer(hand: Hand, ctx: WinContext, rule_set: str) -> bytes | None:
    """The evaluation as the client receives it (deterministic bytes), or None when refused."""
    try:
        return convert.evaluation_to_proto(api.evaluate(hand, ctx, rule_set)).SerializeToString(deterministic=True)
    except EngineError:
        return None


@pytest.mark.parametrize("rule_set", rules.names())
def test_undeclared_context_fields_never_change_an_answer(rule_set: str) -> None:
    undeclared = [f for f in CONTEXT_FIELDS if f not in rules.get(rule_set).context_fields]
    answered = 0
    changed = []
    for hand, ctx in _situations():
        base = _answer(hand, ctx, rule_set)
        if base is None:
            continue
        answered += 1
        for name in undeclared:
            for other in _others(name, getattr(ctx, name), hand):
                got = _answer(hand, dataclasses.replace(ctx, **{name: other}), rule_set)
                if got is not None and got != base:
                    changed.append((str(hand), name, other))
    assert answered >= MIN_ANSWERED, f"{rule_set}: only {answered} situations answered"
    assert not changed, f"{rule_set}: undeclared fields change answers (declare them): {changed[:5]}"
