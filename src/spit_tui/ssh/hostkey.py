"""The SSH server's host key: made on first start, kept in the user data
directory (the file 0600, its folder 0700), the same key on every start so
guests' `known_hosts` keep matching. A key file that cannot be read is one
line, never a new key silently put in its place (guests would be told the
server changed, which is what a man in the middle looks like)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from spit_tui.paths import data_dir

if TYPE_CHECKING:
    import asyncssh

KEY_FILE = "ssh_host_ed25519_key"


class HostKeyError(Exception):
    """The key file exists but cannot be used: the one line says why."""


def default_path() -> Path:
    return data_dir() / KEY_FILE


def load_or_make(path: Path | None = None) -> tuple[asyncssh.SSHKey, bool]:
    """The host key at `path` (made if missing); (key, made now)."""
    import asyncssh

    path = path or default_path()
    if path.exists():
        try:
            return asyncssh.read_private_key(str(path)), False
        except (OSError, ValueError, asyncssh.KeyImportError) as e:
            raise HostKeyError(f"cannot read the host key {path}: {e}") from None
    key = asyncssh.generate_private_key("ssh-ed25519", comment="spit-tui ssh-serve")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(path.parent, 0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        raise HostKeyError(f"cannot keep the host key in {path}: {e.strerror or e}") from None
    return key, True


def fingerprint(key: asyncssh.SSHKey) -> str:
    """What `ssh` shows a guest on first connecting: SHA256:..."""
    return str(key.get_fingerprint("sha256"))
