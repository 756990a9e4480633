"""Tables refereed by the server (`mjsvc loadgen --game riichi|riichi3|sichuan`; riichi3: three-player
Riichi, options.riichi.players = 3, where a seat sets its Norths aside when Legal offers it): each table
holds its wall and the
hand's log, and asks `Legal` before every step; the players choose among what the server allows, and the
hand ends with `Settle`. Discards follow the server's `Analyze` advice where the rules allow it. So every
step of play is one `Legal` call on the whole log so far (stateless, as a game server calls it), and each
answer steers the game.

Checked on every answer: the actions name tiles the seat holds, the seat to act is one the table expects,
and the settlement's nets and pot sum to zero with one line per winner at least. A failed check is a
`SANITY` error, as in the MCR simulator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb
from mjsvc.loadgen.table import BaseTable

GAMES = ("mcr", "riichi", "riichi3", "sichuan")
_SUITED = 27
_FIVES = (4, 13, 22)  # 5m 5p 5s
_WIN_KINDS = (pb.ACTION_KIND_WIN_SELF_DRAWN, pb.ACTION_KIND_WIN_DISCARD)
_CLAIMS = {pb.ACTION_KIND_PUNG: pb.MELD_KIND_PUNG, pb.ACTION_KIND_KONG_CLAIMED: pb.MELD_KIND_KONG,
           pb.ACTION_KIND_CHOW: pb.MELD_KIND_CHOW}
_FROM: dict[int, Any] = {3: pb.CLAIMED_FROM_LEFT, 2: pb.CLAIMED_FROM_ACROSS, 1: pb.CLAIMED_FROM_RIGHT}
_FROM_3: dict[int, Any] = {2: pb.CLAIMED_FROM_LEFT, 1: pb.CLAIMED_FROM_RIGHT}  # three players: no one across
_NORTH = 30
_SANMA_GONE = range(1, 8)  # 2m-8m: not in the three-player set
_MAX_STEPS = 1000  # a hand has fewer than 400 events; a table that loops is a fault


class Tile:
    """A physical tile: its kind (engine index) and, for Riichi, whether it is a red five."""

    __slots__ = ("kind", "red")

    def __init__(self, kind: int, red: bool = False) -> None:
        self.kind = kind
        self.red = red


def wall_of(game: str, rng: random.Random) -> list[Tile]:
    """A shuffled set: Riichi's 136 with one red five per suit, three-player Riichi's 108 (no 2m-8m, red 5p
    and 5s), Sichuan's 108 suited tiles."""
    kinds = (range(_SUITED) if game == "sichuan" else [k for k in range(34) if k not in _SANMA_GONE]
             if game == "riichi3" else range(34))
    wall = [Tile(k, game != "sichuan" and k in _FIVES and copy == 0) for k in kinds for copy in range(4)]
    rng.shuffle(wall)
    return wall


def proto_tile(kind: int) -> Any:
    return kind + 1


def proto_suit(suit: int) -> Any:
    return suit + 1


def wind(seat: int) -> Any:
    """Seat 0-3 (East deals) as its proto Wind."""
    return seat + 1


