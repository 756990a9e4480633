"""The proto <-> engine conversion layer: validation with request paths, and results to messages."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2, status_pb2

from engine.errors import (
    BadContextError,
    BadMeldError,
    BadOptionError,
    BadTileError,
    EngineError,
    MissingWinningTileError,
    TileCountError,
    TooManyCopiesError,
)
from engine.hand import ClaimedFrom, MeldKind, Suit, Wind
from engine.results import Analysis, DiscardOption, Evaluation, FanDef, FanHit, Scoring, TileCount
from engine.shapes import Decomposition, SetKind, ShapeKind, TileSet
from engine.tiles import EAST, RED, WHITE, parse_tiles
from mjsvc import convert
from mjsvc.errors import Failure, place, qualify
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb


def P(text: str) -> list[int]:
    """Proto Tile values of a tile string."""
    return [t + 1 for t in parse_tiles(text)]


def test_tile_values_are_index_plus_one() -> None:
    assert pb.TILE_M1 == 1 and pb.TILE_P1 == 10 and pb.TILE_S9 == 27
    assert pb.TILE_EAST == EAST + 1 and pb.TILE_RED == RED + 1 and pb.TILE_WHITE == 34
    assert convert.tile_from_proto(pb.TILE_RED, "x") == RED
    assert [convert.tile_from_proto(v, "x") for v in range(1, 35)] == list(range(34))


@pytest.mark.parametrize("value", [0, 35, 99, -1])
def test_unspecified_or_unknown_tile_is_bad_tile(value: int) -> None:
    with pytest.raises(BadTileError) as info:
        convert.tiles_from_proto([1, 2, value], "hand.concealed")
    assert info.value.field == "hand.concealed[2]"
    assert info.value.message.startswith("hand.concealed[2]: ")


def test_a_bad_tile_is_named_in_any_iterable() -> None:
    """An iterable read once (not a list or a repeated field) is still held to the tiles and named."""
    with pytest.raises(BadTileError) as info:
        convert.tiles_from_proto(iter([1, 2, 35]), "visible")
    assert info.value.field == "visible[2]"
    assert convert.tiles_from_proto(iter([1, 34]), "visible") == [0, 33]


def test_hand_with_melds_and_winning_tile() -> None:
    msg = pb.Hand(
        concealed=P("123m456p1z"),
        melds=[pb.Meld(kind=pb.MELD_KIND_CHOW, tiles=P("789s"), claimed_from=pb.CLAIMED_FROM_LEFT, claimed_index=0),
               pb.Meld(kind=pb.MELD_KIND_KONG, tiles=P("5555z"), concealed=True)],
        winning_tile=pb.TILE_EAST,
    )
    hand = convert.hand_from_proto(msg, winning=True)
    assert hand.concealed == tuple(parse_tiles("123m456p1z"))
    assert hand.winning_tile == EAST
    chow, kong = hand.melds
    assert chow.kind == MeldKind.CHOW and chow.claimed_from == ClaimedFrom.LEFT and chow.claimed_index == 0
    assert kong.kind == MeldKind.KONG and kong.concealed and kong.claimed_index is None


def test_hand_to_analyse_accepts_13_and_14_tiles_without_winning_tile() -> None:
    assert convert.hand_from_proto(pb.Hand(concealed=P("123456789m1122z")), winning=False).size == 13
    assert convert.hand_from_proto(pb.Hand(concealed=P("123456789m11223z")), winning=False).size == 14


@pytest.mark.parametrize(
    ("hand", "winning", "error", "field"),
    [
        (pb.Hand(concealed=P("123m")), False, TileCountError, "hand.concealed"),
        (pb.Hand(concealed=P("123456789m1122z")), True, MissingWinningTileError, "hand.winning_tile"),
        (pb.Hand(concealed=P("11111m23456789p"), winning_tile=pb.TILE_P1), True, TooManyCopiesError,
         "hand.concealed"),
        (pb.Hand(concealed=P("123456789m1z"), melds=[pb.Meld(kind=pb.MELD_KIND_PUNG, tiles=P("111z"))],
                 winning_tile=pb.TILE_EAST), True, TooManyCopiesError, "hand.concealed"),
        (pb.Hand(concealed=P("123456789m1z"), melds=[pb.Meld(kind=pb.MELD_KIND_CHOW, tiles=P("123z"))],
                 winning_tile=pb.TILE_EAST), True, BadMeldError, "hand.melds[0].tiles"),
        (pb.Hand(concealed=P("123456789m1z"), melds=[pb.Meld(kind=pb.MELD_KIND_UNSPECIFIED, tiles=P("222z"))],
                 winning_tile=pb.TILE_EAST), True, BadMeldError, "hand.melds[0].kind"),
        (pb.Hand(concealed=P("123456m1z"), melds=[pb.Meld(kind=pb.MELD_KIND_PUNG, tiles=P("777m")),
                                                   pb.Meld(kind=pb.MELD_KIND_PUNG, tiles=P("78m9m"))],
                 winning_tile=pb.TILE_EAST), True, BadMeldError, "hand.melds[1].tiles"),
        (pb.Hand(concealed=P("123456789m1z"), melds=[pb.Meld(kind=pb.MELD_KIND_PUNG, tiles=[1, 1, 0])],
                 winning_tile=pb.TILE_EAST), True, BadTileError, "hand.melds[0].tiles[2]"),
        (pb.Hand(concealed=P("123456789m1z"), melds=[pb.Meld(kind=pb.MELD_KIND_PUNG, tiles=P("555z"),
                                                             claimed_index=5)],
                 winning_tile=pb.TILE_EAST), True, BadMeldError, "hand.melds[0].claimed_index"),
        (pb.Hand(concealed=P("123456789m1z"), melds=[pb.Meld(kind=pb.MELD_KIND_PUNG, tiles=P("555z"),
                                                             claimed_from=7)],
                 winning_tile=pb.TILE_EAST), True, BadMeldError, "hand.melds[0].claimed_from"),
        (pb.Hand(concealed=P("123456789m1122z"), winning_tile=40), True, BadTileError, "hand.winning_tile"),
    ],
)
def test_hand_errors_name_the_request_field(hand: pb.Hand, winning: bool, error: type[EngineError],
                                            field: str) -> None:
    with pytest.raises(error) as info:
        convert.hand_from_proto(hand, winning=winning)
    assert info.value.field == field
    assert field.split("[")[0].split(".")[0] in info.value.message


def _plain_hand_from_proto(msg: pb.Hand, winning: bool) -> object:
    """hand_from_proto without its shortcut for concealed hands: every hand through make_hand. The hand,
    or the error as (class, code, field, message)."""
    from engine.hand import make_hand, winning_hand

    try:
        concealed = convert.tiles_from_proto(msg.concealed, "hand.concealed")
        melds = [convert.meld_from_proto(m, f"hand.melds[{i}]") for i, m in enumerate(msg.melds)]
        win = convert.tile_from_proto(msg.winning_tile, "hand.winning_tile") if msg.winning_tile else None
        try:
            if winning:
                return winning_hand(concealed, melds, win, ())
            return make_hand(concealed, melds, win, sizes=(13, 14))
        except EngineError as err:
            raise qualify(err, "hand.") from None
    except EngineError as err:
        return type(err), err.code, err.field, err.message


def test_concealed_hands_read_as_make_hand_reads_them() -> None:
    """The shortcut for hands without melds or red fives (`convert._concealed_hand`) against the plain
    path on random hands of 11-16 tiles, with and without a winning tile, some with a kind five times or
    a bad tile value (concealed or winning), for Evaluate and Analyze: the same Hand or the same error,
    and both outcomes often."""
    import random

    rng = random.Random(29)
    outcomes = {"hand": 0, "error": 0}
    for _ in range(4000):
        kinds = rng.sample(range(1, 35), rng.randint(2, 9))
        tiles = [rng.choice(kinds) for _ in range(rng.randint(11, 15))]
        if rng.random() < 0.05:
            tiles[rng.randrange(len(tiles))] = rng.choice((0, 35, 99))
        msg = pb.Hand(concealed=tiles, winning_tile=rng.choice((0, *kinds)) if rng.random() < 0.97
                      else rng.choice((35, 99, -1)))  # an open enum: a value no Tile names is parsed
        for winning in (True, False):
            plain = _plain_hand_from_proto(msg, winning)
            try:
                got: object = convert.hand_from_proto(msg, winning=winning)
            except EngineError as err:
                got = type(err), err.code, err.field, err.message
            assert got == plain, (tiles, msg.winning_tile, winning)
            outcomes["error" if isinstance(plain, tuple) else "hand"] += 1
    assert min(outcomes.values()) > 500


def _random_meld(rng: Any, kinds: list[int]) -> pb.Meld:
    """A meld message, usually a valid one of the hand's kinds, sometimes wrong in one way or another."""
    kind = rng.choice((1, 1, 2, 2, 3)) if rng.random() < 0.95 else rng.choice((0, 4))
    first = rng.choice(kinds)
    if kind == 1:
        first = min(first, 26) if first <= 27 else rng.randint(1, 7)
        if first % 9 in (8, 0) and rng.random() < 0.8:
            first -= 2
        tiles = [first, first + 1, first + 2]
        rng.shuffle(tiles)
    else:
        tiles = [first] * (4 if kind == 3 else 3)
    if rng.random() < 0.05:
        tiles[rng.randrange(len(tiles))] = rng.choice((0, 35, first + 1))
    if rng.random() < 0.03:
        tiles.append(first)
    msg = pb.Meld(kind=kind, tiles=tiles, claimed_from=rng.choice((0, 1, 2, 3)) if rng.random() < 0.97 else 5)
    if kind == 3 and rng.random() < 0.5:
        if rng.random() < 0.5:
            msg.concealed = True
            if rng.random() < 0.9:
                msg.claimed_from = 0
        else:
            msg.added = True
    elif rng.random() < 0.02:
        msg.concealed = True
    if rng.random() < 0.5:
        msg.claimed_index = rng.choice((0, 1, 2)) if rng.random() < 0.97 else 4
    return msg


