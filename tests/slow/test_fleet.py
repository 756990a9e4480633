"""Several hosts behind gRPC's own load balancing (`make test-fleet`; a few minutes, so not in `make test`).

Three `mjsvc serve --workers 1` on 127.0.0.2, .3 and .4 (tests/support/fleet_harness.py), and the table simulator
playing through one `ipv4:` target with the published service config (round_robin, client health checking,
retries of UNAVAILABLE, keepalive): unary tables and Play-stream tables at once, paced. Phases:

1. balance: the hosts' shares of the calls within 15% of even (each host's own metrics);
2. host loss: one host killed with SIGKILL mid-run: no unary call fails, every Play stream on it is reopened
   by the simulator with its request sent again, no answer lost;
3. rolling restart: SIGTERM each host in turn, wait for SERVING, next: no call fails;
4. freeze: one host stopped with SIGSTOP: only calls in flight on it at the stop may fail, from
   DEAD_HOST_S (10 s, keepalive) after the stop no call waits on it, and it gets traffic again after
   SIGCONT;
5. through nginx (deploy/nginx/mjsvc.conf), for clients that cannot balance: spread over the hosts, and a host
   killed mid-run: no stream answer lost, and only unary calls in flight on it may fail (nginx cannot resend).

The table is printed and written to bench/results/fleet.md. Load is modest (12 + 12 tables, 120 calls/s in
all): this machine has 2 cores for the three servers and the simulator, and the test measures what the fleet
does when hosts come and go, not throughput.
"""

from __future__ import annotations

import asyncio
import math
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fleet_harness import TABLE_HEAD, Fleet, Phase, TimedStats, load

from mjsvc import launcher
from mjsvc.service_config import DEAD_HOST_S, MAX_RECONNECT_BACKOFF_S

pytestmark = pytest.mark.fleet

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results" / "fleet.md"
NGINX_CONF = ROOT / "deploy" / "nginx" / "mjsvc.conf"
TABLES = 12  # per mode
RATE = 60.0  # calls/s per mode
SETTLE = 2.0  # the simulator's connect settle (1.5 s) and seating, before its clock starts


def _loopback_aliases_work() -> bool:
    import socket

    try:
        with socket.socket() as s:
            s.bind(("127.0.0.4", 0))
    except OSError:
        return False
    return True


@pytest.fixture(scope="module")
def fleet() -> Iterator[Fleet]:
    if not launcher.console_script().exists():
        pytest.skip(f"{launcher.console_script()}: not installed (make setup)")
    if not _loopback_aliases_work():
        pytest.skip("127.0.0.2-4 cannot be bound here (not a Linux loopback /8)")
    fleet = Fleet(Path(tempfile.mkdtemp(prefix="mjsvc-fleet-")))
    try:
        fleet.start()
        yield fleet
    finally:
        fleet.close()


PHASES: list[Phase] = []


def _phases(name: str, runs: tuple[tuple[dict[str, Any], TimedStats], ...],
            notes: list[str] | None = None) -> list[Phase]:
    out = []
    for (report, stats), mode in zip(runs, ("unary", "stream"), strict=True):
        phase = Phase(name, mode, report, list(stats.spans), list(notes or []))
        PHASES.append(phase)
        out.append(phase)
    return out


def _write_results() -> None:
    lines = [TABLE_HEAD] + [p.row() for p in PHASES]
    text = "\n".join(lines)
    print("\n" + text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        "# Fleet test (`make test-fleet`, tests/slow/test_fleet.py)\n\n"
        f"Three `mjsvc serve --workers 1` on 127.0.0.2-4, {TABLES} unary and {TABLES} Play-stream tables at "
        f"{RATE:.0f} calls/s each, through one `ipv4:` target with the published service config (round_robin, "
        "health checks, retries, keepalive); the last phase through nginx. Pure-Python engine, 2 shared cores. "
        "\"lost answers\": Play requests never answered (stream mode).\n\n" + text + "\n")


def _errors_ok(*phases: Phase) -> None:
    for p in phases:
        assert p.errors == 0, f"{p.name} {p.mode}: {p.report['errors']} {p.report['violations'][:5]}"


def test_balance(fleet: Fleet) -> None:
    before = [h.engine_messages() for h in fleet.hosts]
    runs = asyncio.run(load(fleet.target, 15.0, tables=TABLES, rate=RATE))
    counts = [h.engine_messages() - b for h, b in zip(fleet.hosts, before, strict=True)]
    mean = sum(counts) / len(counts)
    shares = " / ".join(f"{c / sum(counts):.1%}" for c in counts)
    phases = _phases("balance", runs, [f"per host {shares}"])
    _errors_ok(*phases)
    for h, c in zip(fleet.hosts, counts, strict=True):
        assert abs(c - mean) <= 0.15 * mean, f"{h.ip}: {c} messages, mean {mean:.0f} ({shares})"


