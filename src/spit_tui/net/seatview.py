"""What the host sends one seat: the public view of the table, and nothing more.

`seat_view` builds the message from `players.view.view_of`, the same observer
the computer decides from, so a face-down stockpile card or a spit card can
never be on the wire: the observer reduces them to counts before this module
sees them, and a spit pile to its top card and size. Around the view go the
words the table shows that seat (its own message only), the names, and
whether the game is waiting for a seat. `read_view` is the client's strict
reading of the same message back into a `View`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from spit_tui.engine import SLOTS, Card, Phase, Player, card
from spit_tui.players.view import SideView, View, view_of
from spit_tui.table import Table

from .protocol import MAX_TEXT, Message, ProtocolError

SEAT_NAMES = ("left", "right")


def _card(c: Card | None) -> str | None:
    return None if c is None else str(c)


def seat_view(
    table: Table,
    seat: Player,
    waiting: str | None = None,
    ping: tuple[int | None, int | None] = (None, None),
) -> Message:
    """The message for `seat`: the table as that player may see it, with each
    seat's ping (its smoothed round trip to the host, ms) as the host measures it."""
    pos = table.position
    v = view_of(
        pos,
        seat,
        manual_flip=table.game.options.manual_flip,
        stuck_banner=table.stuck_shown,
        counting_down=table.counting_down,
        ready=table.ready_flags(),
    )
    said = table.message(seat)
    return {
        "type": "view",
        "seat": SEAT_NAMES[seat],
        "phase": v.phase.value,
        "round": v.round,
        "sides": [
            {
                "tops": [_card(c) for c in s.tops],
                "sizes": list(s.sizes),
                "spit": s.spit,
                "ready": s.ready,
            }
            for s in v.sides
        ],
        "piles": [
            {"top": _card(t), "size": n} for t, n in zip(v.pile_tops, v.pile_sizes, strict=True)
        ],
        "manual_flip": v.manual_flip,
        "stuck": v.stuck_banner,
        "counting_down": v.counting_down,
        "names": list(table.names),
        "message": None if said is None else {"text": said.text, "kind": str(said.kind)},
        "waiting": waiting,
        "winner": None if pos.winner is None else SEAT_NAMES[pos.winner],
        "ping": list(ping),
    }


class RemoteView(NamedTuple):
    """A view message as the client reads it."""

    view: View
    names: tuple[str, str]
    message: str | None
    waiting: str | None
    winner: Player | None
    ping: tuple[int | None, int | None] = (None, None)  # each seat's round trip, ms


VIEW_KEYS = {
    "type", "seat", "phase", "round", "sides", "piles", "manual_flip", "stuck",
    "counting_down", "names", "message", "waiting", "winner", "ping",
}  # fmt: skip


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise ProtocolError(f"a view with a bad {what}")


def _is_int(v: Any, lo: int, hi: int) -> bool:
    return type(v) is int and lo <= v <= hi


def _is_text(v: Any) -> bool:
    return isinstance(v, str) and len(v) <= MAX_TEXT and v.isprintable()


def _read_card(v: Any) -> Card | None:
    if v is None:
        return None
    _need(isinstance(v, str) and len(v) == 2, "card")
    try:
        return card(v)
    except ValueError:
        raise ProtocolError("a view with a bad card") from None


def _read_side(s: Any) -> SideView:
    _need(isinstance(s, dict) and set(s) == {"tops", "sizes", "spit", "ready"}, "side")
    tops, sizes = s["tops"], s["sizes"]
    _need(isinstance(tops, list) and len(tops) == SLOTS, "side")
    _need(isinstance(sizes, list) and len(sizes) == SLOTS, "side")
    _need(all(_is_int(n, 0, 52) for n in sizes), "size")
    _need(_is_int(s["spit"], 0, 52) and type(s["ready"]) is bool, "side")
    cards = tuple(_read_card(t) for t in tops)
    _need(all(c is None or n > 0 for c, n in zip(cards, sizes, strict=True)), "side")
    return SideView(cards, tuple(sizes), s["spit"], s["ready"])


def read_view(msg: Message, me: Player) -> RemoteView:
    """A view message checked field by field (ProtocolError if anything is off)."""
    _need(set(msg) == VIEW_KEYS and msg["seat"] == SEAT_NAMES[me], "shape")
    _need(msg["phase"] in {p.value for p in Phase}, "phase")
    _need(_is_int(msg["round"], 0, 10**6), "round")
    sides = msg["sides"]
    _need(isinstance(sides, list) and len(sides) == 2, "sides")
    left, right = _read_side(sides[0]), _read_side(sides[1])
    piles = msg["piles"]
    _need(isinstance(piles, list) and len(piles) <= 2, "piles")
    tops: list[Card | None] = []
    sizes: list[int] = []
    for p in piles:
        ok = isinstance(p, dict) and set(p) == {"top", "size"} and _is_int(p["size"], 0, 52)
        _need(ok, "pile")
        tops.append(_read_card(p["top"]))
        sizes.append(p["size"])
    flags = (msg["manual_flip"], msg["stuck"], msg["counting_down"])
    _need(all(type(f) is bool for f in flags), "flag")
    names = msg["names"]
    _need(isinstance(names, list) and len(names) == 2 and all(map(_is_text, names)), "names")
    said = msg["message"]
    _need(said is None or (isinstance(said, dict) and _is_text(said.get("text"))), "message")
    waiting, winner = msg["waiting"], msg["winner"]
    _need(waiting is None or _is_text(waiting), "waiting")
    _need(winner is None or winner in SEAT_NAMES, "winner")
    ping = msg["ping"]
    _need(isinstance(ping, list) and len(ping) == 2, "ping")
    _need(all(ms is None or _is_int(ms, 0, 60_000) for ms in ping), "ping")
    view = View(
        me=me,
        phase=Phase(msg["phase"]),
        round=msg["round"],
        sides=(left, right),
        pile_tops=tuple(tops),
        pile_sizes=tuple(sizes),
        single_pile=len(piles) == 1,
        manual_flip=flags[0],
        stuck_banner=flags[1],
        counting_down=flags[2],
    )
    return RemoteView(
        view,
        (names[0], names[1]),
        None if said is None else said["text"],
        waiting,
        None if winner is None else Player(SEAT_NAMES.index(winner)),
        (ping[0], ping[1]),
    )
