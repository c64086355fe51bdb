"""What a page may send the server over its websocket, checked before its game
sees any of it.

textual.js sends JSON arrays: ["stdin", TEXT] (the keys), ["resize",
{"width": W, "height": H}], ["ping", TEXT], ["blur"], ["focus"]. textual-serve
itself trusts them: a malformed one raised in its handler (a traceback on the
server's console), and a size such as "x" or 100000 x 100000 went on to the
game, which crashed on the first or tried to draw the second (and so did the size
the websocket's address starts a game at). Here any message
that is not one of these, exactly, is refused with a reason, and the server
closes that page's connection only (its game then quits as on Ctrl+Q).
"""

from __future__ import annotations

import json
from typing import Any

from spit_tui.command import shown

MAX_TEXT = 64 * 1024  # characters of keys in one message (a long paste still fits)
MAX_PING = 64
MAX_WIDTH = 1000  # cells: far past any screen, short of a size that starves the game
MAX_HEIGHT = 500


class BadPageMessage(ValueError):
    """A message no page of ours sends; the text says what was wrong, in one line."""


def page_message(text: str) -> tuple[str, Any]:
    """(kind, data) of a page's message: ("stdin", str), ("resize", (w, h)),
    ("ping", str), ("blur", None) or ("focus", None); BadPageMessage if not."""
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):
        raise BadPageMessage(f"not JSON: {shown(text)!r}") from None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        raise BadPageMessage(f"not a [kind, ...] message: {shown(text)!r}")
    kind, args = envelope[0], envelope[1:]
    if kind in ("blur", "focus") and not args:
        return kind, None
    if kind == "stdin" and len(args) == 1 and isinstance(args[0], str):
        if len(args[0]) > MAX_TEXT:
            raise BadPageMessage(f"{len(args[0]):,} characters of keys at once")
        return kind, args[0]
    if kind == "ping" and len(args) == 1 and isinstance(args[0], str):
        if len(args[0]) > MAX_PING:
            raise BadPageMessage(f"a ping of {len(args[0]):,} characters")
        return kind, args[0]
    if kind == "resize" and len(args) == 1 and isinstance(args[0], dict):
        return kind, _size(args[0])
    raise BadPageMessage(f"not a message a page sends: {shown(text)!r}")


def _size(data: dict[str, Any]) -> tuple[int, int]:
    if set(data) != {"width", "height"}:
        raise BadPageMessage(f"a resize without exactly width and height: {shown(str(data))}")
    w, h = data["width"], data["height"]
    for value, top in ((w, MAX_WIDTH), (h, MAX_HEIGHT)):
        if type(value) is not int or not 1 <= value <= top:
            raise BadPageMessage(f"a size of {shown(str(w))} x {shown(str(h))} cells")
    return w, h


def start_size(width: str | None, height: str | None) -> tuple[int, int]:
    """The size a page asks its game to start at (the websocket address's
    ?width=W&height=H; 80 x 24 where missing); BadPageMessage if out of range."""
    w, h = width or "80", height or "24"
    digits = all(v.isascii() and v.isdigit() and len(v) < 6 for v in (w, h))
    if not digits:
        raise BadPageMessage(f"a start size of {shown(w)} x {shown(h)} cells")
    return _size({"width": int(w), "height": int(h)})
