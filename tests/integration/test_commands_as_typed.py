"""The commands as a user types them: the installed script from an empty directory with a clean environment.

Every `--help` prints (a literal `%` in a setting's description once made `mjsvc serve --help` fail inside
argparse); a flag or variable a command cannot use is refused before anything starts, naming it, with no
traceback (they were tracebacks, a port that wrapped around, or a simulator of 0 tables that never ended);
`mjsvc loadgen` with no server to reach says so within its --timeout. `mjsvc serve`'s own settings:
test_serve_settings.py."""

from __future__ import annotations

import subprocess
import time

import installed
import pytest

from mjsvc import config, launcher

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
    for name, var, _, description in config.SETTINGS:
        assert f"--{name.replace('_', '-')}" in text
        assert f"(env {var})" in text
        assert " ".join(description.split()[:4]) in text  # the words as written, a "%" shown as one
    assert "up to 90%," in text


@pytest.mark.parametrize(("argv", "message"), [
    (("loadgen", "--tables", "0"), "argument --tables: 0 is out of range: a whole number of at least 1"),
    (("loadgen", "--connections", "-2"), "argument --connections: -2 is out of range"),
    (("loadgen", "--rate", "-5"), "argument --rate: -5 is out of range: a number over 0"),
    (("loadgen", "--duration", "nan"), "argument --duration: nan is out of range"),
    (("loadgen", "--games", "many"), "argument --games: 'many' is not a whole number"),
    (("loadgen", "--timeout", "0"), "argument --timeout: 0 is out of range"),
    (("web", "--port", "99999"), "argument --port: 99999 is out of range: a whole number from 0 to 65535"),
    (("web", "--deadline", "0"), "argument --deadline: 0 is out of range: a number over 0"),
    (("web", "--max-connections", "0"), "argument --max-connections: 0 is out of range"),
    (("web", "--log-level", "loud"), "argument --log-level: 'loud' is not one of DEBUG, INFO, WARNING, ERROR"),
    (("batch", "--cache-size", "-1"), "argument --cache-size: -1 is out of range: a whole number of at least 0"),
])
def test_a_flag_value_it_cannot_use_is_refused(argv: tuple[str, ...], message: str) -> None:
    out = installed.run([installed.script("mjsvc"), *argv], capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert out.returncode == 2
    assert out.stderr.splitlines()[-1].startswith(f"mjsvc {argv[0]}: error: {message}"), out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""


@pytest.mark.parametrize(("command", "env", "message"), [
    ("web", {"MJSVC_WEB_PORT": "x"}, "MJSVC_WEB_PORT='x': 'x' is not a whole number"),
    ("web", {"MJSVC_WEB_DEADLINE": "-1"}, "MJSVC_WEB_DEADLINE='-1': -1 is out of range: a number over 0"),
    ("batch", {"MJSVC_CACHE_SIZE": "-3"}, "MJSVC_CACHE_SIZE='-3': -3 is out of range"),
    ("web", {"MJSVC_LOG_LEVEL": "loud"}, "MJSVC_LOG_LEVEL='loud': 'loud' is not one of DEBUG, INFO, WARNING"),
])
def test_a_variable_it_cannot_use_is_refused(command: str, env: dict[str, str], message: str) -> None:
    out = installed.run([installed.script("mjsvc"), command], env=env, capture_output=True, timeout=60,
                        stdin=subprocess.DEVNULL)
    assert out.returncode == 1
    assert out.stderr.startswith(message) and len(out.stderr.splitlines()) == 1 and out.stdout == ""


def test_one_commands_bad_variable_stops_only_that_command() -> None:
    env = {"MJSVC_WEB_PORT": "x", "MJSVC_BATCH_MAX_LINE_BYTES": "0"}
    for argv in ((), ("serve",), ("loadgen",)):
        out = installed.run([installed.script("mjsvc"), *argv, "--help"], env=env, capture_output=True, timeout=60)
        assert out.returncode == 0 and out.stdout.startswith("usage: mjsvc"), (argv, out.stderr)
    out = installed.run([installed.script("mjsvc"), "web", "--help"], env=env, capture_output=True, timeout=60)
    assert out.returncode == 1 and out.stderr.startswith("MJSVC_WEB_PORT='x'")


def test_loadgen_without_a_server_says_so_within_its_timeout() -> None:
    port = launcher.free_port()  # nothing listens on it
    started = time.monotonic()
    out = installed.run([installed.script("mjsvc"), "loadgen", "--target", f"127.0.0.1:{port}", "--timeout", "2",
                         "--quiet"], capture_output=True, timeout=60)
    took = time.monotonic() - started
    assert out.returncode == 1
    assert out.stderr.strip() == f"mjsvc loadgen: no server at 127.0.0.1:{port} could be connected to within 2 s " \
                                 "(--timeout)"
    assert "Traceback" not in out.stderr and out.stdout == ""
    assert took < 30  # it gave up at its own deadline, not at the test's
