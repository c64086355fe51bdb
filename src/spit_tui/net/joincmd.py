"""`spit-tui join HOST[:PORT] CODE [--seat left|right]` and `join HOST[:PORT] --new-room`.

Everything that can go wrong before the board is up (a bad address, a key
setting, a terminal that cannot show the board, a host that cannot be
reached, a wrong code, a taken seat) is one line on stderr and a non-zero
exit, with the terminal never touched; after that, the app ends with one line
too (the host stopped, the host is gone), printed once the terminal is
restored; but a seat taken in the lobby whose room the host stopped (the
other player left, or did not come back) goes back to the lobby, which
shows that line instead, unless the host's close says the host itself is
stopping (protocol 5's `ends`). The keys, the terminal checks, the decision log
and the crash guard are the one start-up's (spit_tui.startup), as for a
game at one keyboard.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import os
import socket
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from spit_tui.command import PROG, Parser, UsageError, command, shown
from spit_tui.engine import Options
from spit_tui.names import as_name, name_problem
from spit_tui.startup import Board, add_board_options, board_options_problem

from .client import JOIN_S, Client, JoinRefused
from .host import DEFAULT_PORT
from .protocol import MAX_TEXT, Message, host_text
from .room import CODE_ALPHABET, CODE_CHARS, normal_code
from .seat import NetSeat, Tokens

if TYPE_CHECKING:
    from spit_tui.app.lobby import Watchable, YourName

NAME = f"{PROG} join"
INVITE_ENV = "SPIT_INVITE"
NAME_ENV = "SPIT_PLAYER_NAME"
DOOR_DB_ENV = "SPIT_DOOR_DB"  # the SSH server's history, for the lobby's pages (read only)
ASK_NAME_ENV = "SPIT_ASK_NAME"  # "no": the lobby does not ask a player's name (F4 still gives one)
PASS_ENV = "SPIT_DOOR_PASS"  # the SSH door's pass for this guest's key (net.room.Lobby.vouch)


def valid_host(host: str) -> bool:
    """A host name or address as the resolver could take it (at most 253 ASCII
    letters, digits and . - _ :), for `join` and for `host --bind`."""
    return host_text(host)


def parse_address(text: str) -> tuple[str, int]:
    """HOST, HOST:PORT, [V6]:PORT or a bare IPv6 address; UsageError if not."""
    host, port = text, str(DEFAULT_PORT)
    if text.startswith("["):
        inside, sep, rest = text[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            raise UsageError(f"not an address (HOST[:PORT]): {shown(text)}")
        host, port = inside, rest[1:] or port
    elif text.count(":") == 1:
        host, port = text.split(":")
    if not valid_host(host):
        raise UsageError(f"not a host name or address: {shown(text)}")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise UsageError(f"not a port number (1-65535): {shown(port)}")
    return host, int(port)


def check_code(text: str) -> str:
    code = normal_code(text)
    plain = code.replace("-", "")
    if len(plain) != CODE_CHARS or any(c not in CODE_ALPHABET for c in plain):
        raise UsageError(
            f"not a room code (ten letters and digits, like k3f9q-2x7mz): {shown(text)}"
        )
    return code


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line, checked (UsageError if it is not right)."""
    p = Parser(
        prog=NAME,
        description=(
            "Take a seat at a game hosted by 'spit-tui host' (give the code it printed), "
            "or ask that host for another room (--new-room)."
        ),
    )
    p.add_argument("address", metavar="HOST[:PORT]", help=f"the host (port {DEFAULT_PORT})")
    p.add_argument(
        "code", nargs="?", metavar="CODE",
        help="the room code the host printed (none: the lobby: quick match, new room, ...)",
    )  # fmt: skip
    p.add_argument("--seat", choices=("left", "right"), help="the seat to take (the free one)")
    p.add_argument("--new-room", action="store_true", help="make another room; print its code")
    p.add_argument(
        "--quick", action="store_true", help="play the next player who asks for a quick match"
    )
    p.add_argument(
        "--name",
        metavar="NAME",
        help=(f"your name on both boards (default: ${NAME_ENV}, set by the ssh door; else "
              "the lobby asks for it once and keeps it in players.toml, F4 there changes it)"),
    )
    p.add_argument(
        "--db", metavar="FILE",
        help="keep the games played here in FILE (the history `spit-tui stats` reads)",
    )  # fmt: skip
    p.add_argument("--no-history", action="store_true", help="keep no history of these games")
    add_board_options(p)
    args = p.parse_args(argv)
    args.host, args.port = parse_address(args.address)
    if args.new_room or args.quick:
        if args.code is not None or args.seat is not None or (args.new_room and args.quick):
            raise UsageError(f"--{'new-room' if args.new_room else 'quick'} takes only HOST[:PORT]")
    elif args.code is not None:
        args.code = check_code(args.code)
    if args.new_room:
        return args
    args.name = args.name if args.name is not None else os.environ.get(NAME_ENV) or None
    if args.name is not None:
        args.name = as_name(args.name)
        problem = name_problem(args.name)
        if problem is not None:
            raise UsageError(f"--name: {problem}: {shown(args.name)}")
        args.name = args.name.strip()
    problem = board_options_problem(args)
    if problem is not None:
        raise UsageError(problem)
    return args


