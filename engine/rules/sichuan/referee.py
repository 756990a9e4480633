"""The Sichuan referee: a whole 血战到底 round replayed from its event log, each event checked, and
every transfer of the round (wins, kong money, the wall's end) settled.

The round reads the contract's HandLog (engine.referee) through engine/rules/round_log.py: `REFEREE`
answers Legal and Settle, `replay_log` gives the Round at the log's end. Seats are 0-3 in turn order (seat
s + 1 plays after seat s): East (the dealer) 0, South, West, North; messages name them by wind. Tiles are
engine indices (suited tiles only). The money lines' reasons (`Line` names): WIN, KONG, KONG_REFUND,
KONG_TRANSFER, FALSE_WIN, FLOWER_PIG, NOT_READY, VOID_PENALTY.

The round (both sheets, MIL and Chengdu, their differences as options in round_options.py):

* Deal: the dealer 14 tiles, the others 13; the wall holds the other 55 (kong replacements come from
  it too). 换三张 (`exchange_three`): each player passes three tiles of one suit, all in one direction.
* Void suit (定缺): each player names a suit; with `set_aside` (MIL) the player lays a tile of it face
  down, its forced first discard (a player holding none of the suit lays nothing). A hand holding its
  void suit never wins; with the strict rule every tile of it is discarded before any other. No
  tile of the void suit is claimed or declared in a kong.
* Pungs and kongs, no chow. A win has priority over a pung or a kong; several players may win on one
  discard (一炮多响). A player who passes a win on a discard may not win on a discard again before its
  next draw unless the new win has more fan, situation fans (海底, 杠上炮) aside (过水不胡; MIL as the
  reference plays it).
* Kong money, paid when the kong is made: concealed 2 from each player still in, exposed 2 from the
  discarder, added 1 from each player still in only when the fourth tile is the tile just drawn (else
  nothing). A robbed kong (抢杠) returns its money to the payers. 杠上炮 (a win on the discard made
  right after a kong's replacement draw): the money of that kong goes back to its payers (MIL), or with
  呼叫转移 (`call_transfer`, Chengdu's default) to the winner; with several winners it is shared
  equally, any remainder going to the winners nearest the discarder in turn order first, so the
  winners never get more than the discarder received.
* A win: on a self-draw each player still in pays the hand's value (+1 with 自摸加底); on a discard or
  a robbed kong the discarder pays it to each winner. A winner's seat is out; the round goes on until
  three players have won or the wall runs out. The next draw is by the first seat still in after the
  winner (after several winners on one discard: after the last of them in turn order from the
  discarder).
* 诈胡 (FalseWin): `false_win_penalty` to each player still in, and the offender's kong money goes back.
* The wall's end (DrawnGame EXHAUSTIVE), for the players still in: 查花猪 (`flower_pig`): a hand of
  three suits pays 2 ^ fan_cap to every other player; 查大叫 (`ready_check`): each player not ready pays
  each ready one the most its hand could win (Analyze's `max_value`); 退税 (`kong_refund`): a player not
  ready returns the kong money it took; the lenient void rule: a player still holding its void suit
  pays `void_penalty` to the pot. None of these is settled when the round ends by three wins.

The context of every win is derived from the log (self-drawn, replacement tile, 杠上炮, robbed kong,
last tile, heavenly, earthly, void suit, seats out), never taken from a flag.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from engine import api
from engine.errors import BadOptionError
from engine.hand import Hand, Meld, MeldKind, Suit, WinContext, Wind, kong, make_hand, pung
from engine.referee import BadLogError, HandLog, IllegalEventError, Referee, SeatActions
from engine.referee import Settlement as ContractSettlement
from engine.results import Evaluation
from engine.rules import round_log
from engine.rules.round import SeatLegal
from engine.rules.sichuan.options import SelfDraw, SichuanOptions, Variant
from engine.rules.sichuan.payments import relative
from engine.rules.sichuan.round_options import VoidDiscard
from engine.tiles import SUITED, format_tile, suit_of

RULE_SET = "sichuan"
SEATS = 4
WALL = 108 - 13 * 4 - 1  # 55 tiles to draw after the deal
SUITS = (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO)


# ---------------------------------------------------------------------------------------------
# The settlement


class Line(Enum):
    WIN = "win"
    KONG = "kong"
    KONG_REFUND = "kong_refund"
    KONG_TRANSFER = "kong_transfer"
    FALSE_WIN = "false_win_penalty"
    FLOWER_PIG = "flower_pig"
    NOT_READY = "not_ready_payout"
    VOID_PENALTY = "void_penalty"


@dataclass(frozen=True)
class Transfer:
    kind: Line
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
    value: int
    fan: int
    context: WinContext
    at_event: int
    evaluation: Evaluation | None = None


@dataclass(frozen=True)
class Settlement:
    net: tuple[int, ...]
    pot: int
    transfers: tuple[Transfer, ...]
    wins: tuple[WinRecord, ...]
    ready: tuple[bool | None, ...]  # at the wall's end, per seat still in (None: won, or not settled)
    complete: bool  # the round has ended (three wins or the wall's end)


# ---------------------------------------------------------------------------------------------
# The state of the round


@dataclass
class _Meld:
    kind: MeldKind
    tile: int
    concealed: bool = False
    added: bool = False
    source: int | None = None  # the seat the claimed tile came from


@dataclass
class _KongMoney:
    seat: int
    paid: dict[int, int]
    at_event: int
    open: bool = True  # not yet returned or handed on


@dataclass
class _Seat:
    counts: list[int] = field(default_factory=lambda: [0] * 27)
    melds: list[_Meld] = field(default_factory=list)
    void: Suit | None = None
    set_aside: int | None = None
    out: bool = False
    drawn: int = 0  # draws made
    passed_fan: int | None = None  # 过水: the most fan passed on a discard since its last draw


class Phase(Enum):
    DEAL = "deal"
    EXCHANGE = "exchange"
    VOID = "void"
    TURN = "turn"  # `turn` holds 14 tiles and acts
    CLAIMS = "claims"  # after a discard: wins, a pung or a kong, or the next draw
    WON = "won"  # one or more wins on a discard: more wins on it, or the next draw
    ROB = "rob"  # after an added kong: robbing wins, or the replacement draw
    DRAW = "draw"  # the next event is `turn`'s draw (or the wall's end)
    OVER = "over"


class TurnKind(Enum):
    START = "start"  # the dealer's first turn, before any draw
    DRAWN = "drawn"
    REPLACEMENT = "replacement"
    CLAIMED = "claimed"  # after a pung


@dataclass
class Round:
    """A round being replayed. `apply` checks and plays one event."""

    opts: SichuanOptions
    seats: list[_Seat] = field(default_factory=lambda: [_Seat() for _ in range(SEATS)])
    dealer: int = 0
    wall: int = WALL
    phase: Phase = Phase.DEAL
    turn: int = 0
    turn_kind: TurnKind = TurnKind.START
    drawn_tile: int | None = None
    replacement: bool = False  # the pending draw is a kong's replacement
    discard: tuple[int, int] | None = None  # (seat, tile) of the discard open to claims
    discard_after_kong: bool = False
    discard_last: bool = False
    rob: tuple[int, int] | None = None  # (seat, tile) of the added kong open to robbing
    winners_here: list[int] = field(default_factory=list)  # winners on the current discard / kong
    calls_made: bool = False  # any pung or kong so far (for earthly)
    kong_money: list[_KongMoney] = field(default_factory=list)
    last_kong: dict[int, _KongMoney | None] = field(default_factory=dict)  # per seat, its kong this turn
    transfers: list[Transfer] = field(default_factory=list)
    wins: list[WinRecord] = field(default_factory=list)
    ready: list[bool | None] = field(default_factory=lambda: [None] * SEATS)
    seen: list[int] = field(default_factory=lambda: [0] * 27)  # copies out of the wall
    index: int = 0

    def __post_init__(self) -> None:
        check_round_options(self.opts)

    # ------------------------------------------------------------------ helpers

    def name(self, seat: int | None) -> str:
        """A seat as the log names it: its wind."""
        return "nobody" if seat is None else self.wind(seat).name.title()

    def over(self) -> bool:
        return self.phase == Phase.OVER

    def fail(self, message: str) -> IllegalEventError:
        return IllegalEventError(self.index, message)

    def still_in(self, but: int | None = None) -> list[int]:
        return [s for s in range(SEATS) if not self.seats[s].out and s != but]

    def next_in(self, seat: int) -> int:
        for k in range(1, SEATS + 1):
            s = (seat + k) % SEATS
            if not self.seats[s].out:
                return s
        raise self.fail("no player is still in")

    def wind(self, seat: int) -> Wind:
        return Wind((seat - self.dealer) % SEATS)

    def pay(self, kind: Line, payer: int, payee: int | None, amount: int, detail: str = "") -> None:
        if amount:
            self.transfers.append(Transfer(kind, payer, payee, amount, self.index, detail))

    def check_seat(self, seat: int, what: str) -> _Seat:
        if type(seat) is not int or not 0 <= seat < SEATS:
            raise self.fail(f"{what}: {seat!r} is not a seat 0-3")
        return self.seats[seat]

    def holds_void(self, s: _Seat) -> bool:
        return s.void is not None and any(s.counts[t] for t in range(27) if suit_of(t) == s.void)

    def take(self, seat: int, tile: int, n: int = 1) -> None:
        s = self.seats[seat]
        if type(tile) is not int or not 0 <= tile < len(s.counts):  # the counts hold the three suits only
            raise self.fail(f"{tile!r} is not a Sichuan tile (characters, dots, bamboo)")
        if s.counts[tile] < n:
            raise self.fail(f"{self.name(seat)} holds {s.counts[tile]} {format_tile(tile)}, needs {n}")
        s.counts[tile] -= n

    def hand(self, seat: int, win: int | None, *, minus: int | None = None) -> Hand:
        """The seat's hand as the scorer takes it; `minus`: a tile of the concealed part that is the
        winning tile (self-drawn)."""
        s = self.seats[seat]
        counts = list(s.counts)
        if minus is not None:
            counts[minus] -= 1
        concealed = [t for t in range(27) for _ in range(counts[t])]
        return make_hand(concealed, [self.meld(seat, m) for m in s.melds], win, sizes=(13, 14))

    def meld(self, seat: int, m: _Meld) -> Meld:
        rel = relative(self.wind(seat), self.wind(m.source)) if m.source is not None else None
        if m.kind == MeldKind.PUNG:
            return pung(m.tile, rel) if rel is not None else pung(m.tile)
        if m.concealed:
            return kong(m.tile, concealed=True)
        if rel is not None:
            return kong(m.tile, added=m.added, claimed_from=rel)
        return kong(m.tile, added=m.added)

    # ------------------------------------------------------------------ the events

    def begin(self, index: int, what: str) -> None:
        """Event `index` (a `what`) is about to be played: refused once the round is over, and before the play
        for anything but the deal, the exchange and the void suits."""
        self.index = index
        if self.phase == Phase.OVER:
            raise self.fail("the round is over")
        if self.phase in (Phase.DEAL, Phase.EXCHANGE, Phase.VOID) and what not in ("Deal", "ExchangeThree",
                                                                                   "VoidSuit"):
            raise self.fail(f"{what} before the {self.phase.value}")

    def on_flower(self, seat: int, shown: object) -> None:
        raise self.fail("FlowerTile is not a Sichuan event (Sichuan plays no flowers)")

    def on_deal(self, hands: tuple[tuple[int, ...], ...]) -> None:
        if self.phase != Phase.DEAL:
            raise self.fail("a second deal")
        if len(hands) != SEATS:
            raise self.fail(f"the deal has {len(hands)} hands, expected 4")
        for seat, tiles in enumerate(hands):
            want = 14 if seat == self.dealer else 13
            if len(tiles) != want:
                raise self.fail(f"{self.name(seat)} is dealt {len(tiles)} tiles, expected {want}")
            for t in tiles:
                self.see(t)
                self.seats[seat].counts[t] += 1
        self.phase = Phase.EXCHANGE if self.opts.exchange_three else Phase.VOID

    def see(self, t: int) -> None:
        if type(t) is not int or t not in SUITED:
            raise self.fail(f"{t!r} is not a Sichuan tile (characters, dots, bamboo)")
        if self.seen[t] >= 4:
            raise self.fail(f"a fifth {format_tile(t)}")
        self.seen[t] += 1

    def on_exchange(self, passed: tuple[tuple[int, ...], ...], to: tuple[int, ...]) -> None:
        if not self.opts.exchange_three:
            raise self.fail("exchange three (换三张) is not played (option exchange_three)")
        if self.phase != Phase.EXCHANGE:
            raise self.fail("the exchange comes right after the deal")
        if len(passed) != SEATS or len(to) != SEATS:
            raise self.fail("the exchange names each of the four seats")
        steps = {(to[s] - s) % SEATS for s in range(SEATS)}
        if len(steps) != 1 or 0 in steps:
            raise self.fail("every player passes to another player, all in one direction")
        for s, tiles in enumerate(passed):
            if len(tiles) != 3 or len({suit_of(t) for t in tiles}) != 1:
                raise self.fail(f"{self.name(s)} passes {len(tiles)} tiles; exchange three passes three of one suit")
            for t in tiles:
                self.take(s, t)
        for s, tiles in enumerate(passed):
            for t in tiles:
                self.seats[to[s]].counts[t] += 1
        self.phase = Phase.VOID

    def on_void(self, suits: tuple[Suit, ...], aside: tuple[int | None, ...]) -> None:
        if self.phase == Phase.EXCHANGE:
            raise self.fail("exchange three (option exchange_three) comes before the void suits")
        if self.phase != Phase.VOID:
            raise self.fail("the void suits are chosen once, after the deal")
        if len(suits) != SEATS or len(aside) != SEATS:
            raise self.fail("the void suits name each of the four seats")
        set_aside = self.set_aside_rule()
        for seat, (suit, tile) in enumerate(zip(suits, aside, strict=True)):
            s = self.seats[seat]
            if suit not in SUITS:
                raise self.fail(f"{self.name(seat)}: {suit!r} is not a suit")
            s.void = Suit(suit)
            if tile is None:
                if set_aside and self.holds_void(s):
                    raise self.fail(f"{self.name(seat)} holds its void suit and sets no tile of it aside "
                                    "(option set_aside)")
                continue
            if not set_aside:
                raise self.fail(f"{self.name(seat)} sets a tile aside, which this table does not (option set_aside)")
            if suit_of(tile) != s.void or not s.counts[tile]:
                raise self.fail(f"{self.name(seat)} sets aside {format_tile(tile)}, not a tile of its void suit it "
                                "holds")
            s.set_aside = tile
        self.phase, self.turn, self.turn_kind = Phase.TURN, self.dealer, TurnKind.START

    def set_aside_rule(self) -> bool:
        rule = self.opts.set_aside  # a bool or None (check_round_options)
        if rule is None:
            return self.opts.variant == Variant.MIL
        return rule

    def close_claims(self) -> None:
        """The discard open to claims is gone: every player who could have won on it and did not has
        passed a win (过水)."""
        if self.discard is None:
            return
        seat, tile = self.discard
        for other in self.still_in(seat):
            if other in self.winners_here:
                continue
            ev = self.evaluate_discard_win(other, seat, tile, False, False, False)  # the hand's own fan
            if ev is not None:
                o = self.seats[other]
                o.passed_fan = max(o.passed_fan or 0, ev[1])
        self.discard = None

    def on_draw(self, seat: int, tile: int) -> None:
        if self.phase in (Phase.CLAIMS, Phase.WON, Phase.ROB):
            self.after_claims()
        if self.phase != Phase.DRAW:
            raise self.fail("a draw out of turn")
        if seat != self.turn:
            raise self.fail(f"{self.name(seat)} draws, but it is {self.name(self.turn)}'s draw")
        if self.wall <= 0:
            raise self.fail("the wall is empty")
        self.see(tile)
        self.wall -= 1
        s = self.seats[seat]
        s.counts[tile] += 1
        s.drawn += 1
        s.passed_fan = None
        self.phase, self.drawn_tile = Phase.TURN, tile
        self.turn_kind = TurnKind.REPLACEMENT if self.replacement else TurnKind.DRAWN
        if not self.replacement:
            self.last_kong[seat] = None
        self.replacement = False

    def after_claims(self) -> None:
        """Nobody (more) claims the discard or robs the kong: say whose draw comes next."""
        if self.phase == Phase.ROB:
            assert self.rob is not None
            self.rob, self.winners_here = None, []
            self.phase, self.replacement = Phase.DRAW, True
            return
        assert self.discard is not None
        seat = self.discard[0]
        last = seat
        if self.phase == Phase.WON:  # after the winner farthest from the discarder in turn order
            last = max(self.winners_here, key=lambda w: (w - seat) % SEATS)
        self.close_claims()
        self.winners_here = []
        self.phase, self.turn = Phase.DRAW, self.next_in(last)

    def on_discard(self, seat: int, tile: int) -> None:
        if self.phase != Phase.TURN or seat != self.turn:
            raise self.fail(f"{self.name(seat)} discards out of turn")
        s = self.seats[seat]
        if s.set_aside is not None and tile != s.set_aside:
            raise self.fail(f"{self.name(seat)}'s first discard is its set-aside tile {format_tile(s.set_aside)}")
        if (self.opts.void_discard == VoidDiscard.STRICT and self.holds_void(s) and s.void is not None
                and suit_of(tile) != s.void):
            raise self.fail(f"{self.name(seat)} holds its void suit and must discard it first (strict void rule)")
        self.take(seat, tile)
        s.set_aside = None
        self.discard = (seat, tile)
        self.discard_after_kong = self.turn_kind == TurnKind.REPLACEMENT
        self.discard_last = self.wall == 0
        self.phase, self.winners_here = Phase.CLAIMS, []

    def on_claim(self, claimer: int, kind: MeldKind, claimed: int, named_from: int,
                 chow_first: int | None = None) -> None:
        if self.phase != Phase.CLAIMS or self.discard is None:
            raise self.fail("a claim with no discard open to it (a win on the discard comes first)")
        seat, tile = self.discard
        s = self.check_seat(claimer, "seat")
        if named_from != seat or claimed != tile:
            raise self.fail(f"the claim names {format_tile(claimed)} from {self.name(named_from)}; the discard is "
                            f"{format_tile(tile)} from {self.name(seat)}")
        if claimer == seat or s.out:
            raise self.fail(f"{self.name(claimer)} cannot claim this discard")
        if suit_of(tile) == s.void:
            raise self.fail(f"{self.name(claimer)} cannot claim a tile of its void suit")
        self.close_claims()
        if kind == MeldKind.PUNG:
            self.take(claimer, tile, 2)
            s.melds.append(_Meld(MeldKind.PUNG, tile, source=seat))
            self.phase, self.turn, self.turn_kind, self.drawn_tile = Phase.TURN, claimer, TurnKind.CLAIMED, None
        elif kind == MeldKind.KONG:
            if self.wall <= 0:
                raise self.fail("no kong on the last discard: the wall is empty")
            self.take(claimer, tile, 3)
            s.melds.append(_Meld(MeldKind.KONG, tile, source=seat))
            self.record_kong(claimer, {seat: 2}, "exposed")
            self.phase, self.turn, self.replacement = Phase.DRAW, claimer, True
        else:
            raise self.fail("Sichuan claims a pung or a kong, never a chow")
        self.calls_made = True

    def record_kong(self, seat: int, paid: dict[int, int], detail: str) -> None:
        money = _KongMoney(seat, {p: a for p, a in paid.items() if a}, self.index)
        for payer, amount in money.paid.items():
            self.pay(Line.KONG, payer, seat, amount, detail)
        self.kong_money.append(money)
        self.last_kong[seat] = money

    def on_kong_event(self, seat: int, tile: int, concealed: bool) -> None:
        if self.phase != Phase.TURN or seat != self.turn:
            raise self.fail(f"{self.name(seat)} declares a kong out of turn")
        if self.wall <= 0:
            raise self.fail("no kong once the wall is empty")
        s = self.seats[seat]
        if suit_of(tile) == s.void:
            raise self.fail(f"{self.name(seat)} cannot declare a kong of its void suit")
        others = self.still_in(seat)
        if concealed:
            self.take(seat, tile, 4)
            s.melds.append(_Meld(MeldKind.KONG, tile, concealed=True))
            self.record_kong(seat, dict.fromkeys(others, 2), "concealed")
            self.calls_made = True
            self.phase, self.replacement = Phase.DRAW, True
            return
        meld = next((m for m in s.melds if m.kind == MeldKind.PUNG and m.tile == tile), None)
        if meld is None:
            raise self.fail(f"{self.name(seat)} adds {format_tile(tile)} to a pung it does not have")
        fresh = self.turn_kind in (TurnKind.DRAWN, TurnKind.REPLACEMENT) and self.drawn_tile == tile
        self.take(seat, tile)
        meld.kind, meld.added = MeldKind.KONG, True
        self.record_kong(seat, dict.fromkeys(others, 1 if fresh else 0), "promoted" if fresh else "postponed")
        self.calls_made = True
        if self.opts.robbing_kong:
            self.phase, self.rob, self.winners_here = Phase.ROB, (seat, tile), []
        else:
            self.phase, self.replacement = Phase.DRAW, True

    # ------------------------------------------------------------------ wins

    def context(self, seat: int, discarder: int | None, **flags: bool) -> WinContext:
        s = self.seats[seat]
        out = tuple(self.wind(o) for o in range(SEATS) if self.seats[o].out)
        rel = relative(self.wind(seat), self.wind(discarder)) if discarder is not None else None
        kw: dict[str, object] = dict(seat_wind=self.wind(seat), void_suit=s.void, seats_out=out, **flags)
        if rel is not None:
            kw["discarded_by"] = rel
        else:
            kw["self_drawn"] = True
        return WinContext(**kw)  # type: ignore[arg-type]

    def score(self, hand: Hand, ctx: WinContext) -> tuple[int, int] | None:
        """(value, capped fan) of a win, None when the hand does not win."""
        ev = api.evaluate(hand, ctx, RULE_SET, self.opts)
        if not ev.is_win or ev.best is None:
            return None
        return ev.best.points, ev.best.total

    def evaluate_discard_win(self, seat: int, discarder: int, tile: int, after_kong: bool, last: bool,
                             robbing: bool) -> tuple[int, int] | None:
        s = self.seats[seat]
        if suit_of(tile) == s.void or self.holds_void(s):
            return None
        ctx = self.context(seat, discarder, after_kong_discard=after_kong, last_wall_tile=last, robbing_kong=robbing)
        return self.score(self.hand(seat, tile), ctx)

    def may_win_again(self, seat: int, discarder: int, tile: int) -> bool:
        """过水: after passing a win on a discard, a discard win before the next draw needs more fan than the
        passed one, both counted without situation fans (海底, 杠上炮), as the reference counts them."""
        passed = self.seats[seat].passed_fan
        if passed is None:
            return True
        plain = self.evaluate_discard_win(seat, discarder, tile, False, False, False)
        return plain is not None and plain[1] > passed

    def on_win(self, winner: int, win_tile: int, discarder: int | None, horses: tuple[int, ...] = ()) -> None:
        s = self.check_seat(winner, "seat")
        if s.out:
            raise self.fail(f"{self.name(winner)} has already won")
        if discarder is None:
            self.self_drawn_win(winner, win_tile)
        elif self.phase == Phase.ROB:
            self.robbing_win(winner, win_tile, discarder)
        else:
            self.discard_win(winner, win_tile, discarder)
        if sum(x.out for x in self.seats) >= SEATS - 1:
            self.close_claims()
            self.phase = Phase.OVER

    def self_drawn_win(self, winner: int, win_tile: int) -> None:
        if self.phase != Phase.TURN or winner != self.turn or self.turn_kind == TurnKind.CLAIMED:
            raise self.fail(f"{self.name(winner)} declares a self-drawn win without having drawn")
        start = self.turn_kind == TurnKind.START
        if not start and win_tile != self.drawn_tile:
            raise self.fail(f"the self-drawn winning tile is the tile drawn, {format_tile(self.drawn_tile or 0)}")
        s = self.seats[winner]
        if not s.counts[win_tile]:
            raise self.fail(f"{self.name(winner)} does not hold {format_tile(win_tile)}")
        earthly = (self.turn_kind == TurnKind.DRAWN and winner != self.dealer and s.drawn == 1
                   and not self.calls_made)
        ctx = self.context(winner, None, replacement_tile=self.turn_kind == TurnKind.REPLACEMENT,
                           last_wall_tile=self.wall == 0, heavenly=start and not s.melds, earthly=earthly)
        scored = None if self.holds_void(s) else self.score(
            self.hand(winner, win_tile, minus=win_tile), ctx)
        if scored is None:
            raise self.fail(f"{self.name(winner)}'s hand does not win (a declared win without one is a FalseWin)")
        value, fan = scored
        bonus = 1 if self.opts.self_draw == SelfDraw.ADD_BASE else 0
        for payer in self.still_in(winner):
            self.pay(Line.WIN, payer, winner, value + bonus)
        self.record_win(winner, None, win_tile, value, fan, ctx)
        s.counts[win_tile] -= 1
        s.out = True
        if not self.over():  # the win may have ended the round
            self.phase, self.turn = Phase.DRAW, self.next_in(winner)

    def discard_win(self, winner: int, win_tile: int, discarder: int | None) -> None:
        if self.phase not in (Phase.CLAIMS, Phase.WON) or self.discard is None:
            raise self.fail("a win on a discard with no discard open to it")
        seat, tile = self.discard
        if discarder != seat or win_tile != tile:
            raise self.fail(f"the win names {format_tile(win_tile)} from {self.name(discarder)}; the discard is "
                            f"{format_tile(tile)} from {self.name(seat)}")
        if winner == seat or winner in self.winners_here:
            raise self.fail(f"{self.name(winner)} cannot win on this discard")
        scored = self.evaluate_discard_win(winner, seat, tile, self.discard_after_kong, self.discard_last, False)
        if scored is None:
            raise self.fail(f"{self.name(winner)}'s hand does not win on {format_tile(tile)}")
        if not self.may_win_again(winner, seat, tile):
            raise self.fail(f"{self.name(winner)} passed a win worth {self.seats[winner].passed_fan} fan since its "
                            "last draw (过水): it may win on a discard again only with more fan, or after drawing")
        value, fan = scored
        self.pay(Line.WIN, seat, winner, value)
        ctx = self.context(winner, seat, after_kong_discard=self.discard_after_kong, last_wall_tile=self.discard_last)
        self.record_win(winner, seat, tile, value, fan, ctx)
        first = not self.winners_here
        self.winners_here.append(winner)
        self.seats[winner].out = True
        self.phase = Phase.WON
        if self.discard_after_kong:
            self.shoot_after_kong(seat, first)

    def shoot_after_kong(self, discarder: int, first: bool) -> None:
        """杠上炮: the money of the discarder's kong goes back (MIL) or to the winners (呼叫转移)."""
        money = self.last_kong.get(discarder)
        if money is None or not money.open:
            return
        if not self.opts.transfers_kong_money:
            if first:
                money.open = False
                for payer, amount in money.paid.items():
                    self.pay(Line.KONG_REFUND, discarder, payer, amount, "shoot_after_kong")
            return
        # 呼叫转移: re-share the whole sum among the winners so far, in turn order from the discarder
        total = sum(money.paid.values())
        winners = sorted(self.winners_here, key=lambda w: (w - discarder) % SEATS)
        self.transfers = [t for t in self.transfers
                          if not (t.kind == Line.KONG_TRANSFER and t.payer == discarder and t.detail == "call_transfer"
                                  and t.at_event >= money.at_event)]
        share, rest = divmod(total, len(winners))
        for i, w in enumerate(winners):
            self.pay(Line.KONG_TRANSFER, discarder, w, share + (1 if i < rest else 0), "call_transfer")

    def robbing_win(self, winner: int, win_tile: int, discarder: int | None) -> None:
        assert self.rob is not None
        owner, tile = self.rob
        if discarder != owner or win_tile != tile:
            raise self.fail(f"the robbing win names {format_tile(win_tile)} from {self.name(discarder)}; the kong is "
                            f"{format_tile(tile)} of {self.name(owner)}")
        if winner == owner or winner in self.winners_here:
            raise self.fail(f"{self.name(winner)} cannot rob this kong")
        scored = self.evaluate_discard_win(winner, owner, tile, False, False, True)
        if scored is None:
            raise self.fail(f"{self.name(winner)}'s hand does not win on the robbed {format_tile(tile)}")
        value, fan = scored
        self.pay(Line.WIN, owner, winner, value)
        ctx = self.context(winner, owner, robbing_kong=True)
        self.record_win(winner, owner, tile, value, fan, ctx)
        if not self.winners_here:  # the kong never happened: a pung again, its money back
            o = self.seats[owner]
            meld = next(m for m in o.melds if m.kind == MeldKind.KONG and m.tile == tile and m.added)
            meld.kind, meld.added = MeldKind.PUNG, False
            money = self.last_kong.get(owner)
            if money is not None and money.open:
                money.open = False
                for payer, amount in money.paid.items():
                    self.pay(Line.KONG_REFUND, owner, payer, amount, "robbed")
            self.last_kong[owner] = None
        self.winners_here.append(winner)
        self.seats[winner].out = True
        # play goes on after the robber(s), as after a discard
        self.discard, self.discard_after_kong, self.discard_last = (owner, tile), False, False
        self.rob, self.phase = None, Phase.WON

    def record_win(self, winner: int, discarder: int | None, tile: int, value: int, fan: int,
                   ctx: WinContext) -> None:
        """The win, with its evaluation (the hand as it won: a self-draw's tile is already held)."""
        hand = self.hand(winner, tile, minus=tile if discarder is None else None)
        evaluation = api.evaluate(hand, ctx, RULE_SET, self.opts)
        self.wins.append(WinRecord(winner, discarder, tile, value, fan, ctx, self.index, evaluation))

    def on_false_win(self, seat: int) -> None:
        if self.phase != Phase.TURN or seat != self.turn:
            raise self.fail(f"{self.name(seat)} declares a win out of turn")
        penalty = self.opts.false_win_penalty  # checked with the round's options (check_round_options)
        for other in self.still_in(seat):
            self.pay(Line.FALSE_WIN, seat, other, penalty)
        if penalty:
            self.refund_all(seat, "false_win")

    def refund_all(self, seat: int, detail: str) -> None:
        for money in self.kong_money:
            if money.seat == seat and money.open:
                money.open = False
                for payer, amount in money.paid.items():
                    self.pay(Line.KONG_REFUND, seat, payer, amount, detail)

    # ------------------------------------------------------------------ the wall's end

    def on_wall_end_event(self) -> None:
        if self.phase in (Phase.CLAIMS, Phase.WON):
            self.after_claims()
        if self.phase != Phase.DRAW or self.wall > 0:
            raise self.fail(f"the wall is not empty ({self.wall} tiles left)")
        opts = self.opts
        flower_pig = opts.flower_pig if opts.flower_pig is not None else opts.variant == Variant.CHENGDU
        players = self.still_in()
        suits = {p: {suit_of(t) for t in range(27) if self.seats[p].counts[t]}
                 | {suit_of(m.tile) for m in self.seats[p].melds} for p in players}
        values: dict[int, int] = {}
        for p in players:
            s = self.seats[p]
            analysis = api.analyze(self.hand(p, None), (), RULE_SET, _with_void(opts, s.void))
            values[p] = analysis.max_value if analysis.waits else 0
            self.ready[p] = bool(values[p])
        if flower_pig:
            for p in players:
                if len(suits[p]) == 3:
                    for other in range(SEATS):
                        if other != p:
                            self.pay(Line.FLOWER_PIG, p, other, 2 ** opts.cap)
        if opts.ready_check:
            for p in players:
                if not values[p]:
                    for q in players:
                        if values[q]:
                            self.pay(Line.NOT_READY, p, q, values[q])
        if opts.kong_refund:
            for p in players:
                if not values[p]:
                    self.refund_all(p, "wall_end")
        if opts.void_discard == VoidDiscard.LENIENT:  # void_penalty checked with the round's options
            for p in players:
                if self.holds_void(self.seats[p]) or any(suit_of(m.tile) == self.seats[p].void
                                                          for m in self.seats[p].melds):
                    self.pay(Line.VOID_PENALTY, p, None, opts.void_penalty)
        self.phase = Phase.OVER

    # ------------------------------------------------------------------ what may happen next

    def legal(self) -> tuple[SeatLegal, ...]:
        """What each seat may do at this point of the log (Legal). The next draw is `draw_next`."""
        out = [SeatLegal(seat) for seat in range(SEATS)]
        ph = self.phase
        if ph in (Phase.DEAL, Phase.OVER):
            return tuple(out)
        if ph == Phase.EXCHANGE:
            for seat, s in enumerate(self.seats):
                out[seat] = SeatLegal(seat, exchange_suits=tuple(u for u in SUITS if sum(
                    s.counts[t] for t in range(27) if suit_of(t) == u) >= 3))
            return tuple(out)
        if ph == Phase.VOID:
            return tuple(SeatLegal(seat, void_suits=SUITS) for seat in range(SEATS))
        if ph == Phase.TURN:
            out[self.turn] = self.turn_options()
            return tuple(out)
        if ph == Phase.DRAW:
            out[self.turn] = SeatLegal(self.turn, draw=self.wall > 0, wall_end=self.wall == 0)
            return tuple(out)
        if ph == Phase.ROB:
            assert self.rob is not None
            owner, tile = self.rob
            for seat in self.still_in(owner):
                if seat not in self.winners_here and self.evaluate_discard_win(seat, owner, tile, False, False, True):
                    out[seat] = SeatLegal(seat, win=True)
            out[owner] = SeatLegal(owner, draw=True)
            return tuple(out)
        assert self.discard is not None
        seat, tile = self.discard
        for other in self.still_in(seat):
            if other in self.winners_here:
                continue
            o = self.seats[other]
            scored = self.evaluate_discard_win(other, seat, tile, self.discard_after_kong, self.discard_last, False)
            win = scored is not None and self.may_win_again(other, seat, tile)
            claim = ph == Phase.CLAIMS and suit_of(tile) != o.void
            out[other] = SeatLegal(other, win=win, pung=claim and o.counts[tile] >= 2,
                                   kong=claim and o.counts[tile] >= 3 and self.wall > 0)
        last = max(self.winners_here, key=lambda w: (w - seat) % SEATS) if self.winners_here else seat
        nxt = self.next_in(last)
        prev = out[nxt]
        out[nxt] = SeatLegal(nxt, win=prev.win, pung=prev.pung, kong=prev.kong, draw=self.wall > 0,
                             wall_end=self.wall == 0)
        return tuple(out)

    def turn_options(self) -> SeatLegal:
        seat, s = self.turn, self.seats[self.turn]
        held = [t for t in range(27) if s.counts[t]]
        if s.set_aside is not None:
            discards: tuple[int, ...] = (s.set_aside,)
        elif self.opts.void_discard == VoidDiscard.STRICT and self.holds_void(s):
            discards = tuple(t for t in held if suit_of(t) == s.void)
        else:
            discards = tuple(held)
        kongs: list[tuple[int, bool]] = []
        if self.wall > 0:
            kongs += [(t, True) for t in held if s.counts[t] == 4 and suit_of(t) != s.void]
            kongs += [(m.tile, False) for m in s.melds if m.kind == MeldKind.PUNG and s.counts[m.tile]]
        self_win = False
        if self.turn_kind != TurnKind.CLAIMED and not self.holds_void(s):
            tile = self.drawn_tile if self.drawn_tile is not None else held[-1]
            start = self.turn_kind == TurnKind.START
            ctx = self.context(seat, None, replacement_tile=self.turn_kind == TurnKind.REPLACEMENT,
                               last_wall_tile=self.wall == 0, heavenly=start and not s.melds)
            if start:  # any of the 14 may be called the winning tile
                self_win = any(self.score(self.hand(seat, t, minus=t), ctx) is not None for t in held)
            else:
                self_win = self.score(self.hand(seat, tile, minus=tile), ctx) is not None
        return SeatLegal(seat, discards=discards, kongs=tuple(kongs), self_win=self_win)

    # ------------------------------------------------------------------ the answer

    def settlement(self) -> Settlement:
        net = [0] * SEATS
        pot = 0
        for t in self.transfers:
            net[t.payer] -= t.amount
            if t.payee is None:
                pot += t.amount
            else:
                net[t.payee] += t.amount
        return Settlement(tuple(net), pot, tuple(self.transfers), tuple(self.wins), tuple(self.ready),
                          self.phase == Phase.OVER)


