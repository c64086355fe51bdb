"""Typed refusals: every refused action says why, in words a player can read,
and carries the position (in notation) so a bug report is one paste."""

from __future__ import annotations

from enum import StrEnum


class RefusalKind(StrEnum):
    ILLEGAL = "illegal"  # the move breaks a rule in this position
    LOST_RACE = "too late"  # D5: legal before the opponent's latest action landed
    WRONG_PHASE = "wrong phase"  # e.g. a play while waiting for the spit
    NOTICE = "notice"  # D12: nothing to do, not an error (e.g. ready with no spit card)


class Refusal(Exception):
    """An action the engine did not apply; the state is unchanged."""

    def __init__(
        self, kind: RefusalKind, reason: str, action: str = "", position: str = ""
    ) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.action = action
        self.position = position

    @property
    def is_error(self) -> bool:
        return self.kind is not RefusalKind.NOTICE

    def __str__(self) -> str:
        where = f" [{self.action} @ {self.position}]" if self.action or self.position else ""
        said = self.reason if self.reason.startswith(self.kind) else f"{self.kind}: {self.reason}"
        return said + where

    def __repr__(self) -> str:
        return f"Refusal({self.kind.name}, {self.reason!r}, {self.action!r})"


class NotationError(ValueError):
    """Text that is not valid notation; the message names the bad part."""


class PositionError(NotationError):
    """A position no game of Spit can be in (well-formed text, impossible state);
    the message says why, in a player's words."""
