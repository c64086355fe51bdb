"""`spit-tui watch HOST[:PORT] CODE`: watch a game a host runs, its public board.

A watcher sees what both players see of each other (no face-down card, no
spit pile, no player's own message), drawn as the left player's side of the
table is; no key plays (each says so), Ctrl+Q quits. A room takes at most 50
watchers; one that cannot keep up skips to the latest board. Everything that
can go wrong before the board is up is one line and a non-zero exit. The
room's end (as the host's close says: protocol 5's `ends`) is the normal end
of watching: one line and status 0, or, watched from the lobby, the lobby
again with that line; the host stopping is status 0 too (it is not the
watcher's error), a host lost is status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable

from spit_tui.command import PROG, Parser, command
from spit_tui.engine import Player
from spit_tui.startup import Board

from .client import JOIN_S, Client, JoinRefused
from .host import DEFAULT_PORT
from .joincmd import check_code, parse_address, unreachable
from .remote import RemoteSeat
from .seat import host_words

NAME = f"{PROG} watch"
NO_KEYS = "watching: no keys play (Ctrl+Q quits)"  # fits the message line
End = tuple[str, int] | None  # the line to end with and the exit status, or None: the lobby


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = Parser(prog=NAME, description="Watch a game that 'spit-tui host' runs.")
    p.add_argument("address", metavar="HOST[:PORT]", help=f"the host (port {DEFAULT_PORT})")
    p.add_argument("code", metavar="CODE", help="the room's code")
    args = p.parse_args(argv)
    args.host, args.port = parse_address(args.address)
    args.code = check_code(args.code)
    return args


async def feed(client: Client, seat: RemoteSeat) -> None:
    """Show each board the host sends until the end."""
    shown = None
    while client.ended is None:
        latest = client.latest
        if latest is not None and latest is not shown:
            shown = latest
            seat.show(latest)
        await client.changed()


def ending(
    client: Client, host: str, port: int, back: Callable[[str], None] | None,
    gone: Callable[[], None] = lambda: None,
) -> End:
    """How watching ends once the client has: (the line, the exit status), or
    None when `back` (the lobby's) takes the host's line instead. A room
    that ended (its game over and its players gone, or stopped) is the
    normal end of watching: one line, status 0; from the lobby, the lobby
    again with that line. The host stopping: its line, status 0 (not the
    watcher's error; `gone` tells the lobby, which then ends too); lost: its
    line, status 1."""
    line = str(client.ended)
    if not client.ended_by_host:
        return f"{NAME}: lost the host: {line}", 1
    if client.host_gone(host, port):
        gone()
        return f"{NAME}: {host_words(line)}", 0
    if back is not None:
        back(line)
        return None
    if client.ends == "room":
        return f"{NAME}: {line}", 0
    return f"{NAME}: {host_words(line)}", 0


async def watch_room(
    host: str, port: int, code: str, board: Board, back: Callable[[str], None] | None = None,
    gone: Callable[[], None] = lambda: None,
) -> int:
    """Watch room `code` on the host until the watcher quits, or the room or
    the host ends; the exit status. `back`, `gone`: the lobby's (see `ending`)."""
    from spit_tui.app import SpitApp
    from spit_tui.app.join import seat_app
    from spit_tui.clock import RealClock

    try:
        async with asyncio.timeout(JOIN_S):
            client = await Client.watch(host, port, code)
    except JoinRefused as e:
        print(f"{NAME}: the host refused: {e}", file=sys.stderr)
        return 1
    except (OSError, TimeoutError) as e:
        print(unreachable(host, port, e, NAME), file=sys.stderr)
        return 1
    refused = board.check_terminal()
    if refused is not None:
        await client.close(leave=True)
        return refused

    def no_keys(row: object, slot: int) -> None:
        seat.messages.say(Player.LEFT, NO_KEYS)

    seat = RemoteSeat(Player.LEFT, no_keys, RealClock(), client.stale_s, watching=True)

    async def run(app: SpitApp) -> None:
        await feed(client, seat)
        end = ending(client, host, port, back, gone)
        if end is None:
            app.exit()
        else:
            app.finish(*end)

    app = seat_app(seat, run, watching=True)
    try:
        return await board.run(app)
    finally:
        await client.close(leave=True)


@command(NAME)
def main(argv: list[str]) -> int:
    args = parse_args(argv)
    board = Board.from_args(args, argv, NAME)
    refused = board.choose_keys() or board.choose_settings()
    if refused is not None:
        return refused
    try:
        return asyncio.run(watch_room(args.host, args.port, args.code, board))
    except KeyboardInterrupt:
        print(f"{NAME}: stopped", file=sys.stderr)
        return 130
