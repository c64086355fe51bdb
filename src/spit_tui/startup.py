"""One start-up for every command that shows a board: the game (`spit-tui`),
`join`, `host --seat` and `replay`.

Each of them, in this order:
1. takes the same options for keys, the theme and look, and the decision log
   (`add_board_options`, checked by `board_options_problem`);
2. chooses the keys (--keys FILE, --layout NAME, SPIT_LAYOUT, keys.toml, else
   US QWERTY with the first-run check asking) and the settings (flag >
   environment > config.toml > default: spit_tui.settings), then checks the environment
   (Textual's own settings) and the terminal (`Board.prepare`): a bad key
   setting is one line and exit status 2 (a bad command line), anything about
   the environment or the terminal one line and `ENVIRONMENT` (1);
3. does its own part (reads the record, takes the seat, starts the host) and
   builds the app;
4. runs it through `Board.run`: the decision log, the crash guard (an
   unexpected error is one line and a report file, never a traceback), the
   run, then the app's end line, printed once the terminal is restored.

So a player's keys, a crash and a bad terminal read the same on every door.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from spit_tui import collector, crash
from spit_tui.command import DECISION_LOG_ENV, PROG, fail, shown

if TYPE_CHECKING:
    from spit_tui.decision_log import Logged
    from spit_tui.keys.config import Choice
    from spit_tui.keys.keymap import KeyMap
    from spit_tui.settings import Settings

ENVIRONMENT = 1  # the exit status when the terminal or the environment cannot show a board
KEYS = 2  # the exit status for a key setting that cannot be used (a bad command line)
HUNG_UP = 128 + signal.SIGHUP  # the terminal hung up, as a SIGHUP's end
FRAME_RATE = 1000  # Textual's frame cap (TEXTUAL_FPS): no cap in practice; see Board.prepare
BOARD_OPTIONS = ("layout", "keys", "theme", "decision_log")  # their names in an argparse Namespace


class BoardApp(Protocol):
    """What the start-up needs of an app that shows a board."""

    first_run: bool
    end_line: str | None  # one line to print once the terminal is restored

    @property
    def board(self) -> Logged: ...  # the local table, or a seat at a host's table

    @property
    def return_code(self) -> int | None: ...

    def use_keys(self, keymap: KeyMap) -> None: ...

    def use_settings(self, settings: Settings, note: str | None = None) -> None: ...

    async def run_async(self) -> Any: ...


def add_look_options(p: argparse.ArgumentParser) -> None:
    """--palette, --suits, --cards, --marks: the look (spit_tui/look.py), each a
    setting (flag > environment > config.toml > default)."""
    from spit_tui.look import CARDS, PALETTES, SUITS

    p.add_argument(
        "--palette",
        type=_setting("palette"),
        metavar="NAME",
        help=(
            "the players' colours, each pair apart for colour-blind players: "
            f"{', '.join(f'{c.name} ({c.words})' for c in PALETTES)} (also: SPIT_PALETTE)"
        ),
    )
    p.add_argument(
        "--suits",
        type=_setting("suits"),
        metavar="|".join(SUITS),
        help="four: diamonds blue and clubs green as well (also: SPIT_SUITS)",
    )
    p.add_argument(
        "--cards",
        type=_setting("cards"),
        metavar="|".join(CARDS),
        help=(
            "card size; auto (the default): large cards on terminals of 120x36 and up "
            "(also: SPIT_CARDS)"
        ),
    )
    p.add_argument(
        "--marks",
        action="store_true",
        default=None,
        help="◂ ▸ beside the piles' cards say whose they are, with colour too "
        "(also: SPIT_MARKS=1)",
    )


def _setting(key: str) -> Callable[[str], object]:
    """An argparse type that checks a flag's text as the setting `key` does."""
    from spit_tui.settings.fields import BY_KEY, Refused

    def check(text: str) -> object:
        try:
            return BY_KEY[key].check(text)
        except Refused as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return check


