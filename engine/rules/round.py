"""The round of the Chinese rule sets as the referee replays it: the replay's events, and the replay
shared by the tables where one win ends the hand (MCR, the two-player table, Hong Kong, Guangdong).
Sichuan's bloody round has its own replay (engine/rules/sichuan/referee.py) on the same events. A hand's
log (engine.referee.HandLog) is read into these by engine/rules/round_log.py, which also writes the
answers as the contract's.

Seats are 0 .. n-1 in turn order (seat s + 1 plays after seat s); `dealer` sits East, the next seat
South, and so on. Tiles are engine indices; flowers are `engine.hand.Flower` values, never tiles.

The flow, checked event by event (IllegalEventError, code ILLEGAL_EVENT, names the event):

* Deal: the dealer 14 playing tiles, the others 13, minus the flowers each was dealt; a dealt flower is
  shown as a FlowerTile followed by its replacement Draw, all before the dealer's first action.
* A draw is by the next seat after the discarder (after a claim: none; after a kong: its declarer's
  replacement). A flower drawn is a FlowerTile in place of the Draw, and the same seat draws again.
* Discard by the seat holding 14; then a win, a pung or kong by any other seat, a chow by the next
  seat only (where the rule set has chows); a kong needs a tile left in the wall.
* A kong: concealed (four held), added (to the player's own pung; it may be robbed), exposed (a claim).
* Win: the hand must win under the rule set, at or over its minimum, with the context derived from
  the log; one winner ends the hand. DrawnGame: only when the wall is empty.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine import api, rules
from engine.errors import EngineError
from engine.hand import ClaimedFrom, Flower, Hand, Meld, MeldKind, Suit, WinContext, Wind, make_hand, make_meld
from engine.referee import IllegalEventError
from engine.results import Scoring
from engine.tiles import NUM_FLOWERS, format_tile, is_honor, rank_of, suit_of

# ---------------------------------------------------------------------------------------------
# The replay's own events: the contract's (engine.referee), read at the point of play by
# engine.rules.round_log (seats as turn-order indices, a win naming its tile and discarder)


@dataclass(frozen=True)
class Deal:
    hands: tuple[tuple[int, ...], ...]
    dealer: int


@dataclass(frozen=True)
class Draw:
    seat: int
    tile: int


@dataclass(frozen=True)
class FlowerTile:
    """A flower shown and set aside (dealt, or drawn in place of a tile); the seat draws a replacement."""

    seat: int
    flower: Flower


@dataclass(frozen=True)
class Discard:
    seat: int
    tile: int


@dataclass(frozen=True)
class Claim:
    """A chow, pung or exposed kong on the last discard (by `discarder`); a chow names its lowest tile."""

    seat: int
    kind: MeldKind
    tile: int
    discarder: int
    chow_first: int | None = None


@dataclass(frozen=True)
class Kong:
    """A concealed kong, or an added kong (a tile added to the player's pung)."""

    seat: int
    tile: int
    concealed: bool


@dataclass(frozen=True)
class Win:
    """`discarder` None: self-drawn; on a robbed kong the kong's owner. `horses`: the tiles drawn from the
    wall as horses after the win (Guangdong 买马)."""

    seat: int
    tile: int
    discarder: int | None
    horses: tuple[int, ...] = ()


@dataclass(frozen=True)
class FalseWin:
    """诈胡: a win declared without a winning hand (the rule set says its penalty, if any)."""

    seat: int


@dataclass(frozen=True)
class Exchange:
    """Sichuan: 换三张: `tiles[s]` the three tiles seat s passes to seat `to[s]`."""

    tiles: tuple[tuple[int, ...], ...]
    to: tuple[int, ...]


@dataclass(frozen=True)
class VoidSuits:
    """Sichuan: the four void suits (and the MIL set-aside tiles), seat by seat."""

    suits: tuple[Suit, ...]
    set_aside: tuple[int | None, ...] = (None, None, None, None)


@dataclass(frozen=True)
class WallEnd:
    """DrawnGame EXHAUSTIVE: the wall has run out."""


# ---------------------------------------------------------------------------------------------
# What may happen next (Legal)


@dataclass(frozen=True)
class SeatLegal:
    """What one seat may do next: the tiles it may discard, its kongs (tile, concealed), a self-drawn
    win, a win / pung / kong on the discard (or a robbing win), the chows it may make (their lowest
    tiles), its draw or, the wall being empty, the wall's end; before the play (Sichuan) the suits it
    may pass three of or declare void. A flower is shown whenever one is dealt or drawn."""

    seat: int
    discards: tuple[int, ...] = ()
    kongs: tuple[tuple[int, bool], ...] = ()
    self_win: bool = False
    win: bool = False
    pung: bool = False
    kong: bool = False
    chows: tuple[int, ...] = ()
    draw: bool = False
    wall_end: bool = False
    exchange_suits: tuple[Suit, ...] = ()
    void_suits: tuple[Suit, ...] = ()


# ---------------------------------------------------------------------------------------------
# What a hand's money is made of


@dataclass(frozen=True)
class Transfer:
    kind: str  # win, kong, ...
    payer: int
    payee: int | None  # None: the pot
    amount: int
    at_event: int
    detail: str = ""


@dataclass(frozen=True)
class WinRecord:
    seat: int
    discarder: int | None
    tile: int
    scoring: Scoring
    context: WinContext
    at_event: int


@dataclass(frozen=True)
class Outcome:
    net: tuple[int, ...]
    pot: int
    transfers: tuple[Transfer, ...]
    wins: tuple[WinRecord, ...]
    complete: bool


def net_of(transfers: Iterable[Transfer], seats: int) -> tuple[tuple[int, ...], int]:
    net, pot = [0] * seats, 0
    for t in transfers:
        net[t.payer] -= t.amount
        if t.payee is None:
            pot += t.amount
        else:
            net[t.payee] += t.amount
    return tuple(net), pot


# ---------------------------------------------------------------------------------------------
# The replay of a one-winner table


class Phase(Enum):
    DEAL = "deal"
    OPENING = "opening"  # dealt flowers shown and replaced, before the dealer's first action
    TURN = "turn"
    CLAIMS = "claims"
    ROB = "rob"
    DRAW = "draw"
    OVER = "over"


class TurnKind(Enum):
    START = "start"
    DRAWN = "drawn"
    REPLACEMENT = "replacement"  # the draw after a kong (杠上开花)
    CLAIMED = "claimed"


@dataclass
class SeatState:
    counts: list[int] = field(default_factory=lambda: [0] * 34)
    melds: list[Meld] = field(default_factory=list)
    melds_from: list[int | None] = field(default_factory=list)  # per meld, the seat the tile came from
    flowers: list[Flower] = field(default_factory=list)
    dealt_short: int = 0  # dealt flowers still to show
    drawn: int = 0
    discarded: int = 0


@dataclass
class Table:
    """A one-winner hand being replayed. Subclasses (one per rule set) say what a win is worth and who
    pays (`settle_win`), and may add kong money (`on_kong`) and a drawn game's settlement (`on_wall_end`)."""

    rule_set: str
    options: Any
    seats_n: int = 4
    prevalent: Wind = Wind.EAST
    tiles: frozenset[int] = frozenset(range(34))
    flowers: bool = True
    chows: bool = True
    other_wind: Wind = Wind.WEST  # the two-player table: the non-dealer's seat wind
    seats: list[SeatState] = field(default_factory=list)
    dealer: int = 0
    wall: int = 0
    phase: Phase = Phase.DEAL
    turn: int = 0
    turn_kind: TurnKind = TurnKind.START
    drawn_tile: int | None = None
    replacement: bool = False
    discard: tuple[int, int] | None = None
    discard_last: bool = False
    rob: tuple[int, int] | None = None
    pool: list[int] = field(default_factory=lambda: [0] * 34)  # discards on the table (not claimed)
    seen: list[int] = field(default_factory=lambda: [0] * 34)
    flowers_seen: set[Flower] = field(default_factory=set)
    transfers: list[Transfer] = field(default_factory=list)
    wins: list[WinRecord] = field(default_factory=list)
    log: list[Any] = field(default_factory=list)
    index: int = 0
    pending_opening: int | None = None  # opening phase: the seat whose flower replacement is due
    turn_kongs: int = 0  # kongs in a row by the seat in turn, each followed by its replacement draw
    fed: list[tuple[int, int, int]] = field(default_factory=list)  # claims: (claimer, tile, discarder)
    kong_feeder: int | None = None  # the discarder of the exposed kong whose replacement is being drawn
    first_discards: list[tuple[int, int]] = field(default_factory=list)  # the opening go-round's discards
    interrupted: bool = False  # a claim or a kong happened before every seat had discarded once

    def __post_init__(self) -> None:
        self.seats = [SeatState() for _ in range(self.seats_n)]
        total = 4 * len(self.tiles) + (NUM_FLOWERS if self.flowers else 0)
        self.wall = total - 13 * self.seats_n - 1

    # ------------------------------------------------------------------ helpers

    def fail(self, message: str) -> IllegalEventError:
        return IllegalEventError(self.index, message)

    def wind(self, seat: int) -> Wind:
        if self.seats_n == 2:  # the two-player table: the dealer East, the other player `other_wind`
            return Wind.EAST if seat == self.dealer else self.other_wind
        return Wind((seat - self.dealer) % self.seats_n)

    def relative(self, seat: int, other: int) -> ClaimedFrom:
        """`other` seen from `seat` (LEFT: the player before it in turn)."""
        step = (other - seat) % self.seats_n
        if step == self.seats_n - 1:  # the player before (with two players: the other one)
            return ClaimedFrom.LEFT
        return ClaimedFrom.RIGHT if step == 1 else ClaimedFrom.ACROSS

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.seats_n

    def pay(self, kind: str, payer: int, payee: int | None, amount: int, detail: str = "") -> None:
        if amount:
            self.transfers.append(Transfer(kind, payer, payee, amount, self.index, detail))

    def see(self, t: int) -> None:
        if type(t) is not int or t not in self.tiles:
            raise self.fail(f"{t!r} is not a tile of {self.rule_set}")
        if self.seen[t] >= 4:
            raise self.fail(f"a fifth {format_tile(t)}")
        self.seen[t] += 1

    def take(self, seat: int, tile: int, n: int = 1) -> None:
        s = self.seats[seat]
        if s.counts[tile] < n:
            raise self.fail(f"seat {seat} holds {s.counts[tile]} {format_tile(tile)}, needs {n}")
        s.counts[tile] -= n

    def check_seat(self, seat: int) -> SeatState:
        if type(seat) is not int or not 0 <= seat < self.seats_n:
            raise self.fail(f"{seat!r} is not a seat 0-{self.seats_n - 1}")
        return self.seats[seat]

    def hand(self, seat: int, win: int | None, *, minus: int | None = None) -> Hand:
        s = self.seats[seat]
        counts = list(s.counts)
        if minus is not None:
            counts[minus] -= 1
        concealed = [t for t in range(34) for _ in range(counts[t])]
        return make_hand(concealed, s.melds, win, sizes=(13, 14))

    # ------------------------------------------------------------------ the events

    def apply(self, ev: Any) -> None:
        if self.phase == Phase.OVER:
            raise self.fail("the hand is over")
        handlers: dict[type, Callable[[Any], None]] = {
            Deal: self.on_deal, Draw: self.on_draw, FlowerTile: self.on_flower, Discard: self.on_discard,
            Claim: self.on_claim, Kong: self.on_kong_event, Win: self.on_win, WallEnd: self.on_wall_end_event,
        }
        handler = handlers.get(type(ev))
        if handler is None:
            raise self.fail(f"{type(ev).__name__} is not an event of {self.rule_set}")
        if self.phase == Phase.DEAL and not isinstance(ev, Deal):
            raise self.fail(f"{type(ev).__name__} before the deal")
        handler(ev)
        self.log.append(ev)
        self.index += 1

    def on_deal(self, ev: Deal) -> None:
        if self.phase != Phase.DEAL:
            raise self.fail("a second deal")
        self.check_seat(ev.dealer)
        if len(ev.hands) != self.seats_n:
            raise self.fail(f"the deal has {len(ev.hands)} hands, expected {self.seats_n}")
        self.dealer = ev.dealer
        for seat, tiles in enumerate(ev.hands):
            want = 14 if seat == ev.dealer else 13
            short = want - len(tiles)
            if not 0 <= short <= (NUM_FLOWERS if self.flowers else 0):
                raise self.fail(f"seat {seat} is dealt {len(tiles)} tiles, expected {want}"
                                + (" less the flowers it was dealt" if self.flowers else ""))
            for t in tiles:
                self.see(t)
                self.seats[seat].counts[t] += 1
            self.seats[seat].dealt_short = short
        self.phase, self.turn, self.turn_kind = Phase.OPENING, ev.dealer, TurnKind.START

    def start_play(self) -> None:
        """The dealer acts: every dealt flower has been shown and replaced."""
        if self.phase != Phase.OPENING:
            return
        for seat, s in enumerate(self.seats):
            if s.dealt_short:
                raise self.fail(f"seat {seat} was dealt {s.dealt_short} more flower(s) to show and replace "
                                "before the dealer's first action")
        self.phase, self.turn, self.turn_kind = Phase.TURN, self.dealer, TurnKind.START

    def on_flower(self, ev: FlowerTile) -> None:
        if not self.flowers:
            raise self.fail(f"{self.rule_set} plays no flowers")
        s = self.check_seat(ev.seat)
        if type(ev.flower) is not Flower and not (type(ev.flower) is int and 0 <= ev.flower < NUM_FLOWERS):
            raise self.fail(f"{ev.flower!r} is not a flower (0-7)")
        flower = Flower(ev.flower)
        if flower in self.flowers_seen:
            raise self.fail(f"the {flower.name.lower()} flower a second time")
        if self.phase == Phase.OPENING and self.pending_opening is None and s.dealt_short:
            s.dealt_short -= 1  # dealt: no wall tile
        elif self.phase == Phase.OPENING and self.pending_opening == ev.seat:
            self.consume_wall()  # its replacement was a flower too
        elif self.phase in (Phase.DRAW, Phase.CLAIMS, Phase.ROB) and self.draw_seat() == ev.seat:
            self.close_claims()
            self.consume_wall()
        else:
            raise self.fail(f"seat {ev.seat} shows a flower out of turn (a flower is shown when dealt or drawn)")
        self.flowers_seen.add(flower)
        s.flowers.append(flower)
        if self.phase == Phase.OPENING:
            self.pending_opening = ev.seat
        else:
            self.phase, self.turn = Phase.DRAW, ev.seat

    def consume_wall(self) -> None:
        if self.wall <= 0:
            raise self.fail("the wall is empty")
        self.wall -= 1

    def draw_seat(self) -> int:
        """Whose draw comes next, once the discard (or the robbing window) closes."""
        if self.phase == Phase.CLAIMS and self.discard is not None:
            return self.next_seat(self.discard[0])
        return self.turn

    def close_claims(self) -> None:
        if self.phase == Phase.CLAIMS and self.discard is not None:
            self.phase, self.turn, self.discard = Phase.DRAW, self.next_seat(self.discard[0]), None
            self.replacement = False
        elif self.phase == Phase.ROB:
            self.phase, self.rob, self.replacement = Phase.DRAW, None, True

    def on_draw(self, ev: Draw) -> None:
        s = self.check_seat(ev.seat)
        if self.phase == Phase.OPENING:
            if self.pending_opening != ev.seat:
                raise self.fail(f"seat {ev.seat} draws before the play (only a flower's replacement may be drawn)")
            self.consume_wall()
            self.see(ev.tile)
            s.counts[ev.tile] += 1
            self.pending_opening = None
            return
        if self.phase in (Phase.CLAIMS, Phase.ROB):
            self.close_claims()
        if self.phase != Phase.DRAW or ev.seat != self.turn:
            raise self.fail(f"seat {ev.seat} draws out of turn (seat {self.turn}'s draw)" if self.phase == Phase.DRAW
                            else f"seat {ev.seat} draws out of turn")
        self.consume_wall()
        self.see(ev.tile)
        s.counts[ev.tile] += 1
        s.drawn += 1
        self.phase, self.drawn_tile = Phase.TURN, ev.tile
        self.turn_kind = TurnKind.REPLACEMENT if self.replacement else TurnKind.DRAWN
        if not self.replacement:
            self.turn_kongs, self.kong_feeder = 0, None
        self.replacement = False

    def on_discard(self, ev: Discard) -> None:
        self.start_play()
        if self.phase != Phase.TURN or ev.seat != self.turn:
            raise self.fail(f"seat {ev.seat} discards out of turn")
        self.take(ev.seat, ev.tile)
        self.seats[ev.seat].discarded += 1
        if self.seats[ev.seat].discarded == 1 and not self.interrupted:
            self.first_discards.append((ev.seat, ev.tile))
        self.pool[ev.tile] += 1
        self.discard, self.discard_last = (ev.seat, ev.tile), self.wall == 0
        self.phase = Phase.CLAIMS

    def on_claim(self, ev: Claim) -> None:
        if self.phase != Phase.CLAIMS or self.discard is None:
            raise self.fail("a claim with no discard open to it")
        seat, tile = self.discard
        self.check_seat(ev.seat)
        if ev.discarder != seat or ev.tile != tile:
            raise self.fail(f"the claim names {format_tile(ev.tile)} from seat {ev.discarder}; the discard is "
                            f"{format_tile(tile)} from seat {seat}")
        if ev.seat == seat:
            raise self.fail("a player cannot claim its own discard")
        rel = self.relative(ev.seat, seat)
        if ev.kind == MeldKind.CHOW:
            if not self.chows:
                raise self.fail(f"{self.rule_set} claims no chow here")
            if ev.seat != self.next_seat(seat):
                raise self.fail("only the next player may chow")
            first = ev.chow_first
            if (first is None or is_honor(tile) or not 0 <= tile - first <= 2 or rank_of(first) > 7
                    or suit_of(first) != suit_of(tile)):
                raise self.fail(f"no chow starting at {first!r} takes {format_tile(tile)}")
            for t in (first, first + 1, first + 2):
                if t != tile:
                    self.take(ev.seat, t)
            meld = make_meld(MeldKind.CHOW, (first, first + 1, first + 2), claimed_from=rel,
                             claimed_index=tile - first)
        elif ev.kind == MeldKind.PUNG:
            self.take(ev.seat, tile, 2)
            meld = make_meld(MeldKind.PUNG, (tile,) * 3, claimed_from=rel)
        elif ev.kind == MeldKind.KONG:
            if self.wall <= 0:
                raise self.fail("no kong once the wall is empty")
            self.take(ev.seat, tile, 3)
            meld = make_meld(MeldKind.KONG, (tile,) * 4, claimed_from=rel)
        else:
            raise self.fail(f"{ev.kind!r} is not a claim")
        self.pool[tile] -= 1
        s = self.seats[ev.seat]
        s.melds.append(meld)
        s.melds_from.append(seat)
        self.fed.append((ev.seat, tile, seat))
        self.interrupted = True
        self.discard = None
        if ev.kind == MeldKind.KONG:
            self.on_kong(ev.seat, tile, "exposed", seat)
            self.phase, self.turn, self.replacement = Phase.DRAW, ev.seat, True
            self.turn_kongs, self.kong_feeder = 1, seat
        else:
            self.phase, self.turn, self.turn_kind, self.drawn_tile = Phase.TURN, ev.seat, TurnKind.CLAIMED, None

    def on_kong_event(self, ev: Kong) -> None:
        self.start_play()
        if self.phase != Phase.TURN or ev.seat != self.turn:
            raise self.fail(f"seat {ev.seat} declares a kong out of turn")
        if self.wall <= 0:
            raise self.fail("no kong once the wall is empty")
        s = self.seats[ev.seat]
        if ev.concealed:
            self.take(ev.seat, ev.tile, 4)
            s.melds.append(make_meld(MeldKind.KONG, (ev.tile,) * 4, concealed=True))
            s.melds_from.append(None)
            self.on_kong(ev.seat, ev.tile, "concealed", None)
            self.phase, self.replacement = Phase.DRAW, True
            self.turn_kongs, self.kong_feeder, self.interrupted = self.turn_kongs + 1, None, True
            return
        i = next((i for i, m in enumerate(s.melds) if m.kind == MeldKind.PUNG and m.first == ev.tile), None)
        if i is None:
            raise self.fail(f"seat {ev.seat} adds {format_tile(ev.tile)} to a pung it does not have")
        fresh = self.turn_kind in (TurnKind.DRAWN, TurnKind.REPLACEMENT) and self.drawn_tile == ev.tile
        self.take(ev.seat, ev.tile)
        old = s.melds[i]
        s.melds[i] = make_meld(MeldKind.KONG, (ev.tile,) * 4, added=True, claimed_from=old.claimed_from)
        self.on_kong(ev.seat, ev.tile, "added" if fresh else "added_later", s.melds_from[i])
        self.phase, self.rob = Phase.ROB, (ev.seat, ev.tile)
        self.turn_kongs, self.kong_feeder, self.interrupted = self.turn_kongs + 1, None, True

    def on_kong(self, seat: int, tile: int, kind: str, fed_by: int | None) -> None:
        """Kong money, where the rule set has it (Guangdong)."""

    def on_robbed(self, owner: int, tile: int) -> None:
        """The added kong of `owner` is robbed: it never happened (its money, if any, goes back)."""

    # ------------------------------------------------------------------ wins

    def visible(self, tile: int) -> int:
        """Copies of `tile` shown on the table: discards not claimed and exposed melds (concealed kongs
        are face down)."""
        shown = self.pool[tile]
        for s in self.seats:
            for m in s.melds:
                if not m.concealed:
                    shown += m.tiles.count(tile)
        return shown

    def base_context(self, seat: int, discarder: int | None, **flags: Any) -> dict[str, Any]:
        kw: dict[str, Any] = dict(seat_wind=self.wind(seat), prevalent_wind=self.prevalent, **flags)
        if discarder is None:
            kw["self_drawn"] = True
        else:
            kw["discarded_by"] = self.relative(seat, discarder)
        return kw

    def context(self, seat: int, discarder: int | None, kw: dict[str, Any]) -> WinContext:
        """The rule set's context from the derived facts (keep only the fields it reads)."""
        fields = set(rules.get(self.rule_set).context_fields)
        return WinContext(**{k: v for k, v in kw.items() if k in fields and v not in (False, None, 0, ())})

    def on_win(self, ev: Win) -> None:
        hand, ctx = self.win_situation(ev)
        try:
            result = api.evaluate(hand, ctx, self.rule_set, self.options)
        except EngineError as e:  # the rule set refuses this win (a discard win where only self-draws win, ...)
            raise self.fail(f"seat {ev.seat} cannot win so: {e.message}") from None
        if not result.is_win or result.best is None or not result.best.meets_minimum:
            raise self.fail(f"seat {ev.seat}'s hand does not win"
                            + (" (under the minimum)" if result.is_win else ""))
        self.wins.append(WinRecord(ev.seat, ev.discarder, ev.tile, result.best, ctx, self.index))
        self.settle_win(ev.seat, ev.discarder, result.best, ctx)
        self.phase = Phase.OVER

    def wins_now(self, ev: Win) -> bool:
        """Would this win be allowed here (Legal)? Nothing is played."""
        try:
            hand, ctx = self.win_situation(ev, probe=True)
            result = api.evaluate(hand, ctx, self.rule_set, self.options)
        except EngineError:
            return False
        return result.is_win and result.best is not None and result.best.meets_minimum

    def win_situation(self, ev: Win, probe: bool = False) -> tuple[Hand, WinContext]:
        """The winner's hand and the context of `ev`, derived from the log (IllegalEventError when no win
        can be declared so here). `probe`: asked by Legal, the log stays as it is."""
        s = self.check_seat(ev.seat)
        flags: dict[str, Any] = {}
        if ev.discarder is None:
            self.start_play()
            if self.phase != Phase.TURN or ev.seat != self.turn or self.turn_kind == TurnKind.CLAIMED:
                raise self.fail(f"seat {ev.seat} declares a self-drawn win without having drawn")
            start = self.turn_kind == TurnKind.START
            if not start and ev.tile != self.drawn_tile:
                raise self.fail("the self-drawn winning tile is the tile drawn")
            if not s.counts[ev.tile]:
                raise self.fail(f"seat {ev.seat} does not hold {format_tile(ev.tile)}")
            hand = self.hand(ev.seat, ev.tile, minus=ev.tile)
            flags.update(replacement_tile=self.turn_kind == TurnKind.REPLACEMENT, last_wall_tile=self.wall == 0,
                         heavenly=start and not s.melds and ev.seat == self.dealer,
                         earthly=self.turn_kind == TurnKind.DRAWN and ev.seat != self.dealer and s.drawn == 1
                         and not any(x.melds for x in self.seats),
                         last_of_kind=self.visible(ev.tile) == 3)
        elif self.phase == Phase.ROB and self.rob is not None:
            owner, tile = self.rob
            if ev.discarder != owner or ev.tile != tile or ev.seat == owner:
                raise self.fail("a robbing win names the kong's owner and tile")
            hand = self.hand(ev.seat, tile)
            flags.update(robbing_kong=True)
            if not probe:
                self.on_robbed(owner, tile)
        elif self.phase == Phase.CLAIMS and self.discard is not None:
            seat, tile = self.discard
            if ev.discarder != seat or ev.tile != tile or ev.seat == seat:
                raise self.fail(f"the win names {format_tile(ev.tile)} from seat {ev.discarder}; the discard is "
                                f"{format_tile(tile)} from seat {seat}")
            hand = self.hand(ev.seat, tile)
            flags.update(last_wall_tile=self.discard_last, last_of_kind=self.visible(tile) - 1 == 3)
        else:
            raise self.fail("a win with no tile to win on")
        kw = self.base_context(ev.seat, ev.discarder, **flags)
        self.extend_context(ev.seat, ev.discarder, kw)
        if ev.horses and not probe:
            if "horse_tiles" not in rules.get(self.rule_set).context_fields:
                raise self.fail(f"{self.rule_set} draws no horses")
            for t in ev.horses:
                self.consume_wall()
                self.see(t)
            kw["horse_tiles"] = tuple(ev.horses)
        return hand, self.context(ev.seat, ev.discarder, kw)

    def extend_context(self, seat: int, discarder: int | None, kw: dict[str, Any]) -> None:
        """Rule-set facts derived from the log (flowers, liability, ...)."""

    def settle_win(self, seat: int, discarder: int | None, scoring: Scoring, ctx: WinContext) -> None:
        """The win's payments: by default the rule set's own `Scoring.payments` (seat wind, amount)."""
        by_wind = {self.wind(s): s for s in range(self.seats_n)}
        for wind, amount in scoring.payments:
            if amount < 0:
                self.pay("win", by_wind[Wind(wind)], seat, -amount)

    def on_wall_end_event(self, ev: WallEnd) -> None:
        if self.phase == Phase.CLAIMS:
            self.close_claims()
        if self.phase != Phase.DRAW or self.wall > 0:
            raise self.fail(f"the wall is not empty ({self.wall} tiles left)")
        self.on_wall_end()
        self.phase = Phase.OVER

    def on_wall_end(self) -> None:
        """A drawn game settles nothing unless the rule set says."""

    def legal(self) -> tuple[SeatLegal, ...]:
        """What each seat may do at this point of the log."""
        out = [SeatLegal(seat) for seat in range(self.seats_n)]
        if self.phase in (Phase.DEAL, Phase.OVER):
            return tuple(out)
        if self.phase == Phase.OPENING:
            if self.pending_opening is not None:
                out[self.pending_opening] = SeatLegal(self.pending_opening, draw=True)
                return tuple(out)
            if any(s.dealt_short for s in self.seats):
                return tuple(out)  # dealt flowers still to show
            out[self.dealer] = self.turn_legal(self.dealer, start=True)
            return tuple(out)
        if self.phase == Phase.TURN:
            out[self.turn] = self.turn_legal(self.turn)
            return tuple(out)
        if self.phase == Phase.DRAW:
            out[self.turn] = SeatLegal(self.turn, draw=self.wall > 0, wall_end=self.wall == 0)
            return tuple(out)
        if self.phase == Phase.ROB and self.rob is not None:
            owner, tile = self.rob
            for seat in range(self.seats_n):
                if seat != owner and self.wins_now(Win(seat, tile, owner)):
                    out[seat] = SeatLegal(seat, win=True)
            out[owner] = SeatLegal(owner, draw=True)
            return tuple(out)
        assert self.discard is not None
        discarder, tile = self.discard
        nxt = self.next_seat(discarder)
        for seat in range(self.seats_n):
            if seat == discarder:
                continue
            held = self.seats[seat].counts
            chows: tuple[int, ...] = ()
            if self.chows and seat == nxt and not is_honor(tile):
                chows = tuple(f for f in range(tile - 2, tile + 1)
                              if f >= 0 and suit_of(f) == suit_of(tile) and rank_of(f) <= 7
                              and all(held[t] for t in (f, f + 1, f + 2) if t != tile))
            out[seat] = SeatLegal(seat, win=self.wins_now(Win(seat, tile, discarder)), pung=held[tile] >= 2,
                                  kong=held[tile] >= 3 and self.wall > 0, chows=chows,
                                  draw=seat == nxt and self.wall > 0, wall_end=seat == nxt and self.wall == 0)
        return tuple(out)

    def turn_legal(self, seat: int, start: bool = False) -> SeatLegal:
        s = self.seats[seat]
        held = tuple(t for t in range(34) if s.counts[t])
        kongs: list[tuple[int, bool]] = []
        if self.wall > 0:
            kongs += [(t, True) for t in held if s.counts[t] == 4]
            kongs += [(m.first, False) for m in s.melds if m.kind == MeldKind.PUNG and s.counts[m.first]]
        self_win = False
        if self.turn_kind != TurnKind.CLAIMED:
            tiles = held if start or self.turn_kind == TurnKind.START else (self.drawn_tile,)
            saved = self.phase
            if start:
                self.phase = Phase.TURN  # as the dealer's first action would find it
            try:
                self_win = any(t is not None and self.wins_now(Win(seat, t, None)) for t in tiles)
            finally:
                self.phase = saved
        return SeatLegal(seat, discards=held, kongs=tuple(kongs), self_win=self_win)

    def outcome(self) -> Outcome:
        net, pot = net_of(self.transfers, self.seats_n)
        return Outcome(net, pot, tuple(self.transfers), tuple(self.wins), self.phase == Phase.OVER)


def replay(table: Table, events: Sequence[Any]) -> Table:
    for ev in events:
        table.apply(ev)
    return table
