"""The container image built and run (`make test-image`; .ci/run starts dockerd for it).

`make image` builds the Dockerfile (on python:3.11-slim, or on bases made from Debian's packages when no
registry is reachable); the image then runs as a pod would: host networking (Docker's default bridge is not
used), a non-root user, a read-only root filesystem with a tmpfs /tmp, every capability dropped. The test waits
for grpc.health.v1 SERVING, calls Evaluate, checks that the worker runs gRPC's helper threads under
SCHED_BATCH with every capability dropped (mjsvc.threads), sends SIGTERM and expects a clean exit (status 0
after the drain).
Image size and start-to-SERVING time are printed and written to bench/results/image.md (docs/operating.md).

Set MJSVC_TEST_IMAGE to run an image already built instead of building one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from engine.tiles import parse_tiles
from mjsvc.convert import tiles_to_proto
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc
from mjsvc.launcher import free_port, worker_pids

pytestmark = pytest.mark.image

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results" / "image.md"
IMAGE = os.environ.get("MJSVC_TEST_IMAGE", "mjsvc:test")


def docker(*args: str, timeout: float = 60, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout, check=check)


@pytest.fixture(scope="module")
def image() -> str:
    if shutil.which("docker") is None:
        pytest.skip("no docker client (Debian: apt-get install docker.io; .ci/run installs it)")
    info = docker("info", "--format", "{{.ServerVersion}}", check=False)
    if info.returncode != 0:
        pytest.skip(f"no Docker daemon answers: {(info.stderr or info.stdout).strip()[:300]}")
    if "MJSVC_TEST_IMAGE" not in os.environ:
        build = subprocess.run(["make", "--no-print-directory", "image", f"IMAGE={IMAGE}"], cwd=ROOT,
                               capture_output=True, text=True, timeout=1800)
        assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    return IMAGE


def helper_policies(pid: int, timeout: float = 10.0) -> dict[int, int]:
    """Thread id -> scheduling policy for every thread of `pid`, once its helpers are batched (or at the
    timeout: the worker sweeps right after it starts serving)."""
    deadline = time.monotonic() + timeout
    while True:
        got = {}
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                got[int(task.name)] = os.sched_getscheduler(int(task.name))
            except ProcessLookupError:
                continue
        if all(p == os.SCHED_BATCH for t, p in got.items() if t != pid) or time.monotonic() > deadline:
            return got
        time.sleep(0.2)


def test_image_runs_non_root_read_only(image: str) -> None:
    size_mb = int(docker("image", "inspect", "--format", "{{.Size}}", image).stdout.strip()) / 1e6
    assert docker("image", "inspect", "--format", "{{.Config.User}}", image).stdout.strip() == "10001:10001"
    port, metrics = free_port(), free_port()
    t0 = time.monotonic()
    run = docker("run", "--detach", "--network", "host", "--read-only", "--tmpfs", "/tmp:size=64m",
                 "--user", "10001:10001", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
                 "-e", "MJSVC_HOST=127.0.0.1", "-e", f"MJSVC_PORT={port}", "-e", "MJSVC_METRICS_HOST=127.0.0.1",
                 "-e", f"MJSVC_METRICS_PORT={metrics}", "-e", "MJSVC_WORKERS=1", "-e", "MJSVC_GRACE=5", image)
    cid = run.stdout.strip()
    try:
        address = f"127.0.0.1:{port}"
        serving_s = None
        with grpc.insecure_channel(address) as ch:
            health = health_pb2_grpc.HealthStub(ch)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                try:
                    r = health.Check(health_pb2.HealthCheckRequest(service="mahjong.v1.MahjongEngine"), timeout=1)
                    if r.status == health_pb2.HealthCheckResponse.SERVING:
                        serving_s = time.monotonic() - t0
                        break
                except grpc.RpcError:
                    pass
                state = docker("inspect", "--format", "{{.State.Running}}", cid).stdout.strip()
                assert state == "true", docker("logs", cid, check=False).stderr[-3000:]
                time.sleep(0.2)
            assert serving_s is not None, docker("logs", cid, check=False).stderr[-3000:]
            stub = mahjong_pb2_grpc.MahjongEngineStub(ch)
            req = pb.EvaluateRequest(hand=pb.Hand(concealed=tiles_to_proto(parse_tiles("123m456p789s1177z")),
                                                  winning_tile=tiles_to_proto(parse_tiles("7z"))[0]))
            resp = stub.Evaluate(req, timeout=10)
            assert resp.is_win and resp.best.total > 0
            # The engine in the image is the compiled one (the Dockerfile's build check), and runs as 10001.
            who = docker("exec", cid, "id", "-u").stdout.strip()
            assert who == "10001"
            touch = docker("exec", cid, "touch", "/opt/mjsvc/x", check=False)
            assert touch.returncode != 0, "the root filesystem is writable"
            # With every capability dropped, the worker still runs gRPC's helper threads under SCHED_BATCH
            # and its event loop under the normal policy (mjsvc.threads).
            init = int(docker("inspect", "--format", "{{.State.Pid}}", cid).stdout.strip())
            (worker,) = worker_pids(init)
            got = helper_policies(worker)
            assert got.pop(worker) == os.SCHED_OTHER
            assert got and set(got.values()) == {os.SCHED_BATCH}, got
        docker("kill", "--signal", "TERM", cid)
        code = docker("wait", cid, timeout=60).stdout.strip()
        logs = docker("logs", cid, check=False)
        assert code == "0", logs.stderr[-3000:]
        assert "Traceback" not in logs.stdout + logs.stderr, logs.stderr[-3000:]
    finally:
        docker("rm", "--force", cid, check=False)
    text = ("| image | size | start to SERVING |\n|---|---:|---:|\n"
            f"| {image} | {size_mb:.0f} MB | {serving_s:.1f} s |\n")
    print("\n" + text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("# Container image (`make test-image`, tests/slow/test_image.py)\n\n"
                       "Run with --network host, --read-only, --user 10001, --cap-drop ALL, MJSVC_WORKERS=1; "
                       "start to SERVING is from `docker run` to grpc.health.v1 SERVING.\n\n" + text)
