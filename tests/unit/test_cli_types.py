"""The flag value types the commands share (mjsvc/cli_types.py)."""

from __future__ import annotations

import argparse

import pytest

from mjsvc import cli_types


def test_whole_numbers_and_their_bounds() -> None:
    parse = cli_types.whole(1, 10)
    assert [parse(t) for t in ("1", "10", " 7 ")] == [1, 10, 7]
    for text, message in (("0", "0 is out of range: a whole number from 1 to 10"), ("11", "11 is out of range"),
                          ("1.5", "'1.5' is not a whole number"), ("", "'' is not a whole number")):
        with pytest.raises(argparse.ArgumentTypeError, match=message):
            parse(text)
    assert cli_types.whole(0)("123456789") == 123456789
    with pytest.raises(argparse.ArgumentTypeError, match="a whole number of at least 0"):
        cli_types.whole(0)("-1")


def test_ports() -> None:
    assert cli_types.port("0") == 0 and cli_types.port("65535") == 65535
    with pytest.raises(argparse.ArgumentTypeError, match="from 0 to 65535"):
        cli_types.port("65536")


def test_numbers_refuse_nan_infinity_and_their_bound() -> None:
    over_0 = cli_types.number(0, low_allowed=False)
    assert over_0("0.5") == 0.5 and over_0("1e3") == 1000.0
    for text in ("0", "-1", "nan", "inf", "-inf", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            over_0(text)
    assert cli_types.number(0)("0") == 0.0


def test_a_variable_is_held_to_its_flag_type(monkeypatch: pytest.MonkeyPatch) -> None:
    parse = cli_types.whole(1)
    monkeypatch.delenv("MJSVC_TEST_VALUE", raising=False)
    assert cli_types.from_env("MJSVC_TEST_VALUE", 5, parse) == 5
    monkeypatch.setenv("MJSVC_TEST_VALUE", "")
    assert cli_types.from_env("MJSVC_TEST_VALUE", 5, parse) == 5
    monkeypatch.setenv("MJSVC_TEST_VALUE", "9")
    assert cli_types.from_env("MJSVC_TEST_VALUE", 5, parse) == 9
    monkeypatch.setenv("MJSVC_TEST_VALUE", "0")
    with pytest.raises(SystemExit, match="MJSVC_TEST_VALUE='0': 0 is out of range"):
        cli_types.from_env("MJSVC_TEST_VALUE", 5, parse)


def test_log_levels_in_any_case() -> None:
    assert [cli_types.log_level(t) for t in ("debug", " Info ", "WARNING", "error")] == list(cli_types.LOG_LEVELS)
    with pytest.raises(argparse.ArgumentTypeError, match="'loud' is not one of DEBUG, INFO, WARNING, ERROR"):
        cli_types.log_level("loud")


def test_a_number_with_both_bounds() -> None:
    fraction = cli_types.number(0, 1)
    assert fraction("0") == 0.0 and fraction("1") == 1.0 and fraction("0.95") == 0.95
    for text in ("1.01", "-0.1", "inf", "nan"):
        with pytest.raises(argparse.ArgumentTypeError, match="a number at least 0 and at most 1"):
            fraction(text)


def test_on_off_takes_both_spellings_in_any_case() -> None:
    assert [cli_types.on_off(w) for w in ("1", "TRUE", " yes ", "On")] == [True] * 4
    assert [cli_types.on_off(w) for w in ("0", "False", "no", "OFF")] == [False] * 4
    for word in ("maybe", "", "2"):
        with pytest.raises(argparse.ArgumentTypeError, match="expected one of 1, true, yes, on, 0, false, no, off"):
            cli_types.on_off(word)


def test_a_variable_is_read_from_the_environment_given() -> None:
    assert cli_types.from_env("MJSVC_TEST_VALUE", 5, cli_types.whole(1), {"MJSVC_TEST_VALUE": "7"}) == 7
    assert cli_types.from_env("MJSVC_TEST_VALUE", True, cli_types.on_off, {"MJSVC_TEST_VALUE": "off"}) is False
    assert cli_types.from_env("MJSVC_TEST_VALUE", "x", cli_types.any_text, {}) == "x"
