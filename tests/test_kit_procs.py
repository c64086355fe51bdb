"""The kit's process stop (testkit.procs): Ctrl+C ends a process that handles
it; one that ignores it is killed at the bound and the test fails saying so,
never left running."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest
from testkit.procs import stop

WAIT_FOR_CTRL_C = (
    "import signal, sys, time\n"
    "{handler}\n"
    "try:\n"
    "    print('ready', flush=True)\n"
    "    time.sleep(60)\n"
    "except KeyboardInterrupt:\n"
    "    print('stopped', file=sys.stderr)\n"
    "    sys.exit(130)\n"
)


def started(handler: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", WAIT_FOR_CTRL_C.format(handler=handler)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    return proc


def test_ctrl_c_ends_it_and_what_it_said_is_returned() -> None:
    proc = started("")
    out, err = stop(proc)
    assert proc.returncode == 130 and err == "stopped\n" and out == ""


def test_one_that_ignores_ctrl_c_is_killed_and_the_test_fails() -> None:
    proc = started("signal.signal(signal.SIGINT, signal.SIG_IGN)")
    with pytest.raises(pytest.fail.Exception, match=r"did not end within 0\.5 s of SIGINT"):
        stop(proc, bound_s=0.5)
    assert proc.returncode == -signal.SIGKILL


def test_one_already_ended_is_only_read() -> None:
    proc = started("")
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=20)
    assert stop(proc, signal.SIGTERM) == ("", "stopped\n")
