"""`spit-tui replay`: a stored game played back on the game's own board, with
pause, steps both ways, speed and round jumps; bad input is one line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spit_tui import cli
from spit_tui.app import SpitApp
from spit_tui.app.banner import Banner
from spit_tui.app.board import BoardView
from spit_tui.app.replay import OVER_KEYS, SPEEDS, ReplayMode, replay_app
from spit_tui.clock import VirtualClock, clock_text
from spit_tui.engine import Game, Phase, Player, Record, format_record
from spit_tui.store.records import record_of
from spit_tui.table import Outcome, Table


def replay(app: SpitApp) -> ReplayMode:
    assert isinstance(app.mode, ReplayMode)
    return app.mode


def _record(seed: int = 4) -> tuple[Record, Game]:
    """A whole game by a seeded random player (engine choices only, so the bots'
    tuning never changes it) played through a Table on a virtual clock, a try
    every 0.3 s, so its stamps are times the table took the actions at."""
    game = Game(seed=seed)
    table = Table(game, VirtualClock())
    pick = random.Random(seed)
    while not game.over:
        table.clock.advance(0.3)  # type: ignore[attr-defined]
        p = pick.choice(list(Player))
        acts = game.legal_actions(p) or game.legal_actions(p.other)
        table.submit(pick.choice(acts), "key")
    return record_of(table, tags={"Left": "ANN", "Right": "BO"}), game


def _at(rec: Record, n: int) -> Game:
    game = Game(options=rec.options, seed=rec.seed, position=rec.start)
    for a in rec.actions[:n]:
        game.apply(a)
    return game


async def test_stepping_and_jumping_show_the_games_own_positions() -> None:
    rec, played = _record()
    app = replay_app(rec, "test", playing=False)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(12):
            await pilot.press("right")
        assert replay(app).index == 12 and app.table.position == _at(rec, 12).position
        assert app.query_one(BoardView).scene == app.table.scene()  # the game's own board shows it
        await pilot.press("left", "left")
        assert replay(app).index == 10 and app.table.position == _at(rec, 10).position
        await pilot.press("end")
        assert app.table.position == played.position and app.table.position.winner is not None
        assert app.table.counts[Outcome.APPLIED] == len(rec.actions)  # all through the table
        over = app.query_one(Banner).render().plain
        stepped = replay_app(rec, "test", playing=False)
        for _ in rec.actions:
            replay(stepped)._forward()
        assert stepped.table.play_seconds() > 10  # the play time counted, not 0:00
        assert f"{clock_text(stepped.table.play_seconds())} of play" in over
        assert "Home: watch it again" in over and "new game" not in over  # the viewer's keys
        await pilot.press("home", "pagedown")
        assert replay(app).round_no == 2 and replay(app).index == replay(app).rounds[1]
        await pilot.press("pagedown", "pageup")
        assert replay(app).round_no == 2 and replay(app).index == replay(app).rounds[1]
        for _ in range(6):
            await pilot.press("plus")
        assert replay(app).speed == SPEEDS[-1]
        for _ in range(6):
            await pilot.press("minus")
        assert replay(app).speed == SPEEDS[0]


async def test_playing_follows_the_record_and_reaches_its_end() -> None:
    rec, played = _record(5)
    app = replay_app(rec, "test", playing=True)
    async with app.run_test(size=(100, 30)) as pilot:
        replay(app).speed = SPEEDS[-1]
        await pilot.pause(0.6)
        assert replay(app).index > 0
        for _ in range(len(rec.actions)):  # the rest, without waiting for the pace
            replay(app)._forward()
        assert app.table.position == played.position
        assert app.table.game.log == rec.actions
        await pilot.press("space")
        assert not replay(app).playing


async def test_the_replays_banner_tells_what_the_players_did_never_keys_to_press() -> None:
    """A replay's viewer has its own keys only: the banner says what the
    players do (it said "both press any key of your half to spit"), and at
    game over the replay's keys."""
    rec, _ = _record(5)
    app = replay_app(rec, "test", playing=False)

    def said() -> str:
        return str(app.screen.query_one(Banner).render())

    async with app.run_test(size=(100, 30)) as pilot:
        opening = said()
        assert "Round 1: both players spit to begin" in opening, opening
        assert "ANN … not yet" in opening and "BO … not yet" in opening
        while app.table.position.phase is not Phase.PLAY:
            await pilot.press("right")
        assert "Both play at once" in said() and "row" not in said()
        await pilot.press("end")
        over = said()
        assert "GAME OVER" in over and OVER_KEYS in over and "Enter" not in over
        for text in (opening, over):
            assert "press" not in text and "your half" not in text


