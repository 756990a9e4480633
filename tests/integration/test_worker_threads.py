"""A started worker runs gRPC's helper threads under SCHED_BATCH and its event loop (the main thread) under
the normal policy; --no-batch-helper-threads leaves every thread under the normal policy."""

from __future__ import annotations

import os
import time

import grpc
import pytest
from server_harness import ServerProcess
from thread_policies import main_thread, policies

from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc
from mjsvc.launcher import worker_pids

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="Linux scheduling policies")]


def call(srv: ServerProcess) -> None:
    with grpc.insecure_channel(srv.address) as ch:
        stub = mahjong_pb2_grpc.MahjongEngineStub(ch)
        stub.ListFans(pb.ListFansRequest(rule_set="mcr"), timeout=30)


@pytest.mark.parametrize("flag", ["", "--no-batch-helper-threads"])
def test_helper_threads_policy(flag: str) -> None:
    with ServerProcess(*([flag] if flag else []), workers=1) as srv:
        call(srv)  # gRPC's threads have done work
        (worker,) = worker_pids(srv.proc.pid)
        deadline = time.monotonic() + 10
        while True:
            got = policies(worker)
            main = got.pop(main_thread(got, worker))
            helpers_batch = bool(got) and all(p == os.SCHED_BATCH for p in got.values())
            if flag or helpers_batch or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert main == os.SCHED_OTHER
        assert got, "a worker has gRPC's helper threads"
        want = os.SCHED_OTHER if flag else os.SCHED_BATCH
        assert all(p == want for p in got.values()), got
