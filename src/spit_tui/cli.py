"""Command-line front door: `spit-tui [options]` plays; `spit-tui SUBCOMMAND ...`
runs one of `SUBCOMMANDS` (headless matches, ...).

What a person sees when something goes wrong:
- a bad argument or setting: one line on stderr, exit status 2;
- a terminal (or a Textual setting) that cannot show the board: one line,
  exit status 1 (spit_tui.startup: the same for every command with a board);
- stdout that cannot be written (`--help > /dev/full`): one line, exit 1;
- any unexpected error: the terminal restored, one line naming the error and
  the crash report file (spit_tui.crash), exit 1; never a traceback;
- Ctrl+C before the board is up: one line, exit 130.

To add an option group, write a small `_add_...(parser)` function and list it
in `OPTION_GROUPS` (with a check in `CHECKS` if it needs one); to add a
subcommand, give it a module with `main(argv) -> int` and a line in `SUBCOMMANDS`.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from spit_tui import __version__, collector, crash
from spit_tui.command import (
    PROG,
    OutputError,
    Parser,
    command,
    fail,
    flush_out,
    guarded_stdout,
    level_argument,
    shown,
)
from spit_tui.startup import Board, add_board_options, board_options_problem

if TYPE_CHECKING:
    from spit_tui.app import SpitApp
    from spit_tui.engine import Options, Position
    from spit_tui.names import Given
    from spit_tui.store.resume import Stopped


class Subcommand(NamedTuple):
    module: str  # imported only when the subcommand runs: a fast start for the game
    summary: str
    function: str = "main"  # the module's (argv: list[str]) -> int


SUBCOMMANDS: dict[str, Subcommand] = {
    "sim": Subcommand("spit_tui.sim", "headless computer matches in simulated time"),
    "layouts": Subcommand("spit_tui.keys.cli", "the keyboard layouts", "layouts_command"),
    "stats": Subcommand("spit_tui.store.commands", "each player's record", "stats_main"),
    "history": Subcommand("spit_tui.store.commands", "the stored games", "history_main"),
    "replay": Subcommand("spit_tui.app.replay", "play back a stored game or a record file"),
    "daily": Subcommand("spit_tui.dailycmd", "today's deal against the computer (--history)"),
    "settings": Subcommand("spit_tui.settingscmd", "the settings screen (--show: in force)"),
    "export": Subcommand("spit_tui.store.commands", "a stored game to a file", "export_main"),
    "host": Subcommand("spit_tui.net.hostcmd", "host games for players on other terminals"),
    "join": Subcommand("spit_tui.net.joincmd", "take a seat at a game a host runs"),
    "watch": Subcommand("spit_tui.net.watchcmd", "watch a game a host runs"),
    "serve": Subcommand("spit_tui.web.servecmd", "play in a browser: the lobby, or one keyboard"),
    "ssh-serve": Subcommand("spit_tui.ssh.servecmd", "friends play over ssh, nothing installed"),
}


# -- the parser -------------------------------------------------------------------------


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        if text.strip().lstrip("+-").isdigit():  # Python's int-string limit
            raise argparse.ArgumentTypeError(
                f"too many digits: {shown(text)!r}; a seed of up to 4,000 digits will do"
            ) from None
        raise argparse.ArgumentTypeError(f"not a whole number: {shown(text)!r}") from None


def _target(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {shown(text)!r}") from None
    if n <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {shown(str(n))}")
    return n


def _first_to(text: str) -> int:
    from spit_tui.matchscore import MAX_FIRST_TO

    n = _target(text)
    if n > MAX_FIRST_TO:
        raise argparse.ArgumentTypeError(f"at most {MAX_FIRST_TO}, not {shown(str(n))}")
    return n


def _name(text: str) -> str:
    from spit_tui.names import as_name, name_problem

    text = as_name(text)
    problem = name_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"{problem}: {shown(text)!r}")
    return text.strip()


def _game_id(text: str) -> int:
    """--resume ID: a game id as 'spit-tui history' lists it."""
    from spit_tui.store.commands import game_id

    number = game_id(text)
    if number is None:
        raise argparse.ArgumentTypeError(f"not a game id: {shown(text)!r}")
    return number


def _add_game_options(p: argparse.ArgumentParser) -> None:
    from spit_tui.engine import Variant

    p.add_argument(
        "--variant",
        choices=[str(v) for v in Variant],
        help="standard: first to get rid of every card wins; points: lowest score wins",
    )
    p.add_argument(
        "--target", type=_target, metavar="N", help="points variant: play to N points (100)"
    )
    p.add_argument(
        "--seed", type=_seed, metavar="N", help="shuffle with this seed (repeatable games)"
    )
    p.add_argument(
        "--match",
        type=_first_to,
        metavar="N",
        help="play a match: the first to win N games (the banner keeps the score)",
    )
    p.add_argument(
        "--manual-flip",
        action="store_true",
        help="turn up the card under a played card yourself (number row)",
    )
    p.add_argument(
        "--position",
        metavar="NOTATION",
        help=(
            "start from this position in the engine's notation (for bug reports "
            "and tests), e.g. \"play 1 two - ...\"; @FILE: from a saved game record's "
            "current position (F2 on the first help page saves one)"
        ),
    )



def _add_computer_options(p: argparse.ArgumentParser) -> None:
    from spit_tui.helpwords import DEMO, LevelHelp

    p.add_argument(
        "--vs-computer",
        action="store_true",
        help="play against the computer (you take the left half of the keyboard)",
    )
    level = p.add_argument("--level", type=level_argument, metavar="LEVEL", help="%(words)s")
    level.words = LevelHelp()  # type: ignore[attr-defined]  # (the ladder loads for --help only)
    p.add_argument(
        "--computer-side",
        choices=["left", "right"],
        help="which half the computer plays (default right)",
    )
    p.add_argument(
        "--demo",
        action="store_true",
        help=DEMO,
    )


def _add_history_options(p: argparse.ArgumentParser) -> None:
    for side in ("left", "right"):
        p.add_argument(f"--{side}-name", type=_name, metavar="NAME", help=f"{side} player's name")
    p.add_argument("--db", metavar="FILE", help="keep the history of games in FILE")
    p.add_argument("--no-history", action="store_true", help="keep no history of these games")
    p.add_argument(
        "--resume",
        nargs="?",
        const=True,
        default=False,
        type=_game_id,
        metavar="ID",
        help=(
            "continue a game quit before its end (its players, options and clocks: as it "
            "stood): game ID from 'spit-tui history', or else the last one; the opening "
            "banner offers the last one too (F5)"
        ),
    )



OPTION_GROUPS: list[Callable[[argparse.ArgumentParser], None]] = [
    _add_game_options,
    _add_computer_options,
    add_board_options,
    _add_history_options,
]


def build_parser() -> argparse.ArgumentParser:
    commands = "; ".join(f"'{PROG} {n} --help': {c.summary}" for n, c in SUBCOMMANDS.items())
    p = Parser(
        prog=PROG,
        description=(
            "Spit (Speed, Slam) for two players sharing one keyboard. "
            "A short game, about five minutes: spit-tui --variant points --target 40"
        ),
        epilog=(
            "Left player: keys 1-5, Q-T, A-G, Z-B. Right player: 6-0, Y-P, H-;, N-/. "
            f"F1 or Backspace: help. Ctrl+Q: quit. {commands}."
        ),
    )
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    for add in OPTION_GROUPS:
        add(p)
    return p


# -- checks that need more than one option ----------------------------------------------


TARGET_ALONE = "--target only applies to --variant points"


def _check_target(args: argparse.Namespace) -> str | None:
    """(Without --variant, config.toml's variant decides: checked once it is read.)"""
    if args.target is not None and args.variant == "standard":
        return TARGET_ALONE
    return None


def _check_computer(args: argparse.Namespace) -> str | None:
    if args.vs_computer and args.demo:
        return "choose one of --vs-computer and --demo"
    if args.level is not None and not (args.vs_computer or args.demo):
        return "--level needs --vs-computer or --demo"
    if args.level == "auto" and not args.vs_computer:
        return "--level auto needs --vs-computer"
    if args.computer_side is not None and not args.vs_computer:
        return "--computer-side needs --vs-computer"
    if args.match and args.demo:
        return "--match is for players: the demo plays on by itself"
    return None


# What a resumed game brings with it: none of these can change it.
RESUME_KEEPS = (
    "variant", "target", "seed", "manual_flip", "position", "vs_computer", "level",
    "computer_side", "demo", "left_name", "right_name", "no_history", "match",
)  # fmt: skip


def _check_resume(args: argparse.Namespace) -> str | None:
    if not args.resume:
        return None
    for name in RESUME_KEEPS:
        value = getattr(args, name)
        if value is not None and value is not False:
            what = "history" if name == "no_history" else "game"
            flag = "--" + name.replace("_", "-")
            if name == "no_history":
                return f"--resume reads the history: it cannot go with {flag}"
            return f"--resume continues the stored {what} as it was: drop {flag}"
    return None


def _check_names(args: argparse.Namespace) -> str | None:
    from spit_tui.names import same_names_problem

    if args.left_name and args.right_name:
        return same_names_problem((args.left_name, args.right_name))
    return None


CHECKS: list[Callable[[argparse.Namespace], str | None]] = [
    _check_target,
    _check_computer,
    _check_resume,
    board_options_problem,
    _check_names,
]


# -- running ----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else list(argv)
    try:
        with guarded_stdout():
            code = _dispatch(args_in)
            sys.stdout.flush()  # what is still buffered: a failure is an OutputError
    except OutputError as e:
        print(f"{PROG}: cannot write the output: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except Exception as e:
        return crash.report(e, args_in)
    problem = flush_out()
    if problem is not None:
        print(f"{PROG}: cannot write the output: {problem}", file=sys.stderr)
        return code or 1
    return code


def _dispatch(args_in: list[str]) -> int:
    if args_in[:1] and args_in[0] in SUBCOMMANDS:
        return _subcommand(args_in[0], args_in[1:])
    return _game(args_in)


@command()
def _game(args_in: list[str]) -> int:
    return _play(build_parser().parse_args(args_in), args_in)


def _subcommand(name: str, rest: list[str]) -> int:
    collector.release()  # held only for the game's start (spit_tui.collector)
    sub = SUBCOMMANDS[name]
    try:
        module = importlib.import_module(sub.module)
    except ImportError:
        return fail(f"{name} is not available")
    result: int = getattr(module, sub.function)(rest)
    return result


def _play(args: argparse.Namespace, args_in: list[str]) -> int:
    for check in CHECKS:
        problem = check(args)
        if problem is not None:
            return fail(problem)
    from spit_tui.engine import NotationError, Options, Variant, check_position, parse_position

    board = Board.from_args(args, args_in)
    refused = board.choose_settings()  # the defaults for what no flag gave
    if refused is not None or board.settings is None:
        return refused or 1
    settings = board.settings
    if args.target is not None and settings.variant != "points":
        return fail(TARGET_ALONE)
    stopped = None
    if args.resume:
        stopped = _stopped_game(args)
        if stopped is None:
            return 1  # it said why, in one line
    options = Options(
        variant=Variant(settings.variant),
        target=settings.target,
        manual_flip=args.manual_flip,
    )
    position = None
    if args.position is not None:
        try:
            if args.position.startswith("@"):
                from pathlib import Path

                from spit_tui.store.records import position_from_file

                position = position_from_file(Path(args.position[1:]))
            else:
                position = parse_position(args.position)
            check_position(position, options)  # what this game's options rule out
        except NotationError as e:
            return fail(f"--position: {e}")
        except OSError as e:
            return fail(f"--position: cannot read {shown(args.position[1:])}: {e.strerror or e}")
    refused = board.prepare()
    if refused is not None:
        return refused
    if stopped is not None:
        options = stopped.record.options
    level = args.level or settings.level  # (a resumed game's own, if any: _stopped_game)
    if args.demo and level == "auto":
        level = "normal"  # auto follows a person: the demo has none
    app = _make_app(args, options, position, level)
    app.startup_note = getattr(args, "note", None) or app.startup_note  # spit-tui daily's
    if args.match and not args.demo:
        app.start_match(args.match)
    app.repeat_deal = bool(getattr(args, "daily", None))  # practice: the day's deal again
    # the first-run check: never when a layout was given, nor for a demo, a position
    # or a resumed game
    app.first_run = board.asks_keyboard() and not args.demo and position is None and not stopped
    if stopped is not None:
        _attach_history(app, args)
        app.resume_game(stopped.record, stopped.clock_seconds)
        if app.history is not None:
            app.history.resume(app.table, stopped)
    else:  # made once the board is up: its import is not the first frame's time
        app.history_later = lambda: _attach_history(app, args)
    return _run(app, board, args)


def _make_app(
    args: argparse.Namespace, options: Options, position: Position | None, level: str
) -> SpitApp:
    from spit_tui.names import choose

    if args.resume:  # the stopped game's own players, as they were (nothing remembered)
        given, note = (args.left_name, args.right_name), None
    else:
        given, note = choose((args.left_name, args.right_name))
    app = _new_app(args, options, position, given, level)
    app.startup_note = note
    return app


def _new_app(
    args: argparse.Namespace,
    options: Options,
    position: Position | None,
    given: Given,
    level: str,
) -> SpitApp:
    """`level`: the computer's level (--level's, else the settings')."""
    from spit_tui.app import SpitApp
    from spit_tui.app.modes import LocalMode, Mode

    mode: Mode = LocalMode()
    if args.vs_computer or args.demo:
        from spit_tui.app.computer import ComputerMode
        from spit_tui.engine import Player

        side = Player.LEFT if args.computer_side == "left" else Player.RIGHT
        seats = {p: level for p in (Player.LEFT, Player.RIGHT)} if args.demo else {side: level}
        times = None
        if level == "auto" and not args.no_history:
            from spit_tui.names import YOU
            from spit_tui.players.auto import stored_reaction_times

            person = given[side.other] or YOU  # the name its games are kept under
            times = stored_reaction_times(person, args.db)
        mode = ComputerMode(seats, demo=args.demo, bot_seed=args.seed, reaction_times=times)
    return SpitApp(options=options, seed=args.seed, position=position, names=given, mode=mode)


def _stopped_game(args: argparse.Namespace) -> Stopped | None:
    """--resume: the stopped game, with its seats and names put into `args`;
    None (having said why in one line) if there is none to resume."""
    from pathlib import Path

    from spit_tui.store import db
    from spit_tui.store.resume import find_stopped
    from spit_tui.store.session import NO_HISTORY_ENV

    if os.environ.get(NO_HISTORY_ENV):
        print(f"{PROG}: --resume reads the history, and {NO_HISTORY_ENV} is set", file=sys.stderr)
        return None
    path = Path(args.db) if args.db else db.default_path()
    try:
        stopped = find_stopped(path, None if args.resume is True else args.resume)
    except db.HistoryError as e:
        print(f"{PROG}: --resume: {e}", file=sys.stderr)
        return None
    if stopped is None:
        print(f"{PROG}: no game to resume: none was quit in play ({path})", file=sys.stderr)
        return None
    computer = stopped.computer()
    if computer:
        side, level = next(iter(computer.items()))
        args.vs_computer, args.computer_side, args.level = True, side.name.lower(), level
    args.seed = stopped.record.seed  # the computer's moves and the next game's deal follow it
    # the people's names (the computer's is its level; LEFT, RIGHT and YOU are nobody's)
    from spit_tui.engine import Player
    from spit_tui.names import DEFAULT_NAMES, YOU

    args.left_name, args.right_name = (
        None if p in computer or name in (DEFAULT_NAMES[p], YOU) else name
        for p, name in zip(Player, stopped.names, strict=True)
    )
    return stopped


def _attach_history(app: SpitApp, args: argparse.Namespace) -> None:
    """Store the session's games (the demo's are the computer's show, not anyone's)."""
    from spit_tui.store.resume import computer_tag
    from spit_tui.store.session import open_history

    history = open_history(args.db, enabled=not (args.no_history or args.demo))
    if history is None:
        return
    history.names = app.stored_names()  # F4 changes them later through the app
    history.tags = computer_tag(app.computer_levels())
    history.rungs = app.computer_rungs()
    history.daily = getattr(args, "daily", None)  # spit-tui daily's day
    if history.daily:
        history.tags["Daily"] = history.daily
    app.attach_history(history)


def _run(app: SpitApp, board: Board, args: argparse.Namespace) -> int:
    """Run the app (the one start-up's run); after F5 on the opening banner,
    the stopped game's session follows."""
    code = board.run_sync(app)
    if app.resume_asked and code == 0:
        return _play(_resume_args(args), list(board.argv))
    kept = app.kept_line()
    if kept:
        print(f"{PROG}: {kept}", file=sys.stderr)
    return code


def _resume_args(args: argparse.Namespace) -> argparse.Namespace:
    """The command line `--resume` would have had: the same files and keys, the
    game's own options (the stopped game brings them)."""
    again = argparse.Namespace(**vars(args))
    for name in RESUME_KEEPS:
        setattr(again, name, False if isinstance(getattr(args, name), bool) else None)
    again.resume = True
    if again.decision_log is not None:  # the same log goes on
        again.force, again.append = False, True
    return again
