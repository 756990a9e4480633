"""The Prometheus files checked by promtool, and a real Prometheus scraping a real server under load.

Debian's `prometheus` package (which brings `promtool`) is installed by the test when missing, as CI
starts on a fresh machine as root. The live test starts `mjsvc serve` and Prometheus on free loopback
ports, plays a few seconds of simulated tables, and compares Prometheus's counts with the simulator's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from mjsvc import loadgen
from mjsvc.launcher import ServerProcess, free_port, local_server

ROOT = Path(__file__).resolve().parents[2]
PROM = ROOT / "deploy" / "prometheus"
SERVICE = "mahjong.v1.MahjongEngine"


def _install_prometheus() -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "prometheus"]
    if subprocess.run(cmd, env=env, capture_output=True).returncode != 0:
        # A fresh machine may have no package lists yet.
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, check=True)
        subprocess.run(cmd, env=env, capture_output=True, check=True)


@pytest.fixture(scope="module")
def prom_bin() -> dict[str, str]:
    if not (shutil.which("promtool") and shutil.which("prometheus")):
        if not shutil.which("apt-get"):
            pytest.fail("promtool/prometheus missing and no apt-get to install Debian's prometheus package")
        _install_prometheus()
    found = {name: shutil.which(name) for name in ("promtool", "prometheus")}
    assert all(found.values()), found
    return {k: str(v) for k, v in found.items()}


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


def test_promtool_check_rules(prom_bin: dict[str, str]) -> None:
    files = sorted(str(p) for p in (PROM / "rules").glob("*.yml"))
    assert len(files) == 2
    r = _run([prom_bin["promtool"], "check", "rules", *files])
    assert r.returncode == 0, r.stdout + r.stderr


def test_promtool_test_rules(prom_bin: dict[str, str]) -> None:
    files = sorted(str(p) for p in (PROM / "tests").glob("*.yml"))
    assert files
    r = _run([prom_bin["promtool"], "test", "rules", *files])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "SUCCESS" in r.stdout + r.stderr


def test_promtool_check_config(prom_bin: dict[str, str]) -> None:
    r = _run([prom_bin["promtool"], "check", "config", str(PROM / "prometheus.yml")])
    assert r.returncode == 0, r.stdout + r.stderr


# ---------------------------------------------------------------------------------------------
# A real scrape


class PromAPI:
    def __init__(self, base: str) -> None:
        self.base = base

    def get(self, path: str, **params: str) -> Any:
        url = f"{self.base}{path}"
        if params:
            url += "?" + urllib.parse.urlencode(params)
        with urllib.request.urlopen(url, timeout=5) as r:
            body = json.load(r)
        assert body["status"] == "success", body
        return body["data"]

    def scalar(self, expr: str) -> float | None:
        result = self.get("/api/v1/query", query=expr)["result"]
        if not result:
            return None
        assert len(result) == 1, result
        return float(result[0]["value"][1])

    def wait_for(self, expr: str, want: float, timeout: float = 20.0) -> float | None:
        deadline = time.monotonic() + timeout
        got = None
        while time.monotonic() < deadline:
            got = self.scalar(expr)
            if got == want:
                return got
            time.sleep(0.25)
        return got


@pytest.fixture(scope="module")
def stack(prom_bin: dict[str, str]) -> Iterator[tuple[ServerProcess, PromAPI]]:
    tmp = Path(tempfile.mkdtemp(prefix="mjsvc-prom-"))
    with local_server(workers=2, log_dir=tmp) as server:
        # The shipped configuration, pointed at this server and sped up for a short test.
        cfg = yaml.safe_load((PROM / "prometheus.yml").read_text())
        cfg["global"].update(scrape_interval="1s", evaluation_interval="1s")
        cfg["rule_files"] = [str(PROM / f) for f in cfg["rule_files"]]
        job = next(j for j in cfg["scrape_configs"] if j["job_name"] == "mjsvc")
        job["static_configs"] = [{"targets": [server.metrics_url.split("/")[2]]}]
        cfg["scrape_configs"] = [job]
        (tmp / "prometheus.yml").write_text(yaml.safe_dump(cfg))
        port = free_port()
        log = open(tmp / "prometheus.log", "wb")  # noqa: SIM115 - closed below
        proc = subprocess.Popen(
            [prom_bin["prometheus"], f"--config.file={tmp / 'prometheus.yml'}",
             f"--storage.tsdb.path={tmp / 'data'}", f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            api = PromAPI(f"http://127.0.0.1:{port}")
            deadline = time.monotonic() + 30
            while True:
                try:
                    targets = api.get("/api/v1/targets")["activeTargets"]
                    if targets and all(t["health"] == "up" for t in targets):
                        break
                except OSError:
                    pass
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail("Prometheus target never came up:\n" + (tmp / "prometheus.log").read_text())
                time.sleep(0.2)
            yield server, api
        finally:
            proc.terminate()
            proc.wait(timeout=20)
            log.close()
            shutil.rmtree(tmp, ignore_errors=True)


def _load(server: ServerProcess, mode: str, seconds: float) -> dict[str, Any]:
    cfg = loadgen.Config(target=server.target, tables=16, connections=4, mode=mode, duration=seconds,
                         seed=7, progress=False)
    return loadgen.run_config(cfg)


@pytest.mark.integration
def test_prometheus_counts_match_the_simulator(stack: tuple[ServerProcess, PromAPI]) -> None:
    server, api = stack
    assert api.scalar('up{job="mjsvc"}') == 1

    unary = _load(server, "unary", 3.0)
    assert unary["calls"] > 100 and unary["error_total"] == 0, unary["violations"]
    # Only the engine's methods are counted (health checks are not), so the sum is the simulator's calls.
    got = api.wait_for("sum(grpc_server_handled_total)", unary["calls"])
    assert got == unary["calls"]
    assert api.scalar(f'sum(grpc_server_handled_total{{grpc_service="{SERVICE}",grpc_code="OK"}})') == unary["calls"]

    stream = _load(server, "stream", 2.0)
    assert stream["calls"] > 100 and stream["error_total"] == 0, stream["violations"]
    # A stream is one handled call; its requests are messages received.
    got = api.wait_for('sum(grpc_server_msg_received_total{grpc_method="Play"})', stream["calls"])
    assert got == stream["calls"]
    assert api.wait_for('sum(grpc_server_handled_total{grpc_method="Play"})',
                        stream["streams_opened"]) == stream["streams_opened"]
    per_rpc = unary["per_rpc"]
    for rpc in ("Evaluate", "Analyze"):
        assert api.scalar(f'sum(grpc_server_handled_total{{grpc_method="{rpc}"}})') == per_rpc[rpc]["calls"]


@pytest.mark.integration
def test_recording_rules_evaluate_on_live_data(stack: tuple[ServerProcess, PromAPI]) -> None:
    server, api = stack
    _load(server, "unary", 2.0)
    for expr in ("job:grpc_server_requests:rate1m", "job:grpc_server_handled_errors:ratio_rate1m",
                 "job:mjsvc_cache_hits:ratio_rate1m"):
        deadline = time.monotonic() + 10
        result = []
        while time.monotonic() < deadline and not result:
            result = api.get("/api/v1/query", query=expr)["result"]
            time.sleep(0.25)
        assert result, f"{expr} has no data"
    assert api.scalar("job:grpc_server_handled_errors:ratio_rate1m") == 0
    ratio = api.scalar("job:mjsvc_cache_hits:ratio_rate1m")
    assert ratio is not None and 0 <= ratio <= 1
    p99 = api.get("/api/v1/query", query="job_grpc_method:grpc_server_handling_seconds:p99_1m")["result"]
    assert {r["metric"]["grpc_method"] for r in p99} >= {"Evaluate", "Analyze"}


@pytest.mark.integration
def test_dockerfile_healthcheck_against_a_real_server(stack: tuple[ServerProcess, PromAPI]) -> None:
    from test_ops_manifests import healthcheck_argv

    server, _ = stack
    argv = healthcheck_argv()
    assert argv[0] == "python"
    port = server.target.rsplit(":", 1)[1]
    r = subprocess.run([sys.executable, *argv[1:]], env={**os.environ, "MJSVC_PORT": port}, timeout=30)
    assert r.returncode == 0
    # And it fails where nothing serves.
    r = subprocess.run([sys.executable, *argv[1:]], env={**os.environ, "MJSVC_PORT": str(free_port())},
                       capture_output=True, timeout=30)
    assert r.returncode != 0