def add_board_options(p: argparse.ArgumentParser, *, log: bool = True) -> None:
    """--layout, --keys, --theme, the look's options and (with `log`)
    --decision-log with --force/--append."""
    p.add_argument(
        "--theme",
        type=_setting("theme"),
        metavar="NAME",
        help=(
            "the colours: a Textual theme, such as spit-light (light, on white) or "
            "ansi-dark (the terminal's own 16 colours); Ctrl+P, Theme lists them "
            "(also: environment variable TEXTUAL_THEME; kept in config.toml by F6)"
        ),
    )
    p.add_argument(
        "--layout",
        metavar="NAME",
        help=(
            "your keyboard layout: us (default), gb, fr, de, dvorak, ru, ... "
            "('spit-tui layouts' shows them all; also: environment variable SPIT_LAYOUT)"
        ),
    )
    p.add_argument(
        "--keys",
        metavar="FILE",
        help="read the key config from FILE instead of keys.toml in the config directory",
    )
    add_look_options(p)
    if not log:
        return
    p.add_argument(
        "--decision-log",
        metavar="FILE",
        help=(
            "write every decision (each key press and computer move: applied, illegal, "
            "too late or ignored) to FILE, one JSON line each, as it happens; for tools "
            f"and benchmarks (also: environment variable {DECISION_LOG_ENV}). FILE must be a new "
            "regular file (not a pipe, device or symbolic link)"
        ),
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--force", action="store_true", help="let --decision-log overwrite an existing file"
    )
    mode.add_argument(
        "--append", action="store_true", help="let --decision-log add to an existing file"
    )


def log_mode(args: argparse.Namespace) -> str:
    return "overwrite" if args.force else "append" if args.append else "new"


def board_options_problem(args: argparse.Namespace) -> str | None:
    """The decision log's path checked before anything is drawn (SPIT_DECISION_LOG
    counts as --decision-log); None if fine. The log's module loads only for a log."""
    if not hasattr(args, "decision_log"):
        return None
    if args.decision_log is None:
        # an empty variable counts as unset, as shells treat it
        args.decision_log = os.environ.get(DECISION_LOG_ENV) or None
    elif args.decision_log == "":
        return "--decision-log: the file name is empty"
    if args.decision_log is None:
        if args.force or args.append:
            return f"--{'force' if args.force else 'append'} needs --decision-log"
        return None
    from spit_tui.decision_log import LogRefused, check_path

    try:
        check_path(args.decision_log, log_mode(args))
    except LogRefused as e:
        return f"--decision-log: {e}"
    return None


