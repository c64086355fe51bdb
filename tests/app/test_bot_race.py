"""The computer opponent in the app: a human key that arrives first beats a bot
move scheduled for later (D5), and the computer's half of the keyboard is not
the human's."""

from __future__ import annotations

import pytest
from testkit.app import screen_text, settle

from spit_tui.app import SpitApp
from spit_tui.app.computer import ComputerMode, computer_app
from spit_tui.clock import VirtualClock
from spit_tui.engine import Game, Play, Player, complete_position, parse_position
from spit_tui.keys.intent import Row
from spit_tui.keys.keymap import US
from spit_tui.messages import MESSAGE_S
from spit_tui.players.ladder import LEVELS
from spit_tui.table import Outcome, Table

# Both players can play onto pile a only: the left's 7c and the right's 5d on the 6s.
RACE = "play 1 two - 2c:7c/-/-/-/- 3c Ts6s/Qh 2d:5d/-/-/-/- 3d 0,0"


SHARP = LEVELS["expert"].replace(overlook=0.0)  # never misses its play here


def mode(app: SpitApp) -> ComputerMode:
    assert isinstance(app.mode, ComputerMode)
    return app.mode


def race_app() -> SpitApp:
    clock = VirtualClock()
    table = Table(Game(position=complete_position(parse_position(RACE, check=False))), clock)
    return computer_app(computer={Player.RIGHT: SHARP}, table=table, bot_seed=1)


async def test_a_human_key_beats_a_bot_move_scheduled_later() -> None:
    app = race_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.table
        (bot,) = mode(app).bots
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
        (bot,) = mode(app).bots
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
        assert key.message == "computer's half: use the left half"
        msg = table.messages.message(Player.RIGHT)
        assert msg is not None and msg.text == key.message


async def test_the_computers_half_is_said_once() -> None:
    app = race_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.table
        clock = table.clock
        assert isinstance(clock, VirtualClock)
        await pilot.press("y")
        assert table.messages.message(Player.RIGHT) is not None
        clock.advance(MESSAGE_S + 0.1)  # the word has run out
        app.tick()
        await pilot.press("u", "h", "y")
        await settle(pilot)
        keys = [d for d in table.decisions if d.source == "key"]
        assert [d.key for d in keys] == ["y", "u", "h", "y"]
        assert all(d.outcome is Outcome.IGNORED and d.action == "" for d in keys)
        assert table.messages.message(Player.RIGHT) is None  # logged, not said again
        text = await screen_text(pilot)
        assert "computer's half" not in text


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
@pytest.mark.parametrize("side", [Player.RIGHT, Player.LEFT])
async def test_the_computers_side_shows_its_level_and_no_keys(
    size: tuple[int, int], side: Player
) -> None:
    clock = VirtualClock()
    table = Table(Game(position=complete_position(parse_position(RACE, check=False))), clock)
    app = computer_app(computer={side: "hard"}, table=table, bot_seed=1)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        text = await screen_text(pilot)
        assert "COMPUTER · hard" in text
        human = [US.key_for(side.other, row, 0) for row in (Row.PILE_A, Row.PILE_B, Row.FILL)]
        machine = [US.key_for(side, row, s) for row in Row for s in range(5)]
        assert all(f"[{US.label(k)}]" in text for k in human)
        assert not any(f"[{US.label(k)}]" in text for k in machine), text
        # its key is refused in one line that fits the message area
        await pilot.press(US.key_for(side, Row.PILE_A, 2))
        text = await screen_text(pilot)
        line = next(ln for ln in text.splitlines() if "computer's half" in ln)
        assert f"computer's half: use the {side.other.label.lower()} half" in line
        assert "…" not in line


async def test_auto_shows_the_level_it_moved_to() -> None:
    from spit_tui.players.auto import AUTO

    clock = VirtualClock()
    table = Table(Game(position=complete_position(parse_position(RACE, check=False))), clock)
    app = computer_app(computer={Player.RIGHT: AUTO}, table=table, bot_seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        (auto,) = mode(app).autos
        start = auto.rung
        assert table.seats.level(Player.RIGHT) == f"auto · level {start}"
        for rung in (start + 1, 7, 12):  # 7 and 12 have names: the label keeps to numbers
            mode(app)._auto_moved(app, rung, 1)  # what the staircase does after a round
            assert table.seats.level(Player.RIGHT) == f"auto · level {rung}"
            assert f"COMPUTER · auto · level {rung}" in await screen_text(pilot)


async def test_demo_any_key_starts_a_game_for_two_people() -> None:
    clock = VirtualClock()
    table = Table(Game(seed=3), clock)
    app = computer_app(
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
        assert not mode(app).demo and not mode(app).bots
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
    app = computer_app(
        computer={Player.LEFT: "hard", Player.RIGHT: "hard"}, demo=True, table=table, bot_seed=2
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        mode(app)._demo_watch(app)  # what the table's announcement of the last card does
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
        assert app.table.seats.names == ("YOU", "COMPUTER")


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
