"""Helpers for the app tests: seeded apps on a virtual clock, key bursts posted
straight into the app's queue (as the driver does), and a key for every action."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual import events
from textual.keys import _character_to_key
from textual.pilot import Pilot

from spit_tui.app import SpitApp
from spit_tui.clock import VirtualClock
from spit_tui.engine import (
    Action,
    Fill,
    Game,
    Options,
    Position,
    Ready,
)
from spit_tui.keys.intent import intent_for
from spit_tui.keys.keymap import US, KeyMap
from spit_tui.table import Table
from testkit.screen import screen_text, settle
from testkit.table import position_of

__all__ = ["screen_text", "settle"]  # the screen reader's home is testkit.screen


def make_app(
    position: str | Position | None = None,
    *,
    seed: int | None = 1,
    options: Options | None = None,
    spat: bool = False,
    names: tuple[str | None, str | None] = (None, None),
    keymap: KeyMap = US,
) -> SpitApp:
    """An app on a VirtualClock (tests step it). `spat`: start just after the
    first spit. `names`: the players' names (None: the seat's default).
    `keymap`: the players' keys."""
    clock = VirtualClock()
    pos = None if position is None else position_of(position)
    game = Game(options=options or Options(), seed=seed, position=pos)
    if spat:
        from spit_tui.engine import PLAYERS

        for p in PLAYERS:
            game.apply(Ready(p))
    table = Table(game, clock)
    return SpitApp(table=table, names=names, keymap=keymap)


def key_event(ch: str) -> events.Key:
    key = _character_to_key(ch) if len(ch) == 1 else ch
    ev = events.Key(key, ch if len(ch) == 1 else None)
    return ev


def post_keys(app: SpitApp, chars: list[str] | str) -> None:
    """A burst: every key is queued before the app handles the first one."""
    for ch in chars:
        ev = key_event(ch)
        ev.set_sender(app)
        app.post_message(ev)


async def settle_screen(pilot: Pilot[None]) -> None:
    """Settle, then let screens handle forwarded keys and repaint (slower)."""
    await settle(pilot)
    await pilot.pause()


async def press(pilot: Pilot[None], chars: list[str] | str) -> None:
    assert isinstance(pilot.app, SpitApp)
    post_keys(pilot.app, chars)
    await settle(pilot)


async def advance(pilot: Pilot[None], seconds: float) -> None:
    app = pilot.app
    assert isinstance(app, SpitApp)
    clock = app.table.clock
    assert isinstance(clock, VirtualClock)
    clock.advance(seconds)
    app.tick()
    await settle(pilot)


def key_for_action(action: Action) -> str:
    """The key a player on US QWERTY presses for `action` (keys.intent.intent_for)."""
    return US.key(intent_for(action))


def keyable(table: Table, action: Action) -> bool:
    """Whether one key press means exactly `action` (a fill's target is the leftmost gap)."""
    if isinstance(action, Fill):
        slots = table.position.sides[action.player].slots
        return action.dst == next(i for i, s in enumerate(slots) if not s.cards)
    return True


def wait_for_text(
    screen: Callable[[], str], text: str | tuple[str, ...] | Callable[[str], bool], timeout: float
) -> str:
    """Poll a real terminal's screen until `text` shows (a tuple: all of it on one
    capture; a test: it holds); the screen, or an error saying so."""
    from testkit.tmux import shows

    ok = shows(text)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        shown = screen()
        if ok(shown):
            return shown
        time.sleep(0.05)
    raise AssertionError(f"{text!r} never appeared:\n{screen()}")
