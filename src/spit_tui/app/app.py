"""SpitApp: a thin Textual view over a `Table`.

Every game key takes one path, at the moment it reaches the app, in arrival
order (D5): `on_event` -> `intent_for` -> `Table.submit_intent`. Game keys are
never bindings, so no priority binding can overtake a key that arrived earlier
(Textualize/textual#6605). Non-game keys (F1, Esc, Ctrl+C, Ctrl+Q, Enter) are
ordinary bindings.

Time: the game runs on a `RealClock` (clock/: real time less the time paused),
which the app ticks from a Textual interval timer, before each game key, and
exactly when its next timed event is due. The app only says when the game is
covered (help, quit dialog, window too small, suspended): `Table.pause` keeps
the books. Tests pass their own `VirtualClock` and step it; then the app never
ticks it (a virtual clock's `update()` does nothing).
"""

from __future__ import annotations

import asyncio
import gc
import signal
from collections.abc import Callable, Iterable
from pathlib import PurePath
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.driver import Driver
from textual.filter import Monochrome, NoColor
from textual.screen import Screen

from spit_tui import collector
from spit_tui.app.modes import NAMES_KEY, NAMES_KEY_LABEL, SETTINGS_KEY, LocalMode, Mode
from spit_tui.app.screens import (
    MIN_H,
    MIN_W,
    PAUSE_KEY,
    TOO_SMALL_ID,
    GameScreen,
    Notes,
    Playing,
    as_table_screen,
)
from spit_tui.app.signals import (
    end_on_signals,
    ending_signals,
    owns_terminal,
    realtime,
    stop_ending_on_signals,
    watch_continue,
)
from spit_tui.app.status import HeaderBar
from spit_tui.app.themes import install as install_themes
from spit_tui.app.views import SceneView
from spit_tui.clock import GameClock, RealClock, VirtualClock
from spit_tui.engine import PLAYERS, Game, Options, Phase, Player, Position, Record
from spit_tui.hangup import let_go_of_terminal
from spit_tui.keys.keymap import US, KeyMap
from spit_tui.keys.terminal import HungUp, driver_for, drop_repeat, game_intent
from spit_tui.look import DEFAULT_LOOK, LARGE, Look, card_size, look_of
from spit_tui.names import Given, remember, seat_names
from spit_tui.seed import fresh_seed
from spit_tui.subscription import Subscription
from spit_tui.table import Table

if TYPE_CHECKING:
    from spit_tui.app.settingsscreen import SettingsScreen
    from spit_tui.matchscore import MatchScore
    from spit_tui.settings import Settings
    from spit_tui.store.history import HistoryWriter

TICK_S = 0.25  # redraws the running clocks; timed events get their own wake-up
NEW_GAME_GUARD_S = 1.0  # Enter right after the last card must not start a new game


