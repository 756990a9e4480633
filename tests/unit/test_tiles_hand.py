"""Tiles notation, melds, hands and win contexts: round trips and every error code with its field."""

from __future__ import annotations

import random

import pytest

from engine import hand as hand_module
from engine import rules
from engine.errors import (
    ERROR_CODES,
    BadContextError,
    BadMeldError,
    BadOptionError,
    BadTileError,
    ContradictoryContextError,
    EngineError,
    MissingWinningTileError,
    TileCountError,
    TooManyCopiesError,
    UnknownRuleSetError,
)
from engine.hand import (
    ClaimedFrom,
    Meld,
    MeldKind,
    WinContext,
    Wind,
    chow,
    kong,
    make_hand,
    make_meld,
    pung,
    validate_context,
    winning_hand,
)
from engine.tiles import (
    EAST,
    GREEN,
    NUM_KINDS,
    RED,
    WHITE,
    check_tile,
    format_tile,
    format_tiles,
    from_counts,
    is_terminal_or_honor,
    parse_tile,
    parse_tiles,
    rank_of,
    suit_of,
    tile_name,
    to_counts,
)

P = parse_tiles


# --------------------------------------------------------------------------------------------- tiles


def test_indices_and_names() -> None:
    assert P("1m9m1p9p1s9s") == [0, 8, 9, 17, 18, 26]
    assert P("ESWNCFP") == list(range(27, 34))
    assert (RED, GREEN, WHITE) == (31, 32, 33)
    assert P("1z2z3z4z5z6z7z") == [27, 28, 29, 30, WHITE, GREEN, RED]  # 5z white, 6z green, 7z red
    assert [suit_of(t) for t in (0, 9, 18, 27)] == [0, 1, 2, 3]
    assert [rank_of(t) for t in (0, 13, 26, 30)] == [1, 5, 9, 0]
    assert tile_name(13) == "5 dots" and tile_name(RED) == "Red"
    assert is_terminal_or_honor(8) and not is_terminal_or_honor(10)


def test_both_honour_notations_parse_to_one_canonical_form() -> None:
    assert P("1234567z") == P("ESWNPFC")
    assert format_tiles(P("7z6z5z4z3z2z1z")) == "ESWNCFP"
    assert format_tiles(P("9s 1m 5p 5z 1z 1m")) == "11m5p9sEP"
    assert format_tile(EAST) == "E"


def test_round_trip_on_random_tiles() -> None:
    rng = random.Random(10)
    wall = [t for t in range(NUM_KINDS) for _ in range(4)]
    for _ in range(500):
        tiles = rng.sample(wall, rng.randrange(0, 18))
        text = format_tiles(tiles)
        assert sorted(P(text)) == sorted(tiles)
        assert format_tiles(P(text)) == text  # canonical form is a fixed point
        # The z notation of the same tiles parses to the same tiles.
        z = {27: "1", 28: "2", 29: "3", 30: "4", 33: "5", 32: "6", 31: "7"}
        ztext = format_tiles([t for t in tiles if t < 27]) + "".join(z[t] for t in tiles if t >= 27)
        if any(t >= 27 for t in tiles):
            ztext += "z"
        assert sorted(P(ztext)) == sorted(tiles)
        assert from_counts(to_counts(tiles)) == sorted(tiles)


def test_counts_of_a_list_a_tuple_and_an_iterator_agree() -> None:
    """`to_counts` reads a list by index (its fast path) and any other iterable by iteration: the same counts,
    checked against a plain count, for lists of every length up to a table's visible tiles."""
    rng = random.Random(20261208)
    for n in list(range(20)) + [rng.randrange(20, 140) for _ in range(200)]:
        tiles = [rng.randrange(NUM_KINDS) for _ in range(n)]
        expected = [tiles.count(k) for k in range(NUM_KINDS)]
        assert to_counts(tiles) == to_counts(tuple(tiles)) == to_counts(iter(tiles)) == expected


@pytest.mark.parametrize(("text", "names"), [
    ("12x", "'x'"),
    ("0m", "'0m'"),
    ("8z", "'8z'"),
    ("123", "no suit letter"),
    ("m", "'m'"),
    ("1E", "'E'"),
    ("1m?", "'?'"),
])
def test_bad_notation_names_the_character(text: str, names: str) -> None:
    with pytest.raises(BadTileError) as err:
        P(text, field="hand.concealed")
    assert err.value.code == "BAD_TILE"
    assert err.value.field == "hand.concealed"
    assert names in err.value.message


