"""The game record from the app: help page 1 shows no hidden card, F2 there saves
the game so far (with each action's time and source) to the user's state
directory, every game draws a seed, and `--position @FILE` reads a saved record."""

from __future__ import annotations

from pathlib import Path

import pytest
from testkit.app import advance, key_for_action, make_app, press, screen_text

from spit_tui import cli
from spit_tui.app import SpitApp
from spit_tui.app.help import HelpScreen
from spit_tui.clock import VirtualClock
from spit_tui.engine import (
    Game,
    Phase,
    Player,
    Ready,
    Source,
    complete_position,
    format_position,
    parse_position,
    parse_record,
    replay_record,
)
from spit_tui.store.records import position_from_file, record_of
from spit_tui.table import Table

OVER = "play 4 one:R - :7h/-/-/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh 6d6h 0,0"
PLAY = "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0"


async def test_help_page_one_shows_no_hidden_card_and_f2_saves_the_record(
    user_dirs: Path,
) -> None:
    app = make_app(seed=4)
    async with app.run_test(size=(100, 30)) as pilot:
        await advance(pilot, 0.5)
        await press(pilot, [key_for_action(Ready(p)) for p in Player])
        await advance(pilot, 1.0)
        game = app.table.game
        move = next(a for a in game.legal_actions(Player.LEFT) if type(a).__name__ == "Play")
        await advance(pilot, 0.5)
        await press(pilot, key_for_action(move))
        assert len(game.log) == 3
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        text = await screen_text(pilot)
        hidden = [c for side in game.position.sides for c in side.spit]
        hidden += [c for side in game.position.sides for s in side.slots for c in s.cards[:-1]]
        notation = format_position(game.position)
        assert notation.split()[5] not in text and notation[:30] not in text
        assert "F2" in text
        await pilot.press("f2")
        text = await screen_text(pilot)
        files = list((user_dirs / "xdg_state_home").rglob("*.spit"))
        assert len(files) == 1
        assert files[0].name in text
        rec = parse_record(files[0].read_text())
        assert rec.seed == 4 and rec.actions == game.log
        assert [s.source for s in rec.stamps if s is not None] == [Source.KEY] * 3
        ms = [s.ms for s in rec.stamps if s is not None]
        assert ms == [500, 500, 2000]
        assert replay_record(rec).position == game.position
        assert hidden  # the test looked at real hidden cards


async def test_f2_says_why_when_the_state_directory_cannot_be_written(
    user_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = user_dirs / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    app = make_app(PLAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f1")
        await pilot.press("f2")
        text = await screen_text(pilot)
        assert "Could not save the game" in text
        assert isinstance(app.screen, HelpScreen)


async def test_every_game_draws_a_seed_even_without_one() -> None:
    over = complete_position(parse_position(OVER, check=False))
    app = SpitApp(clock=VirtualClock(), position=over)
    assert app.seed is None and app.table.game.seed is not None
    other = SpitApp(clock=VirtualClock())
    game = other.table.game
    assert game.seed is not None and Game(seed=game.seed).start == game.start
    async with app.run_test(size=(100, 30)) as pilot:
        await advance(pilot, 0.5)
        await press(pilot, "q")  # the last card: game over
        assert app.table.position.phase is Phase.OVER
        await advance(pilot, 2.0)
        first = app.table.game
        await pilot.press("enter")
        fresh = app.table.game
        assert fresh is not first and fresh.seed is not None
        assert Game(seed=fresh.seed).start == fresh.start  # the seed alone rebuilds the deal


def test_a_computer_move_is_stamped_as_the_computers() -> None:
    clock = VirtualClock()
    table = Table(Game(seed=2), clock)
    clock.advance(0.5)  # past the guard on keys just after the phase appears
    table.submit(Ready(Player.LEFT), "key")
    clock.advance(0.25)
    table.submit(Ready(Player.RIGHT), "bot")
    clock.advance(1.0)
    rec = record_of(table)
    got = [(s.ms, s.source) for s in rec.stamps if s]
    assert got == [(500, Source.KEY), (750, Source.COMPUTER)]
    assert rec.start is None  # a fresh deal: the seed is enough


def test_a_ready_still_counting_down_is_not_in_the_record_yet() -> None:
    clock = VirtualClock()
    table = Table(Game(seed=2), clock)
    clock.advance(0.5)
    table.submit(Ready(Player.LEFT))
    table.submit(Ready(Player.RIGHT))
    assert table.counting_down
    rec = record_of(table)
    assert len(rec.actions) == 1 and rec.stamps[0] is not None
    clock.advance(1.0)
    assert len(record_of(table).actions) == 2


def test_position_at_file_starts_from_a_saved_records_current_position(tmp_path: Path) -> None:
    clock = VirtualClock()
    table = Table(Game(seed=9), clock)
    clock.advance(0.5)
    for p in Player:
        table.submit(Ready(p))
    clock.advance(1.0)
    from spit_tui.engine import format_record

    path = tmp_path / "g.spit"
    path.write_text(format_record(record_of(table)))
    assert position_from_file(path) == table.position
    bare = tmp_path / "p.txt"
    bare.write_text(format_position(table.position) + "\n")
    assert position_from_file(bare) == table.position


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ('[Seed "1"]\nL1a L1a L1a\n', "does not replay"),
        ('[Seed "1"]\nL9z\n', "line 2"),
        (b"\xff\xfe", "not UTF-8"),
        ("play 1 two", "position has 10 fields"),
    ],
)
def test_position_at_a_bad_file_is_one_line_and_exit_2(
    tmp_path: Path, content: str | bytes, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.spit"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    assert cli.main(["--position", f"@{path}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and reason in err and "Traceback" not in err


def test_position_at_a_missing_file_or_a_fifo_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    assert cli.main(["--position", f"@{tmp_path / 'nope'}"]) == 2
    assert "cannot read" in capsys.readouterr().err
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert cli.main(["--position", f"@{fifo}"]) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_every_action_keeps_its_stamp_however_many_keys_came_between() -> None:
    """The table stamps each action as it applies it: a long game whose held
    keys fill the bounded decision log still has a stamp on every action (the
    stamps were once rebuilt from that log, and the early ones were lost)."""
    clock = VirtualClock()
    table = Table(Game(seed=2), clock, log_limit=8)
    assert table.decisions.maxlen == 8
    clock.advance(0.5)
    table.submit(Ready(Player.LEFT), "key")
    clock.advance(0.25)
    table.submit(Ready(Player.RIGHT), "bot")
    for _ in range(20):  # a held key: refused, each with its Decision
        clock.advance(0.1)
        table.submit(Ready(Player.LEFT), "key")
    rec = record_of(table)
    assert [(s.ms, s.source) for s in rec.stamps if s] == [
        (500, Source.KEY), (750, Source.COMPUTER)
    ]
