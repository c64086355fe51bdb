"""`spit-tui serve [--port P] [--host HOST:PORT] [-- ARGS...]`: the command line,
checked, then the server (serve.py). The web server's libraries (aiohttp,
textual-serve: about 0.4 s of CPU to load) load only once the command line
is right and the port is ours, so a bad argument is one line at once."""

from __future__ import annotations

import shlex
import socket
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spit_tui.command import PROG, Parser, UsageError, command, port_number, shown

if TYPE_CHECKING:
    from spit_tui.engine import Options

NAME = f"{PROG} serve"
ADDRESS = "127.0.0.1"
DEFAULT_PORT = 8000
MAX_PAGES = 8  # games (processes) open at once


@dataclass(frozen=True)
class ServeArgs:
    port: int
    game: list[str] | None  # each page's game; None: the lobby
    pages: int  # games open at once, at most
    host: tuple[str, int] | None = None  # the lobby's game host; None: our own
    options: Options | None = None  # our own host's rooms' game
    first_to: int | None = None  # our own host's rooms' matches: first to N games


def parse_args(argv: list[str]) -> ServeArgs:
    """The command line, checked; UsageError if it is not right."""
    from spit_tui.net.hostcmd import add_room_options, room_match, room_options
    from spit_tui.net.joincmd import parse_address

    own, game = _split(argv)
    p = Parser(
        prog=NAME,
        description=(
            "Play in a browser: serves the game on this machine (127.0.0.1); open "
            "the address it prints. Each page opens on the lobby (quick match, new "
            "room, join by code, ...) of a game host of its own (or --host's). "
            "With --, every page plays the game the arguments after it give: "
            f"'{NAME} --' two players at one browser keyboard, "
            f"'{NAME} -- --vs-computer', '{NAME} -- join HOST CODE'."
        ),
    )
    p.add_argument(
        "--host", metavar="HOST:PORT",
        help="the game host whose rooms the lobby offers (default: one of our own, on 127.0.0.1)",
    )  # fmt: skip
    add_room_options(p)
    p.add_argument(
        "--port", default=str(DEFAULT_PORT), help=f"port to listen on ({DEFAULT_PORT}; 0: any)"
    )
    p.add_argument(
        "--pages", default=str(MAX_PAGES), metavar="N",
        help=f"games open at once, at most (1-64; {MAX_PAGES}): each is a process of about 40 MB",
    )
    args = p.parse_args(own)
    port = port_number(args.port)
    pages = args.pages
    if not (pages.isascii() and pages.isdigit() and len(pages) <= 2 and 1 <= int(pages) <= 64):
        raise UsageError(f"--pages: a number of games from 1 to 64, not {shown(pages)!r}")
    options, first_to = room_options(args), room_match(args)
    rooms = args.variant or args.target or args.manual_flip or args.match
    if game is not None:
        if args.host or rooms:
            raise UsageError("--host, --variant, --target, --manual-flip and --match are for "
                             "the lobby: not with a game after --")
        problem = game_args_problem(game)
        if problem is not None:
            raise UsageError(f"after --: {problem}")
        return ServeArgs(port, game, int(pages))
    if args.host and rooms:
        raise UsageError("--variant, --target, --manual-flip and --match are for our own host: "
                         "with --host, give them to that spit-tui host")
    host = parse_address(args.host) if args.host else None
    return ServeArgs(port, None, int(pages), host, options, first_to)


def _split(argv: list[str]) -> tuple[list[str], list[str] | None]:
    """(serve's own arguments, each page's game: None if there is no --)."""
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1 :]
    return argv, None


def game_args_problem(game: list[str]) -> str | None:
    """Why each page's game would refuse these arguments, checked once here
    rather than in every page that opens; None if they look right."""
    from spit_tui import cli

    if "--help" in game or "-h" in game or "--version" in game:
        return "--help and --version print and end: nothing to serve"
    if game and not game[0].startswith("-"):
        if game[0] == "join" and "join" in cli.SUBCOMMANDS:  # the one that shows a board
            return _join_problem(game[1:])
        if game[0] in cli.SUBCOMMANDS:
            return f"'{game[0]}' does not show the board, so there is nothing to serve"
        return f"'{game[0][:40]}' is not a {PROG} command the browser can run"
    try:
        args = cli.build_parser().parse_args(game)
    except UsageError as e:
        return str(e)
    for check in cli.CHECKS:
        problem = check(args)
        if problem is not None:
            return problem
    return None


def _join_problem(rest: list[str]) -> str | None:
    from spit_tui.net.joincmd import parse_args as join_args

    try:
        args = join_args(rest)
    except UsageError as e:
        return f"join: {e}"
    if args.new_room:
        return "join --new-room prints a room code and ends: nothing to serve"
    return None


def game_command(game: list[str]) -> str:
    """The shell command textual-serve runs for each page (quoted: it goes
    through a shell; `exec`: the shell becomes the game, so signals and the
    exit status are the game's own)."""
    return "exec " + shlex.join([sys.executable, "-m", "spit_tui", *game])


def listen(port: int) -> socket.socket:
    """The server's socket on 127.0.0.1 (OSError if the port cannot be had)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((ADDRESS, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


@command(NAME)
def main(argv: list[str]) -> int:
    args = parse_args(argv)
    try:
        sock = listen(args.port)
    except OSError as e:
        print(f"{NAME}: cannot listen on {ADDRESS}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 1
    from .serve import make_server  # the web server's libraries, now

    server = make_server(sock, args)
    try:
        server.serve()
    finally:
        sock.close()
    if server.problem is not None:
        print(f"{NAME}: {server.problem}", file=sys.stderr)
        return 1
    if server.stopped_by is not None:
        print(f"{NAME}: stopped", file=sys.stderr)
        return 128 + server.stopped_by
    return 0
