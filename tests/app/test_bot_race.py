"""The computer opponent in the app: a human key that arrives first beats a bot
move scheduled for later (D5), and the computer's half of the keyboard is not
the human's."""

from __future__ import annotations

import pytest
from appkit import screen_text, settle

from spit_tui.app import SpitApp
from spit_tui.app.computer import ComputerApp
from spit_tui.clock import VirtualClock
from spit_tui.engine import Game, Play, Player, complete_position, parse_position
from spit_tui.players.ladder import LEVELS
from spit_tui.table import Outcome, Table

# Both players can play onto pile a only: the left's 7c and the right's 5d on the 6s.
RACE = "play 1 two - 2c:7c/-/-/-/- 3c Ts6s/Qh 2d:5d/-/-/-/- 3d 0,0"


SHARP = LEVELS["expert"].replace(overlook=0.0)  # never misses its play here


def race_app() -> ComputerApp:
    clock = VirtualClock()
    table = Table(Game(position=complete_position(parse_position(RACE, check=False))), clock)
    return ComputerApp(computer={Player.RIGHT: SHARP}, table=table, bot_seed=1)


async def test_a_human_key_beats_a_bot_move_scheduled_later() -> None:
    app = race_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.table
        (bot,) = app.bots
        plan = bot.plan
        assert plan is not None and plan.action == Play(Player.RIGHT, 0, 0)
        due = plan.due
        assert due > table.clock.now()  # the bot's card is still on its way
        await pilot.press("q")  # left stockpile 1 onto pile a
        await settle(pilot)
        assert [d.outcome for d in table.decisions if d.source == "key"] == [Outcome.APPLIED]
        assert str(table.position.pile_top(0)) == "7c"
        clock = table.clock
        assert isinstance(clock, VirtualClock)
        clock.advance(due + 1.0)
        app.tick()
        await settle(pilot)
        # The bot's 5d never landed on pile a: it saw the 7c in time or lost the race.
        assert "5d" not in [str(c) for c in table.position.piles[0]]
        bot_plays = [d for d in table.decisions if d.source == "bot" and d.action == "R1a"]
        assert all(d.outcome is Outcome.LOST_RACE for d in bot_plays)


async def test_a_bot_move_that_is_due_first_lands_first() -> None:
    app = race_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.table
        (bot,) = app.bots
        plan = bot.plan
        assert plan is not None and plan.action == Play(Player.RIGHT, 0, 0)
        clock = table.clock
        assert isinstance(clock, VirtualClock)
        clock.advance(plan.due + 0.01)
        app.tick()
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        assert str(table.position.piles[0][2]) == "5d"
        (key,) = [d for d in table.decisions if d.source == "key"]
        assert key.outcome is Outcome.LOST_RACE


async def test_the_computers_keys_do_nothing_for_the_human() -> None:
    app = race_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.table
        await pilot.press("y")  # right stockpile 1 onto pile a: the computer's key
        await settle(pilot)
        # the key took the one key path and was refused there, with a word
        (key,) = [d for d in table.decisions if d.source == "key"]
        assert key.outcome is Outcome.IGNORED and key.action == "" and key.key == "y"
        assert "computer" in key.message
        msg = table.message(Player.RIGHT)
        assert msg is not None and "computer" in msg.text


async def test_demo_any_key_starts_a_game_for_two_people() -> None:
    clock = VirtualClock()
    table = Table(Game(seed=3), clock)
    app = ComputerApp(
        computer={Player.LEFT: "hard", Player.RIGHT: "hard"}, demo=True, table=table, bot_seed=2
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        clock.advance(20)
        app.tick()
        await settle(pilot)
        assert sum(1 for d in table.decisions if d.source == "bot") > 5
        await pilot.press("space")
        await settle(pilot)
        assert not app.demo and not app.bots
        assert not table.decisions or table.position.round == 1
        n = len(table.decisions)
        clock.advance(20)
        app.tick()
        await settle(pilot)
        assert len(table.decisions) == n  # nobody plays for the humans any more


async def test_demo_deals_again_after_a_game_ends() -> None:
    from spit_tui.app.computer import DEMO_RESTART_S

    over = "over:L 3 one:R - -/-/-/-/- - 2c3c4c :5c/-/-/-/- - 0,0"
    clock = VirtualClock()
    table = Table(Game(position=complete_position(parse_position(over, check=False))), clock)
    app = ComputerApp(
        computer={Player.LEFT: "hard", Player.RIGHT: "hard"}, demo=True, table=table, bot_seed=2
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app._demo_watch()  # what the table's announcement of the last card does
        clock.advance(DEMO_RESTART_S - 0.5)
        assert table.game.over
        clock.advance(1.0)
        app.tick()
        await settle(pilot)
        assert not table.game.over and table.position.round == 1
        clock.advance(10)
        assert any(d.source == "bot" for d in table.decisions)


async def test_the_board_names_you_and_the_computer() -> None:
    app = race_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = await screen_text(pilot)
        assert "YOU" in text and "COMPUTER" in text
        assert "LEFT " not in text.split("\n", 3)[-1]  # the board no longer says LEFT/RIGHT
        assert app.table.names == ("YOU", "COMPUTER")


async def test_the_game_screen_is_set_up_once_with_a_computer_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[SpitApp] = []
    original = SpitApp.on_mount

    def counting(self: SpitApp) -> None:
        calls.append(self)
        original(self)

    monkeypatch.setattr(SpitApp, "on_mount", counting)
    app = race_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert calls == [app]