MAX_INVITE_LINES = 4
TITLE_ENV = "SPIT_LOBBY_TITLE"  # the lobby's heading, from the door that started this seat


def lobby_title(host: str, port: int) -> str:
    """The lobby's heading: the one the door gave (the SSH door names itself,
    not the game host behind it), else the host joined."""
    from rich.cells import cell_len

    given = os.environ.get(TITLE_ENV, "")  # (it names the guest: any alphabet)
    if 0 < len(given) == cell_len(given) <= 60 and given.isprintable():
        return given
    return f"spit-tui on {host}:{port}"


ROOM_OPTIONS_ENV = "SPIT_ROOM_OPTIONS"  # the door's own host's game, for New room


def room_options_env(options: Options) -> str:
    """The door's own host's room options, for its lobby's New room to start
    from (as on the wire: one home for their shape and checks)."""
    import json

    from .protocol import options_to_wire

    return json.dumps(options_to_wire(options), separators=(",", ":"))


def door_room_options() -> Options | None:
    """The options the door that started this lobby gave (its own host's
    `--variant/--target/--manual-flip`), else None (New room starts from the
    standard game); anything else in the variable is ignored."""
    import json

    from .protocol import options_from_wire, room_options

    given = os.environ.get(ROOM_OPTIONS_ENV, "")
    try:
        wire = json.loads(given) if 0 < len(given) <= 200 else None
    except ValueError:
        return None
    if not isinstance(wire, dict) or not room_options(wire) or wire["computer"] is not None:
        return None
    return options_from_wire(wire)[0]


def invite_line(code: str, default: str | None = None) -> str | None:
    """The lines that bring the other player to room `code`, shown on the board
    until they come (one a line): the ones the door that started this seat gave
    (the SSH door's ssh line, and its join line where its host can be reached;
    a browser door's; "{code}" in them stands for the room's code), else
    `default` (the lobby's New room: the join line). Lines that are not short
    printable ASCII are left out."""
    given = (os.environ.get(INVITE_ENV) or default or "").replace("{code}", code)
    lines = [
        line for line in given.split("\n")[:MAX_INVITE_LINES]
        if 0 < len(line) <= 200 and line.isascii() and line.isprintable()
    ]
    return "\n".join(lines) or None


