"""A real `redis-server` for a test: on a free loopback port, its files in the
test's own folder, stopped (and restartable on the same port) by the test.

Tests that need it skip, saying why, when redis-server or redis-py is
missing (.ci/run installs Debian's redis-server when it can)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

START_S = 10.0  # a bound on redis-server's start, not a speed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """One redis-server process; `url` for the hosts, `stop`/`start` to take it
    away and bring it back (its data kept in `folder`, as a real restart keeps it)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        exe = shutil.which("redis-server")
        assert exe is not None
        self.proc = subprocess.Popen(
            [exe, "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.folder),
             "--save", "3600 1", "--appendonly", "no", "--protected-mode", "yes",
             "--logfile", str(self.folder / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        end = time.monotonic() + START_S
        while time.monotonic() < end:
            with contextlib.suppress(OSError), socket.create_connection(
                ("127.0.0.1", self.port), timeout=0.2
            ) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        """SIGTERM: Redis saves its data and exits (as an operator's restart does)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(START_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def pause(self, on: bool) -> None:
        """SIGSTOP / SIGCONT: a Redis that stands still (answers nothing)."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP if on else signal.SIGCONT)

    def client(self) -> object:
        """A plain (blocking) redis-py client, for a test to look and to plant entries."""
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2.0)


def need_redis() -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    try:
        import redis  # noqa: F401
    except ImportError:
        pytest.skip("redis-py is not installed (pip install -e '.[test]')")


@contextlib.contextmanager
def redis_server(folder: Path) -> Iterator[RedisServer]:
    """A started redis-server, stopped when the block ends (a busy port: tried again)."""
    need_redis()
    for attempt in range(3):
        server = RedisServer(folder)
        try:
            server.start()
            break
        except RuntimeError:
            server.stop()
            if attempt == 2:
                raise
    try:
        yield server
    finally:
        if server.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(server.proc.pid, signal.SIGCONT)
        server.stop()
