"""`spit-tui ssh-serve [--port 2222] [--bind ADDR] [--host HOST:PORT] ...`.

Starts the SSH door (ssh.server): prints the host key's fingerprint (guests
compare it with what `ssh` shows them the first time) and the line a guest
types. Without `--host`, it runs its own game host on 127.0.0.1 (guests'
games are the rooms of that host); with it, guests join the rooms of that
host. Everything wrong at the start is one line and exit 1 (2 for usage).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path

from spit_tui.command import (
    LOCAL_BINDS,
    PROG,
    Parser,
    UsageError,
    add_bind_argument,
    command,
    exposure_note,
    port_number,
    shown,
)

NAME = f"{PROG} ssh-serve"
DEFAULT_PORT = 2222


def _positive(text: str, option: str, limit: float) -> float:
    try:
        n = float(text)
    except ValueError:
        n = -1.0
    if not 0 < n <= limit:
        raise UsageError(f"{option}: a number from 1 to {limit:g}, not {text[:40]!r}")
    return n


def build_parser() -> Parser:
    from .admission import PER_ADDRESS, TOTAL
    from .server import IDLE_S

    p = Parser(
        prog=NAME,
        description=(
            "Let friends play with nothing installed but ssh: each guest types "
            "'ssh -p PORT NAME@THIS-SERVER' (NAME: their player name) and gets the game."
        ),
    )
    p.add_argument("--port", default=str(DEFAULT_PORT), help=f"port to listen on ({DEFAULT_PORT})")
    add_bind_argument(p)
    p.add_argument(
        "--host",
        metavar="HOST:PORT",
        help="the game host whose rooms guests join (default: one of our own, on 127.0.0.1)",
    )
    from spit_tui.net.hostcmd import add_room_options, add_wait_argument

    add_room_options(p)
    add_wait_argument(p)
    p.add_argument("--db", metavar="FILE",
                   help="keep the history of our own host's games in FILE (ratings per key)")
    p.add_argument("--no-history", action="store_true", help="keep no history of these games")
    p.add_argument(
        "--authorized-keys",
        metavar="FILE",
        help="let in only the public keys listed in FILE (OpenSSH's authorized_keys format)",
    )
    p.add_argument(
        "--public-address",
        metavar="HOST[:PORT]",
        help="how guests reach this server, for the line a new room shows (default: as reached)",
    )
    p.add_argument("--per-address", default=str(PER_ADDRESS), metavar="N",
                   help=f"sessions at once from one address ({PER_ADDRESS})")
    p.add_argument("--max-sessions", default=str(TOTAL), metavar="N",
                   help=f"sessions at once in all ({TOTAL})")
    p.add_argument("--idle", default=str(IDLE_S), metavar="S",
                   help=f"seconds a guest may type nothing before being let go ({IDLE_S:g})")
    p.add_argument("--host-key", metavar="FILE",
                   help="the server's host key (default: made on first start, in the data folder)")
    return p


async def _run(args: argparse.Namespace, port: int, limits: tuple[int, int, float]) -> int:
    from spit_tui.net.host import Host
    from spit_tui.net.hostcmd import stop_on_signals
    from spit_tui.net.joincmd import parse_address
    from spit_tui.net.limits import Limits

    from .admission import Admission, KeysError, read_authorized
    from .hostkey import HostKeyError, fingerprint, load_or_make
    from .server import Door, listen

    try:
        allowed = read_authorized(Path(args.authorized_keys)) if args.authorized_keys else None
        key, made = load_or_make(Path(args.host_key) if args.host_key else None)
        game_host = parse_address(args.host) if args.host else None
    except (KeysError, HostKeyError, UsageError) as e:
        print(f"{NAME}: {e}", file=sys.stderr)
        return 1 if not isinstance(e, UsageError) else 2
    own: Host | None = None
    if game_host is None:
        from spit_tui.store.session import open_history

        history = open_history(args.db, enabled=not args.no_history)
        if history is not None:  # started now: no app frame to wait for (as `host`)
            history.on_problem = lambda line: print(
                f"{NAME}: history is off: {line}", file=sys.stderr, flush=True
            )
            history.start()
        # every guest's game connects from 127.0.0.1: the door counts guests
        # per address (Admission), so the host must not count them as one
        own = Host(bind="127.0.0.1", port=0, limits=Limits.relayed(), options=args.options,
                   first_to=args.first_to, history=history, wait_s=args.wait_s)
        try:
            await own.start()
        except OSError as e:
            print(f"{NAME}: cannot start the game host: {e.strerror or e}", file=sys.stderr)
            if history is not None:
                history.close()
            return 1
        game_host = ("127.0.0.1", own.port)
    per_address, total, idle_s = limits
    admission = Admission(per_address=per_address, total=total, allowed=allowed)
    door = Door(game_host, admission, idle_s=idle_s, public=args.public_address)
    if own is not None:  # our own host believes our guests' keys
        door.vouch, door.revoke = own.lobby.vouch, own.lobby.revoke
        if own.history is not None:
            door.history = own.history.path.absolute()
        door.options = own.options
    door.on_session = lambda s: print(f"{s.label}: came in", flush=True)
    door.on_end = lambda s: print(f"{s.label}: left" + (f" ({s.why})" if s.why else ""), flush=True)
    try:
        acceptor = await listen(door, key, args.bind, port)
    except OSError as e:
        print(f"{NAME}: cannot listen on {args.bind}:{port}: {e.strerror or e}", file=sys.stderr)
        if own is not None:
            await own.close()
        return 1
    print(f"host key {fingerprint(key)}{' (made now)' if made else ''}", flush=True)
    games = f"{game_host[0]}:{game_host[1]}"
    print(f"ssh door on {args.bind}:{door.port}; games on {games}", flush=True)
    where = args.public_address or ("localhost" if args.bind in LOCAL_BINDS else args.bind)
    print(f"guests type: ssh -p {door.port} NAME@{where}", flush=True)
    note = exposure_note(args.bind, "the ssh door")
    if note is not None:
        print(note, flush=True)
    stopped_by = stop_on_signals()
    try:
        await acceptor.wait_closed()
    except asyncio.CancelledError:  # Ctrl+C (asyncio.run cancels this task), SIGTERM, SIGHUP
        print(f"{NAME}: stopped", file=sys.stderr)
        return 128 + (stopped_by[0] if stopped_by else signal.SIGINT)
    finally:
        await door.stop()
        acceptor.close()
        if own is not None:
            await own.close()
    return 0


@command(NAME)
def main(argv: list[str]) -> int:
    from spit_tui.net.host import WAIT_S
    from spit_tui.net.hostcmd import room_match, room_options, wait_seconds
    from spit_tui.net.joincmd import valid_host

    args = build_parser().parse_args(argv)
    args.wait_s = wait_seconds(args.wait)
    if args.host and args.wait != str(WAIT_S):
        raise UsageError("--wait is for our own host: with --host, give it to that spit-tui host")
    args.options = room_options(args)
    args.first_to = room_match(args)
    own = (args.variant, args.target, args.manual_flip, args.match, args.db, args.no_history)
    if args.host and any(own):
        raise UsageError("--variant, --target, --manual-flip, --match, --db and --no-history "
                         "are for our own host: with --host, give them to that spit-tui host")
    port = port_number(args.port)
    if not valid_host(args.bind):
        raise UsageError(f"--bind: not an address or host name: {shown(args.bind)}")
    per_address = int(_positive(args.per_address, "--per-address", 1000))
    total = int(_positive(args.max_sessions, "--max-sessions", 10_000))
    idle_s = _positive(args.idle, "--idle", 86_400)
    try:
        import asyncssh  # noqa: F401
    except ImportError:
        raise UsageError("needs the ssh extra: pip install 'spit-tui[ssh]'") from None
    try:
        return asyncio.run(_run(args, port, (per_address, total, idle_s)))
    except KeyboardInterrupt:
        print(f"{NAME}: stopped", file=sys.stderr)
        return 130