def test_melded_hands_read_as_make_hand_reads_them() -> None:
    """The shortcuts for melds (`convert._melds_from_proto`, each meld read once and handed out again) and
    for hands with melds (`convert._plain_hand`) against the plain path: random hands of 0-5 melds, mostly
    valid, some with a bad meld, a kind five times, too many tiles or melds, read twice (the second time
    from the kept melds) for Evaluate and Analyze, with the table of kept melds small enough to fill and
    start again many times: the same Hand or the same error, and both often."""
    import random

    rng = random.Random(31)
    outcomes = {"hand": 0, "error": 0}
    kept_before = convert._MELDS_KEPT
    convert._MELDS_KEPT = 64
    try:
        for _ in range(4000):
            kinds = rng.sample(range(1, 35), rng.randint(3, 9))
            melds = [_random_meld(rng, kinds) for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4, 5)))]
            n = 13 - 3 * len(melds) + rng.choice((0, 0, 0, 1, -1))
            tiles = [rng.choice(kinds) for _ in range(max(n, 1))]
            msg = pb.Hand(concealed=tiles, melds=melds, winning_tile=rng.choice((0, *kinds)))
            for winning in (True, False, True):
                plain = _plain_hand_from_proto(msg, winning)
                try:
                    got: object = convert.hand_from_proto(msg, winning=winning)
                except EngineError as err:
                    got = type(err), err.code, err.field, err.message
                assert got == plain, (msg, winning)
                outcomes["error" if isinstance(plain, tuple) else "hand"] += 1
            assert len(convert._MELDS) <= 64
    finally:
        convert._MELDS_KEPT = kept_before
    assert min(outcomes.values()) > 1500, outcomes


