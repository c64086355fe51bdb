"""Resume any quit game, not only the newest (issue 21, item 6): the quit
dialog and the end line say the game is kept and the command that resumes it;
the game's id comes with it once the history has stored it."""

from __future__ import annotations

from pathlib import Path

import pytest
from testkit.app import advance, key_for_action, make_app, press, screen_text

from spit_tui.engine import Player, Ready
from spit_tui.store.history import HistoryWriter


def with_history(app: object, path: Path) -> HistoryWriter:
    writer = HistoryWriter(path, threaded=False)
    writer.names = ("ANA", "BEN")
    app.attach_history(writer)  # type: ignore[attr-defined]
    return writer


async def test_the_quit_dialog_and_the_end_line_say_how_to_resume(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    app = make_app(seed=3)
    with_history(app, path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+q")  # nothing played yet: nothing to keep
        assert "kept" not in await screen_text(pilot)
        await pilot.press("escape")
        await advance(pilot, 0.5)
        await press(pilot, [key_for_action(Ready(p)) for p in Player])
        await advance(pilot, 1.0)
        await pilot.press("ctrl+q")
        text = await screen_text(pilot)
        assert "Quit the game?" in text
        assert "The game is kept: spit-tui --resume continues it." in text
        await pilot.press("enter")
    line = f"game 1 is kept unfinished: spit-tui --resume 1 --db {path} continues it"
    assert app.kept_line() == line


async def test_once_stored_the_dialog_names_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = Path("h.sqlite3")  # a short --db, so the command fits the dialog's line
    app = make_app(seed=3)
    writer = with_history(app, path)
    async with app.run_test(size=(100, 30)) as pilot:
        await advance(pilot, 0.5)
        await press(pilot, [key_for_action(Ready(p)) for p in Player])
        await advance(pilot, 1.0)
        writer.save(app.table)  # as at a round end
        await pilot.press("ctrl+q")
        text = " ".join((await screen_text(pilot)).split())
        assert f"The game is kept: spit-tui --resume 1 --db {path} continues it." in text
        await pilot.press("escape")


async def test_no_history_no_word_of_resuming() -> None:
    app = make_app(seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await advance(pilot, 0.5)
        await press(pilot, [key_for_action(Ready(p)) for p in Player])
        await advance(pilot, 1.0)
        await pilot.press("ctrl+q")
        assert "kept" not in await screen_text(pilot)
        await pilot.press("enter")
    assert app.kept_line() == ""
