"""The SSH door with asyncssh guests on 127.0.0.1: who gets in (authorized
keys, no passwords, valid names), the limits (per address, in all, idle, a
guest that never reads), the first question, and what a guest's terminal is
left with however the session ends."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import sqlite3
from pathlib import Path

import asyncssh
import pytest
from testkit.ssh import BOUND_S, CODE, connect, game_pid, served

from spit_tui.engine import Options, Variant
from spit_tui.ssh.admission import Admission, read_authorized
from spit_tui.ssh.server import ALT_OFF, ALT_ON, MODES_OFF, PENDING_PER_ADDRESS, SHOWN, GuestScreen


def restored(out: bytes) -> bool:
    """The guest's terminal after the game: off the alternate screen, its
    modes off and the cursor shown, and the cursor on a line of its own."""
    return out.endswith(MODES_OFF + SHOWN) and out.rindex(ALT_OFF) > out.rfind(ALT_ON)


def test_the_end_of_a_session_leaves_the_normal_screen_once_and_ends_the_last_line() -> None:
    """A game that left the alternate screen (a clean end) gets no second
    "leave it", which would take the cursor back up over its last line; one
    still on it (a crash) gets it; a last line without its end gets one; a
    switch split between two reads counts."""
    clean = GuestScreen()
    for part in (ALT_ON + b"board", ALT_OFF[:4], ALT_OFF[4:] + b"spit-tui: bye\r\n"):
        clean.feed(part)
    assert clean.ending() == MODES_OFF + SHOWN
    crashed = GuestScreen()
    crashed.feed(ALT_ON + b"board\r\n")
    assert crashed.ending() == MODES_OFF + ALT_OFF + SHOWN
    unended = GuestScreen()
    unended.feed(ALT_ON + b"board" + ALT_OFF + b"spit-tui: bye\x1b[0m")
    assert unended.ending() == MODES_OFF + SHOWN + b"\r\n"

async def test_a_guest_gets_the_lobby_and_a_bad_code_is_asked_again(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        g = await connect(s, "ana")
        screen = await g.open()
        await screen.wait_for(b"Quick match")
        # the door names itself and the guest, not the game host behind it (its
        # line may come after the menu's: waited for, not looked for at once)
        await screen.wait_for(f"spit-tui at 127.0.0.1:{s.port}, as ana".encode())
        assert f":{s.host.port}".encode() not in screen.out
        g.send(b"j")  # join by code
        await screen.wait_for(b"room code, like")
        g.send(b"zz\r")
        await screen.wait_for(b"not a room code")
        mark = len(screen.out)
        g.send(b"\x1b")  # Esc: back to the choices (shown again before the next key: an
        await screen.wait_for(b"Quick match", start=mark)  # Esc read with it is Alt+key)
        g.send(b"\x11")  # Ctrl+Q leaves
        await screen.wait_closed()
        assert screen.status == 0 and restored(bytes(screen.out))
        assert not s.door.sessions and not s.door.admission.open_by_address


async def test_authorized_keys_let_in_the_listed_key_only(tmp_path: Path) -> None:
    listed = asyncssh.generate_private_key("ssh-ed25519")
    other = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(b"# friends\n" + listed.export_public_key())
    admission = Admission(allowed=read_authorized(keys))
    async with served(tmp_path, admission=admission) as s:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(s, "eve", other)
        g = await connect(s, "ana", listed)
        screen = await g.open()
        await screen.wait_for(b"Quick match")
        g.close()


class Asked(asyncssh.SSHClient):
    """A client that keeps every keyboard-interactive question it is asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, list[tuple[str, bool]]]] = []

    def kbdint_auth_requested(self) -> str:
        return ""  # answer the questions here (not asyncssh's password answers)

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: list[tuple[str, bool]]
    ) -> list[str]:
        self.asked.append((instructions, prompts))
        return ["secret"] * len(prompts)


async def test_no_password_is_asked_and_keyboard_interactive_only_says_why(
    tmp_path: Path,
) -> None:
    """No password ever lets anyone in: keyboard-interactive is one round with
    no prompt, which shows the guest why they were turned away, then fails."""
    client = Asked()
    async with served(tmp_path) as s:
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect(
                "127.0.0.1", s.port, username="ana", password="secret", client_keys=None,
                known_hosts=None, agent_path=None, client_factory=lambda: client,
                preferred_auth="password,keyboard-interactive",
            )  # fmt: skip
    [(said, prompts)] = client.asked  # once, and nothing to answer
    assert prompts == []
    assert "your\nssh offered none. Make one with:  ssh-keygen -t ed25519" in said


