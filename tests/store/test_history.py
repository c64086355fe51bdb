"""The history store: games written at every round end, one transaction each,
figures that agree with the table, records that replay, migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from testkit.store import rows, stored_match

from spit_tui.engine import Options, Variant, format_position, parse_record, replay_record
from spit_tui.store import db
from spit_tui.store.figures import figures
from spit_tui.store.queries import reaction_times


def test_a_match_is_stored_at_every_round_end_with_its_figures(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    _, result, writer = stored_match(path, 3, names=("ANN", "BO"))
    assert writer.problem is None
    (game,) = rows(path, "SELECT id, left_name, right_name, result, finished, rounds FROM games")
    assert game[1:] == ("ANN", "BO", result.winner.letter if result.winner is not None else None, 1,
                        result.rounds)
    n_rounds = rows(path, "SELECT count(*) FROM rounds")[0][0]
    assert n_rounds == result.rounds
    assert writer.writes >= result.rounds  # at least one transaction per round end
    players = rows(
        path, "SELECT seat, name, won, cards, races_won, races_lost FROM game_players ORDER BY seat"
    )
    assert [p[3] for p in players] == list(result.plays)
    assert [p[5] for p in players] == list(result.lost_races)
    assert [p[4] for p in players] == list(reversed(result.lost_races))
    assert sum(p[2] for p in players) == 1
    times = reaction_times("ANN", path)
    assert len(times) == result.plays[0] - _unstamped_plays(path)
    assert all(0 <= t < 10 for t in times)


def test_the_stored_play_time_is_the_game_over_lines(tmp_path: Path) -> None:
    """play_seconds is the table's play clock (the figure the game-over line
    shows), not the game's whole time: the waits for each spit are left out."""
    path = tmp_path / "h.sqlite3"
    match, result, _ = stored_match(path, 5)
    ((stored,),) = rows(path, "SELECT play_seconds FROM games")
    assert stored == round(match.table.play_seconds(), 3)
    assert 0 < stored < result.seconds - result.rounds * 0.5  # every spit is waited for


def _unstamped_plays(path: Path) -> int:
    (text,) = rows(path, "SELECT record FROM games")[0]
    assert isinstance(text, str)
    rec = parse_record(text)
    fig = figures(rec)
    return fig.players[0].cards - len(fig.players[0].reactions)


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    levels=st.sampled_from([("expert", "expert"), ("hard", "normal"), ("expert", "easy")]),
    variant=st.sampled_from(list(Variant)),
)
def test_every_stored_record_replays_to_its_stored_final_position(
    seed: int, levels: tuple[str, str], variant: Variant
) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "h.sqlite3"
        opts = Options(variant=variant, target=60)
        match, _, writer = stored_match(path, seed, levels, options=opts)
        assert writer.problem is None
        for text, final in rows(path, "SELECT record, final_position FROM games"):
            assert isinstance(text, str)
            game = replay_record(parse_record(text))
            assert format_position(game.position) == final
            assert game.position == match.game.position


def test_a_version_1_file_opens_with_the_newest_code(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    # Make a version-1 history by hand, as the first release wrote it.
    _, result, _ = stored_match(tmp_path / "new.sqlite3", 5, names=("ANN", "BO"))
    (record, final) = rows(tmp_path / "new.sqlite3", "SELECT record, final_position FROM games")[0]
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.MIGRATIONS[0](conn)
    conn.execute("INSERT INTO schema_version VALUES (1)")
    conn.execute(
        "INSERT INTO games (started, left_name, right_name, variant, target, manual_flip,"
        " seed, result, finished, play_seconds, rounds, record, final_position)"
        " VALUES ('2026-01-01T00:00:00+00:00', 'ANN', 'BO', 'standard', 100, 0, '5', ?, 1,"
        " 60.0, ?, ?, ?)",
        (result.winner.letter if result.winner is not None else None, result.rounds, record, final),
    )
    conn.commit()
    conn.close()
    db.connect(path).close()
    assert rows(path, "SELECT max(version) FROM schema_version")[0][0] == db.SCHEMA_VERSION
    assert rows(path, "SELECT count(*) FROM games")[0][0] == 1
    cards = rows(path, "SELECT cards FROM game_players ORDER BY seat")
    assert [c[0] for c in cards] == list(result.plays)  # figures worked out from the record
    assert reaction_times("ANN", path)
    assert rows(path, "PRAGMA journal_mode")[0][0] == "wal"


def test_a_threaded_writer_stores_the_same_as_an_inline_one(tmp_path: Path) -> None:
    a, b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    stored_match(a, 8)
    stored_match(b, 8, threaded=True)
    sql = "SELECT record, final_position, rounds, result FROM games"
    assert rows(a, sql) == rows(b, sql)
