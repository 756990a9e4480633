"""`mjsvc serve` refuses a setting it cannot use at start, naming it, with status 1 and no traceback: a
number that is not one, a port out of range, an on/off variable that is neither (it was read as off)."""

from __future__ import annotations

import argparse

import installed
import pytest

from mjsvc import config


@pytest.mark.parametrize(("env", "args", "message"), [
    ({"MJSVC_PORT": "abc"}, (), "MJSVC_PORT='abc': expected a whole number"),
    ({"MJSVC_SHED_ABOVE": "lots"}, (), "MJSVC_SHED_ABOVE='lots': expected a number"),
    ({"MJSVC_BATCH_HELPER_THREADS": "maybe"}, (), "MJSVC_BATCH_HELPER_THREADS='maybe': expected one of 1, true"),
    ({}, ("--port", "99999"), "--port 99999: a port is at most 65535"),
    ({}, ("--metrics-port", "65536"), "--metrics-port 65536: a port is at most 65535"),
    ({"MJSVC_PORT": "70000"}, (), "--port 70000: a port is at most 65535"),
])
def test_a_setting_it_cannot_use_is_refused_at_start(env: dict[str, str], args: tuple[str, ...],
                                                      message: str) -> None:
    out = installed.run([installed.script("mjsvc"), "serve", *args], env=env, capture_output=True, timeout=60)
    assert out.returncode == 1
    assert out.stderr.startswith(message), out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""


def _parse(environ: dict[str, str], *argv: str) -> config.ServeConfig:
    parser = argparse.ArgumentParser()
    config.add_arguments(parser, environ)
    return config.from_args(parser.parse_args(list(argv)), environ)


@pytest.mark.parametrize(("word", "value"), [("1", True), ("TRUE", True), (" yes ", True), ("on", True),
                                             ("0", False), ("False", False), ("no", False), ("OFF", False)])
def test_on_off_variables_take_both_spellings(word: str, value: bool) -> None:
    assert _parse({"MJSVC_BATCH_HELPER_THREADS": word}).batch_helper_threads is value


def test_a_flag_wins_over_its_variable_and_the_edges_of_a_port_are_taken() -> None:
    assert _parse({"MJSVC_PORT": "6000"}, "--port", "65535").port == 65535
    assert _parse({"MJSVC_PORT": "1"}).port == 1
    assert _parse({"MJSVC_METRICS_PORT": "0"}).metrics_port == 0
    assert _parse({"MJSVC_BATCH_HELPER_THREADS": ""}).batch_helper_threads is True  # empty: the default
