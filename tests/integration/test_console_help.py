"""Every command's `--help`, as a user runs it: the installed script from an empty directory with a clean
environment. The help text is built from the settings' descriptions; a literal `%` in one of them once made
`mjsvc serve --help` fail inside argparse."""

from __future__ import annotations

import installed
import pytest

from mjsvc import config

COMMANDS = [("mjsvc",), ("mjsvc", "serve"), ("mjsvc", "batch"), ("mjsvc", "loadgen"), ("mjsvc", "web")]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_prints_and_exits_0(command: tuple[str, ...]) -> None:
    out = installed.run([installed.script(command[0]), *command[1:], "--help"], capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage: mjsvc") and "Traceback" not in out.stderr


def test_serve_help_shows_every_setting_with_its_variable() -> None:
    out = installed.run([installed.script("mjsvc"), "serve", "--help"], capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())  # argparse wraps the lines
    for name, var, description in config.SETTINGS:
        assert f"--{name.replace('_', '-')}" in text
        assert f"(env {var})" in text
        assert " ".join(description.split()[:4]) in text  # the words as written, a "%" shown as one
    assert "up to 90%," in text