def test_single_tile_and_index_checks() -> None:
    assert parse_tile("5p") == 13
    with pytest.raises(BadTileError) as err:
        parse_tile("55p", "winning_tile")
    assert err.value.field == "winning_tile"
    for bad in (-1, 34, True, "3"):
        with pytest.raises(BadTileError) as err:
            check_tile(bad, "visible[2]")  # type: ignore[arg-type]
        assert err.value.field == "visible[2]" and "visible[2]" in err.value.message


def test_check_tiles_names_the_first_bad_tile_whatever_its_type() -> None:
    from enum import IntEnum

    from engine.tiles import check_tiles

    assert check_tiles((5, 0, 33), "visible") == [5, 0, 33]
    assert check_tiles(iter([]), "visible") == []

    class Tile(IntEnum):  # an int subclass other than bool is an index, as check_tile says
        FIVE = 5

    assert check_tiles([Tile.FIVE, 1], "visible") == [5, 1]
    # True == 1 and 1.0 == 1 pass a membership test: the type test catches them
    for bad in (True, 1.0, -1, 34, "3", None):
        with pytest.raises(BadTileError) as err:
            check_tiles([3, 4, bad, 5], "visible")  # type: ignore[list-item]
        assert err.value.field == "visible[2]", bad


# --------------------------------------------------------------------------------------------- melds


def test_meld_helpers() -> None:
    c = chow(P("3p")[0], claimed_index=1)
    assert c.tiles == (11, 12, 13) and c.claimed_from == ClaimedFrom.LEFT and c.claimed_index == 1
    assert pung(RED, ClaimedFrom.ACROSS).tiles == (RED,) * 3
    k = kong(5, concealed=True)
    assert k.concealed and k.claimed_from == ClaimedFrom.NONE and k.is_kong
    assert str(kong(5, added=True)) == "added kong 6666m"
    assert make_meld(MeldKind.CHOW, (2, 0, 1)).tiles == (0, 1, 2)  # sorted


@pytest.mark.parametrize(("kwargs", "field", "says"), [
    ({"kind": MeldKind.CHOW, "tiles": (27, 28, 29)}, "m.tiles", "honours"),
    ({"kind": MeldKind.CHOW, "tiles": (0, 1, 3)}, "m.tiles", "not a run"),
    ({"kind": MeldKind.CHOW, "tiles": (7, 8, 9)}, "m.tiles", "not a run"),  # 8m 9m 1p
    ({"kind": MeldKind.PUNG, "tiles": (0, 0, 1)}, "m.tiles", "identical"),
    ({"kind": MeldKind.KONG, "tiles": (0, 0, 0)}, "m.tiles", "4 tiles"),
    ({"kind": 7, "tiles": (0, 0, 0)}, "m.kind", "not chow"),
    ({"kind": MeldKind.PUNG, "tiles": (0, 0, 0), "concealed": True}, "m.concealed", "only a kong"),
    ({"kind": MeldKind.KONG, "tiles": (0,) * 4, "concealed": True, "added": True}, "m.added", "both"),
    ({"kind": MeldKind.KONG, "tiles": (0,) * 4, "concealed": True, "claimed_from": ClaimedFrom.LEFT},
     "m.claimed_from", "not claimed"),
    ({"kind": MeldKind.PUNG, "tiles": (0,) * 3, "claimed_from": 5}, "m.claimed_from", "not a seat"),
    ({"kind": MeldKind.CHOW, "tiles": (0, 1, 2), "claimed_index": 3}, "m.claimed_index", "out of range"),
    ({"kind": MeldKind.KONG, "tiles": (0,) * 4, "concealed": True, "claimed_index": 0}, "m.claimed_index",
     "no claimed tile"),
])
def test_bad_meld(kwargs: dict, field: str, says: str) -> None:
    with pytest.raises(BadMeldError) as err:
        make_meld(field="m", **kwargs)
    assert err.value.code == "BAD_MELD"
    assert err.value.field == field
    assert says in err.value.message


def test_bad_tile_in_meld() -> None:
    with pytest.raises(BadTileError) as err:
        make_meld(MeldKind.PUNG, (40, 40, 40), field="hand.melds[1]")
    assert err.value.field == "hand.melds[1].tiles"


# --------------------------------------------------------------------------------------------- hands


def test_hand_sizes_and_counts() -> None:
    h = make_hand(P("123m456p789s99sEEE"), (), None, sizes=(14,))
    assert h.size == 14 and h.counts()[EAST] == 3
    h = make_hand(P("456p789s123sE"), (chow(0),), P("E")[0])
    assert h.size == 14 and h.all_concealed() == tuple(P("456p123789sEE"))
    assert str(h) == "456p123789sE [chow 123m] +E"
    k = make_hand(P("456p789s123sE"), (kong(0),), P("E")[0])  # a kong counts 3
    assert k.size == 14 and k.counts()[0] == 4


