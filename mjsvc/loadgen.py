"""The table simulator (`mjsvc loadgen`): N tables of four players play real MCR games against a server.

Each table deals a seeded wall of 136 tiles and plays it out. Every draw is checked with `Evaluate`
(a self-drawn win?), the discard is chosen from the server's `Analyze` advice on the 14-tile hand,
a hand left waiting is analysed again for its waits, and each discard is offered to the other seats:
a win on it is checked with `Evaluate`, a pung or chow is asked about with `Analyze` on the hand as it
would be after the claim and taken when it lowers shanten. So the traffic is what a game server sends,
and every answer steers the game, which makes the run closed-loop per table.

Transport: one bidirectional `Play` stream per table, or unary calls (`--mode`), with the tables spread
over `--connections` channels, each its own TCP connection, so that SO_REUSEPORT spreads them over the
server's workers. `--rate` turns the run into an offered load: each table sends on a fixed schedule so
the sum is the given calls/s (open loop); sends that come late are reported as `send_lag_ms`.

Every answer is checked: a reported win must be a complete hand by `engine.shapes.is_complete`, each
reported wait must complete the hand, advice must name tiles in the hand, stream answers must carry the
request id. A failed check counts as an error with the code `SANITY`; the simulator only sends legal
hands, so any status other than OK is an error too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message

from engine.hand import ClaimedFrom, Hand, Meld, MeldKind, make_meld
from engine.shapes import is_complete
from mjsvc import gctune
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.gen.mahjong.v1 import mahjong_pb2_grpc

RPCS = ("Evaluate", "Analyze")
SANITY = "SANITY"  # error bucket for answers that fail the simulator's own checks
WIN = "win"  # what a recorder is told, with the Evaluate request, when a win is declared
SERVICE = "mahjong.v1.MahjongEngine"
_MAX_VIOLATIONS_KEPT = 20
_STALLS_KEPT = 50  # the simulator's longest loop stalls kept in the report (closed loop has thousands)
_FIRST_SLOT_DELAY = 0.25  # seconds
_MAX_QUICK_TURNS = 48  # of the 83 draws a wall has after the deal
HELP = "play N simulated tables of MCR against a server and report throughput, latency and errors"


class CallFailed(Exception):
    """A call that did not return a usable answer; `code` is a gRPC status name or SANITY."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


class Stopped(Exception):
    """The run's time or game budget is spent; unwinds the game in progress."""


# ---------------------------------------------------------------------------------------------
# Measurements


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (0 for an empty one)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def summary_ms(values: list[float]) -> dict[str, float]:
    s = sorted(values)
    out = {f"p{int(q * 100)}": round(percentile(s, q) * 1e3, 4) for q in (0.5, 0.9, 0.99)}
    out["max"] = round(s[-1] * 1e3, 4) if s else 0.0
    out["mean"] = round(sum(s) / len(s) * 1e3, 4) if s else 0.0
    return out