def unreachable(host: str, port: int, e: BaseException, prog: str = NAME) -> str:
    """Why no host answered at HOST:PORT, in words a player can act on (one line)."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if isinstance(e, socket.gaierror):
        return f"{prog}: no machine called {shown(host)} was found: is the name right?"
    if isinstance(e, ConnectionRefusedError):
        return f"{prog}: nothing is listening at {where}: is the host running?"
    if isinstance(e, TimeoutError) or (isinstance(e, OSError) and e.errno == errno.ETIMEDOUT):
        return (
            f"{prog}: {where} did not answer in time: is the host running, "
            "and is nothing (a firewall) in the way?"
        )
    if isinstance(e, OSError) and e.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return f"{prog}: {where} cannot be reached from this machine: is the address right?"
    why = e.strerror if isinstance(e, OSError) and e.strerror else str(e) or "no answer"
    return f"{prog}: cannot reach {where}: {shown(why)}"


def _refused(e: JoinRefused) -> str:
    """A host that said no (its checked reason), or broke the protocol saying it."""
    line = shown(str(e), MAX_TEXT)  # a reason passed the message check: printable, short
    return f"{NAME}: the host refused: {line}" if e.kind == "refused" else f"{NAME}: {line}"


async def ask_room(
    host: str, port: int, kind: str = "new_room", options: Options | None = None,
    computer: int | None = None,
) -> str | None:
    """A new room's code (with its own options, and the computer in a seat if
    `computer` is a level), or a quick match's; or None with one line said."""
    try:
        async with asyncio.timeout(JOIN_S):
            return await Client.new_room(host, port, kind=kind, options=options, computer=computer)
    except JoinRefused as e:
        print(_refused(e), file=sys.stderr)
    except (OSError, TimeoutError) as e:
        print(unreachable(host, port, e), file=sys.stderr)
    return None


async def no_host(host: str, port: int) -> str | None:
    """Why nothing answers at HOST:PORT (one line), or None: a connection is
    opened and closed, so a wrong address is said before the lobby opens
    (not after the player has chosen there)."""
    try:
        async with asyncio.timeout(JOIN_S):
            _reader, writer = await asyncio.open_connection(host, port)
    except (OSError, TimeoutError) as e:
        return unreachable(host, port, e)
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return None


async def watchable(host: str, port: int) -> list[Watchable] | str:
    """The lobby's list of games to watch on the host, or why not (one line)."""
    from spit_tui.app.lobby import Watchable

    try:
        async with asyncio.timeout(JOIN_S):
            rooms = await Client.rooms(host, port)
    except JoinRefused as e:
        return _refused(e).removeprefix(f"{NAME}: ")
    except (OSError, TimeoutError) as e:
        return unreachable(host, port, e).removeprefix(f"{NAME}: ")
    return [Watchable(r["code"], watch_line(r)) for r in rooms]


def watch_line(room: Message) -> str:
    """A listed room as the lobby shows it: "ana 1 : 0 ben · points to 50 · 2 watching"."""
    left, right = (shown(n) for n in room["names"])
    match = room["match"]
    between = f" {match[0]} : {match[1]} " if match else " v "
    game = f"points to {room['target']}" if room["variant"] == "points" else "standard"
    watchers = f" · {room['watchers']} watching" if room["watchers"] else ""
    return f"{left}{between}{right} · {game}{watchers}"


async def _new_room(host: str, port: int) -> int:
    code = await ask_room(host, port)
    if code is None:
        return 1
    print(f"room code {code}", flush=True)
    print(f"join with: {PROG} join {host}:{port} {code}", flush=True)
    return 0


