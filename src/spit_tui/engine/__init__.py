"""The pure rules engine: no UI, no I/O, no clock, no global random.

Everything a front end needs is re-exported here.
"""

from .actions import Action, Fill, Flip, Play, Ready, Slap, not_an_action
from .cards import Card, adjacent, card, full_deck, missing_cards
from .errors import NotationError, PositionError, Refusal, RefusalKind
from .events import EndReason, Event, RoundEnd
from .game import Game, replay
from .loading import check_position, position_problem
from .notation import (
    complete_position,
    format_action,
    format_position,
    parse_action,
    parse_position,
)
from .options import Options, Variant
from .position import PLAYERS, SLOTS, Phase, Player, Position, Side, Slot
from .record import Record, Source, Stamp, Stamps, Step, format_record, parse_record, replay_record

__all__ = [
    "PLAYERS", "SLOTS", "Action", "Card", "EndReason", "Event", "Fill", "Flip", "Game",
    "NotationError", "Options", "Phase", "Play", "Player", "Position", "PositionError",
    "Ready", "Record", "Refusal", "RefusalKind", "RoundEnd", "Side", "Slap", "Slot",
    "Source", "Stamp", "Stamps", "Step", "Variant", "adjacent", "card", "check_position",
    "complete_position", "format_action", "format_position", "format_record", "full_deck",
    "missing_cards", "not_an_action", "parse_action", "parse_position", "parse_record",
    "position_problem", "replay", "replay_record",
]
