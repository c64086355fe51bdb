"""Who may come in, and how many: the SSH door's limits with no sockets in
sight, so tests drive them directly.

- `--authorized-keys FILE`: only those public keys (OpenSSH's format); with
  no file, any key. Passwords are never offered: a guest's key is its
  identity (keyboard-interactive only shows a guest turned away why:
  server.no_entry_hint).
- the player's name is the SSH user name (names.name_problem decides).
- sessions at once: `per_address` from one address, `total` in all.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from spit_tui.names import name_problem

PER_ADDRESS = 3  # sessions at once from one address (a household, a lab)
TOTAL = 40  # sessions at once in all: ~40 MB each (docs/performance.md), two cores' worth
if TYPE_CHECKING:
    from asyncssh import SSHAuthorizedKeys, SSHKey

MAX_KEYS_BYTES = 1024 * 1024


class KeysError(Exception):
    """The authorized keys file cannot be used: the one line says why."""


def read_authorized(path: Path) -> SSHAuthorizedKeys:
    """The keys listed in `path` (OpenSSH's authorized_keys format, its
    `from=` options included), or KeysError."""
    import asyncssh

    try:
        if path.stat().st_size > MAX_KEYS_BYTES:
            raise KeysError(f"{path}: more than {MAX_KEYS_BYTES} bytes; is it a keys file?")
        text = path.read_text(encoding="utf-8")
        if not any(ln.strip() and not ln.lstrip().startswith("#") for ln in text.splitlines()):
            raise KeysError(f"{path} lists no public key: nobody could come in")
        return asyncssh.import_authorized_keys(text)
    except OSError as e:
        raise KeysError(f"cannot read {path}: {e.strerror or e}") from None
    except (ValueError, asyncssh.KeyImportError) as e:
        raise KeysError(f"{path} is not an authorized keys file: {e}") from None


def guest_name_problem(name: str) -> str | None:
    """Why this SSH user name cannot be a player's name, or None."""
    return name_problem(name)


@dataclass
class Admission:
    """Sessions by address; `enter` says no in one line, or counts one in."""

    per_address: int = PER_ADDRESS
    total: int = TOTAL
    allowed: SSHAuthorizedKeys | None = None  # None: any key
    open_by_address: Counter[str] = field(default_factory=Counter)

    def key_allowed(self, key: SSHKey, address: str) -> bool:
        if self.allowed is None:
            return True
        return self.allowed.validate(key, address, address) is not None

    def enter(self, address: str) -> str | None:
        """Count a session in, or say why not (nothing counted then)."""
        if sum(self.open_by_address.values()) >= self.total:
            return f"the server is full ({self.total} players); try again later"
        if self.open_by_address[address] >= self.per_address:
            return (
                f"{self.per_address} sessions from your address already "
                "(the most one address may have); end one first"
            )
        self.open_by_address[address] += 1
        return None

    def leave(self, address: str) -> None:
        self.open_by_address[address] -= 1
        if self.open_by_address[address] <= 0:
            del self.open_by_address[address]
