"""`spit-tui ssh-serve` as a person starts it: the host key made once (0600 in
a 0700 folder) and the same fingerprint on every start, the line guests type,
one line and a non-zero exit for anything wrong, a quiet Ctrl+C."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from testkit import procs

from spit_tui.command import exposure_note
from spit_tui.ssh.hostkey import HostKeyError, load_or_make

BOUND_S = 20.0


def _die_with_the_test() -> None:
    """In the server, before it starts: the kernel kills it if the test's process
    dies first (a worker ended by a timeout runs no `finally`), so no server
    outlives its test (Linux's PR_SET_PDEATHSIG)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG


def serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "spit_tui", "ssh-serve", "--port", "0", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_die_with_the_test,
    )  # fmt: skip


def first_lines(proc: subprocess.Popen[str], n: int) -> list[str]:
    assert proc.stdout is not None
    lines = []
    deadline = time.monotonic() + BOUND_S
    while len(lines) < n and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
    return lines


def stop(proc: subprocess.Popen[str]) -> tuple[int, str]:
    """Ctrl+C the server and read what it said; one that does not stop within
    BOUND_S is killed (and the test fails), never left running."""
    _, err = procs.stop(proc, bound_s=BOUND_S)
    return proc.returncode, err


def test_the_host_key_is_made_once_and_its_fingerprint_printed(user_dirs: Path) -> None:
    proc = serve()
    lines = first_lines(proc, 3)
    code, err = stop(proc)
    assert lines[0].startswith("host key SHA256:") and lines[0].endswith("(made now)"), lines
    assert lines[1].startswith("ssh door on 127.0.0.1:")
    port = lines[1].split(":")[1].split(";")[0]
    assert lines[2] == f"guests type: ssh -p {port} NAME@localhost"
    assert code == 130 and err.strip() == "spit-tui ssh-serve: stopped"
    key = user_dirs / "xdg_data_home" / "spit-tui" / "ssh_host_ed25519_key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    again = serve()
    lines2 = first_lines(again, 1)
    stop(again)
    assert lines2 == [lines[0].removesuffix(" (made now)")]


def test_a_damaged_host_key_is_one_line_never_replaced(tmp_path: Path) -> None:
    bad = tmp_path / "key"
    bad.write_text("not a key")
    with pytest.raises(HostKeyError, match="cannot read the host key"):
        load_or_make(bad)
    assert bad.read_text() == "not a key"
    proc = serve("--host-key", str(bad))
    _, err = proc.communicate(timeout=BOUND_S)
    assert proc.returncode == 1 and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--port", "99999"], "port"),
        (["--per-address", "0"], "--per-address"),
        (["--idle", "soon"], "--idle"),
        (["--wait", "0"], "--wait: seconds from 1 to 86400"),
        (["--wait", "5", "--host", "127.0.0.1:7878"], "--wait is for our own host"),
        (["--host", "not an address"], "not a host name"),
        (["--authorized-keys", "/nonexistent/keys"], "cannot read"),
    ],
)
def test_bad_arguments_are_one_line(args: list[str], says: str) -> None:
    proc = serve(*args)
    _, err = proc.communicate(timeout=BOUND_S)
    assert proc.returncode in (1, 2) and says in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_an_authorized_keys_file_with_no_key(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.write_text("# nobody yet\n")
    proc = serve("--authorized-keys", str(keys))
    _, err = proc.communicate(timeout=BOUND_S)
    assert proc.returncode == 1 and "lists no public key" in err


def test_beyond_this_machine_is_said_at_start() -> None:
    assert exposure_note("127.0.0.1", "x") is None and exposure_note("::1", "x") is None
    note = exposure_note("0.0.0.0", "the ssh door")
    assert note is not None and "beyond this machine" in note


def test_guest_home_is_private(tmp_path: Path) -> None:
    _, made = load_or_make(tmp_path / "deep" / "key")
    assert made and os.stat(tmp_path / "deep").st_mode & 0o077 == 0


async def test_the_server_logs_each_guest_coming_and_going(tmp_path: Path) -> None:
    import asyncio

    import asyncssh

    proc = serve()
    try:
        lines = await asyncio.to_thread(first_lines, proc, 3)
        port = int(lines[1].split(":")[1].split(";")[0])
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with asyncssh.connect(
            "127.0.0.1", port, username="ana", client_keys=[key], known_hosts=None,
            agent_path=None,
        ) as conn:  # fmt: skip
            await conn.run("zz", term_type="xterm", term_size=(80, 24))
        log = await asyncio.to_thread(first_lines, proc, 2)
    finally:
        stop(proc)
    fp = str(key.get_fingerprint("sha256"))
    assert log[0] == f"'ana' from 127.0.0.1 ({fp}): came in"
    assert log[1].startswith(f"'ana' from 127.0.0.1 ({fp}): left (not a room code")


@pytest.mark.parametrize(
    ("public", "port", "line"),
    [
        (None, 2222, "ssh -p 2222 -t NAME@127.0.0.1 k3f9q-2x7mz"),
        ("play.example.org", 2222, "ssh -p 2222 -t NAME@play.example.org k3f9q-2x7mz"),
        ("play.example.org:22", 2222, "ssh -t NAME@play.example.org k3f9q-2x7mz"),
        ("play.example.org:4000", 2222, "ssh -p 4000 -t NAME@play.example.org k3f9q-2x7mz"),
    ],
)
def test_the_line_a_new_room_shows(public: str | None, port: int, line: str) -> None:
    from spit_tui.ssh.server import Door

    door = Door(("127.0.0.1", 7878), public=public)
    door.port = port
    assert door.invite("127.0.0.1", "k3f9q-2x7mz") == line


async def test_the_servers_own_host_keeps_a_history_and_vouches_for_guests(
    tmp_path: Path,
) -> None:
    """`ssh-serve --db F`: a guest's game gets a pass for their key (so its
    games are stored by key) and the history's path (its lobby reads My stats
    and the day's table there), and keeps no history of its own."""
    import asyncio

    import asyncssh

    db = tmp_path / "server.db"
    proc = serve("--db", str(db), "--host-key", str(tmp_path / "key"))
    try:
        lines = await asyncio.to_thread(first_lines, proc, 3)
        port = int(lines[1].split(":")[1].split(";")[0])
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with asyncssh.connect(
            "127.0.0.1", port, username="ana", client_keys=[key], known_hosts=None,
            agent_path=None,
        ) as conn:  # fmt: skip
            chan, _ = await conn.create_session(
                asyncssh.SSHClientSession, term_type="xterm", term_size=(80, 24),
                env={"SPIT_LAYOUT": "us"},
            )  # fmt: skip
            deadline = time.monotonic() + BOUND_S
            games: list[str] = []
            while not games and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
                kids = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
                games = [k for k in kids if b"join" in Path(f"/proc/{k}/cmdline").read_bytes()]
            assert games, "no game process for the guest"
            env = Path(f"/proc/{games[0]}/environ").read_bytes().split(b"\0")
            argv = Path(f"/proc/{games[0]}/cmdline").read_bytes().split(b"\0")
            chan.close()
    finally:
        stop(proc)
    assert f"SPIT_DOOR_DB={db}".encode() in env
    assert any(e.startswith(b"SPIT_DOOR_PASS=") and len(e) > 30 for e in env)
    assert b"--no-history" in argv
    assert db.exists()  # the server's history, opened at start
