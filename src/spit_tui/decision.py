"""What became of one submission: a `Decision`, exactly one per key press or
bot move, in the order they arrived.

The table decides every submission on its ordered path (spit_tui.table); a
remote seat decides what its own key layer refuses and says "sent" for the
rest (the host's table decides those). Both keep their recent decisions and
tell them to whoever listens (spit_tui.subscription): the decision log, the
crash report, the history's lost races, the match's figures, the burst
benchmark and the fairness tests.
"""

from __future__ import annotations

from typing import NamedTuple

from spit_tui.engine import Action, Player, RefusalKind, format_action
from spit_tui.scene import Outcome

__all__ = ["LOG_LIMIT", "Decision", "action_text", "refusal_outcome"]

LOG_LIMIT = 50_000  # the decisions a table keeps by default (a host keeps few: net.host)


class Decision(NamedTuple):
    """What became of one submission: exactly one per key press or bot move."""

    seq: int
    time: float
    player: Player
    source: str  # "key" or "bot"
    action: str  # notation of the action tried, "" if the key meant nothing now
    outcome: Outcome
    message: str
    key: str = ""  # the key pressed, as in the key table ("q", ";"); "" for a bot's move


_REFUSAL_OUTCOME = {
    RefusalKind.ILLEGAL: Outcome.ILLEGAL,
    RefusalKind.LOST_RACE: Outcome.LOST_RACE,
    RefusalKind.WRONG_PHASE: Outcome.IGNORED,
    RefusalKind.NOTICE: Outcome.IGNORED,
}


def refusal_outcome(kind: RefusalKind) -> Outcome:
    """The outcome an engine refusal of `kind` gives a submission."""
    return _REFUSAL_OUTCOME[kind]


_TEXTS: dict[Action, str] = {}  # each action's notation, written once (a decision keeps it)
_TEXTS_MAX = 1000  # the actions there are (the engine's own objects), and a few out of range


def action_text(action: Action) -> str:
    """`action`'s notation for its Decision: one string per action, shared by
    every decision of it (a host keeps each room's last decisions)."""
    text = _TEXTS.get(action)
    if text is None:
        text = format_action(action)
        if len(_TEXTS) < _TEXTS_MAX:
            _TEXTS[action] = text
    return text
