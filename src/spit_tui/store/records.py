"""A table's game as a record (the engine's notation), and saving one to a file.

The record is built from what the table already keeps: the engine's `Game.log`
(the authority on which actions count: a ready still counting down to the
spit is not applied yet, so it is not in the record yet) and the stamp the
table made for each action as it applied it (`Showing.stamps`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from spit_tui import paths
from spit_tui.engine import (
    Game,
    NotationError,
    Position,
    Record,
    Refusal,
    format_record,
    parse_position,
    parse_record,
    replay_record,
)
from spit_tui.table import Table
from spit_tui.userfiles import FileRefused, create_private, private_dir, read_small

RECORD_SUFFIX = ".spit"


def record_of(table: Table, tags: Mapping[str, str] | None = None) -> Record:
    """The game at `table` so far, as a record with a stamp per action (a
    resumed game's record goes on from its stored one: one record)."""
    game = table.game
    return Record(
        options=game.options,
        seed=game.seed,
        actions=list(game.log),
        start=game.start if game.seed is None or _dealt_elsewhere(table) else None,
        stamps=table.shown.stamps,
        tags=tags,
    )


def _dealt_elsewhere(table: Table) -> bool:
    """True when the game did not start from its own seed's first deal."""
    game = table.game
    return Game(options=game.options, seed=game.seed).start != game.start


def save_record(record: Record, folder: Path | None = None) -> Path:
    """Write `record` to a new file in the user's state directory; the path.
    Raises OSError if it cannot be written (the caller says so on screen)."""
    folder = folder if folder is not None else paths.state_dir() / "records"
    private_dir(folder)  # a game, kept private as the history is
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    for n in range(100):
        path = folder / f"game-{stamp}{'' if n == 0 else f'-{n}'}{RECORD_SUFFIX}"
        try:
            fd = create_private(path)
        except FileExistsError:
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(format_record(record))
        return path
    raise OSError(f"no free file name in {folder}")


# A long game's record is about 100 kB; anything far bigger is not one (or is a
# game nobody should wait for): record files and stored records are refused
# over this, and the history writer does not store a game whose record outgrew it.
MAX_RECORD_BYTES = 1_000_000


def _read_text(path: Path) -> str:
    """A small regular text file (never a FIFO or a device, which could hang)."""
    try:
        data = read_small(path, MAX_RECORD_BYTES)
    except FileRefused as e:
        raise NotationError(f"{path}: not a game record: {e}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise NotationError(f"not UTF-8 text (byte {e.start})") from None


def read_record(path: Path) -> Record:
    """A record file, read and parsed. OSError if it cannot be read; NotationError
    (naming the line) if it is not a record."""
    return parse_record(_read_text(path))


def position_from_file(path: Path) -> Position:
    """`--position @FILE`: the current position of a saved record (the game
    replayed to its last action), or a position written in notation."""
    text = _read_text(path)
    if not any(line.strip().startswith("[") for line in text.splitlines()):
        return parse_position(text.strip())
    try:
        return replay_record(parse_record(text)).position
    except Refusal as r:
        raise NotationError(f"the record does not replay: {r}") from None
