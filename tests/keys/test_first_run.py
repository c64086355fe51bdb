"""The first-run check: asked only when nothing chose a layout; a French
player's two keys find AZERTY (each asked of the player whose half it is in),
a wrong key gets a true word, the board is relabelled, Enter saves it."""

from __future__ import annotations

from pathlib import Path

import pytest
from testkit.app import make_app, screen_text, settle

from spit_tui import cli
from spit_tui.keys import config
from spit_tui.keys.keymap import KeyMap
from spit_tui.keys.layout import preset


async def asked(pilot: object) -> str:
    """The screen once the check is up (it is pushed after the first refresh)."""
    from spit_tui.app.keyscreens import FirstRunScreen

    for _ in range(50):
        if isinstance(pilot.app.screen, FirstRunScreen):  # type: ignore[attr-defined]
            break
        await pilot.pause(0.02)  # type: ignore[attr-defined]
    return await screen_text(pilot)  # type: ignore[arg-type]


POSITION = "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Run the command line up to the app, and keep the app instead of running it."""
    apps: list[object] = []
    monkeypatch.setattr("spit_tui.terminal.terminal_problem", lambda *a, **k: None)
    monkeypatch.setattr(cli, "_run", lambda app, *a: apps.append(app) or 0)
    monkeypatch.delenv("SPIT_LAYOUT", raising=False)
    return apps


def first_run(started: list[object], argv: list[str]) -> bool:
    assert cli.main(["--no-history", *argv]) == 0
    return bool(started[-1].first_run)  # type: ignore[attr-defined]


def test_asked_when_nothing_chose(started: list[object]) -> None:
    assert first_run(started, [])
    assert first_run(started, ["--vs-computer"])


def test_never_asked_when_a_layout_is_given(
    started: list[object], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert not first_run(started, ["--layout", "de"])
    f = tmp_path / "k.toml"
    f.write_text('layout = "ru"\n', encoding="utf-8")
    assert not first_run(started, ["--keys", str(f)])
    assert not first_run(started, ["--demo"])
    monkeypatch.setenv("SPIT_LAYOUT", "fr")
    assert not first_run(started, [])
    monkeypatch.delenv("SPIT_LAYOUT")
    config.save(preset("dvorak"))
    assert not first_run(started, [])


def test_never_asked_with_a_position(started: list[object]) -> None:
    from spit_tui.engine import Game, format_position

    pos = format_position(Game(seed=1).position)
    assert not first_run(started, ["--position", pos])


async def test_a_french_player_finds_azerty_and_saves_it() -> None:
    app = make_app(POSITION)
    app.first_run = True
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = await asked(pilot)
        assert "Which keyboard is this?" in text
        assert "LEFT player: press the first key of the top letter row" in text
        assert "starts just right of Tab" in text
        before = len(app.table.decisions)
        await pilot.press("a")  # AZERTY's top-left letter
        text = await screen_text(pilot)
        assert "RIGHT player: press the key with 6 on it" in text
        assert "Tab" not in text.split("Which keyboard")[1].split("Esc")[0]  # no row hint
        await pilot.press("left_parenthesis")  # counted the ² key: the key with 5 on it
        text = await screen_text(pilot)
        assert "'(' is another key: on fr it is the key with 5 on it" in text
        assert "not there on any" not in text and "on no keyboard" not in text
        await pilot.press("minus")  # the key with 6 on it, on AZERTY
        text = await screen_text(pilot)
        assert "Your keyboard: fr" in text and "[&]" in text
        assert len(app.table.decisions) == before  # no key of the check played
        await pilot.press("enter")
        await settle(pilot)
        board = await screen_text(pilot)
        assert "[A]   [Z]   [E]" in board and "[!]" in board
    assert app.keymap.name == "fr" and app.table.keymap is app.keymap
    assert config.load(config.default_path()).name == "fr"


async def test_one_person_is_asked_every_key_with_no_half_named() -> None:
    """A seat at a host (a joiner plays RIGHT, an ssh guest either) and a game
    against the computer have one person at the keyboard: "LEFT player: press"
    would speak to someone who is not there."""
    from spit_tui.app.computer import ComputerMode
    from spit_tui.app.join import SeatMode
    from spit_tui.engine import Player

    assert SeatMode.one_person and ComputerMode({Player.RIGHT: "normal"}).one_person
    assert not ComputerMode({Player.LEFT: "normal", Player.RIGHT: "hard"}, demo=True).one_person
    app = make_app(POSITION)
    app.mode.one_person = True
    app.first_run = True
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = await asked(pilot)
        assert "Press the first key of the top letter row" in text and "player" not in text
        await pilot.press("a")
        text = await screen_text(pilot)
        assert "Press the key with 6 on it" in text and "RIGHT player" not in text


async def test_esc_keeps_us() -> None:
    app = make_app(POSITION, keymap=KeyMap.of(preset("fr")))
    app.first_run = True
    async with app.run_test(size=(100, 30)) as pilot:
        assert "Which keyboard is this?" in await asked(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert "Which keyboard" not in await screen_text(pilot)
    assert app.keymap.name == "us"
    assert config.load(config.default_path()).name == "us"