@dataclass
class Stats:
    """Everything one run counts. Latencies in seconds; seconds-buckets by completion time."""

    t0: float = field(default_factory=time.perf_counter)
    latencies: dict[str, list[float]] = field(default_factory=lambda: {r: [] for r in RPCS})
    per_second: list[list[float]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    send_lags: list[float] = field(default_factory=list)
    calls: int = 0
    games: int = 0
    games_started: int = 0
    aborted_games: int = 0
    wins: int = 0
    self_drawn_wins: int = 0
    draws: int = 0
    claims: Counter[str] = field(default_factory=Counter)

    def record(self, rpc: str, start: float, end: float) -> None:
        lat = end - start
        self.calls += 1
        self.latencies[rpc].append(lat)
        sec = int(end - self.t0)
        buckets = self.per_second
        while len(buckets) <= sec:
            buckets.append([])
        buckets[sec].append(lat)

    def violation(self, message: str) -> None:
        self.errors[SANITY] += 1
        if len(self.violations) < _MAX_VIOLATIONS_KEPT:
            self.violations.append(message)

    @property
    def error_total(self) -> int:
        return sum(self.errors.values())

    def report(self, elapsed: float, config: dict[str, Any]) -> dict[str, Any]:
        all_lat = [x for r in RPCS for x in self.latencies[r]]
        series = []
        for sec, lats in enumerate(self.per_second):
            s = sorted(lats)
            series.append({"t": sec, "calls": len(s), "p50_ms": round(percentile(s, 0.5) * 1e3, 4),
                           "p99_ms": round(percentile(s, 0.99) * 1e3, 4)})
        return {
            "config": config,
            "duration_s": round(elapsed, 3),
            "calls": self.calls,
            "errors": dict(sorted(self.errors.items())),
            "error_total": self.error_total,
            "rps": round(self.calls / elapsed, 1) if elapsed > 0 else 0.0,
            "latency_ms": summary_ms(all_lat),
            "per_rpc": {r: {"calls": len(self.latencies[r]), "latency_ms": summary_ms(self.latencies[r])}
                        for r in RPCS},
            "send_lag_ms": summary_ms(self.send_lags) if self.send_lags else None,
            "games": self.games,
            "games_started": self.games_started,
            "aborted_games": self.aborted_games,
            "wins": self.wins,
            "self_drawn_wins": self.self_drawn_wins,
            "draws": self.draws,
            "claims": dict(self.claims),
            "violations": self.violations,
            "series": series,
        }


# ---------------------------------------------------------------------------------------------
# Transports: one per table


class UnaryClient:
    def __init__(self, channel: grpc.aio.Channel, timeout: float) -> None:
        self._stub = mahjong_pb2_grpc.MahjongEngineStub(channel)
        self._timeout = timeout

    async def evaluate(self, req: pb.EvaluateRequest) -> pb.EvaluateResponse:
        try:
            return await self._stub.Evaluate(req, timeout=self._timeout)
        except grpc.aio.AioRpcError as e:
            raise CallFailed(e.code().name, e.details() or "") from None

    async def analyze(self, req: pb.AnalyzeRequest) -> pb.AnalyzeResponse:
        try:
            return await self._stub.Analyze(req, timeout=self._timeout)
        except grpc.aio.AioRpcError as e:
            raise CallFailed(e.code().name, e.details() or "") from None

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None


class StreamClient:
    """One `Play` stream for the table; requests go one at a time, answers are matched by id."""

    def __init__(self, channel: grpc.aio.Channel, table: int) -> None:
        self._stub = mahjong_pb2_grpc.MahjongEngineStub(channel)
        self._call: grpc.aio.StreamStreamCall | None = None
        self._prefix = f"t{table}-"
        self._seq = 0
        self.streams_opened = 0

    async def open(self) -> None:
        """Start the stream now rather than at the first request."""
        if self._call is None:
            self._call = self._stub.Play()
            self.streams_opened += 1
        await self._call.wait_for_connection()

    async def _ask(self, msg: pb.PlayRequest) -> pb.PlayResponse:
        if self._call is None:
            self._call = self._stub.Play()
            self.streams_opened += 1
        self._seq += 1
        msg.id = self._prefix + str(self._seq)
        try:
            await self._call.write(msg)
            resp = await self._call.read()
        except grpc.aio.AioRpcError as e:
            self._call = None
            raise CallFailed(e.code().name, e.details() or "") from None
        if resp is grpc.aio.EOF:
            code = await self._call.code()
            self._call = None
            raise CallFailed(code.name if code != grpc.StatusCode.OK else "UNKNOWN", "stream ended early")
        if resp.id != msg.id:
            raise CallFailed(SANITY, f"stream answer id {resp.id!r} for request {msg.id!r}")
        if resp.HasField("error"):
            raise CallFailed(resp.error.code or "UNKNOWN", f"{resp.error.reason}: {resp.error.message}")
        return resp

    async def evaluate(self, req: pb.EvaluateRequest) -> pb.EvaluateResponse:
        resp = await self._ask(pb.PlayRequest(evaluate=req))
        if not resp.HasField("evaluate"):
            raise CallFailed(SANITY, "stream answered an Evaluate with another kind")
        return resp.evaluate

    async def analyze(self, req: pb.AnalyzeRequest) -> pb.AnalyzeResponse:
        resp = await self._ask(pb.PlayRequest(analyze=req))
        if not resp.HasField("analyze"):
            raise CallFailed(SANITY, "stream answered an Analyze with another kind")
        return resp.analyze

    async def close(self) -> None:
        if self._call is not None:
            with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                await self._call.done_writing()
                await self._call.code()  # the server has seen the end and closed its side
            self._call = None


Client = UnaryClient | StreamClient


class Pacer:
    """Open-loop schedule for one table: a send every `interval` seconds from `start`.

    A table that falls behind (its previous answer came late) sends at once and the lateness is
    recorded; a backlog of more than a second is dropped rather than sent as a burst.
    """

    def __init__(self, start: float, interval: float, lags: list[float]) -> None:
        self._next = start
        self._interval = interval
        self._lags = lags

    async def wait(self) -> None:
        delay = self._next - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        now = time.perf_counter()
        lag = now - self._next
        self._lags.append(max(0.0, lag))
        self._next += self._interval
        if lag > 1.0:
            self._next = now + self._interval


# ---------------------------------------------------------------------------------------------
# The game


_KIND_PB = {MeldKind.CHOW: pb.MELD_KIND_CHOW, MeldKind.PUNG: pb.MELD_KIND_PUNG, MeldKind.KONG: pb.MELD_KIND_KONG}


def meld_to_pb(m: Meld) -> pb.Meld:
    out = pb.Meld(kind=_KIND_PB[m.kind], tiles=[t + 1 for t in m.tiles], concealed=m.concealed, added=m.added,
                  claimed_from=int(m.claimed_from))
    if m.claimed_index is not None:
        out.claimed_index = m.claimed_index
    return out


def claimed_from(discarder: int, claimer: int) -> ClaimedFrom:
    """Seat of the discarder relative to the claimer; play passes from left to right."""
    return {3: ClaimedFrom.LEFT, 2: ClaimedFrom.ACROSS, 1: ClaimedFrom.RIGHT}[(discarder - claimer) % 4]


@dataclass
class Player:
    seat: int
    hand: list[int]
    melds: list[Meld] = field(default_factory=list)
    shanten: int = 8  # unknown until the first discard advice
    waits: frozenset[int] = frozenset()
    useful: frozenset[int] = frozenset()

    def pb_hand(self, winning_tile: int | None = None, concealed: list[int] | None = None,
                melds: list[Meld] | None = None) -> pb.Hand:
        h = pb.Hand(concealed=[t + 1 for t in sorted(self.hand if concealed is None else concealed)],
                    melds=[meld_to_pb(m) for m in (self.melds if melds is None else melds)])
        if winning_tile is not None:
            h.winning_tile = winning_tile + 1
        return h


Recorder = Callable[[str, Message], None]


class Table:
    """One table: plays games until the run says stop, through its own client."""

    def __init__(self, index: int, client: Client, stats: Stats, run: RunState, seed: int,
                 pacer: Pacer | None, recorder: Recorder | None = None, stagger: bool = False) -> None:
        self.index = index
        self.stagger = stagger
        self.client = client
        self.stats = stats
        self.run_state = run
        self.seed = seed
        self.pacer = pacer
        self.recorder = recorder
        self._last_request: Message | None = None

    # -- calls -------------------------------------------------------------------------------

    async def _call(self, rpc: str, fn: Callable[[Any], Awaitable[Any]], req: Message) -> Any:
        if self.run_state.should_stop():
            raise Stopped
        if self.pacer is not None:
            await self.pacer.wait()
            if self.run_state.should_stop():  # the slot fell after the end of the run
                raise Stopped
        if self.recorder is not None:
            self.recorder(rpc, req)
            self._last_request = req
        start = time.perf_counter()
        try:
            resp = await fn(req)
        except CallFailed as e:
            self.stats.record(rpc, start, time.perf_counter())
            if e.code == SANITY:
                self.stats.violation(f"table {self.index}: {e.detail}")
            else:
                self.stats.errors[e.code] += 1
                if len(self.stats.violations) < _MAX_VIOLATIONS_KEPT:
                    self.stats.violations.append(f"table {self.index} {rpc}: {e}")
            raise
        self.stats.record(rpc, start, time.perf_counter())
        return resp

    async def evaluate(self, req: pb.EvaluateRequest) -> pb.EvaluateResponse:
        return await self._call("Evaluate", self.client.evaluate, req)

    async def analyze(self, req: pb.AnalyzeRequest) -> pb.AnalyzeResponse:
        return await self._call("Analyze", self.client.analyze, req)

    # -- loop --------------------------------------------------------------------------------

    async def run(self) -> None:
        game_no = 0
        # Tables that all deal at the same instant stay in step for many turns, and the early turns of
        # a game cost the engine most; a table of a real server joins play at any point of a game.
        quick = random.Random(f"{self.seed}:{self.index}:join").randrange(_MAX_QUICK_TURNS) if self.stagger else 0
        try:
            while self.run_state.start_game():
                self.stats.games_started += 1
                try:
                    await self.play_game(game_no, quick if game_no == 0 else 0)
                    self.stats.games += 1
                except CallFailed:
                    self.stats.aborted_games += 1
                except Stopped:
                    break
                game_no += 1
        finally:
            await self.client.close()

    async def play_game(self, game_no: int, quick_turns: int = 0) -> None:
        """Play one game. The first `quick_turns` turns are played without the server (draw, discard a
        random tile), which starts a table in the middle of a game."""
        rng = random.Random(f"{self.seed}:{self.index}:{game_no}")
        wall = [t for t in range(34) for _ in range(4)]
        rng.shuffle(wall)
        dealer = game_no % 4
        prevalent = (game_no // 4) % 4
        players = [Player(s, [wall.pop() for _ in range(13)]) for s in range(4)]
        pile: list[int] = []  # discards nobody claimed
        turn = dealer
        for _ in range(min(quick_turns, len(wall) - 1)):
            hand = players[turn].hand
            hand.append(wall.pop())
            pile.append(hand.pop(rng.randrange(len(hand))))
            turn = (turn + 1) % 4
        need_draw = True
        advice: pb.AnalyzeResponse | None = None
        while True:
            p = players[turn]
            if need_draw:
                if not wall:
                    self.stats.draws += 1
                    return
                tile = wall.pop()
                ev = await self.evaluate(self._win_request(players, p, tile, dealer, prevalent, pile,
                                                           self_drawn=True, last=not wall))
                if self._check_win(p, tile, ev):
                    self.stats.wins += 1
                    self.stats.self_drawn_wins += 1
                    return
                p.hand.append(tile)
                advice = await self.analyze(pb.AnalyzeRequest(hand=p.pb_hand(),
                                                              visible=self._visible(players, p, pile)))
            assert advice is not None
            tile = await self._discard(players, p, advice, pile)
            # The discard is offered to the others in turn order: a win first, then pung, then chow.
            others = [players[(turn + k) % 4] for k in (1, 2, 3)]
            for q in others:
                if tile in q.waits:
                    ev = await self.evaluate(self._win_request(players, q, tile, dealer, prevalent, pile,
                                                               self_drawn=False, last=not wall))
                    if self._check_win(q, tile, ev):
                        self.stats.wins += 1
                        return
            claim = await self._claim(players, p, others, tile, pile, wall)
            if claim is None:
                pile.append(tile)
                turn = (turn + 1) % 4
                need_draw = True
            else:
                turn, advice = claim
                need_draw = False

    # -- steps -------------------------------------------------------------------------------

    @staticmethod
    def _visible(players: list[Player], p: Player, pile: list[int]) -> list[int]:
        vis = [t + 1 for t in pile]
        for q in players:
            if q is not p:
                for m in q.melds:
                    vis.extend(t + 1 for t in m.tiles)
        return vis

    @staticmethod
    def _win_request(players: list[Player], p: Player, tile: int, dealer: int, prevalent: int,
                     pile: list[int], *, self_drawn: bool, last: bool) -> pb.EvaluateRequest:
        shown = pile.count(tile) + sum(m.tiles.count(tile) for q in players for m in q.melds)
        ctx = pb.WinContext(self_drawn=self_drawn, last_of_kind=shown == 3, last_wall_tile=last,
                            seat_wind=(p.seat - dealer) % 4 + 1, prevalent_wind=prevalent + 1)
        return pb.EvaluateRequest(rule_set="mcr", hand=p.pb_hand(winning_tile=tile), context=ctx)

    def _check_win(self, p: Player, tile: int, ev: pb.EvaluateResponse) -> bool:
        """Is this a win the player may declare? Checks the answer against the local shape test."""
        hand = Hand(tuple(sorted(p.hand)), tuple(p.melds), tile)
        complete = is_complete(hand, allow_quad_pairs=True)
        if ev.is_win and not complete:
            self.stats.violation(f"table {self.index}: Evaluate says {hand} wins; it is not a complete hand")
            return False
        if not ev.is_win:
            return False
        best = ev.best
        points = sum(f.points * f.count for f in best.fans)
        if not best.fans or points != best.total:
            self.stats.violation(f"table {self.index}: {hand}: total {best.total} != sum of fans {points}")
            return False
        if best.meets_minimum and self.recorder is not None and self._last_request is not None:
            self.recorder(WIN, self._last_request)
        return best.meets_minimum

    async def _discard(self, players: list[Player], p: Player, advice: pb.AnalyzeResponse,
                       pile: list[int]) -> int:
        """Play the best discard of the advice; analyse the hand again when it is left waiting."""
        if not advice.discards:
            raise self._bad(f"Analyze gave no discard for a 14-tile hand {p.hand}")
        best = advice.discards[0]
        tile = best.tile - 1
        if tile not in p.hand:
            raise self._bad(f"Analyze advises discarding {tile}, which is not in {sorted(p.hand)}")
        p.hand.remove(tile)
        p.shanten = best.shanten
        p.useful = frozenset(tc.tile - 1 for tc in best.useful_tiles)
        p.waits = frozenset()
        if best.shanten == 0:
            a = await self.analyze(pb.AnalyzeRequest(hand=p.pb_hand(), visible=self._visible(players, p, pile)))
            if a.shanten != 0:
                raise self._bad(f"discard advice said ready, Analyze of {sorted(p.hand)} says {a.shanten}")
            if not a.waits:
                raise self._bad(f"a ready hand {sorted(p.hand)} with no waits")
            concealed = tuple(sorted(p.hand))
            held = Hand(concealed, tuple(p.melds)).counts()
            for tc in a.waits:
                # A wait on a tile the player holds four of is listed but flagged: it cannot come.
                if tc.all_copies_held != (held[tc.tile - 1] == 4):
                    raise self._bad(f"wait {tc.tile - 1} all_copies_held={tc.all_copies_held}, "
                                    f"held {held[tc.tile - 1]} in {sorted(p.hand)}")
            waits = frozenset(tc.tile - 1 for tc in a.waits if not tc.all_copies_held)
            for w in waits:
                if not is_complete(Hand(concealed, tuple(p.melds), w), allow_quad_pairs=True):
                    raise self._bad(f"wait {w} does not complete {sorted(p.hand)} {p.melds}")
            p.waits = waits
        return tile

    async def _claim(self, players: list[Player], p: Player, others: list[Player], tile: int,
                     pile: list[int], wall: list[int]) -> tuple[int, pb.AnalyzeResponse] | None:
        """A pung (any seat) or chow (next seat) that lowers the claimer's shanten, with its advice."""
        if not wall:
            return None  # the last discard cannot be claimed for a set
        options: list[tuple[Player, Meld, str]] = []
        for q in others:
            if len(q.melds) < 4 and tile in q.useful and q.hand.count(tile) >= 2:
                options.append((q, make_meld(MeldKind.PUNG, (tile,) * 3,
                                             claimed_from=claimed_from(p.seat, q.seat), claimed_index=0), "pung"))
        nxt = others[0]
        if tile < 27 and len(nxt.melds) < 4 and tile in nxt.useful:
            for first in (tile - 2, tile - 1, tile):
                run = (first, first + 1, first + 2)
                if first < 0 or first // 9 != tile // 9 or (first + 2) // 9 != tile // 9:
                    continue
                if all(t == tile or t in nxt.hand for t in run):
                    options.append((nxt, make_meld(MeldKind.CHOW, run, claimed_from=ClaimedFrom.LEFT,
                                                   claimed_index=tile - first), "chow"))
        for q, meld, kind in options:
            rest = _without(q.hand, meld.tiles, tile)
            melds = [*q.melds, meld]
            a = await self.analyze(pb.AnalyzeRequest(
                hand=q.pb_hand(concealed=rest, melds=melds),
                visible=self._visible(players, q, pile)))
            if a.discards and a.discards[0].shanten < q.shanten:
                q.hand = rest
                q.melds = melds
                self.stats.claims[kind] += 1
                return q.seat, a
        return None

    def _bad(self, message: str) -> CallFailed:
        self.stats.violation(f"table {self.index}: {message}")
        return CallFailed(SANITY, message)


def _without(hand: list[int], meld_tiles: tuple[int, ...], claimed: int) -> list[int]:
    """The hand after a claim: the meld's tiles leave it, except the claimed one, which came from the discard."""
    rest = list(hand)
    skipped = False
    for t in meld_tiles:
        if t == claimed and not skipped:
            skipped = True
            continue
        rest.remove(t)
    return rest


# ---------------------------------------------------------------------------------------------
# A run


@dataclass
class RunState:
    deadline: float | None
    max_games: int | None
    started: int = 0

    def should_stop(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def start_game(self) -> bool:
        if self.should_stop() or (self.max_games is not None and self.started >= self.max_games):
            return False
        self.started += 1
        return True


@dataclass
class Config:
    target: str = "127.0.0.1:50051"
    tables: int = 200
    connections: int = 8
    mode: str = "stream"
    duration: float | None = 60.0
    games: int | None = None
    rate: float | None = None
    seed: int = 1
    timeout: float = 10.0
    progress: bool = True
    settle: float = 0.0  # seconds between seating the tables and starting the clock
    stagger: bool = True  # each table's first game starts at a random turn

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def make_channel(target: str) -> grpc.aio.Channel:
    # A local subchannel pool gives each channel its own TCP connection, so the kernel can hand
    # them to different workers listening with SO_REUSEPORT.
    return grpc.aio.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1),
                                                      ("grpc.enable_retries", 0)])


