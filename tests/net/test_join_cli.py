"""`spit-tui join` from the command line: --new-room against a real host
process, and every bad input (an address, a code, a host that is not there,
a wrong code) as one line and a non-zero exit, never a traceback."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest
from testkit.procs import stop

from spit_tui.cli import main
from spit_tui.net.joincmd import check_code, parse_address

SPIT = [sys.executable, "-m", "spit_tui"]


@pytest.fixture
def host_process() -> Iterator[tuple[str, str]]:
    """A real `spit-tui host` on 127.0.0.1: its address and first room code."""
    proc = subprocess.Popen(
        [*SPIT, "host", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        m = re.search(r"hosting on (\S+); room code (\S+)", proc.stdout.readline())
        assert m
        yield m[1], m[2]
    finally:
        stop(proc)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SPIT, "join", *args], capture_output=True, text=True, timeout=30)


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    err = result.stderr
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_new_room_prints_a_code_that_takes_a_seat(host_process: tuple[str, str]) -> None:
    address, first = host_process
    made = run(address, "--new-room")
    assert made.returncode == 0, made.stderr
    m = re.match(r"room code ([0-9a-z]{5}-[0-9a-z]{5})\n", made.stdout)
    assert m and m[1] != first
    assert f"join {address} {m[1]}" in made.stdout
    # the new room takes a seat (here the terminal check then stops the app: no tty)
    seated = run(address, m[1], "--seat", "right")
    assert seated.returncode == 1
    assert "terminal" in one_line(seated)


def test_a_wrong_code_and_an_absent_host_are_one_line(host_process: tuple[str, str]) -> None:
    address, _code = host_process
    wrong = run(address, "00000-00000")
    assert wrong.returncode == 1
    assert one_line(wrong) == "spit-tui join: the host refused: no room with that code\n"
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    gone = run(f"127.0.0.1:{free}", "00000-00000")
    assert gone.returncode == 1
    said = f"spit-tui join: nothing is listening at 127.0.0.1:{free}: is the host running?\n"
    assert one_line(gone) == said
    gone = run(f"127.0.0.1:{free}", "--new-room")
    assert gone.returncode == 1 and one_line(gone) == said


@pytest.mark.parametrize(
    "args",
    [
        ["127.0.0.1:99999", "00000-00000"],
        ["127.0.0.1:x", "00000-00000"],
        ["bad host:1", "00000-00000"],
        ["[::1", "00000-00000"],
        ["127.0.0.1", "short"],
        ["127.0.0.1", "00000-0000u"],
        ["127.0.0.1", "00000-00000", "--new-room"],
        ["127.0.0.1", "00000-00000", "--seat", "middle"],
        ["127.0.0.1", "00000-00000", "--layout", "klingon"],
        ["127.0.0.1", "00000-00000", "--keys", "/nonexistent/keys.toml"],
    ],
)
def test_bad_arguments_are_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["join", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("spit-tui join: "), err


def test_addresses_and_codes_as_typed() -> None:
    assert parse_address("example.org") == ("example.org", 7878)
    assert parse_address("127.0.0.1:9000") == ("127.0.0.1", 9000)
    assert parse_address("[::1]:9000") == ("::1", 9000)
    assert parse_address("::1") == ("::1", 7878)
    assert check_code("K3F9Q 2X7MZ") == "k3f9q-2x7mz"
    assert check_code("k3f9q2x7mo") == "k3f9q-2x7m0"


@pytest.mark.parametrize(
    "args", [["--wait", "0"], ["--wait", "nan"], ["--wait", "x"], ["--seat", "up"]]
)
def test_bad_host_options_are_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["host", "--port", "0", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("spit-tui host: "), err


def test_the_hosts_own_seat_needs_a_terminal() -> None:
    result = subprocess.run(
        [*SPIT, "host", "--port", "0", "--seat", "left", "--no-history"],
        capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == 1 and "terminal" in one_line(result)


def test_join_with_no_code_is_the_lobby_which_needs_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["join", "127.0.0.1"]) == 1  # the lobby's screen, and no terminal here
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a terminal" in err, err