def test_a_hand_made_without_its_init_is_the_hand() -> None:
    """`convert._hand` (a Hand built without its interpreted dataclass `__init__`) against `Hand(...)` on
    random hands with and without melds and a winning tile: equal, the same hash, repr, fields and pickle,
    and as frozen."""
    import dataclasses
    import pickle
    import random

    from engine.hand import Hand, make_meld

    rng = random.Random(37)
    for _ in range(500):
        melds = tuple(make_meld(MeldKind.PUNG, (t,) * 3) for t in rng.sample(range(34), rng.randint(0, 4)))
        concealed = tuple(sorted(rng.randrange(34) for _ in range(13 - 3 * len(melds))))
        win = rng.choice((None, rng.randrange(34)))
        made, plain = convert._hand(concealed, melds, win), Hand(concealed, melds, win)
        assert type(made) is Hand and made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
        values = [tuple(getattr(h, f.name) for f in dataclasses.fields(Hand)) for h in (made, plain)]
        assert values[0] == values[1] == (concealed, melds, win, ())
        assert pickle.loads(pickle.dumps(made)) == plain
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.winning_tile = 3  # type: ignore[misc]


def test_a_kept_meld_is_the_meld_read() -> None:
    """A meld handed out again equals what make_meld builds for the message, whatever was read before."""
    from engine.hand import make_meld

    a = pb.Meld(kind=pb.MELD_KIND_CHOW, tiles=[pb.TILE_P3, pb.TILE_P1, pb.TILE_P2], claimed_from=pb.CLAIMED_FROM_LEFT,
                claimed_index=2)
    b = pb.Meld(kind=pb.MELD_KIND_CHOW, tiles=[pb.TILE_P3, pb.TILE_P1, pb.TILE_P2], claimed_from=pb.CLAIMED_FROM_LEFT)
    for _ in range(2):
        got = convert.hand_from_proto(pb.Hand(concealed=[pb.TILE_M1] * 3 + [pb.TILE_M2] * 3 + [pb.TILE_EAST],
                                              melds=[a, b]), winning=False).melds
        assert got == (make_meld(MeldKind.CHOW, (10, 9, 11), claimed_from=ClaimedFrom.LEFT, claimed_index=2),
                       make_meld(MeldKind.CHOW, (10, 9, 11), claimed_from=ClaimedFrom.LEFT))
    # a meld carrying a field this server does not know (a newer client's) is read, and not kept
    padded = pb.Meld.FromString(b.SerializeToString() + b"\xfa\x06\x40" + b"x" * 64)  # field 111, 64 bytes
    key = padded.SerializeToString()
    assert len(key) > convert._MELD_BYTES
    hand = pb.Hand(concealed=[pb.TILE_M1] * 3 + [pb.TILE_M2] * 3 + [pb.TILE_EAST], melds=[padded, padded])
    assert convert.hand_from_proto(hand, winning=False).melds == (got[1], got[1])
    assert key not in convert._MELDS


