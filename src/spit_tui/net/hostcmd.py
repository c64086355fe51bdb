"""`spit-tui host [--port P] [--bind ADDR] [--seat left|right] [--wait S] ...`.

Starts a Host (net.host), makes its first room and prints the code to join
with. With `--seat`, the host's own terminal plays that seat: the same app a
`join` runs, seated in process (net.seat.LocalSeat: the public view, no
socket), with the join command to give the other player on its banner until
they come, and its player's name (`--name`, else the one `join`'s lobby
keeps) on both boards. A seat that drops has `--wait` seconds to come back before its
room is stopped with one line to everyone still there. The games are stored
in the host's history, like games at one keyboard (`--db`, `--no-history`).
The seat starts as every board does (spit_tui.startup): its keys (--layout,
--keys, SPIT_LAYOUT, keys.toml, the first-run check), the terminal checks
(before the host listens), the decision log and the crash guard.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import signal
import sys

from spit_tui.command import (
    PROG,
    Parser,
    UsageError,
    add_bind_argument,
    command,
    exposure_note,
    port_number,
    shown,
)
from spit_tui.engine import Options, Player
from spit_tui.names import as_name, name_problem
from spit_tui.startup import BOARD_OPTIONS, Board, add_board_options, board_options_problem

from .directory import TTL_S, parse_url, safe_url
from .host import DEFAULT_PORT, WAIT_S, Host
from .joincmd import parse_address, valid_host, your_name
from .room import Room

NAME = f"{PROG} host"


def add_wait_argument(p: Parser) -> None:
    """`--wait S`, for `host` and `ssh-serve` (one wording, one check: `_wait`)."""
    p.add_argument(
        "--wait",
        default=str(WAIT_S),
        metavar="S",
        help=(
            f"seconds a room waits for a seat that dropped ({WAIT_S:g}); then the player "
            "still there chooses: the computer finishes that seat, or the game stops"
        ),
    )


def wait_seconds(text: str) -> float:
    """--wait's value, checked (UsageError if not 1-86400 seconds)."""
    try:
        s = float(text)
    except ValueError:
        s = math.nan
    if not (math.isfinite(s) and 1 <= s <= 86_400):
        raise UsageError(f"--wait: seconds from 1 to 86400, not {text[:40]!r}")
    return s


def address(bind: str, port: int) -> str:
    """HOST:PORT as `join` reads it: an IPv6 address in brackets ([::1]:7878)."""
    return f"[{bind}]:{port}" if ":" in bind else f"{bind}:{port}"


def add_room_options(p: argparse.ArgumentParser) -> None:
    """The game every room of this host plays (each rematch too)."""
    from spit_tui.engine import Variant

    p.add_argument(
        "--variant", choices=[str(v) for v in Variant],
        help="the rooms' game: standard (first out of cards wins) or points (lowest score wins)",
    )  # fmt: skip
    p.add_argument("--target", metavar="N", help="points variant: play to N points (100)")
    p.add_argument(
        "--manual-flip", action="store_true", help="players turn up their own stockpile cards"
    )
    p.add_argument(
        "--match", metavar="N",
        help="each room plays matches: the first to win N games (rematches go on to the next)",
    )  # fmt: skip


def room_match(args: argparse.Namespace) -> int | None:
    """The rooms' match length (first to N games) from --match, or None (UsageError if bad)."""
    from spit_tui.matchscore import MAX_FIRST_TO

    text = args.match
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_FIRST_TO:
        raise UsageError(f"--match: a number from 1 to {MAX_FIRST_TO}, not {shown(text)}")
    return int(text)


def room_options(args: argparse.Namespace) -> Options:
    """The rooms' Options from add_room_options' arguments (UsageError if bad)."""
    from spit_tui.engine import Variant

    target = 100
    if args.target is not None:
        if not args.target.isdigit() or not 1 <= int(args.target) <= 10_000:
            raise UsageError(f"--target: a number from 1 to 10000, not {shown(args.target)}")
        target = int(args.target)
    return Options(Variant(args.variant or "standard"), target, args.manual_flip)


