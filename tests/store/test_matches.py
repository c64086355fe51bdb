"""Matches (issue 23, item 4): first to N games; the history groups a match's
games under its first game's id, and ratings count every game."""

from __future__ import annotations

from pathlib import Path

import pytest
from testkit.store import rows

from spit_tui.engine import Player
from spit_tui.match import Match
from spit_tui.matchscore import MatchScore
from spit_tui.store.commands import history_main
from spit_tui.store.history import HistoryWriter


def test_first_to_n_counts_wins_and_ends() -> None:
    m = MatchScore(2)
    assert m.line(("ANN", "BO")) == "match ANN 0 : 0 BO, first to 2"
    m.add(Player.LEFT)
    m.add(None)  # a game nobody won counts as played, not won
    m.add(Player.RIGHT)
    assert not m.over and m.games == 3
    m.add(Player.RIGHT)
    assert m.over and m.winner is Player.RIGHT
    assert m.line(("ANN", "BO")) == "BO wins the match 2 : 1"
    m.add(Player.LEFT)  # after the match is won, nothing more counts
    assert m.wins == [1, 2]
    nxt = m.next()
    assert (nxt.number, nxt.first_to, nxt.wins) == (2, 2, [0, 0])
    long = MatchScore(3).line(("A" * 16, "B" * 16))
    assert long == "match 0 : 0, first to 3"
    with pytest.raises(ValueError):
        MatchScore(0)


def test_the_history_groups_a_matchs_games_and_rates_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "h.sqlite3"
    writer = HistoryWriter(path, threaded=False)  # one session's writer, as the app has
    writer.names = ("ANN", "BO")
    for seed, in_match in ((0, (1, 3)), (1, (1, 3)), (5, None), (6, (2, 3))):
        writer.in_match = in_match  # the app tells it, as a match goes on
        match = Match("expert", "expert", seed=seed)
        writer.attach(match.table)
        match.run()
    writer.close()
    assert rows(path, "SELECT id, match_id, match_first_to FROM games ORDER BY id") == [
        (1, 1, 3), (2, 1, 3), (3, None, None), (4, 4, 3),
    ]
    assert rows(path, "SELECT count(*) FROM game_players WHERE mu IS NOT NULL") == [(8,)]
    assert history_main(["--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "match 1 game 1/3" in out and "match 1 game 2/3" in out
    assert "match 4 game 1/3" in out and "part of" in out
