"""The fan-table model every rule set is declared on: rows, the one exclusion mechanism, options, declarations."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path

import pytest

from engine import api, rules
from engine.errors import BadContextError, BadOptionError, ContradictoryContextError
from engine.hand import WinContext, Wind, chow, kong, winning_hand
from engine.rules.model import CONTEXT_FIELDS, FanRow, FanTable, Options, Scope, option
from engine.rules.principles import Forest, Principles
from engine.tiles import parse_tile, parse_tiles

ROOT = Path(__file__).resolve().parents[2]


class Toy(IntEnum):
    BIG = 1
    MIDDLE = 2
    SMALL = 3
    PER_SET = 4


ROWS = (
    FanRow(Toy.BIG, "Big", "大", 8, excludes=(Toy.MIDDLE,), excludes_on_sets=(Toy.PER_SET,)),
    FanRow(Toy.MIDDLE, "Middle", "中", 4, excludes=(Toy.SMALL,)),
    FanRow(Toy.SMALL, "Small", "小", 1, combo=True),
    FanRow(Toy.PER_SET, "Per set", "每", 1, scope=Scope.SETS),
)


def test_table_checks_its_rows() -> None:
    table = FanTable("points", ROWS)
    assert [d.id for d in table.defs] == [1, 2, 3, 4] and table[Toy.BIG].native == "大"
    assert table.defs[0].excludes == (2, 4)
    with pytest.raises(ValueError, match="no row"):
        FanTable("points", ROWS[:3])
    with pytest.raises(ValueError, match="two rows"):
        FanTable("points", ROWS + ROWS[:1])


def test_principles_highest_first_and_excluded_fans_exclude_nothing() -> None:
    p = Principles(ROWS)
    # BIG removes MIDDLE, so MIDDLE removes nothing: SMALL stays
    assert p.apply({1: [(0,)], 2: [(1,)], 3: [(2,)]}) == {1: [(0,)], 3: [(2,)]}
    assert p.apply({2: [(1,)], 3: [(2,)]}) == {2: [(1,)]}
    # per set: only the occurrences inside BIG's sets go
    assert p.apply({1: [(0, 1)], 4: [(0,), (1,), (3,)]}) == {1: [(0, 1)], 4: [(3,)]}
    assert p.apply({1: [()], 4: [(0,)]}) == {1: [()], 4: [(0,)]}  # scored on no set: removes none per set


def test_account_once_forest() -> None:
    p = Principles(ROWS)
    # three SMALL combinations over sets 0-1, 1-2, 0-2: the third would close a cycle
    assert p.apply({3: [(0, 1), (1, 2), (0, 2)]}, Forest(3)) == {3: [(0, 1), (1, 2)]}
    assert p.apply({3: [(0, 1), (1, 2), (0, 2)]}) == {3: [(0, 1), (1, 2), (0, 2)]}  # no forest: all


@dataclass(frozen=True)
class ToyOptions(Options):
    rule_set = "toy"
    cap: int = option(8, "the cap", choices=(6, 8))
    open_ok: bool = option(True, "open hands allowed")


def test_options_from_a_mapping_are_checked_and_typed() -> None:
    assert ToyOptions.from_mapping(None) == ToyOptions() == ToyOptions.from_mapping({})
    assert ToyOptions.from_mapping({"cap": 6}).cap == 6
    for values, field in (({"cap": 7}, "options.toy.cap"), ({"cap": "8"}, "options.toy.cap"),
                          ({"open_ok": 1}, "options.toy.open_ok"), ({"nope": True}, "options.toy.nope")):
        with pytest.raises(BadOptionError) as err:
            ToyOptions.from_mapping(values)
        assert err.value.code == "BAD_OPTION" and err.value.field == field
    assert [name for name, _, _ in ToyOptions.documented()] == ["cap", "open_ok"]


def test_every_rule_set_declares_what_the_model_asks() -> None:
    for name in rules.names():
        rs = rules.get(name)
        assert rs.name == name and rs.title and rs.tiles and rs.shapes and rs.minimum >= 0
        assert set(rs.context_fields) <= set(CONTEXT_FIELDS) and len(set(rs.context_fields)) == len(rs.context_fields)
        assert rs.options(None) == rs.options_type() and rs.options({}) == rs.options_type()
        fans, minimum = api.list_fans(name)
        assert fans == rs.table.defs and minimum == rs.minimum
        ids = [r.id for r in rs.table.rows]
        assert all(isinstance(i, IntEnum) for i in ids)


def _context_reads(package: Path) -> set[str]:
    """Every WinContext field a rule set's source reads (`ctx.x`, `context.x`, `.ctx.x`)."""
    found: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in CONTEXT_FIELDS:
                base = node.value
                name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
                if name in ("ctx", "context"):
                    found.add(node.attr)
    return found


