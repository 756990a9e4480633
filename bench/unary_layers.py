"""`python -m bench.unary_layers`: where a unary cache hit's cost above gRPC's floor goes, measured live.

In process, our Python on a unary Evaluate hit takes about 3 µs (the stage table of `bench.service_cost`:
parse 0.4, the hit 0.7, the wrapper with its metrics 1.5); live, a hit costs the server 25-35 µs of CPU
above the bare floor. This bench serves the same call with the worker's handler path built up a part at a
time, one server per layer, and drives each with h2load (gRPC framing, `bench.h2load`) in rounds, the
layers in a shuffled order each round:

- `floor`: bytes in, the stored answer's bytes out (as `bench.service_cost`'s floor);
- `spin`: the floor plus `--spin` µs of busy Python per call: what that much of any work costs live;
- `parse`: the floor with the worker's deserializer (`mjsvc.interceptors.deserializer`: protobuf parses
  the request) and serializer;
- `service`: `parse`, then `Service.evaluate_bytes` (the cache key and a hit), no wrapper;
- `wrapper`: `parse` inside the worker's `CallInterceptor` wrapper (metrics, draining, deadline, error
  mapping), around the stored answer;
- `worker`: the worker's whole handler path, its services added as the worker adds them
  (`mjsvc.worker.add_services`): deserializer, wrapper, servicer, `Service`;
- `mjsvc`: `mjsvc serve --workers 1` itself.

Every layer is called once with a gRPC client before it is measured and must answer with the service's own
bytes. Reported per layer: server CPU per call (/proc, the whole process tree), median of the rounds, and the
median of its difference to the floor within a round. Needs h2load (Debian: `apt-get install
nghttp2-client`). Writes bench/results/unary_layers.json (see --out), dated inside.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc

from bench.h2load import grpc_frame, run_h2load
from bench.service_cost import SERVICE, _run, _same, requests
from mjsvc import threads
from mjsvc.launcher import ServerProcess, free_port

RESULTS = Path(__file__).resolve().parent / "results"
LAYERS = ("floor", "spin", "parse", "service", "wrapper", "worker", "mjsvc")
METHOD = f"/{SERVICE}/Evaluate"


def _handlers(layer: str, request: bytes, answer: bytes, spin_us: float) -> dict[str, grpc.RpcMethodHandler]:
    """The Evaluate handler of a layer other than `worker` and `mjsvc`."""
    from mjsvc import limits
    from mjsvc.config import ServeConfig
    from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
    from mjsvc.interceptors import CallInterceptor, deserializer, serializer
    from mjsvc.worker import make_service

    answers = {request: answer}
    if layer in ("floor", "spin"):
        spin = spin_us / 1e6 if layer == "spin" else 0.0
        clock = time.perf_counter

        async def floor(req: bytes, context: grpc.aio.ServicerContext) -> bytes:
            if spin:
                until = clock() + spin
                while clock() < until:
                    pass
            return answers[req]

        return {"Evaluate": grpc.unary_unary_rpc_method_handler(floor, request_deserializer=_same,
                                                                 response_serializer=_same)}
    cfg = ServeConfig()
    body_limits = limits.body_limits(cfg.max_batch, cfg.max_message_bytes)
    if layer == "service":
        svc = make_service(cfg)  # the worker's Service, its cache and metrics
        svc.evaluate_bytes(pb.EvaluateRequest.FromString(request))  # cached: every call below is a hit

        async def service(req: pb.EvaluateRequest, context: grpc.aio.ServicerContext) -> bytes:
            return svc.evaluate_bytes(req)

        behavior = service
    else:
        async def stored(req: pb.EvaluateRequest, context: grpc.aio.ServicerContext) -> bytes:
            return answer

        behavior = stored
    handler = grpc.unary_unary_rpc_method_handler(behavior)
    if layer == "wrapper":
        return {"Evaluate": CallInterceptor(body_limits).wrap(METHOD, handler)}
    return {"Evaluate": handler._replace(request_deserializer=deserializer(pb.EvaluateRequest, body_limits["Evaluate"]),
                                         response_serializer=serializer(pb.EvaluateResponse.SerializeToString))}


async def _serve(layer: str, port: int, request: bytes, answer: bytes, spin_us: float) -> None:
    server = grpc.aio.server()
    if layer == "worker":
        from grpc_health.v1._async import HealthServicer

        from mjsvc import limits
        from mjsvc.config import ServeConfig
        from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
        from mjsvc.interceptors import interceptors
        from mjsvc.servicer import EngineServicer
        from mjsvc.worker import Registrar, add_services, make_service

        cfg = ServeConfig()
        svc = make_service(cfg)
        svc.evaluate_bytes(pb.EvaluateRequest.FromString(request))
        (call,) = interceptors(limits.body_limits(cfg.max_batch, cfg.max_message_bytes))
        add_services(Registrar(server, call), EngineServicer(svc, cfg), HealthServicer())
    else:
        handlers = _handlers(layer, request, answer, spin_us)
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    sweeper = asyncio.create_task(threads.keep_batched(asyncio.Event()))  # as the workers schedule them
    print("serving", flush=True)
    await server.wait_for_termination()
    sweeper.cancel()


class LayerServer:
    """One layer (not `mjsvc`) in a process of its own."""

    def __init__(self, layer: str, request: bytes, answer: bytes, spin_us: float = 2.0) -> None:
        self.layer = layer
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        fd, self._file = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump({"request": request.hex(), "answer": answer.hex()}, f)
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.unary_layers", "--serve", layer, str(self.port),
                                      self._file, "--spin", str(spin_us)],
                                     stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        assert self.proc.stdout is not None and self.proc.stdout.readline().strip() == "serving", layer

    @property
    def pid(self) -> int:
        return self.proc.pid

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
        os.unlink(self._file)


def call_once(address: str, request: bytes) -> bytes:
    """One Evaluate call with a plain gRPC client: the answer's bytes."""
    with grpc.insecure_channel(address) as channel:
        call = channel.unary_unary(METHOD, request_serializer=_same, response_deserializer=_same)
        return bytes(call(request, timeout=10))