def test_host_killed(fleet: Fleet) -> None:
    victim = fleet.hosts[0]

    async def run() -> tuple:
        async def kill() -> None:
            await asyncio.sleep(SETTLE + 6.0)
            victim.kill()

        runs, _ = await asyncio.gather(load(fleet.target, 18.0, tables=TABLES, rate=RATE), kill())
        return runs

    runs = asyncio.run(run())
    unary, stream = _phases("host SIGKILL", runs, [f"{victim.ip} killed at 6 s"])
    victim.start()
    victim.wait_serving()
    _errors_ok(unary, stream)
    # The Play streams that were on the host broke and were reopened elsewhere, their request sent again.
    assert stream.report["stream_breaks"] >= 1


def test_rolling_restart(fleet: Fleet) -> None:
    start_s = max(max(h.starts) for h in fleet.hosts)
    seconds = SETTLE + 3 * (start_s + 6.0 + MAX_RECONNECT_BACKOFF_S) + 5.0
    took: list[float] = []

    async def roll() -> None:
        await asyncio.sleep(SETTLE + 3.0)
        for h in fleet.hosts:
            t = time.monotonic()
            await asyncio.to_thread(h.terminate)
            h.start()
            await asyncio.to_thread(h.wait_serving)
            took.append(time.monotonic() - t)
            # As the Deployment's minReadySeconds: the next host drains once the clients have had time to
            # reconnect to this one (their reconnect backoff is at most MAX_RECONNECT_BACKOFF_S).
            await asyncio.sleep(MAX_RECONNECT_BACKOFF_S + 1.0)

    async def run() -> tuple:
        runs, _ = await asyncio.gather(load(fleet.target, seconds, tables=TABLES, rate=RATE), roll())
        return runs

    refused_before = sum(h.refused_while_draining() for h in fleet.hosts)
    runs = asyncio.run(run())
    refused = sum(h.refused_while_draining() for h in fleet.hosts) - refused_before
    unary, stream = _phases("rolling restart", runs, ["each host " + ", ".join(f"{t:.1f}" for t in took)
                                                      + " s from SIGTERM to SERVING again",
                                                      f"{refused} calls refused by draining hosts"])
    _errors_ok(stream)
    # KNOWN GAP (docs/operating.md "Rolling restarts"): a unary call that reaches a host in the instant between
    # its NOT_SERVING and the clients' health watch taking it out of rotation is refused with UNAVAILABLE, and
    # the client does not retry that refusal (the server log counts one refusal per failed call: the retry
    # policy never sent it again). Only such refusals may fail, and never more than the hosts refused.
    failed = unary.report["errors"]
    assert set(failed) <= {"UNAVAILABLE"} and sum(failed.values()) <= refused, (failed, refused,
                                                                                unary.report["violations"][:5])
    assert all("shutting down" in v for v in unary.report["violations"]), unary.report["violations"][:5]


def test_host_frozen(fleet: Fleet) -> None:
    victim = fleet.hosts[1]
    marks: dict[str, float] = {}

    async def freeze() -> None:
        await asyncio.sleep(SETTLE + 4.0)
        marks["stop"] = time.perf_counter()
        victim.signal(signal.SIGSTOP)
        await asyncio.sleep(18.0)
        victim.signal(signal.SIGCONT)
        marks["cont"] = time.perf_counter()
        await asyncio.sleep(4.0)
        marks["count_from"] = await asyncio.to_thread(victim.engine_messages)

    async def run() -> tuple:
        runs, _ = await asyncio.gather(load(fleet.target, 36.0, tables=TABLES, rate=RATE), freeze())
        return runs

    try:
        runs = asyncio.run(run())
    finally:
        victim.signal(signal.SIGCONT)
    came_back = victim.engine_messages() - marks["count_from"]
    stop, cont = marks["stop"], marks["cont"]
    unary, stream = _phases("host SIGSTOP", runs)
    for p in (unary, stream):
        in_flight = sum(1 for s, e in p.spans if s < stop < e)
        # Calls that waited on the frozen host: started before SIGCONT, still unanswered 2 s later. Keepalive
        # must drop its connections (the calls are then retried on, or their streams reopened to, another
        # host) within DEAD_HOST_S of the stop: none may wait until the SIGCONT (18 s).
        waited = [(s - stop, e - stop) for s, e in p.spans if s < cont and e > max(s, stop) + 2.0]
        released = max((e for _, e in waited), default=0.0)
        last_sent = max((s for s, _ in waited), default=0.0)
        p.notes += [f"{in_flight} in flight at the stop", f"{len(waited)} calls waited on it",
                    f"the last released {released:.1f} s after the stop",
                    f"{came_back:.0f} messages to it after SIGCONT"]
        assert p.errors <= in_flight, f"{p.mode}: {p.report['errors']} with {in_flight} calls in flight at the stop"
        assert released <= DEAD_HOST_S, f"{p.mode}: a call waited on the frozen host until {released:.1f} s"
        assert last_sent <= DEAD_HOST_S, f"{p.mode}: a call sent {last_sent:.1f} s after the stop waited on it"
    assert came_back > 0, "no traffic to the host after SIGCONT"


