"""Errors for bad input: one class per fault, each with a stable machine code.

The code is what clients switch on (the server puts it in the gRPC status details);
the message is for the developer reading a log, and names the offending tile or field.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every input error the engine raises. `code` is stable; `field` names the culprit."""

    code = "ENGINE_ERROR"

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class BadTileError(EngineError):
    code = "BAD_TILE"


class TileCountError(EngineError):
    code = "TILE_COUNT"


class TooManyCopiesError(EngineError):
    code = "TOO_MANY_COPIES"


class BadMeldError(EngineError):
    code = "BAD_MELD"


class ContradictoryContextError(EngineError):
    code = "CONTRADICTORY_CONTEXT"


class BadContextError(EngineError):
    """A context value out of its range (a wind of 7, nine flowers)."""

    code = "BAD_CONTEXT"


class MissingWinningTileError(EngineError):
    code = "MISSING_WINNING_TILE"


class UnknownRuleSetError(EngineError):
    code = "UNKNOWN_RULE_SET"


class BadOptionError(EngineError):
    """A rule option that does not exist, or a value of the wrong type or out of its range."""

    code = "BAD_OPTION"


# The referee's (engine.referee: Legal and Settle on a hand's log). Defined here, in a module mypyc does not
# compile, as every error class is: a compiled subclass would not show its own `code`.
class IllegalEventError(EngineError):
    """An event the rules do not allow at that point of the log; `index` is the event's position."""

    code = "ILLEGAL_EVENT"

    def __init__(self, index: int, message: str) -> None:
        super().__init__(f"log.events[{index}]: {message}", f"log.events[{index}]")
        self.index = index


class BadLogError(EngineError):
    """A log that cannot be read (not a rule of play: a missing seat, a malformed event)."""

    code = "BAD_LOG"


class NoRefereeError(EngineError):
    """A rule set that has no referee (`RuleSet.referee` unset): Legal and Settle cannot answer for it."""

    code = "NO_REFEREE"


ERROR_CODES: tuple[str, ...] = tuple(
    cls.code
    for cls in (
        BadTileError,
        TileCountError,
        TooManyCopiesError,
        BadMeldError,
        ContradictoryContextError,
        BadContextError,
        MissingWinningTileError,
        UnknownRuleSetError,
        BadOptionError,
    )
)