async def _progress(stats: Stats, cfg: Config, stop: asyncio.Event) -> None:
    last_calls, last_t = 0, time.perf_counter()
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=2.0)
        now = time.perf_counter()
        recent = stats.per_second[-2] if len(stats.per_second) >= 2 else []
        p99 = percentile(sorted(recent), 0.99) * 1e3
        rps = (stats.calls - last_calls) / max(now - last_t, 1e-9)
        last_calls, last_t = stats.calls, now
        print(f"[loadgen] t={now - stats.t0:5.1f}s calls={stats.calls} rps={rps:7.0f} p99={p99:6.2f}ms "
              f"errors={stats.error_total} games={stats.games} wins={stats.wins}", file=sys.stderr, flush=True)


async def run_async(cfg: Config, recorder: Recorder | None = None, stats: Stats | None = None) -> dict[str, Any]:
    """Run the simulator; `stats`, if given, collects the raw measurements for the caller to read."""
    channels = [make_channel(cfg.target) for _ in range(max(1, cfg.connections))]
    try:
        await asyncio.wait_for(asyncio.gather(*(ch.channel_ready() for ch in channels)), timeout=cfg.timeout)
        clients: list[Client] = [StreamClient(channels[i % len(channels)], i) if cfg.mode == "stream"
                                 else UnaryClient(channels[i % len(channels)], cfg.timeout) for i in range(cfg.tables)]
        # Tables are seated before the clock starts, as a game server's tables are connected before
        # they play: 200 streams set up in the same instant would be a connection storm, not play.
        await asyncio.wait_for(asyncio.gather(*(c.open() for c in clients)), timeout=cfg.timeout)
        if cfg.settle > 0:
            await asyncio.sleep(cfg.settle)
        stats = stats if stats is not None else Stats()
        # The simulator measures latency in Python too: its own full collections must not count as
        # server time (see mjsvc.gctune).
        gctune.freeze()
        gc_stop = asyncio.Event()
        gc_task = asyncio.create_task(gctune.keep_frozen(gc_stop))
        probe = gctune.StallProbe()
        probe_task = asyncio.create_task(probe.run(gc_stop))
        # Open loop: the schedule starts a moment from now, so that every table has shuffled and dealt
        # its first wall before its first slot; otherwise those deals would delay the first answers.
        t0 = stats.t0 = time.perf_counter() + (_FIRST_SLOT_DELAY if cfg.rate else 0.0)
        run = RunState(deadline=t0 + cfg.duration if cfg.duration else None, max_games=cfg.games)
        tables = []
        for i, client in enumerate(clients):
            pacer = None
            if cfg.rate:
                interval = cfg.tables / cfg.rate
                pacer = Pacer(t0 + interval * i / cfg.tables, interval, stats.send_lags)
            tables.append(Table(i, client, stats, run, cfg.seed, pacer, recorder, stagger=cfg.stagger))
        stop = asyncio.Event()
        progress = asyncio.create_task(_progress(stats, cfg, stop)) if cfg.progress else None
        await asyncio.gather(*(t.run() for t in tables))
        elapsed = time.perf_counter() - t0
        stop.set()
        gc_stop.set()
        await gc_task
        await probe_task
        if progress is not None:
            await progress
        report = stats.report(elapsed, cfg.as_dict())
        report["offered_rps"] = cfg.rate
        wall_t0 = time.time() - (time.perf_counter() - t0)
        # The simulator's own event-loop stalls: latency measured here includes them.
        worst = sorted(probe.stalls, key=lambda s: s[1], reverse=True)[:_STALLS_KEPT]
        report["client_loop"] = {
            "stall_count": len(probe.stalls),
            "stall_ms_total": round(sum(s[1] for s in probe.stalls) * 1e3, 1),
            "stalls": [{"t": round(w - wall_t0, 3), "lag_ms": round(lag * 1e3, 2), "gc_ms": round(g, 2), "gc_gen": gen}
                       for w, lag, g, gen in sorted(worst)],  # the longest, in time order
            "gc_ms": [round(s * 1e3, 1) for s in probe.gc_seconds], "gc_counts": probe.gc_counts,
            "wall_t0": round(wall_t0, 3)}
        report["streams_opened"] = sum(t.client.streams_opened for t in tables if isinstance(t.client, StreamClient))
        return report
    finally:
        await asyncio.gather(*(ch.close() for ch in channels), return_exceptions=True)