# ---------------------------------------------------------------------------------------------
# nginx in front (deploy/nginx/mjsvc.conf), for clients that cannot balance


def nginx_conf(upstreams: list[str], listen: str, prefix: Path) -> str:
    """The published configuration with the test's upstream addresses, listen address and temporary paths."""
    text = NGINX_CONF.read_text()
    servers = "".join(f"    server {a} max_fails=1 fail_timeout=5s;\n" for a in upstreams)
    head, rest = text.split("    # servers: begin\n", 1)
    _, tail = rest.split("    # servers: end\n", 1)
    text = head + servers + tail
    text = text.replace("listen 8443 http2;", f"listen {listen} http2;")
    text = text.replace("/var/log/nginx/", f"{prefix}/").replace("/run/nginx.pid", f"{prefix}/nginx.pid")
    return text


@pytest.fixture(scope="module")
def nginx(fleet: Fleet) -> Iterator[str]:
    exe = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.path.exists(p)), None)
    if exe is None:
        pytest.skip("nginx is not installed (Debian: apt-get install nginx; .ci/run installs it)")
    prefix = Path(tempfile.mkdtemp(prefix="mjsvc-nginx-"))
    port = launcher.free_port()
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_conf([h.address for h in fleet.hosts], f"127.0.0.1:{port}", prefix))
    check = subprocess.run([exe, "-t", "-p", str(prefix), "-c", str(conf)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([exe, "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        import socket

        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"127.0.0.1:{port}"
    finally:
        proc.send_signal(signal.SIGQUIT)  # graceful
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_nginx_in_front(fleet: Fleet, nginx: str) -> None:
    victim = fleet.hosts[2]
    before = [h.engine_messages() for h in fleet.hosts]

    async def kill() -> None:
        await asyncio.sleep(SETTLE + 8.0)
        counts.extend(h.engine_messages() - b for h, b in zip(fleet.hosts, before, strict=True))
        killed_at.append(time.perf_counter())
        victim.kill()
        # The kill takes effect over a few ms (every process of the host exits, then its sockets close): a call
        # nginx sent in that time is in flight at the kill as much as one sent just before the signal.
        victim.wait_refusing()
        killed_at.append(time.perf_counter())

    counts: list[float] = []
    killed_at: list[float] = []

    async def run() -> tuple:
        runs, _ = await asyncio.gather(load(nginx, 16.0, tables=TABLES, rate=RATE), kill())
        return runs

    runs = asyncio.run(run())
    shares = " / ".join(f"{c / sum(counts):.1%}" for c in counts)
    in_flight = sum(1 for s, e in runs[0][1].spans if s < killed_at[1] and e > killed_at[0])
    unary, stream = _phases("via nginx, host SIGKILL", runs, [f"per host before the kill {shares}",
                                                             f"{victim.ip} killed at 8 s",
                                                             f"{in_flight} unary calls in flight at the kill"])
    victim.start()
    victim.wait_serving()
    _errors_ok(stream)
    # nginx passes a gRPC request body through unbuffered, so it retries a call on the next host only when the
    # first could not be reached (connect refused); a call already sent to the host that died gets nginx's 502,
    # which gRPC reports as UNAVAILABLE after response headers: committed, the client's retry policy does not
    # send it again. Only calls in flight at the kill (from the signal until the host refuses connections) may
    # fail so (docs/operating.md "A proxy in front").
    failed = unary.report["errors"]
    assert set(failed) <= {"UNAVAILABLE"} and sum(failed.values()) <= in_flight, (failed, in_flight)
    assert all("502" in v for v in unary.report["violations"]), unary.report["violations"][:5]
    mean = sum(counts) / len(counts)
    assert all(not math.isnan(c) and c > 0.5 * mean for c in counts), shares


def test_write_results() -> None:
    """Last: the table of every phase that ran (bench/results/fleet.md)."""
    if not PHASES:
        pytest.skip("no phase ran")
    _write_results()
