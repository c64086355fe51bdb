"""The SSH server (asyncssh) of `spit-tui ssh-serve`: who comes in, and one
game process per guest (guestpty.GuestPty) joined to a host's room.

A guest's way in: public-key authentication only (any key, or the keys of
`--authorized-keys`), and a guest turned away is shown why; the SSH user
name is the player's name. A session
needs a terminal (`ssh -t` when a command is given). Its first screen is
the lobby of `spit-tui join HOST` (quick match, new room, join or watch by
code), whose new room shows the ssh line to send a friend until they come;
a command goes straight in: a room code, `w CODE` (watch), `new`, `quick`.

How a session ends, and what the guest's terminal gets:
- the game ends (its own quit, its end line): what it wrote, then RESTORE
  (harmless after a clean exit; it repairs the terminal after a crash), and
  a line end if the game's last line had none, so OpenSSH's "Connection to
  ... closed." comes under the game's last line, never over it;
- idle (no byte from the guest for `idle_s`), the server stopping: the game
  is hung up (it restores the terminal as for a closed window), then RESTORE
  and one line;
- a guest that does not read its output for `stall_s`: dropped at once,
  nothing more is sent (nothing would arrive).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
from asyncssh.constants import MSG_IGNORE

from spit_tui.command import PROG, UsageError
from spit_tui.engine import Options
from spit_tui.names import as_name
from spit_tui.net.client import JOIN_S, Client, JoinRefused
from spit_tui.net.joincmd import (
    DOOR_DB_ENV,
    PASS_ENV,
    ROOM_OPTIONS_ENV,
    check_code,
    room_options_env,
)
from spit_tui.paths import state_dir

from .admission import Admission, guest_name_problem
from .guestpty import GRACE_S, GuestPty, clamp_size

IDLE_S = 600.0  # a guest that sends nothing for this long is let go
STALL_S = 30.0  # a guest whose channel stays full this long is dropped
HIGH_WATER = 64 * 1024  # bytes waiting for the guest before its game's output waits
LOGIN_S = 20.0  # time to authenticate
KEEPALIVE_S = 15.0  # a connection that answers none of 4 of these is gone
PENDING_PER_ADDRESS = 10  # connections from one address beyond its sessions' limit
# what the guest's terminal needs after any game, even one that crashed: the
# normal screen, the cursor shown, the kitty keyboard flags popped, mouse and
# bracketed paste off, plain colours
MODES_OFF = b"\x1b[<u\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l"
ALT_ON, ALT_OFF = b"\x1b[?1049h", b"\x1b[?1049l"
SHOWN = b"\x1b[?25h\x1b[0m"
RESTORE = MODES_OFF + ALT_OFF + SHOWN
_CONTROLS = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-_]|[\x00-\x1f\x7f]")


class GuestScreen:
    """What the guest's terminal shows, as far as a session's end needs it:
    whether the game is on the alternate screen, and whether the normal
    screen's cursor is on a line with text. Leaving the alternate screen puts
    the cursor back where it was when the game entered it, even when sent on
    the normal screen: sent again after the game had left it and written its
    last line, it took the cursor up, and OpenSSH wrote "Connection to ...
    closed." over that line."""

    def __init__(self) -> None:
        self.alt = False
        self.mid_line = False
        self._tail = b""  # a switch split between two reads

    def feed(self, data: bytes) -> None:
        buf = self._tail + data
        on, off = buf.rfind(ALT_ON), buf.rfind(ALT_OFF)
        if max(on, off) >= 0:
            self.alt = on > off
            self.mid_line = False  # (the cursor goes back to a line's start)
            data = buf[max(on, off) + len(ALT_ON) :]
        self._tail = buf[-(len(ALT_ON) - 1) :]
        if self.alt:
            return
        line = data.rpartition(b"\n")
        if line[1]:
            self.mid_line = False
        if _CONTROLS.sub(b"", line[2]):
            self.mid_line = True

    def ending(self) -> bytes:
        """What the guest's terminal gets after the game: modes off, the normal
        screen (only if the game is still on the other), the cursor, and a
        line end if its last line has text on it."""
        return (
            MODES_OFF + (ALT_OFF if self.alt else b"") + SHOWN + (b"\r\n" if self.mid_line else b"")
        )
