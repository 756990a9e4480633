"""The contract's hand log (`engine.referee.HandLog`) read by the Chinese replays, and their answers written
as the contract's: one reader for MCR, the two-player table, Hong Kong, Guangdong (`engine.rules.round`'s
one-winner `Table`) and Sichuan (`engine.rules.sichuan.referee`'s bloody `Round`).

The reader plays each contract event on the replay's methods (`begin(index, what)`, then `on_deal`,
`on_draw`, `on_flower`, `on_discard`, `on_claim`, `on_kong_event`, `on_win`, `on_false_win`, `on_exchange`,
`on_void`, `on_wall_end_event`), with each seat as its turn-order index: East (the dealer) 0, South 1,
West 2, North 3; the two-player table East 0 and its `other_wind` 1 (West by default: mcr2p's
`non_dealer_seat`); Guangdong's three players East, South, West. What the log leaves implicit comes from
the replay's state at that point of play: a discard win's tile and discarder (the open discard, or the
added kong being robbed), a self-drawn win's tile (the tile just drawn; on the dealer's first turn, the one
of its 14 that scores best), a claim's discarder (and a chow's lowest tile, from its meld). Sichuan's four
VoidSuit events are played as one declaration once all four seats have made theirs.

What a Chinese rule set does not read is refused, never ignored: red fives, riichi, dora and ura indicators,
kita, abortive draws, horses outside Guangdong (ILLEGAL_EVENT naming the event), honba, riichi sticks and
scores (BAD_LOG naming the log field); Sichuan also refuses a prevalent wind other than East. Every fault is
engine.referee's one IllegalEventError.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from engine.hand import MeldKind, Suit, Wind
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
    ExchangeThree,
    FalseWin,
    FlowerTile,
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
    VoidSuit,
    Win,
    nets_and_pot,
)
from engine.results import Evaluation
from engine.rules import round as rnd
from engine.tile_kinds import SUIT_FIRSTS
from engine.tiles import format_tile


def check_log_fields(log: HandLog) -> None:
    """BAD_LOG for the log fields a Chinese rule set does not read, and for options of another rule set."""
    from engine.rules import catalog  # the rule sets' packages import their referees, and so this module

    options_type = catalog.get(log.rule_set).options_type
    if log.options is not None and not isinstance(log.options, options_type):
        raise BadLogError(f"log.options: {log.rule_set} takes {options_type.__name__}, not "
                          f"{type(log.options).__name__}", "log.options")
    for name in ("honba", "riichi_sticks"):
        if getattr(log, name):
            raise BadLogError(f"log.{name}: {log.rule_set} has no {name.replace('_', ' ')}", f"log.{name}")
    if log.scores:
        raise BadLogError(f"log.scores: {log.rule_set} does not read the scores before the hand", "log.scores")


class Reader:
    """Reads the contract's events one by one onto a replay (`state`: a round.Table or a sichuan Round)."""

    def __init__(self, state: Any, rule_set: str, winds: Sequence[Wind]) -> None:
        self.state = state
        self.rule_set = rule_set
        self.winds = tuple(winds)
        self.voids: dict[int, VoidSuit] = {}  # Sichuan: the void suits declared so far
        self.index = 0

    def fail(self, message: str) -> IllegalEventError:
        return IllegalEventError(self.index, message)

    def seat(self, wind: Wind) -> int:
        if wind not in self.winds:
            raise self.fail(f"{Wind(wind).name.title()} does not sit at this table "
                            f"({', '.join(w.name.title() for w in self.winds)})")
        return self.winds.index(wind)

    def refuse(self, what: str) -> IllegalEventError:
        return self.fail(f"{what}: not read by {self.rule_set}")

    # -- one event ----------------------------------------------------------------------------

    def apply(self, index: int, ev: HandEvent) -> None:
        """Event `index` read and played on the replay (`state.begin`, then its `on_*` method)."""
        self.index = index
        if self.voids and not isinstance(ev, VoidSuit):
            raise self.fail("every seat declares its void suit before the play")
        st = self.state
        if isinstance(ev, VoidSuit):  # Sichuan's four void suits are played together, once all are declared
            voids = self.void(ev)
            if voids is not None:
                st.begin(index, "VoidSuit")
                st.on_void(*voids)
            return
        if isinstance(ev, (DoraIndicator, Kita)):
            raise self.refuse(type(ev).__name__)
        if not isinstance(ev, (Deal, Draw, Discard, Claim, Kong, Win, DrawnGame, FlowerTile, FalseWin, ExchangeThree)):
            raise self.fail(f"{type(ev).__name__} is not an event")
        if isinstance(ev, Deal):
            hands = self.deal(ev)
            st.begin(index, "Deal")
            st.on_deal(hands)
            return
        if isinstance(ev, ExchangeThree):
            passed, to = self.exchange(ev)
            st.begin(index, "ExchangeThree")
            st.on_exchange(passed, to)
            return
        if isinstance(ev, DrawnGame):
            if ev.kind != DrawnGameKind.EXHAUSTIVE:
                raise self.refuse(f"the drawn game {DrawnGameKind(ev.kind).name}")
            st.begin(index, "DrawnGame")
            st.on_wall_end_event()
            return
        if isinstance(ev, (Draw, Discard, Kong)) and ev.red:
            raise self.refuse("a red five")
        if isinstance(ev, Discard) and ev.riichi:
            raise self.refuse("riichi")
        seat = self.seat(ev.seat)
        st.begin(index, type(ev).__name__)
        if isinstance(ev, Draw):
            st.on_draw(seat, ev.tile)
        elif isinstance(ev, Discard):
            st.on_discard(seat, ev.tile)
        elif isinstance(ev, Claim):
            st.on_claim(seat, ev.kind, *self.claim(ev))
        elif isinstance(ev, Kong):
            st.on_kong_event(seat, ev.tile, not ev.added)
        elif isinstance(ev, Win):
            self.win(seat, ev)
        elif isinstance(ev, FlowerTile):
            st.on_flower(seat, ev.flower)
        else:
            st.on_false_win(seat)

    def deal(self, ev: Deal) -> tuple[tuple[int, ...], ...]:
        """The hands in turn order (East, the dealer, first)."""
        if ev.dora_indicators:
            raise self.refuse("a dora indicator")
        hands: list[tuple[int, ...] | None] = [None] * len(self.winds)
        for h in ev.hands:
            seat = self.seat(h.seat)
            if h.red_fives:
                raise self.refuse("a red five")
            if hands[seat] is not None:
                raise self.fail(f"{h.seat.name.title()} is dealt two hands")
            hands[seat] = h.tiles
        missing = [self.winds[s].name.title() for s, h in enumerate(hands) if h is None]
        if missing:
            raise self.fail(f"the deal gives no hand to {', '.join(missing)}")
        return tuple(h for h in hands if h is not None)

    def claim(self, ev: Claim) -> tuple[int, int, int | None]:
        """The claimed tile, its discarder (the open discard) and a chow's lowest tile, from the meld."""
        if ev.red_fives:
            raise self.refuse("a red five")
        open_discard = getattr(self.state, "discard", None)
        if open_discard is None:
            raise self.fail("a claim with no discard open to it")
        discarder, tile = open_discard
        tiles = sorted(ev.tiles)
        want = {MeldKind.PUNG: [tile] * 3, MeldKind.KONG: [tile] * 4}.get(ev.kind)
        chow_first = None
        if ev.kind == MeldKind.CHOW:
            if len(tiles) != 3 or tile not in tiles or tiles != [tiles[0], tiles[0] + 1, tiles[0] + 2]:
                raise self.fail(f"a chow of {format_tile(tile)} is three tiles in a row with it, not "
                                f"{' '.join(format_tile(t) for t in ev.tiles)}")
            chow_first = tiles[0]
        elif tiles != want:
            raise self.fail(f"a {ev.kind.name.lower()} of the discarded {format_tile(tile)} is "
                            f"{len(want or ())} of it, not {' '.join(format_tile(t) for t in ev.tiles)}")
        return tile, discarder, chow_first

    def win(self, seat: int, ev: Win) -> None:
        """The win played with its tile and discarder read from the point of play: the tile just drawn (the
        dealer's first turn: the best of its 14), the added kong being robbed, or the open discard."""
        if ev.ura_dora_indicators:
            raise self.refuse("an ura-dora indicator")
        if ev.horses and self.rule_set != "guangdong":
            raise self.refuse("a horse")
        s = self.state
        if ev.self_drawn:
            if s.drawn_tile is None:
                self.best_start_win(seat, ev.horses)
            else:
                s.on_win(seat, s.drawn_tile, None, ev.horses)
            return
        if s.rob is not None:
            owner, tile = s.rob
            s.on_win(seat, tile, owner, ev.horses)
            return
        if s.discard is None:
            raise self.fail("a win on a discard with no discard open to it")
        discarder, tile = s.discard
        s.on_win(seat, tile, discarder, ev.horses)

    def best_start_win(self, seat: int, horses: tuple[int, ...]) -> None:
        """The dealer's first-turn win: the one of its 14 tiles that scores best is the winning tile."""
        held = [t for t, n in enumerate(self.state.seats[seat].counts) if n]
        best: tuple[int, int] | None = None
        for t in held:
            trial = copy.deepcopy(self.state)
            try:
                trial.on_win(seat, t, None, horses)
            except IllegalEventError:
                continue
            value = win_value(trial.wins[-1])
            if best is None or value > best[0]:
                best = (value, t)
        if best is None:
            raise self.fail(f"{self.winds[seat].name.title()}'s hand does not win")
        self.state.on_win(seat, best[1], None, horses)

    def void(self, ev: VoidSuit) -> tuple[tuple[Suit, ...], tuple[int | None, ...]] | None:
        """The void suits once every seat has declared one (None before)."""
        seat = self.seat(ev.seat)
        if seat in self.voids:
            raise self.fail(f"{ev.seat.name.title()} declares a void suit twice")
        self.voids[seat] = ev
        if len(self.voids) < len(self.winds):
            return None
        voids = [self.voids[s] for s in range(len(self.winds))]
        self.voids = {}
        return tuple(v.suit for v in voids), tuple(v.set_aside for v in voids)

    def exchange(self, ev: ExchangeThree) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """The tiles each seat passes, and to whom, in turn order."""
        by_seat: dict[int, tuple[tuple[int, ...], int]] = {}
        for x in ev.exchanges:
            seat = self.seat(x.seat)
            if seat in by_seat:
                raise self.fail(f"{x.seat.name.title()} passes tiles twice")
            by_seat[seat] = (x.tiles, self.seat(x.to))
        if len(by_seat) != len(self.winds):
            raise self.fail("every seat passes three tiles")
        order = range(len(self.winds))
        return tuple(by_seat[s][0] for s in order), tuple(by_seat[s][1] for s in order)


