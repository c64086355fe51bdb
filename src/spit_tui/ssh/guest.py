"""`python -m spit_tui.ssh.guest ARGS`: the process the SSH door starts for a
guest, in the pseudo-terminal made for them. It makes that terminal its
controlling terminal in a session of its own (so the kernel tells it of
resizes with SIGWINCH, and a hang-up reaches it), then runs `spit-tui ARGS`
exactly as a person at a terminal would."""

from __future__ import annotations

import os
import sys


def main() -> int:
    os.login_tty(0)  # stdin is the guest's pseudo-terminal: setsid, TIOCSCTTY, dup to 0-2
    from spit_tui.cli import main as spit_tui

    return spit_tui(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