async def test_a_guest_turned_away_is_told_why_by_a_real_ssh(tmp_path: Path) -> None:
    """OpenSSH's own client, no key or a key not on --authorized-keys: one
    hint from the door before ssh's "Permission denied"."""
    listed = asyncssh.generate_private_key("ssh-ed25519")
    stranger = tmp_path / "id_stranger"
    stranger.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key())
    stranger.chmod(0o600)
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(listed.export_public_key())
    env = {k: v for k, v in os.environ.items() if k != "SSH_AUTH_SOCK"}  # no agent's keys
    async with served(tmp_path, admission=Admission(allowed=read_authorized(keys))) as s:
        for identity, says in (
            (tmp_path / "none", "ssh offered none. Make one with:  ssh-keygen -t ed25519\n"
                                "then send the .pub file it writes to whoever runs this server."),
            (stranger, "this server lets in only the SSH keys on its list, and yours\nis not"),
        ):  # fmt: skip
            ssh = await asyncio.create_subprocess_exec(
                "ssh", "-F", "/dev/null", "-o", "IdentitiesOnly=yes", "-i", str(identity),
                "-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={tmp_path / 'kh'}",
                "-p", str(s.port), "ana@127.0.0.1",
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env=env,
            )  # fmt: skip
            async with asyncio.timeout(BOUND_S):
                _out, err = await ssh.communicate()
            text = err.decode()
            assert ssh.returncode == 255, text
            assert says in text and text.count("spit-tui:") == 1, text
            assert text.rstrip().endswith("ana@127.0.0.1: Permission denied (publickey)."), text


async def test_keepalive_obfuscation_is_not_advertised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """OpenSSH spaces keystrokes 20 ms apart (and sends chaff) when the server
    offers ping@openssh.com: the door never offers it."""
    asyncssh.set_debug_level(2)
    try:
        with caplog.at_level(logging.DEBUG, logger="asyncssh"):
            async with served(tmp_path) as s:
                g = await connect(s)
                g.close()
    finally:
        asyncssh.set_debug_level(1)
    got = caplog.text
    assert "Received extension info" in got and "server-sig-algs" in got
    assert "ping@openssh.com" not in got


async def test_limits_per_address_and_in_all(tmp_path: Path) -> None:
    async with served(tmp_path, admission=Admission(per_address=2, total=3)) as s:
        guests = [await connect(s, f"p{i}") for i in range(2)]
        for g in guests:
            await (await g.open()).wait_for(b"Quick match")
        third = await connect(s, "p2")
        screen = await third.open()
        await screen.wait_closed()
        assert b"2 sessions from your address already" in screen.out and screen.status == 1
        s.door.admission.open_by_address["192.0.2.7"] = 1  # someone elsewhere: 3 in all now
        fourth = await connect(s, "p3")
        screen = await fourth.open()
        await screen.wait_closed()
        assert b"the server is full (3 players)" in screen.out
        guests[0].close()
        await guests[0].screen.wait_closed()
        del s.door.admission.open_by_address["192.0.2.7"]
        await asyncio.sleep(0.2)
        again = await connect(s, "p4")
        await (await again.open()).wait_for(b"Quick match")


@pytest.mark.parametrize("per_address", [3, 12])
async def test_connections_from_one_address_are_its_sessions_and_a_few_more(
    tmp_path: Path, per_address: int
) -> None:
    """--per-address above the connections cap (10) used to be capped there: the
    11th connection of a lab behind one address was closed before it logged in."""
    async with served(tmp_path, admission=Admission(per_address=per_address)) as s:
        allowed = per_address + PENDING_PER_ADDRESS
        held = [await connect(s, f"p{i}") for i in range(allowed)]
        with pytest.raises((asyncssh.Error, OSError)):
            await connect(s, "one-more")
        held.pop().close()
        await asyncio.sleep(0.3)
        held.append(await connect(s, "again"))  # a place freed is a place again
        for g in held:
            g.close()


@pytest.mark.parametrize("name", ['a"b', "x" * 21, "ana日本", "  "])
async def test_a_name_that_cannot_be_a_player_name(tmp_path: Path, name: str) -> None:
    async with served(tmp_path) as s:
        g = await connect(s, name)
        screen = await g.open()
        await screen.wait_closed()
        assert screen.status == 2 and b"your SSH user name is your player name" in screen.out


