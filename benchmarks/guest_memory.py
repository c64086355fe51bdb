"""What a guest's game process costs in memory, and what a lighter way would
save (issue 20: the SSH door starts one `spit-tui join` process per guest).

    python benchmarks/guest_memory.py [--guests 6] [--json]

A game host runs in a process of its own on 127.0.0.1; N guests, each in a
pseudo-terminal of its own (100x30), open the lobby, take a quick match in
pairs and play a few keys; then each guest's resident set (RSS), proportional
share (PSS) and unique set (USS) are read from /proc/PID/smaps_rollup. Three
ways:
- exec:    a fresh `python -m spit_tui join` per guest (what the door does);
- fork:    children forked from one template process that imported the game's
           modules first (gc.freeze() before forking): a "zygote" door;
- imports: one process that only imports those modules: its USS is what a
           guest's process spends before it draws anything, so a guest's USS
           less it is about what an in-process guest (one Textual app per
           guest in the door's own process) would cost.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import gc
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from typing import Any

HOST = """
import asyncio
from spit_tui.net.host import Host
from spit_tui.net.limits import Limits
async def main():
    h = Host(bind="127.0.0.1", port=0, limits=Limits.relayed())
    await h.start()
    print(h.port, flush=True)
    await asyncio.Event().wait()
asyncio.run(main())
"""
MODULES = (
    "spit_tui.cli", "spit_tui.net.joincmd", "spit_tui.net.remote", "spit_tui.app.join",
    "spit_tui.app.lobby", "spit_tui.app.lobbyscreens", "spit_tui.app.board",
    "spit_tui.app.screens", "textual.drivers.linux_driver",
)  # fmt: skip


def memory_mb(pid: int) -> tuple[float, float, float]:
    """RSS, PSS, USS of process `pid` (MB)."""
    got: dict[str, int] = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if rest.split():
                got[key] = int(rest.split()[0])
    uss = got.get("Private_Clean", 0) + got.get("Private_Dirty", 0)
    return got.get("Rss", 0) / 1024, got.get("Pss", 0) / 1024, uss / 1024


def _import_all() -> None:
    import importlib

    for name in MODULES:
        importlib.import_module(name)


def imports_only() -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {os.path.dirname(__file__)!r});"
         "import guest_memory as g, os; g._import_all(); print(*g.memory_mb(os.getpid()))"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    rss, pss, uss = (float(x) for x in done.stdout.split())
    return {"rss_mb": round(rss, 1), "pss_mb": round(pss, 1), "uss_mb": round(uss, 1)}


def guests(n: int, mode: str) -> dict[str, Any]:
    """N guests started the `mode` way ("exec" or "fork"), in pairs in games."""
    from children import die_with_parent

    host = subprocess.Popen([sys.executable, "-c", HOST], stdout=subprocess.PIPE, text=True,
                            preexec_fn=die_with_parent)
    kids: list[tuple[int, int]] = []
    try:
        assert host.stdout is not None
        port = int(host.stdout.readline())
        argv = ["join", f"127.0.0.1:{port}", "--no-history"]
        env = dict(os.environ, SPIT_LAYOUT="us", TERM="xterm-256color", LC_ALL="C.UTF-8")
        if mode == "fork":
            _import_all()
            gc.collect()
            gc.freeze()  # the template's objects stay out of the children's collections
        for i in range(n):
            pid, fd = pty.fork()
            if pid == 0:  # the guest
                env["SPIT_PLAYER_NAME"] = f"g{i}"
                if mode == "fork":
                    os.environ.clear()
                    os.environ.update(env)
                    from spit_tui.cli import main

                    os._exit(main(argv))
                os.execve(sys.executable, [sys.executable, "-m", "spit_tui", *argv], env)
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
            kids.append((pid, fd))
        seen = {fd: b"" for _, fd in kids}

        def pump(seconds: float) -> None:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                ready, _, _ = select.select(list(seen), [], [], 0.05)
                for fd in ready:
                    with contextlib.suppress(OSError):
                        seen[fd] = (seen[fd] + os.read(fd, 65536))[-20000:]

        pump(6.0)
        for _, fd in kids:  # quick match: the next two are paired
            os.write(fd, b"q")
            pump(0.8)
        pump(4.0)
        for _, fd in kids:  # both spit, and a few keys of each half
            os.write(fd, b"qwertyuiop")
        pump(4.0)
        boards = sum(b"pile a" in seen[fd] for _, fd in kids)
        ms = [memory_mb(pid) for pid, _ in kids]
        return {
            "guests": n, "on_a_board": boards,
            "rss_mb": round(sum(m[0] for m in ms) / n, 1),
            "pss_mb": round(sum(m[1] for m in ms) / n, 1),
            "uss_mb": round(sum(m[2] for m in ms) / n, 1),
        }  # fmt: skip
    finally:
        for pid, fd in kids:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(fd)
        host.kill()
        host.wait()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--guests", type=int, default=6)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    n = max(2, min(40, args.guests))
    out = {"exec": guests(n, "exec"), "imports": imports_only()}
    # forked from a process of its own: this one has run a host and guests already
    done = subprocess.run([sys.executable, __file__, "--fork-only", str(n)],
                          capture_output=True, text=True, check=True)
    out["fork"] = json.loads(done.stdout)
    out["in_process_estimate_mb"] = round(out["exec"]["uss_mb"] - out["imports"]["uss_mb"], 1)
    print(json.dumps(out, indent=2 if args.json else None))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--fork-only":
        print(json.dumps(guests(int(sys.argv[2]), "fork")))
        sys.exit(0)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from userdirs import temporary_user_dirs

    with temporary_user_dirs():
        sys.exit(main())
