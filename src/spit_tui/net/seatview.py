"""What the host sends one seat: the public view of the table, and nothing more.

`seat_view` builds the message from `players.view.view_of`, the same observer
the computer decides from, so a face-down stockpile card or a spit card can
never be on the wire: the observer reduces them to counts before this module
sees them, and a spit pile to its top card and size. Around the view go the
words the table shows that seat (its own message only), the names, and
whether the game is waiting for a seat, and the public story the board
tells (the feed, who owns each pile top, the round summary: every card in
it was face up when it moved). `read_view` is the client's strict reading of
the same message back into a `RemoteView`.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from spit_tui.engine import SLOTS, Card, EndReason, Phase, Player, RoundEnd, card
from spit_tui.players.view import SideView, View, view_of
from spit_tui.story import FEED_LEN, TREND_LEN, FeedEntry
from spit_tui.table import Outcome, Table

from .protocol import MAX_TEXT, Message, ProtocolError

SEAT_NAMES = ("left", "right")


def _card(c: Card | None) -> str | None:
    return None if c is None else str(c)


def _seat(p: Player | None) -> str | None:
    return None if p is None else SEAT_NAMES[p]


def _round_end(end: RoundEnd | None) -> Message | None:
    if end is None:
        return None
    return {
        "round": end.round,
        "reason": end.reason.value,
        "single_pile": end.single_pile,
        "cleared_by": _seat(end.cleared_by),
        "took": list(end.took),
        "pile_sizes": list(end.pile_sizes),
        "held": list(end.held),
        "round_points": list(end.round_points),
        "scores": list(end.scores),
    }


def _story(table: Table) -> Message:
    """What the board tells beside the cards: every card in it was face up."""
    story = table.story
    return {
        "owners": [_seat(story.owner(i)) for i in range(len(table.position.piles))],
        "feed": [
            {
                "kind": e.kind,
                "player": _seat(e.player),
                "cards": [str(c) for c in e.cards],
                "pile": e.pile,
            }
            for e in story.feed
        ],
        "played": list(story.played),
        "trend": [[SEAT_NAMES[p], n] for p, n in story.trend()],
    }


def _times(table: Table) -> Message:
    """The round clock and the game's play seconds (play only), and the countdown."""
    return {
        "round": round(max(0.0, table.round_play_seconds()), 3),
        "game": round(max(0.0, table.play_seconds()), 3),
        "countdown": round(table.countdown_left(), 3),
    }


def seat_view(
    table: Table,
    seat: Player,
    waiting: str | None = None,
    ping: tuple[int | None, int | None] = (None, None),
    heard: int = 0,
) -> Message:
    """The message for `seat`: the table as that player may see it, with each
    seat's ping (its smoothed round trip to the host, ms) as the host measures it,
    and how many of this connection's keys the table has decided (`heard`), so a
    client knows its key was taken even when it changed nothing on the table."""
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
        "spitter": _seat(pos.spitter),
        "story": _story(table),
        "lit": list(table.lit_piles()),
        "last_round": _round_end(table.last_round),
        "times": _times(table),
        "ping": list(ping),
        "heard": heard,
    }


class Times(NamedTuple):
    """Seconds of play in the round and the game, and left of the countdown, when sent."""

    round: float = 0.0
    game: float = 0.0
    countdown: float = 0.0


class RemoteView(NamedTuple):
    """A view message as the client reads it."""

    view: View
    names: tuple[str, str]
    message: str | None
    waiting: str | None
    winner: Player | None
    kind: str = ""  # the message's kind (an Outcome's value)
    spitter: Player | None = None
    owners: tuple[Player | None, ...] = ()
    feed: tuple[FeedEntry, ...] = ()
    played: tuple[int, int] = (0, 0)
    trend: tuple[tuple[Player, int], ...] = ()
    lit: tuple[int, ...] = ()
    last_round: RoundEnd | None = None
    times: Times = Times()
    ping: tuple[int | None, int | None] = (None, None)  # each seat's round trip, ms
    heard: int = 0  # this connection's keys the table has decided so far


VIEW_KEYS = {
    "type", "seat", "phase", "round", "sides", "piles", "manual_flip", "stuck",
    "counting_down", "names", "message", "waiting", "winner", "spitter", "story", "lit",
    "last_round", "times", "ping", "heard",
}  # fmt: skip
FEED_KINDS = ("play", "spit", "slap", "late")
END_KEYS = {
    "round", "reason", "single_pile", "cleared_by", "took", "pile_sizes", "held",
    "round_points", "scores",
}  # fmt: skip
BIG = 10**6


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise ProtocolError(f"a view with a bad {what}")


def _is_int(v: Any, lo: int, hi: int) -> bool:
    return type(v) is int and lo <= v <= hi


def _is_text(v: Any) -> bool:
    return isinstance(v, str) and len(v) <= MAX_TEXT and v.isprintable()


def _ints(v: Any, n: int, lo: int = 0, hi: int = BIG) -> tuple[int, ...]:
    _need(isinstance(v, list) and len(v) == n and all(_is_int(x, lo, hi) for x in v), "number")
    return tuple(v)


def _pair(v: Any) -> tuple[int, int]:
    a, b = _ints(v, 2)
    return a, b


def _read_seat(v: Any) -> Player | None:
    _need(v is None or v in SEAT_NAMES, "seat")
    return None if v is None else Player(SEAT_NAMES.index(v))


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