def win_value(record: Any) -> int:
    """A win's worth, for choosing the best of the dealer's 14: the Sichuan round's value, a Table's total."""
    value = getattr(record, "value", None)
    return int(value) if value is not None else int(record.scoring.total)


def replay(log: HandLog, state: Any, winds: Sequence[Wind]) -> Reader:
    """Every event of the log read and played into `state`."""
    check_log_fields(log)
    reader = Reader(state, log.rule_set, winds)
    for i, ev in enumerate(log.events):
        reader.apply(i, ev)
    return reader


# -- the answers -------------------------------------------------------------------------------------


def seat_actions(reader: Reader, legal: Sequence[rnd.SeatLegal], flowers_due: Sequence[int] = ()
                 ) -> tuple[SeatActions, ...]:
    """The replay's SeatLegal as the contract's SeatActions (seats with nothing to do left out). A seat that
    may win or claim may also PASS; `flowers_due`: seats with a dealt flower still to show."""
    state = reader.state
    robbed = getattr(state, "rob", None)
    open_tile = robbed[1] if robbed is not None else state.discard[1] if state.discard is not None else None
    out = []
    for sl in legal:
        acts: list[Action] = []
        if sl.seat in reader.voids:
            continue
        acts += [Action(ActionKind.EXCHANGE, (SUIT_FIRSTS[u],)) for u in sl.exchange_suits]
        acts += [Action(ActionKind.VOID_SUIT, (SUIT_FIRSTS[u],)) for u in sl.void_suits]
        if sl.seat in flowers_due:
            acts.append(Action(ActionKind.FLOWER))
        if sl.self_win:
            acts.append(Action(ActionKind.WIN_SELF_DRAWN))
        acts += [Action(ActionKind.KONG_CONCEALED if concealed else ActionKind.KONG_ADDED, (t,) * 4)
                 for t, concealed in sl.kongs]
        acts += [Action(ActionKind.DISCARD, (t,)) for t in sl.discards]
        claims: list[Action] = []
        if sl.win:
            claims.append(Action(ActionKind.WIN_DISCARD, () if open_tile is None else (open_tile,)))
        if open_tile is not None:
            if sl.kong:
                claims.append(Action(ActionKind.KONG_CLAIMED, (open_tile,) * 4))
            if sl.pung:
                claims.append(Action(ActionKind.PUNG, (open_tile,) * 3))
        claims += [Action(ActionKind.CHOW, (f, f + 1, f + 2)) for f in sl.chows]
        if claims:
            acts += [*claims, Action(ActionKind.PASS)]
        if sl.draw:
            acts.append(Action(ActionKind.DRAW))
        if sl.wall_end:
            acts.append(Action(ActionKind.DRAWN_GAME))
        if acts:
            out.append(SeatActions(reader.winds[sl.seat], tuple(acts)))
    return tuple(out)


