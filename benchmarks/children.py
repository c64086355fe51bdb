"""One home for "no process a benchmark starts outlives it"."""

from __future__ import annotations

import signal


def die_with_parent() -> None:
    """In a process this run starts, before it runs: the kernel kills it if the
    run dies first (a smoke test's timeout kills the run with SIGKILL), so no
    server or load outlives its run (Linux's PR_SET_PDEATHSIG)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
