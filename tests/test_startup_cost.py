"""What the game's start does before its first frame (issue 19's start-up
target): the store, the network, the web and SSH doors and the libraries only
they use are not loaded, and Python's cycle collector waits (spit_tui.collector)
until the board is up, then runs again over a frozen start.

The real-terminal test runs the `spit-tui` command's own entry point on a
pseudo-terminal, with a probe that looks inside the process at its first frame."""

from __future__ import annotations

import gc
import json
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.ptygame import PtyGame, game_env

from spit_tui import cli, collector
from spit_tui.command import level_argument
from spit_tui.settings import SETTINGS, save
from spit_tui.settings.fields import DEFAULT_LEVEL, level

# Not for the local game's first frame: each is loaded by the command or the
# moment that needs it (the history only once the board is up).
NOT_AT_START = (
    "spit_tui.store",
    "spit_tui.net",
    "spit_tui.web",
    "spit_tui.ssh",
    "spit_tui.sim",
    "spit_tui.app.lobby",
    "spit_tui.app.replay",
    "spit_tui.app.computer",
    "spit_tui.app.dialogs",
    "spit_tui.matchscore",  # --match only  # the quit question, the pause, too small: on first use
    "spit_tui.players.ladder",  # config.toml's level at its default needs no ladder
    "spit_tui.players.level",
    "tomllib",  # config.toml as the game writes it is read without it (settings.plaintoml)
    "spit_tui.decision_log",  # --decision-log (or SPIT_DECISION_LOG) only
    "sqlite3",
    "json",
    "secrets",
    "asyncssh",
    "aiohttp",
    "textual_serve",
    "redis",
    "textual.drivers.web_driver",
)

# Runs in the game's process: `python -c PROBE OUT ARGS`. When textual.app loads
# (well inside the start; not before it: loading it first would change what is
# measured) it notes the collector and patches Textual's frame writer; at the
# first frame it notes the modules, and half a second later the collector again,
# and quits.
PROBE = textwrap.dedent(
    """
    import gc, importlib.abc, importlib.util, sys

    out, sys.argv = sys.argv[1], ["spit-tui", *sys.argv[2:]]
    seen = {}

    def patch(App):
        seen["held"] = not gc.isenabled()
        display = App._display

        def first(self, screen, renderable):
            display(self, screen, renderable)
            if "modules" not in seen:
                seen["modules"] = sorted(sys.modules)
                seen["sheets"] = [path for path, _ in self.stylesheet.source]
                self.set_timer(0.5, lambda: later(self))

        App._display = first

    def later(app):
        seen["enabled_after"] = gc.isenabled()
        seen["frozen_after"] = gc.get_freeze_count()
        import json

        with open(out, "w") as f:
            json.dump(seen, f)
        app.exit()

    class Hook(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name != "textual.app":
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(name)
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                patch(module.App)

            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, Hook())
    from spit_tui.__main__ import main

    sys.exit(main())
    """
)


def test_the_local_game_starts_without_the_other_doors_and_with_the_collector_held(
    tmp_path: Path,
) -> None:
    out = tmp_path / "seen.json"
    # a config.toml with every setting, as a player who saved one has
    assert save({s.key: s.default for s in SETTINGS}) is None
    game = PtyGame(
        ["--seed", "1", "--no-history"],
        game_env(),
        python=["-c", PROBE, str(out)],
    )
    code, err = game.finish(timeout=30)
    assert code == 0, err
    seen = json.loads(out.read_text())
    loaded = [
        m for m in seen["modules"] if any(m == n or m.startswith(n + ".") for n in NOT_AT_START)
    ]
    assert loaded == []
    assert "spit_tui.app.app" in seen["modules"]  # the probe did see the game's modules
    # the later screens' stylesheet is parsed when the first of them opens
    assert any(p.endswith("app.tcss") for p in seen["sheets"])
    assert not any(p.endswith("later.tcss") for p in seen["sheets"])
    assert seen["held"] is True  # no collection on the way to the board
    assert seen["enabled_after"] is True  # ... and the collector runs again after it
    assert seen["frozen_after"] > 10_000  # over the start's objects, frozen


def test_the_default_level_taken_without_the_ladder_is_one_the_ladder_takes() -> None:
    assert level(DEFAULT_LEVEL) == level_argument(DEFAULT_LEVEL) == DEFAULT_LEVEL
    assert level("Hard") == "hard"  # any other value: the ladder's own check


@pytest.fixture
def fresh_collector() -> Iterator[None]:
    """The collector as this process had it, put back after the test."""
    was = gc.isenabled()
    yield None
    collector.release()
    if was:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.usefixtures("fresh_collector")
def test_hold_and_release_touch_only_what_hold_stopped() -> None:
    gc.enable()
    collector.hold()
    assert not gc.isenabled() and collector.held()
    collector.release()
    assert gc.isenabled() and not collector.held()
    collector.release()  # twice: nothing more
    assert gc.isenabled()
    gc.disable()  # stopped by someone else: hold and release leave it so
    collector.hold()
    assert not collector.held()
    collector.release()
    assert not gc.isenabled()


@pytest.mark.usefixtures("fresh_collector")
def test_a_command_other_than_the_game_runs_with_the_collector(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Servers and long headless runs must never run with the collector held."""
    during: list[bool] = []

    def command(argv: list[str]) -> int:
        during.append(gc.isenabled())
        return 0

    monkeypatch.setattr("spit_tui.settingscmd.main", command)
    gc.enable()
    collector.hold()
    assert cli.main(["settings", "--show"]) == 0
    assert during == [True]


def test_the_banner_is_made_with_its_kinds_class() -> None:
    """A class changed once the banner is mounted restyles it (in the first
    frame's time too), so it is made with the class its first scene gives it."""
    from testkit.table import table_at

    from spit_tui.app.banner import Banner, banner

    scene = table_at().scene()
    assert Banner(scene, id="banner").has_class(f"-{banner(scene)[0]}")
    assert Banner(scene, classes="one two").has_class(f"-{banner(scene)[0]}", "one", "two")


def test_the_real_time_signals_are_the_ones_handled_after_the_first_frame() -> None:
    """The named ending signals are handled before the first frame (app.py);
    only SIGRTMIN..SIGRTMAX wait for it."""
    import signal

    from spit_tui.app.signals import realtime

    assert realtime(signal.SIGRTMIN) and realtime(signal.SIGRTMAX)
    for name in ("SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM", "SIGUSR1", "SIGALRM", "SIGPWR"):
        assert not realtime(getattr(signal, name)), name


def test_only_the_lobby_reads_the_lobbys_stylesheet() -> None:
    """Each stylesheet is parsed at every start of the app that reads it."""
    from testkit.app import make_app

    from spit_tui.app.lobby import lobby_app

    assert [p.name for p in make_app().css_path] == ["app.tcss"]
    lobby = lobby_app("a host", lambda code: code)
    assert [p.name for p in lobby.css_path] == ["app.tcss", "lobby.tcss"]