def build_parser() -> Parser:
    p = Parser(
        prog=NAME,
        description="Host games for players on other terminals: prints a room code to join with.",
    )
    p.add_argument("--port", default=str(DEFAULT_PORT), help=f"port to listen on ({DEFAULT_PORT})")
    add_bind_argument(p)
    p.add_argument("--seed", type=int, metavar="N", help="shuffle the rooms' games from N")
    p.add_argument(
        "--seat", choices=("left", "right"), help="play this seat of the first room here yourself"
    )
    p.add_argument(
        "--name", metavar="NAME",
        help="with --seat: your name on both boards (default: the one the lobby of "
        "'spit-tui join HOST' keeps in players.toml)",
    )
    add_wait_argument(p)
    p.add_argument(
        "--directory", metavar="URL",
        help="share rooms with other hosts through this Redis (redis://HOST:PORT/DB): "
        "needs the redis extra (pip install 'spit-tui[redis]')",
    )  # fmt: skip
    p.add_argument(
        "--advertise", metavar="HOST[:PORT]",
        help="with --directory: the address other hosts send players to (the --bind address)",
    )  # fmt: skip
    p.add_argument(
        "--directory-ttl", default=str(TTL_S), metavar="S",
        help=f"with --directory: seconds a dead host's rooms stay listed ({TTL_S:g})",
    )  # fmt: skip
    p.add_argument("--db", metavar="FILE", help="keep the history of games in FILE")
    p.add_argument("--no-history", action="store_true", help="keep no history of these games")
    add_room_options(p)
    add_board_options(p)  # for --seat
    return p


def directory_args(args: argparse.Namespace) -> None:
    """--directory, --advertise and --directory-ttl, checked (UsageError if bad):
    args.advertise becomes (host, port or None: the port listened on)."""
    import importlib.util

    if args.directory is None:
        if args.advertise is not None:
            raise UsageError("--advertise is for a host with --directory")
        return
    why = parse_url(args.directory)
    if why is not None:
        raise UsageError(f"--directory: {why}")
    if importlib.util.find_spec("redis") is None:
        raise UsageError("--directory needs the redis extra: pip install 'spit-tui[redis]'")
    ttl = args.directory_ttl
    try:
        args.directory_ttl = float(ttl)
    except ValueError:
        args.directory_ttl = math.nan
    if not (math.isfinite(args.directory_ttl) and 0.5 <= args.directory_ttl <= 3600):
        raise UsageError(f"--directory-ttl: seconds from 0.5 to 3600, not {shown(ttl)}")
    if args.advertise is None:
        if args.bind in ("0.0.0.0", "::", ""):
            raise UsageError(
                f"--bind {args.bind} with --directory needs --advertise HOST[:PORT]: "
                "the address other hosts send this host's players to"
            )
        args.advertise = (args.bind, None)
    else:
        given = args.advertise
        host, port = parse_address(given)
        args.advertise = (host, port if ":" in given.lstrip("[").split("]")[-1] else None)


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, int, float]:
    """(the options, the port, the wait); UsageError for a bad command line."""
    args = build_parser().parse_args(argv)
    port, wait_s = port_number(args.port), wait_seconds(args.wait)
    args.options = room_options(args)
    args.first_to = room_match(args)
    if not valid_host(args.bind):
        raise UsageError(f"--bind: not an address or host name: {shown(args.bind)}")
    directory_args(args)
    if args.seat is None:
        seat_only = (*BOARD_OPTIONS, "name")
        given = [f"--{n.replace('_', '-')}" for n in seat_only if getattr(args, n) is not None]
        if given:
            raise UsageError(f"{given[0]} is for the seat played here: add --seat")
        if args.force or args.append:
            raise UsageError(f"--{'force' if args.force else 'append'} needs --decision-log")
        return args, port, wait_s
    if args.name is not None:
        args.name = as_name(args.name)
        problem = name_problem(args.name)
        if problem is not None:
            raise UsageError(f"--name: {problem}: {shown(args.name)}")
        args.name = args.name.strip()
    problem = board_options_problem(args)
    if problem is not None:
        raise UsageError(problem)
    return args, port, wait_s


async def _play_seat(
    host: Host, room: Room, seat: Player, invite: str, board: Board, name: str | None = None
) -> int:
    """Run the app for the host's own seat until it quits (the one start-up's
    run: its end line is printed there); the exit status. `name`: its
    player's, on both boards (None: the seat's own, LEFT or RIGHT). Quit with the
    player's own key (status 0), it is a leave: the room stops at once and
    the other player is told who left (Host.own_seat_left), not that a host
    went away; a signal or an error is the host stopping, as before."""
    from spit_tui.app import SpitApp
    from spit_tui.app.join import seat_app
    from spit_tui.clock import RealClock

    from .remote import RemoteSeat
    from .seat import LocalSeat

    local = LocalSeat(room, seat)
    table = RemoteSeat(seat, local.press, RealClock(), room.table.gate.stale_s)
    table.invite = invite

    async def start(app: SpitApp) -> None:
        local.attach(table, lambda line: app.finish(f"{NAME}: {line}"))
        if name is not None and local.table is not None:  # (the seat was taken)
            room.name_seat(seat, name)

    app = seat_app(table, start, local.rematch, takeover=local.takeover)
    app.first_run = board.asks_keyboard()
    code = 1
    try:
        code = await board.run(app)
        return code
    finally:
        local.closed = True  # the board is gone: nothing more is said to it
        if code == 0:
            host.own_seat_left(room, seat)
        local.leave()