def check_round_options(opts: SichuanOptions) -> None:
    """BAD_OPTION naming the field for a round option out of range."""
    for name in ("void_penalty", "false_win_penalty"):
        value = getattr(opts, name)
        if type(value) is not int or not 0 <= value <= 10_000:
            raise BadOptionError(f"options.sichuan.{name}: expected a whole number 0-10000, got {value!r}",
                                 f"options.sichuan.{name}")
    for name in ("set_aside", "flower_pig"):
        value = getattr(opts, name)
        if value is not None and type(value) is not bool:
            raise BadOptionError(f"options.sichuan.{name}: expected true, false or unset", f"options.sichuan.{name}")


def _with_void(opts: SichuanOptions, void: Suit | None) -> SichuanOptions:
    from dataclasses import replace
    return replace(opts, void_suit=void)


# ---------------------------------------------------------------------------------------------
# The referee on the contract (engine.referee): a HandLog in, SeatActions and a Settlement out


def replay_log(log: HandLog) -> round_log.Reader:
    """The log read and played (its `state`: the Round at its end); ILLEGAL_EVENT, BAD_LOG as Legal and Settle."""
    round_log.check_log_fields(log)  # before the round reads the options
    opts = log.options if log.options is not None else SichuanOptions()
    if log.prevalent_wind != Wind.EAST:
        raise BadLogError("log.prevalent_wind: Sichuan has no prevalent wind", "log.prevalent_wind")
    if opts.void_suit is not None:  # one player's (Analyze's); at a table each seat declares its own
        raise BadOptionError("log.options.sichuan.void_suit: each seat's void suit is its VoidSuit event; "
                             "leave the option unset", "log.options.sichuan.void_suit")
    try:
        state = Round(opts)
    except BadOptionError as err:  # named where the log holds it
        raise BadOptionError(f"log.{err.message}", f"log.{err.field}") from None
    return round_log.replay(log, state, tuple(Wind))


def next_dealer(s: Settlement) -> int:
    """Who deals the next round: the first winner; after several winners on the first winning discard, its
    discarder (一炮多响); with no winner, the dealer again."""
    if not s.wins:
        return 0
    first = s.wins[0]
    together = [first]
    for w in s.wins[1:]:
        if first.discarder is None or w.discarder != first.discarder or w.at_event != together[-1].at_event + 1:
            break
        together.append(w)
    return first.discarder if len(together) > 1 and first.discarder is not None else first.seat


def _legal(log: HandLog) -> tuple[SeatActions, ...]:
    reader = replay_log(log)
    return round_log.seat_actions(reader, reader.state.legal())


def _settle(log: HandLog) -> ContractSettlement:
    reader = replay_log(log)
    s = reader.state.settlement()
    wins = [w.evaluation for w in s.wins if w.evaluation is not None]
    return round_log.settlement(reader, s.complete, s.transfers, wins, [r is True for r in s.ready],
                                dealer_continues=s.complete and next_dealer(s) == 0, reason=lambda t: t.kind.name)


REFEREE = Referee(_legal, _settle)
