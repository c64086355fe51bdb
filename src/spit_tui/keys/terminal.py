"""Our wrapper around Textual's terminal input parser: the kitty keyboard
protocol's extra fields, and the fragment guard in front of it all.

Upstream, Textual 8.2.8 (pinned): the Linux driver pushes kitty flags 1+8+16
(`CSI > 25 u`) and never asks for event types (2) or alternate keys (4), and
`XTermParser._parse_extended_key` calls `int()` on whole fields, so a repeat
(`CSI 97;1:2u`), a release (`CSI 97;1:3u`) or a key with its base-layout key
(`CSI 113::97;;113u`) raises ValueError in the input thread and the app dies
(Textualize/textual#6417). Until that is fixed there, this module:

- subclasses the parser (`KeyParser`) with a parser of the full field syntax
  `CSI code[:shifted[:base]] ; mods[:event] ; text u` that yields `KittyKey`
  events carrying the base-layout key and the event type; a release yields
  nothing that acts, and any terminal that sends these fields unasked (a
  multiplexer, a remote link) is handled the same;
- puts the fragment guard (keys/guard.py) in front of it;
- asks the terminal whether it speaks the protocol (`CSI ? u`) and, if it
  does, sets flags 1+2+4+8+16 on Textual's own stack entry (`CSI = 31 ; 1 u`,
  not a second push), so Textual's single pop at exit restores the terminal;
- installs itself by replacing the parser name in Textual's Linux driver
  module (`KeyDriver`, chosen by the app's get_driver_class), and in its web
  driver module (`KeyWebDriver`, when textual-serve runs the game).

The terminal's end. Textual's input loop takes a read that returns nothing
for piped input and reads again: on a terminal that hung up (its window
closed, its ssh session or tmux server gone) every read returns nothing at
once, so a game whose SIGHUP never came (it came between two apps, the
lobby and its room, or the game runs with SIGHUP ignored, as under nohup)
spun a core on it for ever; a read that fails (EIO) was an error in its
input thread (the app's panic). `KeyDriver` reads with its own copy of that
loop, which takes either as the terminal's end, as it takes a write that
fails with EIO (`TerminalOut`): stdout and stderr let go of the terminal
(hangup.py: nothing more is written to it) and the app is told (`HungUp`),
which ends as on SIGHUP: exit status 129, the game stored as SIGHUP stores
it. Every mode (local, computer, a seat, watching, a replay, the lobby) is
an app on this driver.
"""

from __future__ import annotations

import contextlib
import errno
import os
import selectors
import sys
from codecs import getincrementaldecoder
from collections.abc import Callable, Iterable
from enum import IntEnum
from functools import cache
from typing import Any, ClassVar, TextIO

from textual import constants, events, messages
from textual._ansi_sequences import ANSI_SEQUENCES_KEYS
from textual._keyboard_protocol import FUNCTIONAL_KEYS, MODIFIER_FUNCTIONAL_KEYS
from textual._parser import ParseError
from textual._time import get_time
from textual._xterm_parser import (
    SPECIAL_KEY_TO_CHARACTER,
    SPECIAL_SEQUENCES,
    XTermParser,
    _re_cursor_position,
    _re_extended_key,
    _re_in_band_window_resize,
    _re_mouse_event,
    _re_terminal_mode_response,
)
from textual.driver import Driver
from textual.drivers import linux_driver
from textual.drivers.linux_driver import LinuxDriver
from textual.keys import Keys, _character_to_key
from textual.message import Message

from spit_tui.hangup import let_go_of_terminal
from spit_tui.keys.guard import FragmentGuard
from spit_tui.keys.intent import Intent
from spit_tui.keys.keymap import KeyMap

QUERY = "\x1b[?u"
WANTED_FLAGS = 1 | 2 | 4 | 8 | 16  # disambiguate, event types, alternate keys, all keys, text
SET_FLAGS = f"\x1b[={WANTED_FLAGS};1u"  # replace the flags of the entry Textual pushed


class KeyKind(IntEnum):
    PRESS = 1
    REPEAT = 2
    RELEASE = 3


class KittyKey(events.Key):
    """A key from the kitty protocol: also its US-layout (physical) key and its
    event type. Handled everywhere as an ordinary Key."""

    __slots__ = ["base", "kind"]

    def __init__(self, key: str, character: str | None, base: str | None, kind: KeyKind) -> None:
        super().__init__(key, character)
        self.base = base
        self.kind = kind

    def copy(self) -> KittyKey:
        return KittyKey(self.key, self.character, self.base, self.kind)


KittyKey.handler_name = "on_key"  # dispatched exactly like a Key


def _known(seq: str) -> bool:
    """Would Textual's parser recognise this whole sequence (rather than keep
    reading, and reissue it all as keys)?"""
    return bool(
        seq in ANSI_SEQUENCES_KEYS
        or seq in SPECIAL_SEQUENCES
        or _re_extended_key.fullmatch(seq)
        or _re_mouse_event.match(seq)
        or _re_terminal_mode_response.match(seq)
        or _re_cursor_position.match(seq)
        or _re_in_band_window_resize.fullmatch(seq)
    )


