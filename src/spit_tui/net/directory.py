"""The room directory many hosts share, with no Redis in it: what an entry
holds, how one is written and read back (strictly: an entry is untrusted,
whoever wrote it), and what the host's sessions may ask of a directory.

A room lives on exactly one host, start to finish (its table, clock, seats,
tokens and latency holds never cross hosts). The directory only maps a room's
code to the host that holds it, with what a player choosing a room wants to
know (seats free, watchers, the game's options). A host asked for a code it
does not hold answers `moved` with the room's host (docs/protocol.md):
the client then talks to that host directly. We redirect rather than proxy
because a proxy would put a second host on every key's path (a hop more, and
its load, for every press), would hide the player's real distance from the
room's host (the holds are built on the TCP round trip the host's own kernel
measures: net.latency), and would tie a game to the health of a host that
does not hold it; a redirect costs one round trip when joining, and nothing
after. The Redis shell is `net.redisdir` (redis-py, an optional extra).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit

from .protocol import (
    Message,
    boolean,
    host_text,
    int_in,
    listed_room,
    one_of,
    optional,
    shaped,
)

UNREACHABLE = "the directory is not reachable: try again"
TTL_S = 30.0  # an entry lives this long unless its host renews it (a dead host's rooms go)
MAX_ENTRY = 2048  # bytes of one entry; a longer one is malformed
KEY = "spit:room:"  # the key of room CODE is spit:room:CODE
QUEUE = "spit:quick"  # codes of quick-match rooms where a player waits
_ID = re.compile(r"[0-9a-f]{16}")


@dataclass(frozen=True)
class Entry:
    """One room in the directory: where it is and what it offers."""

    id: str  # the host process that holds it (16 hex digits, new at each start)
    host: str  # the address its players reach that host at
    port: int
    free: int  # seats no one has taken (0-2)
    away: int  # seats taken whose player's connection is gone (0-2)
    watchers: int
    variant: str
    target: int
    manual_flip: bool
    made: bool  # False: a code claimed ahead for a room not made yet (not a room to list)
    show: dict[str, Any] | None = None  # as the `rooms` list gives it, if one to watch

    def wire(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), sort_keys=True)

    def waiting(self) -> bool:
        """A quick match may pair with this room: a seat free, nobody gone."""
        return self.free >= 1 and self.away == 0


ENTRY_FIELDS = {
    "id": lambda v: isinstance(v, str) and _ID.fullmatch(v) is not None,
    "host": host_text,
    "port": int_in(1, 65535),
    "free": int_in(0, 2),
    "away": int_in(0, 2),
    "watchers": int_in(0, 10_000),
    "variant": one_of("standard", "points"),
    "target": int_in(1, 10_000),
    "manual_flip": boolean,
    "made": boolean,
    "show": optional(listed_room),
}
_is_entry = shaped(ENTRY_FIELDS)


def read_entry(raw: object) -> Entry | str:
    """An entry as stored, or why it is malformed (one line, for the log)."""
    if not isinstance(raw, bytes | str):
        return "not a string"
    if len(raw) > MAX_ENTRY:
        return f"{len(raw)} bytes (at most {MAX_ENTRY})"
    try:
        obj = json.loads(raw, parse_constant=lambda name: None)
    except (ValueError, RecursionError):
        return "not JSON"
    if not _is_entry(obj):
        return "not an entry (a field missing, extra or out of range)"
    return Entry(**obj)


def moved(entry: Entry, code: str) -> Message:
    """The answer of a host asked for a room that another host holds."""
    return {"type": "moved", "host": entry.host, "port": entry.port, "code": code}


Answer = Callable[[Message], None]


class Far(Protocol):
    """What a host's sessions ask of the directory (the host's one hook on it:
    `Lobby.far`). Both answer later, through `answer`, with a message for the
    client: `moved`, `room`, or `refused` (UNREACHABLE when Redis does not
    answer). Neither is ever on a key's path."""

    def find(self, code: str, answer: Answer) -> None:
        """Where room `code` is (it is not on this host)."""

    def quick(self, now: float, address: str, answer: Answer) -> None:
        """A quick match across the hosts: a room where a player waits, or a new one here."""

    def rooms(self, most: int, answer: Callable[[list[Message]], None]) -> None:
        """Up to `most` rooms to watch on the other hosts (none if Redis does not answer)."""


def parse_url(text: str) -> str | None:
    """Why `text` is not a Redis URL we take (redis://HOST[:PORT][/DB], or
    rediss:// for TLS, a password allowed), or None. Checked here so a bad
    one is one line at start, not a traceback from the client library."""
    try:
        u = urlsplit(text)
        port = u.port
    except ValueError:
        return "not a URL like redis://HOST:PORT/DB"
    if u.scheme not in ("redis", "rediss") or not u.hostname:
        return "not a URL like redis://HOST:PORT/DB"
    if not host_text(u.hostname) or (port is not None and not 1 <= port <= 65535):
        return "its host or port is not right"
    db = u.path.lstrip("/")
    if db and not (db.isdigit() and int(db) < 10_000):
        return f"its database is not a number: {db[:20]!r}"
    if u.query or u.fragment:
        return "it has options (?...) we do not take"
    return None


def safe_url(text: str) -> str:
    """The URL as a log line may show it: never its password."""
    u = urlsplit(text)
    if u.password is None:
        return text
    netloc = u.hostname or ""
    if u.port is not None:
        netloc += f":{u.port}"
    return u._replace(netloc=netloc).geturl()
