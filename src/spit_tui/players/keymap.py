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
from typing import TYPE_CHECKING, NamedTuple

from spit_tui.engine import SLOTS, Player
from spit_tui.keys.names import key_name
from spit_tui.keys.presets import PRESETS

if TYPE_CHECKING:
    from spit_tui.keys.layout import Layout as KeyLayout

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

# The active key table, filled from a layout by `activate` (US QWERTY until
# then). These dicts are updated in place, so every module that imported them
# always reads the active keys: input, board labels and help never disagree.
KEY_ROWS: dict[Player, dict[Row, str]] = {Player.LEFT: {}, Player.RIGHT: {}}
KEYS: dict[str, Intent] = {}  # unshifted character -> intent (40 keys)
SHIFTED: dict[str, Intent] = {}  # what the same keys give with Shift (or Caps Lock)
BY_BASE: dict[str, Intent] = {}  # a US-layout character -> intent: the physical key
KEY_NAMES: dict[str, str] = {}  # Textual's key names ("semicolon") -> character

class _Active:
    name = "us"
    description = "English (US)"
    physical = True  # keys may be matched by the terminal's physical key (kitty)

ACTIVE = _Active()

# The physical rows, top to bottom (number, top, middle, bottom), and what each does.
ROWS = (Row.FLIP, Row.PILE_A, Row.PILE_B, Row.FILL)
_US = PRESETS["us"][1]

def intent_at(pos: tuple[int, int]) -> Intent:
    """The intent of a physical key (row 0-3, column 0-9; columns 0-4 are LEFT's)."""
    row, col = pos
    return Intent(Player.LEFT if col < 5 else Player.RIGHT, ROWS[row], col % 5)

def activate(layout: KeyLayout) -> None:
    """Make `layout` the one key table (checked by the caller: `problems()` empty)."""
    _load(layout.name, layout.description, layout.keys, layout.custom)

def _load(
    name: str, description: str, keys: tuple[tuple[tuple[str, str], ...], ...], custom: bool
) -> None:
    for rows in KEY_ROWS.values():
        rows.clear()
    for table in (KEYS, SHIFTED, BY_BASE, KEY_NAMES):
        table.clear()
    for r, row_keys in enumerate(keys):
        for c, (plain, shifted) in enumerate(row_keys):
            intent = intent_at((r, c))
            KEYS[plain] = intent
            if shifted and shifted != plain:
                SHIFTED[shifted] = intent
            rows = KEY_ROWS[intent.player]
            rows[intent.row] = rows.get(intent.row, "") + plain
            for ch in (plain, shifted):
                if ch and key_name(ch) != ch:
                    KEY_NAMES[key_name(ch)] = ch
            BY_BASE[_US[r][0][c]] = intent
    ACTIVE.name = name
    ACTIVE.description = description
    ACTIVE.physical = not custom
    assert len(KEYS) == 2 * 4 * SLOTS, "a key is shared between the halves"

def intent_for(key: str, character: str | None, base: str | None = None) -> Intent | None:
    """The game meaning of a key press, or None if it is not a game key.

    `base` is the key's character on a US layout, where the terminal reports it
    (the kitty keyboard protocol): then the physical key decides, whatever the
    layout, unless a key config moved keys around. Otherwise the character
    decides, at either level, so Shift or Caps Lock never breaks the game.
    """
    if base is not None and ACTIVE.physical:
        found = BY_BASE.get(base)
        if found is not None:
            return found
    if character and len(character) == 1:
        found = KEYS.get(character) or SHIFTED.get(character) or KEYS.get(character.lower())
        if found is not None:
            return found
    ch = KEY_NAMES.get(key, key)
    return KEYS.get(ch) or SHIFTED.get(ch)

def key_for(player: Player, row: Row, slot: int) -> str:
    return KEY_ROWS[player][row][slot]

def label(ch: str) -> str:
    """How a key is written on the board: a letter as its capital, as on keycaps,
    where Shift gives that capital (not the é of a French number row)."""
    up = ch.upper()
    if up != ch and len(up) == 1 and SHIFTED.get(up) is not None and SHIFTED[up] == KEYS.get(ch):
        return up
    return ch


def _activate_default() -> None:
    description, rows = PRESETS["us"]
    _load("us", description, tuple(tuple(zip(a, b, strict=True)) for a, b in rows), False)

_activate_default()
