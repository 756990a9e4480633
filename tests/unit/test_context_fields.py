"""No silent fields: every WinContext field, set alone, is either used or refused, under every rule set.

A rule set declares the WinContext fields it reads (`RuleSet.context_fields`). On generated winning
situations (each reduced to the fields the rule set reads), every field is set alone to each of a few other
values:

* a field the rule set does not declare is refused, BAD_CONTEXT naming exactly that field, whatever the hand;
* a field it declares is used: some situation's answer changes with it, or some value of it is refused
  (Riichi declares `flowers` only to refuse them with its own message).

`Hand.red_fives` is refused outside Riichi, and through the service every refusal names `context.<field>`.
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


def _reduced(ctx: WinContext, rule_set: str) -> WinContext:
    """The context with every field the rule set does not read back at its default."""
    return dataclasses.replace(ctx, **dict(rules.get(rule_set).unread_context))


def _refusal(hand: Hand, ctx: WinContext, rule_set: str) -> EngineError | None:
    try:
        api.evaluate(hand, ctx, rule_set)
    except EngineError as err:
        return err
    return None


@pytest.mark.parametrize("rule_set", rules.names())
def test_every_field_alone_is_used_or_refused(rule_set: str) -> None:
    rs = rules.get(rule_set)
    answered = 0
    not_refused: list[tuple[str, str, Any, str]] = []
    changes: dict[str, int] = {name: 0 for name in rs.context_fields}
    refused: dict[str, int] = {name: 0 for name in rs.context_fields}
    for hand, full in _situations():
        ctx = _reduced(full, rule_set)
        base = _answer(hand, ctx, rule_set)
        if base is None:
            continue
        answered += 1
        for name in CONTEXT_FIELDS:
            for other in _others(name, getattr(ctx, name), hand):
                alone = dataclasses.replace(ctx, **{name: other})
                if name not in rs.context_fields:
                    err = _refusal(hand, alone, rule_set)
                    if err is None or err.code != "BAD_CONTEXT" or err.field != name:
                        not_refused.append((str(hand), name, other, repr(err)))
                    continue
                got = _answer(hand, alone, rule_set)
                if got is None:
                    refused[name] += 1
                elif got != base:
                    changes[name] += 1
    assert answered >= MIN_ANSWERED, f"{rule_set}: only {answered} situations answered"
    assert not not_refused, f"{rule_set}: unread fields not refused by name: {not_refused[:5]}"
    silent = [n for n in rs.context_fields if not changes[n] and not refused[n]]
    assert not silent, f"{rule_set}: declared fields that never change an answer nor are refused: {silent}"


@pytest.mark.parametrize("rule_set", [n for n in rules.names() if not rules.get(n).red_fives])
def test_red_fives_refused_where_not_played(rule_set: str) -> None:
    hand = winning_hand(parse_tiles("123m456m789m1155m"), (), parse_tile("5m"), red_fives=[parse_tile("5m")])
    err = _refusal(hand, WinContext(self_drawn=True), rule_set)
    assert err is not None and (err.code, err.field) == ("BAD_CONTEXT", "red_fives")
    with pytest.raises(EngineError) as refused:
        api.analyze(hand, (), rule_set)
    assert (refused.value.code, refused.value.field) == ("BAD_CONTEXT", "red_fives")


def test_the_service_names_the_unread_field() -> None:
    """The issue's reproduction: MCR with a Riichi-only field; Sichuan with a Riichi field; red fives in MCR."""
    from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
    from mjsvc.service import Service

    svc = Service(cache_size=0)
    hand = convert.hand_to_proto(parse_tiles("123m456p789s1sEEE"), (), parse_tile("1s"))
    cases = [("mcr", pb.WinContext(self_drawn=True, kita=1), "context.kita"),
             ("mcr", pb.WinContext(self_drawn=True, riichi=True), "context.riichi"),
             ("hk", pb.WinContext(self_drawn=True, honba=2), "context.honba"),
             ("riichi", pb.WinContext(self_drawn=True, follow_dealer=True), "context.follow_dealer")]
    for rule_set, ctx, field in cases:
        with pytest.raises(EngineError) as err:
            svc.evaluate(pb.EvaluateRequest(rule_set=rule_set, hand=hand, context=ctx))
        assert (err.value.code, err.value.field) == ("BAD_CONTEXT", field)
    red = pb.Hand()
    red.CopyFrom(hand)
    red.concealed[:] = [pb.TILE_M1, pb.TILE_M2, pb.TILE_M3, pb.TILE_P4, pb.TILE_P5, pb.TILE_P6, pb.TILE_S7,
                        pb.TILE_S8, pb.TILE_S9, pb.TILE_S1, pb.TILE_EAST, pb.TILE_EAST, pb.TILE_EAST]
    red.red_fives.append(pb.TILE_P5)
    with pytest.raises(EngineError) as err:
        svc.evaluate(pb.EvaluateRequest(rule_set="mcr", hand=red, context=pb.WinContext(self_drawn=True)))
    assert (err.value.code, err.value.field) == ("BAD_CONTEXT", "hand.red_fives")


@pytest.mark.parametrize("rule_set", rules.names())
def test_the_one_comparison_check_names_what_the_field_by_field_check_names(rule_set: str) -> None:
    """`RuleSet.check_unread` compares the unread fields' values in one go and only then looks for the first
    one set: on contexts setting random sets of fields (read and unread), it refuses exactly when a field
    by field walk over `unread_context` finds one set, and names that field."""
    import random

    rs = rules.get(rule_set)
    hand = winning_hand(parse_tiles("123m456p789s1122z"), (), parse_tile("2z"))
    rng = random.Random(rule_set)
    refused = passed = 0
    for _ in range(400):
        ctx = WinContext()
        for name in rng.sample(CONTEXT_FIELDS, rng.choice((0, 1, 1, 2, 3))):
            ctx = dataclasses.replace(ctx, **{name: rng.choice(_others(name, getattr(ctx, name), hand))})
        first = next((n for n, d in rs.unread_context if getattr(ctx, n) != d), None)
        try:
            rs.check_unread(hand, ctx)
        except EngineError as err:
            assert (err.code, err.field) == ("BAD_CONTEXT", first)
            refused += 1
            continue
        assert first is None
        passed += 1
    assert refused > 50 and passed > 50
