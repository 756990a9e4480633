"""Play streams are bounded per worker (issue finding: 20,000 idle streams cost about 21 KB each and never
timed out): one stream over --max-streams is refused with RESOURCE_EXHAUSTED (STREAM_LIMIT) while unary calls
still answer, and a stream that sends nothing for --stream-idle-timeout seconds is ended with UNAVAILABLE
(STREAM_IDLE), freeing its slot."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from server_harness import ServerProcess

from engine.tiles import parse_tiles
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc

pytestmark = pytest.mark.integration

HAND = pb.Hand(concealed=[t + 1 for t in parse_tiles("123m456p789s1122z")])


def reason(err: grpc.RpcError) -> str:
    status = rpc_status.from_call(err)  # type: ignore[arg-type]
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    assert any(d.Unpack(info) for d in status.details if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR))
    return info.reason


class Table:
    """One Play stream held open: messages go in through a queue."""

    def __init__(self, stub: mahjong_pb2_grpc.MahjongEngineStub) -> None:
        self.q: queue.Queue[pb.PlayRequest | None] = queue.Queue()
        self.call = stub.Play(self._requests())
        self.q.put(pb.PlayRequest(id="hello", analyze=pb.AnalyzeRequest(hand=HAND)))

    def _requests(self) -> Iterator[pb.PlayRequest]:
        while (item := self.q.get()) is not None:
            yield item

    def first(self) -> pb.PlayResponse:
        return next(self.call)

    def close(self) -> None:
        self.q.put(None)
        self.call.cancel()


def test_streams_over_the_cap_are_refused_and_idle_ones_end() -> None:
    with ServerProcess("--max-streams", "3", "--stream-idle-timeout", "2", workers=1) as srv, \
            grpc.insecure_channel(srv.address) as ch:
        stub = mahjong_pb2_grpc.MahjongEngineStub(ch)
        tables = [Table(stub) for _ in range(3)]
        try:
            assert all(t.first().id == "hello" for t in tables)
            extra = Table(stub)
            with pytest.raises(grpc.RpcError) as info:
                extra.first()
            assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED  # type: ignore[attr-defined]
            assert reason(info.value) == "STREAM_LIMIT"
            extra.close()
            assert stub.Analyze(pb.AnalyzeRequest(hand=HAND), timeout=5).shanten == 0  # unary still answers
            t0 = time.monotonic()
            ended: list[grpc.RpcError] = []

            def wait(t: Table) -> None:
                try:
                    next(t.call)
                except grpc.RpcError as err:
                    ended.append(err)

            waiters = [threading.Thread(target=wait, args=(t,)) for t in tables]
            for w in waiters:
                w.start()
            for w in waiters:
                w.join(15)
            assert len(ended) == 3 and time.monotonic() - t0 < 10
            assert {e.code() for e in ended} == {grpc.StatusCode.UNAVAILABLE}  # type: ignore[attr-defined]
            assert {reason(e) for e in ended} == {"STREAM_IDLE"}
            again = Table(stub)  # the idle ones freed their slots
            assert again.first().id == "hello"
            again.close()
        finally:
            for t in tables:
                t.close()
        assert "Traceback" not in srv.log()