def _read_entry(e: Any) -> FeedEntry:
    _need(isinstance(e, dict) and set(e) == {"kind", "player", "cards", "pile"}, "feed")
    _need(e["kind"] in FEED_KINDS, "feed")
    cards = e["cards"]
    _need(isinstance(cards, list) and len(cards) <= 2, "feed")
    _need(e["pile"] is None or _is_int(e["pile"], 0, 1), "feed")
    read = tuple(_read_card(c) for c in cards)
    _need(all(c is not None for c in read), "feed")
    player = _read_seat(e["player"])
    _need((player is None) == (e["kind"] == "spit"), "feed")
    _need(e["kind"] != "play" or len(read) == 1, "feed")
    return FeedEntry(e["kind"], player, tuple(c for c in read if c is not None), e["pile"])


Trend = tuple[tuple[Player, int], ...]
StoryParts = tuple[tuple[Player | None, ...], tuple[FeedEntry, ...], tuple[int, int], Trend]


def _read_story(s: Any, piles: int) -> StoryParts:
    _need(isinstance(s, dict) and set(s) == {"owners", "feed", "played", "trend"}, "story")
    owners, feed, trend = s["owners"], s["feed"], s["trend"]
    _need(isinstance(owners, list) and len(owners) == piles, "story")
    _need(isinstance(feed, list) and len(feed) <= FEED_LEN, "story")
    _need(isinstance(trend, list) and len(trend) <= TREND_LEN, "story")
    read_trend = []
    for t in trend:
        _need(isinstance(t, list) and len(t) == 2 and _is_int(t[1], 1, 52), "trend")
        who = _read_seat(t[0])
        _need(who is not None, "trend")
        assert who is not None
        read_trend.append((who, t[1]))
    return (
        tuple(_read_seat(o) for o in owners),
        tuple(_read_entry(e) for e in feed),
        _pair(s["played"]),
        tuple(read_trend),
    )


def _read_end(e: Any) -> RoundEnd | None:
    if e is None:
        return None
    _need(isinstance(e, dict) and set(e) == END_KEYS, "round end")
    _need(e["reason"] in {r.value for r in EndReason}, "round end")
    _need(type(e["single_pile"]) is bool and _is_int(e["round"], 1, BIG), "round end")
    took = e["took"]
    _need(isinstance(took, list) and len(took) == 2, "round end")
    _need(all(t is None or _is_int(t, 0, 1) for t in took), "round end")
    sizes = e["pile_sizes"]
    _need(isinstance(sizes, list) and 1 <= len(sizes) <= 2, "round end")
    return RoundEnd(
        round=e["round"],
        reason=EndReason(e["reason"]),
        single_pile=e["single_pile"],
        cleared_by=_read_seat(e["cleared_by"]),
        took=(took[0], took[1]),
        pile_sizes=_ints(sizes, len(sizes), 0, 52),
        held=_pair(e["held"]),
        round_points=_pair(e["round_points"]),
        scores=_pair(e["scores"]),
    )


def _is_time(v: Any) -> bool:
    return type(v) in (int, float) and math.isfinite(v) and 0 <= v <= BIG


def _read_times(t: Any) -> Times:
    _need(isinstance(t, dict) and set(t) == {"round", "game", "countdown"}, "times")
    _need(all(_is_time(v) for v in t.values()), "times")
    return Times(float(t["round"]), float(t["game"]), float(t["countdown"]))


def _read_pings(v: Any) -> tuple[int | None, int | None]:
    _need(isinstance(v, list) and len(v) == 2, "ping")
    _need(all(p is None or _is_int(p, 0, 60_000) for p in v), "ping")
    return v[0], v[1]


def read_view(msg: Message, me: Player) -> RemoteView:
    """A view message checked field by field (ProtocolError if anything is off)."""
    _need(set(msg) == VIEW_KEYS and msg["seat"] == SEAT_NAMES[me], "shape")
    _need(msg["phase"] in {p.value for p in Phase}, "phase")
    _need(_is_int(msg["round"], 0, BIG), "round")
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
        top = _read_card(p["top"])
        _need((top is None) == (p["size"] == 0), "pile")
        tops.append(top)
        sizes.append(p["size"])
    flags = (msg["manual_flip"], msg["stuck"], msg["counting_down"])
    _need(all(type(f) is bool for f in flags), "flag")
    names = msg["names"]
    _need(isinstance(names, list) and len(names) == 2 and all(map(_is_text, names)), "names")
    said = msg["message"]
    kinds = {o.value for o in Outcome}
    _need(
        said is None
        or (
            isinstance(said, dict)
            and set(said) == {"text", "kind"}
            and _is_text(said["text"])
            and said["kind"] in kinds
        ),
        "message",
    )
    waiting = msg["waiting"]
    _need(waiting is None or _is_text(waiting), "waiting")
    _need(_is_int(msg["heard"], 0, 2**53), "heard")
    lit = msg["lit"]
    _need(isinstance(lit, list) and all(_is_int(i, 0, len(piles) - 1) for i in lit), "lit")
    owners, feed, played, trend = _read_story(msg["story"], len(piles))
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
        _read_seat(msg["winner"]),
        kind="" if said is None else said["kind"],
        spitter=_read_seat(msg["spitter"]),
        owners=owners,
        feed=feed,
        played=played,
        trend=trend,
        lit=tuple(lit),
        last_round=_read_end(msg["last_round"]),
        times=_read_times(msg["times"]),
        ping=_read_pings(msg["ping"]),
        heard=msg["heard"],
    )