async def connect(
    host: str, port: int, code: str, seat: str | None, tokens: Tokens, name: str | None = None
) -> Client | str:
    """Take the seat: back, with a token kept for this room (the seat asked
    for, or any), else a fresh one; the client, or the line to end with."""
    key = Tokens.key(host, port, code)
    kept = tokens.get(key)
    door = os.environ.get(PASS_ENV) or None
    tries = [(s, t) for s, t in kept.items() if seat is None or s == seat]
    try:
        async with asyncio.timeout(JOIN_S * 2):
            for kept_seat, token in tries:
                try:
                    return await Client.join(host, port, code, token=token, door=door)
                except JoinRefused as e:
                    if "not for this room" in str(e):
                        tokens.put(key, kept_seat, None)  # from a game that is gone
                    elif "connected already" not in str(e):
                        raise
            return await Client.join(host, port, code, seat, name=name, door=door)
    except JoinRefused as e:
        return _refused(e)
    except (OSError, TimeoutError) as e:
        return unreachable(host, port, e)


async def _join(args: argparse.Namespace, board: Board) -> int:
    """A seat (a code or --quick given), else the lobby: after each game left
    with Ctrl+Q (or watched), or ended by the host (the lobby then says why),
    the lobby again, until it is left too; but when the host itself is
    stopping (its close says so), its line ends the command, status 0 (not
    the player's error; a host lost or silent is status 1)."""
    if args.code is not None or args.quick:
        args.name = your_name(args.name).name  # the lobby's, kept: a code needs no lobby
        return await _take_seat(args, board)
    refused = board.check_terminal()
    if refused is not None:
        return refused
    from spit_tui.app.lobby import ENTRIES, Ended, choose_in_lobby
    from spit_tui.app.lobbypages import history_entries

    from .watchcmd import watch_room

    host, port = args.host, args.port
    problem = await no_host(host, port)
    if problem is not None:  # before the lobby: a host that is not there is one line
        print(problem, file=sys.stderr)
        return 1
    you = your_name(args.name)
    first = True
    notice: str | None = None  # why the last room ended, when the host stopped it
    while True:
        today = datetime.now(UTC).date()  # the daily deal's day: read here, at the door
        entries = (*ENTRIES, *history_entries(lobby_history(args), args.name, today))
        choice = await choose_in_lobby(
            lobby_title(host, port), check_code, partial(watchable, host, port), entries,
            door_room_options(), you, notice=notice,
        )
        args.name = you.name
        notice = None
        stopped: list[str] = []  # the host's line, if it stopped the room
        gone: list[bool] = []  # the host itself stopped: no lobby to go back to
        if choice is None:
            return 0
        if isinstance(choice, Ended):  # its terminal hung up (SIGHUP), ...: as the app's
            return choice.status
        if choice.kind == "watch":
            status = await watch_room(
                host, port, str(choice.code), board, stopped.append, partial(gone.append, True)
            )
        else:
            args.quick, args.code = choice.kind == "quick", choice.code
            if choice.kind in ("new", "computer"):
                level = None if choice.level is None else int(choice.level)
                args.code = await ask_room(host, port, options=choice.options, computer=level)
                if args.code is None:
                    return 1
            elif choice.kind == "today":  # the host's room of its day's daily deal
                args.code = await ask_room(host, port, "daily")
                if args.code is None:
                    return 1
            status = await _take_seat(
                args, board, made=choice.kind == "new", first=first,
                alone=choice.kind == "computer", back=stopped.append,
                gone=partial(gone.append, True),
            )
        if status != 0 or gone:  # it ended with a line (said already): so does this
            return status
        first = False
        if stopped:  # the other left, did not come back, ...: the lobby says why
            notice = stopped[0]


