"""The LRU cache of canonical hand keys: eviction, counts, thread safety and what goes into a key."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine import rules
from engine.hand import ClaimedFrom, MeldKind, WinContext, Wind, make_hand, make_meld, winning_hand
from engine.tiles import EAST, RED, parse_tiles
from mjsvc.cache import LRUCache, analyze_key, evaluate_key


class Tally:
    def __init__(self) -> None:
        self.n = 0

    def inc(self, amount: float = 1) -> None:
        self.n += int(amount)


def test_lru_evicts_least_recently_used() -> None:
    c = LRUCache(2)
    c.put("a", 1)
    c.put("b", 2)
    assert c.get("a") == 1  # a is now the most recent
    c.put("c", 3)
    assert "b" not in c and "a" in c and "c" in c and len(c) == 2
    assert c.get("b", "gone") == "gone"
    s = c.stats()
    assert (s.hits, s.misses, s.size, s.maxsize) == (1, 1, 2, 2)


def test_get_or_compute_counts_and_calls_once() -> None:
    hits, misses = Tally(), Tally()
    c = LRUCache(10, hit_counter=hits, miss_counter=misses)
    calls: list[int] = []

    def compute() -> str:
        calls.append(1)
        return "value"

    assert c.get_or_compute(("k",), compute) == "value"
    assert c.get_or_compute(("k",), compute) == "value"
    assert len(calls) == 1 and (hits.n, misses.n) == (1, 1)
    assert c.stats().hits == 1 and c.stats().misses == 1


def test_errors_are_not_cached() -> None:
    c = LRUCache(10)

    def boom() -> int:
        raise ValueError("bad hand")

    for _ in range(2):
        with pytest.raises(ValueError):
            c.get_or_compute("k", boom)
    assert len(c) == 0 and c.stats().misses == 2


def test_size_zero_disables() -> None:
    c = LRUCache(0)
    assert c.get_or_compute("k", lambda: 1) == 1
    assert c.get_or_compute("k", lambda: 2) == 2
    assert len(c) == 0
    with pytest.raises(ValueError):
        LRUCache(-1)


def test_concurrent_use_keeps_bound_and_counts() -> None:
    c = LRUCache(50)
    n_threads, per_thread = 8, 2000
    barrier = threading.Barrier(n_threads)

    def work(seed: int) -> None:
        rng = random.Random(seed)
        barrier.wait()
        for _ in range(per_thread):
            key = rng.randrange(80)
            assert c.get_or_compute(key, lambda k=key: k * k) == key * key

    with ThreadPoolExecutor(n_threads) as pool:
        list(pool.map(work, range(n_threads)))
    s = c.stats()
    assert s.hits + s.misses == n_threads * per_thread
    assert s.size == 50 and s.hits > 0 and s.misses >= 80
    # The recency order survived the contention: it holds exactly the keys it says it holds.
    assert all(c.get(k) == k * k for k in list(c._data))


# ---------------------------------------------------------------------------------------------
# Keys


def _win(concealed: str, win: str, melds: tuple = ()) -> object:
    return winning_hand(parse_tiles(concealed), melds, parse_tiles(win)[0])


def test_evaluate_key_equal_for_equivalent_requests() -> None:
    a = winning_hand(parse_tiles("123m456p789s1123z"), (), RED)
    b = winning_hand(list(reversed(parse_tiles("123m456p789s1123z"))), (), RED)
    assert evaluate_key("mcr", a, WinContext()) == evaluate_key("mcr", b, WinContext())
    # Where the claimed tile came from changes no score.
    m1 = make_meld(MeldKind.PUNG, parse_tiles("555z"), claimed_from=ClaimedFrom.LEFT)
    m2 = make_meld(MeldKind.PUNG, parse_tiles("555z"), claimed_from=ClaimedFrom.RIGHT, claimed_index=2)
    h1 = winning_hand(parse_tiles("123m456p789s1z"), (m1,), EAST)
    h2 = winning_hand(parse_tiles("123m456p789s1z"), (m2,), EAST)
    assert evaluate_key("mcr", h1, WinContext()) == evaluate_key("mcr", h2, WinContext())


def test_evaluate_key_differs_on_what_matters() -> None:
    h = winning_hand(parse_tiles("123m456p789s1123z"), (), RED)
    base = evaluate_key("mcr", h, WinContext())
    assert evaluate_key("mcr2p", h, WinContext()) != base
    assert evaluate_key("mcr", h, WinContext(self_drawn=True)) != base
    assert evaluate_key("mcr", h, WinContext(flowers=2)) != base
    assert evaluate_key("mcr", h, WinContext(seat_wind=Wind.SOUTH)) != base  # the hand holds winds
    other_win = winning_hand(parse_tiles("123m456p789s1112z"), (), parse_tiles("3z")[0])
    assert evaluate_key("mcr", other_win, WinContext()) != base
    # A kong declared concealed or exposed scores differently.
    k1 = winning_hand(parse_tiles("123m456p789s1z"), (make_meld(MeldKind.KONG, [RED] * 4, concealed=True),), EAST)
    k2 = winning_hand(parse_tiles("123m456p789s1z"), (make_meld(MeldKind.KONG, [RED] * 4,
                                                               claimed_from=ClaimedFrom.LEFT),), EAST)
    assert evaluate_key("mcr", k1, WinContext()) != evaluate_key("mcr", k2, WinContext())


def test_the_key_holds_exactly_the_declared_context_fields() -> None:
    h = winning_hand(parse_tiles("123m456p789s1255m"), (), parse_tiles("3m")[0])
    # mcr declares the winds: a seat changes the key even without a wind tile (nothing rule-specific here)
    assert evaluate_key("mcr", h, WinContext(seat_wind=Wind.SOUTH)) != evaluate_key("mcr", h, WinContext())
    # mcr2p reads no prevalent wind, mcr reads no two-player flag
    assert evaluate_key("mcr2p", h, WinContext(prevalent_wind=Wind.SOUTH)) == evaluate_key("mcr2p", h, WinContext())
    assert evaluate_key("mcr", h, WinContext(ready_declared=True)) == evaluate_key("mcr", h, WinContext())
    assert evaluate_key("mcr2p", h, WinContext(ready_declared=True)) != evaluate_key("mcr2p", h, WinContext())
    for name in rules.names():
        rs = rules.get(name)
        key = evaluate_key(name, h, WinContext())
        assert key[-1] == tuple(getattr(WinContext(), f) for f in rs.context_fields)


def test_relevant_context_fields_limit_the_key() -> None:
    h = winning_hand(parse_tiles("123m456p789s1123z"), (), RED)
    relevant = ("self_drawn", "flowers")
    assert evaluate_key("mcr", h, WinContext(seat_wind=Wind.WEST), relevant) == evaluate_key("mcr", h, WinContext(),
                                                                                            relevant)
    assert evaluate_key("mcr", h, WinContext(), relevant) != evaluate_key("mcr", h, WinContext())


def test_options_and_red_fives_are_in_the_key() -> None:
    h = winning_hand(parse_tiles("123m456p789s1155m"), (), parse_tiles("5m")[0])
    red = winning_hand(parse_tiles("123m456p789s1155m"), (), parse_tiles("5m")[0], red_fives=parse_tiles("5m"))
    assert evaluate_key("mcr", h, WinContext()) != evaluate_key("mcr", red, WinContext())
    opts = rules.get("mcr2p").options({"non_dealer_seat": "west"})
    assert evaluate_key("mcr2p", h, WinContext(), options=opts) != evaluate_key("mcr2p", h, WinContext())
    assert evaluate_key("mcr2p", h, WinContext(), options=opts) == \
        evaluate_key("mcr2p", h, WinContext(), options=rules.get("mcr2p").options({"non_dealer_seat": "west"}))


def test_analyze_key_ignores_visible_order_and_differs_from_evaluate() -> None:
    h = make_hand(parse_tiles("123m456p789s1123z"), sizes=(13, 14))
    assert analyze_key("mcr", h, [5, 1, 1]) == analyze_key("mcr", h, [1, 5, 1])
    assert analyze_key("mcr", h, [1, 5]) != analyze_key("mcr", h, [1, 5, 1])
    w = winning_hand(parse_tiles("123m456p789s1123z"), (), RED)
    assert analyze_key("mcr", w, ()) != evaluate_key("mcr", w, WinContext())
