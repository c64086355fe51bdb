"""The players' names: what a name may be, the names each seat shows and is
stored under, and the names remembered between runs (players.toml in the
user config directory).

    --left-name ANN --right-name BO   used now and remembered for next time
    F4 on the opening banner          change them (remembered too)
    me = "ANN"                        your own name at a door (`join HOST`'s
                                      lobby, a browser page): asked once there

A name is 1 to MAX_CELLS characters, each a letter, digit, punctuation,
symbol or space that a terminal draws one cell wide ("Zoë", "Łukasz",
"Ана"): no control or escape characters, no combining marks or zero-width
characters (an accented letter is one character: NFC), nothing drawn two
cells wide (so a name's length is its width on every board), and no quotes
or backslashes (it goes into a game record's tags; a record is plain ASCII,
so other characters are written there as \\uXXXX: engine.record). The views
draw names as plain text, never as markup, so "[b]x" shows as typed. LEFT
and RIGHT are the names of a seat nobody named; against the computer, its
level is its name.

The file is written whole or not at all (a temporary file renamed over it),
so a failure never leaves a damaged file; a file that cannot be read or
makes no sense gives one line, and the defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from rich.cells import cell_len

from spit_tui.engine import Player
from spit_tui.paths import config_dir, write_whole
from spit_tui.userfiles import FileRefused, read_small

MAX_CELLS = 20
# letters that draw as blank (Hangul fillers, braille blank): a name of them looks empty
_BLANKS = frozenset("\u115f\u1160\u2800\u3164\uffa0")
DEFAULT_NAMES = ("LEFT", "RIGHT")
YOU = "YOU"  # an unnamed person against the computer: on the board, in the history, the stats
COMPUTER = "COMPUTER"  # the name on the computer's half of the board (its level shows beside it)

FILE_NAME = "players.toml"
MAX_FILE_BYTES = 4096
_KEYS = ("left", "right")
ME = "me"  # the player's own name in a lobby (the seats' names are the local game's)

Given = tuple[str | None, str | None]  # a name per seat, None: nobody named it


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name, or None (see the module)."""
    import unicodedata

    if not name.strip() or all(ch in _BLANKS or ch.isspace() for ch in name):
        return "a name needs at least one letter"
    if any(not ch.isprintable() or ch in '"\\' for ch in name):
        return "a name has no quotes, backslashes, control or invisible characters"
    if any(unicodedata.category(ch).startswith("M") for ch in name):
        return "a name has no combining marks: write an accented letter as one character"
    if any(cell_len(ch) != 1 or ch in _BLANKS for ch in name):
        return "a name has no characters drawn wider than one cell, or blank"
    if len(name.strip()) > MAX_CELLS:
        return f"a name has at most {MAX_CELLS} characters"
    return None


def as_name(text: str) -> str:
    """`text` with each accented letter as one character (NFC): a name that
    comes in decomposed (macOS sends "e" and a combining accent) as typed."""
    import unicodedata

    return unicodedata.normalize("NFC", text)


def computer_name(level: str) -> str:
    """The computer's name: its level, e.g. "computer (hard)"."""
    return f"computer ({level})"


def seat_names(given: Given, computer: Mapping[Player, str] | None = None) -> tuple[str, str]:
    """Each seat's name: the computer's level, the name given, or LEFT/RIGHT;
    an unnamed person against the computer is YOU, as the board calls them, so
    the history, the stats and the replay say what the game said ("You win")."""
    computer = computer or {}
    out = []
    for p in Player:
        if p in computer:
            out.append(computer_name(computer[p]))
        else:
            unnamed = YOU if computer else DEFAULT_NAMES[p]
            out.append((given[p] or unnamed).strip())
    return out[0], out[1]


def board_names(stored: tuple[str, str], computer: Mapping[Player, str]) -> tuple[str, str]:
    """The names a stored game's board showed: COMPUTER on the computer's half,
    YOU for a person who had no name against it (stored as YOU, or as LEFT or
    RIGHT before), the name otherwise. The replay shows these."""
    out = []
    for p in Player:
        if p in computer:
            out.append(COMPUTER)
        elif computer and stored[p] in (DEFAULT_NAMES[p], YOU):
            out.append(YOU)
        else:
            out.append(stored[p])
    return out[0], out[1]