def settlement(reader: Reader, complete: bool, transfers: Sequence[Any], wins: Sequence[Evaluation],
               ready: Sequence[bool | None] = (), dealer_continues: bool = False,
               reason: Callable[[Any], str] = lambda t: str(t.kind).upper()) -> Settlement:
    """The contract's Settlement from the replay's transfers (payer, payee None = the pot, amount, at_event)."""
    if not complete:
        raise BadLogError("log.events: the hand has not ended (no final win, no drawn game)", "log.events")
    winds = reader.winds
    net, pot = nets_and_pot(transfers, len(winds))
    lines = [MoneyLine(winds[t.payer], None if t.payee is None else winds[t.payee], t.amount, reason(t), t.at_event)
             for t in transfers]
    ready = list(ready) or [False] * len(winds)
    return Settlement(seats=tuple(SeatMoney(w, net[s], bool(ready[s])) for s, w in enumerate(winds)),
                      lines=tuple(lines), wins=tuple(wins), dealer_continues=dealer_continues, pot=pot)


# -- the one-winner tables' referee ----------------------------------------------------------------------


def _table_replay(make: Callable[[HandLog], rnd.Table], log: HandLog) -> Reader:
    check_log_fields(log)  # before the table reads the options
    table = make(log)
    table.prevalent = log.prevalent_wind
    return replay(log, table, [table.wind(s) for s in range(table.seats_n)])


def table_referee(make: Callable[[HandLog], rnd.Table],
                  dealer_continues: Callable[[rnd.Table], bool] = lambda t: False) -> Referee:
    """The Referee of a one-winner table: `make` builds the rule set's Table for a log (its options), and
    `dealer_continues` says whether the dealer deals the next hand."""

    def legal(log: HandLog) -> tuple[SeatActions, ...]:
        reader = _table_replay(make, log)
        t = reader.state
        due = [s for s, st in enumerate(t.seats) if st.dealt_short] if (
            t.phase == rnd.Phase.OPENING and t.pending_opening is None) else []
        return seat_actions(reader, t.legal(), due)

    def settle(log: HandLog) -> Settlement:
        reader = _table_replay(make, log)
        out = reader.state.outcome()
        return settlement(reader, out.complete, out.transfers, [Evaluation(True, w.scoring) for w in out.wins],
                          dealer_continues=out.complete and dealer_continues(reader.state))

    return Referee(legal, settle)


def dealer_won_or_drawn(t: rnd.Table) -> bool:
    """The dealer deals again after its own win or a drawn game (Hong Kong, Guangdong)."""
    return not t.wins or any(w.seat == t.dealer for w in t.wins)