def _int(text: str, default: int) -> int | None:
    if not text:
        return default
    return int(text) if text.isdecimal() and len(text) <= 7 else None


_MODIFIERS = ("alt", "ctrl", "super", "hyper", "meta")


def parse_kitty(sequence: str, alternate_keys: bool) -> list[events.Key] | None:
    """A kitty `CSI ... u` (or `~`, or a letter) key sequence as key events, or
    None if it is not one. Fields: code[:shifted[:base]] ; mods[:event] ; text.

    `alternate_keys`: the terminal confirmed flag 4, so a key without a base
    field is itself the US-layout key (kitty only sends the base when it differs).
    """
    match = _re_extended_key.fullmatch(sequence)
    if match is None:
        return None
    codes, end = match.groups(default="")
    fields = [*codes.split(";"), "", ""]
    key_codes = [*fields[0].split(":"), "", ""]
    mod_event = [*fields[1].split(":"), ""]
    codepoint = _int(key_codes[0], 1)
    base_code = _int(key_codes[2], 0)
    modifiers = _int(mod_event[0], 1)
    kind_code = _int(mod_event[1], 1)
    if None in (codepoint, base_code, modifiers, kind_code):
        return [events.Key(Keys.Ignore, sequence)]
    assert codepoint is not None and modifiers is not None and kind_code is not None
    if kind_code not in (KeyKind.PRESS, KeyKind.REPEAT) or not 0 < codepoint <= 0x10FFFF:
        return [events.Key(Keys.Ignore, sequence)]  # nothing acts on a release
    kind = KeyKind.REPEAT if kind_code == KeyKind.REPEAT else KeyKind.PRESS
    texts: list[str | None] = []
    for part in fields[2].split(":") if fields[2] else []:
        cp = _int(part, 0)
        if cp and 0x20 <= cp <= 0x10FFFF and chr(cp).isprintable():
            texts.append(chr(cp))
    text = "".join(t for t in texts if t) or None
    functional = FUNCTIONAL_KEYS.get(f"{codepoint}{end}", "")
    key = functional or _character_to_key(text if text else chr(codepoint))
    base: str | None = None
    if not functional and end == "u":
        if base_code and 0x20 < base_code <= 0x10FFFF:
            base = chr(base_code)
        elif alternate_keys:
            base = chr(codepoint)
    tokens: list[str] = []
    bits = modifiers - 1
    if bits and key not in MODIFIER_FUNCTIONAL_KEYS:
        if bits & 1 and (text is None or text.isspace()):
            tokens.append("shift")
        for bit, name in enumerate(_MODIFIERS, 1):
            if name == "alt" and text is not None:
                continue
            if bits & (1 << bit):
                tokens.append(name)
        tokens.sort()
    tokens.append(key)
    character = text or (None if bits else SPECIAL_KEY_TO_CHARACTER.get(key))
    return [KittyKey("+".join(tokens), character, base, kind)]


class KittyFlags(Message):
    """The terminal's answer to CSI ? u: it speaks the kitty protocol."""

    def __init__(self, flags: int) -> None:
        super().__init__()
        self.flags = flags


class KeyParser(XTermParser):
    """Textual's parser, behind the fragment guard, with the kitty fields parsed."""

    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        self.guard = FragmentGuard(get_time, _known)
        self.kitty_flags: int | None = None

    def feed(self, data: str) -> Iterable[Message]:
        if not data:  # end of input
            yield from super().feed(data)
            return
        text = self.guard.feed(data)
        yield from self._flags()
        if text:
            yield from super().feed(text)

    def tick(self) -> Iterable[Message]:
        text, lone_escape = self.guard.tick()
        if text:
            yield from super().feed(text)
            if lone_escape:
                # The guard already waited ESCDELAY: let the parser's own wait end now.
                self._timeout_time = get_time()
        yield from super().tick()

    def _flags(self) -> Iterable[Message]:
        flags = self.guard.kitty_flags
        if flags is not None:
            self.guard.kitty_flags = None
            self.kitty_flags = flags
            yield KittyFlags(flags)

    @property
    def alternate_keys(self) -> bool:
        return self.kitty_flags is not None and bool(self.kitty_flags & 4)

    def _parse_extended_key(self, sequence: str) -> list[events.Key] | None:  # type: ignore[override]
        return parse_kitty(sequence, self.alternate_keys)


class TerminalOut:
    """The file Textual's writer thread writes the screen to (stderr), where a
    write that fails with EIO is the terminal's end (`hung_up` is called)
    and not the thread's: Textual's thread died on it, and the app's next 30
    writes filled its queue, the 31st waited for ever (a game continued after
    Ctrl+Z on a terminal that closed meanwhile hung at its end so). What such
    a write held is written to /dev/null once the terminal is let go of."""

    def __init__(self, file: TextIO, hung_up: Callable[[], None]) -> None:
        self._file = file
        self._hung_up = hung_up

    def write(self, text: str) -> None:
        try:
            self._file.write(text)
        except OSError as e:
            if e.errno != errno.EIO:
                raise
            self._hung_up()

    def flush(self) -> None:
        try:
            self._file.flush()
        except OSError as e:
            if e.errno != errno.EIO:
                raise
            self._hung_up()

    def fileno(self) -> int:
        return self._file.fileno()