class SpitApp(App[None]):
    CSS_PATH: ClassVar[list[str | PurePath]] = ["app.tcss"]  # and the mode's (Mode.stylesheets)
    TITLE = "spit-tui"
    COMMAND_PALETTE_DISPLAY = "Ctrl+P"  # the game's commands and the themes (app/palette.py)
    first_run = False  # set by the command line when no layout was chosen anywhere
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit_ask", "quit", show=False, priority=True),
        Binding("ctrl+c", "quit_ask", "quit", show=False, priority=True),
        Binding("f1,backspace", "help", "help", show=False, priority=True),
        Binding("ctrl+z", "suspend_process", "suspend", show=False, priority=True),
        Binding("ctrl+p", "command_palette", "commands", show=False, priority=True),
        Binding("enter", "new_game", "new game", show=False),
        Binding(NAMES_KEY, "names", "names", show=False),
        Binding(SETTINGS_KEY, "settings", "settings", show=False),
        Binding("f5", "resume_stopped", "resume", show=False),
        Binding(PAUSE_KEY, "pause", "pause", show=False),
    ]
    resume_asked = False  # F5 on the opening banner: the command line resumes the stopped game
    startup_note: str | None = None  # one line to show once the board is up
    repeat_deal = False  # a new game deals the first game's cards again (spit-tui daily)
    end_line: str | None = None  # why the app ended, printed once the terminal is restored
    # attaches the session's history once the first frame is up (see on_ready)
    history_later: Callable[[], None] | None = None
    settings: Settings | None = None  # the settings in force (use_settings), None: defaults
    look: Look = DEFAULT_LOOK  # palette, suits, markers, card size (spit_tui.look): use_look
    settings_note: str | None = None  # config.toml's line, if it could not all be used

    def __init__(
        self,
        *,
        options: Options | None = None,
        seed: int | None = None,
        position: Position | None = None,
        table: Table | None = None,
        clock: GameClock | None = None,
        on_table: Callable[[Table], None] | None = None,
        names: Given = (None, None),
        mode: Mode | None = None,
        seat: Playing | None = None,
        keymap: KeyMap | None = None,
    ) -> None:
        """Start a game (or show `table`, if given), in `mode` (two people at one
        keyboard if None; app/modes.py says what a mode decides).

        `clock`/`table` are for tests and tools: a given clock is never ticked
        by real time (step a VirtualClock yourself). `on_table` is called once
        with the Table before the first frame: the seam for computer players,
        which schedule on `table.clock` and call `table.submit(action, "bot")`.
        `names`: the players' names (spit_tui.names), None for a seat's default.
        `seat`: a seat at a game played elsewhere (`spit-tui join`): drawn and
        sent keys like a table, but the app has no table of its own then.
        `keymap`: the players' keys (US QWERTY, or the given table's, if None);
        `use_keys` changes them later.
        """
        mode = mode if mode is not None else LocalMode()
        super().__init__(css_path=[*self.CSS_PATH, *mode.stylesheets])
        self.mode = mode
        self.title = self.mode.title
        if self.no_color:
            # NO_COLOR: Textual's default is to draw in greys, which leaves red
            # cards dark grey on black. Use the terminal's own colours instead;
            # suits differ by symbol, the card just played by reverse video.
            self._filters = [NoColor() if isinstance(f, Monochrome) else f for f in self._filters]
        self.player_colours = install_themes(self)  # spit-light; each player's colour per theme
        self.options = options or Options()
        self.seed = seed
        self._games = 0
        self._wakeup: asyncio.TimerHandle | None = None  # see _wake_for_next_event
        # the loop and the ending signals this app handles there (_handle_signals)
        self._signals_handled: tuple[asyncio.AbstractEventLoop, list[int]] | None = None
        self.history: HistoryWriter | None = None  # see attach_history
        self.match: MatchScore | None = None  # see start_match
        self._counted = False  # the game in play is counted into the match (it ended)
        self._seat = seat
        if seat is not None:
            self.clock = seat.clock
            self.keymap = keymap or seat.keymap
        elif table is not None:
            self.clock = table.clock
            self.table = table
            self.options = table.game.options
            self.keymap = keymap or table.keymap
        else:
            self.clock = clock if clock is not None else RealClock()
            seed = fresh_seed() if seed is None else seed  # every game can be replayed
            game = Game(options=self.options, seed=seed, position=position)
            self.keymap = keymap or US
            self.table = Table(game, self.clock)
        self.board.keymap = self.keymap
        self.real_time = isinstance(self.clock, RealClock)
        self.given_names: Given = names  # the names people chose (None: the seat's default)
        if any(names):
            self.reseat()
        self.game_screen = GameScreen(
            self.board,
            names_key=self.mode.names_key,
            over_keys=self.mode.over_keys,
            pauses=self.mode.pause_refused() is None,
            viewer=self.mode.viewer,
        )
        self.board.subscribe(
            Subscription(on_change=self._on_change, on_new_game=self._new_game)
        )
        self.mode.bind(self)
        if on_table is not None:
            on_table(self.table)

    @property
    def board(self) -> Playing:
        """What the game screen shows and sends the keys to: the app's own
        table, or the seat at a host's table it was given."""
        return self.table if self._seat is None else self._seat

    # -- time -------------------------------------------------------------------------

    def shown_table(self) -> Playing | None:
        """The live table on the top screen (the game's, or a help page's), if any."""
        screen = self.screen_stack[-1] if self.is_running and self.screen_stack else None
        shows = as_table_screen(screen)
        return None if shows is None else shows.shown_table()

    def attach_history(self, writer: HistoryWriter) -> None:
        """Store this app's games (the writer saves at every round end by itself);
        the game in play is saved when the app ends, and a history that turns
        itself off is said on screen."""
        self.history = writer
        writer.attach(self.table)
        self._show_match()

    # -- names ------------------------------------------------------------------------

    def board_names(self) -> tuple[str, str]:
        """The names the board, banner and feed show (the mode's)."""
        return self.mode.board_names(self)

    def stored_names(self) -> tuple[str, str]:
        """The names the history stores the games under (the stats are per name)."""
        return seat_names(self.given_names, self.computer_levels())

    def computer_levels(self) -> dict[Player, str]:
        """The level of each half the computer plays ("hard", "auto")."""
        return self.mode.computer_levels()

    def computer_rungs(self) -> dict[Player, int]:
        """The rung of each half the computer plays (the ratings' anchors)."""
        return self.mode.computer_rungs()

    def reseat(self) -> None:
        """Tell the table (and the history) the names as they are now."""
        self.mode.reseat(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """In the names box, Backspace (and F1) belong to the box: not help; and
        the mode says which of the app's keys apply (the lobby's are its own)."""
        if not self.mode.allows(action):
            return False
        in_box = bool(self.screen_stack) and self.screen.id == "names"
        return not (action == "help" and in_box)

    def action_names(self) -> None:
        """F4: the names box, on a game's first banner only (elsewhere the header says so)."""
        from spit_tui.app.namescreen import NamesScreen  # loaded on first use

        if self.screen is not self.game_screen:
            return
        refused = self.mode.names_refused()
        if refused is not None:
            self.game_screen.query_one("#header", HeaderBar).show_hint(refused)
            return
        if not self.table.scene().opening():
            header = self.game_screen.query_one("#header", HeaderBar)
            header.show_hint(f"{NAMES_KEY_LABEL}: names change on a game's first banner")
            return
        seats = tuple(p for p in PLAYERS if self.table.seats.level(p) is None)
        self.push_screen(NamesScreen(self.given_names, seats), self.change_names)

    def change_names(self, given: Given | None) -> None:
        """New names (None: kept as they were): shown and stored from now on, the
        game in play too (nothing of it is stored before its first round ends),
        and remembered for next time."""
        if given is None:
            return
        self.given_names = given
        self.reseat()
        self._show_match()
        problem = remember(given)
        if problem is not None:
            self.notify(problem, severity="warning", timeout=8)

    def _poll_history(self) -> None:
        """Show what the history's worker has for the screen: the game-over
        figures, or why history went off."""
        if self.history is None or not self.is_running:
            return
        notes = self.game_screen.notes
        if self.table.position.phase is Phase.OVER and not notes.figures:
            figures = self.history.figures_for(self.table)
            if figures:
                self.show_notes(figures=figures)
        stopped = self.history.stopped
        if stopped is not None and self._at_opening() and not notes.offer:
            self.show_notes(offer=stopped.offer())
        reason = self.history.take_problem()
        if reason is not None:
            text = f"History is off for this session: {reason}"
            self.notify(text, severity="warning", timeout=12)

    def _at_opening(self) -> bool:
        """The session's first game, before anyone has acted in it."""
        return self._games == 0 and not self.table.game.log

    def _kept(self) -> tuple[bool, int | None]:
        """Whether quitting now keeps the game in play to resume, and its id in
        the history once the worker has stored it."""
        h = self.history
        if h is None:
            return False, None  # (a seat has no history: the host keeps the game)
        t = self.table
        if not h.on or not t.game.log or t.position.phase is Phase.OVER:
            return False, None
        return True, h.stored_id(t)

    def resume_hint(self) -> str:
        """How the game in play can be resumed once quit ("" if it will not be kept)."""
        from spit_tui.store.resume import resume_command

        kept, game_id = self._kept()
        if not kept or self.history is None:
            return ""
        if game_id is None:  # not stored yet: on quitting it is the newest stopped game
            return "The game is kept: spit-tui --resume continues it."
        return f"The game is kept: {resume_command(game_id, self.history.path)} continues it."

    def kept_line(self) -> str:
        """The end line for a game quit in play and stored: how to resume it."""
        from spit_tui.store.resume import resume_command

        kept, game_id = self._kept()
        if not kept or game_id is None or self.history is None:
            return ""
        command = resume_command(game_id, self.history.path)
        return f"game {game_id} is kept unfinished: {command} continues it"

    def action_resume_stopped(self) -> None:
        """F5 while the opening banner offers a stopped game: end this session so
        the command line starts the stopped game's (its players, its computer)."""
        if self.history is None:
            return  # no stopped game to offer (a seat's game is the host's)
        offered = self.game_screen.notes.offer
        if self.screen is self.game_screen and offered and self._at_opening():
            self.resume_asked = True
            self.exit()

    def resume_game(self, record: Record, clock_seconds: float) -> None:
        """Show a stopped game where it stood and go on with it (Table.resume)."""
        self.table.resume(record, clock_seconds, hold=True)
        self.options = record.options

    def on_unmount(self) -> None:
        if self._wakeup is not None:
            self._wakeup.cancel()
        if self._signals_handled is not None:
            stop_ending_on_signals(*self._signals_handled)
            self._signals_handled = None
        if self.history is not None:
            self.history.finish(self.table)

    def tick(self) -> None:
        """Catch the clocks up with real time (the game's, and a help page's), then
        repaint what the top screen shows."""
        self._poll_history()
        self.clock.update()
        screen = self.screen_stack[-1] if self.is_running and self.screen_stack else None
        shows = as_table_screen(screen)
        if shows is not None:
            shown = shows.shown_table()
            if shown is not None and shown.clock is not self.clock:
                shown.clock.update()
            shows.sync()
        self._wake_for_next_event()

    def _wake_for_next_event(self) -> None:
        """Tick again exactly when the next timed event is due (a countdown ending,
        a message expiring) on the game's clock or a help page's, rather than
        polling fast for it."""
        if not self.real_time or not self.is_running:
            return
        shown = self.shown_table()
        clocks = {self.clock} if shown is None else {self.clock, shown.clock}
        delays = [d for d in (c.wait_s() for c in clocks) if d is not None]
        if not delays:
            return
        delay = min(delays) + 0.001
        if delay >= TICK_S:
            return  # the interval's next tick comes first
        # An event loop timer, not Textual's: this runs on nearly every key, and a
        # Textual timer starts a task and formats the app's repr (~0.1 ms a key).
        # A wake-up already set to come as soon as needed stays.
        loop = asyncio.get_running_loop()
        now = loop.time()
        due = now + delay
        wakeup = self._wakeup
        if wakeup is not None:
            if not wakeup.cancelled() and now < wakeup.when() <= due:
                return
            wakeup.cancel()
        self._wakeup = loop.call_at(due, self.call_next, self.tick)

    def make_help_table(self, position: Position) -> Table:
        """A table for a help page's live position, on its own clock (it runs
        while the game's waits)."""
        clock: GameClock = RealClock() if self.real_time else VirtualClock()
        return Table(Game(options=Options(), position=position), clock, keymap=self.keymap)

    def use_keys(self, keymap: KeyMap) -> None:
        """Make `keymap` the players' keys from now on (the first-run check, the
        key setup): the game's table, a help page's, and every board on show."""
        self.keymap = keymap
        self.board.keymap = keymap
        shown = self.shown_table()
        if shown is not None:
            shown.keymap = keymap
        if not self.is_running:
            return
        for screen in self.screen_stack:
            relabel = getattr(screen, "use_keys", None)
            if relabel is not None:
                relabel(keymap)
            for view in screen.query(SceneView):
                view.redraw()

    def use_settings(self, settings: Settings, note: str | None = None) -> None:
        """Make `settings` the ones in force (the start-up, the settings screen):
        the theme, the look, the bell and reduced motion now; the game's own
        defaults (variant, level) are the command line's, at the next start."""
        from spit_tui.app.cues import Bell

        self.settings = settings
        self.use_look(look_of(settings.palette, settings.suits, settings.cards, settings.marks))
        if note is not None:
            self.settings_note = note
            if self.is_running:
                self.notify(note, severity="warning", timeout=10)
        if settings.theme != self.theme:
            self.theme = settings.theme
        from textual import constants

        self.animation_level = "none" if settings.reduced_motion else constants.TEXTUAL_ANIMATIONS
        screen = self.game_screen
        screen.still = settings.reduced_motion
        screen.bell = Bell(self.bell, settings.bell) if settings.bell else None
        if self.is_running and self.screen_stack:
            screen.sync()

    def keep_settings(self, **changes: object) -> str | None:
        """Use `changes` (setting key -> value) from now on and keep them in
        config.toml; the one line if the file could not be written (app/settingsscreen.py)."""
        from spit_tui.app.settingsscreen import keep_settings

        return keep_settings(self, changes)

    def action_settings(self) -> None:
        """F6: the settings screen, over the board (the game waits)."""
        from spit_tui.app.settingsscreen import SettingsScreen  # loaded on first use
        from spit_tui.settings import Settings

        if self.screen is self.game_screen:
            self.push_screen(SettingsScreen(self.settings or Settings()))

    def on_settings_screen_chosen(self, message: SettingsScreen.Chosen) -> None:
        self.keep_settings(**message.changes)

    def on_settings_screen_open(self, message: SettingsScreen.Open) -> None:
        from spit_tui.app.settingsscreen import open_link

        open_link(self, message.what)

    def keep_theme(self, name: str) -> None:
        """A theme chosen in the palette: used now, kept for next time."""
        self.keep_settings(theme=name)

    def search_themes(self) -> None:
        """Ctrl+P, "Theme": Textual's picker, whose choice is kept (KeptThemes)."""
        from textual.command import CommandPalette

        from spit_tui.app.themes import KeptThemes

        self.push_screen(CommandPalette(providers=[KeptThemes], placeholder="Search for themes…"))

    def use_look(self, look: Look) -> None:
        """Draw with `look` from now on: the palette goes to the colour filter,
        the card size to the stylesheet (`-large-cards` widens the board's
        frame), and every board on show is drawn again."""
        self.look = look
        self.player_colours.use(self.current_theme, look.palette)
        if not self.is_running:
            return
        self._fit_cards(*self.size)
        for screen in self.screen_stack:
            for view in screen.query(SceneView):
                view.redraw()

    def _fit_cards(self, width: int, height: int) -> None:
        """Large cards (and the wider frame) where the terminal has the room.
        A class on the App restyles only the screen on top: the screens under
        it (the board under the too-small notice) are restyled too, or the
        board came back from a small window with large cards in a small frame."""
        large = card_size(self.look.cards, width, height) is LARGE
        if large == self.has_class("-large-cards"):
            return
        self.set_class(large, "-large-cards")
        for screen in self.screen_stack[:-1]:
            screen.update_node_styles(animate=False)

    def watch_theme(self, _: str) -> None:
        self.player_colours.use(self.current_theme)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Ctrl+P: the game's commands beside Textual's (app/palette.py)."""
        from spit_tui.app.palette import palette_commands

        return palette_commands(self, screen, super().get_system_commands(screen))

    def on_game_screen_covered(self, message: GameScreen.Covered) -> None:
        self.board.pause("away", message.covered)

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, with our key parser in it (kitty fields, split sequences)."""
        return driver_for(super().get_driver_class())

    # -- lifecycle --------------------------------------------------------------------

    def get_default_screen(self) -> Screen[None]:
        return self.mode.screen(self) or self.game_screen

    def on_mount(self) -> None:
        self._fit_cards(*self.size)
        if self.real_time:
            self.set_interval(TICK_S, self.tick)
        self._handle_signals()
        # after the first refresh: a screen pushed during mount is never laid out
        self.call_after_refresh(self._check_size)
        if self.first_run:
            self.call_after_refresh(self._ask_keyboard)
        for note in (self.startup_note, self.settings_note):
            if note:
                self.call_after_refresh(
                    lambda note=note: self.notify(note, severity="warning", timeout=10)
                )
        self.mode.mounted(self)

    def _ask_keyboard(self) -> None:
        """The first-run check: which keyboard is this (only when nothing chose)."""
        from spit_tui.app.keyscreens import FirstRunScreen

        self.push_screen(FirstRunScreen(self.mode.one_person))

    def on_ready(self) -> None:
        """Once the first frame is up, take everything made so far (the imports,
        the stylesheet, the widgets: it all lives as long as the app) out of the
        cyclic garbage collector's sight. Otherwise each full collection scans it
        all again and stops the game for 50-70 ms in the middle of play (the latency
        benchmark met one at the same key of every run). Headless apps (tests,
        many per process) are left alone: frozen objects are never collected.
        The history's worker starts here too: opening its file (a check of the
        whole file, a write) would otherwise share the first frame's time; and a
        history the command line left to `history_later` is made here (importing
        it, about 4 ms, also kept out of the first frame). No round can end, so
        nothing can be stored, before this runs."""
        if not self.is_headless:
            gc.freeze()
        collector.release()  # held from the command's start (spit_tui.collector)
        if self.history is None and self.history_later is not None:
            self.history_later()  # the history (store, sqlite3) loads now, not before
            self.history_later = None
        if self.history is not None:
            self.history.start()  # the file opens now, while the players read the banner

    def _handle_signals(self) -> None:
        """Every signal that would end the process quits through Textual's normal
        exit instead, so the terminal is restored (signals.py says which, and
        why `kill -INT` does not ask). Ctrl+Z (SIGTSTP) pauses the game until
        `fg`; a SIGSTOP from outside is noticed at SIGCONT: the stopped time is
        taken out of the game and everything is drawn again."""
        if self.is_headless:
            return
        loop = asyncio.get_running_loop()
        sigs = ending_signals()
        handled = end_on_signals(loop, self.ended_by_signal, [s for s in sigs if not realtime(s)])
        later = [s for s in sigs if realtime(s)]  # right after the first frame (signals.py)
        self.call_after_refresh(
            lambda: handled.extend(end_on_signals(loop, self.ended_by_signal, later))
        )
        self._signals_handled = (loop, handled)  # given back at the end (on_unmount)
        watch_continue(self._driver, loop, self.continued)
        # immediate: Ctrl+Z stops the process right after publishing, before a
        # queued callback could run, and the pause must start before the stop
        self.app_suspend_signal.subscribe(
            self, lambda _: self.board.pause("suspended", True), immediate=True
        )
        self.app_resume_signal.subscribe(self, lambda _: self._resumed())

    def finish(self, line: str, code: int = 1) -> None:
        """End the app with `line` (the command prints it once the terminal is restored)."""
        self.end_line = line
        self.exit(return_code=code)

    def ended_by_signal(self, signum: int) -> None:
        """End as the signal asks, exit status 128 + its number. A SIGHUP's
        terminal may be gone: then nothing more is written to it."""
        if signum == signal.SIGHUP:
            let_go_of_terminal()
        self.exit(return_code=128 + signum)

    def on_hung_up(self, _: HungUp) -> None:
        """The driver read the terminal's end (keys/terminal.py): the game ends
        as on the hang-up's SIGHUP, which may never come (it came between two
        apps, or the game runs with SIGHUP ignored)."""
        self.ended_by_signal(signal.SIGHUP)

    def continued(self, own_stop: bool) -> None:
        """After SIGCONT. A stop the game was not told of (SIGSTOP, or a SIGTSTP
        from outside) counts as paused time; after a SIGSTOP the terminal is
        handed back and taken again (Textual did not), then repainted."""
        self.clock.stopped()
        if own_stop:
            return  # Textual brings the terminal back and posts its resume signal
        if self._exit or not owns_terminal():
            # quitting (a hang-up sends SIGHUP and SIGCONT together), or continued
            # in the background: the next `fg` sends SIGCONT again
            return
        driver = self._driver
        if driver is not None:
            driver.suspend_application_mode()
            driver.resume_application_mode()
        self._resumed()

    def _resumed(self) -> None:
        self.board.pause("suspended", False)
        self.refresh(layout=True)
        for screen in self.screen_stack:
            screen.refresh(layout=True)

    def on_resize(self, event: events.Resize) -> None:
        self._fit_cards(event.size.width, event.size.height)
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, w: int | None = None, h: int | None = None) -> None:
        if self.game_screen not in self.screen_stack:
            return  # not mounted yet: on_mount checks
        if w is None or h is None:
            w, h = self.size
        small = w < MIN_W or h < MIN_H
        top = self.screen
        if small and not any(s.id == TOO_SMALL_ID for s in self.screen_stack):
            from spit_tui.app.dialogs import TooSmallScreen  # loaded when first needed

            self.board.pause("small", True)
            self.push_screen(TooSmallScreen(self.mode.game_waits))
        elif not small and top.id == TOO_SMALL_ID:
            self.pop_screen()
            self.board.pause("small", False)

    def _on_change(self) -> None:
        self._count_for_match()
        if self.is_running and self.screen_stack and self.screen is self.game_screen:
            self.game_screen.sync()

    # -- a match (--match N) ----------------------------------------------------------

    def start_match(self, first_to: int) -> None:
        """Play a match of first to `first_to` games (the command line's --match)."""
        from spit_tui.matchscore import MatchScore  # only a match needs it: a faster start

        self.match = MatchScore(first_to)
        self._show_match()

    def _show_match(self) -> None:
        if self.match is None:
            return
        if self.history is not None:
            self.history.in_match = (self.match.number, self.match.first_to)
        self.show_notes(match=self.match.line(self.board_names()))

    def show_notes(self, **notes: str) -> None:
        """Put the app's own lines on its game (screens.Notes: figures, offer,
        match) and show them."""
        self.game_screen.notes = self.game_screen.notes._replace(**notes)
        self._on_change()

    def _new_game(self) -> None:
        """A new (or resumed) game (the table says so): this game's notes go,
        the match's stays, and the game is not yet counted into the match."""
        self.game_screen.notes = Notes(match=self.game_screen.notes.match)
        self._counted = False

    def _count_for_match(self) -> None:
        """Count a game into the match once, when it ends."""
        if self.match is None:
            return  # (a remote seat has no table of its own, and no match)
        t = self.table
        if t.position.phase is not Phase.OVER or self._counted:
            return
        self._counted = True
        self.match.add(t.position.winner)
        self._show_match()

    # -- the one path for game keys ---------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            if self.mode.takes_key(self, event):
                event.stop()
                event.prevent_default()
                return
            table = self.shown_table()
            if table is not None:
                intent, repeat = game_intent(event, table.keymap)
                if intent is not None:
                    if repeat:  # a held key acts once (the terminal said it repeats)
                        table.ignore_repeat(intent)
                    else:
                        table.clock.update()  # timers due before this key first
                        table.submit_intent(intent)
                        self._wake_for_next_event()
                    event.stop()
                    event.prevent_default()
                    return
                if table is self.board and not repeat:
                    self._hint_for(event)
            if drop_repeat(event):
                return
        await super().on_event(event)

    def _hint_for(self, event: events.Key) -> None:
        """A key of neither half that does nothing: say so, briefly, in the header."""
        if event.key == PAUSE_KEY:
            return  # the pause key: a binding of its own
        if event.key in ("enter", "tab") or (
            event.character is not None and event.character.isprintable()
        ):
            scene = self.board.scene()
            if event.key == "enter" and (
                scene.phase is Phase.OVER
                or scene.away is not None  # a seat's banner may offer Enter (SeatMode)
                or (self._seat is None and self.table.shown.held)
            ):
                return
            self.clock.update()  # the hint's time starts now
            name = {"enter": "Enter", "tab": "Tab"}.get(
                event.key, event.character or event.key
            )
            header = self.game_screen.query_one("#header", HeaderBar)
            header.show_hint(f"{name} is not a game key · F1: help")

    # -- non-game keys ----------------------------------------------------------------

    def action_help(self) -> None:
        from spit_tui.app.help import HelpScreen  # loaded on first use: a faster start

        top = self.screen
        if isinstance(top, HelpScreen):
            top.dismiss()
        elif isinstance(top, GameScreen):
            help_screen = HelpScreen(
                self.make_help_table, save_record=self.save_record, keymap=self.keymap,
                waits=self.mode.game_waits, idle_keys=self.mode.idle_keys,
            )
            help_screen.still = self.game_screen.still
            self.push_screen(help_screen)

    def save_record(self) -> str:
        """F2 on the help's key page: what the mode saves; the line to show."""
        return self.mode.save_record(self)

    def action_quit_ask(self) -> None:
        if not self.mode.asks_before_quit:
            self.exit()
            return
        from spit_tui.app.dialogs import QuitScreen, TooSmallScreen  # on the first quit key

        top = self.screen
        if isinstance(top, QuitScreen):
            top.dismiss(True)
            return
        if isinstance(top, TooSmallScreen):
            if top.asked:
                self.exit()
            else:
                top.asked = True
                top.show()
            return

        def done(quit_now: bool | None) -> None:
            if quit_now:
                self.exit()

        in_play = self.board.scene().phase is not Phase.OVER
        quit_screen = QuitScreen(self.resume_hint(), in_play=in_play, waits=self.mode.game_waits)
        self.push_screen(quit_screen, done)

    def action_pause(self) -> None:
        """Space: both halves wait, the clocks stopped as for help (the game
        screen is covered); Space or Esc plays on. Nothing to pause once the
        game is over."""
        if self.screen is not self.game_screen:
            return
        refused = self.mode.pause_refused()
        if refused is None and self.board.scene().phase is Phase.OVER:
            refused = "the game is over: nothing to pause"
        if refused is not None:
            self.game_screen.query_one("#header", HeaderBar).show_hint(refused)
            return
        from spit_tui.app.dialogs import PauseScreen  # on the first pause

        self.push_screen(PauseScreen())

    def action_new_game(self) -> None:
        if self._seat is not None:
            self.mode.enter_after_game(self)  # the host starts the games: a seat asks
            return
        t = self.table
        if self.screen is self.game_screen and t.play_on():
            return  # a resumed game: Enter plays on
        if not self.mode.new_games:
            return  # the host's (or the demo's) to start
        if self.screen is not self.game_screen or t.position.phase is not Phase.OVER:
            return
        if t.shown.ended_at is not None and t.clock.now() < t.shown.ended_at + NEW_GAME_GUARD_S:
            return
        self._games += 1
        if self.match is not None and self.match.over:  # the next match begins
            self.match = self.match.next()
            self._show_match()
        seed = fresh_seed() if self.seed is None else self.seed + self._games
        if self.repeat_deal:  # the daily deal: the next game is the same deal, for practice
            seed = self.seed if self.seed is not None else seed
        t.new_game(Game(options=self.options, seed=seed))
