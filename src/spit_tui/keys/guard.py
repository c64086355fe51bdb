"""The fragment guard: terminal bytes that belong to an escape sequence never
become game keys, and a paste that never ends never freezes input.

What it works around, in Textual 8.2.8's `XTermParser`:

- A sequence that arrives in pieces (a laggy SSH link splits a mouse report
  `ESC [ < 0 ; 10 ; 5 M`, or Ctrl+Up `ESC [ 1 ; 5 A`) is given up after
  ESCDELAY (0.1 s) and *reissued as keys*: `;` then plays for the right player,
  and the late `M` or `A` is a key too. An unknown sequence is kept open until
  32 characters have arrived (swallowing real keys) and then reissued as keys.
- After `ESC [ 200 ~` (bracketed paste start) every byte is pasted text until
  `ESC [ 201 ~` arrives: if it never does, Ctrl+Q, F1, Esc and game keys do
  nothing, for ever.

So the guard sits in front of that parser and hands it only whole sequences:
what follows a lone ESC or an unfinished CSI (or SS3, or a string sequence) is
held back until the sequence completes, and dropped if it has not within
FRAGMENT_S (0.5 s). A complete sequence that Textual would not recognise (it
would swallow the keys after it) is dropped too. A lone ESC with nothing after
it for ESCAPE_S is the Escape key, as in Textual; a `[` or `O` arriving within
FRAGMENT_S after it is the rest of a split sequence, and is dropped whole (so a
sequence split right after its first byte acts at most as Escape: close a
dialog; no game key). A paste that has not ended within PASTE_S (1 s) is
dropped, and so is the rest of it until the input pauses for DRAIN_S.

Pure: the clock is passed in, and nothing here imports Textual (the caller
says which complete sequences its parser knows).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum, auto

ESC = "\x1b"
ESCAPE_S = 0.1  # Textual's ESCDELAY: a lone ESC this long is the Escape key
FRAGMENT_S = 0.5  # an unfinished sequence is dropped after this long
PASTE_S = 1.0  # a bracketed paste must end within this long, or it is dropped
DRAIN_S = 0.2  # after a dropped paste, input resumes once it pauses this long
MAX_SEQUENCE = 32  # Textual reissues longer sequences as keys: drop them
MAX_STRING = 4096  # OSC/DCS strings (never asked for): dropped, bounded
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
KITTY_FLAGS = re.compile(r"\x1b\[\?(\d+)u")  # the answer to the query CSI ? u


class _State(Enum):
    NORMAL = auto()
    ESC = auto()
    CSI = auto()
    SS3 = auto()
    STRING = auto()
    X10 = auto()  # CSI M and three raw bytes: an old-style mouse report
    SKIP = auto()  # the rest of an overlong CSI, up to its final byte
    PASTE = auto()
    DRAIN = auto()


class FragmentGuard:
    """Feed it decoded terminal text; it returns the text to parse now.

    `known(seq)` says whether the parser behind understands a complete
    sequence. Kitty flag reports are kept in `kitty_flags` (never passed on),
    and what was dropped is counted in `dropped` (for tests and the docs)."""

    def __init__(self, now: Callable[[], float], known: Callable[[str], bool]) -> None:
        self.now = now
        self.known = known
        self.state = _State.NORMAL
        self.buf: list[str] = []
        self.started = 0.0
        self.late = False  # this sequence's ESC already acted as the Escape key
        self.esc_at: float | None = None  # when a lone ESC was passed on as Escape
        self.last_input = 0.0
        self.tail = ""  # the last characters of a paste, to see its end
        self.kitty_flags: int | None = None
        self.dropped: list[str] = []

    @property
    def holding(self) -> bool:
        return self.state is not _State.NORMAL

    def feed(self, data: str) -> str:
        now = self.now()
        self.last_input = now
        if self.state is _State.NORMAL and ESC not in data and self.esc_at is None:
            return data  # the common case: plain keys
        out: list[str] = []
        for ch in data:
            self._step(ch, now, out)
        return "".join(out)

    def tick(self) -> tuple[str, bool]:
        """Time-outs: (text to parse now, whether it is a lone Escape that the
        parser should take as the Escape key at once)."""
        now = self.now()
        st = self.state
        if self.esc_at is not None and now - self.esc_at >= FRAGMENT_S:
            self.esc_at = None
        if st is _State.ESC and now - self.started >= ESCAPE_S and not self.late:
            self._reset()
            self.esc_at = self.started
            return ESC, True
        if st in (_State.ESC, _State.CSI, _State.SS3, _State.STRING, _State.X10, _State.SKIP):
            if now - self.started >= FRAGMENT_S:
                self._drop()
        elif st is _State.PASTE and now - self.started >= PASTE_S:
            self._drop()
            self.state = _State.DRAIN
        elif st is _State.DRAIN and now - self.last_input >= DRAIN_S:
            self.state = _State.NORMAL
        return "", False

    # -- the state machine ----------------------------------------------------------

    def _reset(self) -> None:
        self.state = _State.NORMAL
        self.buf = []
        self.late = False

    def _drop(self) -> None:
        if self.buf:
            self.dropped.append("".join(self.buf))
        self._reset()

    def _start(self, now: float) -> None:
        self.state = _State.ESC
        self.buf = [ESC]
        self.started = now
        self.late = False

    def _step(self, ch: str, now: float, out: list[str]) -> None:
        st = self.state
        if st is _State.NORMAL:
            if ch == ESC:
                self._start(now)
            elif ch in "[O" and self.esc_at is not None and now - self.esc_at < FRAGMENT_S:
                # the rest of a sequence whose ESC was already taken as Escape
                self.state = _State.CSI if ch == "[" else _State.SS3
                self.buf = [ESC, ch]
                self.started = self.esc_at
                self.late = True
                self.esc_at = None
            else:
                self.esc_at = None
                out.append(ch)
            return
        if st is _State.PASTE or st is _State.DRAIN:
            # nothing in the game takes pasted text: a whole paste is dropped
            self.tail = (self.tail + ch)[-len(PASTE_END) :]
            if self.tail == PASTE_END:
                if st is _State.PASTE:
                    self.dropped.append(PASTE_START + "..." + PASTE_END)
                self._reset()
            return
        if st is _State.SKIP:
            if 0x40 <= ord(ch) <= 0x7E:
                self._reset()
            return
        if st is _State.ESC:
            if ch == "[":
                self.state = _State.CSI
            elif ch == "O":
                self.state = _State.SS3
            elif ch in "]P_^X":
                self.state = _State.STRING
            elif ch == ESC:
                out.append(ESC)  # ESC ESC: the first is the Escape key (as Textual has it)
                self._start(now)
                return
            else:
                out.append(ESC + ch)  # Alt+key
                self._reset()
                return
            self.buf.append(ch)
            return
        if st is _State.CSI:
            code = ord(ch)
            if 0x20 <= code <= 0x3F:
                self.buf.append(ch)
                if len(self.buf) > MAX_SEQUENCE:
                    self._drop()
                    self.state = _State.SKIP
                    self.started = now
                return
            if 0x40 <= code <= 0x7E:
                self.buf.append(ch)
                if self.buf == [ESC, "[", "M"]:
                    self.state = _State.X10
                    return
                self._complete(out, now)
                return
            self._broken(ch, now, out)
            return
        if st is _State.SS3:
            if 0x40 <= ord(ch) <= 0x7E:
                self.buf.append(ch)
                self._complete(out, now)
            else:
                self._broken(ch, now, out)
            return
        if st is _State.X10:
            self.buf.append(ch)
            if len(self.buf) == 6:
                self._complete(out, now)
            return
        # STRING (OSC, DCS, APC, ...): until BEL or ST (ESC \\)
        self.buf.append(ch)
        if ch == "\x07" or self.buf[-2:] == [ESC, "\\"] or len(self.buf) > MAX_STRING:
            self._drop()

    def _broken(self, ch: str, now: float, out: list[str]) -> None:
        """A byte that cannot continue the sequence: the fragment is dropped."""
        self._drop()
        self._step(ch, now, out)

    def _complete(self, out: list[str], now: float) -> None:
        seq = "".join(self.buf)
        late = self.late
        self._reset()
        if seq == PASTE_START:  # (even late: what follows is pasted text all the same)
            self.state = _State.PASTE
            self.started = now
            self.tail = ""
            return
        if late:
            self.dropped.append(seq)
            return
        m = KITTY_FLAGS.fullmatch(seq)
        if m:
            self.kitty_flags = int(m.group(1))
            return
        if len(seq) > MAX_SEQUENCE or not self.known(seq):
            self.dropped.append(seq)
            return
        out.append(seq)
