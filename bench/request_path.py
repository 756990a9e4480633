"""`python -m bench.request_path`: what a request costs before the engine, per step, in one process.

Issue 11 dropped the byte-level request paths (EvaluateBatch items and Play messages sliced out of the wire
bytes and looked up by those bytes): every request is now parsed by protobuf, held to the limits and keyed by
its deterministic serialization. This prices the steps on requests the load generator sends (Evaluate with a
context, Analyze with ~30 visible tiles, and the Play message around each), interleaved in rounds so that the
machine's noise falls on all of them alike:

- `parse`: protobuf parsing the request bytes (the old Play/batch paths skipped it on a cache hit);
- `limits`: `mjsvc.limits.check`;
- `key`: `ResponseCache.key` (unknown fields dropped, deterministic serialization);
- `old_key`: what the old exact-bytes cache did on a unary hit (`SerializeToString`), for comparison;
- `hit`: the whole new hit path, `Service.evaluate_bytes` / `analyze_bytes` / `play_bytes` on a cached
  request (parse not included for unary, as gRPC parses; included for `play`).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable

from mjsvc import limits
from mjsvc.cache import ResponseCache
from mjsvc.convert import hand_to_proto, tiles_to_proto
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service


def _requests() -> tuple[pb.EvaluateRequest, pb.AnalyzeRequest]:
    from engine.tiles import parse_tiles

    hand = parse_tiles("123m456p789s11777z")
    ctx = pb.WinContext(self_drawn=True, seat_wind=pb.WIND_SOUTH, prevalent_wind=pb.WIND_EAST)
    ev = pb.EvaluateRequest(rule_set="mcr", hand=hand_to_proto(hand[:13], (), hand[13]), context=ctx)
    an = pb.AnalyzeRequest(hand=hand_to_proto(parse_tiles("1239m456p78s11223z")),
                           visible=tiles_to_proto(parse_tiles("19m19p19s1234567z123m456p789s")))
    return ev, an


def _time(fn: Callable[[], object], n: int) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1e6


def main(rounds: int = 7, n: int = 20000) -> dict[str, dict[str, float]]:
    ev, an = _requests()
    svc = Service()
    play_ev = pb.PlayRequest(id="t1-123", evaluate=ev).SerializeToString()
    play_an = pb.PlayRequest(id="t1-124", analyze=an).SerializeToString()
    svc.evaluate_bytes(ev)
    svc.analyze_bytes(an)
    steps: dict[str, Callable[[], object]] = {}
    for name, req, raw in (("evaluate", ev, ev.SerializeToString()), ("analyze", an, an.SerializeToString())):
        cls = type(req)
        steps[f"{name} parse"] = lambda cls=cls, raw=raw: cls.FromString(raw)
        steps[f"{name} limits"] = lambda req=req: limits.check(req)
        steps[f"{name} key"] = lambda req=req, name=name: ResponseCache.key(name, req)
        steps[f"{name} old_key"] = req.SerializeToString
    steps["evaluate hit"] = lambda: svc.evaluate_bytes(ev)
    steps["analyze hit"] = lambda: svc.analyze_bytes(an)
    steps["play evaluate hit (parse included)"] = lambda: svc.play_bytes(pb.PlayRequest.FromString(play_ev))
    steps["play analyze hit (parse included)"] = lambda: svc.play_bytes(pb.PlayRequest.FromString(play_an))
    samples: dict[str, list[float]] = {k: [] for k in steps}
    for _ in range(rounds):
        for k, fn in steps.items():
            samples[k].append(_time(fn, n))
    return {k: {"median_us": round(statistics.median(v), 2), "min_us": round(min(v), 2)} for k, v in samples.items()}


if __name__ == "__main__":
    out = main()
    for k, v in out.items():
        print(f"{k:40s} {v['median_us']:8.2f} us (min {v['min_us']:.2f})")
    if "--json" in sys.argv:
        print(json.dumps(out))
