"""--max-connection-age: the server closes aged connections so clients re-resolve (scale-out on Kubernetes)."""

from __future__ import annotations

import time

import grpc
import pytest
from server_harness import ServerProcess

from mjsvc.config import ServeConfig
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc
from mjsvc.worker import server_options

pytestmark = pytest.mark.integration


def test_options_only_when_configured() -> None:
    names = dict(server_options(ServeConfig()))
    assert "grpc.max_connection_age_ms" not in names
    aged = dict(server_options(ServeConfig(max_connection_age=300, max_connection_age_grace=20)))
    assert aged["grpc.max_connection_age_ms"] == 300_000
    assert aged["grpc.max_connection_age_grace_ms"] == 20_000


def test_aged_stream_is_cut_and_unary_calls_reconnect() -> None:
    with ServerProcess("--max-connection-age", "0.5", "--max-connection-age-grace", "0.5", workers=1) as srv, \
            grpc.insecure_channel(srv.address) as channel:
        stub = mahjong_pb2_grpc.MahjongEngineStub(channel)
        # A stream held open past age + grace ends with UNAVAILABLE: the table must reopen it.
        def slow_requests():  # type: ignore[no-untyped-def]
            yield pb.PlayRequest(id="1", analyze=pb.AnalyzeRequest(hand=pb.Hand(concealed=list(range(1, 14)))))
            time.sleep(3.0)
            yield pb.PlayRequest(id="2", analyze=pb.AnalyzeRequest())

        with pytest.raises(grpc.RpcError) as err:
            for _ in stub.Play(slow_requests(), timeout=10):
                pass
        assert err.value.code() == grpc.StatusCode.UNAVAILABLE
        # Unary calls keep working across the closes: the channel reconnects by itself.
        for _ in range(20):
            assert stub.ListFans(pb.ListFansRequest(rule_set="mcr"), timeout=5).fans
            time.sleep(0.1)