# what a guest may set (ssh -o SetEnv=...): their keyboard, their terminal's
# colours, and the look (a colour-blind guest's palette, four-colour suits,
# markers, card size); each is checked by the game as on the command line
GUEST_ENV = (
    "SPIT_LAYOUT", "COLORTERM", "SPIT_PALETTE", "SPIT_SUITS", "SPIT_CARDS", "SPIT_MARKS",
)
TERM_DEFAULT = "xterm-256color"
EMPTY_STRING = b"\0\0\0\0"  # an SSH string of no bytes: MSG_IGNORE's filler


def _plain(text: str | None, limit: int = 64) -> str | None:
    ok = text is not None and 0 < len(text) <= limit and text.isascii() and text.isprintable()
    return text if ok else None


@dataclass
class Door:
    """The server's settings and what it holds: the game host guests join,
    the limits, and the open sessions."""

    game_host: tuple[str, int]
    admission: Admission = field(default_factory=Admission)
    idle_s: float = IDLE_S
    stall_s: float = STALL_S
    public: str | None = None  # HOST[:PORT] guests reach this server by, for invites
    guest_home: Path = field(default_factory=lambda: state_dir() / "ssh-guests")
    sessions: set[GuestSession] = field(default_factory=set)
    pending: dict[str, int] = field(default_factory=dict)
    slots: dict[str, set[int]] = field(default_factory=dict)  # live sessions' slots, by key
    games: set[GuestPty] = field(default_factory=set)  # running, with a session or not yet ended
    port: int = 0
    on_session: Callable[[GuestSession], None] = lambda s: None  # a session began
    on_end: Callable[[GuestSession], None] = lambda s: None  # and ended (its `why`)
    # our own game host's passes (net.room.Lobby.vouch): a guest's games are
    # stored and rated under their key; None for another's host (--host)
    vouch: Callable[[str], str] | None = None
    revoke: Callable[[str], None] = lambda given: None
    history: Path | None = None  # our own host's history: each guest's lobby reads it
    options: Options | None = None  # our own host's rooms' game: the lobby's New room starts there

    def title(self, reached: str, name: str) -> str:
        """The lobby's heading for a guest: this server as they reach it, and
        who they are here (the game host behind it is ours, not theirs to see)."""
        where = self.public or reached
        if not re.search(r":\d+$", where):  # (an IPv6 address comes in brackets)
            where = f"{where}:{self.port}"
        return f"spit-tui at {where}, as {name}"

    def invite(self, reached: str, code: str) -> str:
        """The lines a guest sends a friend to sit at room `code` (one a line):
        the ssh line, and the join line where the game host is not this
        machine's own (`--host`: a friend with spit-tui may join it directly)."""
        where = self.public or reached
        host, _, port = where.rpartition(":") if where.count(":") == 1 else (where, "", "")
        port = port or str(self.port)
        opt = "" if port == "22" else f"-p {port} "
        lines = [f"ssh {opt}-t NAME@{host} {code}"]
        game_host, game_port = self.game_host
        if game_host not in ("127.0.0.1", "::1", "localhost"):
            where = f"[{game_host}]" if ":" in game_host else game_host
            lines.append(f"spit-tui join {where}:{game_port} {code}")
        return "\n".join(lines)

    async def stop(self) -> None:
        """End every session as the server stops, each guest told why."""
        for s in list(self.sessions):
            s.end(0, "the server is stopping")  # (not the guest's error: status 0)
        for game in list(self.games):
            game.hang_up()  # a guest gone already: its game may still be ending
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(GRACE_S + 2.0):
                while self.sessions or self.games:
                    await asyncio.sleep(0.05)


def no_entry_hint(listed: bool, refused: bool) -> str:
    """What a guest turned away at the door is shown (their ssh prints it
    before its "Permission denied"): keys only, and what to do."""
    if refused:
        return (
            f"{PROG}: this server lets in only the SSH keys on its list, and yours\n"
            "is not on it. Send your public key (the .pub file beside your key,\n"
            "like ~/.ssh/id_ed25519.pub) to whoever runs it, then connect again."
        )
    then = (
        "then send the .pub file it writes to whoever runs this server."
        if listed else "then connect again with the same command."
    )  # fmt: skip
    return (
        f"{PROG}: players come in with an SSH key (never a password), and your\n"
        f"ssh offered none. Make one with:  ssh-keygen -t ed25519\n{then}"
    )


