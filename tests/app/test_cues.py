"""The bell (a lost race, the call to spit, the slap: each chosen on its own,
off by default) and reduced motion (no highlight, a still countdown), driven
by keys pressed through the app's one key path."""

from __future__ import annotations

import pytest
from testkit.app import advance, make_app, screen_text, settle

from spit_tui.app import SpitApp
from spit_tui.app.banner import Banner
from spit_tui.app.board import BoardView
from spit_tui.engine import Phase
from spit_tui.settings import Settings

RACE = "play 1 two - :7h/4c:Kc/-/-/- TcTd 8s/3c :9d/5s:Kd/-/-/- 2h2d 0,0"
LAST_CARD = "play 1 two - :7h/-/-/-/- TcTd 8s/3c :9d/5s:Kd/-/-/- 2h2d 0,0"  # Q: the round ends


def ringing(app: SpitApp, *events: str, **more: object) -> list[int]:
    """Count the app's bells (the terminal's "\\a"), with the bell set for `events`."""
    rung: list[int] = []
    app.bell = lambda: rung.append(1)  # type: ignore[method-assign]
    app.use_settings(Settings(bell=frozenset(events), **more))  # type: ignore[arg-type]
    return rung


async def play_a_round_end(app: SpitApp) -> tuple[int, int]:
    """Q plays the left player's last card (the slap comes), then a slap ends the
    round (the call to spit comes): the rings after each."""
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("q")
        assert app.table.position.phase is Phase.SLAP
        after_slap = _count(app)
        await advance(pilot, 0.31)  # D13: a slap too soon is ignored
        await pilot.press("h")
        assert app.table.position.phase is Phase.SPIT
        return after_slap, _count(app)


def _count(app: SpitApp) -> int:
    bell = app.game_screen.bell
    return 0 if bell is None else bell.rung


@pytest.mark.parametrize(
    ("events", "after_slap", "after_spit"),
    [
        ((), 0, 0),
        (("slap",), 1, 1),
        (("spit",), 0, 1),
        (("slap", "spit"), 1, 2),
        (("lost-race",), 0, 0),
    ],
)
async def test_the_bell_rings_for_the_slap_and_the_call_to_spit_as_chosen(
    events: tuple[str, ...], after_slap: int, after_spit: int
) -> None:
    app = make_app(LAST_CARD)
    rung = ringing(app, *events)
    assert await play_a_round_end(app) == (after_slap, after_spit)
    assert len(rung) == after_spit  # each ring went to the terminal's bell


@pytest.mark.parametrize(("events", "rings"), [(("lost-race",), 1), (("slap", "spit"), 0), ((), 0)])
async def test_the_bell_rings_for_a_lost_race_as_chosen(
    events: tuple[str, ...], rings: int
) -> None:
    app = make_app(RACE)
    rung = ringing(app, *events)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("y", "q")  # right plays 9d on 8s; left's 7h is too late
        assert app.table.decisions[-1].outcome.value == "too late"
        assert len(rung) == rings
        await pilot.press("q")  # too late again, while the first word still shows: no second ring
        assert len(rung) == rings


async def test_the_bell_is_off_by_default() -> None:
    app = make_app(LAST_CARD)
    assert Settings().bell == frozenset()
    app.use_settings(Settings())
    assert app.game_screen.bell is None
    assert await play_a_round_end(app) == (0, 0)


async def test_reduced_motion_draws_no_highlight() -> None:
    for reduced, lit in ((False, (0,)), (True, ())):
        app = make_app(RACE)
        app.use_settings(Settings(reduced_motion=reduced))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("y")
            board = app.game_screen.query_one("#board", BoardView)
            assert app.table.scene().lit == (0,)  # the table's highlight runs either way
            assert board.scene.lit == lit
            assert (board.scene.left_slot is None) == reduced
            assert app.animation_level == ("none" if reduced else "full")


async def test_reduced_motion_keeps_the_countdown_still() -> None:
    texts = {}
    for reduced in (False, True):
        app = make_app()
        app.use_settings(Settings(reduced_motion=reduced))
        async with app.run_test(size=(80, 24)) as pilot:
            await advance(pilot, 0.5)  # D13: a spit too soon is ignored
            await pilot.press("q", "y")  # both ready: the countdown runs
            assert app.table.counting_down
            await advance(pilot, 0.05)
            banner = app.game_screen.query_one("#banner", Banner)
            first = banner.render().plain
            await advance(pilot, 0.3)
            texts[reduced] = (first, banner.render().plain)
            assert "Spit in" in first
            await advance(pilot, 0.4)
            assert app.table.position.phase is Phase.PLAY
            assert "play!" in await screen_text(pilot)
    moving, kept = texts[False], texts[True]
    assert moving[0] != moving[1]  # the bar shrinks
    assert kept[0] == kept[1]  # still


async def test_settings_changed_while_running_take_effect() -> None:
    app = make_app(RACE)
    rung: list[int] = []
    app.bell = lambda: rung.append(1)  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.use_settings(Settings(bell=frozenset({"lost-race"}), reduced_motion=True))
        await pilot.press("y", "q")
        assert rung == [1]
        assert app.game_screen.query_one("#board", BoardView).scene.lit == ()


async def test_reduced_motion_reaches_the_helps_live_boards() -> None:
    from testkit.app import key_for_action

    from spit_tui.app.help import HelpScreen
    from spit_tui.engine import Play, Player

    for reduced in (False, True):
        app = make_app(RACE)
        app.use_settings(Settings(reduced_motion=reduced))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("f1", "right")  # the first page with a live position
            help_screen = app.screen
            assert isinstance(help_screen, HelpScreen) and help_screen.table is not None
            table = help_screen.table
            play = next(a for a in table.game.legal_actions(Player.LEFT) if isinstance(a, Play))
            await pilot.press(key_for_action(play))
            await pilot.pause()
            assert table.scene().lit == (play.pile,)  # the help's table lights the pile
            board = help_screen.query_one("#help-board", BoardView)
            assert board.scene.lit == (() if reduced else (play.pile,))


async def test_reduced_motion_reaches_the_replay() -> None:
    """A stored game's plays are highlighted as they were, unless motion is reduced."""
    from test_app_replay import _record

    from spit_tui.app.replay import replay_app

    rec, _ = _record()
    first_play = next(i for i, a in enumerate(rec.actions) if type(a).__name__ == "Play")
    for reduced in (False, True):
        app = replay_app(rec, "test", playing=False)
        app.use_settings(Settings(reduced_motion=reduced))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press(*["right"] * (first_play + 1))
            assert app.table.scene().lit  # the replay's table lights the pile played on
            assert (app.query_one(BoardView).scene.lit == ()) == reduced