def test_context_winds_unspecified_is_east() -> None:
    ctx = convert.context_from_proto(pb.WinContext())
    assert ctx.seat_wind == Wind.EAST and ctx.prevalent_wind == Wind.EAST
    ctx = convert.context_from_proto(pb.WinContext(seat_wind=pb.WIND_NORTH, prevalent_wind=pb.WIND_SOUTH,
                                                   self_drawn=True, flowers=3, heavenly=True))
    assert (ctx.seat_wind, ctx.prevalent_wind, ctx.self_drawn, ctx.flowers, ctx.heavenly) == (
        Wind.NORTH, Wind.SOUTH, True, 3, True)


def test_context_unknown_wind_is_bad_context() -> None:
    with pytest.raises(BadContextError) as info:
        convert.context_from_proto(pb.WinContext(prevalent_wind=9))
    assert info.value.field == "context.prevalent_wind"


def test_qualify_and_place_prefix_fields_and_messages() -> None:
    err = qualify(TileCountError("concealed: 3 tiles", "concealed"), "requests[2].")
    assert (type(err), err.field, err.message) == (TileCountError, "requests[2].concealed",
                                                   "requests[2].concealed: 3 tiles")
    assert place(BadContextError("flowers: 9 is out of range", "flowers")).field == "context.flowers"
    assert place(BadTileError("concealed[0]: suited", "concealed[0]")).field == "hand.concealed[0]"
    assert place(BadTileError("visible[0]: bad", "visible[0]")).field == "visible[0]"