def run_config(cfg: Config, recorder: Recorder | None = None, stats: Stats | None = None) -> dict[str, Any]:
    """Run the simulator to the end and return its report (see `Stats.report`)."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop is a dependency, but the simulator works without it
        return asyncio.run(run_async(cfg, recorder, stats))
    return uvloop.run(run_async(cfg, recorder, stats))


def format_report(r: dict[str, Any]) -> str:
    lat = r["latency_ms"]
    lines = [
        f"tables={r['config']['tables']} mode={r['config']['mode']} connections={r['config']['connections']} "
        f"offered={r['offered_rps'] or 'closed-loop'}",
        f"calls={r['calls']} in {r['duration_s']:.1f}s  rps={r['rps']:.0f}  errors={r['error_total']} "
        f"{r['errors'] or ''}",
        f"latency ms: p50={lat['p50']:.3f} p90={lat['p90']:.3f} p99={lat['p99']:.3f} max={lat['max']:.3f}",
    ]
    for name, pr in r["per_rpc"].items():
        lm = pr["latency_ms"]
        lines.append(f"  {name:<9} calls={pr['calls']:<8} p50={lm['p50']:.3f} p90={lm['p90']:.3f} "
                     f"p99={lm['p99']:.3f} max={lm['max']:.3f}")
    if r["send_lag_ms"]:
        sl = r["send_lag_ms"]
        lines.append(f"send lag ms: p50={sl['p50']:.3f} p99={sl['p99']:.3f} max={sl['max']:.3f}")
    lines.append(f"games={r['games']} (aborted {r['aborted_games']}) wins={r['wins']} "
                 f"(self-drawn {r['self_drawn_wins']}) draws={r['draws']} claims={r['claims']}")
    for v in r["violations"]:
        lines.append(f"  ! {v}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# A fresh local server, for `make loadtest` and the tests that need one


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LocalServer:
    target: str
    metrics_url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""


def wait_serving(target: str, timeout: float, process: subprocess.Popen[bytes] | None = None) -> None:
    """Block until grpc.health.v1 at `target` answers SERVING (or raise on timeout / early exit)."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(target) as ch:
        stub = health_pb2_grpc.HealthStub(ch)
        while True:
            if process is not None and process.poll() is not None:
                raise RuntimeError(f"server exited with {process.returncode} before serving")
            try:
                if stub.Check(health_pb2.HealthCheckRequest(), timeout=1).status == \
                        health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"{target} not SERVING after {timeout:.0f} s")
            time.sleep(0.1)


