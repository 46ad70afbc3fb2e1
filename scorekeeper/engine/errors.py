"""Errors of the rules engine.

Every check of RULES.md §6 raises one of these. Each carries the stable ``code``
of CONTRACT.md, a ``message`` a player at the table understands, and ``where``:
the path of the offending field in the input (``hands.Cal.cards[3]``).

Two families, as in python-chess: :class:`NotationError` for input that cannot
be read at all, :class:`IllegalPlayError` for input that reads fine but breaks a
rule of the game.

>>> err = DuplicateCardError("7H is in both Ann's and Cal's hands", "hands.Cal.cards[3]")
>>> err.to_json()["error"]["code"]
'duplicate-card'
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

from typing import Any, ClassVar


class ScorekeeperError(ValueError):
    """Base class: bad input to the engine, reported as CONTRACT.md's error object."""

    code: ClassVar[str] = "malformed"

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def to_json(self) -> dict[str, Any]:
        """The error object of CONTRACT.md."""
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.where is not None:
            body["where"] = self.where
        return {"error": body}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, {self.where!r})"


class NotationError(ScorekeeperError):
    """The input cannot be read: wrong JSON shape, unknown card text."""


class MalformedError(NotationError):
    code = "malformed"


class InvalidCardError(NotationError):
    code = "invalid-card"


class UnknownRulesError(NotationError):
    code = "unknown-rules"


class UnknownSettingError(NotationError):
    code = "unknown-setting"


class IllegalPlayError(ScorekeeperError):
    """The input reads fine but describes something the rules do not allow."""


class DuplicateCardError(IllegalPlayError):
    code = "duplicate-card"


class WrongHandSizeError(IllegalPlayError):
    code = "wrong-hand-size"


class InvalidMeldError(IllegalPlayError):
    code = "invalid-meld"


class DeadwoodMismatchError(IllegalPlayError):
    code = "deadwood-mismatch"


class OverKnockLimitError(IllegalPlayError):
    code = "over-knock-limit"


class GinCountError(IllegalPlayError):
    """A gin entered with a count above 0: not a knock over the limit (RULES.md §6)."""

    code = "gin-must-count-0"


class IllegalLayoffError(IllegalPlayError):
    code = "illegal-layoff"


class LayoffOnGinError(IllegalPlayError):
    code = "layoff-on-gin"


class KnockAfterBreakError(IllegalPlayError):
    code = "knock-after-break"


class UnknownPlayerError(IllegalPlayError):
    code = "unknown-player"


class GameOverError(IllegalPlayError):
    code = "game-over"


ERROR_CLASSES: tuple[type[ScorekeeperError], ...] = (
    MalformedError,
    InvalidCardError,
    UnknownRulesError,
    UnknownSettingError,
    DuplicateCardError,
    WrongHandSizeError,
    InvalidMeldError,
    DeadwoodMismatchError,
    OverKnockLimitError,
    GinCountError,
    IllegalLayoffError,
    LayoffOnGinError,
    KnockAfterBreakError,
    UnknownPlayerError,
    GameOverError,
)
"""One class per CONTRACT.md error code."""
