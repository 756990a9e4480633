"""The client side of several hosts, without starting any (the hosts themselves: tests/slow/test_fleet.py): the
published service config balances with round_robin and health-checks the engine's service name, the channel
options keep connections alive as often as the server accepts, and address lists become gRPC targets."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from mjsvc import config as serve_config
from mjsvc import service_config, worker
from mjsvc.interceptors import SERVICE_NAME
from mjsvc.loadgen import cli

ROOT = Path(__file__).resolve().parents[2]


def test_published_config_balances_and_health_checks() -> None:
    published = json.loads((ROOT / service_config.PUBLISHED).read_text())
    assert published == service_config.SERVICE_CONFIG
    assert published["loadBalancingConfig"] == [{"round_robin": {}}]
    # Client health checking watches this name: the server must report it (worker.serve sets "" and it).
    assert published["healthCheckConfig"]["serviceName"] == SERVICE_NAME == service_config.SERVICE
    assert published["methodConfig"][0]["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"]


def test_health_checking_only_for_several_hosts() -> None:
    """Per-address health checking fits several hosts; one address served by several SO_REUSEPORT workers would
    drop out of rotation while one of its workers drains (service_config.config_for)."""
    def config(target: str | None) -> dict:
        return json.loads(dict(service_config.channel_options(target))["grpc.service_config"])

    for target in ("ipv4:127.0.0.2:50051,127.0.0.3:50051", "dns:///mjsvc.default.svc.cluster.local:50051"):
        assert config(target) == service_config.SERVICE_CONFIG
    for target in ("127.0.0.1:50051", "ipv4:127.0.0.1:50051", None):
        single = config(target)
        assert "healthCheckConfig" not in single
        assert "loadBalancingConfig" not in single  # pick_first
        assert single["methodConfig"] == service_config.SERVICE_CONFIG["methodConfig"]


def test_keepalive_is_accepted_by_the_server() -> None:
    client = dict(service_config.channel_options("ipv4:127.0.0.2:1,127.0.0.3:1"))
    assert json.loads(client["grpc.service_config"]) == service_config.SERVICE_CONFIG
    assert client["grpc.keepalive_time_ms"] == service_config.KEEPALIVE_TIME_S * 1000
    assert client["grpc.keepalive_timeout_ms"] == service_config.KEEPALIVE_TIMEOUT_S * 1000
    # grpcio 1.85 waits for the keepalive ping's ack this long (default 60 s): the same timeout.
    assert client["grpc.http2.ping_timeout_ms"] == client["grpc.keepalive_timeout_ms"]
    assert service_config.KEEPALIVE_TIME_S + 2 * service_config.KEEPALIVE_TIMEOUT_S < service_config.DEAD_HOST_S
    assert client["grpc.keepalive_permit_without_calls"] == 1
    server = dict(worker.server_options(serve_config.ServeConfig()))
    # The server answers pings no more often than this with GOAWAY too_many_pings; the client pings less often.
    assert server["grpc.keepalive_permit_without_calls"] == 1
    assert server["grpc.http2.min_ping_interval_without_data_ms"] < client["grpc.keepalive_time_ms"]
    assert server["grpc.http2.max_pings_without_data"] == 0


@pytest.mark.parametrize(("typed", "target"), [
    ("127.0.0.2:50051,127.0.0.3:50051", "ipv4:127.0.0.2:50051,127.0.0.3:50051"),
    (" 10.0.0.2:1, 10.0.0.3:1 ", "ipv4:10.0.0.2:1,10.0.0.3:1"),
    ("[::1]:50051,[::2]:50051", "ipv6:[::1]:50051,[::2]:50051"),
    ("ipv4:127.0.0.2:50051,127.0.0.3:50051", "ipv4:127.0.0.2:50051,127.0.0.3:50051"),
    ("dns:///mjsvc.default.svc.cluster.local:50051", "dns:///mjsvc.default.svc.cluster.local:50051"),
    ("127.0.0.1:50051", "127.0.0.1:50051"),
])
def test_targets(typed: str, target: str) -> None:
    assert service_config.target(typed) == target


@pytest.mark.parametrize("bad", ["a:1,b", "a:1,:2", "a:1,b:x", ","])
def test_bad_address_lists(bad: str) -> None:
    with pytest.raises(ValueError):
        service_config.target(bad)


def test_loadgen_takes_address_lists() -> None:
    p = argparse.ArgumentParser()
    cli.add_arguments(p)
    cfg = cli.config_from_args(p.parse_args(["--target", "127.0.0.2:50051,127.0.0.3:50051", "--games", "1"]))
    assert service_config.target(cfg.target) == "ipv4:127.0.0.2:50051,127.0.0.3:50051"
    assert cfg.connect_settle > 0  # round_robin gets time to reach every host before the streams open
    one = cli.config_from_args(p.parse_args(["--target", "127.0.0.1:50051", "--games", "1"]))
    assert one.connect_settle == 0


def test_max_connection_idle() -> None:
    assert "grpc.max_connection_idle_ms" not in dict(worker.server_options(serve_config.ServeConfig()))
    parser = argparse.ArgumentParser()
    serve_config.add_arguments(parser, environ={"MJSVC_MAX_CONNECTION_IDLE": "600"})
    cfg = serve_config.from_args(parser.parse_args([]))
    assert dict(worker.server_options(cfg))["grpc.max_connection_idle_ms"] == 600_000
    with pytest.raises(SystemExit):
        serve_config.from_args(parser.parse_args(["--max-connection-idle", "-1"]))
