"""The README's own commands, as a new user runs them on a fresh clone (issue #10).

1. `git clone` of this repository into a temporary directory, then the README's start command (`make run`)
   exactly as written, in a clean environment: it must build its venv, serve grpc.health.v1 SERVING on the
   README's default port (moved through MJSVC_PORT / MJSVC_METRICS_PORT only if taken), answer Evaluate and
   Analyze from a real client, report the compiled engine in `mjsvc_build_info`, and on SIGTERM exit cleanly
   with no worker restart in its log. The installed console scripts of that venv answer from /tmp.
2. A regular, non-editable install of the same clone (`pip install <clone>` into a fresh venv): the console
   scripts work from a temporary directory and run the compiled engine.

These take minutes (two venvs, two mypyc builds), so they are marked `readme` and run by `make test-readme`,
which `.ci/run` calls right after `make test`.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from mjsvc.config import ServeConfig
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc as pb_grpc
from mjsvc.launcher import free_port

pytestmark = pytest.mark.readme

ROOT = Path(__file__).resolve().parents[2]
DEFAULTS = ServeConfig()
# The README's set-up commands: the first shell block of README.md.
_BLOCK = re.search(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
README_COMMANDS = [line.split("#", 1)[0].strip() for line in (_BLOCK.group(1) if _BLOCK else "").splitlines()]
VENV_BUILD_TIMEOUT = 1200.0  # a fresh venv: downloads and a mypyc compile on a 2-core machine
SERVE_TIMEOUT = 120.0  # after the venv is ready


def user_env(**extra: str) -> dict[str, str]:
    """What a user's shell has: no PYTHONPATH, no venv of ours, nothing of the test run."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER")}
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "/usr/bin:/bin").split(os.pathsep) if p != venv_bin)
    env.update(extra)
    return env


def port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("readme") / "mjsvc"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(dest)], check=True, env=user_env())
    ref = os.environ.get("MJSVC_README_TEST_REF")  # to show the test failing on an older commit
    if ref:
        subprocess.run(["git", "checkout", "--quiet", ref], cwd=dest, check=True, env=user_env())
    return dest


def test_readme_states_the_two_commands_and_ci_runs_the_test_one() -> None:
    assert README_COMMANDS[:2] == ["make run", "make test"], README_COMMANDS
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make test$", ci, re.M) and re.search(r"^make test-readme$", ci, re.M)


def _children(pid: int) -> Iterator[int]:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                yield int(entry.name)


def _cmdline(pid: int) -> list[str]:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


def _wait_serving(address: str, deadline: float, proc: subprocess.Popen[bytes], log: Path) -> None:
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            assert proc.poll() is None, f"make run exited with {proc.returncode}:\n{log.read_text()[-4000:]}"
            try:
                if stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=2).status == \
                        health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            time.sleep(0.5)
    raise AssertionError(f"not SERVING on {address}:\n{log.read_text()[-4000:]}")


def _call_engine(address: str) -> None:
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.MahjongEngineStub(channel)
        tiles = [t + 1 for t in (0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 28, 28)]
        ev = stub.Evaluate(pb.EvaluateRequest(hand=pb.Hand(concealed=tiles, winning_tile=29),
                                              context=pb.WinContext(self_drawn=True)), timeout=30)
        assert ev.is_win and ev.best.total >= 8 and ev.best.fans
        an = stub.Analyze(pb.AnalyzeRequest(hand=pb.Hand(concealed=tiles)), timeout=30)
        assert an.shanten == 0 and {w.tile for w in an.waits} == {28, 29}


