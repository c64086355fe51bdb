"""What a game key means before the phase gives it a meaning: an Intent
(player, row, slot). The row, not the phase, is what a key is: row A always
means the left spit pile "a" and row B the right pile "b" (a play in the play
phase, a slap in the slap phase); the fill row moves a stockpile's top card
into the leftmost empty slot; the flip row turns a card up when manual flip is
on. During a "press spit" phase any key of a player's half means "ready".

Layouts (which character sits where) and key maps (a layout made into lookup
tables) both build on this. `action_for` and `intent_for` are the one mapping
between a key's intent and an engine action, both ways (a property test checks
they invert each other for every legal action).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import NamedTuple

from spit_tui.engine import (
    SLOTS,
    Action,
    Fill,
    Flip,
    Phase,
    Play,
    Player,
    Position,
    Ready,
    Slap,
    not_an_action,
)
from spit_tui.engine.actions import FILLS, FLIPS, PLAYS, READIES, SLAPS


class Row(StrEnum):
    PILE_A = "a"
    PILE_B = "b"
    FILL = "fill"
    FLIP = "flip"


class Intent(NamedTuple):
    """What a key asks for, before the phase gives it a meaning."""

    player: Player
    row: Row
    slot: int  # 0-4 for stockpiles 1-5


# The physical rows, top to bottom (number, top, middle, bottom), and what each does.
ROWS = (Row.FLIP, Row.PILE_A, Row.PILE_B, Row.FILL)


def intent_at(pos: tuple[int, int]) -> Intent:
    """The intent of a physical key (row 0-3, column 0-9; columns 0-4 are LEFT's)."""
    row, col = pos
    return Intent(Player.LEFT if col < 5 else Player.RIGHT, ROWS[row], col % 5)


def leftmost_gap(sizes: Sequence[int]) -> int | None:
    """The stockpile place a fill key fills: the leftmost empty one (None: no gap)."""
    return next((i for i, n in enumerate(sizes) if n == 0), None)


def action_for(intent: Intent, position: Position) -> Action | None:
    """What a key means at `position` (None: nothing now). The one reading of a
    key: the row, not the phase, is what a key is (module docstring); the fill
    row fills the leftmost gap, and in a one-pile round both rows play onto it."""
    p = intent.player
    phase = position.phase
    slot = intent.slot
    if phase is Phase.PLAY:
        # the engine's own action objects where the slot is one (a game's log
        # holds every action it was played with: one object each, not one a key)
        known = 0 <= slot < SLOTS
        if intent.row is Row.FILL:
            gap = leftmost_gap([len(s.cards) for s in position.sides[p].slots])
            dst = slot if gap is None else gap
            return FILLS[p][slot][dst] if known else Fill(p, slot, dst)
        if intent.row is Row.FLIP:
            return FLIPS[p][slot] if known else Flip(p, slot)
        pile = 0 if position.single_pile or intent.row is Row.PILE_A else 1
        return PLAYS[p][slot][pile] if known else Play(p, slot, pile)
    if phase is Phase.SPIT:
        return READIES[p]
    if phase is Phase.SLAP and intent.row in (Row.PILE_A, Row.PILE_B):
        return SLAPS[p][0 if intent.row is Row.PILE_A else 1]
    return None


def intent_for(action: Action) -> Intent:
    """The key a player presses for `action`: `action_for` of it is the action
    again wherever the action is legal (a fill's place is always the leftmost
    gap; any key of the half says "spit", the first of row a here)."""
    p = action.player
    match action:
        case Play(_, slot, pile):
            return Intent(p, Row.PILE_A if pile == 0 else Row.PILE_B, slot)
        case Fill(_, src, _):
            return Intent(p, Row.FILL, src)
        case Flip(_, slot):
            return Intent(p, Row.FLIP, slot)
        case Ready():
            return Intent(p, Row.PILE_A, 0)
        case Slap(_, pile):
            return Intent(p, Row.PILE_A if pile == 0 else Row.PILE_B, 0)
        case _:
            not_an_action(action)
