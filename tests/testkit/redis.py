"""A real `redis-server` for a test: on a free loopback port, its files in the
test's own folder, stopped (and restartable on the same port) by the test.

Tests that need it skip, saying why, when redis-server or redis-py is
missing (.ci/run installs Debian's redis-server when it can)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
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


class HostProcess:
    """A real `spit-tui host` process with a directory, its first room's code
    (once `ready`), and its log lines (stderr, in a file of the test's folder).
    Several start side by side: start them all, then wait for each."""

    def __init__(self, folder: Path, url: str, *flags: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.log = folder / "host.log"
        env = {**os.environ, "SPIT_NO_HISTORY": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spit_tui", "host", "--port", "0", "--no-history",
             "--directory", url, *flags],
            stdout=subprocess.PIPE, stderr=self.log.open("w"), text=True, env=env,
        )  # fmt: skip
        self.port, self.code = 0, ""
        self.said: list[str] = []  # its first lines on stdout

    def ready(self) -> HostProcess:
        """Wait for its first line (the port and the first room's code)."""
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()
        m = re.fullmatch(r"hosting on 127\.0\.0\.1:(\d+); room code (\S+)\n", first)
        assert m, (first, self.lines())
        self.port, self.code = int(m[1]), m[2]
        self.said = [first, self.proc.stdout.readline(), self.proc.stdout.readline()]
        return self

    def lines(self) -> list[str]:
        return self.log.read_text(encoding="utf-8", errors="replace").splitlines()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def stop(self) -> int:
        """SIGTERM, as an operator stops it; the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(START_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.wait()


class SlowRelay:
    """A TCP relay on 127.0.0.1 that delivers every chunk `delay_s` late, in
    each direction, in order (a slow network or a slow Redis; any protocol)."""

    def __init__(self, target_port: int, delay_s: float) -> None:
        self.target_port = target_port
        self.delay_s = delay_s
        self.port = 0
        self.server: asyncio.Server | None = None

    async def start(self) -> None:
        server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self.server = server

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        try:
            await asyncio.gather(self._pump(reader, up_w), self._pump(up_r, writer))
        except asyncio.CancelledError:
            up_w.close()
            writer.close()

    async def _pump(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                await asyncio.sleep(max(0.0, due - loop.time()))
                if not data:
                    dst.close()
                    return
                dst.write(data)

        task = loop.create_task(deliver())
        try:
            while True:
                data = await src.read(65536)
                queue.put_nowait((loop.time() + self.delay_s, data))
                if not data:
                    break
            await task
        except (OSError, asyncio.CancelledError):
            task.cancel()
            dst.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
