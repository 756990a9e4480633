"""The referee's contract: a hand's log in (`HandLog`), what each seat may do (`legal`) and the settled
money (`settle`) out, for every rule set. Stateless: every call replays the whole log.

The types mirror `mahjong.v1`'s HandLog, HandEvent, LegalResponse and SettleResponse field for field
(mjsvc/convert.py maps them), with
engine values: tiles are engine indices (`engine.tiles`), seats `Wind`s (East deals), flowers `Flower`s.

Each rule set that has a referee gives `RuleSet.referee` a `Referee`: its `legal(log)` and `settle(log)`
live in the rule set's `referee.py`. An event the rules do not allow raises `IllegalEventError`
(code ILLEGAL_EVENT, field `log.events[N]`); a log that cannot be read, `BadLogError` (BAD_LOG); a rule
set without a referee, `NoRefereeError` (NO_REFEREE). Each is an `EngineError` (INVALID_ARGUMENT on the wire).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from engine.errors import BadLogError as BadLogError  # the contract's errors, re-exported
from engine.errors import IllegalEventError as IllegalEventError
from engine.errors import NoRefereeError
from engine.hand import Flower, MeldKind, Suit, Wind
from engine.results import Evaluation

# ---------------------------------------------------------------------------------------------
# The events (HandEvent)


class DrawnGameKind(IntEnum):
    EXHAUSTIVE = 1
    NINE_TERMINALS = 2
    FOUR_WINDS = 3
    FOUR_RIICHI = 4
    FOUR_KONGS = 5
    THREE_RON = 6


@dataclass(frozen=True)
class SeatTiles:
    seat: Wind
    tiles: tuple[int, ...]
    red_fives: tuple[int, ...] = ()


@dataclass(frozen=True)
class Deal:
    hands: tuple[SeatTiles, ...]
    dora_indicators: tuple[int, ...] = ()


@dataclass(frozen=True)
class Draw:
    seat: Wind
    tile: int
    red: bool = False


@dataclass(frozen=True)
class Discard:
    seat: Wind
    tile: int
    red: bool = False
    riichi: bool = False


@dataclass(frozen=True)
class Claim:
    """A chow, pung or kong of the last discard; `tiles` the whole meld."""

    seat: Wind
    kind: MeldKind
    tiles: tuple[int, ...]
    red_fives: tuple[int, ...] = ()


@dataclass(frozen=True)
class Kong:
    """A concealed kong, or (`added`) a tile added to the player's own pung."""

    seat: Wind
    tile: int
    added: bool = False
    red: bool = False


@dataclass(frozen=True)
class DoraIndicator:
    tile: int


@dataclass(frozen=True)
class Win:
    seat: Wind
    self_drawn: bool = False
    ura_dora_indicators: tuple[int, ...] = ()
    horses: tuple[int, ...] = ()


@dataclass(frozen=True)
class DrawnGame:
    kind: DrawnGameKind


@dataclass(frozen=True)
class VoidSuit:
    seat: Wind
    suit: Suit
    set_aside: int | None = None


@dataclass(frozen=True)
class FlowerTile:
    seat: Wind
    flower: Flower


@dataclass(frozen=True)
class SeatExchange:
    seat: Wind
    tiles: tuple[int, ...]
    to: Wind


@dataclass(frozen=True)
class ExchangeThree:
    exchanges: tuple[SeatExchange, ...]


@dataclass(frozen=True)
class FalseWin:
    seat: Wind


@dataclass(frozen=True)
class Kita:
    seat: Wind


HandEvent = (Deal | Draw | Discard | Claim | Kong | DoraIndicator | Win | DrawnGame | VoidSuit | FlowerTile
             | ExchangeThree | FalseWin | Kita)


@dataclass(frozen=True)
class HandLog:
    rule_set: str
    events: tuple[HandEvent, ...]
    options: Any = None  # the rule set's options type; None: its defaults
    prevalent_wind: Wind = Wind.EAST
    honba: int = 0
    riichi_sticks: int = 0
    scores: tuple[int, ...] = ()  # East to North; () : not given


# ---------------------------------------------------------------------------------------------
# What each seat may do (LegalResponse)


class ActionKind(IntEnum):
    DISCARD = 1
    CHOW = 2
    PUNG = 3
    KONG_CLAIMED = 4
    KONG_CONCEALED = 5
    KONG_ADDED = 6
    RIICHI = 7
    WIN_SELF_DRAWN = 8
    WIN_DISCARD = 9
    NINE_TERMINALS = 10
    KITA = 11
    PASS = 12
    DRAW = 13
    DRAWN_GAME = 14
    VOID_SUIT = 15
    EXCHANGE = 16
    FLOWER = 17


@dataclass(frozen=True)
class Action:
    kind: ActionKind
    tiles: tuple[int, ...] = ()


@dataclass(frozen=True)
class SeatActions:
    seat: Wind
    actions: tuple[Action, ...]
    furiten: bool = False


# ---------------------------------------------------------------------------------------------
# The settled money (SettleResponse)


@dataclass(frozen=True)
class MoneyLine:
    """`payee` None: to the pot. `reason` is stable (WIN, HONBA, RIICHI_STICKS, TENPAI, NAGASHI_MANGAN, PAO,
    KONG, ...; each referee's docstring lists its own)."""

    payer: Wind
    payee: Wind | None
    amount: int
    reason: str
    event_index: int


@dataclass(frozen=True)
class SeatMoney:
    seat: Wind
    net: int
    ready: bool = False


@dataclass(frozen=True)
class Settlement:
    seats: tuple[SeatMoney, ...]
    lines: tuple[MoneyLine, ...]
    wins: tuple[Evaluation, ...]
    honba_next: int = 0
    riichi_sticks_next: int = 0
    dealer_continues: bool = False
    pot: int = 0


def nets_and_pot(transfers: Iterable[Any], seats: int) -> tuple[list[int], int]:
    """Each seat's net and the pot from money lines or transfers (`payer`, `payee` seat indices or Winds,
    None: the pot; `amount`)."""
    net, pot = [0] * seats, 0
    for t in transfers:
        net[t.payer] -= t.amount
        if t.payee is None:
            pot += t.amount
        else:
            net[t.payee] += t.amount
    return net, pot


@dataclass(frozen=True)
class Referee:
    """A rule set's referee (`RuleSet.referee`): both take the whole log."""

    legal: Callable[[HandLog], tuple[SeatActions, ...]]
    settle: Callable[[HandLog], Settlement]


def _referee(log: HandLog) -> Referee:
    from engine import rules  # the rule sets import this module

    referee: Referee | None = getattr(rules.get(log.rule_set), "referee", None)
    if referee is None:
        raise NoRefereeError(f"log.rule_set: {log.rule_set!r} has no referee", "log.rule_set")
    return referee


def legal(log: HandLog) -> tuple[SeatActions, ...]:
    """The seats that may act after the log's last event, each with what it may do (a log that stops
    anywhere is fine)."""
    return _referee(log).legal(log)


def settle(log: HandLog) -> Settlement:
    """The money of a hand whose log has ended (a win, several, or a drawn game)."""
    return _referee(log).settle(log)