@dataclass(eq=False, repr=False)  # only __init__: compiled at every start
class Board:
    """One command's start-up: its name (for its lines), its command line (for a
    crash report) and its key and log options."""

    prog: str = PROG
    argv: Sequence[str] = ()
    layout: str | None = None
    keys_file: str | None = None
    log_path: str | None = None
    log_mode: str = "new"
    flags: dict[str, Any] = field(default_factory=dict)  # the settings' flags given
    keys: Choice | None = field(default=None, init=False)
    settings: Settings | None = field(default=None, init=False)
    settings_note: str | None = field(default=None, init=False)  # config.toml's one line

    @classmethod
    def from_args(cls, args: argparse.Namespace, argv: Sequence[str], prog: str = PROG) -> Board:
        from spit_tui.settings import flags_of

        has_log = getattr(args, "decision_log", None) is not None
        return cls(
            prog=prog,
            argv=list(argv),
            layout=getattr(args, "layout", None),
            keys_file=getattr(args, "keys", None),
            log_path=getattr(args, "decision_log", None),
            log_mode=log_mode(args) if has_log else "new",
            flags=flags_of(args),
        )

    def prepare(self) -> int | None:
        """Choose the keys, then check the environment and the terminal: None if
        the board can be shown, else the exit status (having said why in one line)."""
        return self.choose_keys() or self.choose_settings() or self.check_terminal()

    def choose_settings(self) -> int | None:
        """The settings for this run (`settings`, handed to the app by `run`):
        None, or ENVIRONMENT after one line (a variable that cannot be used).
        A config.toml that cannot be used is a line on screen, not a stop."""
        if self.settings is not None:
            return None
        from spit_tui.settings import SettingError, settings_for_start

        try:
            self.settings, self.settings_note = settings_for_start(self.flags, os.environ)
        except SettingError as e:
            print(f"{self.prog}: {e}", file=sys.stderr)
            return ENVIRONMENT
        return None

    def choose_keys(self) -> int | None:
        """The keys for this run (`keymap`, handed to the app by `run`): None, or
        exit status 2 after one line (a key config that cannot be used)."""
        # Textual draws at most TEXTUAL_FPS frames a second (60 by default), and after
        # any frame holds the next one back for 17-33 ms, so a key pressed just after
        # the board redrew by itself (a highlight fading, the round clock) waited for
        # its frame. The board only changes on events: draw as soon as it does.
        # Read when Textual is first imported, which is later; the user's own wins.
        os.environ.setdefault("TEXTUAL_FPS", str(FRAME_RATE))
        from spit_tui.keys.config import KeyConfigError, choose

        try:
            self.keys = choose(self.layout, self.keys_file, os.environ)
        except KeyConfigError as e:
            print(f"{self.prog}: {e}", file=sys.stderr)
            return KEYS
        return None

    def keymap(self) -> KeyMap:
        """The key map of the keys chosen (US QWERTY before `choose_keys`)."""
        from spit_tui.keys.keymap import US, KeyMap

        return US if self.keys is None else KeyMap.of(self.keys.layout)

    def check_terminal(self) -> int | None:
        """None if the environment and the terminal can show the board, else
        ENVIRONMENT after one line saying why; or, the terminal hung up already
        (between two boards: the lobby and its room), nothing said and 129, as
        the board would have ended on its SIGHUP (keys/terminal.py)."""
        from spit_tui.hangup import hung_up, let_go_of_terminal
        from spit_tui.terminal import environment_problem, terminal_problem

        if hung_up(0):  # the driver reads fd 0
            let_go_of_terminal()
            return HUNG_UP
        problem = environment_problem() or terminal_problem()
        if problem is not None:
            print(f"{self.prog}: {problem}", file=sys.stderr)
            return ENVIRONMENT
        return None

    def asks_keyboard(self) -> bool:
        """Whether nothing chose a layout (then the first-run check may ask)."""
        return self.keys is not None and not self.keys.configured

    async def run(self, app: BoardApp) -> int:
        """Run the app with its decision log (if asked) and the crash guard; the
        exit status: the app's, or 1 after a crash reported in one line once the
        terminal is restored; the app's end line, if any, is printed then too."""
        from spit_tui.terminal import forget_exported_size

        app.use_keys(self.keymap())  # the app hands them to its table, boards and help
        # a door that chose only its keys (join, watch) gets the settings here
        refused = self.choose_settings()
        if refused is not None:
            return refused
        if self.settings is not None:
            app.use_settings(self.settings, self.settings_note)
        log = None
        if self.log_path is not None:
            from spit_tui.decision_log import DecisionLog, LogRefused

            try:
                log = DecisionLog(self.log_path, self.log_mode)
            except LogRefused as e:
                return fail(f"--decision-log: {e}", self.prog)
            except OSError as e:
                return fail(f"--decision-log: {e.strerror or e}: {shown(self.log_path)}", self.prog)
            log.attach(app.board)
        crash.arm(app.board)
        forget_exported_size()
        try:
            crash.injected("start")
            with crash.quiet_app_errors(app) as caught:
                await app.run_async()
        finally:
            collector.release()  # the app's first frame let it go, or it never came
            if log is not None:
                log.close()
                if log.failure is not None:
                    print(f"{self.prog}: {log.failure}", file=sys.stderr)
        if caught.error is not None:
            return crash.report(caught.error, self.argv, _context(app))
        if app.end_line is not None:
            print(app.end_line, file=sys.stderr)
        elif app.return_code and caught.printed:
            sys.stderr.write(caught.printed)
        return app.return_code or 0

    def run_sync(self, app: BoardApp) -> int:
        """`run` for a command with no event loop of its own."""
        import asyncio  # here: --help and a bad argument end before any loop

        return asyncio.run(self.run(app))


def _context(app: BoardApp) -> str:
    """The game position at the crash, for the report (a file, not the screen)."""
    try:
        from spit_tui.engine import format_position

        table = getattr(app, "table", None)  # a seat has no table of its own
        if table is None:
            return "position: on the host"
        return f"position: {format_position(table.position)}"
    except Exception as e:
        return f"position: unknown ({type(e).__name__})"
