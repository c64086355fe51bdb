"""A game played at someone else's host, kept in this player's own history
(`spit-tui join`): the host sends the finished game's record at game over
(never before: a record holds every card), and `spit-tui stats` here counts
it like a game played at this keyboard.

Everything the host sends is untrusted. Before a record is kept it must read
as a record, replay to a finished game from its own start, and agree with
what this seat was shown at game over: the names, the winner, the round and
the scores. A record that fails is not kept, and the reason is one line.
"""

from __future__ import annotations

from typing import NamedTuple

from spit_tui.engine import NotationError, Phase, Record, parse_record
from spit_tui.scene import Scene
from spit_tui.store.records import MAX_RECORD_BYTES

MAX_PLAY_S = 10**6  # seconds of play a kept game may claim


class Joined(NamedTuple):
    """A record from the host that passed every check, with what stats need."""

    record: Record
    names: tuple[str, str]
    lost: tuple[int, int]  # races each seat lost
    play_s: float
    rungs: tuple[int | None, int | None] = (None, None)  # the computer's rung per seat


def _rungs(tags: dict[str, str]) -> tuple[int | None, int | None] | str:
    """The computer's rung per seat from the record's tags: a seat it played
    from the start ("Computer": "R level 5") and one it took over from a
    player ("Takeover": "R 6 @83.250"), so the ratings here treat it as the
    host's did (a level is an anchor; a player whose seat it finished is not
    rated); or why not (one line)."""
    from spit_tui.engine import Player
    from spit_tui.store.ratings import ANCHORS, RUNG_OF_LEVEL
    from spit_tui.store.resume import TAKEOVER_TAG, computer_seats

    rungs: list[int | None] = [None, None]
    for p, words in computer_seats(tags).items():
        level = words.removeprefix("level ")
        rungs[p] = int(level) if level.isdigit() else RUNG_OF_LEVEL.get(words)
    took = tags.get(TAKEOVER_TAG, "").split()
    seats = {p.letter: p for p in Player}
    for seat, rung in zip(took[::3], took[1::3], strict=False):
        if seat not in seats or not rung.isdigit():
            return "its computer seat is not one this game has"
        rungs[seats[seat]] = int(rung)
    if any(r is not None and r not in ANCHORS for r in rungs):
        return "its computer's level is not one the ladder has"
    return rungs[0], rungs[1]


def _same_player(board: str, stored: str) -> bool:
    """The board's name and the record's are one seat: equal, or the
    computer's (the board says COMPUTER, the record its level)."""
    from spit_tui.names import COMPUTER
    from spit_tui.store.ratings import is_computer

    return board == stored or (board == COMPUTER and is_computer(stored))


def _one_line(text: str, limit: int = 100) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def check_joined(text: str, lost: tuple[int, int], play_s: float, seen: Scene) -> Joined | str:
    """The host's record if it is a finished game that agrees with `seen`
    (the seat's last scene, at game over); else why not, one line."""
    from spit_tui.store.figures import figures

    if len(text) > MAX_RECORD_BYTES:
        return f"it is {len(text):,} characters long, more than a game's record can be"
    try:
        record = parse_record(text)
    except NotationError as e:
        return f"it does not read as a record ({_one_line(str(e))})"
    try:
        fig = figures(record)
    except Exception as e:  # a log that does not fit its start, or worse
        return f"it does not replay ({_one_line(str(e) or type(e).__name__)})"
    if fig.final.phase is not Phase.OVER:
        return "it is not a finished game"
    names = (record.tags.get("Left", ""), record.tags.get("Right", ""))
    if not all(map(_same_player, seen.names, names)):
        return f"its players ({_one_line(' v '.join(names), 40)}) are not the board's"
    if fig.winner != seen.winner or fig.final.round != seen.round:
        return "its end (winner or round) is not the one this board showed"
    if record.options != seen.options or fig.final.scores != seen.scores:
        return "its game (options or scores) is not the one this board showed"
    if not all(0 <= n <= len(record.actions) for n in lost) or not 0 <= play_s <= MAX_PLAY_S:
        return "its figures are out of range"
    rungs = _rungs(record.tags)
    if isinstance(rungs, str):
        return rungs
    return Joined(record, names, lost, play_s, rungs)

