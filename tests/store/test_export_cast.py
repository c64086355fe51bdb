"""`spit-tui export GAME_ID FILE.cast` (issue 23, item 5): a stored game's replay
as an asciinema v2 recording that asciinema itself reads back, ending on the
game-over banner."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from testkit.store import stored_match

from spit_tui import cli
from spit_tui.app.cast import MAX_GAP_S, cap_gaps
from spit_tui.engine import Options, Variant


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("cast")
    db = d / "h.sqlite3"
    stored_match(db, 4, names=("ANN", "BO"), options=Options(variant=Variant.POINTS, target=40))
    out = d / "game.cast"
    assert cli.main(["export", "1", str(out), "--db", str(db)]) == 0
    return db, out


def test_the_recording_is_asciicast_v2_with_the_records_timing(
    recording: tuple[Path, Path],
) -> None:
    _, out = recording
    lines = out.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["version"] == 2 and (header["width"], header["height"]) == (80, 24)
    assert header["idle_time_limit"] == MAX_GAP_S and "ANN v BO" in header["title"]
    events = [json.loads(line) for line in lines[1:]]
    times = [e[0] for e in events]
    assert all(e[1] == "o" for e in events) and len(events) > 50
    assert times == sorted(times)
    gaps = [b - a for a, b in itertools.pairwise(times[:-1])]  # the last: the end held
    assert max(gaps) <= MAX_GAP_S + 1e-9  # idle gaps capped
    assert "GAME OVER" in events[-2][2]  # the last frame drawn is the game-over banner
    assert all("GAME OVER" not in e[2] for e in events[:-2])


def test_asciinema_reads_it_back(recording: tuple[Path, Path]) -> None:
    _, out = recording
    done = subprocess.run(
        [sys.executable, "-m", "asciinema", "cat", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.rsplit("GAME OVER", 1)
    assert len(last) == 2 and "ANN" in done.stdout
    assert "Round" not in last[1]  # nothing of play is drawn after the game-over banner
    assert "step" not in done.stdout  # the replay's own keys ("→ ← step") are not recorded


def test_gaps_are_capped() -> None:
    assert cap_gaps([0.0, 1.0, 10.0, 10.5]) == [0.0, 1.0, 1.0 + MAX_GAP_S, 1.5 + MAX_GAP_S]


def test_an_existing_file_or_a_bad_size_is_one_line(
    recording: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, out = recording
    before = out.read_bytes()
    assert cli.main(["export", "1", str(out), "--db", str(db)]) != 0
    err = capsys.readouterr().err
    assert "already exists" in err and err.count("\n") == 1
    assert out.read_bytes() == before
    assert cli.main(["export", "1", str(out.with_name("x.cast")), "--size", "10x5",
                     "--db", str(db)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