# ---------------------------------------------------------------------------------------------
# engine -> proto, from hand-built results

PURE = FanDef(1, "Pure Straight", "清龙", 16, excludes=(2, 3), description="1-9 of one suit")
PAIR = FanDef(2, "All Chows", "平和", 2)


def _scoring() -> Scoring:
    sets = (TileSet(SetKind.CHOW, 0, concealed=False, meld_index=0), TileSet(SetKind.CHOW, 3, win_offset=1),
            TileSet(SetKind.CHOW, 6), TileSet(SetKind.PUNG, RED), TileSet(SetKind.PAIR, EAST))
    deco = Decomposition(ShapeKind.STANDARD, sets, (), 4)
    return Scoring((FanHit(PURE, 1, (0, 1, 2), tuple(range(9))), FanHit(PAIR, 2)), 20, True, deco)


def test_evaluation_to_proto() -> None:
    other = Scoring((), 0, False, Decomposition(ShapeKind.SEVEN_PAIRS,
                                                tuple(TileSet(SetKind.PAIR, t) for t in range(7))))
    msg = convert.evaluation_to_proto(Evaluation(True, _scoring(), (other,)))
    assert msg.is_win and msg.best.total == 20 and msg.best.meets_minimum
    fan = msg.best.fans[0]
    assert (fan.id, fan.name, fan.name_zh, fan.points, fan.count) == (1, "Pure Straight", "清龙", 16, 1)
    assert list(fan.set_indices) == [0, 1, 2] and list(fan.tiles) == list(range(1, 10))
    assert msg.best.fans[1].count == 2 and msg.best.fans[1].points == 2  # points per occurrence
    d = msg.best.decomposition
    assert d.shape == pb.SHAPE_KIND_STANDARD
    assert [s.kind for s in d.sets] == [pb.SET_KIND_CHOW] * 3 + [pb.SET_KIND_PUNG, pb.SET_KIND_PAIR]
    assert list(d.sets[0].tiles) == [1, 2, 3] and not d.sets[0].concealed and d.sets[0].meld_index == 0
    assert d.sets[1].HasField("win_offset") and d.sets[1].win_offset == 1 and not d.sets[1].HasField("meld_index")
    assert not d.sets[2].HasField("win_offset")
    assert list(d.sets[3].tiles) == [pb.TILE_RED] * 3 and list(d.sets[4].tiles) == [pb.TILE_EAST] * 2
    assert len(msg.alternatives) == 1 and msg.alternatives[0].decomposition.shape == pb.SHAPE_KIND_SEVEN_PAIRS


def test_non_win_has_no_best() -> None:
    msg = convert.evaluation_to_proto(Evaluation(False))
    assert not msg.is_win and not msg.HasField("best") and not msg.alternatives


def test_knitted_tiles_to_proto() -> None:
    knitted = tuple(parse_tiles("147m258p369s"))
    deco = Decomposition(ShapeKind.KNITTED_STRAIGHT, (TileSet(SetKind.CHOW, 18), TileSet(SetKind.PAIR, RED)),
                         knitted)
    msg = convert.decomposition_to_proto(deco)
    assert msg.shape == pb.SHAPE_KIND_KNITTED_STRAIGHT and list(msg.knitted) == [t + 1 for t in knitted]