class HandState:
    """What the table knows of one hand besides its log: the wall, each seat's concealed tiles, the dead
    wall's indicators (Riichi), the seats in riichi."""

    def __init__(self, game: str, rng: random.Random) -> None:
        self.game = game
        self.rule_set = "riichi" if game == "riichi3" else game
        self.players = 3 if game == "riichi3" else 4
        self.options = pb.RuleOptions(riichi=pb.RiichiOptions(players=3)) if game == "riichi3" else None
        self.rng = rng
        self.wall = wall_of(game, rng)
        self.dead = [self.wall.pop() for _ in range(14)] if self.rule_set == "riichi" else []
        self.hands: list[list[Tile]] = [[self.wall.pop() for _ in range(13)] for _ in range(self.players)]
        self.hands[0].append(self.wall.pop())  # East deals, with 14
        self.dora: list[Tile] = [self.dead.pop()] if self.dead else []
        self.riichi: set[int] = set()
        self.events: list[pb.HandEvent] = []
        self.void: dict[int, int] = {}  # Sichuan: each seat's void suit
        self.dora_owed = 0  # Riichi: kongs whose dora indicator is still to turn
        self.last_discard: Tile | None = None
        self.drawn: dict[int, Tile] = {}  # each seat's last tile drawn (after riichi the one discarded)
        self.last_discarder = 0
        self.melds: list[list[pb.Meld]] = [[] for _ in range(self.players)]
        deal = pb.Deal(hands=[pb.SeatTiles(seat=wind(s), tiles=[proto_tile(t.kind) for t in h],
                                           red_fives=[proto_tile(t.kind) for t in h if t.red])
                              for s, h in enumerate(self.hands)],
                       dora_indicators=[proto_tile(t.kind) for t in self.dora])
        self.events.append(pb.HandEvent(deal=deal))

    def log(self) -> pb.HandLog:
        return pb.HandLog(rule_set=self.rule_set, options=self.options, events=self.events)

    def take(self, seat: int, kind: int, n: int = 1, prefer_plain: bool = True) -> list[Tile]:
        """Remove n tiles of `kind` from the seat's hand (plain fives before red ones)."""
        hand = self.hands[seat]
        found = sorted((t for t in hand if t.kind == kind), key=lambda t: t.red == prefer_plain)[:n]
        if len(found) < n:
            raise LookupError(f"seat {seat} holds {len(found)} of tile {kind}, needs {n}")
        for t in found:
            hand.remove(t)
        return found

    def counts(self, seat: int) -> list[int]:
        c = [0] * 34
        for t in self.hands[seat]:
            c[t.kind] += 1
        return c


def action_tiles(a: pb.Action) -> list[int]:
    return [t - 1 for t in a.tiles]


def choose_win(seats: Sequence[pb.SeatActions], rng: random.Random) -> pb.SeatActions | None:
    winners = [s for s in seats if any(a.kind in _WIN_KINDS for a in s.actions)]
    return winners[0] if winners and rng.random() < 0.9 else None


