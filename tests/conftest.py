"""Suite-wide options: tests marked `slow` (fuzz, soak, real terminal) run only
with --run-slow. Every test gets its own user directories (XDG variables), so
no test reads or writes a real user's config, history or saved games, and
SPIT_LAYOUT=us, so no game a test starts waits at the first-run check, and
no COLUMNS or LINES from the shell or a parallel run's worker.
The one test kit (tests/testkit) is importable from every test folder, and
the benchmark scripts from the tests that run them (pyproject's pytest
`pythonpath`); `running_host` is a host on 127.0.0.1 for one test, and
`terms` real terminals in tmux (testkit.terminals)."""

from __future__ import annotations

import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from spit_tui.net.host import Host

# Bytecode is kept, whatever PYTHONDONTWRITEBYTECODE says (CI and many shells set
# it): with it set, each of the suite's workers compiled every test module
# anew (pytest's assertion rewriting: about 3.5 s of CPU a worker, 6 s against
# 2.5 s to collect the suite) and every game process a test starts compiled
# spit-tui's own modules. __pycache__ folders are ignored by git.
sys.dont_write_bytecode = False

pytest_plugins = ("testkit.terminals",)  # its `terms` fixture, for every folder

# Property tests hold to what they find, never to how fast a machine finds it: no
# per-example deadline (200 ms by default) and no "input generation is slow" check.
# On two busy cores both failed tests whose inputs were fine (the repaint runs'
# test: "only generated 7 valid inputs after 1.04 seconds"). A test's own
# @settings starts from this profile and keeps it for what it does not name.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

XDG_VARS = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow", action="store_true", default=False, help="also run tests marked slow"
    )


def pytest_configure(config: pytest.Config) -> None:
    """spit-tui's modules compiled as an install compiles them (once, before any
    worker starts), so the processes tests start do not compile them each time.

    Ctrl+C and Ctrl+\\ as a terminal gives them, however the run was started. A
    suite started as a background job of a script inherits both ignored, and so
    would every host and server a test starts and then stops with Ctrl+C: those
    tests then time out (seen: seven of them in one such run). Set here, in the
    controller and in each worker, before any of them starts a process."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGQUIT) == signal.SIG_IGN:
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)
    if not hasattr(config, "workerinput"):  # the controller, or a run without workers
        from latency import compile_like_an_install

        compile_like_an_install()


# Opt-in long runs (soak, the 200,000-key storm, fuzz) may take many minutes;
# the suite-wide per-test timeout (pyproject) is for the default suite. (pytest's
# faulthandler still prints the stacks of a test past 290 s: quiet it with
# `-o faulthandler_timeout=0`.)
SLOW_TIMEOUT = 3600


def long_first(items: list[pytest.Item]) -> None:
    """Tests marked `long(SECONDS)` first, longest first, the rest as collected.
    A parallel run (worksteal) gives each worker a run of the list and the
    others take from its end when they run dry; a long test there starts late
    and holds the suite's end while the other workers wait. At the front, the
    first worker runs them one after another while the others do the rest."""

    def seconds(item: pytest.Item) -> float:
        mark = item.get_closest_marker("long")
        return float(mark.args[0]) if mark is not None else 0.0

    items.sort(key=seconds, reverse=True)  # stable: the rest keep their order


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    long_first(items)
    if config.getoption("--run-slow"):
        for item in items:
            if "slow" in item.keywords and item.get_closest_marker("timeout") is None:
                item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the user directories at a fresh temporary folder for each test."""
    root = tmp_path_factory.mktemp("userdirs")
    for var in XDG_VARS:
        monkeypatch.setenv(var, str(root / var.lower()))
    # A game started by a test never stops at the first-run keyboard check
    # (tests of that check take the variable away).
    monkeypatch.setenv("SPIT_LAYOUT", "us")
    # Nor does a lobby stop to ask the player's name (tests of that question
    # take the variable away).
    monkeypatch.setenv("SPIT_ASK_NAME", "no")
    # The size a test's output is drawn at is the test's own choice: a parallel
    # run's workers (pytest-xdist) inherit COLUMNS=80 and LINES, a shell may
    # export its own, and neither may change what a test sees.
    for var in ("COLUMNS", "LINES"):
        monkeypatch.delenv(var, raising=False)
    return root


@pytest.fixture
async def running_host() -> AsyncIterator[Host]:
    """A host on 127.0.0.1 (a free port, the tests' fast timings, seed 3),
    closed after the test."""
    from testkit.host import running_host as started

    async with started(seed=3) as host:
        yield host
