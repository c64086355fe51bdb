"""What the SSH door's hop alone adds to a key: a byte typed, a frame back.

    python benchmarks/ssh_hop.py [--rounds N] [--busy-thread] [--json]

A tiny program (ECHO: raw mode; for each byte read, one write of a frame of
about 500 bytes, as the game writes a key's changes) runs two ways, measured
alternately in blocks: on a pseudo-terminal of this process (direct), and as
an SSH guest: a real `ssh -tt` client on a pseudo-terminal of this process,
through the door's server (asyncssh, in a thread here) into the guest's own
pseudo-terminal. Each round is the time from writing the byte to having read
the whole frame back; the difference of the medians is the door's hop (the
client's and the server's encryption both ways, the TCP hop, and one more
pseudo-terminal each way). Also the CPU a round costs the door's thread and
the ssh client (/proc schedstat), and the cipher the two agreed on.

`--busy-thread` adds what benchmarks/ssh_latency.py's --in-process did to the
door: a thread of this process that starts one short process after another
(as a tmux command a poll does). The door's thread then waits for the
interpreter's lock at each of its hops.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Any

ECHO = r"""
import os, tty
tty.setraw(0)
FRAME = b"\x1b[?2026h" + b"".join(
    b"\x1b[%d;10H\x1b[38;5;%dm card %d " % (i, i, i) for i in range(1, 20)
) + b"\x1b[?2026l"
os.write(1, b"ready")
while True:
    got = os.read(0, 1024)
    if not got or b"\x03" in got:
        break
    os.write(1, FRAME)
"""
BLOCK = 25  # rounds of one way before the other's
TIMEOUT_S = 5.0


def frame_bytes() -> int:
    ns: dict[str, Any] = {}
    exec(ECHO.split("os.write(1, b")[0].replace("tty.setraw(0)", ""), ns)
    return len(ns["FRAME"])


def on_pty(argv: list[str]) -> tuple[int, subprocess.Popen[bytes]]:
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    tty.setraw(master)
    return master, proc


def read_until(fd: int, marker: bytes | int, bound: float = TIMEOUT_S) -> None:
    """Read `fd` until `marker` was seen (bytes) or that many bytes came (int)."""
    got = b""
    end = time.perf_counter() + bound
    while (marker not in got) if isinstance(marker, bytes) else (len(got) < marker):
        if not select.select([fd], [], [], max(0.0, end - time.perf_counter()))[0]:
            raise RuntimeError(f"nothing more after {got[-80:]!r}")
        got += os.read(fd, 65536)


def rounds(fd: int, n: int, size: int) -> list[float]:
    out = []
    for _ in range(n):
        time.sleep(0.01)  # each round on its own, as keys are
        t = time.perf_counter()
        os.write(fd, b"x")
        read_until(fd, size)
        out.append(time.perf_counter() - t)
    return out


def cpu_s(pid: int) -> float:
    """Time on a CPU so far (ns precision, unlike /proc/PID/stat's ticks)."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9


def run(n: int, busy_thread: bool) -> dict[str, Any]:
    import asyncssh

    from spit_tui.ssh import server
    from spit_tui.ssh.admission import Admission
    from spit_tui.ssh.guestpty import GuestPty

    tmp = Path(tempfile.mkdtemp(prefix="spit-ssh-hop-"))
    echo = tmp / "echo.py"
    echo.write_text(ECHO)

    class EchoPty(GuestPty):
        program = (str(echo),)

    server.GuestPty = EchoPty  # type: ignore[misc]  # the door starts ECHO for a guest
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def call(coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, loop).result(20)

    async def thread_cpu() -> float:
        return time.thread_time()

    door = server.Door(("127.0.0.1", 9), Admission(per_address=4, total=4), guest_home=tmp / "g")
    acceptor = call(server.listen(door, asyncssh.generate_private_key("ssh-ed25519"),
                                  "127.0.0.1", 0))  # fmt: skip
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp / "id")],
                   check=True)  # fmt: skip
    ssh = [
        "ssh", "-tt", "-i", str(tmp / "id"), "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
        "-o", "StrictHostKeyChecking=accept-new", "-o", f"UserKnownHostsFile={tmp / 'kh'}",
        "-p", str(door.port), "hop@127.0.0.1", "abcde-fghij",
    ]  # fmt: skip
    size = frame_bytes()
    direct, dproc = on_pty([sys.executable, str(echo)])
    guest, gproc = on_pty(ssh)
    stop = threading.Event()
    try:
        read_until(direct, b"ready")
        read_until(guest, b"ready", 20.0)
        conn = next(iter(door.sessions)).server.conn
        assert conn is not None
        cipher = conn.get_extra_info("send_cipher")
        if busy_thread:

            def busy() -> None:
                while not stop.is_set():
                    subprocess.run(["true"], check=False)

            threading.Thread(target=busy, daemon=True).start()
        lat: dict[str, list[float]] = {"direct": [], "ssh": []}
        door_cpu = client_cpu = 0.0
        for _ in range(max(1, n // BLOCK)):
            lat["direct"] += rounds(direct, BLOCK, size)
            d0, c0 = call(thread_cpu()), cpu_s(gproc.pid)
            lat["ssh"] += rounds(guest, BLOCK, size)
            door_cpu += call(thread_cpu()) - d0
            client_cpu += cpu_s(gproc.pid) - c0
    finally:
        stop.set()
        for fd, proc in ((direct, dproc), (guest, gproc)):
            os.write(fd, b"\x03")
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            os.close(fd)

        async def close() -> None:
            await door.stop()
            acceptor.close()

        call(close())
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
    out: dict[str, Any] = {"rounds": len(lat["ssh"]), "busy_thread": busy_thread,
                           "cipher": cipher, "frame_bytes": size}  # fmt: skip
    for k, xs in lat.items():
        s = sorted(xs)
        out[k] = {"median_ms": round(statistics.median(s) * 1000, 3),
                  "p90_ms": round(s[int(0.9 * (len(s) - 1))] * 1000, 3)}  # fmt: skip
    out["hop_ms_p50"] = round(out["ssh"]["median_ms"] - out["direct"]["median_ms"], 3)
    out["door_cpu_us_per_round"] = round(door_cpu / len(lat["ssh"]) * 1e6, 1)
    out["ssh_client_cpu_us_per_round"] = round(client_cpu / len(lat["ssh"]) * 1e6, 1)
    out["loadavg"] = os.getloadavg()[0]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=400)
    ap.add_argument("--busy-thread", action="store_true",
                    help="a thread here starting processes (as --in-process had)")  # fmt: skip
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    res = run(args.rounds, args.busy_thread)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        for k in ("direct", "ssh"):
            print(f"{k:6} median {res[k]['median_ms']:.3f} ms  p90 {res[k]['p90_ms']:.3f} ms")
        print(f"the door's hop {res['hop_ms_p50']} ms; CPU a round: door "
              f"{res['door_cpu_us_per_round']} us, ssh client "
              f"{res['ssh_client_cpu_us_per_round']} us; {res['cipher']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