@pytest.mark.parametrize("key", ["q", "escape", "ctrl+q", "ctrl+c"])
async def test_a_replay_quits_at_once_and_its_keys_are_not_game_keys(key: str) -> None:
    """The replay is the one app in its mode: nothing is lost by quitting, so
    no dialog asks first; its keys are its own (no key plays a card)."""
    rec, _ = _record(5)
    app = replay_app(rec, "test", playing=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("a", "p", "enter", "f4")
        assert replay(app).index == 0 and not app.table.game.log
        await pilot.press(key)
        await pilot.pause()
        assert app.return_code == 0 and not app.is_running


def test_replay_from_a_file_and_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.spit"
    bad.write_text('[Seed "1"]\nL1a L1a L1a\n')
    assert cli.main(["replay", str(bad)]) == 2
    assert "does not replay" in capsys.readouterr().err
    assert cli.main(["replay", str(tmp_path / "missing.spit")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert cli.main(["replay", "7", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "no history" in capsys.readouterr().err
    good = tmp_path / "g.spit"
    rec, _ = _record()
    good.write_text(format_record(rec))
    assert cli.main(["replay", str(good)]) != 0  # a test has no terminal: refused in one line
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "terminal" in err


def test_the_replay_screen(snap_compare: object) -> None:
    rec, _ = _record()
    app = replay_app(rec, "game 1: ANN v BO", playing=False)

    async def before(pilot: object) -> None:
        replay(app).goto(30)

    assert snap_compare(app, terminal_size=(100, 30), run_before=before)  # type: ignore[operator]


async def test_a_game_against_the_computer_replays_as_the_game_showed_it() -> None:
    """The person unnamed against the computer is YOU (as on the board and in the
    history; records stored as LEFT before say YOU too), the computer's half
    is COMPUTER with its level and no keys."""
    from spit_tui.store.resume import computer_tag

    rec, _ = _record()
    for stored in ("YOU", "LEFT"):
        rec.tags.update({"Left": stored, "Right": "computer (hard)"})
        rec.tags.update(computer_tag({Player.RIGHT: "hard"}))
        app = replay_app(rec, "game 1: YOU v computer (hard)", playing=False)
        async with app.run_test(size=(100, 30)) as pilot:
            replay(app).goto(len(rec.actions))
            await pilot.pause()
            assert app.table.seats.names == ("YOU", "COMPUTER")
            assert app.table.seats.level(Player.RIGHT) == "hard"
            text = "\n".join(
                "".join(seg.text for seg in line) for line in app.query_one(BoardView).lines()
            )
            assert "[Y]" not in text and "[Q]" in text  # no keys on the computer's half
            banner = app.query_one(Banner).render().plain
            assert ("You win" in banner) or ("COMPUTER wins" in banner)


def test_the_header_fits_100_columns_and_says_the_time_is_real_time() -> None:
    from spit_tui.app.replay import header_line

    tail = "round 12 · action 400/412 · 12:34/15:00 real time · x0.5 · playing"
    title = "game 123: " + "W" * 16 + " v " + "computer (auto)"
    for width in (80, 100):
        line = header_line(title, tail, width)
        assert line.cell_len <= width and line.plain.endswith(tail)
    assert header_line("game 1: ANN v BO", tail, 100).plain == f" game 1: ANN v BO · {tail}"


@pytest.mark.parametrize(
    ("args", "env", "layout"),
    [([], None, "us"), (["--layout", "fr"], None, "fr"), ([], "de", "de")],
)
def test_the_replay_labels_the_keys_of_the_layout_in_use(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    env: str | None,
    layout: str,
) -> None:
    """--layout, --keys and SPIT_LAYOUT choose the keys as for a game, and the
    replay's board labels them (a game played on AZERTY is not shown in US keys)."""
    import spit_tui.terminal

    if env is None:
        monkeypatch.delenv("SPIT_LAYOUT", raising=False)
    else:
        monkeypatch.setenv("SPIT_LAYOUT", env)
    monkeypatch.setattr(spit_tui.terminal, "terminal_problem", lambda: None)
    ran: list[SpitApp] = []

    async def run_async(self: SpitApp) -> None:
        ran.append(self)

    monkeypatch.setattr(SpitApp, "run_async", run_async)
    good = tmp_path / "g.spit"
    rec, _ = _record()
    good.write_text(format_record(rec))
    assert cli.main(["replay", str(good), *args]) == 0
    app = ran[0]
    assert isinstance(app.mode, ReplayMode)
    assert app.keymap.name == layout and app.table.keymap is app.keymap


async def test_the_replay_board_shows_the_keys_of_its_key_map() -> None:
    from spit_tui.keys.keymap import KeyMap
    from spit_tui.keys.layout import preset

    rec, _ = _record()
    app = replay_app(rec, "test", playing=False)
    app.use_keys(KeyMap.of(preset("fr")))  # as the start-up hands them over
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("right")
        lines = app.query_one(BoardView).lines()
        text = "\n".join("".join(seg.text for seg in line) for line in lines)
        assert "[A]   [Z]   [E]" in text and "[Q]   [W]   [E]" not in text
        await pilot.press("home")  # a rebuilt table keeps the keys
        assert app.table.keymap is app.keymap


def test_a_bad_layout_for_the_replay_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "g.spit"
    rec, _ = _record()
    good.write_text(format_record(rec))
    assert cli.main(["replay", str(good), "--layout", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("spit-tui replay: --layout: no layout 'nope'")
