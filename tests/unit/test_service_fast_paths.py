"""The service's cheaper paths against the plain ones (issue: a call's cost around the engine).

- A cache hit skips the input limits: a cached answer exists only for a parsed request that passed them,
  so a service with its cache answers every request sequence exactly as one without (same answers, same
  errors with the same code, field and message), requests over their limits included and repeated.
- The counts made per Play message are held in memory (`metrics.Tally`) and written by `flush()`: nothing
  is lost or counted twice, and `flush_if_due` writes at most every FLUSH_EVERY seconds. So are the
  engine's time per call and the cache's size and evictions (`metrics.EngineObserver`).
- A Play answer's id is written as bytes, as protobuf writes it.
"""

from __future__ import annotations

import random

import pytest
from prometheus_client import CollectorRegistry, Counter

from engine.errors import EngineError
from engine.tiles import parse_tiles
from mjsvc import metrics
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.service import Service


def T(text: str) -> list[int]:
    return [t + 1 for t in parse_tiles(text)]


def _requests(rng: random.Random) -> list[pb.EvaluateRequest | pb.AnalyzeRequest]:
    """A pool of requests, some over a limit (too many tiles, melds, indicators, a long rule set name)."""
    win = pb.EvaluateRequest(rule_set="mcr", hand=pb.Hand(concealed=T("123m456p789s1177z"), winning_tile=pb.TILE_RED),
                             context=pb.WinContext(self_drawn=True))
    pool: list[pb.EvaluateRequest | pb.AnalyzeRequest] = [win]
    def variant() -> pb.EvaluateRequest:
        v = pb.EvaluateRequest()
        v.CopyFrom(win)
        return v

    over_tiles, over_melds, over_dora, long_name = variant(), variant(), variant(), variant()
    over_tiles.hand.concealed.extend([1] * 10)
    over_melds.hand.melds.extend([pb.Meld(kind=pb.MELD_KIND_PUNG, tiles=[1, 1, 1])] * 9)
    over_dora.rule_set = "riichi"
    over_dora.context.dora_indicators.extend([1] * 11)
    long_name.rule_set = "x" * 40
    pool += [over_tiles, over_melds, over_dora, long_name]
    for text in ("1239m456p78s1123z", "1239m456p78s11223z", "19m19p19s1234567z", "123456789m12345p"):
        pool.append(pb.AnalyzeRequest(hand=pb.Hand(concealed=T(text))))
        pool.append(pb.AnalyzeRequest(hand=pb.Hand(concealed=T(text)), visible=[1] * rng.randint(130, 140)))
    for _ in range(20):
        tiles = sorted(rng.sample(range(136), 14))
        pool.append(pb.EvaluateRequest(rule_set=rng.choice(["mcr", "riichi", "hk", "sichuan"]),
                                       hand=pb.Hand(concealed=[t // 4 + 1 for t in tiles[:13]],
                                                    winning_tile=tiles[13] // 4 + 1)))
    return pool


def _answer(svc: Service, req: pb.EvaluateRequest | pb.AnalyzeRequest) -> tuple[str, object]:
    fresh = type(req)()
    fresh.CopyFrom(req)  # each service its own copy: nothing one does to a request can reach the other
    try:
        if isinstance(fresh, pb.EvaluateRequest):
            return "ok", svc.evaluate_bytes(fresh)
        return "ok", svc.analyze_bytes(fresh)
    except EngineError as err:
        return "error", (type(err).__name__, err.code, err.field, str(err))


@pytest.mark.parametrize("seed", range(4))
def test_cached_service_answers_as_the_uncached_one(seed: int) -> None:
    rng = random.Random(seed)
    pool = _requests(rng)
    cached, plain = Service(), Service(cache_size=0)
    errors = 0
    for _ in range(400):
        req = rng.choice(pool)
        got, want = _answer(cached, req), _answer(plain, req)
        assert got == want, req
        errors += got[0] == "error"
    assert errors > 20 and cached.cache.hits > 100  # both paths were taken


def test_a_request_over_its_limits_is_refused_every_time() -> None:
    svc = Service()
    req = pb.EvaluateRequest(rule_set="mcr", hand=pb.Hand(concealed=[1] * 20, winning_tile=1))
    for _ in range(3):
        kind, what = _answer(svc, req)
        assert kind == "error" and what[1] == "LIMIT_EXCEEDED" and what[2] == "hand.concealed"  # type: ignore[index]
    assert len(svc.cache) == 0


def test_tally_holds_counts_until_flush() -> None:
    registry = CollectorRegistry()
    counter = Counter("t_total", "test", registry=registry)
    tally = metrics.Tally(counter)
    metrics.flush()
    for _ in range(5):
        tally.inc()
    assert registry.get_sample_value("t_total") == 0
    metrics.flush()
    assert registry.get_sample_value("t_total") == 5
    metrics.flush()  # nothing held: nothing written twice
    assert registry.get_sample_value("t_total") == 5
    tally.inc()
    now = metrics._flushed_at[0] + metrics.FLUSH_EVERY / 2
    metrics.flush_if_due(now)
    assert registry.get_sample_value("t_total") == 5  # not due
    metrics.flush_if_due(now + metrics.FLUSH_EVERY)
    assert registry.get_sample_value("t_total") == 6


def test_held_histogram_exposes_what_direct_observation_does() -> None:
    """`metrics.HeldHistogram` (bucket counts and the sum held in memory, written by flush) against the same
    values observed directly: the same exposition, bucket by bucket, with values on the bounds, between
    them, under the first and over the last."""
    import random

    from prometheus_client import Histogram

    rng = random.Random(3)
    bounds = (0.0001, 0.001, 0.01, 0.1, 1.0)
    values = [rng.choice((*bounds, 0.0, 5.0)) for _ in range(50)] + [rng.uniform(0, 2) for _ in range(500)]
    held_reg, direct_reg = CollectorRegistry(), CollectorRegistry()
    held = metrics.HeldHistogram(Histogram("h_seconds", "test", buckets=bounds, registry=held_reg))
    direct = Histogram("h_seconds", "test", buckets=bounds, registry=direct_reg)
    metrics.flush()
    for i, v in enumerate(values):
        held.observe(v)
        direct.observe(v)
        if i % 97 == 0:  # several flushes, each writing what was held since the last
            metrics.flush()
    metrics.flush()

    def samples(reg: CollectorRegistry) -> list[tuple[str, list[tuple[str, str]], float]]:
        return sorted((s.name, sorted(s.labels.items()), round(s.value, 9))
                      for fam in reg.collect() for s in fam.samples if not s.name.endswith("_created"))

    assert samples(held_reg) == samples(direct_reg)


def test_engine_time_and_cache_size_are_held_until_flush() -> None:
    """`EngineObserver` writes nothing per call: engine times land in their buckets and sum, evictions add
    up, and the cache gauges take the last size set, all at the next flush."""
    from bisect import bisect_left

    obs = metrics.EngineObserver()
    metrics.flush()
    child = metrics.engine_seconds.labels("test-rule-set", "evaluate")
    bounds = tuple(child._upper_bounds)

    def state() -> tuple[float, list[float], float, float, float]:
        return (child._sum.get(), [b.get() for b in child._buckets], metrics.cache_entries._value.get(),
                metrics.cache_bytes._value.get(), metrics.cache_evictions._value.get())

    before = state()
    values = [3e-5, 25e-6, 1e-4, 0.2, 7.0, 4e-6]
    for v in values:
        obs.engine_time("test-rule-set", "evaluate", v)
    obs.cache_size(3, 900)
    obs.cache_size(5, 1500)
    obs.cache_evicted(2)
    obs.cache_evicted(3)
    assert state() == before
    metrics.flush()
    total, buckets, entries, size, evicted = state()
    assert total == pytest.approx(before[0] + sum(values))
    expected = list(before[1])
    for v in values:
        expected[bisect_left(bounds, v)] += 1
    assert buckets == expected
    assert (entries, size, evicted) == (5, 1500, before[4] + 5)
    metrics.flush()  # nothing held: nothing written twice
    assert state() == (total, buckets, entries, size, evicted)


def test_a_unary_call_s_counts_are_written_soon_after_it() -> None:
    """`flush_soon()` writes once, FLUSH_DELAY later, whatever was held by the calls in between."""
    import asyncio

    registry = CollectorRegistry()
    tally = metrics.Tally(Counter("u_total", "test", registry=registry))
    metrics.flush()

    async def calls() -> list[float | None]:
        seen = []
        for _ in range(3):
            tally.inc()
            metrics.flush_soon()
            seen.append(registry.get_sample_value("u_total"))
        await asyncio.sleep(metrics.FLUSH_DELAY * 4)
        seen.append(registry.get_sample_value("u_total"))
        return seen

    assert asyncio.run(calls()) == [0, 0, 0, 3]


def test_play_answer_id_is_written_as_protobuf_writes_it() -> None:
    svc = Service()
    inner = pb.AnalyzeRequest(hand=pb.Hand(concealed=T("1239m456p78s1123z")))
    for rid in ("", "t1", "table-7/ü/" + "x" * 100, "é" * 60):
        got = svc.play_bytes(pb.PlayRequest(id=rid, analyze=inner))
        want = pb.PlayResponse(id=rid, analyze=svc.analyze(inner)).SerializeToString()
        assert got == want