def scrape_value(metrics_url: str, name: str) -> float | None:
    """Sum of one metric's samples on a Prometheus text endpoint (None when absent)."""
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(metrics_url, timeout=5) as r:
        text = r.read().decode()
    total, seen = 0.0, False
    for fam in text_string_to_metric_families(text):
        for sample in fam.samples:
            if sample.name == name:
                total += sample.value
                seen = True
    return total if seen else None


@contextlib.contextmanager
def local_server(workers: int = 2, extra_args: tuple[str, ...] = (), startup_timeout: float = 90.0,
                 log_dir: Path | None = None) -> Iterator[LocalServer]:
    """Start `mjsvc serve` on free loopback ports, wait until every worker serves, stop it with SIGTERM."""
    port, mport = free_port(), free_port()
    log_dir = log_dir or Path(tempfile.mkdtemp(prefix="mjsvc-server-"))
    log_path = log_dir / "server.log"
    cmd = [sys.executable, "-m", "mjsvc", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--metrics-host", "127.0.0.1", "--metrics-port", str(mport), "--workers", str(workers), *extra_args]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = LocalServer(f"127.0.0.1:{port}", f"http://127.0.0.1:{mport}/metrics", proc, log_path)
    try:
        try:
            wait_serving(server.target, startup_timeout, proc)
            deadline = time.monotonic() + startup_timeout
            # Health answers from whichever worker took the connection; wait for the whole pool.
            while (scrape_value(server.metrics_url, "mjsvc_workers_ready") or 0) < workers:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise TimeoutError("the worker pool did not come up")
                time.sleep(0.1)
        except (RuntimeError, TimeoutError, OSError) as e:
            raise RuntimeError(f"{e}\n--- server log ---\n{server.log_tail()}") from None
        yield server
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# ---------------------------------------------------------------------------------------------
# Request data for ghz


class RequestSampler:
    """Keeps a seeded sample of the requests a run sends, for ghz data files.

    Wins are rare among Evaluate calls (one per game against ~70 draws), so up to `wins_n` winning
    requests are kept apart and put first in the Evaluate data, which keeps scoring in the mix.
    """

    def __init__(self, seed: int, evaluate_n: int = 300, analyze_n: int = 300, play_n: int = 400,
                 wins_n: int = 60) -> None:
        self._rng = random.Random(seed)
        self.limits = {"Evaluate": evaluate_n - wins_n, "Analyze": analyze_n}
        self.kept: dict[str, list[Message]] = {"Evaluate": [], "Analyze": []}
        self.wins: list[Message] = []
        self._wins_n = wins_n
        self.seen = Counter[str]()
        self.play: list[pb.PlayRequest] = []
        self._play_n = play_n

    def __call__(self, rpc: str, req: Message) -> None:
        copy = type(req)()
        copy.CopyFrom(req)
        if rpc == WIN:
            if len(self.wins) < self._wins_n:
                self.wins.append(copy)
            return
        self.seen[rpc] += 1
        if len(self.play) < self._play_n:
            msg = pb.PlayRequest(id=f"m{len(self.play) + 1}")
            getattr(msg, rpc.lower()).CopyFrom(copy)
            self.play.append(msg)
        # Reservoir sampling keeps every request equally likely whatever the run length.
        kept, limit, n = self.kept[rpc], self.limits[rpc], self.seen[rpc]
        if len(kept) < limit:
            kept.append(copy)
        else:
            j = self._rng.randrange(n)
            if j < limit:
                kept[j] = copy


def to_json(msg: Message) -> dict[str, Any]:
    return json_format.MessageToDict(msg, preserving_proto_field_name=True)


def write_request_files(sampler: RequestSampler, out: Path) -> dict[str, int]:
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "evaluate.json": [to_json(m) for m in [*sampler.wins, *sampler.kept["Evaluate"]]],
        "analyze.json": [to_json(m) for m in sampler.kept["Analyze"]],
        "play.json": [to_json(m) for m in sampler.play],
    }
    for name, data in files.items():
        # One message per line: readable, and diffs stay small when the data is regenerated.
        body = ",\n".join(json.dumps(d, separators=(",", ":")) for d in data)
        (out / name).write_text(f"[\n{body}\n]\n")
    return {name: len(data) for name, data in files.items()}