def run(args: argparse.Namespace) -> dict[str, Any]:
    from mjsvc.service import Service

    _, req = requests()["evaluate"]
    request = req.SerializeToString()
    answer = Service().evaluate_bytes(req)
    fd, data_file = tempfile.mkstemp(suffix=".grpc")
    with os.fdopen(fd, "wb") as f:
        f.write(grpc_frame(request))
    layers = [name for name in LAYERS if name in args.layers]
    servers: dict[str, Any] = {}
    per_round: dict[str, list[float]] = {name: [] for name in layers}
    order = random.Random(args.seed)
    try:
        for name in layers:
            if name == "mjsvc":
                servers[name] = ServerProcess("--stream-rate", "0", "--log-level", "WARNING", workers=1)
                servers[name].wait_ready()
            else:
                servers[name] = LayerServer(name, request, answer, args.spin)
            got = call_once(servers[name].address, request)
            if got != answer:
                raise SystemExit(f"layer {name} answered {len(got)} bytes that are not the service's answer")
        for r in range(args.rounds):
            items = list(servers.items())
            order.shuffle(items)
            for name, srv in items:
                pid = srv.pid if isinstance(srv, LayerServer) else srv.proc.pid
                got = run_h2load(srv.address, pid, data_file, args.requests, 1, args.streams)
                if got["succeeded"] != args.requests:
                    raise SystemExit(f"layer {name}: {got['succeeded']} of {args.requests} calls succeeded")
                per_round[name].append(got["server_us_per_request"])
                print(f"round {r + 1} {name:<8} {got['server_us_per_request']:>7.1f} µs/call "
                      f"{got['requests_per_s']:>8.0f}/s", file=sys.stderr, flush=True)
    finally:
        for srv in servers.values():
            srv.close()
        os.unlink(data_file)
    floor = per_round.get("floor")
    summary: dict[str, Any] = {}
    for name, values in per_round.items():
        row: dict[str, Any] = {"server_us_per_call": round(statistics.median(values), 1), "rounds": values}
        if floor:
            above = [v - f for v, f in zip(values, floor, strict=True)]
            row["above_floor_us"] = round(statistics.median(above), 1)
            row["above_floor_range"] = [round(min(above), 1), round(max(above), 1)]
            row["over_floor"] = round(statistics.median([v / f for v, f in zip(values, floor, strict=True)]), 3)
        summary[name] = row
    return {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "engine": "pure Python" if os.environ.get("MJSVC_PURE_PYTHON") else "as built (compiled if so)",
        "method": "unary Evaluate, the README's MCR hand, every call a cache hit where there is a cache",
        "driver": f"h2load, 1 connection, {args.streams} concurrent streams, {args.requests} calls per layer "
                  "and round",
        "rounds": args.rounds,
        "order": f"shuffled per round, seed {args.seed}",
        "spin_us": args.spin,
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "layers": summary,
    }


def print_report(rep: dict[str, Any]) -> None:
    print(f"# unary_layers {rep['when']}, {rep['rounds']} rounds, {rep['driver']}")
    print(f"{'layer':<10}{'µs/call':>10}{'above floor':>14}  range")
    for name, row in rep["layers"].items():
        lo, hi = row.get("above_floor_range", ("", ""))
        print(f"{name:<10}{row['server_us_per_call']:>10}{row.get('above_floor_us', ''):>14}  [{lo} .. {hi}]")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.unary_layers", description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--requests", type=int, default=20000, help="calls per layer and round")
    p.add_argument("--streams", type=int, default=16, help="concurrent streams (one connection)")
    p.add_argument("--spin", type=float, default=2.0, help="µs of busy Python per call in the `spin` layer")
    p.add_argument("--seed", type=int, default=0, help="of the order the layers are measured in, each round")
    p.add_argument("--layers", nargs="*", choices=LAYERS, default=list(LAYERS), help="these layers only")
    p.add_argument("--out", type=Path, default=RESULTS / "unary_layers.json")
    p.add_argument("--serve", nargs=3, metavar=("LAYER", "PORT", "FILE"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.serve:
        layer, port, path = args.serve
        with open(path) as f:
            stored = json.load(f)
        _run(_serve(layer, int(port), bytes.fromhex(stored["request"]), bytes.fromhex(stored["answer"]), args.spin))
        return 0
    if shutil.which("h2load") is None:
        sys.exit("h2load not found: apt-get install nghttp2-client")
    rep = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rep, indent=1) + "\n")
    print_report(rep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
