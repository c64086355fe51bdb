"""Values read back from the history file, checked before use.

The file is the player's, and anything may have written it: text where a
number belongs, a BLOB where a record belongs, a name holding escape
sequences or Rich markup. SQLite's columns have affinities, not types, so
every value read is checked here. A row whose values do not fit is skipped
and counted, and the command that read it says so in one line; text from the
file is shown escaped (no control character reaches a terminal) and cut
short, and always drawn as plain text, never as markup.
"""

from __future__ import annotations

import math
import re

from spit_tui.command import shown
from spit_tui.store.db import HistoryError

TEXT_SHOWN = 40  # characters of a stored text shown in a table
_RECORD_TEXT = re.compile(r"[\x20-\x7e\n\r\t]*")


def whole(value: object) -> int | None:
    """An integer as stored, or None if it is not one."""
    return value if type(value) is int else None


def real(value: object) -> float | None:
    """A finite number as stored (an integer or a float), or None."""
    if type(value) is int or (type(value) is float and math.isfinite(value)):
        return float(value)
    return None


def text(value: object) -> str | None:
    """A text as stored, or None if it is not text."""
    return value if type(value) is str else None


def blob(value: object) -> bytes | None:
    return value if type(value) is bytes else None


def escaped(value: object, limit: int = TEXT_SHOWN) -> str:
    """A stored value as it may be shown: control and other unprintable
    characters as escapes (``\\x1b``), at most `limit` characters kept."""
    s = value if isinstance(value, str) else repr(value)
    s = shown(s, limit)
    if s.isprintable():
        return s
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in s)


def skipped_line(command: str, ids: list[int]) -> str:
    """The one line a command prints about rows it left out."""
    listed = ", ".join(str(i) for i in ids[:5]) + (", ..." if len(ids) > 5 else "")
    what = "game" if len(ids) == 1 else "games"
    return (
        f"spit-tui {command}: {len(ids):,} damaged {what} in the history left out"
        f" (id {listed}): values that do not fit their columns"
    )


def record_text(value: object, game_id: int) -> str:
    """A stored record's text, checked: HistoryError (one line) if it is not text
    or is bigger than any game's record (it is never parsed, which for a record
    of 20 MB took 25 s and 500 MB)."""
    from spit_tui.store.records import MAX_RECORD_BYTES

    record = text(value)
    if record is None:
        raise HistoryError(f"game {game_id}'s record in the history is damaged (not text)")
    if len(record) > MAX_RECORD_BYTES:
        raise HistoryError(
            f"game {game_id}'s record in the history is {len(record):,} characters, more than"
            f" the {MAX_RECORD_BYTES:,} a game's record can have: it is not read"
        )
    if not _RECORD_TEXT.fullmatch(record):  # a record is plain printable ASCII, in lines
        raise HistoryError(
            f"game {game_id}'s record in the history is damaged (it holds characters no"
            " record has)"
        )
    return record
