"""Hand-picked MCR examples: one positive example per fan, key exclusions, non-winning hands."""

from __future__ import annotations

import pytest

from engine.hand import ClaimedFrom, Meld, MeldKind, WinContext, Wind, make_meld, validate_context, winning_hand
from engine.rules.mcr import RULE_SET
from engine.rules.mcr.fans import BY_ID, FANS
from engine.tiles import parse_tile, parse_tiles


def meld(spec: str) -> Meld:
    """'chow:123m', 'pung:5p', 'kong:E' (exposed), 'ckong:E' (concealed), 'akong:E' (added)."""
    kind, tiles = spec.split(":")
    ts = parse_tiles(tiles)
    if kind == "chow":
        return make_meld(MeldKind.CHOW, ts, claimed_from=ClaimedFrom.LEFT, claimed_index=0)
    if kind == "pung":
        return make_meld(MeldKind.PUNG, ts * 3, claimed_from=ClaimedFrom.ACROSS)
    if kind == "ckong":
        return make_meld(MeldKind.KONG, ts * 4, concealed=True)
    return make_meld(MeldKind.KONG, ts * 4, added=kind == "akong", claimed_from=ClaimedFrom.RIGHT)


def fans_of(concealed: str, win: str, melds: tuple[str, ...] = (), **ctx: object) -> dict[int, int]:
    hand = winning_hand(parse_tiles(concealed), [meld(m) for m in melds], parse_tile(win))
    context = WinContext(**ctx)  # type: ignore[arg-type]
    validate_context(context, hand)
    ev = RULE_SET.evaluate(hand, context)
    assert ev.is_win and ev.best is not None
    return {f.fan.id: f.count for f in ev.best.fans}