def test_tile_count_errors() -> None:
    with pytest.raises(TileCountError) as err:
        make_hand(P("123m456p789sEE"), sizes=(13,))
    assert err.value.code == "TILE_COUNT" and err.value.field == "concealed"
    assert "make 11, expected 13" in err.value.message
    with pytest.raises(TileCountError) as err:
        winning_hand(P("123m456p789sE"), (), 27)
    assert err.value.field == "concealed"
    with pytest.raises(TileCountError) as err:
        make_hand(P("E"), (pung(0),) * 5, sizes=(14, 16, 17))
    assert err.value.field == "melds"


def test_too_many_copies_counts_melds_and_winning_tile() -> None:
    with pytest.raises(TooManyCopiesError) as err:
        make_hand(P("11111m456p789sEEE"), sizes=(14,))
    assert err.value.code == "TOO_MANY_COPIES" and "1m" in err.value.message
    with pytest.raises(TooManyCopiesError):
        winning_hand(P("11m456p789sEE"), (pung(0),), 0)  # 2 + 3 + winning tile
    assert winning_hand(P("123m456p789s11sEE"), (), 27).counts()[27] == 3
    with pytest.raises(TooManyCopiesError):
        winning_hand(P("456p789s123sE"), (kong(27),), 28)


def test_make_hand_counts_as_the_hand_does() -> None:
    """make_hand counts the tiles it was given (concealed, winning tile, melds) without building the hand's
    own count (Hand.counts): on random hands, some with a kind five times or more, it refuses exactly those
    whose Hand.counts() holds a kind over four, naming the first such kind, and otherwise returns the same
    hand as the fields given."""
    rng = random.Random(17)
    refused = accepted = 0
    for _ in range(3000):
        melds: list[Meld] = []
        for _ in range(rng.randint(0, 4)):
            t = rng.randrange(NUM_KINDS)
            make = rng.choice((pung, kong) if t > 24 or t % 9 > 6 else (pung, kong, chow))
            melds.append(make(t))
        n = 13 - 3 * len(melds)
        pool = rng.sample(range(NUM_KINDS), rng.randint(1, 5))
        concealed = [rng.choice(pool) for _ in range(n)]
        win = rng.choice(pool)
        reference = hand_module.Hand(tuple(sorted(concealed)), tuple(melds), win)
        over = [t for t, c in enumerate(reference.counts()) if c > 4]
        try:
            got = winning_hand(concealed, melds, win)
        except TooManyCopiesError as err:
            assert over and err.message.startswith(format_tile(over[0]) + ":"), (concealed, melds, win)
            refused += 1
            continue
        assert not over and got == reference
        accepted += 1
    assert refused > 300 and accepted > 300


def test_missing_winning_tile() -> None:
    with pytest.raises(MissingWinningTileError) as err:
        winning_hand(P("123m456p789sEEE1m"), (), None)
    assert err.value.code == "MISSING_WINNING_TILE" and err.value.field == "winning_tile"


def test_bad_winning_tile_index() -> None:
    with pytest.raises(BadTileError) as err:
        make_hand(P("123m456p789s99sEE"), (), 99)
    assert err.value.field == "winning_tile"
    with pytest.raises(BadTileError) as err:
        make_hand([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -4], sizes=(13,))
    assert err.value.field == "concealed[12]"


# --------------------------------------------------------------------------------------------- contexts


WIN = winning_hand(P("456p789s123sE"), (kong(0),), P("E")[0])  # 13 + E, with a kong
PLAIN = winning_hand(P("123m456p789s78sEE"), (), P("9s")[0])


@pytest.mark.parametrize(("ctx", "field"), [
    (WinContext(robbing_kong=True, self_drawn=True), "robbing_kong"),
    (WinContext(replacement_tile=True), "replacement_tile"),
    (WinContext(robbing_kong=True, last_wall_tile=True), "robbing_kong"),
    (WinContext(robbing_kong=True, replacement_tile=True, self_drawn=True), "robbing_kong"),
    (WinContext(heavenly=True, earthly=True, self_drawn=True), "heavenly"),
    (WinContext(heavenly=True), "heavenly"),
    (WinContext(earthly=True, self_drawn=True), "earthly"),  # the hand has an exposed kong
    (WinContext(heavenly_ready=True), "heavenly_ready"),
    (WinContext(robbing_kong=True), "robbing_kong"),  # the hand holds another E
    (WinContext(last_of_kind=True), "last_of_kind"),  # E is also concealed
])
def test_contradictory_contexts(ctx: WinContext, field: str) -> None:
    with pytest.raises(ContradictoryContextError) as err:
        validate_context(ctx, WIN)
    assert err.value.code == "CONTRADICTORY_CONTEXT"
    assert err.value.field == field
    assert field in err.value.message