@pytest.mark.parametrize("name", rules.names())
def test_declared_context_fields_cover_what_the_code_reads(name: str) -> None:
    """A field read by name but not declared would let two answers share a key built from the declaration
    (tests/unit/test_context_fields.py checks the same by behaviour, whatever name the code reads it by)."""
    reads = _context_reads(ROOT / "engine" / "rules" / name)
    assert reads <= set(rules.get(name).context_fields)


# a fan registered, looked up, compared or mapped by a number instead of its name
_BARE_ID = re.compile(r"@\w*fan\(\s*\d|\b\d+ in (raw|ids|fans)\b|\b(fid|fan_id|\.id) [=!]= \d|"
                      r"frozenset\(\{\d|\{\d+: \d")


@pytest.mark.parametrize("path", sorted((ROOT / "engine" / "rules").rglob("*.py")), ids=lambda p: p.name)
def test_no_bare_fan_id_literal_in_scoring_code(path: Path) -> None:
    text = path.read_text()
    assert not _BARE_ID.search(text), _BARE_ID.search(text)


# -- mcr2p context gaps closed on the way (issue 12)

PLAIN = "123m456m789mEEE1m"


def _hand(concealed: str, win: str, *melds: object) -> object:
    return winning_hand(parse_tiles(concealed), melds, parse_tile(win))


def test_mcr2p_heavenly_ready_with_a_claimed_meld_is_contradictory() -> None:
    hand = _hand("456m789mEEE1m", "1m", chow(0))
    with pytest.raises(ContradictoryContextError) as err:
        api.evaluate(hand, WinContext(heavenly_ready=True, ready_declared=True), "mcr2p")
    assert err.value.field == "heavenly_ready"
    # a concealed kong is no claim (the seed: the dealer's own kong voids 天听 for the dealer only)
    ok = _hand("456m789mEEE1m", "1m", kong(parse_tile("2m"), concealed=True))
    assert api.evaluate(ok, WinContext(heavenly_ready=True, ready_declared=True, seat_wind=Wind.WEST), "mcr2p")


def test_mcr2p_seats() -> None:
    hand = _hand(PLAIN, "1m")
    for seat in (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH):  # default: any non-East seat is the non-dealer's
        assert api.evaluate(hand, WinContext(seat_wind=seat), "mcr2p").is_win
    west = {"non_dealer_seat": "west"}
    assert api.evaluate(hand, WinContext(seat_wind=Wind.WEST), "mcr2p", west).is_win
    assert api.evaluate(hand, WinContext(seat_wind=Wind.EAST), "mcr2p", west).is_win
    with pytest.raises(BadContextError) as err:
        api.evaluate(hand, WinContext(seat_wind=Wind.SOUTH), "mcr2p", west)
    assert err.value.field == "seat_wind"
    with pytest.raises(BadOptionError) as opt:
        api.evaluate(hand, WinContext(), "mcr2p", {"non_dealer_seat": "east"})
    assert opt.value.field == "options.mcr2p.non_dealer_seat"
    with pytest.raises(BadOptionError):
        api.evaluate(hand, WinContext(), "mcr", {"non_dealer_seat": "west"})
