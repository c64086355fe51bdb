"""The door's first question, before any game: which room? A small line
editor over the guest's raw bytes (no sockets here, so tests feed it bytes).

Typed letters, digits and dashes are echoed; Backspace erases; Enter
answers (an empty line: a new room); Ctrl+C or Ctrl+D leaves. Anything else
(arrows, function keys, pasted control bytes) is dropped, never echoed, so
nothing the guest sends can move their cursor or reach their terminal.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_TYPED = 20
ALLOWED = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789- ")
ENTER = frozenset(b"\r\n")
ERASE = frozenset(b"\x7f\x08")
LEAVE = frozenset(b"\x03\x04")


@dataclass(frozen=True)
class Answer:
    """What the guest asked for: a code as typed, or "" for a new room."""

    text: str


@dataclass(frozen=True)
class Leave:
    """Ctrl+C or Ctrl+D at the question."""


class LinePrompt:
    """Feed it bytes; it returns what to echo and, once, the answer."""

    def __init__(self) -> None:
        self.typed = ""
        self._escape = 0  # 0: plain; 1: after ESC; 2: inside a CSI/SS3 sequence
        self.done = False

    def feed(self, data: bytes) -> tuple[bytes, Answer | Leave | None]:
        echo = bytearray()
        for b in data:
            if self.done:
                break
            if self._escape == 1:
                self._escape = 2 if b in b"[O" else 0
                continue
            if self._escape == 2:
                if 0x40 <= b <= 0x7E:
                    self._escape = 0
                continue
            if b == 0x1B:
                self._escape = 1
            elif b in ENTER:
                self.done = True
                echo += b"\r\n"
                return bytes(echo), Answer(self.typed.strip())
            elif b in LEAVE:
                self.done = True
                echo += b"\r\n"
                return bytes(echo), Leave()
            elif b in ERASE:
                if self.typed:
                    self.typed = self.typed[:-1]
                    echo += b"\b \b"
            elif chr(b) in ALLOWED and len(self.typed) < MAX_TYPED:
                self.typed += chr(b)
                echo.append(b)
        return bytes(echo), None
