"""`mjsvc serve` refuses a setting it cannot use at start, naming it, with no traceback: a flag with
argparse's message (status 2), a variable, settings taken together and the files they name with status 1.
Each case was a fault: a number that is not one or a port out of range (a traceback, or a port wrapped
around), an on/off variable that is neither (read as off), a negative stream burst (every Play message
refused), TLS files that cannot be loaded (each worker died at start and was restarted forever), a metrics
directory it cannot make (a traceback)."""

from __future__ import annotations

import argparse
import shutil
import subprocess
from pathlib import Path

import installed
import pytest

from mjsvc import config, launcher


@pytest.mark.parametrize(("env", "message"), [
    ({"MJSVC_PORT": "abc"}, "MJSVC_PORT='abc': 'abc' is not a whole number"),
    ({"MJSVC_PORT": "70000"}, "MJSVC_PORT='70000': 70000 is out of range: a whole number from 0 to 65535"),
    ({"MJSVC_SHED_ABOVE": "lots"}, "MJSVC_SHED_ABOVE='lots': 'lots' is not a number"),
    ({"MJSVC_SHED_ABOVE": "inf"}, "MJSVC_SHED_ABOVE='inf': inf is out of range: a number at least 0 and at most 1"),
    ({"MJSVC_BATCH_HELPER_THREADS": "maybe"}, "MJSVC_BATCH_HELPER_THREADS='maybe': expected one of 1, true"),
    ({"MJSVC_LOG_LEVEL": "verbose"}, "MJSVC_LOG_LEVEL='verbose': 'verbose' is not one of DEBUG, INFO, WARNING"),
    ({"MJSVC_WORKERS": "-1"}, "MJSVC_WORKERS='-1': -1 is out of range: a whole number of at least 0"),
    ({"MJSVC_STREAM_BURST": "-5"}, "MJSVC_STREAM_BURST='-5': -5 is out of range"),
])
def test_a_variable_it_cannot_use_is_refused_at_start(env: dict[str, str], message: str) -> None:
    """Status 1, the variable named, before any worker starts."""
    out = installed.run([installed.script("mjsvc"), "serve"], env=env, capture_output=True, timeout=60)
    assert out.returncode == 1
    assert out.stderr.startswith(message), out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""


@pytest.mark.parametrize(("args", "message"), [
    (("--port", "99999"), "argument --port: 99999 is out of range: a whole number from 0 to 65535"),
    (("--metrics-port", "65536"), "argument --metrics-port: 65536 is out of range"),
    (("--grace", "nan"), "argument --grace: nan is out of range: a number at least 0"),
    (("--shed-above", "1.5"), "argument --shed-above: 1.5 is out of range: a number at least 0 and at most 1"),
    (("--log-level", "loud"), "argument --log-level: 'loud' is not one of DEBUG, INFO, WARNING, ERROR"),
    (("--workers", "two"), "argument --workers: 'two' is not a whole number"),
    # a negative burst was taken, and then every Play message was refused as over the stream's rate
    (("--stream-burst", "-5"), "argument --stream-burst: -5 is out of range: a whole number of at least 0"),
    (("--max-message-bytes", "0"), "argument --max-message-bytes: 0 is out of range: a whole number of at least 1"),
])
def test_a_flag_it_cannot_use_is_refused_at_start(args: tuple[str, ...], message: str) -> None:
    """Status 2 and argparse's message naming the flag, as every other command's flags."""
    out = installed.run([installed.script("mjsvc"), "serve", *args], capture_output=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.splitlines()[-1].startswith(f"mjsvc serve: error: {message}"), out.stderr
    assert out.stderr.startswith("usage: mjsvc serve")
    assert "Traceback" not in out.stderr and out.stdout == ""


def test_settings_that_only_make_sense_together_are_checked_together() -> None:
    for args, message in ((("--port", "0"), "--port 0: the workers must share one fixed port"),
                          (("--tls-cert", "a.pem"), "TLS needs both --tls-cert and --tls-key")):
        out = installed.run([installed.script("mjsvc"), "serve", *args], capture_output=True, timeout=60)
        assert (out.returncode, out.stderr.strip()) == (1, message)


def _parse(environ: dict[str, str], *argv: str) -> config.ServeConfig:
    parser = argparse.ArgumentParser()
    config.add_arguments(parser, environ)
    return config.from_args(parser.parse_args(list(argv)))


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
