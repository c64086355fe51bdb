"""`spit-tui host [--port P] [--bind ADDR] [--seat left|right] [--wait S] ...`.

Starts a Host (net.host), makes its first room and prints the code to join
with. With `--seat`, the host's own terminal plays that seat: the same app a
`join` runs, seated in process (net.seat.LocalSeat: the public view, no
socket), with the join command to give the other player on its banner until
they come. A seat that drops has `--wait` seconds to come back before its
room is stopped with one line to everyone still there. The games are stored
in the host's history, like games at one keyboard (`--db`, `--no-history`).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import signal
import sys

from spit_tui.command import PROG, Parser, UsageError, fail, port_number, shown
from spit_tui.engine import Player

from .host import DEFAULT_PORT, WAIT_S, Host
from .joincmd import valid_host
from .room import Room

NAME = f"{PROG} host"


def _wait(text: str) -> float:
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


def build_parser() -> Parser:
    p = Parser(
        prog=NAME,
        description="Host games for players on other terminals: prints a room code to join with.",
    )
    p.add_argument("--port", default=str(DEFAULT_PORT), help=f"port to listen on ({DEFAULT_PORT})")
    p.add_argument(
        "--bind",
        default="127.0.0.1",
        metavar="ADDR",
        help="address to listen on (127.0.0.1: this machine only; 0.0.0.0: every network)",
    )
    p.add_argument("--seed", type=int, metavar="N", help="shuffle the rooms' games from N")
    p.add_argument(
        "--seat", choices=("left", "right"), help="play this seat of the first room here yourself"
    )
    p.add_argument(
        "--wait",
        default=str(WAIT_S),
        metavar="S",
        help=f"seconds a room waits for a seat that dropped, then stops ({WAIT_S:g})",
    )
    p.add_argument("--db", metavar="FILE", help="keep the history of games in FILE")
    p.add_argument("--no-history", action="store_true", help="keep no history of these games")
    return p


async def _play_seat(host: Host, room: Room, seat: Player, invite: str) -> tuple[int, str | None]:
    """Run the app for the host's own seat until it quits; (exit status, last line)."""
    from spit_tui.app.join import JoinApp
    from spit_tui.clock import RealClock

    from .remote import RemoteTable
    from .seat import LocalSeat

    local = LocalSeat(room, seat)
    table = RemoteTable(seat, local.press, RealClock(), room.table.stale_s)
    table.invite = invite

    async def start(app: JoinApp) -> None:
        local.attach(table, lambda line: app.finish(f"{NAME}: {line}"))

    app = JoinApp(table, start)
    try:
        await app.run_async()
    finally:
        local.leave()
    return app.return_code or 0, app.end_line


async def _run(args: argparse.Namespace, port: int, wait_s: float) -> int:
    from spit_tui.store.session import open_history

    bind: str = args.bind
    seat: str | None = args.seat
    if seat is not None:
        from spit_tui.terminal import environment_problem, terminal_problem

        problem = environment_problem() or terminal_problem()
        if problem is not None:
            print(f"{PROG}: {problem}", file=sys.stderr)
            return 1
    history = open_history(args.db, enabled=not args.no_history)
    if history is not None:
        # No first frame to wait for (SpitApp starts its writer after one): start
        # now, so each game is stored at its round ends while the host runs.
        history.on_problem = lambda line: print(
            f"{NAME}: history is off: {line}", file=sys.stderr, flush=True
        )
        history.start()
    host = Host(bind=bind, port=port, seed=args.seed, wait_s=wait_s, history=history)
    host.on_room_stopped = lambda room, line: print(
        f"{NAME}: room {room.code}: {line}", file=sys.stderr, flush=True
    )
    try:
        await host.start()
    except (OSError, UnicodeError) as e:  # UnicodeError: a name the resolver cannot encode
        why = e.strerror if isinstance(e, OSError) and e.strerror else e
        print(f"{NAME}: cannot listen on {bind}:{port}: {why}", file=sys.stderr)
        if history is not None:
            history.close()
        return 1
    room = host.new_room()
    where = address(bind, host.port)
    invite = f"{PROG} join {where} {room.code}"
    print(f"hosting on {where}; room code {room.code}", flush=True)
    print(f"join with: {invite}", flush=True)
    assert host.server is not None
    # with --seat the app takes every ending signal itself (app/signals.py), and
    # only while no one else has: so these are for a host without a board
    stopped_by = _stop_on_signals() if seat is None else []
    try:
        if seat is not None:
            code, line = await _play_seat(host, room, Player(("left", "right").index(seat)), invite)
            if line is not None:
                print(line, file=sys.stderr)
            return code
        await host.server.serve_forever()
    except asyncio.CancelledError:  # Ctrl+C (asyncio.run cancels this task), SIGTERM, SIGHUP
        print(f"{NAME}: stopped", file=sys.stderr)
        return 128 + (stopped_by[0] if stopped_by else signal.SIGINT)
    finally:
        await host.close()  # stores the games in play, then the writer's queue
    return 0


def _stop_on_signals() -> list[int]:
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


def main(argv: list[str]) -> int:
    try:
        args = build_parser().parse_args(argv)
        port, wait_s = port_number(args.port), _wait(args.wait)
        if not valid_host(args.bind):
            raise UsageError(f"--bind: not an address or host name: {shown(args.bind)}")
    except UsageError as e:
        return fail(str(e), NAME)
    except SystemExit as e:  # --help
        return int(e.code or 0)
    try:
        return asyncio.run(_run(args, port, wait_s))
    except KeyboardInterrupt:
        print(f"{NAME}: stopped", file=sys.stderr)
        return 130
