"""The gRPC service config the project publishes for clients (`deploy/service_config.json`, the README, the
load generator and the test clients all use this one): every MahjongEngine method is idempotent, so a call
refused with UNAVAILABLE (a worker draining on SIGTERM, a connection lost with a killed worker, no worker up
for a moment) is retried with backoff, up to 5 attempts in all, within the call's own deadline.

It also balances the way gRPC does it for several hosts (docs/operating.md): `round_robin` over every address
the target resolves to (`ipv4:10.0.0.2:50051,10.0.0.3:50051`, or `dns:///mjsvc.default.svc.cluster.local:50051`
against a headless Service), each address used only while its grpc.health.v1 `Watch` of the engine's service
name says SERVING (a draining host leaves the rotation before it refuses anything). `channel_options()` adds
HTTP/2 keepalive, so a host that stops answering without closing its connections (frozen, partitioned) is
dropped within DEAD_HOST_S; the server accepts pings that often
(`mjsvc.worker.server_options`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SERVICE = "mahjong.v1.MahjongEngine"

# Client keepalive: a ping after this many seconds without a read, the connection dropped when its answer
# takes longer than the timeout. The server allows pings this often (KEEPALIVE_MIN_INTERVAL_S, below it).
# grpcio 1.85's transport waits `grpc.http2.ping_timeout_ms` (default 60 s) for the ack, not only
# `grpc.keepalive_timeout_ms`: both are set. Measured against a host frozen with SIGSTOP (a call in flight on
# it, tests/slow/test_fleet.py): the connection is dropped after about KEEPALIVE_TIME_S + 2 * KEEPALIVE_TIMEOUT_S
# (8.8 s with 4 s and 2 s; 15.8 s with 5 s and 5 s), so DEAD_HOST_S is what a client waits on a frozen host.
KEEPALIVE_TIME_S = 4.0
KEEPALIVE_TIMEOUT_S = 2.0
KEEPALIVE_MIN_INTERVAL_S = 3.0
DEAD_HOST_S = 10.0
# A host that comes back (restarted, unfrozen) gets traffic again within this many seconds of backoff.
MAX_RECONNECT_BACKOFF_S = 5.0

SERVICE_CONFIG: dict[str, Any] = {
    "loadBalancingConfig": [{"round_robin": {}}],
    "healthCheckConfig": {"serviceName": SERVICE},
    "methodConfig": [{
        "name": [{"service": SERVICE}],
        "retryPolicy": {
            "maxAttempts": 5,
            "initialBackoff": "0.05s",
            "maxBackoff": "1s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": ["UNAVAILABLE"],
        },
    }],
}

# Where the published copy lives in the repository (tests check it says the same).
PUBLISHED = Path("deploy") / "service_config.json"


def as_json() -> str:
    return json.dumps(SERVICE_CONFIG, indent=2) + "\n"


def several_hosts(target: str | None) -> bool:
    """Whether a channel target may name several hosts: an address list, or a DNS name (a headless Service)."""
    if not target:
        return False
    text = target.strip()
    return "," in text or text.startswith("dns:")


def config_for(target: str | None) -> dict[str, Any]:
    """The service config for a channel to `target`. Health checking is per address: right for several hosts
    (a host that drains leaves the rotation at once), wrong for one address served by several workers through
    SO_REUSEPORT (`mjsvc serve` on one machine): one draining worker's NOT_SERVING would take the only address
    out of rotation and calls would fail until its connection closes (measured: 22 of 1,200 calls in
    tests/integration/test_server_restarts.py). So a single address (or no target) gets the config without
    `healthCheckConfig` and without `loadBalancingConfig` (pick_first: one address, one connection, which after a
    worker's exit reconnects to the next worker), with the retry policy."""
    if several_hosts(target):
        return SERVICE_CONFIG
    return {k: v for k, v in SERVICE_CONFIG.items() if k not in ("healthCheckConfig", "loadBalancingConfig")}


def channel_options(target: str | None = None) -> list[tuple[str, Any]]:
    """Channel options that apply the service config for `target` (`config_for`; retries need
    `grpc.enable_retries`, on by default), with keepalive (pings also on a connection without calls, so an idle
    subchannel to a dead host is noticed)."""
    return [
        ("grpc.service_config", json.dumps(config_for(target))),
        ("grpc.enable_retries", 1),
        ("grpc.keepalive_time_ms", int(KEEPALIVE_TIME_S * 1000)),
        ("grpc.keepalive_timeout_ms", int(KEEPALIVE_TIMEOUT_S * 1000)),
        ("grpc.http2.ping_timeout_ms", int(KEEPALIVE_TIMEOUT_S * 1000)),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.max_pings_without_data", 0),
        ("grpc.max_reconnect_backoff_ms", int(MAX_RECONNECT_BACKOFF_S * 1000)),
    ]


def target(addresses: str) -> str:
    """A channel target from what a user types: a gRPC target as it is (`ipv4:a:p,b:p`, `ipv6:...`,
    `dns:///name:port`, `unix:...`, a single `host:port`), or a comma-separated list of `host:port` turned into
    an `ipv4:`/`ipv6:` address list (round_robin then spreads calls over them)."""
    text = addresses.strip()
    if "," not in text or text.split(":", 1)[0] in _SCHEMES:
        return text
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise ValueError(f"no address in {addresses!r}")
    scheme = "ipv6" if any(p.startswith("[") for p in parts) else "ipv4"
    for p in parts:
        host, sep, port = p.rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ValueError(f"{p!r}: expected HOST:PORT in an address list")
    return f"{scheme}:" + ",".join(parts)


_SCHEMES = ("ipv4", "ipv6", "dns", "unix", "unix-abstract", "vsock")