async def test_without_a_terminal_one_line(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        g = await connect(s)
        screen = await g.open("k3f9q-2x7mz", term=None)
        await screen.wait_closed()
        assert screen.status == 2 and b"needs a terminal: run ssh with -t" in screen.out


async def test_an_idle_guest_is_let_go(tmp_path: Path) -> None:
    async with served(tmp_path, idle_s=0.5) as s:
        g = await connect(s)
        screen = await g.open()
        await screen.wait_closed()
        assert b"nothing typed for 0.5 s" in screen.out and screen.status == 1


@pytest.mark.long(11)
async def test_an_idle_guest_in_a_game_gets_a_restored_terminal(tmp_path: Path) -> None:
    async with served(tmp_path, idle_s=8.0) as s:
        g = await connect(s)
        screen = await g.open()
        await screen.wait_for(b"Quick match")
        g.send(b"q")  # a quick match
        await screen.wait_for(b"Waiting for RIGHT to join")
        pid = await game_pid(s)
        await screen.wait_closed()
        out = bytes(screen.out)
        assert b"nothing typed for 8 s" in out and screen.status == 1
        # the terminal is restored before the line: by the game, hung up (then the
        # door sends modes off and the cursor), or, where a busy machine's game
        # took longer than the door's grace to end and was killed, by the door
        # (then it leaves the alternate screen too)
        repaired = max(out.rfind(MODES_OFF + SHOWN), out.rfind(MODES_OFF + ALT_OFF + SHOWN))
        assert -1 < repaired < out.rindex(b"nothing typed")
        assert out.count(b"\x1b[?1049h") == 2  # the lobby's screen, then the board's
        assert out.rindex(b"\x1b[?1049l") > out.rindex(b"\x1b[?1049h")
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # the game ended with the session


async def test_a_guest_that_never_reads_is_dropped(tmp_path: Path) -> None:
    async with served(tmp_path, stall_s=1.0) as s:
        g = await connect(s)
        screen = await g.open("new", window=2048, max_pktsize=1024)
        await screen.wait_for(b"\x1b[?1049h")
        assert g.chan is not None
        g.chan.pause_reading()  # from now on nothing is read: the window stays shut
        pid = await game_pid(s)
        for _ in range(40):  # resizes: each makes the game draw the whole board again
            g.chan.change_terminal_size(100 + _ % 2, 30)
            await asyncio.sleep(0.05)
        async with asyncio.timeout(20):
            while s.door.sessions:
                await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
        assert not s.door.admission.open_by_address
        assert s.sessions[0].why == "not reading for 1 s: dropped"


async def test_a_code_as_the_command_goes_straight_to_the_room(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        key = asyncssh.generate_private_key("ssh-ed25519")
        ana = await connect(s, "ana", key)
        a = await ana.open()
        await a.wait_for(b"Quick match")
        ana.send(b"n")  # a new room, with the options as they are
        await a.wait_for(b"make the room")
        ana.send(b"\r")
        board = await a.wait_for(b"Waiting for RIGHT to join")
        start = board.rindex(b"\x1b[?1049h")
        board = await a.wait_for(CODE, start=start)  # (its line may come after the one above)
        code = CODE.search(board, start)
        assert code is not None
        await a.wait_for(f"ssh -p {s.port} -t NAME@127.0.0.1 {code[0].decode()}".encode())
        ben = await connect(s, "ben", key)  # one person at two terminals: one key
        b = await ben.open(code[0].decode().upper(), env={"SPIT_LAYOUT": "dvorak", "PATH": "/x"})
        await b.wait_for(b"both press any key")
        await a.wait_for(b"both press any key")
        pid = await game_pid(s)
        env = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        assert b"SPIT_PLAYER_NAME=ben" in env
        assert b"SPIT_LAYOUT=dvorak" in env and b"PATH=/x" not in env  # only what a guest may set
        assert any(e.startswith(b"SPIT_PLAYER_KEY=SHA256:") for e in env)
        # each session of the key its own folders: neither takes the other's seat
        homes = [
            next(e for e in Path(f"/proc/{p}/environ").read_bytes().split(b"\0")
                 if e.startswith(b"XDG_STATE_HOME="))
            for p in [await game_pid(s, 0), pid]
        ]
        assert homes[0] != homes[1] and homes[1].endswith(b"-1/state")
        ben.send(b"\x11")  # Ctrl+Q, then Enter: the game's own quit
        await b.wait_for(b"Quit the game?")
        ben.send(b"\r")
        await b.wait_closed()
        assert b.status == 0 and restored(bytes(b.out))


async def test_new_room_starts_from_the_servers_own_game(tmp_path: Path) -> None:
    """ssh-serve --variant points --target 75: a guest's New room opens on it."""
    async with served(tmp_path, options=Options(Variant.POINTS, 75)) as s:
        ana = await connect(s, "ana")
        a = await ana.open()
        await a.wait_for(b"Quick match")
        ana.send(b"n")
        await a.wait_for(b"75 points")
        ana.send(b"\r")  # the room made as shown
        await a.wait_for(b"points to 75")
        ana.close()


def drawn_whole_in(out: bytes, cols: int, rows: int) -> bool:
    """The game drawn whole at cols x rows after the last cursor move outside
    that size: a storm's redraw may still come after a mark (a game starved of
    a core), never after the last size's own frame."""
    moves = list(re.finditer(rb"\x1b\[(\d+);(\d+)H", out))
    cut = max((m.end() for m in moves if int(m[1]) > rows or int(m[2]) > cols), default=0)
    inside = [int(m[1]) for m in moves if m.start() >= cut]
    return bool(inside) and max(inside) == rows and b"Waiting for RIGHT to join" in out[cut:]


async def test_a_resize_storm_leaves_the_game_in_the_last_size(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        g = await connect(s)
        screen = await g.open("new")
        await screen.wait_for(b"Waiting for RIGHT to join")
        session = s.sessions[0]
        assert g.chan is not None
        rng = random.Random(5)
        for _ in range(300):  # no waits between them: the storm
            g.chan.change_terminal_size(rng.randint(0, 400), rng.randint(0, 200))
        g.chan.change_terminal_size(70000, 3)  # nonsense is clamped, not passed on
        await screen.quiet(1.0)  # every redraw of the storm is in
        mark = len(screen.out)
        g.chan.change_terminal_size(90, 28)
        await screen.wait_for(b"Waiting for RIGHT to join", start=mark)
        await screen.quiet(0.5)
        assert os.get_terminal_size(session.game.master) == os.terminal_size((90, 28))
        async with asyncio.timeout(BOUND_S):  # the last size's frame, however late it is
            while not drawn_whole_in(bytes(screen.out[mark:]), 90, 28):
                await asyncio.sleep(0.2)
        assert s.door.sessions == {session} and not screen.closed.is_set()


async def test_the_kitty_keyboard_protocol_passes_through(tmp_path: Path) -> None:
    """A guest whose terminal speaks the kitty protocol: the game asks (CSI ? u),
    sets its flags on the one entry Textual pushed, reads kitty key events
    (a press plays, a release does nothing) and pops once at the end."""
    from spit_tui.engine import Player

    async with served(tmp_path) as s:
        ana = await connect(s, "ana")
        a = await ana.open("new", term="xterm-kitty")
        flags: list[bytes] = []

        def answer(data: bytes) -> None:
            flags.extend(re.findall(rb"\x1b\[=(\d+);1u", data))
            if b"\x1b[?u" in data:
                ana.send(b"\x1b[?25u")

        a.on_data = answer
        board = await a.wait_for(b"Waiting for RIGHT to join")
        start = board.index(b"\x1b[?1049h")
        board = await a.wait_for(CODE, start=start)  # (its line may come after the one above)
        code = CODE.search(board, start)
        assert code is not None
        ben = await connect(s, "ben")
        b = await ben.open(code[0].decode())
        await b.wait_for(b"both press any key")
        await a.wait_for(b"both press any key")
        assert flags == [b"31"]
        table = s.host.lobby.rooms[code[0].decode()].table
        await asyncio.sleep(0.6)  # past the stale-key window of the spit call
        ana.send(b"\x1b[113;1:3u")  # a release of q: nothing
        await asyncio.sleep(0.3)
        assert [d for d in table.decisions if d.player is Player.LEFT] == []
        ana.send(b"\x1b[113u")  # a press of q, as kitty sends it
        async with asyncio.timeout(10):
            while not [d for d in table.decisions if d.player is Player.LEFT]:
                await asyncio.sleep(0.05)
        (pressed,) = [d for d in table.decisions if d.player is Player.LEFT]
        assert pressed.key == "q" and pressed.outcome == "applied"
        ana.send(b"\x1b[113;5u")  # Ctrl+Q in kitty's words
        await a.wait_for(b"Quit the game?")
        ana.send(b"\x1b[13u")
        await a.wait_closed()
        out = bytes(a.out)
        assert out.count(b"\x1b[>") == 1 and out.count(b"\x1b[<u") >= 1
        ben.close()


async def test_two_guests_pressing_enter_are_paired_and_see_each_others_names(
    tmp_path: Path,
) -> None:
    async with served(tmp_path) as s:
        screens = []
        for name in ("ana", "ben"):
            g = await connect(s, name)
            screen = await g.open()
            await screen.wait_for(b"Quick match")
            g.send(b"q")  # a quick match
            screens.append(screen)
        for screen in screens:
            await screen.wait_for(b"both press any key")
        (room,) = s.host.lobby.rooms.values()
        assert sorted(room.table.seats.names) == ["ana", "ben"]  # whoever said hello first is left
        for screen in screens:  # each board names both players
            await screen.wait_for(b"ana")
            await screen.wait_for(b"ben")


async def test_a_guest_watches_a_game_with_w_and_its_code(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        players = []
        for name in ("ana", "ben"):
            g = await connect(s, name)
            screen = await g.open()
            await screen.wait_for(b"Quick match")
            g.send(b"q")
            players.append(screen)
        for screen in players:
            await screen.wait_for(b"both press any key")
        (code,) = s.host.lobby.rooms
        carl = await connect(s, "carl")
        c = await carl.open()
        await c.wait_for(b"Quick match")
        carl.send(b"w")  # the games in play here: the one, chosen
        await c.wait_for(b"ana v ben")
        assert code.encode() not in c.out  # the list names the players, not the code
        carl.send(b"\r")
        await c.wait_for(b"both players spit to begin")  # a watcher is told what they do
        await c.wait_for(b"ben")
        (room,) = s.host.lobby.rooms.values()
        assert len(room.watchers) == 1
        await asyncio.sleep(0.6)  # past the stale-key window of the spit call
        carl.send(b"q")  # no key plays
        await c.wait_for(b"watching: no keys play (Ctrl+Q quits)")
        assert not [d for d in room.table.decisions if d.source == "key"]
        mark = len(c.out)
        carl.send(b"\x11")  # Ctrl+Q: back to the lobby
        await c.wait_for(b"Quick match", start=mark)
        assert not room.watchers or await _no_watchers(room)
        carl.send(b"\x11")  # and out
        await c.wait_closed()
        assert c.status == 0 and restored(bytes(c.out))
        async with asyncio.timeout(10):
            while room.watchers:
                await asyncio.sleep(0.05)


async def test_a_guest_gone_while_their_game_starts_leaves_no_game_behind(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        g = await connect(s)
        screen = await g.open()
        await screen.wait_for(b"Quick match")
        g.send(b"n")
        await screen.wait_for(b"make the room")
        g.send(b"\r")
        await asyncio.sleep(0.05)  # the room is being made, the board not up yet
        g.close()
        await asyncio.sleep(3.0)  # time for a game to have started, were it let
        async with asyncio.timeout(15):
            while s.door.sessions or s.door.games:
                await asyncio.sleep(0.1)
        game = s.sessions[0].game
        if game is not None and game.pid is not None:  # it started: it was hung up
            async with asyncio.timeout(10):
                while _state(game.pid) != b"Z":
                    await asyncio.sleep(0.1)


def _state(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().split(b") ")[1][:1]
    except OSError:
        return b"Z"


async def test_leaving_a_game_goes_back_to_the_lobby(tmp_path: Path) -> None:
    async with served(tmp_path) as s:
        g = await connect(s)
        screen = await g.open()
        await screen.wait_for(b"Quick match")
        g.send(b"n")
        await screen.wait_for(b"make the room")
        g.send(b"\r")
        await screen.wait_for(b"Waiting for RIGHT to join")
        mark = len(screen.out)
        g.send(b"\x11")  # Ctrl+Q, then Enter: the game's own quit
        await screen.wait_for(b"Quit the game?", start=mark)
        g.send(b"\r")
        await screen.wait_for(b"Quick match", start=mark)  # the lobby again
        assert s.door.sessions and not screen.closed.is_set()
        g.send(b"\x11")  # Ctrl+Q in the lobby leaves
        await screen.wait_closed()
        assert screen.status == 0


async def _no_watchers(room: object) -> bool:
    async with asyncio.timeout(10):
        while room.watchers:  # type: ignore[attr-defined]
            await asyncio.sleep(0.05)
    return True


async def test_each_guests_game_is_stored_under_their_key(tmp_path: Path) -> None:
    """The door vouches for each guest's key to its host: the seat, and so the
    stored game's row (and its rating), carries the key; a name alone does not."""
    from spit_tui.store.history import HistoryWriter

    db = tmp_path / "history.db"
    keys = {n: asyncssh.generate_private_key("ssh-ed25519") for n in ("ana", "ben")}
    async with served(tmp_path, history=HistoryWriter(db)) as s:
        screens = []
        for name, key in keys.items():
            g = await connect(s, name, key)
            screen = await g.open()
            await screen.wait_for(b"Quick match")
            g.send(b"q")
            screens.append((g, screen))
        for _, screen in screens:
            await screen.wait_for(b"both press any key")
        (room,) = s.host.lobby.rooms.values()
        async with asyncio.timeout(BOUND_S):
            while not room.table.game.log:  # each spits: the game has begun, so it is kept
                for g, _ in screens:  # (again, if a busy machine drew the call late)
                    g.send(b"f")
                    g.send(b"j")
                await asyncio.sleep(0.5)
        seats = {room.table.seats.names[p]: seat.identity for p, seat in room.seats.items()}
        assert seats == {n: k.get_fingerprint("sha256") for n, k in keys.items()}
        # the server's host keeps the game: a guest's own join keeps no second history
        argv = Path(f"/proc/{await game_pid(s)}/cmdline").read_bytes().split(b"\0")
        assert b"--no-history" in argv
    conn = sqlite3.connect(db)
    try:
        stored = dict(conn.execute("SELECT name, identity FROM game_players").fetchall())
    finally:
        conn.close()
    assert stored == seats  # stored as it stood when the server stopped
    assert not s.host.lobby.passes  # each guest's pass ended with their session


async def test_the_lobby_shows_my_stats_and_the_days_table_from_the_servers_history(
    tmp_path: Path,
) -> None:
    from spit_tui.store.history import HistoryWriter

    async with served(tmp_path, history=HistoryWriter(tmp_path / "server.db")) as s:
        g = await connect(s, "ana")
        screen = await g.open()
        await screen.wait_for(b"My stats")  # the menu offers it
        g.send(b"s")
        await screen.wait_for(b"No finished games of ana are stored here yet.")
        g.send(b"\x1b")  # Esc: the menu again
        await asyncio.sleep(0.3)
        g.send(b"d")
        await screen.wait_for(b"Nobody has played the daily deal of")
        g.close()


async def test_the_server_stopping_ends_a_guests_game_with_one_line_and_status_0(
    tmp_path: Path,
) -> None:
    """A guest in a room when the server stops: their game ends, their terminal
    is restored, one line says why, and the status is 0, as when a host stops
    (it was 1, as for an error of the guest's)."""
    async with served(tmp_path) as s:
        g = await connect(s, "ana")
        screen = await g.open()
        await screen.wait_for(b"Quick match")
        g.send(b"q")
        await screen.wait_for(b"Waiting for RIGHT to join")
        await s.door.stop()
        await screen.wait_closed()
        out = bytes(screen.out)
        assert out.endswith(b"spit-tui: the server is stopping\r\n"), out[-200:]
        assert screen.status == 0 and out.rindex(ALT_OFF) > out.rindex(ALT_ON)


async def test_a_guest_named_in_any_alphabet_up_to_20_characters_plays(tmp_path: Path) -> None:
    """The SSH user name is the player's name: letters of any alphabet, up to
    20 characters (it was 16, unaccented): the lobby greets them by it, and
    both boards of a quick match show it whole."""
    name = "Zoë Ана-Łukasz ★ Ünï"  # 20 characters, each one cell wide
    async with served(tmp_path) as s:
        g = await connect(s, name)
        screen = await g.open()
        await screen.wait_for(f"as {name}".encode())
        g.send(b"q")
        await screen.wait_for(b"Waiting for RIGHT to join")
        b = await connect(s, "ben")
        other = await b.open()
        await other.wait_for(b"Quick match")
        b.send(b"q")
        for seen in (screen, other):
            await seen.wait_for(b"both press any key")
            await seen.wait_for(name.encode())  # on the board of each
        g.close()
        b.close()
