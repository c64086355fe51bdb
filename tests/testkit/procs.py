"""Stopping a process a test started (a `host`, an `ssh-serve`, a `serve`) the
way a person at its terminal does: Ctrl+C, then wait. One that does not end
within the bound is killed, so no test leaves a server running behind it on a
timeout (one did: its Ctrl+C wait timed out and the host ran on), and the test
fails saying which process ignored which signal."""

from __future__ import annotations

import contextlib
import signal
import subprocess
from typing import Any

import pytest

BOUND_S = 20.0  # a host ends within about a second of Ctrl+C; 20 s is for load


def stop(
    proc: subprocess.Popen[Any], sig: int = signal.SIGINT, bound_s: float = BOUND_S
) -> tuple[Any, Any]:
    """Send `sig` (Ctrl+C unless told) and wait up to `bound_s` for the process to
    end; return what it wrote after that (stdout, stderr: None for a stream not
    piped). Past the bound it is killed and the test fails. A process that had
    already ended is only read."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):  # it ended just now
            proc.send_signal(sig)
    try:
        return proc.communicate(timeout=bound_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        _out, err = proc.communicate()
        name = signal.Signals(sig).name
        pytest.fail(
            f"{proc.args!r} did not end within {bound_s:g} s of {name}; killed.\n"
            f"stderr: {err!r}"
        )