async def _take_seat(
    args: argparse.Namespace, board: Board, made: bool = False, first: bool = True,
    alone: bool = False, back: Callable[[str], None] | None = None,
    gone: Callable[[], None] = lambda: None,
) -> int:
    """Take the seat and play until the app quits; `made`: a room made here
    (the board offers the line that brings the other); `first`: the first
    board of this run (the only one that may ask the keyboard's layout);
    `alone`: a room against the computer (nobody to send a line to); `back`:
    the lobby's, where a room the host stopped goes (its line handed there,
    not printed, and the status 0: the lobby again); None (`join HOST CODE`),
    or the host itself stopping (`gone` tells the lobby, which ends too):
    that line is the command's last, status 0."""
    from spit_tui.app import SpitApp
    from spit_tui.app.join import seat_app
    from spit_tui.clock import RealClock
    from spit_tui.net.remote import RemoteSeat

    host, port = args.host, args.port
    if args.quick:
        args.code = await ask_room(host, port, "quick")
        if args.code is None:
            return 1
    tokens = Tokens()
    client = await connect(host, port, args.code, args.seat, tokens, args.name)
    if isinstance(client, str):
        print(client, file=sys.stderr)
        return 1
    refused = board.check_terminal()  # (after the seat is taken: a wrong code says so first)
    if refused is not None:  # the seat waits for this command to be run again
        await client.close()
        return refused
    history = getattr(args, "history", None)
    keep = None if history is None else history.keep_joined
    net = NetSeat(client, host, port, args.code, tokens, keep=keep)
    table = RemoteSeat(client.seat, net.press, RealClock(), client.stale_s)
    invite = None if alone else invite_line(
        args.code, f"{PROG} join {host}:{port} {{code}}" if made else None
    )
    table.invite = invite

    def ended(app: SpitApp, line: str) -> None:
        if back is not None and net.stopped is not None and not net.host_gone:
            back(net.stopped)
            app.exit()
        else:  # the host's own end (stopping, a room it stopped) is not the player's error
            if net.host_gone:
                gone()
            app.finish(f"{NAME}: {line}", net.end_status)

    async def run(app: SpitApp) -> None:
        await net.run(table, partial(ended, app))

    app = seat_app(table, run, net.rematch, takeover=net.takeover)
    app.first_run = first and board.asks_keyboard()
    code = 1
    try:
        code = await board.run(app)
        return code
    finally:
        # quit with the player's own key (0): a leave, the other is told at once;
        # a hang-up or a lost host: a drop, the seat theirs for the host's wait
        await net.close(leave=code == 0)
        for line in net.notes:  # after the board: the terminal is the player's again
            print(f"{NAME}: {line}", file=sys.stderr)


def your_name(given: str | None) -> YourName:
    """The lobby's name for this player: the one the door or --name gave (shown,
    not asked), else the one remembered in players.toml (asked for when there
    is none, and kept there; not asked with $SPIT_ASK_NAME=no)."""
    from spit_tui.app.lobby import YourName
    from spit_tui.names import load, remember_me

    if given is not None:
        return YourName(given)
    return YourName(load().me, remember_me, ask=os.environ.get(ASK_NAME_ENV) != "no")


def lobby_history(args: argparse.Namespace) -> Path:
    """The history the lobby's My stats and daily table read: the SSH
    server's (its door names it to each guest's game), else this player's own."""
    from spit_tui.store import db

    door = os.environ.get(DOOR_DB_ENV)
    return Path(door) if door else Path(args.db) if args.db else db.default_path()


def _open_history(args: argparse.Namespace) -> None:
    """This player's own history of the games played here (`args.history`):
    each finished game's record comes from the host at game over."""
    from spit_tui.store.session import open_history

    args.history = open_history(args.db, enabled=not args.no_history)
    args.history_notes = []  # said once the board is gone (never over it)
    if args.history is not None:
        args.history.on_problem = args.history_notes.append
        args.history.start()


@command(NAME)
def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.new_room:
        return asyncio.run(_new_room(args.host, args.port))
    board = Board.from_args(args, argv, NAME)
    refused = board.choose_keys() or board.choose_settings()
    if refused is not None:
        return refused
    _open_history(args)
    try:
        return asyncio.run(_join(args, board))
    except KeyboardInterrupt:
        print(f"{NAME}: stopped", file=sys.stderr)
        return 130
    finally:
        if args.history is not None:
            args.history.close()
        for line in args.history_notes[:1]:  # the first says why it went off
            print(f"{NAME}: history is off: {line}", file=sys.stderr)
