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
    if names != seen.names:
        return f"its players ({_one_line(' v '.join(names), 40)}) are not the board's"
    if fig.winner != seen.winner or fig.final.round != seen.round:
        return "its end (winner or round) is not the one this board showed"
    if record.options != seen.options or fig.final.scores != seen.scores:
        return "its game (options or scores) is not the one this board showed"
    if not all(0 <= n <= len(record.actions) for n in lost) or not 0 <= play_s <= MAX_PLAY_S:
        return "its figures are out of range"
    return Joined(record, names, lost, play_s)

