"""Files a player did not write with care, read with care; files holding games
or seat tokens, kept private.

Reading (`read_small`): keys.toml, players.toml, `--keys FILE` and records are
read the way the decision log is opened. The path must name a regular file (a
symbolic link to one is fine; one to /dev/zero is not): a FIFO would hang the
start before the first frame, a device could be read for ever. The open never
blocks (O_NONBLOCK), never takes a terminal as the controlling one
(O_NOCTTY), checks the type again on the open descriptor, and reads at most
`limit` bytes: a bigger file is refused, never read whole.

Writing (`private_dir`, `create_private`): the history, crash reports, saved
records and seats.json hold games and seat tokens, which another local user
must not read: folders are 0700 and files 0600, and a folder made by an older
version with looser modes is tightened when it is used.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


class FileRefused(Exception):
    """The file cannot be read as asked; str() is the reason, in a player's words."""


def not_regular(mode: int) -> str | None:
    """What a file that is not a regular file is, in a player's words (None: regular)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "a symbolic link (give the file it points to)"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device or terminal, not a regular file"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    return "not a regular file"


def read_small(path: Path | str, limit: int) -> bytes:
    """The whole of a small regular file. FileNotFoundError if there is none;
    FileRefused for anything that is not a regular file of at most `limit`
    bytes; other OSError as the system gives it (permissions, I/O)."""
    st = os.stat(path)  # follows a link: what it points to must be a regular file
    kind = not_regular(st.st_mode)
    if kind is not None:
        raise FileRefused(f"it is {kind}")
    if st.st_size > limit:
        raise FileRefused(f"it is {st.st_size:,} bytes, more than the {limit:,} allowed")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        kind = not_regular(os.fstat(fd).st_mode)  # the path may have changed meanwhile
        if kind is not None:
            raise FileRefused(f"it is {kind}")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:  # it grew while being read
        raise FileRefused(f"it is more than the {limit:,} bytes allowed")
    return b"".join(chunks)


def tighten(path: Path, mode: int) -> None:
    """Take group and other permissions off a path we own (never fails)."""
    with contextlib.suppress(OSError):
        st = os.stat(path)
        if st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) & ~mode:
            os.chmod(path, stat.S_IMODE(st.st_mode) & mode)


def private_dir(path: Path) -> Path:
    """Make `path` if need be, and any missing parent, each 0700 (as the XDG
    base directory rules ask); `path` itself is tightened to 0700 if it was
    looser. OSError if it cannot be made."""
    missing = [p for p in (path, *path.parents) if not p.exists()]
    for p in reversed(missing):
        p.mkdir(mode=PRIVATE_DIR, exist_ok=True)
    tighten(path, PRIVATE_DIR)
    return path


def create_private(path: Path) -> int:
    """A new file, 0600 whatever the umask, open for writing; FileExistsError
    if there is one already."""
    return os.open(
        path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, PRIVATE_FILE
    )
