"""The Riichi referee: a hand's log (`engine.referee.HandLog`) replayed event by event, each event checked
against the rules, what each seat may do next (`legal`) and the hand's money (`settle`).

Four players, or three (`players` 3: Mahjong Soul's sanma, below); seats are winds, East deals. The rules
are majiang-core's default rule (Tenhou's standard,
docs/referee-riichi.md lists them): red fives, open tanyao, no swap-calling (kuikae), abortive draws (nine
terminals, four winds, four riichi, four kongs after the following discard, three ron), nagashi mangan,
noten payments of 3,000, double ron (honba and sticks to the first winner in turn order after the
discarder), riichi with 4 tiles left to draw and 1,000 points, a kong after riichi only when the waits do
not change, ippatsu, ura and kan dora (an open or added kong's dora turned after the next discard), pao,
furiten (own discards, temporary, riichi).

Every win is scored by the Riichi scorer (`engine.api.evaluate`) with a context derived from the log
alone: riichi / double riichi, ippatsu, robbing a kong, replacement tile, last tile (haitei / houtei),
tenhou / chiihou, seat and round wind, the dora indicators turned so far, the winner's ura indicators,
red fives, honba and sticks.

Money lines (`MoneyLine.reason`), each with the index of the event that moved it:

* WIN: a winner's hand value, from the discarder (ron) or from each other seat (tsumo);
* PAO: the share of a big three dragons / big four winds paid by the seat that fed the last set;
* HONBA: 300 a counter from the discarder, or 100 from each payer (the first winner only);
* RIICHI_DEPOSIT: 1,000 from a seat whose riichi discard was not won on, to the pot (payee None);
* RIICHI_STICKS: the sticks on the table taken by the (first) winner: a line from the winner to the pot
  with a negative amount (the pot pays; `MoneyLine.payer` is always a seat);
* TENPAI: noten payments at an exhaustive draw, 3,000 shared: each seat not ready pays each ready one;
* NAGASHI_MANGAN: a mangan self-draw (no honba) for each seat whose discards were all terminals and
  honours, none claimed; no noten payments then.

Three players (riichi.wiki "Sanma"; riichienv's game engine is the oracle): 108 tiles, 55 to draw, no chow;
a North set aside (`Kita`) is open to a win (no chankan), then replaced from the dead wall (rinshan); it
ends the first go-around, and every ippatsu at its replacement draw; riichi with 3 tiles left; abortive
draws nine terminals and four kongs only; noten payments 2,000 shared; nagashi, pao and honba as the
scorer pays a sanma self-draw (`tsumo_loss`).

`Settlement.pot` is what went to the table this hand (deposits less sticks taken), so the nets and the pot
sum to zero. Stateless: `legal` and `settle` replay the whole log on each call.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Final

from engine import analysis
from engine.errors import EngineError
from engine.hand import FIVES, ClaimedFrom, Hand, Meld, MeldKind, WinContext, Wind
from engine.referee import (
    Action,
    ActionKind,
    BadLogError,
    Claim,
    Deal,
    Discard,
    DoraIndicator,
    Draw,
    DrawnGame,
    DrawnGameKind,
    HandEvent,
    HandLog,
    IllegalEventError,
    Kita,
    Kong,
    MoneyLine,
    Referee,
    SeatActions,
    SeatMoney,
    Settlement,
    Win,
    nets_and_pot,
)
from engine.results import Evaluation
from engine.rules.riichi.context import MAX_COUNTERS
from engine.rules.riichi.fans import Fan
from engine.rules.riichi.options import Renhou, RiichiOptions
from engine.rules.riichi.payments import YAKUMAN_BASE, tsumo_shares
from engine.shapes import is_standard_complete, is_thirteen_orphans
from engine.tiles import (
    DRAGONS,
    NORTH,
    NUM_KINDS,
    TERMINALS_AND_HONORS,
    WINDS,
    format_tile,
    is_honor,
    offset_in_suit,
    rank_of,
    same_suit,
    suit_of,
)

RULE_SET: Final = "riichi"
SEATS: Final = 4
LIVE_WALL: Final = 70  # 136 tiles, 52 dealt, 14 in the dead wall
LIVE_WALL_3: Final = 55  # three players: 108 tiles, 39 dealt, 14 in the dead wall
MAX_KONGS: Final = 4
RIICHI_COST: Final = 1000
MANGAN_BASE: Final = 2000
RIICHI_MIN_LEFT: Final = 4  # a draw left for every seat after the riichi discard
RIICHI_MIN_LEFT_3: Final = 3
NOTEN_TOTAL: Final = 3000
NOTEN_TOTAL_3: Final = 2000  # three players (Mahjong Soul's sanma, as riichienv plays it)
MAX_KITA: Final = 4
_ORPHANS: Final = frozenset(TERMINALS_AND_HONORS)
_MAN_2: Final = 1  # 2m..8m, the tiles three players do not play
_MAN_8: Final = 7
_WIND_TILES: Final = frozenset(WINDS)

WIN: Final = "WIN"
PAO: Final = "PAO"
HONBA: Final = "HONBA"
RIICHI_DEPOSIT: Final = "RIICHI_DEPOSIT"
RIICHI_STICKS: Final = "RIICHI_STICKS"
TENPAI: Final = "TENPAI"
NAGASHI_MANGAN: Final = "NAGASHI_MANGAN"


# ---------------------------------------------------------------------------------------------
# Shapes (majiang-core's: seven pairs of seven kinds; a wait on a tile held four times is none)


_ORPHAN_KINDS: Final = tuple(TERMINALS_AND_HONORS)


def complete(counts: list[int]) -> bool:
    """Four sets and a pair (melds removed), seven different pairs or thirteen orphans. The special shapes
    are asked with scans done in C first: seven different pairs hold no kind once, three or four times, and
    thirteen orphans hold every terminal and honour (tests/unit/test_riichi_referee_perf.py holds this to
    the shapes module's own predicates)."""
    n = sum(counts)
    if n % 3 != 2:
        return False
    if is_standard_complete(counts):
        return True
    if n != 14:
        return False
    if 1 not in counts and 3 not in counts and 4 not in counts:
        return True
    return all(counts[t] for t in _ORPHAN_KINDS) and is_thirteen_orphans(counts)


def waits(counts: list[int]) -> list[int]:
    """The tiles that complete the concealed counts (3N+1 tiles); none held four times. The engine's table
    driven waits (every shape it knows, MCR's knitted ones too) give the candidates; each is then held to
    majiang-core's shapes (`complete`). tests/unit/test_riichi_referee.py holds this to `waits_plain`."""
    n = sum(counts)
    if n % 3 != 1:
        return []
    out = []
    for t in analysis.waits(counts, (13 - n) // 3, False):
        if counts[t] < 4:
            counts[t] += 1
            if complete(counts):
                out.append(t)
            counts[t] -= 1
    return out


def waits_plain(counts: list[int]) -> list[int]:
    """`waits` by trying every tile (the plain path the fast one is tested against)."""
    out = []
    for t in range(NUM_KINDS):
        if counts[t] >= 4:
            continue
        counts[t] += 1
        if complete(counts):
            out.append(t)
        counts[t] -= 1
    return out


def _orphans_on(counts: list[int], tile: int) -> bool:
    """The 13 counts and `tile` make thirteen orphans."""
    counts[tile] += 1
    try:
        return sum(counts) == 14 and is_thirteen_orphans(counts)
    finally:
        counts[tile] -= 1


def completes(counts: list[int], tile: int) -> bool:
    counts[tile] += 1
    try:
        return complete(counts)
    finally:
        counts[tile] -= 1


def completes_near(counts: list[int], tile: int) -> bool:
    """`completes`, answered False at once when no shape can take the tile: a tile neither held nor a terminal
    or honour (thirteen orphans) completes a hand only in a chow, with a tile of its suit at most two ranks
    away. tests/unit/test_riichi_referee_perf.py holds it to `completes` on random hands."""
    if not counts[tile] and tile not in _ORPHANS:
        rank = offset_in_suit(tile)  # a simple: honours and terminals are orphans
        if not any(counts[tile + d] for d in (-2, -1, 1, 2) if 0 <= rank + d < 9):
            return False
    return completes(counts, tile)


# ---------------------------------------------------------------------------------------------
# The table


class Phase(Enum):
    DEAL = 0  # waiting for the deal
    DRAW = 1  # `turn` draws next (a replacement after a kong when `rinshan`)
    TURN = 2  # `turn` holds 14 and acts: discard, kong, win, nine terminals
    DISCARD = 3  # a discard open to ron and claims
    ROB = 4  # an added kong open to robbing
    OVER = 5


@dataclass
class _Meld:
    kind: MeldKind
    tile: int
    concealed: bool = False
    added: bool = False
    source: int | None = None  # the seat that discarded the claimed tile
    claimed: int | None = None  # the claimed tile (a chow's)
    first: int = 0  # a chow's lowest tile
    reds: int = 0

    def tiles(self) -> tuple[int, ...]:
        if self.kind == MeldKind.CHOW:
            return (self.first, self.first + 1, self.first + 2)
        return (self.tile,) * (4 if self.kind == MeldKind.KONG else 3)


@dataclass
class _Seat:
    counts: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    reds: list[int] = field(default_factory=lambda: [0, 0, 0])  # red fives held concealed, per suit
    melds: list[_Meld] = field(default_factory=list)
    river: list[int] = field(default_factory=list)
    river_tiles: set[int] = field(default_factory=set)
    river_clean: bool = True  # every discard a terminal or honour, none claimed (nagashi mangan)
    riichi: int = 0  # 1 riichi, 2 double riichi
    ippatsu: bool = False
    can_ron: bool = True  # majiang-core's neng_rong, less the discard furiten (`Table.may_ron`): false in
    # temporary or riichi furiten
    kongs: int = 0
    kita: int = 0  # North tiles set aside (three players)
    discarded: bool = False
    version: int = 0  # bumped whenever `counts` change (give, take, a concealed kong)
    waits_version: int = -1  # the version `wait_set` was worked out for
    wait_set: frozenset[int] = frozenset()

    @property
    def open(self) -> bool:
        return any(not m.concealed for m in self.melds)


@dataclass(frozen=True)
class _Won:
    seat: int
    discarder: int | None
    evaluation: Evaluation
    context: WinContext
    index: int


def _seat_index(w: Wind) -> int:
    return int(w)


def _relative(me: int, other: int, n: int = SEATS) -> ClaimedFrom:
    """Where `other` sits seen from `me` at a table of `n`: left plays before me, right after me (three
    players: no one across)."""
    d = (other - me) % n
    if n == 3:
        return (ClaimedFrom.NONE, ClaimedFrom.RIGHT, ClaimedFrom.LEFT)[d]
    return (ClaimedFrom.NONE, ClaimedFrom.RIGHT, ClaimedFrom.ACROSS, ClaimedFrom.LEFT)[d]


def _is_tile(t: object) -> bool:
    return type(t) is int and 0 <= t < NUM_KINDS


def _check_tiles(index: int, ev: HandEvent) -> None:
    """Every tile of the event a tile index (BAD_LOG naming the field otherwise). The field names are written
    only when a tile is bad (`_name_bad_tile`); each event type's tile fields are read by name (a `getattr`
    with a default raises and catches an AttributeError for every field an event lacks)."""
    if isinstance(ev, (Draw, Discard, Kong, DoraIndicator)):
        ok = _is_tile(ev.tile)
    elif isinstance(ev, Claim):
        ok = all(_is_tile(t) for t in ev.tiles) and all(_is_tile(t) for t in ev.red_fives)
    elif isinstance(ev, Win):
        ok = all(_is_tile(t) for t in ev.ura_dora_indicators)
    elif isinstance(ev, Deal):
        ok = (all(_is_tile(t) for h in ev.hands for t in h.tiles)
              and all(_is_tile(t) for h in ev.hands for t in h.red_fives)
              and all(_is_tile(t) for t in ev.dora_indicators))
    else:
        ok = True  # no tiles (a drawn game), or an event Riichi refuses by its type
    if not ok:
        _name_bad_tile(index, ev)


def _name_bad_tile(index: int, ev: HandEvent) -> None:
    at = f"log.events[{index}]"
    named: list[tuple[str, object]] = []
    if isinstance(ev, Deal):
        for i, h in enumerate(ev.hands):
            named += [(f"{at}.hands[{i}].tiles", t) for t in h.tiles]
            named += [(f"{at}.hands[{i}].red_fives", t) for t in h.red_fives]
        named += [(f"{at}.dora_indicators", t) for t in ev.dora_indicators]
    for name in ("tile", "tiles", "red_fives", "ura_dora_indicators"):
        value = getattr(ev, name, None)
        if isinstance(value, tuple):
            named += [(f"{at}.{name}", t) for t in value]
        elif value is not None:
            named.append((f"{at}.{name}", value))
    for name, t in named:
        if type(t) is not int or not 0 <= t < NUM_KINDS:
            raise BadLogError(f"{name}: {t!r} is not a tile index (0..33)", name)


def _points(e: Evaluation) -> int:
    return e.best.points if e.best is not None else 0


def _five_suit(tile: int) -> int:
    return FIVES.index(tile)


class Table:
    """A Riichi hand replayed; `apply` checks and plays one event, `legal` says what may happen next."""

    def __init__(self, log: HandLog) -> None:
        opts = log.options if log.options is not None else RiichiOptions()
        if not isinstance(opts, RiichiOptions):
            raise BadLogError("log.options: expected Riichi options", "log.options")
        self.n = opts.players
        if self.n == 3 and log.prevalent_wind == Wind.NORTH:
            raise BadLogError("log.prevalent_wind: three players play East, South and West rounds",
                              "log.prevalent_wind")
        for name, count in (("honba", log.honba), ("riichi_sticks", log.riichi_sticks)):
            if type(count) is not int or not 0 <= count <= MAX_COUNTERS:  # as a win's context takes them
                raise BadLogError(f"log.{name}: {count!r} is out of range 0..{MAX_COUNTERS}", f"log.{name}")
        if log.scores and len(log.scores) != self.n:
            raise BadLogError(f"log.scores: give none or one per seat, East to {Wind(self.n - 1).name.title()}",
                              "log.scores")
        self.opts = opts
        self.riichi_min_left = RIICHI_MIN_LEFT if self.n == SEATS else RIICHI_MIN_LEFT_3
        self.log = log
        self.seats = [_Seat() for _ in range(self.n)]
        self.phase = Phase.DEAL
        self.turn = 0
        self.index = -1
        self.left = LIVE_WALL if self.n == SEATS else LIVE_WALL_3
        self.drawn: int | None = None  # the tile just drawn by `turn` (None: after a claim, or dealt)
        self.drawn_red = False
        self.after_claim = False
        self.rinshan = False  # `turn`'s tile is a kong replacement
        self.kuikae: frozenset[int] = frozenset()
        self.first_round = True  # majiang-core's diyizimo: no call yet, the first go-around
        self.four_winds = True
        self.kongs = 0
        self.dora: list[int] = []
        self.dora_owed = 0  # kongs whose indicator is still to be turned
        self.discard: tuple[int, int, bool, bool] | None = None  # seat, tile, red, riichi
        self.discard_index = -1
        self.rob: tuple[int, int, bool] | None = None  # owner, tile, red
        self.rob_concealed = False  # the kong open to robbing is concealed: only thirteen orphans may rob it
        self.rob_kita = False  # what is open to robbing is a North set aside (three players): no chankan
        self.wins: list[_Won] = []
        self.deposits: list[tuple[int, int]] = []  # (seat, event index)
        self.drawn_game: DrawnGameKind | None = None
        self.drawn_game_index = -1
        self.seen = [0] * NUM_KINDS
        self.seen_red = [0, 0, 0]
        self.seen_plain = [0, 0, 0]

    # -----------------------------------------------------------------------------------------
    # helpers

    def fail(self, message: str) -> IllegalEventError:
        return IllegalEventError(self.index, message)

    def score(self, seat: int) -> int | None:
        if not self.log.scores:
            return None
        return self.log.scores[seat] - RIICHI_COST * sum(1 for s, _ in self.deposits if s == seat)

    def take(self, seat: int, tile: int, red: bool, n: int = 1) -> None:
        s = self.seats[seat]
        if s.counts[tile] < n:
            raise self.fail(f"{Wind(seat).name} does not hold {n} x {format_tile(tile)}")
        if red:
            if tile not in FIVES:
                raise self.fail(f"{format_tile(tile)} is not a five: it cannot be red")
            if not s.reds[_five_suit(tile)]:
                raise self.fail(f"{Wind(seat).name} holds no red {format_tile(tile)}")
            s.reds[_five_suit(tile)] -= 1
        elif tile in FIVES and s.counts[tile] - n < s.reds[_five_suit(tile)]:
            raise self.fail(f"{Wind(seat).name} holds only red {format_tile(tile)}: the tile is red")
        s.counts[tile] -= n
        s.version += 1

    def give(self, seat: int, tile: int, red: bool) -> None:
        s = self.seats[seat]
        if red:
            if tile not in FIVES:
                raise self.fail(f"{format_tile(tile)} is not a five: it cannot be red")
            s.reds[_five_suit(tile)] += 1
        s.counts[tile] += 1
        s.version += 1

    def waits_of(self, seat: int) -> frozenset[int]:
        """`waits` of the seat's concealed tiles, worked out once per change of them: the seats that are not
        on turn are asked about at every discard (furiten, ron) and their tiles have not changed since their
        own last discard. tests/unit/test_riichi_referee_perf.py holds the replay to the plain path."""
        s = self.seats[seat]
        if s.waits_version != s.version:
            s.wait_set = frozenset(waits(s.counts))
            s.waits_version = s.version
        return s.wait_set

    def see(self, tile: int, red: bool | None) -> None:
        """A tile comes out of the wall (dealt, drawn, or turned as an indicator: `red` None, its colour not
        given): never a fifth copy, never more red (plain) fives than the set has."""
        if self.n == 3 and _MAN_2 <= tile <= _MAN_8:
            raise self.fail(f"{format_tile(tile)}: three-player Riichi has no 2m-8m (options.riichi.players = 3)")
        self.seen[tile] += 1
        if self.seen[tile] > 4:
            raise self.fail(f"a fifth {format_tile(tile)}")
        if tile not in FIVES or red is None:
            return
        suit = _five_suit(tile)
        allowed = self.opts.reds_allowed(suit)
        if red:
            self.seen_red[suit] += 1
            if self.seen_red[suit] > allowed:
                raise self.fail(f"more red {format_tile(tile)} than the set has (options red_fives)")
        else:
            self.seen_plain[suit] += 1
            if self.seen_plain[suit] > 4 - allowed:
                raise self.fail(f"more plain {format_tile(tile)} than the set has: {allowed} of the four are red")

    def pending_abort(self) -> DrawnGameKind | None:
        """The drawn game the open discard ends the hand with if nobody rons it."""
        assert self.discard is not None
        seat, _, _, riichi = self.discard
        if self.opts.abortive_draws:
            # three players: no four riichi and no four winds (Mahjong Soul's sanma; riichienv agrees)
            if self.n == SEATS and riichi and all(s.riichi for s in self.seats):
                return DrawnGameKind.FOUR_RIICHI
            if self.n == SEATS and self.first_round and seat == self.n - 1 and self.four_winds:
                return DrawnGameKind.FOUR_WINDS
            if self.kongs == MAX_KONGS and max(s.kongs for s in self.seats) < MAX_KONGS:
                return DrawnGameKind.FOUR_KONGS
        if self.left == 0:
            return DrawnGameKind.EXHAUSTIVE
        return None

    # -----------------------------------------------------------------------------------------
    # events

    def apply(self, index: int, ev: HandEvent) -> None:
        self.index = index
        _check_tiles(index, ev)
        if (self.n != SEATS and isinstance(ev, (Draw, Discard, Claim, Kong, Win, Kita))
                and _seat_index(ev.seat) >= self.n):  # four players: every seat is one
            raise self.fail(f"{ev.seat.name.title()} has no seat: three players play East, South and West")
        if self.phase == Phase.OVER:
            if isinstance(ev, Win) and self.can_add_ron(ev):
                self.on_win(ev)
                return
            raise self.fail("the hand is over")
        if isinstance(ev, Deal):
            self.on_deal(ev)
        elif self.phase == Phase.DEAL:
            raise self.fail("the hand starts with the deal")
        elif isinstance(ev, Draw):
            self.on_draw(ev)
        elif isinstance(ev, Discard):
            self.on_discard(ev)
        elif isinstance(ev, Claim):
            self.on_claim(ev)
        elif isinstance(ev, Kong):
            self.on_kong(ev)
        elif isinstance(ev, DoraIndicator):
            self.on_dora(ev)
        elif isinstance(ev, Win):
            self.on_win(ev)
        elif isinstance(ev, DrawnGame):
            self.on_drawn_game(ev)
        elif isinstance(ev, Kita) and self.n == 3:
            self.on_kita(ev)
        else:
            raise self.fail(f"{type(ev).__name__} is not an event of Riichi"
                            + (" (kita: three players, options.riichi.players = 3)" if isinstance(ev, Kita) else ""))

    def on_deal(self, ev: Deal) -> None:
        if self.phase != Phase.DEAL:
            raise self.fail("a second deal")
        seen = sorted(_seat_index(h.seat) for h in ev.hands)
        if seen != list(range(self.n)):
            raise self.fail("the deal gives one hand to each of East, South, West and North" if self.n == SEATS
                            else "the deal gives one hand to each of East, South and West (three players)")
        if len(ev.dora_indicators) != 1:
            raise self.fail("the deal turns one dora indicator")
        for h in ev.hands:
            seat = _seat_index(h.seat)
            want = (13, 14) if seat == 0 else (13,)
            if len(h.tiles) not in want:
                raise self.fail(f"{h.seat.name} is dealt {len(h.tiles)} tiles; East 13 or 14, the others 13")
            s = self.seats[seat]
            for t in h.red_fives:
                if t not in FIVES or h.red_fives.count(t) > h.tiles.count(t):
                    raise self.fail(f"{h.seat.name}: red fives name fives the hand holds")
            for t in h.tiles:
                red = t in FIVES and s.reds[_five_suit(t)] < h.red_fives.count(t)
                self.give(seat, t, red)
                self.see(t, red)
        self.see(ev.dora_indicators[0], None)
        self.dora = [ev.dora_indicators[0]]
        if sum(self.seats[0].counts) == 14:
            self.left -= 1
            self.phase = Phase.TURN
            self.turn = 0
        else:
            self.phase = Phase.DRAW
            self.turn = 0

    def close_discard(self) -> None:
        """Nobody rons the open discard: the riichi stick goes down, the seats it completes are in
        temporary furiten, the first go-around may end."""
        assert self.discard is not None
        seat, tile, _, riichi = self.discard
        for other in range(self.n):
            if other != seat and completes_near(self.seats[other].counts, tile):
                self.seats[other].can_ron = False
        if riichi:
            self.deposits.append((seat, self.discard_index))
        if self.first_round and seat == self.n - 1:
            self.first_round = False

    def close_rob(self) -> None:
        assert self.rob is not None
        owner, tile, _ = self.rob
        passed = _orphans_on if self.rob_concealed else completes  # who could have won on it and let it go
        for other in range(self.n):
            if other != owner and passed(self.seats[other].counts, tile):
                self.seats[other].can_ron = False
        self.rob = None
        self.rob_concealed = False
        self.rob_kita = False

    def on_draw(self, ev: Draw) -> None:
        seat = _seat_index(ev.seat)
        if self.phase == Phase.DISCARD:
            assert self.discard is not None
            nxt = (self.discard[0] + 1) % self.n
            if seat != nxt:
                raise self.fail(f"{Wind(nxt).name} draws next, not {ev.seat.name}")
            pending = self.pending_abort()
            if pending is not None:
                raise self.fail(f"the hand ends here ({pending.name.lower()}), no more draws")
            self.close_discard()
            self.rinshan = False
        elif self.phase == Phase.ROB:
            assert self.rob is not None
            if seat != self.rob[0]:
                raise self.fail(f"{Wind(self.rob[0]).name} draws the replacement tile of its "
                                + ("North set aside" if self.rob_kita else "kong"))
            self.close_rob()
        elif self.phase == Phase.DRAW:
            if seat != self.turn:
                raise self.fail(f"{Wind(self.turn).name} draws next, not {ev.seat.name}")
        else:
            raise self.fail(f"{ev.seat.name} may not draw now")
        if self.rinshan:  # a replacement tile: the first go-around and every ippatsu end
            self.first_round = False
            for s in self.seats:
                s.ippatsu = False
        if self.left <= 0:
            raise self.fail("the wall is empty")
        self.see(ev.tile, ev.red)
        self.left -= 1
        self.give(seat, ev.tile, ev.red)
        self.turn = seat
        self.drawn = ev.tile
        self.drawn_red = ev.red
        self.after_claim = False
        self.kuikae = frozenset()
        self.phase = Phase.TURN

    def discardable(self, seat: int) -> list[int]:
        s = self.seats[seat]
        if s.riichi:
            return [self.drawn] if self.drawn is not None else []
        return [t for t in range(NUM_KINDS) if s.counts[t] and t not in self.kuikae]

    def riichi_tiles(self, seat: int) -> list[int]:
        """The discards that may declare riichi now."""
        s = self.seats[seat]
        if s.riichi or s.open or self.after_claim or self.left < self.riichi_min_left:
            return []
        score = self.score(seat)
        if score is not None and score < RIICHI_COST:
            return []
        n = sum(s.counts)
        # The engine's shanten counts every shape it knows (MCR's knitted ones too), so it is never above
        # the Riichi shanten: above 0, no discard leaves the hand ready, and the discards are not tried.
        if analysis.shanten(s.counts, (14 - n) // 3, False) > 0:
            return []
        out = []
        for t in range(NUM_KINDS):
            if s.counts[t]:
                s.counts[t] -= 1
                if waits(s.counts):
                    out.append(t)
                s.counts[t] += 1
        return out

    def on_discard(self, ev: Discard) -> None:
        seat = _seat_index(ev.seat)
        if self.phase != Phase.TURN or seat != self.turn:
            raise self.fail(f"{ev.seat.name} may not discard now")
        s = self.seats[seat]
        if s.riichi and (ev.tile != self.drawn or ev.red != self.drawn_red):
            raise self.fail("after riichi only the tile drawn is discarded")
        if ev.tile in self.kuikae:
            raise self.fail(f"{format_tile(ev.tile)}: swap-calling (kuikae) is not allowed")
        if ev.riichi and ev.tile not in self.riichi_tiles(seat):
            raise self.fail(f"riichi with {format_tile(ev.tile)} is not allowed here (closed hand ready after "
                            f"the discard, {self.riichi_min_left} tiles left to draw, {RIICHI_COST} points)")
        self.take(seat, ev.tile, ev.red)
        s.ippatsu = False
        if not s.riichi:
            s.can_ron = True
        if self.first_round:
            if ev.tile not in _WIND_TILES or (self.discard is not None and self.discard[1] != ev.tile):
                self.four_winds = False
        else:
            self.four_winds = False
        if ev.riichi:
            s.riichi = 2 if self.first_round else 1
            s.ippatsu = True
        s.river.append(ev.tile)
        s.river_tiles.add(ev.tile)
        if ev.tile not in _ORPHANS:
            s.river_clean = False
        s.discarded = True
        self.discard = (seat, ev.tile, ev.red, ev.riichi)
        self.discard_index = self.index
        self.drawn = None
        self.kuikae = frozenset()
        self.phase = Phase.DISCARD

    def chow_kuikae(self, tile: int, first: int) -> frozenset[int]:
        """The discards a chow of `tile` (lowest tile `first`) forbids: the tile, and the other end's
        continuation (swap calling, kuikae; none with the option swap_calling)."""
        if self.opts.swap_calling:
            return frozenset()
        deny = {tile}
        if tile == first and rank_of(tile) < 7:
            deny.add(tile + 3)
        if tile == first + 2 and rank_of(tile) > 3:
            deny.add(tile - 3)
        return frozenset(deny)

    def claims(self, seat: int) -> tuple[list[int], bool, bool]:
        """(chow firsts, pung, kong) `seat` may claim on the open discard."""
        assert self.discard is not None
        discarder, tile, _, _ = self.discard
        s = self.seats[seat]
        if seat == discarder or s.riichi or self.left == 0 or self.pending_abort() is not None:
            return [], False, False
        pung = s.counts[tile] >= 2
        kong = s.counts[tile] >= 3 and self.kongs < MAX_KONGS
        chows = []
        if self.n == SEATS and seat == (discarder + 1) % self.n and not is_honor(tile):
            for first in (tile - 2, tile - 1, tile):
                if first < 0 or not same_suit(first, tile) or not same_suit(first + 2, tile):
                    continue
                if rank_of(first) > 7:
                    continue
                if all(s.counts[t] for t in (first, first + 1, first + 2) if t != tile):
                    deny = self.chow_kuikae(tile, first)
                    rest = s.counts[:]
                    for t in (first, first + 1, first + 2):
                        if t != tile:
                            rest[t] -= 1
                    if any(rest[t] for t in range(NUM_KINDS) if t not in deny):
                        chows.append(first)
        return chows, pung, kong

    def on_claim(self, ev: Claim) -> None:
        seat = _seat_index(ev.seat)
        if self.phase != Phase.DISCARD:
            raise self.fail("no discard to claim")
        assert self.discard is not None
        discarder, tile, red, _ = self.discard
        chows, pung, kong = self.claims(seat)
        tiles = tuple(sorted(ev.tiles))
        if tile not in tiles:
            raise self.fail(f"the meld does not hold the discard {format_tile(tile)}")
        if ev.kind == MeldKind.CHOW:
            if len(tiles) != 3 or tiles[0] not in chows or tiles != (tiles[0], tiles[0] + 1, tiles[0] + 2):
                raise self.fail(f"{ev.seat.name} may not chow {tiles}")
            meld = _Meld(MeldKind.CHOW, tile, source=discarder, claimed=tile, first=tiles[0])
        elif ev.kind == MeldKind.PUNG:
            if not pung or tiles != (tile,) * 3:
                raise self.fail(f"{ev.seat.name} may not pung {format_tile(tile)}")
            meld = _Meld(MeldKind.PUNG, tile, source=discarder, claimed=tile)
        elif ev.kind == MeldKind.KONG:
            if not kong or tiles != (tile,) * 4:
                raise self.fail(f"{ev.seat.name} may not kong {format_tile(tile)}")
            meld = _Meld(MeldKind.KONG, tile, source=discarder, claimed=tile)
        else:
            raise self.fail(f"{ev.kind} is not a claim")
        reds = list(ev.red_fives)
        if red:
            if tile not in reds:
                raise self.fail("the claimed discard is a red five: list it in red_fives")
            reds.remove(tile)
        own = [t for t in tiles]
        own.remove(tile)
        for t in own:
            r = t in reds
            if r:
                reds.remove(t)
            self.take(seat, t, r)
        if reds:
            raise self.fail("red_fives names tiles that are not red fives of the meld")
        meld.reds = len(ev.red_fives)
        self.close_discard()
        self.seats[discarder].river_clean = False
        s = self.seats[seat]
        s.melds.append(meld)
        self.first_round = False
        for x in self.seats:
            x.ippatsu = False
        self.turn = seat
        self.drawn = None
        if meld.kind == MeldKind.KONG:
            s.kongs += 1
            self.kongs += 1
            self.dora_owed += 1
            self.rinshan = True
            self.phase = Phase.DRAW
        else:
            self.after_claim = True
            self.rinshan = False
            self.kuikae = (self.chow_kuikae(tile, meld.first) if meld.kind == MeldKind.CHOW
                           else frozenset() if self.opts.swap_calling else frozenset({tile}))
            self.phase = Phase.TURN

    def turn_kongs(self, seat: int) -> list[tuple[int, bool]]:
        """(tile, added) kongs `seat` may declare in its turn."""
        s = self.seats[seat]
        if self.after_claim or self.left == 0 or self.kongs >= MAX_KONGS:
            return []
        out: list[tuple[int, bool]] = []
        for t in range(NUM_KINDS):
            if s.counts[t] == 4:
                if s.riichi and not self.riichi_kong_ok(seat, t):
                    continue
                out.append((t, False))
        if not s.riichi:
            for m in s.melds:
                if m.kind == MeldKind.PUNG and s.counts[m.tile]:
                    out.append((m.tile, True))
        return out

    def riichi_kong_ok(self, seat: int, tile: int) -> bool:
        """After riichi: a concealed kong of the tile just drawn that keeps the hand ready on as many waits."""
        if tile != self.drawn:
            return False
        s = self.seats[seat]
        c = s.counts
        c[tile] -= 1
        before = len(waits(c))
        c[tile] -= 3
        after = waits(c)
        c[tile] += 4
        return bool(after) and len(after) >= before

    def on_kong(self, ev: Kong) -> None:
        seat = _seat_index(ev.seat)
        if self.phase != Phase.TURN or seat != self.turn:
            raise self.fail(f"{ev.seat.name} may not declare a kong now")
        if (ev.tile, ev.added) not in self.turn_kongs(seat):
            raise self.fail(f"{ev.seat.name} may not declare {'an added' if ev.added else 'a concealed'} kong of "
                            f"{format_tile(ev.tile)}")
        s = self.seats[seat]
        if ev.added:
            self.take(seat, ev.tile, ev.red)
            for m in s.melds:
                if m.kind == MeldKind.PUNG and m.tile == ev.tile:
                    m.kind = MeldKind.KONG
                    m.added = True
                    m.reds += 1 if ev.red else 0
            self.rob = (seat, ev.tile, ev.red)
            self.phase = Phase.ROB
        else:
            reds = s.reds[_five_suit(ev.tile)] if ev.tile in FIVES else 0
            if reds:
                s.reds[_five_suit(ev.tile)] = 0
            s.counts[ev.tile] -= 4
            s.version += 1
            s.melds.append(_Meld(MeldKind.KONG, ev.tile, concealed=True, reds=reds))
            self.phase = Phase.DRAW
            if self.opts.kokushi_robs_concealed_kong and any(
                    other != seat and _orphans_on(self.seats[other].counts, ev.tile) for other in range(self.n)):
                self.rob, self.rob_concealed, self.phase = (seat, ev.tile, False), True, Phase.ROB
        s.kongs += 1
        self.kongs += 1
        self.dora_owed += 1
        self.rinshan = True
        self.drawn = None
        self.turn = seat

    def may_kita(self, seat: int) -> bool:
        """Three players: `seat` may set a North aside now (kita): in its turn after a draw (not straight after
        a pung), holding a North, with a tile left to replace it; after riichi only the North just drawn."""
        if self.n != 3 or self.phase != Phase.TURN or seat != self.turn or self.after_claim or self.left <= 0:
            return False  # (a seat the table does not have, North of three, is never the turn)
        s = self.seats[seat]
        if not s.counts[NORTH] or s.kita >= MAX_KITA:
            return False
        return not s.riichi or self.drawn == NORTH

    def on_kita(self, ev: Kita) -> None:
        """A North set aside: open to a win on it (not robbing a kong: no chankan), then the seat draws its
        replacement. The first go-around ends at once; every ippatsu ends at the replacement draw (a win on
        the North keeps it)."""
        seat = _seat_index(ev.seat)
        if not self.may_kita(seat):
            raise self.fail(f"{ev.seat.name} may not set a North aside now (its turn after a draw, a North held, "
                            "a tile left; after riichi the North just drawn)")
        self.take(seat, NORTH, False)
        self.seats[seat].kita += 1
        self.rob, self.rob_kita, self.rob_concealed = (seat, NORTH, False), True, False
        self.phase = Phase.ROB
        self.first_round = False
        self.rinshan = True
        self.drawn = None
        self.turn = seat

    def on_dora(self, ev: DoraIndicator) -> None:
        if self.dora_owed <= 0:
            raise self.fail("no kong is owed a dora indicator")
        self.see(ev.tile, None)
        self.dora_owed -= 1
        self.dora.append(ev.tile)

    # -----------------------------------------------------------------------------------------
    # wins

    def hand(self, seat: int, win: int, win_red: bool, minus_win: bool) -> Hand:
        """`seat`'s hand winning on `win`: a tile it holds (`minus_win`, self-drawn) or the discard."""
        s = self.seats[seat]
        c = s.counts[:]
        if minus_win:
            c[win] -= 1
        concealed = tuple(t for t in range(NUM_KINDS) for _ in range(c[t]))
        melds = []
        reds: list[int] = []
        for suit, n in enumerate(s.reds):
            reds += [FIVES[suit]] * n
        if win_red and not minus_win:  # a drawn red five is among s.reds already
            reds.append(win)
        for m in s.melds:
            cf = ClaimedFrom.NONE if m.source is None else _relative(seat, m.source, self.n)
            tiles = m.tiles()
            ci = None
            if m.claimed is not None:
                ci = tiles.index(m.claimed)
            melds.append(Meld(m.kind, tiles, m.concealed, m.added, cf, ci))
            reds += [m.tile if m.kind != MeldKind.CHOW else FIVES[suit_of(m.first)]] * m.reds
        return Hand(concealed, tuple(melds), win, tuple(sorted(reds)))

    def common_context(self, seat: int) -> WinContext:
        """What every win of `seat` now shares: winds, riichi, ippatsu, dora, honba and sticks (the first
        winner's)."""
        s = self.seats[seat]
        first = not self.wins
        honba = self.log.honba if first else 0
        sticks = (self.log.riichi_sticks + len(self.deposits)) if first else 0
        return WinContext(seat_wind=Wind(seat), prevalent_wind=self.log.prevalent_wind,
                          riichi=s.riichi == 1, double_riichi=s.riichi == 2, ippatsu=s.ippatsu,
                          dora_indicators=tuple(self.dora), honba=honba, riichi_sticks=sticks, kita=s.kita)

    def win_situation(self, seat: int) -> tuple[Hand, WinContext, int | None] | None:
        """The hand, context and discarder of a win by `seat` now, or None when the shape is not complete."""
        s = self.seats[seat]
        if self.phase == Phase.TURN:
            if seat != self.turn or self.after_claim:
                return None
            if not complete(s.counts):
                return None
            win = self.drawn
            if win is None:  # the dealer's dealt 14 tiles: any tile may be the 14th
                win = next(t for t in range(NUM_KINDS) if s.counts[t])
            win_red = self.drawn_red if self.drawn is not None else False
            hand = self.hand(seat, win, win_red, True)
            ctx = replace(self.common_context(seat), self_drawn=True, replacement_tile=self.rinshan,
                          last_wall_tile=self.left == 0 and not self.rinshan,
                          heavenly=self.first_round and seat == 0, earthly=self.first_round and seat != 0)
            return hand, ctx, None
        if self.phase in (Phase.DISCARD, Phase.OVER) and self.discard is not None and self.rob is None:
            discarder, tile, red, _ = self.discard
            robbing = False
        elif self.phase in (Phase.ROB, Phase.OVER) and self.rob is not None:
            discarder, tile, red = self.rob
            robbing = True
        else:
            return None
        if seat == discarder or not completes_near(s.counts, tile):
            return None
        if robbing and self.rob_concealed and not _orphans_on(s.counts, tile):
            return None  # a concealed kong is robbed for thirteen orphans only
        hand = self.hand(seat, tile, red, False)
        renhou = (self.opts.renhou != Renhou.OFF and self.first_round and seat != 0 and not s.discarded
                  and not robbing)
        ctx = replace(self.common_context(seat), robbing_kong=robbing and not self.rob_kita,
                      last_wall_tile=self.left == 0 and not robbing,
                      discarded_by=_relative(seat, discarder, self.n), earthly=renhou)
        return hand, ctx, discarder

    def evaluate(self, hand: Hand, ctx: WinContext) -> Evaluation:
        from engine import api  # engine.api imports the rule sets, this one included

        return api.evaluate(hand, ctx, RULE_SET, self.opts)

    def can_win(self, seat: int) -> bool:
        sit = self.win_situation(seat)
        if sit is None:
            return False
        hand, ctx, discarder = sit
        if discarder is not None and not self.may_ron(seat):
            return False
        return self.best_evaluation(hand, ctx).is_win

    def may_ron(self, seat: int) -> bool:
        """Not in furiten: no temporary or riichi furiten (`can_ron`), and no wait of the seat's hand among its
        own discards. The latter is worked out here, when asked, from the hand and the discards: neither
        changes between the seat's discard and its next turn, so this is what majiang-core decides at each
        discard (and a riichi hand's waits stay while its discards only grow)."""
        s = self.seats[seat]
        return s.can_ron and not (s.river_tiles and not s.river_tiles.isdisjoint(self.waits_of(seat)))

    def best_evaluation(self, hand: Hand, ctx: WinContext) -> Evaluation:
        """The win's evaluation; the dealer's dealt 14 tiles (no tile drawn) are scored with the 14th tile
        that pays most."""
        if not (self.phase == Phase.TURN and self.drawn is None):
            return self.evaluate(hand, ctx)
        tiles = list(hand.concealed) + ([hand.winning_tile] if hand.winning_tile is not None else [])
        best: Evaluation | None = None
        for w in sorted(set(tiles)):
            rest = list(tiles)
            rest.remove(w)
            e = self.evaluate(replace(hand, concealed=tuple(sorted(rest)), winning_tile=w), ctx)
            if best is None or (e.is_win and (not best.is_win or _points(e) > _points(best))):
                best = e
        assert best is not None
        return best

    def ron_status(self, seat: int) -> tuple[bool, bool]:
        """(may win on the open discard or robbed kong now, is in furiten for it): `can_win` and `furiten`
        from one look at the seat's hand."""
        sit = self.win_situation(seat)
        if sit is None:
            return False, False
        hand, ctx, discarder = sit
        if discarder is not None and not self.may_ron(seat):
            return False, True
        return self.best_evaluation(hand, ctx).is_win, False

    def can_add_ron(self, ev: Win) -> bool:
        return (not ev.self_drawn and len(self.wins) < self.opts.max_ron and bool(self.wins)
                and self.wins[0].discarder is not None)

    def on_win(self, ev: Win) -> None:
        seat = _seat_index(ev.seat)
        if ev.horses:
            raise self.fail("Riichi turns no horse tiles")
        if any(w.seat == seat for w in self.wins):
            raise self.fail(f"{ev.seat.name} has won already")
        if ev.self_drawn:
            if self.phase != Phase.TURN or seat != self.turn or self.after_claim:
                raise self.fail(f"{ev.seat.name} has no tile of its own draw to win on")
        elif self.phase not in (Phase.DISCARD, Phase.ROB, Phase.OVER):
            raise self.fail(f"no discard or added kong for {ev.seat.name} to win on")
        elif self.phase == Phase.OVER and len(self.wins) >= self.opts.max_ron:
            raise self.fail(f"at most {self.opts.max_ron} players win on one discard (option max_ron)")
        sit = self.win_situation(seat)
        if sit is None:
            raise self.fail(f"{ev.seat.name}'s hand is not complete")
        hand, ctx, discarder = sit
        if discarder is not None and not self.may_ron(seat):
            raise self.fail(f"{ev.seat.name} is in furiten: no win on a discard")
        if self.wins and discarder is not None and ((seat - discarder) % self.n
                                                    < (self.wins[-1].seat - discarder) % self.n):
            raise self.fail("several wins on one discard are listed in turn order from the discarder")
        s = self.seats[seat]
        if ev.ura_dora_indicators:
            if not s.riichi:
                raise self.fail("ura dora are turned for a riichi winner only")
            if len(ev.ura_dora_indicators) > len(self.dora):
                raise self.fail("one ura dora indicator per dora indicator at most")
            ctx = replace(ctx, ura_dora_indicators=tuple(ev.ura_dora_indicators))
        try:
            ev_best = self.best_evaluation(hand, ctx)
        except EngineError as err:
            raise self.fail(f"the win cannot be scored: {err.message}") from None
        if not ev_best.is_win:
            reason = ev_best.best.reason if ev_best.best is not None else "no winning shape"
            raise self.fail(f"{ev.seat.name}'s hand does not win: {reason}")
        self.wins.append(_Won(seat, discarder, ev_best, ctx, self.index))
        self.phase = Phase.OVER

    # -----------------------------------------------------------------------------------------
    # drawn games

    def nine_terminals(self, seat: int) -> bool:
        s = self.seats[seat]
        return (self.opts.abortive_draws and self.phase == Phase.TURN and seat == self.turn and self.first_round
                and not self.after_claim
                and not s.discarded and sum(1 for t in _ORPHANS if s.counts[t]) >= 9)

    def ron_seats(self) -> list[int]:
        return [x for x in range(self.n) if self.can_win(x)]

    def on_drawn_game(self, ev: DrawnGame) -> None:
        kind = ev.kind
        if kind == DrawnGameKind.NINE_TERMINALS:
            if not self.nine_terminals(self.turn):
                raise self.fail("nine terminals is declared on a player's first draw, with nine different "
                                "terminals and honours, before any call")
        elif kind == DrawnGameKind.THREE_RON:
            if self.phase != Phase.DISCARD or len(self.ron_seats()) < 3 or self.opts.max_ron != 2:
                raise self.fail("three ron needs three players able to win on the discard (and max_ron 2)")
        else:
            if self.phase != Phase.DISCARD:
                raise self.fail(f"{kind.name.lower()} ends the hand after a discard")
            pending = self.pending_abort()
            if pending != kind:
                raise self.fail(f"no {kind.name.lower()} here"
                                + (f" (the hand ends with {pending.name.lower()})" if pending else ""))
            self.close_discard()
        self.drawn_game = kind
        self.drawn_game_index = self.index
        self.phase = Phase.OVER

    # -----------------------------------------------------------------------------------------
    # legal

    def legal(self) -> tuple[SeatActions, ...]:
        if self.phase == Phase.DEAL:
            return ()
        if self.phase == Phase.OVER:
            last = self.wins[-1] if self.wins else None
            if last is not None and last.discarder is not None and len(self.wins) < self.opts.max_ron:
                tile = self.rob[1] if self.rob is not None else self.discard[1] if self.discard is not None else 0
                order = (last.seat - last.discarder) % self.n
                return tuple(SeatActions(Wind(seat), (Action(ActionKind.WIN_DISCARD, (tile,)), Action(ActionKind.PASS)))
                             for seat in range(self.n)
                             if (seat - last.discarder) % self.n > order and self.can_win(seat))
            return ()
        if self.phase == Phase.DRAW:
            return (SeatActions(Wind(self.turn), (Action(ActionKind.DRAW),)),)
        if self.phase == Phase.TURN:
            return (self.turn_actions(self.turn),)
        if self.phase == Phase.ROB:
            assert self.rob is not None
            owner = self.rob[0]
            out = []
            for seat in range(self.n):
                if seat == owner:
                    continue
                wins, fur = self.ron_status(seat)
                if wins:
                    out.append(SeatActions(Wind(seat), (Action(ActionKind.WIN_DISCARD, (self.rob[1],)),
                                                        Action(ActionKind.PASS))))
                elif fur:
                    out.append(SeatActions(Wind(seat), (), furiten=True))
            out.append(SeatActions(Wind(owner), (Action(ActionKind.DRAW),)))
            return tuple(sorted(out, key=lambda a: a.seat))
        assert self.discard is not None
        discarder, tile, _, _ = self.discard
        pending = self.pending_abort()
        nxt = (discarder + 1) % self.n
        out = []
        for seat in range(self.n):
            if seat == discarder:
                continue
            acts: list[Action] = []
            wins, fur = self.ron_status(seat)
            if wins:
                acts.append(Action(ActionKind.WIN_DISCARD, (tile,)))
            chows, pung, kong = self.claims(seat)
            if kong:
                acts.append(Action(ActionKind.KONG_CLAIMED, (tile,) * 4))
            if pung:
                acts.append(Action(ActionKind.PUNG, (tile,) * 3))
            for f in chows:
                acts.append(Action(ActionKind.CHOW, (f, f + 1, f + 2)))
            if acts:
                acts.append(Action(ActionKind.PASS))
            if seat == nxt:
                acts.append(Action(ActionKind.DRAW) if pending is None else Action(ActionKind.DRAWN_GAME))
            if acts or fur:
                out.append(SeatActions(Wind(seat), tuple(acts), furiten=fur))
        return tuple(out)

    def turn_actions(self, seat: int) -> SeatActions:
        acts: list[Action] = []
        if not self.after_claim and self.can_win(seat):
            acts.append(Action(ActionKind.WIN_SELF_DRAWN))
        if self.nine_terminals(seat):
            acts.append(Action(ActionKind.NINE_TERMINALS))
        if self.may_kita(seat):
            acts.append(Action(ActionKind.KITA, (NORTH,)))
        for t, added in self.turn_kongs(seat):
            acts.append(Action(ActionKind.KONG_ADDED if added else ActionKind.KONG_CONCEALED, (t,) * 4))
        for t in self.riichi_tiles(seat):
            acts.append(Action(ActionKind.RIICHI, (t,)))
        for t in self.discardable(seat):
            acts.append(Action(ActionKind.DISCARD, (t,)))
        return SeatActions(Wind(seat), tuple(acts))

    # -----------------------------------------------------------------------------------------
    # money

    def ready(self, seat: int) -> bool:
        return bool(self.waits_of(seat))

    def settlement(self) -> Settlement:
        if self.phase != Phase.OVER:
            raise BadLogError("log.events: the hand has not ended (no win, no drawn game)", "log.events")
        lines: list[MoneyLine] = []
        for seat, at in self.deposits:
            lines.append(MoneyLine(Wind(seat), None, RIICHI_COST, RIICHI_DEPOSIT, at))
        honba = self.log.honba
        sticks_before = self.log.riichi_sticks
        ready = [False] * self.n
        if self.wins:
            for w in self.wins:
                lines += self.win_lines(w)
            dealer_continues = any(w.seat == 0 for w in self.wins)
            honba_next = honba + 1 if dealer_continues else 0
            sticks_next = 0
        else:
            assert self.drawn_game is not None
            at = self.drawn_game_index
            if self.drawn_game == DrawnGameKind.EXHAUSTIVE:
                ready = [self.ready(s) for s in range(self.n)]
                nagashi = [s for s in range(self.n) if self.seats[s].river_clean and self.seats[s].river
                           and self.opts.nagashi_mangan]
                if nagashi:
                    for s in nagashi:
                        shares = tsumo_shares(MANGAN_BASE, s, self.n, self.opts.tsumo_loss)
                        for p in range(self.n):
                            if p != s:
                                amount = shares[p]
                                lines.append(MoneyLine(Wind(p), Wind(s), amount, NAGASHI_MANGAN, at))
                else:
                    n_ready = sum(ready)
                    if 0 < n_ready < self.n and self.opts.noten_payments:
                        total = NOTEN_TOTAL if self.n == SEATS else NOTEN_TOTAL_3
                        share = total // (n_ready * (self.n - n_ready))
                        for p in range(self.n):
                            for s in range(self.n):
                                if not ready[p] and ready[s]:
                                    lines.append(MoneyLine(Wind(p), Wind(s), share, TENPAI, at))
                dealer_continues = ready[0]
            else:
                dealer_continues = True
            honba_next = honba + 1
            sticks_next = sticks_before + len(self.deposits)
        net, pot = nets_and_pot(lines, self.n)
        return Settlement(
            seats=tuple(SeatMoney(Wind(s), net[s], ready[s]) for s in range(self.n)),
            lines=tuple(lines), wins=tuple(w.evaluation for w in self.wins), honba_next=honba_next,
            riichi_sticks_next=sticks_next, dealer_continues=dealer_continues, pot=pot)

    def win_lines(self, w: _Won) -> list[MoneyLine]:
        """A win's money as lines: the scorer's payments split into honba, sticks, pao and the hand."""
        best = w.evaluation.best
        assert best is not None
        change = dict(best.payments)
        at = w.index
        winner = w.seat
        honba = w.context.honba
        liable, liable_base = self.pao(w)
        pao_amount = 0
        honba_from: dict[int, int] = {}
        if liable is not None:
            dealer = winner == 0
            if w.discarder is not None:
                pao_amount = (liable_base // 2) * (6 if dealer else 4)
            else:
                pao_amount = sum(tsumo_shares(liable_base, winner, self.n, self.opts.tsumo_loss))
        per_honba = 150 if self.n == 3 and not self.opts.tsumo_loss else 100  # from each payer of a self-draw
        if honba:
            if w.discarder is not None:
                honba_from[w.discarder] = per_honba * (self.n - 1) * honba
            elif liable is not None and best.yakuman * YAKUMAN_BASE == liable_base:
                honba_from[liable] = per_honba * (self.n - 1) * honba
            else:
                honba_from = {p: per_honba * honba for p in range(self.n) if p != winner}
        out: list[MoneyLine] = []
        for p in range(self.n):
            if p == winner:
                continue
            paid = -change.get(p, 0) - honba_from.get(p, 0)
            if p == liable and pao_amount:
                out.append(MoneyLine(Wind(p), Wind(winner), pao_amount, PAO, at))
                paid -= pao_amount
            if paid > 0:
                out.append(MoneyLine(Wind(p), Wind(winner), paid, WIN, at))
            if honba_from.get(p):
                out.append(MoneyLine(Wind(p), Wind(winner), honba_from[p], HONBA, at))
        if w.context.riichi_sticks:
            out.append(MoneyLine(Wind(winner), None, -RIICHI_COST * w.context.riichi_sticks, RIICHI_STICKS, at))
        return out

    def pao(self, w: _Won) -> tuple[int | None, int]:
        """The pao seat of a win scored with big three dragons / big four winds whose last set was fed by a
        claim, and the base points it answers for (the scorer's rule, engine/rules/riichi/payments.py)."""
        best = w.evaluation.best
        if best is None or not best.yakuman:
            return None, 0
        ids = {h.fan.id for h in best.fans}
        for yaku, group, value in ((Fan.DAISANGEN, DRAGONS, 1),
                                   (Fan.DAISUUSHII, WINDS, 2 if self.opts.double_yakuman else 1)):
            if int(yaku) not in ids:
                continue
            sets = [m for m in self.seats[w.seat].melds if m.kind != MeldKind.CHOW and m.tile in group]
            if len(sets) == len(group) and sets[-1].source is not None:
                return sets[-1].source, YAKUMAN_BASE * value
        return None, 0


# ---------------------------------------------------------------------------------------------
# The contract


def replay(log: HandLog) -> Table:
    table = Table(log)
    for i, ev in enumerate(log.events):
        table.apply(i, ev)
    return table


def legal(log: HandLog) -> tuple[SeatActions, ...]:
    """The seats that may act after the log's last event, each with what it may do."""
    return replay(log).legal()


def settle(log: HandLog) -> Settlement:
    """The money of a hand whose log has ended."""
    return replay(log).settlement()


REFEREE: Final = Referee(legal=legal, settle=settle)
