"""The command palette's game commands (Ctrl+P), beside Textual's own.

Each command runs the very action its key runs (one home for what a key
does), and is offered only where the game's mode allows it: no new game on a
seat at a host's game, no pause over the network, no names where the host
sets them. Textual's own "Quit" (which would leave without asking, losing
the game in play) and "Keys" (its panel of bindings, which would shadow the
game's key setup) are replaced by the game's; its "Theme" picker stays, and
is where themes are chosen.

Opening the palette covers the game screen, so the clocks stop exactly as
for help (GameScreen.Covered), and no key reaches the game meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual.app import SystemCommand

from spit_tui.app.modes import NAMES_KEY_LABEL, SETTINGS_KEY_LABEL
from spit_tui.app.screens import PAUSE_KEY

if TYPE_CHECKING:
    from textual.screen import Screen

    from spit_tui.app import SpitApp

REPLACED = frozenset(("Quit", "Keys"))  # Textual's commands the game answers itself


def palette_commands(
    app: SpitApp, screen: Screen[object], textual_commands: Iterable[SystemCommand]
) -> Iterable[SystemCommand]:
    """The game's commands for the palette opened over `screen`, then Textual's
    (less those the game replaces)."""
    if screen is app.game_screen:
        yield from _game_commands(app)
    quit_help = "Quit (asks first if a game is in play)" if app.mode.asks_before_quit else "Quit"
    yield SystemCommand("Quit", f"{quit_help} · Ctrl+Q", app.action_quit_ask)
    for command in textual_commands:
        if command.title not in REPLACED:
            yield command


def _game_commands(app: SpitApp) -> Iterable[SystemCommand]:
    mode = app.mode
    yield SystemCommand(
        "Help", "The key map and the rules, with live positions · F1", app.action_help
    )
    if mode.new_games:  # (not on a seat at a host's game: the host deals)
        yield SystemCommand(
            "New game", "Deal the next game, once this one is over · Enter", app.action_new_game
        )
    if mode.pause_refused() is None:
        yield SystemCommand(
            "Pause", f"Both halves wait, the clocks stop · {PAUSE_KEY.title()}", app.action_pause
        )
    if mode.names_refused() is None:
        yield SystemCommand(
            "Names",
            f"The players' names, on a game's first banner · {NAMES_KEY_LABEL}",
            app.action_names,
        )
    yield SystemCommand(
        "Settings",
        f"Theme, colours, bell, reduced motion, a game's defaults · {SETTINGS_KEY_LABEL}",
        app.action_settings,
    )
    yield SystemCommand(
        "Keys", "Set up your own keys (saved for next time) · F3 in help", lambda: _key_setup(app)
    )
    yield SystemCommand(
        "Save record",
        "Save the game so far to a file (for a bug report) · F2 in help",
        lambda: app.notify(app.save_record(), timeout=10),
    )


def _key_setup(app: SpitApp) -> None:
    from spit_tui.app.keysetup import KeySetupScreen  # loaded on first use

    app.push_screen(KeySetupScreen(app.keymap))