# fan id -> (concealed tiles, winning tile, melds, context)
EXAMPLES: dict[int, tuple[str, str, tuple[str, ...], dict[str, object]]] = {
    1: ("EEESSSWWWNNN1m", "1m", (), {}),
    2: ("CCCFFFPPP123m1p", "1p", (), {}),
    3: ("234s234s666s888sF", "F", (), {}),
    4: ("1112345678999m", "5m", (), {}),
    5: ("5s", "5s", ("kong:E", "kong:S", "kong:1m", "ckong:9p"), {}),
    6: ("1122334455667m", "7m", (), {}),
    7: ("19m19p19sESWNCFP", "1m", (), {}),
    8: ("111m999m111p999p1s", "1s", (), {}),
    9: ("EEESSSWWWN123m", "N", (), {}),
    10: ("CCCFFFP123m456p", "P", (), {}),
    11: ("EEESSSCCCFFFW", "W", (), {}),
    12: ("111m333p555s777sE", "E", (), {}),
    13: ("1122337788995m", "5m", (), {}),
    14: ("1111222233335p", "5p", (), {}),
    15: ("111222333444m5p", "5p", (), {}),
    16: ("123234345456m9p", "9p", (), {}),
    17: ("456m5p", "5p", ("kong:1m", "kong:2p", "ckong:3s"), {}),
    18: ("111m999pEEECCC1s", "1s", (), {}),
    19: ("1133m5577p99sEEC", "C", (), {}),
    20: ("147m25p36sESWNCF", "P", (), {}),
    21: ("222m444p666s888m2s", "2s", (), {}),
    22: ("1234567892221m", "1m", (), {}),
    23: ("112233m456p5s", "5s", ("chow:123m",), {}),
    24: ("111222333m456p5s", "5s", (), {}),
    25: ("789m789p789s888s9m", "9m", (), {}),
    26: ("456m456p456s444m5s", "5s", (), {}),
    27: ("123m123p123s111m2s", "2s", (), {}),
    28: ("123456789m123p5s", "5s", (), {}),
    29: ("123789m123789p5s", "5s", (), {}),
    30: ("123234345m789p5s", "5s", (), {}),
    31: ("345m456p567s555m5p", "5p", (), {}),
    32: ("222m222p222s789m5s", "5s", (), {}),
    33: ("111m333p555s789m9s", "9s", (), {}),
    34: ("147m258p369sESWN", "C", (), {}),
    35: ("147m258p369s123m5p", "5p", (), {}),
    36: ("678m678p789s666m9s", "9s", (), {}),
    37: ("234m234p123s444m1s", "1s", (), {}),
    38: ("EEESSSWWW123m5p", "5p", (), {}),
    39: ("123m456p789s234m5s", "5s", (), {}),
    40: ("123p345p888p456sP", "P", (), {}),
    41: ("123m123p123s789m5s", "5s", (), {}),
    42: ("111m222p333s789m5s", "5s", (), {}),
    43: ("78sEE", "6s", ("chow:234m", "chow:567p", "pung:3s"), {}),
    44: ("78sEE", "6s", ("chow:234m", "chow:567p", "pung:3s"), {"self_drawn": True, "last_wall_tile": True}),
    45: ("78sEE", "6s", ("chow:234m", "chow:567p", "pung:3s"), {"last_wall_tile": True}),
    46: ("78sEE", "6s", ("chow:234m", "chow:567p", "kong:3s"), {"self_drawn": True, "replacement_tile": True}),
    47: ("78sEE", "6s", ("chow:234m", "chow:567p", "pung:3s"), {"robbing_kong": True}),
    48: ("333p666s888mE", "E", ("pung:2m",), {}),
    49: ("123m345m666m999mE", "E", (), {}),
    50: ("123m234p345s789m5s", "5s", (), {}),
    51: ("123m456p789sEEEC", "C", (), {}),
    52: ("5p", "5p", ("chow:123m", "chow:456p", "chow:789s", "pung:2m"), {}),
    53: ("456s789s5p", "5p", ("ckong:1m", "ckong:9p"), {}),
    54: ("123m456pCCCFFF1s", "1s", (), {}),
    55: ("123m789p111sEEE9m", "9m", (), {}),
    56: ("123m456p789s234s5p", "5p", (), {"self_drawn": True}),
    57: ("456s789s5p", "5p", ("kong:1m", "kong:9p"), {}),
    58: ("78sEE", "6s", ("chow:234m", "chow:567p", "pung:3s"), {"last_of_kind": True}),
    59: ("123m456p789sCCC1s", "1s", (), {}),
    60: ("EEE123m456p789s1s", "1s", (), {"prevalent_wind": Wind.EAST, "seat_wind": Wind.SOUTH}),
    61: ("EEE123m456p789s1s", "1s", (), {"prevalent_wind": Wind.SOUTH, "seat_wind": Wind.EAST}),
    62: ("123m456p789s234s5p", "5p", (), {}),
    63: ("123m456p789s234s5p", "5p", (), {}),
    64: ("123m333m456p789s5p", "5p", (), {}),
    65: ("222m222p123s456s5p", "5p", (), {}),
    66: ("222m333p123s456s5p", "5p", (), {}),
    67: ("456s789s123p5p", "5p", ("ckong:1m",), {}),
    68: ("234m456p678s345s5p", "5p", (), {}),
    69: ("123m123m456p678s5p", "5p", (), {}),
    70: ("123m123p456s789s5p", "5p", (), {}),
    71: ("123m456m789p789s5p", "5p", (), {}),
    72: ("123m789m456p456s5p", "5p", (), {}),
    73: ("111m456p789s234s5p", "5p", (), {}),
    74: ("456s789s123p5p", "5p", ("kong:1m",), {}),
    75: ("123m456m789p234p5p", "5p", (), {}),
    76: ("111m456p789s234s5p", "5p", (), {}),
    77: ("12m456p789s234s55p", "3m", (), {}),
    78: ("13m456p789s234s55p", "2m", (), {}),
    79: ("123m456p789s234sE", "E", (), {}),
    80: ("5p", "5p", ("chow:123m", "chow:456p", "chow:789s", "pung:2m"), {"self_drawn": True}),
    81: ("123m456p789s234s5p", "5p", (), {"flowers": 3}),
    82: ("456s789s5p", "5p", ("ckong:1m", "kong:9p"), {}),
}


def test_catalogue_is_complete_and_consistent() -> None:
    assert [f.id for f in FANS] == list(range(1, 83))
    assert RULE_SET.name == "mcr" and RULE_SET.min_points == 8 and len(RULE_SET.tile_kinds) == 34
    for f in FANS:
        assert all(x in BY_ID for x in f.excludes)
        # Exclusions flow from higher to lower (or equal) value: the visit order relies on it.
        assert all(BY_ID[x].points <= f.points for x in f.excludes), f.name


@pytest.mark.parametrize("fan_id", sorted(EXAMPLES))
def test_fan_positive_example(fan_id: int) -> None:
    concealed, win, melds, ctx = EXAMPLES[fan_id]
    assert fan_id in fans_of(concealed, win, melds, **ctx), BY_ID[fan_id].name


def test_every_fan_has_an_example() -> None:
    assert set(EXAMPLES) == {f.id for f in FANS}


