"""The table simulator: N tables of four players play real MCR games against a server.

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

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

from engine.hand import ClaimedFrom, Hand, Meld, MeldKind, make_meld
from engine.shapes import is_complete
from mjsvc import gctune, threads
from mjsvc.convert import hand_to_proto
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.loadgen.referee_game import RefereeTable
from mjsvc.loadgen.report import Stats, progress
from mjsvc.loadgen.table import BaseTable, Client, Pacer, Recorder, RunState
from mjsvc.loadgen.transport import StreamClient, UnaryClient, Unreachable, make_channel
from mjsvc.service_config import target

WIN = "win"  # what a recorder is told, with the Evaluate request, when a win is declared
_STALLS_KEPT = 50  # the simulator's longest loop stalls kept in the report (closed loop has thousands)
_FIRST_SLOT_DELAY = 0.25  # seconds


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
        return hand_to_proto(self.hand if concealed is None else concealed,
                             self.melds if melds is None else melds, winning_tile)




class Table(BaseTable):
    """An MCR table: Evaluate on every draw and discard, Analyze for the discards and the claims."""

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
    def _visible(players: list[Player], p: Player, pile: list[int]) -> list[Any]:
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
        seat: Any = (p.seat - dealer) % 4 + 1  # proto Wind values
        wind: Any = prevalent + 1
        ctx = pb.WinContext(self_drawn=self_drawn, last_of_kind=shown == 3, last_wall_tile=last,
                            seat_wind=seat, prevalent_wind=wind)
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
    connect_settle: float = 0.0  # seconds between the channels being ready and seating the tables (several hosts)
    stagger: bool = True  # each table's first game starts at a random turn
    retries: bool = True  # the published service config: calls refused with UNAVAILABLE are retried
    game: str = "mcr"  # mcr: the MCR simulator; riichi, sichuan: tables refereed through Legal and Settle
    batch_helper_threads: bool = True  # gRPC's helper threads under SCHED_BATCH, as a worker's (mjsvc.threads)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


async def run_async(cfg: Config, recorder: Recorder | None = None, stats: Stats | None = None) -> dict[str, Any]:
    """Run the simulator; `stats`, if given, collects the raw measurements for the caller to read."""
    channels = [make_channel(target(cfg.target), cfg.retries) for _ in range(max(1, cfg.connections))]
    try:
        try:
            await asyncio.wait_for(asyncio.gather(*(ch.channel_ready() for ch in channels)), timeout=cfg.timeout)
        except TimeoutError:
            raise Unreachable(f"no server at {cfg.target} could be connected to within {cfg.timeout:g} s "
                              "(--timeout)") from None
        if cfg.connect_settle > 0:
            # A channel is ready with its first address; give round_robin time to reach (and health-check)
            # every other one before the streams are opened, or they would all go to the first host.
            await asyncio.sleep(cfg.connect_settle)
        clients: list[Client] = [StreamClient(channels[i % len(channels)], i) if cfg.mode == "stream"
                                 else UnaryClient(channels[i % len(channels)], cfg.timeout) for i in range(cfg.tables)]
        # Tables are seated before the clock starts, as a game server's tables are connected before
        # they play: 200 streams set up in the same instant would be a connection storm, not play.
        try:
            await asyncio.wait_for(asyncio.gather(*(c.open() for c in clients)), timeout=cfg.timeout)
        except TimeoutError:
            raise Unreachable(f"the server at {cfg.target} did not open the tables' {cfg.tables} streams "
                              f"within {cfg.timeout:g} s (--timeout)") from None
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
        batch_task = asyncio.create_task(threads.keep_batched(gc_stop)) if cfg.batch_helper_threads else None
        # Open loop: the schedule starts a moment from now, so that every table has shuffled and dealt
        # its first wall before its first slot; otherwise those deals would delay the first answers.
        t0 = stats.t0 = time.perf_counter() + (_FIRST_SLOT_DELAY if cfg.rate else 0.0)
        run = RunState(deadline=t0 + cfg.duration if cfg.duration else None, max_games=cfg.games)
        tables: list[BaseTable] = []
        for i, client in enumerate(clients):
            pacer = None
            if cfg.rate:
                interval = cfg.tables / cfg.rate
                pacer = Pacer(t0 + interval * i / cfg.tables, interval, stats.send_lags)
            if cfg.game == "mcr":
                tables.append(Table(i, client, stats, run, cfg.seed, pacer, recorder, stagger=cfg.stagger))
            else:
                tables.append(RefereeTable(i, client, stats, run, cfg.seed, pacer, recorder, game=cfg.game))
        stop = asyncio.Event()
        progress_task = asyncio.create_task(progress(stats, stop)) if cfg.progress else None
        await asyncio.gather(*(t.run() for t in tables))
        elapsed = time.perf_counter() - t0
        stop.set()
        gc_stop.set()
        await gc_task
        await probe_task
        if batch_task is not None:
            await batch_task
        if progress_task is not None:
            await progress_task
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
        streams = [t.client for t in tables if isinstance(t.client, StreamClient)]
        report["streams_opened"] = sum(c.streams_opened for c in streams)
        # Streams that broke (UNAVAILABLE: a worker died, a connection was cut) and were reopened with the
        # message in flight sent again: not errors, the call was answered.
        report["stream_breaks"] = sum(c.stream_breaks for c in streams)
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


