"""`spit-tui host` as a player starts it: a code to join with, one line for a
bad argument or an address it cannot have, and Ctrl+C stops it cleanly."""

from __future__ import annotations

import re
import subprocess
import sys

from testkit.procs import stop

from spit_tui.cli import main

HOST = [sys.executable, "-m", "spit_tui", "host"]


def test_host_prints_a_room_code_and_stops_on_ctrl_c() -> None:
    proc = subprocess.Popen(
        [*HOST, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        line = r"hosting on 127\.0\.0\.1:(\d+); room code ([0-9a-z]{5}-[0-9a-z]{5})\n"
        m = re.fullmatch(line, first)
        assert m, first
        assert f"join 127.0.0.1:{m[1]} {m[2]}" in proc.stdout.readline()
    finally:
        _out, err = stop(proc)
    assert proc.returncode == 130
    assert err.strip() == "spit-tui host: stopped"


def test_an_ipv6_host_prints_an_address_join_can_read() -> None:
    import socket

    from spit_tui.net.joincmd import parse_address

    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        import pytest

        pytest.skip("no IPv6 loopback here")
    proc = subprocess.Popen(
        [*HOST, "--bind", "::1", "--port", "0", "--no-history"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert re.fullmatch(r"hosting on \[::1\]:\d+; room code \S+\n", first), first
        invite = proc.stdout.readline().split()
        assert invite[:3] == ["join", "with:", "spit-tui"] and invite[3] == "join", invite
        host, port = parse_address(invite[4])
        assert host == "::1" and 0 < port < 65536
        with socket.create_connection((host, port), timeout=5):
            pass  # the printed address reaches the host
    finally:
        stop(proc)
    assert proc.returncode == 130


def test_bad_arguments_and_addresses_are_one_line(capsys: object) -> None:
    import pytest

    cap = capsys
    assert isinstance(cap, pytest.CaptureFixture)
    assert main(["host", "--port", "99999"]) == 2
    err = cap.readouterr().err
    assert err.count("\n") == 1 and "port" in err
    assert main(["host", "--bind", "999.1.1.1", "--port", "0"]) == 1
    err = cap.readouterr().err
    assert err.count("\n") == 1 and "cannot listen on 999.1.1.1" in err
    # a name is the seat's, and a name as for any player
    assert main(["host", "--name", "Ana", "--port", "0"]) == 2
    err = cap.readouterr().err
    assert err.count("\n") == 1 and "--name is for the seat played here: add --seat" in err
    assert main(["host", "--seat", "left", "--name", "日本", "--port", "0"]) == 2
    err = cap.readouterr().err
    assert err.count("\n") == 1 and "--name: a name has no characters drawn wider" in err
    # the seat's keys are chosen as for every board, and the line names the command
    assert main(["host", "--seat", "left", "--layout", "xx", "--port", "0"]) == 2
    err = cap.readouterr().err
    assert err.count("\n") == 1 and err.startswith("spit-tui host: --layout: no layout 'xx'"), err
