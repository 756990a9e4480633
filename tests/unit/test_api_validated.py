"""engine.api's `validated` flags, which the service passes for what it checked as it read the request: the
same answers with and without them, and without them the checks still run."""

from __future__ import annotations

import random

import pytest

from engine import api, rules
from engine.errors import BadTileError, EngineError
from engine.hand import Hand, WinContext, make_hand, validate_context, winning_hand
from engine.tiles import parse_tiles


def _random_hand(rng: random.Random, kinds: list[int], size: int) -> Hand:
    tiles: list[int] = []
    while len(tiles) < size:
        t = rng.choice(kinds)
        if tiles.count(t) < 4:
            tiles.append(t)
    return make_hand(tiles, sizes=(13, 14))


@pytest.mark.parametrize("name", rules.names())
def test_analyze_answers_the_same_with_its_visible_tiles_validated(name: str) -> None:
    rng = random.Random(f"visible:{name}")
    kinds = sorted(rules.get(name).tiles)
    answered = 0
    for _ in range(60):
        hand = _random_hand(rng, kinds, rng.choice((13, 14)))
        left = [t for t in kinds for _ in range(4 - hand.counts()[t])]  # what the table can show
        visible = rng.sample(left, min(len(left), rng.randint(0, 60)))
        if rng.random() < 0.2:  # sometimes any tiles of the rule set: a kind seen too often is refused either way
            visible = [rng.choice(kinds) for _ in range(rng.randint(0, 60))]
        try:
            plain = api.analyze(hand, visible, name)
        except EngineError as err:  # e.g. a hand the rule set refuses: the flag must not change that
            with pytest.raises(type(err)):
                api.analyze(hand, visible, name, validated=True)
            continue
        assert api.analyze(hand, visible, name, validated=True) == plain
        answered += 1
    assert answered >= 30


@pytest.mark.parametrize("bad", [34, -1, 99])
def test_analyze_checks_the_visible_tiles_unless_told_they_were(bad: int) -> None:
    hand = make_hand(parse_tiles("123m456p789s1122z"), sizes=(13, 14))
    with pytest.raises(BadTileError) as info:
        api.analyze(hand, [0, 1, bad], "mcr")
    assert info.value.field == "visible[2]"


def test_evaluate_answers_the_same_with_its_context_validated() -> None:
    hand = winning_hand(parse_tiles("123m456p789s1122z"), [], parse_tiles("2z")[0])
    for ctx in (WinContext(), WinContext(self_drawn=True), WinContext(self_drawn=True, flowers=2)):
        validate_context(ctx, hand)
        assert api.evaluate(hand, ctx, "mcr", validated=True) == api.evaluate(hand, ctx, "mcr")