class GuestServer(asyncssh.SSHServer):
    """One SSH connection: its authentication, and at most one session."""

    def __init__(self, door: Door) -> None:
        self.door = door
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.key: asyncssh.SSHKey | None = None
        self.session: GuestSession | None = None
        self.refused_key = False  # a key was offered and is not let in (--authorized-keys)
        self.hinted = False  # the guest was shown why its keys were not enough

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        _no_ignore_packets(conn)
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        n = self.door.pending.get(self.address, 0) + 1
        self.door.pending[self.address] = n
        # its sessions (--per-address) and a few more still logging in or being
        # told they are too many: a flood of connections goes no further
        if n > self.door.admission.per_address + PENDING_PER_ADDRESS:
            conn.close()

    def connection_lost(self, exc: Exception | None) -> None:
        n = self.door.pending.get(self.address, 1) - 1
        if n > 0:
            self.door.pending[self.address] = n
        else:
            self.door.pending.pop(self.address, None)

    def begin_auth(self, username: str) -> bool:
        return True  # always a key: it is the guest's identity

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if not self.door.admission.key_allowed(key, self.address):
            self.refused_key = True
            return False
        self.key = key
        return True

    def password_auth_supported(self) -> bool:
        return False

    # Keyboard-interactive is never a way in: once a connection's keys were
    # not enough, one round of it with no prompt shows why (the only text
    # SSH lets a server show a guest it turns away), then fails; after that
    # it is no longer offered, so a client does not show the hint again.
    def kbdint_auth_supported(self) -> bool:
        return not self.hinted

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> Any:
        self.hinted = True
        return ("", no_entry_hint(self.door.admission.allowed is not None, self.refused_key),
                "en-US", ())  # fmt: skip

    def validate_kbdint_response(self, username: str, responses: Any) -> bool:
        return False  # no prompt was asked: nothing a guest types lets them in

    def host_based_auth_supported(self) -> bool:
        return False

    def session_requested(self) -> GuestSession | bool:
        if self.session is not None:
            return False  # one game per connection
        self.session = GuestSession(self)
        return self.session


def _no_ignore_packets(conn: asyncssh.SSHServerConnection) -> None:
    """asyncssh sends an empty MSG_IGNORE before every packet once it encrypts:
    RFC 4251's defence of CBC modes, whose next IV an attacker could know. The
    door's ciphers are asyncssh's defaults, none of them CBC, where it defends
    nothing, and it cost every frame a guest gets a second packet: its
    encryption, its own send on the socket and the client's decryption (about
    a tenth of the door's hop: benchmarks/ssh_hop.py). Where a CBC cipher was
    agreed all the same, they are kept."""
    send = conn.send_packet

    def send_packet(pkttype: int, *args: bytes, **kwargs: Any) -> None:
        if pkttype == MSG_IGNORE and args == (EMPTY_STRING,):
            cipher = conn.get_extra_info("send_cipher")
            if not (isinstance(cipher, str) and cipher.endswith("-cbc")):
                return
        send(pkttype, *args, **kwargs)

    setattr(conn, "send_packet", send_packet)  # noqa: B010  (asyncssh calls it so)