def test_make_run_serves_from_a_fresh_clone(clone: Path) -> None:
    port = DEFAULTS.port if port_free(DEFAULTS.port) else free_port()
    metrics_port = DEFAULTS.metrics_port if port_free(DEFAULTS.metrics_port) else free_port()
    moved = {}
    if port != DEFAULTS.port:
        moved["MJSVC_PORT"] = str(port)
    if metrics_port != DEFAULTS.metrics_port:
        moved["MJSVC_METRICS_PORT"] = str(metrics_port)
    log = clone.parent / "make-run.log"
    command = README_COMMANDS[0]
    with log.open("wb") as out:
        proc = subprocess.Popen(shlex.split(command), cwd=clone, env=user_env(**moved), stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        ready_stamp = clone / ".venv" / ".native"
        deadline = time.monotonic() + VENV_BUILD_TIMEOUT
        while not ready_stamp.exists():
            assert proc.poll() is None, f"make run exited with {proc.returncode}:\n{log.read_text()[-4000:]}"
            assert time.monotonic() < deadline, f"the venv was not built:\n{log.read_text()[-4000:]}"
            time.sleep(1)
        venv_ready = time.monotonic()
        _wait_serving(f"127.0.0.1:{port}", venv_ready + SERVE_TIMEOUT, proc, log)
        print(f"make run: SERVING {time.monotonic() - venv_ready:.1f} s after the venv was ready")
        _call_engine(f"127.0.0.1:{port}")
        with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10) as r:
            scrape = r.read().decode()
        assert re.search(r'mjsvc_build_info\{[^}]*engine="compiled"', scrape), scrape[:2000]

        # The installed console scripts of that venv, from /tmp with a clean environment.
        batch = subprocess.run([str(clone / ".venv" / "bin" / "mjsvc"), "batch"], cwd="/tmp", env=user_env(),
                               input='{"method": "ListFans", "request": {}}\n', capture_output=True, text=True,
                               timeout=120)
        assert batch.returncode == 0, batch.stderr
        assert json.loads(batch.stdout)["response"]["rule_set"] == "mcr"
        engine_cli = subprocess.run([str(clone / ".venv" / "bin" / "python"), "-c",
                                     "import engine, engine.api, engine.rules.mcr; print(engine.compiled_modules())"],
                                    cwd="/tmp", env=user_env(), capture_output=True, text=True, timeout=120)
        assert engine_cli.returncode == 0 and "engine.shapes" in engine_cli.stdout, engine_cli.stderr

        # SIGTERM to the server, as an operator (or systemd) stops it; make then ends with its status.
        (serve,) = [p for p in _children(proc.pid) if "serve" in _cmdline(p)]
        os.kill(serve, signal.SIGTERM)
        assert proc.wait(timeout=60) == 0, log.read_text()[-4000:]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = log.read_text()
    assert "died after" not in text and "restarting" not in text, text[-4000:]
    assert "Traceback" not in text, text[-4000:]


def test_a_regular_install_works_from_anywhere(clone: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run(["python3", "-m", "venv", str(venv)], check=True, env=user_env())
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(clone)], env=user_env(),
                         capture_output=True, text=True, timeout=VENV_BUILD_TIMEOUT)
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    batch = subprocess.run([str(venv / "bin" / "mjsvc"), "batch"], cwd=cwd, env=user_env(),
                           input='{"method": "ListFans", "request": {}}\n', capture_output=True, text=True, timeout=120)
    assert batch.returncode == 0, batch.stderr
    assert json.loads(batch.stdout)["response"]["rule_set"] == "mcr"
    probe = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import engine, engine.api, engine.rules.mcr; print(engine.__file__); "
                            "print(engine.compiled_modules())"],
                           cwd=cwd, env=user_env(), capture_output=True, text=True, timeout=120)
    assert probe.returncode == 0, probe.stderr
    assert "site-packages" in probe.stdout and "engine.shapes" in probe.stdout, probe.stdout
    score = subprocess.run([str(venv / "bin" / "python"), "-m", "engine", "score", "123m456p789s1sEEE", "--win", "1s"],
                           cwd=cwd, env=user_env(), capture_output=True, text=True, timeout=120)
    assert score.returncode == 0 and "Total:" in score.stdout, score.stdout + score.stderr
    # The server from the installed script: SERVING, and it answers.
    port, metrics_port = free_port(), free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([str(venv / "bin" / "mjsvc"), "serve", "--port", str(port), "--metrics-port",
                                 str(metrics_port), "--workers", "1"], cwd=cwd, env=user_env(), stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        _wait_serving(f"127.0.0.1:{port}", time.monotonic() + SERVE_TIMEOUT, proc, log)  # type: ignore[arg-type]
        _call_engine(f"127.0.0.1:{port}")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0, log.read_text()[-4000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in log.read_text()