def test_analysis_to_proto() -> None:
    a = Analysis(
        shanten=0,
        shanten_by_shape=((ShapeKind.STANDARD, 0), (ShapeKind.SEVEN_PAIRS, 3)),
        waits=(TileCount(0, 3), TileCount(8, 0, True)),
        useful_tiles=(TileCount(0, 3),),
        useful_count=3,
        discards=(DiscardOption(RED, 0, (TileCount(1, 4),), 4),),
    )
    msg = convert.analysis_to_proto(a)
    assert msg.shanten == 0 and msg.useful_count == 3
    assert [(w.tile, w.remaining, w.all_copies_held) for w in msg.waits] == [(1, 3, False), (9, 0, True)]
    assert [(s.shape, s.shanten) for s in msg.shanten_by_shape] == [(pb.SHAPE_KIND_STANDARD, 0),
                                                                    (pb.SHAPE_KIND_SEVEN_PAIRS, 3)]
    d = msg.discards[0]
    assert (d.tile, d.shanten, d.useful_count, d.useful_tiles[0].tile) == (pb.TILE_RED, 0, 4, pb.TILE_M2)
    # Shanten -1 (complete) survives the JSON mapping the batch tool prints.
    assert json_format.MessageToDict(convert.analysis_to_proto(Analysis(-1, ())))["shanten"] == -1


def test_fans_to_proto() -> None:
    msg = convert.fans_to_proto("mcr", (PURE, PAIR), 8)
    assert msg.rule_set == "mcr" and msg.min_points == 8
    assert [f.id for f in msg.fans] == [1, 2] and list(msg.fans[0].excludes) == [2, 3]
    assert msg.fans[0].description == "1-9 of one suit" and msg.fans[0].name_zh == "清龙"


def test_failure_status_carries_error_info_and_bad_request() -> None:
    failure = Failure.from_engine(BadMeldError("hand.melds[1].tiles: not a run", "hand.melds[1].tiles"))
    assert failure.to_json() == {"code": "INVALID_ARGUMENT", "reason": "BAD_MELD",
                                 "message": "hand.melds[1].tiles: not a run", "field": "hand.melds[1].tiles"}
    assert failure.to_proto().reason == "BAD_MELD"
    status = failure.to_status()
    assert status.code == grpc.StatusCode.INVALID_ARGUMENT
    (key, raw), = status.trailing_metadata
    assert key == "grpc-status-details-bin"
    details = status_pb2.Status.FromString(raw)
    assert details.code == grpc.StatusCode.INVALID_ARGUMENT.value[0] and details.message == failure.message
    info, bad = error_details_pb2.ErrorInfo(), error_details_pb2.BadRequest()
    assert details.details[0].Unpack(info) and details.details[1].Unpack(bad)
    assert info.reason == "BAD_MELD" and info.metadata["field"] == "hand.melds[1].tiles"
    assert bad.field_violations[0].field == "hand.melds[1].tiles"



@pytest.mark.parametrize(("rule_set", "options", "error", "field", "message"), [
    ("guangdong", pb.RuleOptions(guangdong=pb.GuangdongOptions(ghosts=[pb.TILE_WHITE, 999])), BadTileError,
     "options.guangdong.ghosts[1]", "999 is not a Tile value"),
    ("sichuan", pb.RuleOptions(sichuan=pb.SichuanOptions(void_suit=5)), BadOptionError,
     "options.sichuan.void_suit", "5 is not a Suit value"),
])
def test_wire_values_a_rule_set_maps_itself_are_refused_naming_the_field(
        rule_set: str, options: pb.RuleOptions, error: type[Exception], field: str, message: str) -> None:
    """Ghost tiles and the void suit are read by the rule sets' own `from_wire` (convert names no rule set)."""
    with pytest.raises(error) as err:
        convert.options_from_proto(rule_set, options)
    assert getattr(err.value, "field", None) == field and message in str(err.value)


def test_wire_values_a_rule_set_maps_itself_are_read() -> None:
    assert convert.options_from_proto("guangdong", pb.RuleOptions(guangdong=pb.GuangdongOptions(
        ghosts=[pb.TILE_WHITE]))) == {"ghosts": (WHITE,)}
    assert convert.options_from_proto("sichuan", pb.RuleOptions(sichuan=pb.SichuanOptions(void_suit=3))) == {
        "void_suit": Suit(2)}