class RefereeTable(BaseTable):
    """A table of `game` (riichi or sichuan) refereed through Legal and Settle; see the module docstring."""

    def __init__(self, *args: Any, game: str = "riichi", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game

    async def legal(self, req: pb.LegalRequest) -> pb.LegalResponse:
        return await self._call("Legal", self.client.legal, req)

    async def settle(self, req: pb.SettleRequest) -> pb.SettleResponse:
        return await self._call("Settle", self.client.settle, req)

    async def play_game(self, game_no: int, quick_turns: int = 0) -> None:
        """One hand from the deal to its settlement (`quick_turns` is the MCR simulator's; a refereed hand
        always starts at the deal: its log is the whole hand)."""
        rng = random.Random(f"{self.seed}:{self.index}:{game_no}:{self.game}")
        h = HandState(self.game, rng)
        for _ in range(_MAX_STEPS):
            legal = await self.legal(pb.LegalRequest(log=h.log()))
            if not legal.seats:
                await self._settled(h)
                return
            h.events.append(await self._decide(h, list(legal.seats)))
        raise self._bad(f"a {self.game} hand still going after {_MAX_STEPS} events")

    async def _settled(self, h: HandState) -> None:
        out = await self.settle(pb.SettleRequest(log=h.log()))
        wins = sum(1 for e in h.events if e.WhichOneof("event") == "win")
        if sum(m.net for m in out.seats) + out.pot != 0:
            raise self._bad(f"Settle: nets {[m.net for m in out.seats]} and pot {out.pot} do not sum to zero")
        if len(out.wins) != wins:
            raise self._bad(f"Settle: {len(out.wins)} wins evaluated for {wins} Win events")
        if wins:
            self.stats.wins += wins
            self.stats.self_drawn_wins += sum(1 for e in h.events if e.WhichOneof("event") == "win"
                                              and e.win.self_drawn)
        else:
            self.stats.draws += 1

    async def _decide(self, h: HandState, seats: list[pb.SeatActions]) -> pb.HandEvent:
        rng = h.rng
        if h.dora_owed:
            h.dora_owed -= 1
            t = h.dead.pop()
            h.dora.append(t)
            return pb.HandEvent(dora=pb.DoraIndicator(tile=proto_tile(t.kind)))
        kinds = {(s.seat - 1, a.kind) for s in seats for a in s.actions}
        void = [s for s in seats if any(a.kind == pb.ACTION_KIND_VOID_SUIT for a in s.actions)]
        if void:
            return self._void(h, void[0])
        win = choose_win(seats, rng)
        if win is not None:
            seat = win.seat - 1
            self_drawn = any(a.kind == pb.ACTION_KIND_WIN_SELF_DRAWN for a in win.actions)
            ura = [proto_tile(t.kind) for t in h.dead[:len(h.dora)]] if seat in h.riichi else []
            return pb.HandEvent(win=pb.Win(seat=win.seat, self_drawn=self_drawn, ura_dora_indicators=ura))
        turn = [s for s in seats if any(a.kind == pb.ACTION_KIND_DISCARD for a in s.actions)]
        if turn:
            return await self._turn(h, turn[0])
        claims = [(s, a) for s in seats for a in s.actions if a.kind in _CLAIMS]
        if claims and rng.random() < 0.3:
            return self._claim(h, *rng.choice(claims))
        for s in seats:
            for a in s.actions:
                if a.kind == pb.ACTION_KIND_DRAW:
                    return self._draw(h, s.seat - 1)
                if a.kind == pb.ACTION_KIND_DRAWN_GAME:
                    return pb.HandEvent(drawn_game=pb.DrawnGame(kind=self._drawn_kind(h)))
        raise self._bad(f"Legal offers nothing to play: {sorted(kinds)}")

    def _void(self, h: HandState, s: pb.SeatActions) -> pb.HandEvent:
        seat = s.seat - 1
        counts = h.counts(seat)
        offered = [a for a in s.actions if a.kind == pb.ACTION_KIND_VOID_SUIT]
        best = min(offered, key=lambda a: sum(counts[k] for k in range(27) if k // 9 == (a.tiles[0] - 1) // 9))
        suit = (best.tiles[0] - 1) // 9
        h.void[seat] = suit
        held = sorted(t.kind for t in h.hands[seat] if t.kind // 9 == suit)
        # the MIL sheet (the default): a seat holding the suit lays one of its tiles face down
        aside: Any = proto_tile(held[0]) if held else 0
        return pb.HandEvent(void_suit=pb.VoidSuit(seat=s.seat, suit=proto_suit(suit), set_aside=aside))

    async def _turn(self, h: HandState, s: pb.SeatActions) -> pb.HandEvent:
        rng, seat = h.rng, s.seat - 1
        acts = list(s.actions)
        if any(a.kind == pb.ACTION_KIND_NINE_TERMINALS for a in acts) and rng.random() < 0.5:
            return pb.HandEvent(drawn_game=pb.DrawnGame(kind=pb.DRAWN_GAME_KIND_NINE_TERMINALS))
        if any(a.kind == pb.ACTION_KIND_KITA for a in acts) and rng.random() < 0.9:
            h.take(seat, _NORTH)  # the North set aside; Legal then offers the replacement draw
            return pb.HandEvent(kita=pb.Kita(seat=s.seat))
        kongs = [a for a in acts if a.kind in (pb.ACTION_KIND_KONG_CONCEALED, pb.ACTION_KIND_KONG_ADDED)]
        if kongs and rng.random() < 0.5:
            a = rng.choice(kongs)
            kind = action_tiles(a)[0]
            added = a.kind == pb.ACTION_KIND_KONG_ADDED
            taken = h.take(seat, kind, 1 if added else 4, prefer_plain=False)
            if added:
                pung = next(m for m in h.melds[seat] if m.kind == pb.MELD_KIND_PUNG and m.tiles[0] == proto_tile(kind))
                pung.kind, pung.added = pb.MELD_KIND_KONG, True
                pung.tiles.append(proto_tile(kind))
            else:
                h.melds[seat].append(pb.Meld(kind=pb.MELD_KIND_KONG, tiles=[proto_tile(kind)] * 4, concealed=True))
            h.dora_owed += h.rule_set == "riichi"
            return pb.HandEvent(kong=pb.Kong(seat=s.seat, tile=proto_tile(kind), added=added,
                                             red=added and taken[0].red))
        riichi = [action_tiles(a)[0] for a in acts if a.kind == pb.ACTION_KIND_RIICHI]
        allowed = [action_tiles(a)[0] for a in acts if a.kind == pb.ACTION_KIND_DISCARD]
        declare = bool(riichi) and rng.random() < 0.7
        choices = riichi if declare else allowed
        if not choices:
            raise self._bad(f"seat {seat} may act but has nothing to discard")
        tile = await self._advice(h, seat, choices)
        drawn = h.drawn.get(seat)
        if seat in h.riichi and drawn is not None and drawn.kind == tile:  # the tile drawn, red or not
            h.hands[seat].remove(drawn)
            thrown = drawn
        else:
            thrown = h.take(seat, tile)[0]
        h.last_discard = thrown
        h.last_discarder = seat
        if declare:
            h.riichi.add(seat)
        return pb.HandEvent(discard=pb.Discard(seat=s.seat, tile=proto_tile(tile), red=thrown.red, riichi=declare))

    async def _advice(self, h: HandState, seat: int, choices: list[int]) -> int:
        """The server's best discard among `choices` (one Analyze call), else a seeded choice."""
        counts = h.counts(seat)
        for t in choices:
            if counts[t] == 0:
                raise self._bad(f"Legal lets seat {seat} discard a tile it does not hold ({t})")
        if len(set(choices)) == 1:
            return choices[0]
        tiles = sorted(t.kind for t in h.hands[seat])
        opts = None
        if h.game == "sichuan" and seat in h.void:
            opts = pb.RuleOptions(sichuan=pb.SichuanOptions(void_suit=proto_suit(h.void[seat])))
        if h.options is not None:
            opts = h.options
        req = pb.AnalyzeRequest(rule_set=h.rule_set, options=opts,
                                hand=pb.Hand(concealed=[proto_tile(t) for t in tiles], melds=h.melds[seat]))
        advice = await self.analyze(req)
        for d in advice.discards:
            if d.tile - 1 in choices:
                return d.tile - 1
        return h.rng.choice(choices)

    def _claim(self, h: HandState, s: pb.SeatActions, a: pb.Action) -> pb.HandEvent:
        seat = s.seat - 1
        meld = action_tiles(a)
        discard = h.last_discard
        if discard is None:
            raise self._bad("Legal offers a claim with no discard made")
        rest = list(meld)
        rest.remove(discard.kind)
        taken = [h.take(seat, k)[0] for k in rest]
        reds = [proto_tile(t.kind) for t in [*taken, discard] if t.red]
        self.stats.claims[pb.MeldKind.Name(_CLAIMS[a.kind]).removeprefix("MELD_KIND_").lower()] += 1
        h.melds[seat].append(pb.Meld(kind=_CLAIMS[a.kind], tiles=[proto_tile(t) for t in meld],
                                     claimed_from=(_FROM if h.players == 4 else _FROM_3)[
                                         (h.last_discarder - seat) % h.players],
                                     claimed_index=meld.index(discard.kind)))
        h.dora_owed += a.kind == pb.ACTION_KIND_KONG_CLAIMED and h.rule_set == "riichi"
        return pb.HandEvent(claim=pb.Claim(seat=s.seat, kind=_CLAIMS[a.kind], tiles=[proto_tile(t) for t in meld],
                                           red_fives=reds))

    def _draw(self, h: HandState, seat: int) -> pb.HandEvent:
        if not h.wall:
            raise self._bad("Legal offers a draw from an empty wall")
        t = h.wall.pop()
        h.hands[seat].append(t)
        h.drawn[seat] = t
        return pb.HandEvent(draw=pb.Draw(seat=wind(seat), tile=proto_tile(t.kind), red=t.red))

    def _drawn_kind(self, h: HandState) -> Any:
        if not h.wall or h.rule_set != "riichi":
            return pb.DRAWN_GAME_KIND_EXHAUSTIVE
        if h.players == 3:  # no four riichi or four winds
            return pb.DRAWN_GAME_KIND_FOUR_KONGS
        if len(h.riichi) == 4:
            return pb.DRAWN_GAME_KIND_FOUR_RIICHI
        discards = [e.discard.tile for e in h.events if e.WhichOneof("event") == "discard"]
        if len(discards) == 4 and len(set(discards)) == 1:
            return pb.DRAWN_GAME_KIND_FOUR_WINDS
        return pb.DRAWN_GAME_KIND_FOUR_KONGS
