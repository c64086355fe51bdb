"""What a game key means before the phase gives it a meaning: an Intent
(player, row, slot). The row, not the phase, is what a key is: row A always
means the left spit pile "a" and row B the right pile "b" (a play in the play
phase, a slap in the slap phase); the fill row moves a stockpile's top card
into the leftmost empty slot; the flip row turns a card up when manual flip is
on. During a "press spit" phase any key of a player's half means "ready".

Layouts (which character sits where) and key maps (a layout made into lookup
tables) both build on this; it depends on the engine's Player only.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from spit_tui.engine import Player


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
