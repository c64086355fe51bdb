"""A layout: which character each of the 40 game keys gives, by physical position.

Positions are (row, column): rows 0-3 are the number, top, middle and bottom rows,
columns 0-9 run left to right as on a US keyboard. Columns 0-4 are the left
player's, 5-9 the right player's; the row says what the key does (number row:
flip, top: pile a, middle: pile b, bottom: fill). A layout may only be used when
`problems()` finds nothing: every key distinct at both levels (so the two halves
are disjoint) and no key the app keeps for itself.
"""

from __future__ import annotations

from typing import NamedTuple

from spit_tui.command import shown
from spit_tui.engine import Player
from spit_tui.keys.intent import ROWS, Intent
from spit_tui.keys.names import key_name
from spit_tui.keys.presets import PRESETS
from spit_tui.keys.reserved import RESERVED_KEYS

Key = tuple[str, str]  # (unshifted, shifted); "" where a level gives nothing
Position = tuple[int, int]

ROW_NAMES = ("numbers", "top", "middle", "bottom")
COLUMNS = 10
DEFAULT = "us"


def position_of(intent: Intent) -> Position:
    return ROWS.index(intent.row), intent.slot + (0 if intent.player is Player.LEFT else 5)


def describe_position(pos: Position) -> str:
    """'left top key 1': how a config file and its errors name a position."""
    row, col = pos
    half = "left" if col < 5 else "right"
    return f"{half}.{ROW_NAMES[row]} key {col % 5 + 1}"


def not_a_key(ch: str) -> str | None:
    """Why `ch` cannot be a game key, or None if it can."""
    if len(ch) != 1:
        return f"{shown(ch)!r} is not one key (one character each)"
    if not ch.isprintable() or ch.isspace():
        return f"{shown(ch)!r} is not a key that types a character"
    if key_name(ch) in RESERVED_KEYS:
        return f"{shown(ch)!r} is kept for the app itself"
    return None


class Problem(NamedTuple):
    pos: Position
    text: str  # one line, naming the key


class Layout(NamedTuple):
    """The 40 game keys. `custom` when a config file changed any key of the
    preset: then keys are matched by the characters given, never by a
    terminal's physical key (a remapped key may sit anywhere)."""

    name: str
    description: str
    keys: tuple[tuple[Key, ...], ...]
    custom: bool = False

    def key(self, pos: Position) -> Key:
        return self.keys[pos[0]][pos[1]]

    def positions(self) -> list[Position]:
        return [(r, c) for r in range(len(ROW_NAMES)) for c in range(COLUMNS)]

    def with_row(self, half: Player, row: int, chars: list[str]) -> Layout:
        """This layout with one player's five keys of one row replaced. A letter
        gives its capital with Shift; other replaced keys have no Shift level."""
        rows = [list(r) for r in self.keys]
        start = 0 if half is Player.LEFT else 5
        for i, ch in enumerate(chars):
            up = ch.upper()
            rows[row][start + i] = (ch, up if up != ch and len(up) == 1 else "")
        return self._replace(keys=tuple(tuple(r) for r in rows), custom=True)

    def problems(self) -> list[Problem]:
        """Everything that makes this layout ambiguous or unusable, one line each."""
        out: list[Problem] = []
        if len(self.keys) != len(ROW_NAMES) or any(len(r) != COLUMNS for r in self.keys):
            return [Problem((0, 0), "a layout has 4 rows of 10 keys")]
        seen: dict[str, tuple[Position, int]] = {}
        for pos in self.positions():
            for level, ch in enumerate(self.key(pos)):
                if not ch:
                    if level == 0:
                        out.append(Problem(pos, f"{describe_position(pos)} gives no character"))
                    continue
                why = not_a_key(ch)
                if why is not None:
                    out.append(Problem(pos, f"{describe_position(pos)}: {why}"))
                    continue
                if ch in seen:
                    other, other_level = seen[ch]
                    if other == pos:
                        continue  # both levels of one key give it: fine
                    shared = (other[1] < 5) != (pos[1] < 5)
                    where = describe_position(other) + (" with Shift" if other_level else "")
                    rule = "a key can only be in one half" if shared else "each key once"
                    out.append(
                        Problem(pos, f"{describe_position(pos)}: {ch!r} is also {where} ({rule})")
                    )
                    continue
                seen[ch] = (pos, level)
        return out


def preset(name: str) -> Layout:
    """A generated preset by name; KeyError if there is none."""
    description, rows = PRESETS[name]
    return Layout(name, description, tuple(tuple(zip(a, b, strict=True)) for a, b in rows))


def preset_names() -> list[str]:
    return list(PRESETS)


def grid(layout: Layout, *, upper: bool = True) -> list[str]:
    """The layout as four lines of keys, the halves apart (for `spit-tui layouts`)."""
    lines = []
    for row in layout.keys:
        cells = [b if upper and b == a.upper() and b != a else a for a, b in row]
        lines.append(" ".join(cells[:5]) + "   " + " ".join(cells[5:]))
    return lines