# ---------------------------------------------------------------------------------------------
# CLI


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--target", default="127.0.0.1:50051", help="server HOST:PORT (default %(default)s)")
    p.add_argument("--tables", type=int, default=200, help="tables playing at once (default %(default)s)")
    p.add_argument("--connections", type=int, default=8, help="gRPC channels, each its own TCP connection")
    p.add_argument("--mode", choices=("stream", "unary"), default="stream",
                   help="one Play stream per table, or unary Evaluate/Analyze calls")
    p.add_argument("--duration", type=float, default=None, help="seconds to run (default 60 unless --games)")
    p.add_argument("--games", type=int, default=None, help="stop after this many games in all")
    p.add_argument("--rate", type=float, default=None, help="offered load in calls/s over all tables (open loop)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=10.0, help="per-call deadline in seconds (unary)")
    p.add_argument("--json", type=Path, default=None, help="write the report as JSON to this path")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--dump-requests", type=Path, default=None, metavar="DIR",
                   help="write a sample of the requests sent as ghz data files into DIR")
    p.add_argument("--no-stagger", dest="stagger", action="store_false",
                   help="start every table at the deal (by default each joins its first game at a random turn)")
    p.add_argument("--spawn-server", action="store_true",
                   help="start a fresh local `mjsvc serve` on free ports for this run (ignores --target)")


def config_from_args(args: argparse.Namespace) -> Config:
    duration = args.duration
    if duration is None and args.games is None:
        duration = 60.0
    return Config(target=args.target, tables=args.tables, connections=args.connections, mode=args.mode,
                  duration=duration, games=args.games, rate=args.rate, seed=args.seed, timeout=args.timeout,
                  progress=not args.quiet, stagger=args.stagger)


def run(args: argparse.Namespace) -> int:
    """Entry point for `mjsvc loadgen`; exit status 1 when any call failed or any answer was wrong."""
    cfg = config_from_args(args)
    sampler = RequestSampler(cfg.seed) if args.dump_requests else None
    if args.spawn_server:
        with local_server(workers=os.cpu_count() or 1) as server:
            cfg.target = server.target
            report = run_config(cfg, sampler)
    else:
        report = run_config(cfg, sampler)
    print(format_report(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    if sampler is not None:
        counts = write_request_files(sampler, args.dump_requests)
        print(f"request data written to {args.dump_requests}: {counts}", file=sys.stderr)
    return 1 if report["error_total"] else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mjsvc loadgen", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
