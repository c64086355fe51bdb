"""Command-line front door: `spit-tui [options]` plays; `spit-tui sim ...` runs
headless matches. Bad arguments get one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from spit_tui import __version__
from spit_tui.engine import Variant
from spit_tui.players.bot import LEVEL_NAMES

PROG = "spit-tui"
FRAME_RATE = 1000  # Textual's frame cap (TEXTUAL_FPS): no cap in practice; see main()


class UsageError(Exception):
    """A bad command line: the message is the one line the player sees."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _target(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if n <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {n}")
    return n


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG,
        description=(
            "Spit (Speed, Slam) for two players sharing one keyboard. "
            "A short game, about five minutes: spit-tui --variant points --target 40"
        ),
        epilog=(
            "Left player: keys 1-5, Q-T, A-G, Z-B. Right player: 6-0, Y-P, H-;, N-/. "
            "F1 or Backspace: help. Ctrl+Q: quit. "
            "'spit-tui layouts' shows the keyboard layouts. "
            "'spit-tui sim --help' runs headless computer matches."
        ),
    )
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    p.add_argument(
        "--variant",
        choices=[str(v) for v in Variant],
        default=str(Variant.STANDARD),
        help="standard: first to get rid of every card wins; points: lowest score wins",
    )
    p.add_argument(
        "--target", type=_target, metavar="N", help="points variant: play to N points (100)"
    )
    p.add_argument(
        "--seed", type=_seed, metavar="N", help="shuffle with this seed (repeatable games)"
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
    p.add_argument(
        "--vs-computer",
        action="store_true",
        help="play against the computer (you take the left half of the keyboard)",
    )
    p.add_argument(
        "--level",
        choices=LEVEL_NAMES,
        help="how good the computer is (default normal)",
    )
    p.add_argument(
        "--computer-side",
        choices=["left", "right"],
        help="which half the computer plays (default right)",
    )
    p.add_argument(
        "--demo",
        action="store_true",
        help="watch two computer players; any key starts a normal game",
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
    p.add_argument(
        "--decision-log",
        metavar="FILE",
        help=(
            "write every decision (each key press and computer move: applied, illegal, "
            "too late or ignored) to FILE, one JSON line each, as it happens; for tools "
            "and benchmarks (also: environment variable SPIT_DECISION_LOG)"
        ),
    )
    return p


def _fail(message: str) -> int:
    print(f"{PROG}: {message} (try {PROG} --help)", file=sys.stderr)
    return 2


def _sim(rest: list[str]) -> int:
    try:
        from spit_tui import sim  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return _fail("sim is not available")
    result: int = sim.main(rest)
    return result


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else list(argv)
    if args_in[:1] == ["sim"]:
        return _sim(args_in[1:])
    if args_in[:1] == ["layouts"]:
        from spit_tui.keys.cli import layouts_command

        return layouts_command(args_in[1:])
    try:
        args = build_parser().parse_args(args_in)
    except UsageError as e:
        return _fail(str(e).replace("argument ", ""))
    except SystemExit as e:  # --help and --version
        return int(e.code or 0)

    from spit_tui.engine import NotationError, Options, Variant, parse_position

    variant = Variant(args.variant)
    if args.target is not None and variant is not Variant.POINTS:
        return _fail("--target only applies to --variant points")
    position = None
    if args.position is not None:
        try:
            if args.position.startswith("@"):
                from pathlib import Path

                from spit_tui.store.records import position_from_file

                position = position_from_file(Path(args.position[1:]))
            else:
                position = parse_position(args.position)
        except NotationError as e:
            return _fail(f"--position: {e}")
        except OSError as e:
            return _fail(f"--position: cannot read {args.position[1:]}: {e.strerror or e}")
        if len(position.all_cards()) != 52:
            n = len(position.all_cards())
            return _fail(f"--position: a game position holds all 52 cards, this one {n}")
    options = Options(
        variant=variant,
        target=args.target if args.target is not None else 100,
        manual_flip=args.manual_flip,
    )
    if args.vs_computer and args.demo:
        return _fail("choose one of --vs-computer and --demo")
    if args.level is not None and not (args.vs_computer or args.demo):
        return _fail("--level needs --vs-computer or --demo")
    if args.computer_side is not None and not args.vs_computer:
        return _fail("--computer-side needs --vs-computer")
    from spit_tui.keys.cli import choose_keys

    keys = choose_keys(args.layout, args.keys)
    if keys is None:
        return 2
    from spit_tui.terminal import terminal_problem

    problem = terminal_problem()
    if problem is not None:
        print(f"{PROG}: {problem}", file=sys.stderr)
        return 1
    # Textual draws at most TEXTUAL_FPS frames a second (60 by default), and after
    # any frame holds the next one back for 17-33 ms, so a key pressed just after
    # the board redrew by itself (a highlight fading, the round clock) waited for
    # its frame. The board only changes on events: draw as soon as it does.
    # Read when Textual is first imported, which is below; the user's own wins.
    os.environ.setdefault("TEXTUAL_FPS", str(FRAME_RATE))
    from spit_tui.app import SpitApp

    app: SpitApp
    if args.vs_computer or args.demo:
        from spit_tui.app.computer import ComputerApp
        from spit_tui.engine import Player

        level = args.level or "normal"
        side = Player.LEFT if args.computer_side == "left" else Player.RIGHT
        seats = {p: level for p in (Player.LEFT, Player.RIGHT)} if args.demo else {side: level}
        app = ComputerApp(
            computer=seats,
            demo=args.demo,
            bot_seed=args.seed,
            options=options,
            seed=args.seed,
            position=position,
        )
    else:
        app = SpitApp(options=options, seed=args.seed, position=position)
    # Exported COLUMNS/LINES would override the real terminal size, and keep
    # overriding it after every resize (shutil.get_terminal_size reads them first).
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)
    log_path = args.decision_log or os.environ.get("SPIT_DECISION_LOG") or None
    if log_path is None:
        app.run()
        return 0
    from spit_tui.decision_log import DecisionLog

    try:
        log = DecisionLog(log_path)
    except OSError as e:
        return _fail(f"--decision-log: {e.strerror or e}: {log_path}")
    with log:
        log.attach(app.table)
        app.run()
    return 0
