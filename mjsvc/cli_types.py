"""The value types every command's flags share (`mjsvc serve`, `batch`, `loadgen`, `web`): a value a command
cannot use is refused by argparse before anything starts, naming the flag (exit status 2); a default taken
from an environment variable is held to the same type, naming the variable (exit status 1)."""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Mapping
from typing import TypeVar

V = TypeVar("V", int, float, str, bool)

MAX_PORT = 65535


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """A whole number from `low` up to `high` (no upper bound when None)."""
    bounds = f"from {low} to {high}" if high is not None else f"of at least {low}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{value} is out of range: a whole number {bounds}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in its own messages
    return parse


def number(low: float, high: float | None = None, *, low_allowed: bool = True) -> Callable[[str], float]:
    """A finite number at least `low` (over it, when `low_allowed` is false), and at most `high` if given."""
    bounds = f"{'at least' if low_allowed else 'over'} {low:g}" + (f" and at most {high:g}" if high is not None else "")

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if (not math.isfinite(value) or value < low or (value == low and not low_allowed)
                or (high is not None and value > high)):
            raise argparse.ArgumentTypeError(f"{text} is out of range: a number {bounds}")
        return value

    parse.__name__ = "number"
    return parse


port = whole(0, MAX_PORT)

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def log_level(text: str) -> str:
    """A logging level's name, in any case."""
    name = text.strip().upper()
    if name not in LOG_LEVELS:
        raise argparse.ArgumentTypeError(f"{text!r} is not one of {', '.join(LOG_LEVELS)}")
    return name


ON = ("1", "true", "yes", "on")
OFF = ("0", "false", "no", "off")


def on_off(text: str) -> bool:
    """An on/off variable (its flag is --name / --no-name): either spelling, in any case."""
    word = text.strip().lower()
    if word not in ON and word not in OFF:
        raise argparse.ArgumentTypeError(f"expected one of {', '.join(ON + OFF)}")
    return word in ON


def any_text(value: str) -> str:
    """Any string (a host, a path): the type of a flag that takes what it is given."""
    return value


def from_env(name: str, default: V, parse: Callable[[str], V], environ: Mapping[str, str] | None = None) -> V:
    """The variable `name` of `environ` (the process's own by default) read with `parse` (its flag's type),
    or `default` when it is unset or empty."""
    raw = (os.environ if environ is None else environ).get(name)
    if raw is None or raw == "":
        return default
    try:
        return parse(raw)
    except argparse.ArgumentTypeError as e:
        raise SystemExit(f"{name}={raw!r}: {e}") from None