class HungUp(Message):
    """The terminal hung up: a read of its input returned nothing (its end) or
    failed with EIO. The app ends as its SIGHUP would have ended it."""


class KeyDriver(LinuxDriver):
    """Textual's Linux driver, reading with KeyParser and asking for the kitty
    protocol's event types and alternate keys where the terminal has them;
    its input's end is the terminal's (HungUp)."""

    kitty_flags: ClassVar[int | None] = None  # the terminal's last answer (help shows it)

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._flags_set = False
        self.hung_up = False  # the terminal's end was read (or a write failed on it)
        if self._file is not None:
            out = TerminalOut(self._file, self._hang_up)  # its writer thread's file
            self._file = out  # type: ignore[assignment]

    def run_input_thread(self) -> None:
        """Textual 8.2.8's input loop (LinuxDriver.run_input_thread), but a read
        that returns nothing or fails with EIO is the terminal's end: the loop
        stops and the app is told (`HungUp`). Textual's read again at once,
        for ever, and took EIO for a crash. Its last wait of 0.1 s with
        nothing to wait on, once asked to stop, is left out."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        parser = KeyParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode
        try:
            while not self.exit_event.is_set():
                if selector.select(0.1):
                    try:
                        data = os.read(self.fileno, 1024 * 4)
                    except OSError as e:
                        if e.errno != errno.EIO:
                            raise
                        data = b""
                    if not data:
                        self._hang_up()
                        return
                    for event in parser.feed(decode(data)):
                        self.process_message(event)
                for event in parser.tick():
                    self.process_message(event)
        finally:
            selector.close()
            with contextlib.suppress(EOFError, ParseError):
                for _ in parser.feed(""):
                    pass

    def _hang_up(self) -> None:
        """At the terminal's end (the input thread read it, or the writer thread's
        write failed): let go of it, tell the app (once)."""
        if self.hung_up:
            return
        self.hung_up = True
        let_go_of_terminal()
        with contextlib.suppress(RuntimeError):  # the loop is closed: the app has ended
            self.send_message(HungUp())

    def start_application_mode(self) -> None:
        super().start_application_mode()  # type: ignore[no-untyped-call]
        if not constants.DISABLE_KITTY_KEY:
            self._flags_set = False
            self.write(QUERY)
            self.flush()

    def process_message(self, message: Message) -> None:
        if isinstance(message, KittyFlags):
            KeyDriver.kitty_flags = message.flags
            if message.flags & WANTED_FLAGS != WANTED_FLAGS and not self._flags_set:
                self._flags_set = True
                self.write(SET_FLAGS + QUERY)  # then the answer confirms them
                self.flush()
            return
        super().process_message(message)


@cache
def web_driver_class() -> type[Driver]:
    """Textual's web driver (the browser, through textual-serve), reading with
    KeyParser: a browser's keys pass the same fragment guard as a terminal's.
    When the server goes away (end of input) the game quits, as a hung-up
    terminal does, instead of running on where nobody sees it. Made when a
    browser asks for it: a terminal's game never loads the web driver."""
    from textual.drivers import web_driver
    from textual.drivers.web_driver import WebDriver

    class KeyWebDriver(WebDriver):
        """Textual's web driver with our key parser; ends with its input."""

        def run_input_thread(self) -> None:
            super().run_input_thread()
            if not self.exit_event.is_set():
                self._app.post_message(messages.ExitApp())

    web_driver.XTermParser = KeyParser  # type: ignore[attr-defined]
    return KeyWebDriver


def driver_for(cls: type[Driver]) -> type[Driver]:
    """The driver to use instead of `cls` (Textual's own Linux and web drivers
    are wrapped; any other is used as it is). Textual names the web driver by
    its module; it is loaded then, and only then."""
    if cls is LinuxDriver:
        linux_driver.XTermParser = KeyParser  # type: ignore[attr-defined]
        return KeyDriver
    web = sys.modules.get("textual.drivers.web_driver")
    if web is not None and cls is web.WebDriver:
        return web_driver_class()
    return cls


REPEATABLE = frozenset({"left", "right", "up", "down", "pageup", "pagedown"})


def game_intent(event: events.Key, keys: KeyMap) -> tuple[Intent | None, bool]:
    """(what this key means in the game on `keys`, whether it is a held key's repeat).

    The one place the app turns a key event into an Intent: by its physical key
    where the terminal reported one, else by its character (KeyMap.intent_for)."""
    if type(event) is KittyKey:
        found = keys.intent_for(event.key, event.character, event.base)
        return found, event.kind is KeyKind.REPEAT
    return keys.intent_for(event.key, event.character), False


def drop_repeat(event: events.Key) -> bool:
    """A repeat the app never acts on: every held key but the help's page keys."""
    return type(event) is KittyKey and event.kind is KeyKind.REPEAT and event.key not in REPEATABLE
