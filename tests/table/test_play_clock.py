"""The round clock counts play only (issue 11, item 8): not the wait for the
first spit or its countdown, not a pause (help, covered screen), not a
suspended or stopped process. It runs on the pausable game clock; here that
clock is a RealClock on a fake time source, so the "real" seconds that must
not count can pass, or a VirtualClock."""

from __future__ import annotations

import pytest

from spit_tui.app.banner import banner
from spit_tui.clock import RealClock, Stopwatch, VirtualClock
from spit_tui.engine import (
    PLAYERS,
    Game,
    Phase,
    Play,
    Player,
    Ready,
    Slap,
    complete_position,
    parse_position,
)
from spit_tui.showing import playing
from spit_tui.table import COUNTDOWN_S, Table

SLAP = "slap 1 two - -/-/-/-/- - 2s3s4s/9d8d7d6d5d4d3d :Kh/:Kc/-/-/- 5c6c 0,0"
OVER = "play 4 one:R - :7h/-/-/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh 6d6h 0,0"


def near(seconds: float) -> object:
    """Equal to within a few ms (a spit lands a hair after its countdown's end)."""
    return pytest.approx(seconds, abs=0.005)


class FakeTime:
    """A monotonic source the test moves by hand."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def real_table(position: str | None = None, seed: int = 3) -> tuple[Table, FakeTime, RealClock]:
    src = FakeTime()
    clock = RealClock(source=src)
    pos = complete_position(parse_position(position, check=False)) if position else None
    return Table(Game(seed=seed, position=pos), clock), src, clock


def wait(src: FakeTime, clock: RealClock, seconds: float) -> None:
    src.t += seconds
    clock.update()


def spit(table: Table, src: FakeTime, clock: RealClock) -> None:
    """Both players say spit (past the stale-key guard); returns at the spit itself."""
    wait(src, clock, 0.5)
    for p in PLAYERS:
        assert table.submit(Ready(p)).message == ""
    wait(src, clock, COUNTDOWN_S + 0.001)  # just past its end (floats)
    assert table.position.phase is Phase.PLAY


def test_the_stopwatch_counts_only_while_it_runs() -> None:
    w = Stopwatch()
    assert w.seconds(5.0) == 0.0 and not w.running
    w.run(5.0, True)
    w.run(6.0, True)  # already running: changes nothing
    assert w.seconds(8.0) == 3.0
    w.run(8.0, False)
    assert w.seconds(100.0) == 3.0
    w.run(100.0, True)
    assert w.seconds(101.5) == 4.5


def test_play_is_while_cards_can_be_played_or_slapped() -> None:
    assert [ph for ph in Phase if playing(ph)] == [Phase.PLAY, Phase.SLAP]


def test_the_wait_for_the_first_spit_and_its_countdown_do_not_count() -> None:
    table, src, clock = real_table()
    wait(src, clock, 30.0)  # the players read the board, chat
    assert table.position.phase is Phase.SPIT and table.round_play_seconds() == 0.0
    for p in PLAYERS:
        table.submit(Ready(p))
    wait(src, clock, COUNTDOWN_S / 2)
    assert table.counting_down and table.round_play_seconds() == 0.0
    wait(src, clock, COUNTDOWN_S + 0.001)  # just past its end (floats)
    assert table.position.phase is Phase.PLAY
    wait(src, clock, 12.0)
    assert table.round_play_seconds() == near(12.0 + COUNTDOWN_S / 2)


def test_a_suspended_or_stopped_process_and_a_pause_do_not_count() -> None:
    table, src, clock = real_table()
    spit(table, src, clock)
    start = table.play_seconds()
    wait(src, clock, 10.0)
    table.pause("suspended", True)  # Ctrl+Z: the app pauses before the process stops
    wait(src, clock, 300.0)
    table.pause("suspended", False)  # fg
    assert table.play_seconds() - start == near(10.0)
    src.t += 120.0  # SIGSTOP from outside, then SIGCONT: nobody was told
    clock.stopped()
    clock.update()
    assert table.play_seconds() - start == near(10.0)
    table.pause("away", True)  # help over the board
    wait(src, clock, 45.0)
    table.pause("away", False)
    wait(src, clock, 5.0)
    assert table.play_seconds() - start == near(15.0)
    assert table.round_play_seconds() == table.play_seconds()


def test_the_slap_ends_the_rounds_clock_and_the_next_waits_for_its_spit() -> None:
    table, src, clock = real_table(SLAP)
    wait(src, clock, 1.5)  # the slap phase is play: a race
    assert table.round_play_seconds() == near(1.5)
    assert table.submit(Slap(Player.LEFT, 0)).message == ""
    assert table.position.phase is Phase.SPIT and table.position.round == 2
    wait(src, clock, 20.0)  # the round summary, and a breath
    assert table.round_play_seconds() == 0.0 and table.play_seconds() == near(1.5)
    spit(table, src, clock)
    wait(src, clock, 4.0)
    assert table.round_play_seconds() == near(4.0)
    assert table.play_seconds() == near(5.5)


def test_the_game_over_line_and_the_history_give_the_play_time() -> None:
    table, src, clock = real_table(OVER)
    wait(src, clock, 63.0)
    table.pause("away", True)
    wait(src, clock, 600.0)
    table.pause("away", False)
    assert table.submit(Play(Player.LEFT, 0, 0)).message == ""  # the last card
    assert table.position.phase is Phase.OVER
    wait(src, clock, 30.0)  # the game-over banner on show
    assert table.play_seconds() == near(63.0)
    lines = [t.plain for t in banner(table.scene())[1]]
    assert "after 4 rounds, 1:03 of play (no cards left)" in lines


def test_a_virtual_clock_game_counts_its_play_the_same_way() -> None:
    clock = VirtualClock()
    table = Table(Game(seed=5), clock)
    clock.advance(7.0)
    for p in PLAYERS:
        table.submit(Ready(p))
    clock.advance(COUNTDOWN_S + 2.0)
    assert table.round_play_seconds() == near(2.0)
    table.pause("away", True)
    clock.advance(50.0)
    table.pause("away", False)
    assert table.round_play_seconds() == near(2.0)
