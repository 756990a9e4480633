"""`mjsvc serve` refuses a setting it cannot use at start, naming it, with status 1 and no traceback: a
number that is not one, a port out of range, an on/off variable that is neither (it was read as off), TLS
files that cannot be loaded (each worker died at start and was restarted forever), a metrics directory it
cannot make (a traceback)."""

from __future__ import annotations

import argparse
import shutil
import subprocess
from pathlib import Path

import installed
import pytest

from mjsvc import config, launcher


@pytest.mark.parametrize(("env", "args", "message"), [
    ({"MJSVC_PORT": "abc"}, (), "MJSVC_PORT='abc': expected a whole number"),
    ({"MJSVC_SHED_ABOVE": "lots"}, (), "MJSVC_SHED_ABOVE='lots': expected a number"),
    ({"MJSVC_BATCH_HELPER_THREADS": "maybe"}, (), "MJSVC_BATCH_HELPER_THREADS='maybe': expected one of 1, true"),
    ({}, ("--port", "99999"), "--port 99999: a port is at most 65535"),
    ({}, ("--metrics-port", "65536"), "--metrics-port 65536: a port is at most 65535"),
    ({"MJSVC_PORT": "70000"}, (), "--port 70000: a port is at most 65535"),
    ({}, ("--grace", "nan"), "--grace nan: a finite number is needed"),
    ({"MJSVC_SHED_ABOVE": "inf"}, (), "--shed-above inf: a finite number is needed"),
    ({}, ("--log-level", "loud"), "--log-level: 'loud' is not one of DEBUG, INFO, WARNING, ERROR"),
    ({"MJSVC_LOG_LEVEL": "verbose"}, (), "--log-level: 'verbose' is not one of DEBUG, INFO, WARNING, ERROR"),
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


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return installed.run([installed.script("mjsvc"), "serve", "--port", str(launcher.free_port()), "--metrics-port",
                          "0", *args], capture_output=True, timeout=60, stdin=subprocess.DEVNULL)


def _certificate(openssl: str, directory: Path, name: str, *key_args: str) -> tuple[Path, Path]:
    cert, key = directory / f"{name}.pem", directory / f"{name}.key"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", *key_args, "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=localhost"], check=True, capture_output=True, timeout=60)
    return cert, key


def test_tls_files_it_cannot_use_are_refused_before_any_worker_starts(tmp_path: Path) -> None:
    """Each worker loads them at start: before this check, each died and was restarted forever."""
    openssl = shutil.which("openssl")
    if not openssl:
        pytest.skip("openssl is needed to make test certificates")
    cert, key = _certificate(openssl, tmp_path, "a", "-nodes")
    other_cert, _ = _certificate(openssl, tmp_path, "b", "-nodes")
    locked_cert, locked_key = _certificate(openssl, tmp_path, "c", "-passout", "pass:secret")
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    cases = [((str(tmp_path / "none.pem"), str(key)), f"--tls-cert {tmp_path / 'none.pem'}: cannot be read: No such"),
             ((str(cert), str(tmp_path / "none.key")), f"--tls-key {tmp_path / 'none.key'}: cannot be read: No such"),
             ((str(junk), str(key)), f"--tls-cert {junk}, --tls-key {key}: not a PEM certificate chain"),
             ((str(other_cert), str(key)), f"--tls-cert {other_cert}, --tls-key {key}: not a PEM certificate chain"),
             ((str(locked_cert), str(locked_key)), f"--tls-cert {locked_cert}, --tls-key {locked_key}: not a PEM")]
    for (cert_path, key_path), message in cases:
        out = _serve("--tls-cert", cert_path, "--tls-key", key_path)
        assert out.returncode == 1, out.stderr
        assert out.stderr.splitlines()[-1].startswith(message), out.stderr
        assert "Traceback" not in out.stderr and "worker 0 started" not in out.stderr


def test_a_metrics_directory_it_cannot_make_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    out = _serve("--metrics-dir", str(blocker / "metrics"))
    assert out.returncode == 1
    assert out.stderr.splitlines()[-1] == (f"--metrics-dir {blocker / 'metrics'}: cannot be used as the metrics "
                                           "directory: Not a directory")
    assert "Traceback" not in out.stderr