@pytest.mark.parametrize(
    ("concealed", "win", "melds", "ctx", "present", "absent"),
    [
        # Fully Concealed Hand takes Self-Drawn in; Nine Gates takes FCH in and Self-Drawn stays.
        ("123m456p789s234s5p", "5p", (), {"self_drawn": True}, {56}, {80, 62}),
        ("1112345678999m", "5m", (), {"self_drawn": True}, {4, 80, 73}, {56, 22, 62}),
        # Big Three Winds consumes its own pungs of honours; the fourth terminal pung still counts once.
        ("EEESSSWWW111m5p", "5p", (), {"prevalent_wind": Wind.NORTH, "seat_wind": Wind.NORTH}, {38, 73}, set()),
        # Prevalent wind pung is not also a pung of terminals or honours.
        ("EEE123m456p789s5s", "5s", (), {"prevalent_wind": Wind.EAST, "seat_wind": Wind.SOUTH}, {60}, {73}),
        # Robbing the kong: never also Last Tile.
        ("78sEE", "6s", ("chow:234m", "chow:567p", "pung:3s"), {"robbing_kong": True, "last_of_kind": True},
         {47}, {58}),
        # The other three copies in one's own melds: the winning tile is the last of its kind.
        ("78sEE", "6s", ("chow:234m", "chow:567p", "pung:6s"), {}, {58}, set()),
        # Seven pairs is concealed by nature: no Concealed Hand, no Single Wait.
        ("1133m5577p99sEEC", "C", (), {}, {19}, {62, 79}),
        # All Simples takes No Honors in; All Chows too.
        ("234m456p678s345s5p", "5p", (), {}, {68, 63}, {76}),
        # Two concealed kongs: not also Concealed Kong or Two Concealed Pungs.
        ("456s789s5p", "5p", ("ckong:1m", "ckong:9p"), {}, {53}, {67, 66}),
        # A concealed pung completed by a discard is exposed.
        ("111m333p789m55s99s", "5s", (), {}, {66}, {33}),
        ("111m333p789m55s99s", "5s", (), {"self_drawn": True}, {33}, {66}),
        # Account once: 234567s234567p -> two Mixed Double Chows and one Short Straight at most three fans.
        ("234567s234567p5m", "5m", (), {}, {70, 71}, set()),
    ],
)
def test_exclusions(concealed: str, win: str, melds: tuple[str, ...], ctx: dict[str, object],
                    present: set[int], absent: set[int]) -> None:
    got = fans_of(concealed, win, melds, **ctx)
    assert present <= set(got), {BY_ID[i].name for i in present - set(got)}
    assert not absent & set(got), {BY_ID[i].name for i in absent & set(got)}


def test_account_once_caps_two_set_fans() -> None:
    got = fans_of("234567s234567p5m", "5m")
    assert got[70] + got.get(71, 0) == 3


@pytest.mark.parametrize(
    ("concealed", "win", "melds"),
    [
        ("123m456p789s235s5p", "9m", ()),
        ("1133m5577p99sEEC", "P", ()),
        ("19m19p19sESWNCFF", "2m", ()),
        ("147m258p369s12m55p", "9p", ()),
        ("5p", "6p", ("chow:123m", "chow:456p", "chow:789s", "pung:2m")),
    ],
)
def test_non_winning_hands_are_not_errors(concealed: str, win: str, melds: tuple[str, ...]) -> None:
    hand = winning_hand(parse_tiles(concealed), [meld(m) for m in melds], parse_tile(win))
    ev = RULE_SET.evaluate(hand, WinContext())
    assert not ev.is_win and ev.best is None and ev.alternatives == ()


def test_every_decomposition_is_scored_best_first() -> None:
    hand = winning_hand(parse_tiles("455556666777p5s"), [], parse_tile("5s"))
    ev = RULE_SET.evaluate(hand, WinContext())
    assert ev.best is not None and len(ev.alternatives) >= 1
    totals = [ev.best.total] + [s.total for s in ev.alternatives]
    assert totals == sorted(totals, reverse=True)
    # Equal totals: the decomposition with Pure Triple Chow is preferred (the documented tie-break).
    assert 23 in {f.fan.id for f in ev.best.fans}
    assert ev.best.meets_minimum


def test_flowers_do_not_count_towards_the_minimum() -> None:
    hand = winning_hand(parse_tiles("123m456p678s234s5p"), [], parse_tile("5p"))
    ev = RULE_SET.evaluate(hand, WinContext(flowers=8))
    assert ev.best is not None  # All Chows 2 + Concealed Hand 2 + Single Wait 1, plus 8 flowers
    assert ev.best.total == 13 and not ev.best.meets_minimum


def test_fan_hits_name_their_sets() -> None:
    hand = winning_hand(parse_tiles("EEE123m456p789s1s"), [], parse_tile("1s"))
    ev = RULE_SET.evaluate(hand, WinContext(prevalent_wind=Wind.EAST))
    assert ev.best is not None
    sets = ev.best.decomposition.sets
    by_id = {f.fan.id: f for f in ev.best.fans}
    (wind_set,) = by_id[60].set_indices
    assert sets[wind_set].first == parse_tile("E")
    assert len(by_id[39].set_indices) == 3  # Mixed Straight names its three chows
