"""A Session's connection over an asyncio stream: what the host sends a
client, how it says goodbye, and how near the client is, as TCP measured it.

A client that stops reading is closed once its send buffer passes
WRITE_LIMIT; after any goodbye it has LINGER_S to read the reason and
ABORT_S more, then the transport is aborted, so a client that never reads
cannot keep a buffer and a descriptor for as long as it likes.
"""

from __future__ import annotations

import asyncio
import socket
import struct

from .protocol import Message, encode, refused

WRITE_LIMIT = 256 * 1024  # bytes waiting to go to a client that is not reading
WATCH_LIMIT = 16 * 1024  # bytes waiting to a watcher before it skips views
LINGER_S = 0.5  # after a refusal, how long what the client still sends is read and dropped
ABORT_S = 2.0  # then how long a client that reads nothing has to take the goodbye
TCP_INFO_SIZE = 232  # bytes of struct tcp_info asked for (Linux 4.6 and later have this much)
TCPI_MIN_RTT = 148  # offset of tcpi_min_rtt (microseconds) in struct tcp_info


class StreamConn:
    """A Session's connection over an asyncio stream."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.closed = False

    def proven_rtt(self) -> float | None:
        """The lowest round trip the kernel's TCP has measured on this connection
        (tcp_info's tcpi_min_rtt, Linux): the client's kernel sends the ACKs it
        is measured by, so a client program that answers pings late cannot
        raise it. None where the system does not say."""
        sock = self.writer.get_extra_info("socket")
        if sock is None or not hasattr(socket, "TCP_INFO"):
            return None
        try:
            info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_SIZE)
        except OSError:
            return None
        if len(info) < TCPI_MIN_RTT + 4:
            return None
        (us,) = struct.unpack_from("=I", info, TCPI_MIN_RTT)
        return None if us in (0, 0xFFFFFFFF) else us / 1e6

    def busy(self) -> bool:
        """More than WATCH_LIMIT waits to go: a watcher skips views meanwhile."""
        return self.writer.transport.get_write_buffer_size() > WATCH_LIMIT

    def send(self, msg: Message) -> None:
        self.send_frame(encode(msg))

    def send_frame(self, data: bytes) -> None:
        """Frames already encoded (a room's views are encoded once for all who see them).
        Nothing is written once the line is gone (the peer closed it, and the read
        side has not said so yet): asyncio would drop it with a warning each time."""
        transport = self.writer.transport
        if self.closed or transport.is_closing():
            return
        if transport.get_write_buffer_size() > WRITE_LIMIT:
            self.close("too far behind: not reading")
            return
        self.writer.write(data)

    def close(self, reason: str, ends: str | None = None) -> None:
        if self.closed:
            return
        self.closed = True
        goodbye = {"type": "bye", "reason": reason} if reason == "bye" else refused(reason, ends)
        try:
            self.writer.write(encode(goodbye))
            if self.writer.can_write_eof():
                self.writer.write_eof()
        except (OSError, RuntimeError):
            pass
        # Closing at once, with the client's unread frames still in our buffer,
        # would reset the connection and lose the line that says why.
        loop = asyncio.get_running_loop()
        loop.call_later(LINGER_S, self.writer.close)
        # A client that never reads would keep the buffer (and a descriptor)
        # for as long as it liked: after a short grace it is cut off.
        loop.call_later(LINGER_S + ABORT_S, self.writer.transport.abort)
