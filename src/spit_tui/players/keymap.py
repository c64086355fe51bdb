"""The one key table. It drives input, the labels on the board and the help
screen, so the three can never disagree.

Each key means (player, row, slot). The row, not the phase, is what a key is:
row A always means the left spit pile "a" and row B the right pile "b" (a
play in the play phase, a slap in the slap phase); the fill row moves a
stockpile's top card into the leftmost empty slot; the flip row turns a card
up when manual flip is on. During a "press spit" phase any key of a player's
half means "ready".
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from spit_tui.engine import SLOTS, Player


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


# Left half / right half of a QWERTY keyboard; no key is shared.
KEY_ROWS: dict[Player, dict[Row, str]] = {
    Player.LEFT: {Row.FLIP: "12345", Row.PILE_A: "qwert", Row.PILE_B: "asdfg", Row.FILL: "zxcvb"},
    Player.RIGHT: {Row.FLIP: "67890", Row.PILE_A: "yuiop", Row.PILE_B: "hjkl;", Row.FILL: "nm,./"},
}

# Textual's names for the punctuation keys above, for drivers that send no character.
KEY_NAMES = {"semicolon": ";", "comma": ",", "full_stop": ".", "slash": "/"}

KEYS: dict[str, Intent] = {
    ch: Intent(player, row, i)
    for player, rows in KEY_ROWS.items()
    for row, chars in rows.items()
    for i, ch in enumerate(chars)
}
assert len(KEYS) == 2 * 4 * SLOTS, "a key is shared between the halves"


def intent_for(key: str, character: str | None) -> Intent | None:
    """The game meaning of a key press, or None if it is not a game key.

    Letters are matched case-blind so Caps Lock (or Shift) never breaks the game.
    """
    if character and len(character) == 1:
        found = KEYS.get(character.lower())
        if found is not None:
            return found
    return KEYS.get(KEY_NAMES.get(key, key.lower()))


def key_for(player: Player, row: Row, slot: int) -> str:
    return KEY_ROWS[player][row][slot]


def label(ch: str) -> str:
    """How a key is written on the board (upper-case letters, as on keycaps)."""
    return ch.upper()
