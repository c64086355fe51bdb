"""What a real OpenSSH client receives from the door, packet by packet (its
own -vvv log): no empty MSG_IGNORE before each packet (asyncssh's defence of
CBC ciphers, which the door does not use; it doubled the packets of every
frame a guest gets)."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from testkit.ssh import BOUND_S, served

pytestmark = pytest.mark.skipif(shutil.which("ssh") is None, reason="needs an ssh client")


async def test_the_door_sends_no_ignore_packets(tmp_path: Path) -> None:
    ident = tmp_path / "id"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(ident)], check=True)
    async with served(tmp_path) as s:
        ssh = await asyncio.create_subprocess_exec(
            "ssh", "-vvv", "-tt", "-i", str(ident), "-o", "IdentitiesOnly=yes",
            "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
            "-o", f"UserKnownHostsFile={tmp_path / 'kh'}", "-F", "/dev/null",
            "-p", str(s.port), "ana@127.0.0.1", "zz",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert ssh.stdout is not None and ssh.stderr is not None
        async with asyncio.timeout(BOUND_S):  # stdin stays open: the door ends the session
            out, err = await asyncio.gather(ssh.stdout.read(), ssh.stderr.read())
            await ssh.wait()
    log = err.decode(errors="replace")
    assert b"not a room code" in out  # the session ran: the door's line came through
    received = re.findall(r"receive packet: type (\d+)", log)
    assert received[-1] == "97"  # the log shows them all, to the channel's close
    assert "2" not in received, f"{received.count('2')} MSG_IGNORE of {len(received)} packets"