def test_replacement_needs_a_kong() -> None:
    with pytest.raises(ContradictoryContextError) as err:
        validate_context(WinContext(replacement_tile=True, self_drawn=True), PLAIN)
    assert err.value.field == "replacement_tile"
    assert validate_context(WinContext(replacement_tile=True, self_drawn=True), WIN)


@pytest.mark.parametrize(("ctx", "field"), [
    (WinContext(seat_wind=7), "seat_wind"),  # type: ignore[arg-type]
    (WinContext(prevalent_wind=-1), "prevalent_wind"),  # type: ignore[arg-type]
    (WinContext(flowers=9), "flowers"),
    (WinContext(flowers=-1), "flowers"),
])
def test_bad_context(ctx: WinContext, field: str) -> None:
    with pytest.raises(BadContextError) as err:
        validate_context(ctx, PLAIN)
    assert err.value.code == "BAD_CONTEXT" and err.value.field == field


@pytest.mark.parametrize("flag", hand_module._FLAGS)
@pytest.mark.parametrize("value", [1, 0, 1.0, "yes", None, [True]])
def test_every_flag_is_checked_for_a_bool(flag: str, value: object) -> None:
    """The spelled-out fast check (`_flags_are_bools`) against the plain loop over `_FLAGS`: a non-bool
    in any one flag is reported naming it, and every flag of a WinContext that is a bool is in `_FLAGS`."""
    ctx = WinContext(**{flag: value})  # type: ignore[arg-type]
    assert not hand_module._flags_are_bools(ctx)
    with pytest.raises(BadContextError) as err:
        validate_context(ctx, PLAIN)
    assert err.value.field == flag
    assert hand_module._flags_are_bools(WinContext(**{flag: True}))


def test_the_fast_flag_check_reads_only_the_shared_flags() -> None:
    # a rule set's own flag (Riichi's, Guangdong's) is that rule set's to check, not the shared check's
    for name in ("riichi", "ippatsu", "follow_dealer", "after_kong_discard"):
        assert name not in hand_module._FLAGS
        assert hand_module._flags_are_bools(WinContext(**{name: 1}))  # type: ignore[arg-type]


def test_consistent_context_passes() -> None:
    ctx = WinContext(self_drawn=True, last_wall_tile=True, seat_wind=Wind.SOUTH, prevalent_wind=Wind.WEST,
                     flowers=8)
    assert validate_context(ctx, PLAIN) is ctx
    robbed = winning_hand(P("123m456p789s2355m"), (), P("4m")[0])
    assert validate_context(WinContext(robbing_kong=True), robbed)


def test_unknown_rule_set() -> None:
    with pytest.raises(UnknownRuleSetError) as err:
        rules.get("riichi-but-not-yet")
    assert err.value.code == "UNKNOWN_RULE_SET" and err.value.field == "rule_set"


def test_rule_sets_are_looked_up_once_and_kept_by_canonical_name() -> None:
    """`rules.get` keeps each rule set it found (engine.rules.catalog._LOADED) under its canonical name and
    "" only: any spelling finds the same object, an unknown name is refused every time, and spellings sent
    by clients never grow the table."""
    from engine.rules import catalog

    for name in rules.names():
        for spelling in (name, name.upper(), name.title(), name.swapcase()):
            assert rules.get(spelling) is rules.get(name)
        assert rules.get(name).name == name
    assert rules.get("") is rules.get("mcr") is rules.get(catalog.DEFAULT)
    for _ in range(2):
        with pytest.raises(UnknownRuleSetError):
            rules.get("MCR ")
    assert set(catalog._LOADED) <= {*rules.names(), ""}


def test_every_error_code_is_covered_here() -> None:
    classes = (BadTileError, TileCountError, TooManyCopiesError, BadMeldError, ContradictoryContextError,
               BadContextError, MissingWinningTileError, UnknownRuleSetError, BadOptionError)
    assert tuple(c.code for c in classes) == ERROR_CODES
    assert all(issubclass(c, EngineError) and issubclass(c, ValueError) for c in classes)
    assert isinstance(Meld(MeldKind.PUNG, (0, 0, 0)), Meld)
