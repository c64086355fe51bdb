"""Real terminals for tests: a tmux server of the test's own (a private socket,
no user config, so nothing of the tester's tmux setup or other sessions is
touched), and a wait for a process to end. Each real-terminal suite builds
its own panes on `TmuxServer` and kills only the server it started."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Callable


def shows(text: str | tuple[str, ...] | Callable[[str], bool]) -> Callable[[str], bool]:
    """A screen's test: it holds `text`, or every text of a tuple (each wait for
    what a screen must show is for all of it at once: a terminal may be captured
    while its screen is half painted), or `text` is the test itself."""
    if isinstance(text, str):
        return lambda s: text in s
    if isinstance(text, tuple):
        return lambda s: all(t in s for t in text)
    return text


class TmuxServer:
    """`tmux -L <prefix>-<random> -f /dev/null ...`; `env` is the environment the
    server starts with (and so every pane's), unless a call gives its own."""

    def __init__(self, prefix: str, env: dict[str, str] | None = None) -> None:
        self.sock = f"{prefix}-{uuid.uuid4().hex[:8]}"
        self.env = env

    def tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        return subprocess.run(
            ["tmux", "-L", self.sock, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            check=False,
            env=self.env if env is None else env,
        ).stdout

    def wait_for(self, seen: Callable[[str], bool], timeout: float = 15) -> str:
        """The pane's screen once `seen` holds for it (a bound, not a speed)."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.tmux("capture-pane", "-p")
            if seen(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(screen)

    def close(self) -> None:
        """Kill the server, and with it every process its panes started (a closed
        terminal's hang-up). One still running LEFT_S after is killed and the
        test fails naming it: a `join` whose terminal had closed once ran on,
        spinning on the dead terminal, for the rest of the suite and after."""
        panes = [int(p) for p in self.tmux("list-panes", "-a", "-F", "#{pane_pid}").split()]
        self.tmux("kill-server")
        left = still_running(panes, LEFT_S)
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        assert not left, "still running after their terminal closed (killed):\n" + "\n".join(
            left.values()
        )


LEFT_S = 10.0  # a game stores its game and restores the terminal within a second or two


def _sessions() -> dict[int, tuple[int, str]]:
    """Every live process: pid -> (its session, its command line)."""
    out: dict[int, tuple[int, str]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            if fields[0] == b"Z":  # ended, not yet reaped
                continue
            with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:  # it ended meanwhile
            continue
        out[int(entry.name)] = (int(fields[3]), cmd)
    return out


def still_running(sessions: list[int], bound_s: float) -> dict[int, str]:
    """The processes of these sessions (a pane's process leads one) still running
    after up to `bound_s`: pid -> command line. Empty where /proc is missing."""
    if not sessions or not os.path.isdir("/proc"):
        return {}
    deadline = time.monotonic() + bound_s
    while True:
        left = {pid: cmd for pid, (sid, cmd) in _sessions().items() if sid in sessions}
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def process_state(pid: int) -> str:
    return subprocess.run(
        ["ps", "-o", "pid,stat,wchan,cmd", "-p", str(pid)], capture_output=True, text=True
    ).stdout


def gone(pid: int, timeout: float = 5.0, *, zombie_is_gone: bool = False) -> bool:
    """Whether the process ends within `timeout`. A pane's own command has tmux
    for a parent, which may not reap it at once: there `zombie_is_gone`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        if zombie_is_gone and "<defunct>" in process_state(pid):
            return True
        time.sleep(0.05)
    return False