class GuestSession(asyncssh.SSHServerSession[bytes]):
    """One guest: the room question, then their game in a pseudo-terminal."""

    def __init__(self, server: GuestServer) -> None:
        self.server = server
        self.door = server.door
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.size = (80, 24)
        self.term: str | None = None
        self.command: str | None = None
        self.game: GuestPty | None = None
        self.screen = GuestScreen()
        self.admitted = False
        self.ending: tuple[int, str | None] | None = None
        self.why = ""  # how the session ended, for the server's log and tests
        self.slot: int | None = None  # which of its key's live sessions this is
        self.door_pass: str | None = None  # our own host's pass for this guest's key
        self.last_input = 0.0
        self._timers: list[asyncio.TimerHandle] = []
        self._stall: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # -- asyncssh's calls ---------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan
        chan.set_write_buffer_limits(high=HIGH_WATER)

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        self.term = _plain(term_type) or TERM_DEFAULT
        self.size = clamp_size(int(term_size[0]), int(term_size[1]))
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # no sftp, nothing but the game

    def session_started(self) -> None:
        self.door.sessions.add(self)
        self.door.on_session(self)
        self.last_input = asyncio.get_running_loop().time()
        refusal = self.door.admission.enter(self.server.address)
        if refusal is not None:
            return self.end(1, refusal)
        self.admitted = True
        name = self.name
        problem = guest_name_problem(name)
        if problem is not None:
            return self.end(2, f"your SSH user name is your player name, and {problem}: {name!r}")
        if self.term is None:
            return self.end(2, "the game needs a terminal: run ssh with -t")
        self._arm_idle()
        if self.command is not None and self.command.strip():
            self._spawn(self._answer(self.command.strip()))
        else:  # the lobby; a room made there shows our ssh line to send
            self._spawn(self._play(None, self.door.invite(self._reached(), "{code}")))

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.last_input = asyncio.get_running_loop().time()
        if self.game is not None:
            self.game.write(data)

    def terminal_size_changed(self, width: int, height: int, pw: int, ph: int) -> None:
        self.size = clamp_size(width, height)
        if self.game is not None:
            self.game.resize(*self.size)

    def eof_received(self) -> bool:
        self.end(0, None)
        return True

    def break_received(self, msec: int) -> bool:
        return True

    def pause_writing(self) -> None:
        if self.game is not None:
            self.game.pause()
        if self._stall is None:
            self._stall = asyncio.get_running_loop().call_later(self.door.stall_s, self._stalled)

    def resume_writing(self) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        if self.game is not None:
            self.game.resume()

    def connection_lost(self, exc: Exception | None) -> None:
        self.why = self.why or "the connection closed"
        self.ending = self.ending or (1, None)  # a game still starting is hung up once up
        if self.game is not None:
            self.game.hang_up()  # the guest is gone: their game ends as for a closed window
        self._finish()

    # -- the session's own ----------------------------------------------------------

    @property
    def name(self) -> str:
        conn = self.server.conn  # (an accented letter sent in two parts: as one)
        return as_name(str(conn.get_extra_info("username"))) if conn is not None else ""

    @property
    def identity(self) -> str | None:
        """The guest's public key fingerprint, where they offered one."""
        key = self.server.key
        return None if key is None else str(key.get_fingerprint("sha256"))

    @property
    def label(self) -> str:
        """The guest in the server's log: name, address and key."""
        key = self.identity or "no key"
        return f"{self.name!r} from {self.server.address} ({key})"

    @property
    def who(self) -> str:
        """Who the guest is for their folders: their key, else their name."""
        return self.identity or f"name:{self.name}"

    def _send(self, data: bytes) -> None:
        if self.chan is None or not data:
            return
        with contextlib.suppress(OSError, asyncssh.Error):
            self.chan.write(data)

    def _line(self, text: str) -> None:
        self._send(text.replace("\n", "\r\n").encode("utf-8", "replace") + b"\r\n")

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        """A session task that failed ends its session, and only that one."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            e = task.exception()
            self.end(1, f"something went wrong on the server ({type(e).__name__}); sorry")

    def _arm_idle(self) -> None:
        loop = asyncio.get_running_loop()
        left = self.last_input + self.door.idle_s - loop.time()
        if left <= 0:
            self.end(1, f"nothing typed for {self.door.idle_s:g} s: goodbye")
            return
        self._timers.append(loop.call_later(left, self._arm_idle))

    def _stalled(self) -> None:
        """The guest has not read what was sent for `stall_s`: drop them."""
        self._stall = None
        if self.game is not None:
            self.game.kill()
        self.ending = (1, None)
        self.why = f"not reading for {self.door.stall_s:g} s: dropped"
        if self.server.conn is not None:
            self.server.conn.abort()

    async def _answer(self, text: str) -> None:
        """A command given with ssh: a room code, `w CODE`, `new` or `quick`."""
        host, port = self.door.game_host
        invite = None
        kind = {"quick": "quick", "new": "new_room"}.get(text.lower())
        if kind is not None:
            try:
                async with asyncio.timeout(JOIN_S):
                    code = await Client.new_room(host, port, kind=kind)
            except (JoinRefused, OSError, TimeoutError) as e:
                return self.end(1, f"no room: the game host said: {e or 'nothing'}")
            invite = self.door.invite(self._reached(), code)
        else:
            watch = text.lower().startswith("w ")
            try:
                code = check_code(text[2:] if watch else text)
            except UsageError as e:
                return self.end(2, f"{e} (or w CODE, new, quick)")
            if watch:
                return await self._play(code, None, "watch")
        await self._play(code, invite)

    def _reached(self) -> str:
        conn = self.server.conn
        sock = conn.get_extra_info("sockname") if conn is not None else None
        host = str(sock[0]) if sock else "localhost"
        return f"[{host}]" if ":" in host else host

    def _env(self, invite: str | None) -> dict[str, str]:
        """The game's environment: the server's, less its own settings, plus
        the guest's terminal, name, key and the few settings a guest may send."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SPIT_", "LC_", "LANG"))}
        chan_env = self.chan.get_environment() if self.chan is not None else {}
        for k in GUEST_ENV:
            v = _plain(chan_env.get(k), 32)
            if v is not None:
                env[k] = v
        ident = self.who
        # each guest's own folders, by key: their keyboard layout (the first-run
        # check's answer) and seat tokens are theirs, never the operator's. Two
        # sessions of one key at once (one person, two terminals) get a folder
        # each, so neither takes the other's seat with a kept token; a session
        # that comes back after its connection died gets the first free one,
        # the one whose tokens take its seat back.
        taken = self.door.slots.setdefault(ident, set())
        self.slot = min(set(range(len(taken) + 1)) - taken)
        taken.add(self.slot)
        folder = hashlib.sha256(ident.encode()).hexdigest()[:16]
        home = self.door.guest_home / (folder if self.slot == 0 else f"{folder}-{self.slot}")
        env.update(
            TERM=self.term or TERM_DEFAULT,
            LC_ALL="C.UTF-8",
            SPIT_PLAYER_NAME=self.name,
            XDG_CONFIG_HOME=str(home / "config"),
            XDG_STATE_HOME=str(home / "state"),
        )
        if self.identity is not None:
            env["SPIT_PLAYER_KEY"] = self.identity
            if self.door.vouch is not None:
                if self.door_pass is None:
                    self.door_pass = self.door.vouch(self.identity)
                env[PASS_ENV] = self.door_pass
        env["SPIT_LOBBY_TITLE"] = self.door.title(self._reached(), self.name)
        if invite is not None:
            env["SPIT_INVITE"] = invite
        if self.door.history is not None:  # My stats, the day's table: the server's games
            env[DOOR_DB_ENV] = str(self.door.history)
        if self.door.options is not None:
            env[ROOM_OPTIONS_ENV] = room_options_env(self.door.options)
        return env

    async def _play(self, code: str | None, invite: str | None, command: str = "join") -> None:
        """Start the guest's game: `join` (the lobby without a code) or `watch`."""
        if self.ending is not None:
            return
        host, port = self.door.game_host
        argv = [command, f"{host}:{port}", *([code] if code else [])]
        if command == "join":  # the server's host keeps the games (ssh-serve --db), by key
            argv.append("--no-history")
        game = GuestPty(argv, self._env(invite), self.size, self._shown, self._game_over)
        try:
            await game.start()
        except OSError as e:
            return self.end(1, f"the game could not start: {e.strerror or e}")
        self.game = game
        self.door.games.add(game)
        if self.ending is not None:
            game.hang_up()

    def _shown(self, data: bytes) -> None:
        """The game's output, to the guest."""
        self.screen.feed(data)
        self._send(data)

    def _game_over(self, status: int) -> None:
        if self.game is not None:
            self.door.games.discard(self.game)
        self._send(self.screen.ending())
        code, line = self.ending or (status, None)
        if line is not None:
            self._line(f"{PROG}: {line}")
        self._close(code)

    def end(self, status: int, line: str | None) -> None:
        """End the session with `line` to the guest; a game is hung up first."""
        if self.ending is not None:
            return
        self.ending = (status, line)
        self.why = line or f"ended ({status})"
        if self.game is not None:
            self.game.hang_up()  # its end comes back through _game_over
            return
        if line is not None:
            self._line(f"{PROG}: {line}")
        self._close(status)

    def _close(self, status: int) -> None:
        if self.chan is not None:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.exit(status)
        self._finish()

    def _finish(self) -> None:
        for t in self._timers:
            t.cancel()
        self._timers.clear()
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        if self.admitted:
            self.admitted = False
            self.door.admission.leave(self.server.address)
        if self.door_pass is not None:
            self.door.revoke(self.door_pass)
            self.door_pass = None
        if self.slot is not None:
            ident = self.who
            self.door.slots.get(ident, set()).discard(self.slot)
            if not self.door.slots.get(ident, True):
                del self.door.slots[ident]
            self.slot = None
        if self in self.door.sessions:
            self.door.sessions.discard(self)
            self.door.on_end(self)


async def listen(door: Door, key: asyncssh.SSHKey, bind: str, port: int) -> asyncssh.SSHAcceptor:
    """Start the SSH server (OSError if the address cannot be had)."""
    acceptor = await asyncssh.create_server(
        lambda: GuestServer(door),
        bind,
        port,
        server_host_keys=[key],
        encoding=None,
        login_timeout=LOGIN_S,
        keepalive_interval=KEEPALIVE_S,
        keepalive_count_max=4,
        allow_scp=False,
        agent_forwarding=False,
        x11_forwarding=False,
        gss_host=None,
        line_editor=False,
    )
    door.port = acceptor.get_port()
    return acceptor
