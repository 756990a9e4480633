"""`python -m bench.unary_layers` builds the worker's unary handler path a layer at a time: each layer must
answer an Evaluate call with the service's own bytes (what makes its cost comparable to the floor's), and a
layer's request must go through the parts it names (a body protobuf cannot parse is refused by the layers
that parse, and passed by the floor, which does not). The run itself, driven by h2load, reports every
layer in every round. Timings are information, not a test."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from bench.service_cost import requests
from bench.unary_layers import LAYERS, LayerServer, call_once
from mjsvc.service import Service

pytestmark = pytest.mark.integration


def test_each_layer_answers_with_the_services_bytes() -> None:
    _, req = requests()["evaluate"]
    request = req.SerializeToString()
    answer = Service().evaluate_bytes(req)
    for layer in LAYERS:
        if layer == "mjsvc":
            continue
        srv = LayerServer(layer, request, answer)
        try:
            assert call_once(srv.address, request) == answer, layer
            undecodable = b"\x0a\xff\xff"  # field 1 (rule_set), a length running past the body's end
            if layer in ("floor", "spin"):
                with pytest.raises(grpc.RpcError) as err:  # not parsed: an unknown body is not in the floor's table
                    call_once(srv.address, undecodable)
                assert err.value.code() == grpc.StatusCode.UNKNOWN, layer
            elif layer in ("service", "worker", "wrapper"):
                with pytest.raises(grpc.RpcError) as err:  # parsed, refused: BAD_REQUEST (the wrapper) or
                    call_once(srv.address, undecodable)  # an error out of the service (no wrapper to map it)
                expected = grpc.StatusCode.UNKNOWN if layer == "service" else grpc.StatusCode.INVALID_ARGUMENT
                assert err.value.code() == expected, (layer, err.value.code())
            else:  # parse: the deserializer hands the handler an Undecodable, the stored answer goes back
                assert call_once(srv.address, undecodable) == answer
        finally:
            srv.close()


@pytest.mark.skipif(shutil.which("h2load") is None, reason="h2load not installed (Debian package nghttp2-client)")
def test_a_run_measures_every_layer_every_round(tmp_path: Path) -> None:
    out = tmp_path / "layers.json"
    proc = subprocess.run([sys.executable, "-m", "bench.unary_layers", "--rounds", "2", "--requests", "300",
                           "--seed", "5", "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    r = json.loads(out.read_text())
    assert r["rounds"] == 2 and r["order"] == "shuffled per round, seed 5", r
    assert list(r["layers"]) == list(LAYERS), r["layers"].keys()
    for name, row in r["layers"].items():
        assert len(row["rounds"]) == 2 and all(v > 0 for v in row["rounds"]), (name, row)
        assert row["above_floor_range"][0] <= row["above_floor_us"] <= row["above_floor_range"][1], (name, row)
    assert r["layers"]["floor"]["above_floor_us"] == 0.0
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("round ")]
    assert len(lines) == 2 * len(LAYERS), proc.stderr[-3000:]
