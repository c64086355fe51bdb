"""Signals, without a terminal: which signals end the game cleanly, the SIGCONT
wrapper around Textual's handler, and Ctrl+Z in the demo (issue 10, items 9
and 12). The real-terminal side is in tests/reliability/test_real_terminal.py."""

from __future__ import annotations

import asyncio
import os
import signal
from types import FrameType, SimpleNamespace
from typing import Any

import pytest
from testkit.app import settle

from spit_tui.app import SpitApp
from spit_tui.app.computer import PASS_KEYS, ComputerMode, computer_app
from spit_tui.app.signals import (
    end_on_signals,
    ending_signals,
    stop_ending_on_signals,
    watch_continue,
)
from spit_tui.clock import VirtualClock
from spit_tui.engine import Game, Player
from spit_tui.table import Table


def mode(app: SpitApp) -> ComputerMode:
    assert isinstance(app.mode, ComputerMode)
    return app.mode


ENDING = ("SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGTERM", "SIGHUP", "SIGINT",
          "SIGABRT", "SIGPROF", "SIGVTALRM", "SIGXCPU", "SIGPWR")  # fmt: skip


def ending_signals_from_defaults(held: int | None = None) -> set[int]:
    """`ending_signals()` in a process whose ending signals are all at their
    default (a background job's shell ignores SIGQUIT; the suite's per-test
    timeout holds SIGALRM), but `held`, which someone else handles."""
    sigs = [int(getattr(signal, name)) for name in ENDING]
    saved = {sig: signal.getsignal(sig) for sig in sigs}
    try:
        for sig in sigs:
            signal.signal(sig, signal.SIG_DFL)
        if held is not None:
            signal.signal(held, lambda signum, frame: None)
        return set(ending_signals())
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def test_every_catchable_ending_signal_is_handled_and_no_other() -> None:
    sigs = ending_signals_from_defaults()
    for name in ENDING:
        assert getattr(signal, name) in sigs, name
    assert signal.SIGRTMIN in sigs and signal.SIGRTMAX in sigs
    for name in ("SIGKILL", "SIGSTOP", "SIGCONT", "SIGTSTP", "SIGCHLD", "SIGWINCH",
                 "SIGPIPE", "SIGXFSZ", "SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL"):  # fmt: skip
        assert getattr(signal, name) not in sigs, name


async def test_an_app_gives_its_signals_back_for_the_next_app_on_its_loop() -> None:
    """The lobby and the game it starts are two apps on one loop; the game takes
    the signals nobody handles. A lobby that kept SIGHUP left the game deaf to
    its terminal closing (real terminals: tests/net/test_directory_lobby.py,
    whose `join` then ran on, spinning)."""
    loop = asyncio.get_running_loop()
    saved = signal.getsignal(signal.SIGHUP)
    try:
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        handled = end_on_signals(loop, lambda signum: None, [signal.SIGHUP])
        assert handled == [signal.SIGHUP] and signal.SIGHUP not in ending_signals()
        stop_ending_on_signals(loop, handled)
        assert signal.SIGHUP in ending_signals()
    finally:
        signal.signal(signal.SIGHUP, saved)


def test_a_signal_someone_else_handles_is_left_to_them_but_sigint() -> None:
    assert signal.SIGUSR1 not in ending_signals_from_defaults(held=signal.SIGUSR1)
    assert signal.SIGINT in ending_signals_from_defaults(held=signal.SIGINT)


@pytest.mark.parametrize("own_stop", [True, False], ids=["after-ctrl-z", "after-sigstop"])
async def test_sigcont_runs_textuals_handler_only_after_its_own_suspend(own_stop: bool) -> None:
    textual_calls: list[int] = []

    def textual(signum: int, frame: FrameType | None) -> None:
        textual_calls.append(signum)

    before = signal.signal(signal.SIGCONT, textual)
    try:
        loop = asyncio.get_running_loop()
        told: asyncio.Future[bool] = loop.create_future()
        driver: Any = SimpleNamespace(_must_signal_resume=own_stop)
        watch_continue(driver, loop, told.set_result)
        os.kill(os.getpid(), signal.SIGCONT)  # harmless to a running process
        assert await asyncio.wait_for(told, 5) is own_stop
        assert textual_calls == ([signal.SIGCONT] if own_stop else [])
    finally:
        signal.signal(signal.SIGCONT, before)


def demo_app() -> SpitApp:
    table = Table(Game(seed=3), VirtualClock())
    return computer_app(
        computer={Player.LEFT: "hard", Player.RIGHT: "hard"}, demo=True, table=table, bot_seed=2
    )


async def test_ctrl_z_in_the_demo_suspends_and_does_not_end_the_demo() -> None:
    assert {"ctrl+z", "ctrl+q", "ctrl+c", "f1"} <= PASS_KEYS
    app = demo_app()
    suspended: list[bool] = []
    async with app.run_test(size=(120, 40)) as pilot:
        app.action_suspend_process = lambda: suspended.append(True)  # type: ignore[method-assign]
        await settle(pilot)
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert suspended == [True]
        assert mode(app).demo and len(mode(app).bots) == 2  # the demo goes on
        await pilot.press("x")  # any other key still ends it
        await settle(pilot)
        assert not mode(app).demo and not mode(app).bots
