"""The round of the Chinese rule sets as the referee replays it: the replay shared by the tables where one
win ends the hand (MCR, the two-player table, Hong Kong, Guangdong), and `SeatLegal`, what a seat may do next
(shared with Sichuan's bloody round, engine/rules/sichuan/referee.py). The replay reads the contract's events
(engine.referee.HandLog) directly: engine/rules/round_log.py plays each on the table's `on_*` method
(`begin` first, then `on_deal`, `on_draw`, `on_flower`, `on_discard`, `on_claim`, `on_kong_event`, `on_win`,
`on_wall_end_event`) with the seat as its turn-order index and what the log leaves implicit (a win's tile
and discarder, a claim's discarder) read from the point of play, and writes the answers as the contract's.

Seats are 0 .. n-1 in turn order (seat s + 1 plays after seat s): seat 0 is East, the dealer, then South,
West, North (the two-player table: East and its `other_wind`); messages name seats by wind, as the log
does. Tiles are engine indices; flowers are `engine.hand.Flower` values, never tiles.

The flow, checked event by event (engine.referee's IllegalEventError, code ILLEGAL_EVENT, field
`log.events[N]`):

* Deal: the dealer 14 playing tiles, the others 13, minus the flowers each was dealt; a dealt flower is
  shown as a FlowerTile followed by its replacement Draw, all before the dealer's first action.
* A draw is by the next seat after the discarder (after a claim: none; after a kong: its declarer's
  replacement). A flower drawn is a FlowerTile in place of the Draw, and the same seat draws again.
* Discard by the seat holding 14; then a win, a pung or kong by any other seat, a chow by the next
  seat only (where the rule set has chows); a kong needs a tile left in the wall.
* A kong: concealed (four held), added (to the player's own pung; it may be robbed), exposed (a claim).
* Win: the hand must win under the rule set, at or over its minimum, with the context derived from
  the log; one winner ends the hand. DrawnGame (EXHAUSTIVE): only when the wall is empty. FalseWin,
  ExchangeThree and VoidSuit are not events of these tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine import api
from engine.errors import EngineError
from engine.hand import ClaimedFrom, Flower, Hand, Meld, MeldKind, Suit, WinContext, Wind, make_hand, make_meld
from engine.referee import IllegalEventError, nets_and_pot
from engine.results import Scoring
from engine.rules import catalog as rules
from engine.tiles import NUM_FLOWERS, format_tile, is_honor, rank_of, suit_of

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
    net, pot = nets_and_pot(transfers, seats)
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
    dealer: int = 0  # East: the log's seats are winds, East deals
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

    def name(self, seat: int | None) -> str:
        """A seat as the log names it: its wind."""
        return "nobody" if seat is None else self.wind(seat).name.title()

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
            raise self.fail(f"{self.name(seat)} holds {s.counts[tile]} {format_tile(tile)}, needs {n}")
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

    def begin(self, index: int, what: str) -> None:
        """Event `index` (a `what`) is about to be played: refused once the hand is over, or before the deal."""
        self.index = index
        if self.phase == Phase.OVER:
            raise self.fail("the hand is over")
        if self.phase == Phase.DEAL and what != "Deal":
            raise self.fail(f"{what} before the deal")

    def refuse(self, what: str) -> IllegalEventError:
        return self.fail(f"{what} is not an event of {self.rule_set}")

    def on_false_win(self, seat: int) -> None:
        raise self.refuse("FalseWin")

    def on_exchange(self, passed: tuple[tuple[int, ...], ...], to: tuple[int, ...]) -> None:
        raise self.refuse("ExchangeThree")

    def on_void(self, suits: tuple[Suit, ...], aside: tuple[int | None, ...]) -> None:
        raise self.refuse("VoidSuit")

    def on_deal(self, hands: tuple[tuple[int, ...], ...]) -> None:
        if self.phase != Phase.DEAL:
            raise self.fail("a second deal")
        if len(hands) != self.seats_n:
            raise self.fail(f"the deal has {len(hands)} hands, expected {self.seats_n}")
        for seat, tiles in enumerate(hands):
            want = 14 if seat == self.dealer else 13
            short = want - len(tiles)
            if not 0 <= short <= (NUM_FLOWERS if self.flowers else 0):
                raise self.fail(f"{self.name(seat)} is dealt {len(tiles)} tiles, expected {want}"
                                + (" less the flowers it was dealt" if self.flowers else ""))
            for t in tiles:
                self.see(t)
                self.seats[seat].counts[t] += 1
            self.seats[seat].dealt_short = short
        self.phase, self.turn, self.turn_kind = Phase.OPENING, self.dealer, TurnKind.START

    def start_play(self) -> None:
        """The dealer acts: every dealt flower has been shown and replaced."""
        if self.phase != Phase.OPENING:
            return
        for seat, s in enumerate(self.seats):
            if s.dealt_short:
                raise self.fail(f"{self.name(seat)} was dealt {s.dealt_short} more flower(s) to show and replace "
                                "before the dealer's first action")
        self.phase, self.turn, self.turn_kind = Phase.TURN, self.dealer, TurnKind.START

    def on_flower(self, seat: int, shown: Flower | int) -> None:
        if not self.flowers:
            raise self.fail(f"{self.rule_set} plays no flowers")
        s = self.check_seat(seat)
        if type(shown) is not Flower and not (type(shown) is int and 0 <= shown < NUM_FLOWERS):
            raise self.fail(f"{shown!r} is not a flower (0-7)")
        flower = Flower(shown)
        if flower in self.flowers_seen:
            raise self.fail(f"the {flower.name.lower()} flower a second time")
        if self.phase == Phase.OPENING and self.pending_opening is None and s.dealt_short:
            s.dealt_short -= 1  # dealt: no wall tile
        elif self.phase == Phase.OPENING and self.pending_opening == seat:
            self.consume_wall()  # its replacement was a flower too
        elif self.phase in (Phase.DRAW, Phase.CLAIMS, Phase.ROB) and self.draw_seat() == seat:
            self.close_claims()
            self.consume_wall()
        else:
            raise self.fail(f"{self.name(seat)} shows a flower out of turn (a flower is shown when dealt or drawn)")
        self.flowers_seen.add(flower)
        s.flowers.append(flower)
        if self.phase == Phase.OPENING:
            self.pending_opening = seat
        else:
            self.phase, self.turn = Phase.DRAW, seat

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

    def on_draw(self, seat: int, tile: int) -> None:
        s = self.check_seat(seat)
        if self.phase == Phase.OPENING:
            if self.pending_opening != seat:
                raise self.fail(f"{self.name(seat)} draws before the play (only a flower's replacement may be drawn)")
            self.consume_wall()
            self.see(tile)
            s.counts[tile] += 1
            self.pending_opening = None
            return
        if self.phase in (Phase.CLAIMS, Phase.ROB):
            self.close_claims()
        if self.phase != Phase.DRAW or seat != self.turn:
            raise self.fail(f"{self.name(seat)} draws out of turn ({self.name(self.turn)}'s draw)"
                            if self.phase == Phase.DRAW else f"{self.name(seat)} draws out of turn")
        self.consume_wall()
        self.see(tile)
        s.counts[tile] += 1
        s.drawn += 1
        self.phase, self.drawn_tile = Phase.TURN, tile
        self.turn_kind = TurnKind.REPLACEMENT if self.replacement else TurnKind.DRAWN
        if not self.replacement:
            self.turn_kongs, self.kong_feeder = 0, None
        self.replacement = False

    def on_discard(self, seat: int, tile: int) -> None:
        self.start_play()
        if self.phase != Phase.TURN or seat != self.turn:
            raise self.fail(f"{self.name(seat)} discards out of turn")
        self.take(seat, tile)
        self.seats[seat].discarded += 1
        if self.seats[seat].discarded == 1 and not self.interrupted:
            self.first_discards.append((seat, tile))
        self.pool[tile] += 1
        self.discard, self.discard_last = (seat, tile), self.wall == 0
        self.phase = Phase.CLAIMS

    def on_claim(self, claimer: int, kind: MeldKind, claimed: int, named_from: int,
                 chow_first: int | None = None) -> None:
        if self.phase != Phase.CLAIMS or self.discard is None:
            raise self.fail("a claim with no discard open to it")
        seat, tile = self.discard
        self.check_seat(claimer)
        if named_from != seat or claimed != tile:
            raise self.fail(f"the claim names {format_tile(claimed)} from {self.name(named_from)}; the discard is "
                            f"{format_tile(tile)} from {self.name(seat)}")
        if claimer == seat:
            raise self.fail("a player cannot claim its own discard")
        rel = self.relative(claimer, seat)
        if kind == MeldKind.CHOW:
            if not self.chows:
                raise self.fail(f"{self.rule_set} claims no chow here")
            if claimer != self.next_seat(seat):
                raise self.fail("only the next player may chow")
            first = chow_first
            if (first is None or is_honor(tile) or not 0 <= tile - first <= 2 or rank_of(first) > 7
                    or suit_of(first) != suit_of(tile)):
                raise self.fail(f"no chow starting at {first!r} takes {format_tile(tile)}")
            for t in (first, first + 1, first + 2):
                if t != tile:
                    self.take(claimer, t)
            meld = make_meld(MeldKind.CHOW, (first, first + 1, first + 2), claimed_from=rel,
                             claimed_index=tile - first)
        elif kind == MeldKind.PUNG:
            self.take(claimer, tile, 2)
            meld = make_meld(MeldKind.PUNG, (tile,) * 3, claimed_from=rel)
        elif kind == MeldKind.KONG:
            if self.wall <= 0:
                raise self.fail("no kong once the wall is empty")
            self.take(claimer, tile, 3)
            meld = make_meld(MeldKind.KONG, (tile,) * 4, claimed_from=rel)
        else:
            raise self.fail(f"{kind!r} is not a claim")
        self.pool[tile] -= 1
        s = self.seats[claimer]
        s.melds.append(meld)
        s.melds_from.append(seat)
        self.fed.append((claimer, tile, seat))
        self.interrupted = True
        self.discard = None
        if kind == MeldKind.KONG:
            self.on_kong(claimer, tile, "exposed", seat)
            self.phase, self.turn, self.replacement = Phase.DRAW, claimer, True
            self.turn_kongs, self.kong_feeder = 1, seat
        else:
            self.phase, self.turn, self.turn_kind, self.drawn_tile = Phase.TURN, claimer, TurnKind.CLAIMED, None

    def on_kong_event(self, seat: int, tile: int, concealed: bool) -> None:
        self.start_play()
        if self.phase != Phase.TURN or seat != self.turn:
            raise self.fail(f"{self.name(seat)} declares a kong out of turn")
        if self.wall <= 0:
            raise self.fail("no kong once the wall is empty")
        s = self.seats[seat]
        if concealed:
            self.take(seat, tile, 4)
            s.melds.append(make_meld(MeldKind.KONG, (tile,) * 4, concealed=True))
            s.melds_from.append(None)
            self.on_kong(seat, tile, "concealed", None)
            self.phase, self.replacement = Phase.DRAW, True
            self.turn_kongs, self.kong_feeder, self.interrupted = self.turn_kongs + 1, None, True
            return
        i = next((i for i, m in enumerate(s.melds) if m.kind == MeldKind.PUNG and m.first == tile), None)
        if i is None:
            raise self.fail(f"{self.name(seat)} adds {format_tile(tile)} to a pung it does not have")
        fresh = self.turn_kind in (TurnKind.DRAWN, TurnKind.REPLACEMENT) and self.drawn_tile == tile
        self.take(seat, tile)
        old = s.melds[i]
        s.melds[i] = make_meld(MeldKind.KONG, (tile,) * 4, added=True, claimed_from=old.claimed_from)
        self.on_kong(seat, tile, "added" if fresh else "added_later", s.melds_from[i])
        self.phase, self.rob = Phase.ROB, (seat, tile)
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

    def on_win(self, winner: int, win_tile: int, discarder: int | None, horses: tuple[int, ...] = ()) -> None:
        hand, ctx = self.win_situation(winner, win_tile, discarder, horses)
        try:
            result = api.evaluate(hand, ctx, self.rule_set, self.options)
        except EngineError as e:  # the rule set refuses this win (a discard win where only self-draws win, ...)
            raise self.fail(f"{self.name(winner)} cannot win so: {e.message}") from None
        if not result.is_win or result.best is None or not result.best.meets_minimum:
            raise self.fail(f"{self.name(winner)}'s hand does not win"
                            + (" (under the minimum)" if result.is_win else ""))
        self.wins.append(WinRecord(winner, discarder, win_tile, result.best, ctx, self.index))
        self.settle_win(winner, discarder, result.best, ctx)
        self.phase = Phase.OVER

    def wins_now(self, winner: int, win_tile: int, discarder: int | None) -> bool:
        """Would this win be allowed here (Legal)? Nothing is played."""
        try:
            hand, ctx = self.win_situation(winner, win_tile, discarder, (), probe=True)
            result = api.evaluate(hand, ctx, self.rule_set, self.options)
        except EngineError:
            return False
        return result.is_win and result.best is not None and result.best.meets_minimum

    def win_situation(self, winner: int, win_tile: int, discarder: int | None, horses: tuple[int, ...],
                      probe: bool = False) -> tuple[Hand, WinContext]:
        """The winner's hand and the context of the win, derived from the log (IllegalEventError when no win
        can be declared so here). `probe`: asked by Legal, the log stays as it is."""
        s = self.check_seat(winner)
        flags: dict[str, Any] = {}
        if discarder is None:
            self.start_play()
            if self.phase != Phase.TURN or winner != self.turn or self.turn_kind == TurnKind.CLAIMED:
                raise self.fail(f"{self.name(winner)} declares a self-drawn win without having drawn")
            start = self.turn_kind == TurnKind.START
            if not start and win_tile != self.drawn_tile:
                raise self.fail("the self-drawn winning tile is the tile drawn")
            if not s.counts[win_tile]:
                raise self.fail(f"{self.name(winner)} does not hold {format_tile(win_tile)}")
            hand = self.hand(winner, win_tile, minus=win_tile)
            flags.update(replacement_tile=self.turn_kind == TurnKind.REPLACEMENT, last_wall_tile=self.wall == 0,
                         heavenly=start and not s.melds and winner == self.dealer,
                         earthly=self.turn_kind == TurnKind.DRAWN and winner != self.dealer and s.drawn == 1
                         and not any(x.melds for x in self.seats),
                         last_of_kind=self.visible(win_tile) == 3)
        elif self.phase == Phase.ROB and self.rob is not None:
            owner, tile = self.rob
            if discarder != owner or win_tile != tile or winner == owner:
                raise self.fail("a robbing win names the kong's owner and tile")
            hand = self.hand(winner, tile)
            flags.update(robbing_kong=True)
            if not probe:
                self.on_robbed(owner, tile)
        elif self.phase == Phase.CLAIMS and self.discard is not None:
            seat, tile = self.discard
            if discarder != seat or win_tile != tile or winner == seat:
                raise self.fail(f"the win names {format_tile(win_tile)} from {self.name(discarder)}; the discard is "
                                f"{format_tile(tile)} from {self.name(seat)}")
            hand = self.hand(winner, tile)
            flags.update(last_wall_tile=self.discard_last, last_of_kind=self.visible(tile) - 1 == 3)
        else:
            raise self.fail("a win with no tile to win on")
        kw = self.base_context(winner, discarder, **flags)
        self.extend_context(winner, discarder, kw)
        if horses and not probe:
            if "horse_tiles" not in rules.get(self.rule_set).context_fields:
                raise self.fail(f"{self.rule_set} draws no horses")
            for t in horses:
                self.consume_wall()
                self.see(t)
            kw["horse_tiles"] = tuple(horses)
        return hand, self.context(winner, discarder, kw)

    def extend_context(self, seat: int, discarder: int | None, kw: dict[str, Any]) -> None:
        """Rule-set facts derived from the log (flowers, liability, ...)."""

    def settle_win(self, seat: int, discarder: int | None, scoring: Scoring, ctx: WinContext) -> None:
        """The win's payments: by default the rule set's own `Scoring.payments` (seat wind, amount)."""
        by_wind = {self.wind(s): s for s in range(self.seats_n)}
        for wind, amount in scoring.payments:
            if amount < 0:
                self.pay("win", by_wind[Wind(wind)], seat, -amount)

    def on_wall_end_event(self) -> None:
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
                if seat != owner and self.wins_now(seat, tile, owner):
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
            out[seat] = SeatLegal(seat, win=self.wins_now(seat, tile, discarder), pung=held[tile] >= 2,
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
                self_win = any(t is not None and self.wins_now(seat, t, None) for t in tiles)
            finally:
                self.phase = saved
        return SeatLegal(seat, discards=held, kongs=tuple(kongs), self_win=self_win)

    def outcome(self) -> Outcome:
        net, pot = net_of(self.transfers, self.seats_n)
        return Outcome(net, pot, tuple(self.transfers), tuple(self.wins), self.phase == Phase.OVER)

