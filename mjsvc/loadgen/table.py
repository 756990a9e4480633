"""What every simulated table shares (`mjsvc loadgen`): its client, the timing and counting of each call, the
run's stop condition and pacing, and the loop over games; `simulation.Table` (MCR) and
`referee_game.RefereeTable` (Riichi, Sichuan) play the games."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from google.protobuf.message import Message

from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.loadgen.report import MAX_VIOLATIONS_KEPT, Stats
from mjsvc.loadgen.transport import SANITY, CallFailed, Stopped, StreamClient, UnaryClient

_MAX_QUICK_TURNS = 48  # of the 83 draws a wall has after the deal

Client = UnaryClient | StreamClient
Recorder = Callable[[str, Message], None]


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


class BaseTable:
    """One table: plays games (`play_game`, the subclass's) until the run says stop, through its own client;
    every call timed and counted, its failures recorded."""

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
                if len(self.stats.violations) < MAX_VIOLATIONS_KEPT:
                    self.stats.violations.append(f"table {self.index} {rpc}: {e}")
            raise
        self.stats.record(rpc, start, time.perf_counter())
        return resp

    async def evaluate(self, req: pb.EvaluateRequest) -> pb.EvaluateResponse:
        return await self._call("Evaluate", self.client.evaluate, req)

    async def analyze(self, req: pb.AnalyzeRequest) -> pb.AnalyzeResponse:
        return await self._call("Analyze", self.client.analyze, req)

    async def play_game(self, game_no: int, quick_turns: int = 0) -> None:
        raise NotImplementedError

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

    def _bad(self, message: str) -> CallFailed:
        self.stats.violation(f"table {self.index}: {message}")
        return CallFailed(SANITY, message)