def same_names_problem(names: tuple[str, str]) -> str | None:
    """Two seats with one name would share one record in the stats."""
    if names[0].casefold() == names[1].casefold():
        return f"both players are called {names[0]}: give them different names"
    return None


def default_path() -> Path:
    return config_dir() / FILE_NAME


class Remembered(NamedTuple):
    names: Given
    problem: str | None  # one line when the file could not be used (then no names)
    me: str | None = None  # the player's own name at a door (None: never given)


def load(path: Path | None = None) -> Remembered:
    """The names remembered last time (None for a seat nobody named). A missing
    file is no names; a bad one is one line and no names."""
    path = default_path() if path is None else path
    where = f"the remembered names ({path.name})"
    try:  # a regular file only: a FIFO would hang the start, a device never end
        data = read_small(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        return Remembered((None, None), None)
    except FileRefused as e:
        return Remembered((None, None), f"{where}: not a names file ({e}); using none")
    except OSError as e:
        return Remembered((None, None), f"{where}: cannot read: {e.strerror or e}; using none")
    import tomllib  # here: only a start that has a names file needs the parser

    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return Remembered((None, None), f"{where}: not a names file (bad TOML); using none")
    out: list[str | None] = []
    for key in (*_KEYS, ME):
        value = table.get(key)
        if value is None:
            out.append(None)
            continue
        problem = name_problem(value) if isinstance(value, str) else "a name is text"
        if problem is not None:
            return Remembered((None, None), f"{where}: {key}: {problem}; using none")
        out.append(value.strip())
    return Remembered((out[0], out[1]), None, out[2])


def render(names: Given, me: str | None = None) -> str:
    lines = ["# The players' names, remembered by spit-tui (F4 on the opening banner changes them)"]
    for key, name in zip((*_KEYS, ME), (*names, me), strict=True):
        if name is not None:
            lines.append(f'{key} = "{name}"')  # name_problem: no quotes, no backslashes
    return "\n".join(lines) + "\n"


def save(names: Given, path: Path | None = None, me: str | None = None) -> Path:
    """Remember `names` (and `me`; None: the one remembered is kept), the file
    written whole or not at all (OSError on failure)."""
    for name in (*names, me):
        if name is not None and name_problem(name) is not None:
            raise ValueError(f"not a name: {name!r}")
    path = default_path() if path is None else path
    me = load(path).me if me is None else me
    path.parent.mkdir(parents=True, exist_ok=True)
    write_whole(path, render(names, me))
    return path


def choose(given: Given, path: Path | None = None) -> tuple[Given, str | None]:
    """The names for this run: each seat's name given now, else the one
    remembered; names given now are remembered for next time. Also one line
    to show when the file could not be read or written (the game starts anyway)."""
    remembered = load(path)
    note = remembered.problem
    out = [g or r for g, r in zip(given, remembered.names, strict=True)]
    for p in Player:  # a name remembered for one seat and given now to the other
        mine, theirs = out[p], given[p.other]
        if given[p] is None and mine and theirs and mine.casefold() == theirs.casefold():
            out[p] = None
    chosen = (out[0], out[1])
    if any(given) and chosen != remembered.names:
        note = remember(chosen, path) or note
    return chosen, note


def remember(names: Given, path: Path | None = None) -> str | None:
    """Save `names` for next time; one line if that failed (they are used all the same)."""
    try:
        save(names, path)
    except OSError as e:
        return f"the names are used, but could not be remembered: {e.strerror or e}"
    return None


def remember_me(name: str, path: Path | None = None) -> str | None:
    """Save the player's own name at a door, the seats' names kept; one line
    if that failed (the name is used all the same)."""
    try:
        save(load(path).names, path, name.strip())
    except OSError as e:
        return f"your name is used, but could not be remembered: {e.strerror or e}"
    return None
