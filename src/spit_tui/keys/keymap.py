"""A key map: a checked Layout made into the lookup tables that input, the
board's key labels, the help and the replay all read, so they never disagree.

A KeyMap is a value: built once from a Layout and never changed. The app holds
the active one and hands it to whatever needs it (the table, the board, the
help, the replay); choosing other keys means making a new map, never updating
one in place. `US` is the default (US QWERTY).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from spit_tui.engine import SLOTS, Player
from spit_tui.engine.frozen import Frozen
from spit_tui.engine.frozen import set_field as _set
from spit_tui.keys.intent import Intent, Row, intent_at
from spit_tui.keys.layout import Layout, preset
from spit_tui.keys.names import key_name


class KeyMap(Frozen):
    """The 40 game keys of one layout, as lookups (built by `KeyMap.of`).

    Compared and hashed by identity (the board caches lines per map, on every
    frame); compare `.layout` to ask whether two maps have the same keys.
    Frozen as a frozen dataclass would make it (engine.frozen: assigning a
    field raises FrozenInstanceError), without its methods compiled at every start."""

    __slots__ = ("by_base", "key_names", "keys", "layout", "rows", "shifted")
    layout: Layout
    keys: Mapping[str, Intent]
    shifted: Mapping[str, Intent]
    by_base: Mapping[str, Intent]
    key_names: Mapping[str, str]
    rows: Mapping[tuple[Player, Row], str]

    def __init__(
        self,
        layout: Layout,
        keys: Mapping[str, Intent],  # unshifted character -> intent
        shifted: Mapping[str, Intent],  # what the same keys give with Shift (or Caps Lock)
        by_base: Mapping[str, Intent],  # a US-layout character -> intent: the physical key
        key_names: Mapping[str, str],  # Textual's key names ("semicolon") -> character
        rows: Mapping[tuple[Player, Row], str],  # the five keys of one player's row
    ) -> None:
        _set(self, "layout", layout)
        _set(self, "keys", keys)
        _set(self, "shifted", shifted)
        _set(self, "by_base", by_base)
        _set(self, "key_names", key_names)
        _set(self, "rows", rows)

    @classmethod
    def of(cls, layout: Layout) -> KeyMap:
        """The map of `layout` (checked by the caller: `layout.problems()` empty)."""
        keys: dict[str, Intent] = {}
        shifted: dict[str, Intent] = {}
        by_base: dict[str, Intent] = {}
        names: dict[str, str] = {}
        rows: dict[tuple[Player, Row], str] = {}
        us = _US_LAYOUT.keys
        for r, row_keys in enumerate(layout.keys):
            for c, (plain, up) in enumerate(row_keys):
                intent = intent_at((r, c))
                keys[plain] = intent
                if up and up != plain:
                    shifted[up] = intent
                rows[intent.player, intent.row] = rows.get((intent.player, intent.row), "") + plain
                for ch in (plain, up):
                    if ch and key_name(ch) != ch:
                        names[key_name(ch)] = ch
                by_base[us[r][c][0]] = intent
        if len(keys) != 2 * 4 * SLOTS:
            raise ValueError(f"layout {layout.name!r}: a key is given twice")
        return cls(
            layout,
            MappingProxyType(keys),
            MappingProxyType(shifted),
            MappingProxyType(by_base),
            MappingProxyType(names),
            MappingProxyType(rows),
        )

    @property
    def name(self) -> str:
        return self.layout.name

    @property
    def description(self) -> str:
        return self.layout.description

    @property
    def physical(self) -> bool:
        """Whether a terminal's physical key (kitty) may decide: not once a key
        config moved keys around (a remapped key may sit anywhere)."""
        return not self.layout.custom

    def intent_for(self, key: str, character: str | None, base: str | None = None) -> Intent | None:
        """The game meaning of a key press, or None if it is not a game key.

        `base` is the key's character on a US layout, where the terminal reports it
        (the kitty keyboard protocol): then the physical key decides, whatever the
        layout, unless a key config moved keys around. Otherwise the character
        decides, at either level, so Shift or Caps Lock never breaks the game.
        """
        if base is not None and self.physical:
            found = self.by_base.get(base)
            if found is not None:
                return found
        if character and len(character) == 1:
            found = (
                self.keys.get(character)
                or self.shifted.get(character)
                or self.keys.get(character.lower())
            )
            if found is not None:
                return found
        ch = self.key_names.get(key, key)
        return self.keys.get(ch) or self.shifted.get(ch)

    def key_for(self, player: Player, row: Row, slot: int) -> str:
        """The character of the key that means (player, row, slot)."""
        return self.rows[player, row][slot]

    def key(self, intent: Intent) -> str:
        return self.key_for(intent.player, intent.row, intent.slot)

    def label(self, ch: str) -> str:
        """How a key is written on the board: a letter as its capital, as on keycaps,
        where Shift gives that capital (not the é of a French number row)."""
        up = ch.upper()
        shifted = self.shifted.get(up) if up != ch and len(up) == 1 else None
        return up if shifted is not None and shifted == self.keys.get(ch) else ch

    def label_for(self, player: Player, row: Row, slot: int) -> str:
        """The board's label of the key that means (player, row, slot)."""
        return self.label(self.key_for(player, row, slot))

    def row_keys(self, player: Player, row: Row) -> str:
        """The five keys of one player's row, left to right."""
        return self.rows[player, row]


_US_LAYOUT = preset("us")
US = KeyMap.of(_US_LAYOUT)  # the default: US QWERTY
