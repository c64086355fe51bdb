"""Helpers for the history tests: bot matches stored through a real writer into a
real SQLite file, and a look at what was stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from spit_tui.engine import Options, Player, Position, Record
from spit_tui.match import Match, MatchResult
from spit_tui.players.level import Level
from spit_tui.store.history import HistoryWriter, Snapshot


def stored_match(
    path: Path,
    seed: int,
    levels: tuple[str | Level, str | Level] = ("expert", "expert"),
    *,
    options: Options | None = None,
    names: tuple[str, str] | None = None,
    threaded: bool = False,
    rungs: dict[Player, int] | None = None,
    daily: str | None = None,
    in_match: tuple[int, int] | None = None,
    identities: tuple[str | None, str | None] = (None, None),
    deal: int | None = None,
    position: Position | None = None,
) -> tuple[Match, MatchResult, HistoryWriter]:
    """A whole bot match, stored as the app stores a game (round ends, game end).
    `rungs`: the seats the computer plays (the writer is told, as the app tells it)."""
    match = Match(
        levels[0], levels[1], seed=seed, options=options, deal=deal, position=position
    )
    writer = HistoryWriter(path, threaded=threaded)
    writer.names = names or (str(levels[0]), str(levels[1]))
    writer.rungs = rungs or {}
    writer.daily = daily
    writer.in_match = in_match
    writer.identities = identities
    writer.attach(match.table)
    result = match.run()
    writer.close()
    return match, result, writer


def count_set_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the history count games begun from a set position as if dealt: a test
    that starts near the end to reach game over in a second, but is about what a
    counted game shows (a rating change, a best, the daily table), not about
    which games count (tests/store/test_set_position.py is)."""
    monkeypatch.setattr(Record, "from_deal", lambda self: True)


def rows(path: Path, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


class TellingWriter(HistoryWriter):
    """Prints "stored GAME_ID ROUNDS" once each write has committed."""

    def __init__(self, path: Path, match: Match) -> None:
        super().__init__(path, threaded=False, busy_s=5.0)
        self.match = match

    def _write(self, snap: Snapshot) -> None:
        before = self.writes
        super()._write(snap)
        if self.writes > before:
            rounds = len({r.round for r in self.match.table.shown.rounds})
            print(f"stored {self.game_ids[snap.key]} {rounds}", flush=True)


def main(argv: list[str]) -> int:
    """`python tests/testkit/store.py DB FIRST_SEED GAMES`: store bot matches into DB, one after
    another, saying what was stored after each commit (for the process tests)."""
    import sys

    path, first, games = Path(argv[0]), int(argv[1]), int(argv[2])
    for seed in range(first, first + games):
        match = Match("expert", "expert", seed=seed)
        writer = TellingWriter(path, match)
        writer.names = (f"L{seed}", f"R{seed}")
        writer.attach(match.table)
        match.run()
        writer.close()
        if writer.problem is not None:
            print(f"problem {writer.problem}", file=sys.stderr, flush=True)
            return 1
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
