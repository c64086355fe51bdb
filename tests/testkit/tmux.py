"""Real terminals for tests: a tmux server of the test's own (a private socket,
no user config, so nothing of the tester's tmux setup or other sessions is
touched), and a wait for a process to end. Each real-terminal suite builds
its own panes on `TmuxServer` and kills only the server it started."""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from collections.abc import Callable


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
        self.tmux("kill-server")


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
