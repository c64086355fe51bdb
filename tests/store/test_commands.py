"""`spit-tui stats`, `history` and `export` over a real stored history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from testkit.store import rows, stored_match

from spit_tui import cli
from spit_tui.engine import parse_record, replay_record
from spit_tui.store.stats import median_s, sparkline, wilson


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("h") / "h.sqlite3"
    for seed in range(5):
        names = ("ANN", "hard") if seed % 2 else ("hard", "ANN")
        levels = ("expert", "hard") if seed % 2 else ("hard", "expert")
        stored_match(path, seed, levels, names=names)
    stored_match(path, 9, ("hard", "hard"), names=("BO", "hard"))
    return path


def test_stats_json_agrees_with_the_stored_games(
    history: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["stats", "--db", str(history), "--json"]) == 0
    players = {p["name"]: p for p in json.loads(capsys.readouterr().out)["players"]}
    assert set(players) == {"ANN", "hard", "BO"}
    for name, p in players.items():
        won = rows(
            history,
            "SELECT count(*), coalesce(sum(won), 0), sum(cards) FROM game_players WHERE name = ?",
            (name,),
        )[0]
        assert (p["games"], p["wins"]) == (won[0], won[1])
        lo, hi = p["interval"]
        assert lo <= p["win_rate"] <= hi
        assert p["best_streak"] >= p["streak"]
        assert p["median_reaction_s"] is not None and 0 < p["median_reaction_s"] < 5
        assert p["cards_per_minute"] > 0
    assert players["ANN"]["games"] == 5


def test_stats_head_to_head_shows_both_sides(
    history: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["stats", "--db", str(history), "--player", "ANN", "--vs", "hard", "--json"]
    assert cli.main(argv) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert [p["name"] for p in players] == ["ANN", "hard"]
    assert players[0]["wins"] + players[1]["wins"] == players[0]["games"] == 5


def test_stats_table_and_history_list_print(
    history: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["stats", "--db", str(history)]) == 0
    out = capsys.readouterr().out
    assert "ANN" in out and "win rate" in out and any(ch in out for ch in "▁▂▃▄▅▆▇█")
    assert cli.main(["history", "--db", str(history), "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert "BO v hard" in out and out.count(" v ") == 2


def test_a_name_with_markup_prints_as_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "h.sqlite3"
    stored_match(path, 2, ("hard", "hard"), names=("[b]ANN[/b]", "[red]BO"))
    assert cli.main(["history", "--db", str(path)]) == 0
    assert "[b]ANN[/b] v [red]BO" in capsys.readouterr().out
    assert cli.main(["stats", "--db", str(path), "--player", "[red]BO"]) == 0
    assert "[red]BO" in capsys.readouterr().out


def test_export_writes_a_record_that_replays(
    history: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.spit"
    assert cli.main(["export", "2", str(out), "--db", str(history)]) == 0
    final = rows(history, "SELECT final_position FROM games WHERE id = 2")[0][0]
    from spit_tui.engine import format_position

    assert format_position(replay_record(parse_record(out.read_text())).position) == final
    capsys.readouterr()
    assert cli.main(["export", "2", str(out), "--db", str(history)]) == 2  # never overwrites
    assert "already exists" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["export", "99", "x.spit"], "no game 99"),
        (["history", "--limit", "0"], "1 or more"),
        (["history", "--limit", "many"], "not a number"),
        (["stats", "--frob"], "unrecognized"),
    ],
)
def test_bad_history_commands_are_one_line_and_exit_2(
    history: Path, argv: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([*argv, "--db", str(history)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and reason in err


def test_no_history_yet_is_said_plainly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["stats"]) == 0
    assert "No finished games" in capsys.readouterr().out
    assert cli.main(["stats", "--db", str(tmp_path / "missing.sqlite3")]) == 2


def test_wilson_and_sparkline() -> None:
    lo, hi = wilson(5, 10)
    assert lo < 0.5 < hi and round(lo, 3) == 0.237
    assert wilson(0, 0) == (0.0, 1.0)
    assert sparkline([1, 2, 3]) == "▁▅█" and sparkline([]) == ""


@given(st.lists(st.integers(0, 5000), min_size=1, max_size=200))
def test_the_counting_median_is_the_median(ms: list[int]) -> None:
    import statistics
    from array import array

    assert median_s(array("I", ms)) == statistics.median(ms) / 1000


def test_lengths_read_as_on_the_game_over_line() -> None:
    """7.9 s of play is 0:07 on the game-over line (whole seconds down), and so
    in history and stats too: one game, one length."""
    from spit_tui.store.commands import _mmss

    shown = {0.0: "0:00", 7.893: "0:07", 59.99: "0:59", 60.0: "1:00", 125.5: "2:05"}
    for secs, text in shown.items():
        assert _mmss(secs) == text
    assert _mmss(None) == "-"


@pytest.mark.parametrize("width", [80, 100, 160])
def test_stats_fits_the_terminal_and_says_what_each_column_counts(
    history: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    """No line wider than the terminal, no header cut to "…", the most
    important columns kept, a legend for those shown and a word for those not."""
    from spit_tui.store.statstable import COLUMNS

    monkeypatch.setenv("COLUMNS", str(width))
    assert cli.main(["stats", "--db", str(history)]) == 0
    out = capsys.readouterr().out
    lines = out.rstrip("\n").split("\n")
    assert max(len(line) for line in lines) <= width, out
    assert "…" not in out
    header = next(line for line in lines if "player" in line and "games" in line)
    shown = [c for c in COLUMNS if f" {c.header} " in header]
    assert [c.header for c in shown[:4]] == ["player", "games", "win rate", "cards/min"]
    assert shown == [c for c in COLUMNS if c in shown]  # by importance: no gaps
    bottom = max(i for i, ln in enumerate(lines) if ln.startswith("└"))
    legend = " ".join(lines[bottom + 1 :])
    for c in shown[1:]:
        assert f"{c.header}: {c.short}" in legend
    if width == 160:
        assert len(shown) == len(COLUMNS) and "not shown" not in out
    else:
        assert "not shown:" in legend and len(lines) - bottom - 1 <= 3
        hidden = legend.split("not shown:")[1]
        assert all(c.header in hidden for c in COLUMNS if c not in shown)


def test_stats_json_keeps_every_figure_whatever_the_width(
    history: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    assert cli.main(["stats", "--db", str(history), "--json"]) == 0
    player = json.loads(capsys.readouterr().out)["players"][0]
    assert {"races_won", "slaps_won", "best_win_s", "last", "median_reaction_s"} <= set(player)


def test_stats_help_explains_each_column(capsys: pytest.CaptureFixture[str]) -> None:
    from spit_tui.store.statstable import COLUMNS

    assert cli.main(["stats", "--help"]) == 0
    out = capsys.readouterr().out
    for c in COLUMNS:
        assert c.header in out and c.means in out