async def _run(args: argparse.Namespace, port: int, wait_s: float, board: Board | None) -> int:
    from spit_tui.store.session import open_history

    bind: str = args.bind
    history = open_history(args.db, enabled=not args.no_history)
    if history is not None:
        # No first frame to wait for (SpitApp starts its writer after one): start
        # now, so each game is stored at its round ends while the host runs.
        history.on_problem = lambda line: print(
            f"{NAME}: history is off: {line}", file=sys.stderr, flush=True
        )
        history.start()
    host = Host(
        bind=bind, port=port, seed=args.seed, wait_s=wait_s, history=history,
        options=args.options, first_to=args.first_to,
    )  # fmt: skip
    host.on_room_stopped = lambda room, line: print(
        f"{NAME}: room {room.code}: {line}", file=sys.stderr, flush=True
    )
    host.on_notice = lambda line: print(f"{NAME}: {line}", file=sys.stderr, flush=True)
    try:
        await host.start()
    except (OSError, UnicodeError) as e:  # UnicodeError: a name the resolver cannot encode
        why = e.strerror if isinstance(e, OSError) and e.strerror else e
        print(f"{NAME}: cannot listen on {bind}:{port}: {why}", file=sys.stderr)
        if history is not None:
            history.close()
        return 1
    directory = None
    if args.directory is not None:
        from .redisdir import RedisDirectory

        adv_host, adv_port = args.advertise
        directory = RedisDirectory(
            args.directory, host.lobby, adv_host, adv_port or host.port,
            options=args.options, ttl_s=args.directory_ttl, notice=host.on_notice,
        )  # fmt: skip
        await directory.start()  # Redis down now: said in one line, and tried again
    room = host.new_room()
    where = address(bind, host.port)
    invite = f"{PROG} join {where} {room.code}"
    print(f"hosting on {where}; room code {room.code}", flush=True)
    print(f"join with: {invite}", flush=True)
    if directory is not None:
        shared = address(directory.host, directory.port)
        print(f"rooms shared through {safe_url(args.directory)}; "
              f"other hosts send players to {shared}", flush=True)
    note = exposure_note(bind, "the host")
    if note is not None:
        print(f"{note}; the wire is not encrypted: over the internet, use ssh-serve", flush=True)
    assert host.server is not None
    # with --seat the app takes every ending signal itself (app/signals.py), and
    # only while no one else has: so these are for a host without a board
    stopped_by = stop_on_signals() if board is None else []
    try:
        if board is not None:
            seat = Player(("left", "right").index(args.seat))
            name = your_name(args.name).name  # as `join HOST CODE`: given, else the kept one
            return await _play_seat(host, room, seat, invite, board, name)
        await host.server.serve_forever()
    except asyncio.CancelledError:  # Ctrl+C (asyncio.run cancels this task), SIGTERM, SIGHUP
        print(f"{NAME}: stopped", file=sys.stderr)
        return 128 + (stopped_by[0] if stopped_by else signal.SIGINT)
    finally:
        if directory is not None:
            await directory.close()  # this host's rooms leave the directory at once
        await host.close()  # stores the games in play, then the writer's queue
    return 0


def stop_on_signals() -> list[int]:
    """SIGTERM and SIGHUP (the host's terminal closed) stop the host as Ctrl+C
    does: the games in play are stored, and the exit status is 128 + N. The
    list holds the signal that came."""
    came: list[int] = []
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()

    def stop(sig: int) -> None:
        if not came:
            came.append(sig)
            if task is not None:
                task.cancel()

    for sig in (signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, stop, sig)
    return came


@command(NAME)
def main(argv: list[str]) -> int:
    args, port, wait_s = parse_args(argv)
    board = None
    if args.seat is not None:
        board = Board.from_args(args, argv, NAME)
        refused = board.prepare()  # the keys and the terminal, before the host listens
        if refused is not None:
            return refused
    try:
        return asyncio.run(_run(args, port, wait_s, board))
    except KeyboardInterrupt:
        print(f"{NAME}: stopped", file=sys.stderr)
        return 130
