"""The game clock: one time source for everything timed, and the pause that
stops all of it (the real clock counts paused time out; a virtual one stands
still while paused)."""

from __future__ import annotations

from spit_tui.clock import GameClock, RealClock, VirtualClock


class FakeTime:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_a_paused_clock_runs_nothing_and_stands_still() -> None:
    clock = GameClock()
    ran: list[float] = []
    clock.call_at(1.0, lambda: ran.append(clock.now()))
    clock.pause("help", True)
    assert clock.tick(5.0) == 0 and ran == [] and clock.now() == 0.0
    clock.pause("small", True)
    clock.pause("help", False)
    assert clock.paused  # one reason still holds
    clock.pause("small", False)
    assert not clock.paused
    assert clock.tick(5.0) == 1 and ran == [1.0]


def test_a_virtual_clock_does_not_step_while_paused() -> None:
    clock = VirtualClock()
    ran: list[str] = []
    clock.call_later(0.5, lambda: ran.append("due"))
    clock.pause("away", True)
    assert not clock.step()
    clock.advance(10)
    assert ran == [] and clock.now() == 0.0
    clock.pause("away", False)
    clock.advance(1)
    assert ran == ["due"] and clock.now() == 1.0


def test_the_real_clock_leaves_paused_time_out() -> None:
    t = FakeTime()
    clock = RealClock(t)
    ran: list[float] = []
    clock.call_later(2.0, lambda: ran.append(clock.now()))
    t.t += 1.0
    clock.update()
    assert clock.now() == 1.0 and clock.wait_s() == 1.0
    clock.pause("help", True)
    t.t += 30.0  # help is up for half a minute
    assert clock.update() == 0 and clock.wait_s() is None and clock.now() == 1.0
    clock.pause("help", False)
    assert clock.wait_s() == 1.0  # the same second to go as before the pause
    t.t += 1.0
    clock.update()
    assert ran == [2.0]


def test_pausing_the_real_clock_first_runs_what_was_due() -> None:
    t = FakeTime()
    clock = RealClock(t)
    ran: list[str] = []
    clock.call_later(0.5, lambda: ran.append("due"))
    t.t += 0.6  # due, but no tick came yet
    clock.pause("away", True)
    assert ran == ["due"]


def test_a_stop_the_process_was_not_told_of_counts_as_paused() -> None:
    t = FakeTime()
    clock = RealClock(t)
    ran: list[str] = []
    clock.call_later(1.0, lambda: ran.append("due"))
    t.t += 0.25
    clock.update()
    t.t += 60.0  # SIGSTOP ... SIGCONT: nothing ran meanwhile
    assert clock.stopped() == 60.0
    clock.update()
    assert clock.now() == 0.25 and ran == []
    assert clock.wait_s() == 0.75
    clock.pause("suspended", True)
    t.t += 5.0
    assert clock.stopped() == 0.0  # a pause already holds that time
    clock.pause("suspended", False)
    assert clock.now() == 0.25 and clock.wait_s() == 0.75
