"""A Scene on the wire: what the host sends one seat, and the seat's strict reading of it.

`seat_view` takes the table's `Scene` (spit_tui.scene), which holds only public
facts (face-up cards, counts, pile tops and sizes: a face-down stockpile card
or a spit card has no representation in it), adds what the host knows of
the seats (whom it waits for, each seat's ping) and keeps only that seat's
own message. `scene_to_wire` writes a Scene as a `view` message (and
`WireView` as the frames of a whole room, encoded once per change) and
`scene_from_wire` reads one back, checked field by field with protocol.py's
combinators, then across fields (pile counts, owners, lit piles); anything
off is a ProtocolError. What only the screen's own table knows (away lines,
the history's offer and figures, whether anything was played yet) never
goes on the wire; the computer's halves do (protocol 4: the host's computer
may play a seat).
"""

from __future__ import annotations

from typing import Any

from spit_tui.engine import SLOTS, Card, EndReason, Options, Phase, Player, RoundEnd, Variant, card
from spit_tui.engine.cards import full_deck
from spit_tui.matchscore import MAX_FIRST_TO, MatchScore
from spit_tui.players.view import SideView
from spit_tui.scene import SCOREBOARD_ROUNDS, Outcome, Said, Scene, Scored
from spit_tui.story import FEED_LEN, TREND_LEN, FeedEntry
from spit_tui.table import Table

from .protocol import (
    Check,
    Message,
    ProtocolError,
    boolean,
    frame,
    int_in,
    list_of,
    one_of,
    optional,
    seconds,
    shaped,
    text,
    to_json,
)

SEAT_NAMES = ("left", "right")
_SEAT_BYTES = tuple(name.encode() for name in SEAT_NAMES)
FEED_KINDS = ("play", "spit", "slap", "late")
BIG = 10**6


# -- writing ------------------------------------------------------------------------


# every card's text, looked up rather than written again for each card of each view
_TEXT: dict[Card | None, str | None] = {None: None, **{c: str(c) for c in full_deck()}}


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


def _ms(t: float) -> float:
    return round(max(0.0, t), 3)


def scene_to_wire(scene: Scene, seat: Player, heard: int = 0) -> Message:
    """The `view` message for `seat`: the scene with that seat's message only,
    and how many of its connection's keys the table has decided (`heard`)."""
    return {**_shared(scene), "times": _times(scene), **_own(scene, seat, heard, True)}


def _own(scene: Scene, seat: Player, heard: int, said: bool) -> Message:
    """What only `seat` is shown (its own message, unless not `said`: a
    watcher's), and its connection's `heard`."""
    msg = scene.messages[seat] if said else None
    return {
        "seat": SEAT_NAMES[seat],
        "message": None if msg is None else {"text": msg.text, "kind": str(msg.kind)},
        "heard": heard,
    }


def _times(scene: Scene) -> Message:
    """The clocks: they move without a change worth sending on their own."""
    return {
        "round": _ms(scene.round_s),
        "game": _ms(scene.game_s),
        "countdown": _ms(scene.countdown_left()),
        "countdown_s": _ms(scene.countdown_s),
        "running": scene.running,
    }


def _shared(scene: Scene) -> Message:
    """What every seat and watcher of a room is shown alike, the clocks apart."""
    return {**_board(scene), **_room(scene)}


def _board(scene: Scene) -> Message:
    """The part of `_shared` that a play changes."""
    return {
        "type": "view",
        "phase": scene.phase.value,
        "round": scene.round,
        "sides": [
            {"tops": [_TEXT[c] for c in s.tops], "sizes": list(s.sizes), "spit": s.spit,
             "ready": s.ready}
            for s in scene.sides
        ],
        "piles": [
            {"top": _TEXT[t], "size": n}
            for t, n in zip(scene.pile_tops, scene.pile_sizes, strict=True)
        ],
        "stuck": scene.stuck,
        "counting_down": scene.counting_down,
        "winner": _seat(scene.winner),
        "spitter": _seat(scene.spitter),
        "scores": list(scene.scores),
        "story": {
            "owners": [_seat(o) for o in scene.owners],
            "feed": [
                {"kind": e.kind, "player": _seat(e.player), "cards": [_TEXT[c] for c in e.cards],
                 "pile": e.pile}
                for e in scene.feed
            ],
            "played": list(scene.played),
            "trend": [[SEAT_NAMES[p], n] for p, n in scene.trend],
        },
        "lit": list(scene.lit),
        "left": None if scene.left_slot is None else [SEAT_NAMES[scene.left_slot[0]],
                                                       scene.left_slot[1]],
    }


def _room_key(scene: Scene) -> tuple[object, ...]:
    """Everything `_room` reads: equal keys, equal JSON."""
    return (scene.options, scene.names, scene.waiting, scene.last_round, scene.scoreboard,
            scene.pings, scene.room_wins, scene.watchers, scene.computer, scene.first_to)


def _room(scene: Scene) -> Message:
    """The part of `_shared` that changes seldom (the room, the rounds so far,
    the pings): a room's last one is kept encoded (`RoomJson`)."""
    return {
        "manual_flip": scene.options.manual_flip,
        "variant": scene.options.variant.value,
        "target": scene.options.target,
        "names": list(scene.names),
        "waiting": scene.waiting,
        "last_round": _round_end(scene.last_round),
        "scoreboard": [[s.round, *s.points] for s in scene.scoreboard],
        "ping": list(scene.pings or (None, None)),
        "match": None if scene.room_wins is None else list(scene.room_wins),
        "watchers": scene.watchers,
        "computer": list(scene.computer),
        **({} if scene.first_to is None else {"first_to": scene.first_to}),
    }


class RoomJson:
    """A room's last `_room` part, encoded, and what it was made from: most of
    a room's changes are plays, which leave it as it was, so its JSON (about
    two fifths of a view) is written again only when it changed."""

    __slots__ = ("json", "key")

    def __init__(self) -> None:
        self.key: tuple[object, ...] | None = None
        self.json = b""

    def of(self, scene: Scene) -> bytes:
        key = _room_key(scene)
        if key != self.key:
            self.key, self.json = key, to_json(_room(scene))
        return self.json


class WireView:
    """One scene as every seat and watcher of a room is sent it, encoded once
    per change: the shared part's JSON is written once and each seat's view
    adds only its own few fields to it (its message, `heard`), so a change
    seen by two seats and watchers costs one encoding, not one each
    (benchmarks/scale.py). `gist` tells a change worth sending from clocks
    that merely moved; `frame` is the bytes for a socket and `message` the
    same view as a dict, for a connection that takes messages."""

    __slots__ = ("_body", "_scene", "_times", "_times_json", "shared_json")

    def __init__(self, scene: Scene, room: RoomJson | None = None) -> None:
        """`room`: the room's RoomJson, kept from its last view (None: one for this view)."""
        self._scene = scene
        self._times = _times(scene)
        room_json = (room or RoomJson()).of(scene)
        self.shared_json = to_json(_board(scene))[:-1] + b"," + room_json[1:]
        self._times_json = to_json(self._times)
        # every frame's body: the shared part, its clocks, then the seat's own fields
        self._body = self.shared_json[:-1] + b',"times":' + self._times_json + b","

    def own(self, seat: Player, heard: int, said: bool = True) -> bytes:
        """The JSON of what only this seat (or, not `said`, a watcher) is sent:
        `_own`'s, written by hand (it is written for every seat at every change)."""
        msg = self._scene.messages[seat] if said else None
        text = b"null" if msg is None else to_json({"text": msg.text, "kind": str(msg.kind)})
        return b'{"seat":"%s","message":%s,"heard":%d}' % (_SEAT_BYTES[seat], text, heard)

    def gist(self, own: bytes) -> tuple[bytes, bytes]:
        """The view less its clocks: equal gists are no change worth sending."""
        return self.shared_json, own

    def frame(self, own: bytes) -> bytes:
        """The whole view for the seat whose `own` this is, as one frame."""
        return frame(self._body + own[1:])

    def message(self, seat: Player, heard: int, said: bool = True) -> Message:
        return {**_shared(self._scene), "times": dict(self._times),
                **_own(self._scene, seat, heard, said)}


def seat_view(
    table: Table,
    seat: Player,
    waiting: str | None = None,
    ping: tuple[int | None, int | None] = (None, None),
    heard: int = 0,
    room: tuple[tuple[int, int] | None, int] = (None, 0),
) -> Message:
    """The message for `seat`: the table as that player may see it, with each
    seat's ping (its smoothed round trip to the host, ms) as the host measures it,
    and how many of this connection's keys the table has decided (`heard`), so a
    client knows its key was taken even when it changed nothing on the table;
    `room`: the games each seat has won in the room, and how many watch it."""
    return scene_to_wire(room_scene(table, waiting, ping, room), seat, heard)


def room_scene(
    table: Table,
    waiting: str | None = None,
    ping: tuple[int | None, int | None] = (None, None),
    room: tuple[tuple[int, int] | None, int] = (None, 0),
) -> Scene:
    """The table's scene with what the room adds (see `seat_view`): one value
    for every seat and watcher of a room, built once per change, so a room's
    views cost one scene however many look at it (benchmarks/scale.py)."""
    wins, watchers = room
    return table.scene(waiting=waiting, pings=ping, room_wins=wins, watchers=watchers)


def match_room(scene: Scene, first_to: int | None) -> Scene:
    """`scene` in a match room (first to `first_to` games; its `room_wins`
    are the match's): the match line the banners show, as at one keyboard."""
    if first_to is None or scene.room_wins is None:
        return scene
    wins = scene.room_wins
    score = MatchScore(first_to, wins=[wins[0], wins[1]])
    return scene._replace(first_to=first_to, match=score.line(scene.names))


# -- reading ------------------------------------------------------------------------


def _is_card(v: Any) -> bool:
    if not (isinstance(v, str) and len(v) == 2):
        return False
    try:
        card(v)
    except ValueError:
        return False
    return True


SEAT = one_of(*SEAT_NAMES)
COUNT = int_in(0, 52)
PAIR = list_of(int_in(0, BIG), 2, 2)
SIDE = shaped({
    "tops": list_of(optional(_is_card), SLOTS, SLOTS), "sizes": list_of(COUNT, SLOTS, SLOTS),
    "spit": COUNT, "ready": boolean,
})  # fmt: skip
PILE = shaped({"top": optional(_is_card), "size": COUNT})
ENTRY = shaped({
    "kind": one_of(*FEED_KINDS), "player": optional(SEAT), "cards": list_of(_is_card, 0, 2),
    "pile": optional(int_in(0, 1)),
})  # fmt: skip
TREND = list_of(lambda t: list_of(lambda _: True, 2, 2)(t) and SEAT(t[0]) and int_in(1, 52)(t[1]),
                0, TREND_LEN)  # fmt: skip
STORY = shaped({
    "owners": list_of(optional(SEAT), 1, 2), "feed": list_of(ENTRY, 0, FEED_LEN),
    "played": PAIR, "trend": TREND,
})  # fmt: skip
END = optional(shaped({
    "round": int_in(1, BIG), "reason": one_of(*(r.value for r in EndReason)),
    "single_pile": boolean, "cleared_by": optional(SEAT),
    "took": list_of(optional(int_in(0, 1)), 2, 2), "pile_sizes": list_of(COUNT, 1, 2),
    "held": PAIR, "round_points": PAIR, "scores": PAIR,
}))  # fmt: skip
TIMES = shaped({
    "round": seconds(0, BIG), "game": seconds(0, BIG), "countdown": seconds(0, BIG),
    "countdown_s": seconds(0, 60), "running": boolean,
})  # fmt: skip
VIEW: dict[str, Check] = {
    "type": one_of("view"),
    "seat": SEAT,
    "phase": one_of(*(p.value for p in Phase)),
    "round": int_in(0, BIG),
    "sides": list_of(SIDE, 2, 2),
    "piles": list_of(PILE, 1, 2),  # a round has one spit pile or two, never none
    "manual_flip": boolean,
    "variant": one_of(*(v.value for v in Variant)),
    "target": int_in(1, BIG),
    "stuck": boolean,
    "counting_down": boolean,
    "names": list_of(text, 2, 2),
    "message": optional(shaped({"text": text, "kind": one_of(*(o.value for o in Outcome))})),
    "waiting": optional(text),
    "winner": optional(SEAT),
    "spitter": optional(SEAT),
    "scores": PAIR,
    "story": STORY,
    "lit": list_of(int_in(0, 1), 0, 2),
    "left": optional(lambda t: list_of(lambda _: True, 2, 2)(t) and SEAT(t[0])
                     and int_in(0, SLOTS - 1)(t[1])),  # the stockpile a card just left
    "last_round": END,
    "scoreboard": list_of(list_of(int_in(0, BIG), 3, 3), 0, SCOREBOARD_ROUNDS),
    "times": TIMES,
    "ping": list_of(optional(int_in(0, 60_000)), 2, 2),
    "match": optional(PAIR),
    "watchers": int_in(0, 1000),
    "computer": list_of(optional(lambda v: v == "" or text(v)), 2, 2),  # its level's words
    "heard": int_in(0, 2**53),
    "first_to": int_in(1, MAX_FIRST_TO),  # only in a match room
}
VIEW_MAY_LACK = frozenset({"first_to"})  # fields a view may leave out


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise ProtocolError(f"a view with a bad {what}")


def _player(v: str | None) -> Player | None:
    return None if v is None else Player(SEAT_NAMES.index(v))


def _seat_of(v: str) -> Player:
    return Player(SEAT_NAMES.index(v))


def _read_card(v: str | None) -> Card | None:
    return None if v is None else card(v)


def _side(s: Message) -> SideView:
    tops = tuple(_read_card(t) for t in s["tops"])
    _need(all(c is None or n > 0 for c, n in zip(tops, s["sizes"], strict=True)), "side")
    return SideView(tops, tuple(s["sizes"]), s["spit"], s["ready"])


def _entry(e: Message) -> FeedEntry:
    player = _player(e["player"])
    _need((player is None) == (e["kind"] == "spit"), "feed")
    _need(e["kind"] != "play" or len(e["cards"]) == 1, "feed")
    return FeedEntry(e["kind"], player, tuple(card(c) for c in e["cards"]), e["pile"])


def _end(e: Message | None) -> RoundEnd | None:
    if e is None:
        return None
    took = e["took"]
    return RoundEnd(
        round=e["round"],
        reason=EndReason(e["reason"]),
        single_pile=e["single_pile"],
        cleared_by=_player(e["cleared_by"]),
        took=(took[0], took[1]),
        pile_sizes=tuple(e["pile_sizes"]),
        held=(e["held"][0], e["held"][1]),
        round_points=(e["round_points"][0], e["round_points"][1]),
        scores=(e["scores"][0], e["scores"][1]),
    )


def check_view(msg: Message, me: Player) -> None:
    """The message's shape: exactly the view's fields, each of its kind (ProtocolError if not)."""
    _need(VIEW.keys() - VIEW_MAY_LACK <= msg.keys() <= VIEW.keys(), "shape")
    for name, check in VIEW.items():
        _need(name not in msg or check(msg[name]), name)
    _need(msg["seat"] == SEAT_NAMES[me], "seat")


def scene_from_wire(msg: Message, me: Player, at: float = 0.0) -> Scene:
    """A view message checked field by field and across fields (ProtocolError
    if anything is off), as a Scene taken at `at` on the reader's clock."""
    check_view(msg, me)
    return unchecked_scene(msg, me, at)


def unchecked_scene(msg: Message, me: Player, at: float = 0.0) -> Scene:
    """A view message as a Scene, its fields' shapes taken on trust (only the
    checks across fields are made): for a host one runs oneself, such as a
    benchmark's load, where checking every field of every view would cost the
    load more than the host. Anything from a peer goes through `scene_from_wire`."""
    piles = msg["piles"]
    tops = tuple(_read_card(p["top"]) for p in piles)
    sizes = tuple(p["size"] for p in piles)
    _need(all((t is None) == (n == 0) for t, n in zip(tops, sizes, strict=True)), "pile")
    story = msg["story"]
    _need(len(story["owners"]) == len(piles), "story")
    _need(all(i < len(piles) for i in msg["lit"]), "lit")
    said = msg["message"]
    messages: list[Said | None] = [None, None]
    if said is not None:
        messages[me] = Said(said["text"], Outcome(said["kind"]))
    times = msg["times"]
    sides = msg["sides"]
    names, scores, played, ping = msg["names"], msg["scores"], story["played"], msg["ping"]
    first_to = msg.get("first_to")
    _need(first_to is None or msg["match"] is not None, "match")
    return match_room(Scene(
        phase=Phase(msg["phase"]),
        round=msg["round"],
        sides=(_side(sides[0]), _side(sides[1])),
        pile_tops=tops,
        pile_sizes=sizes,
        spitter=_player(msg["spitter"]),
        winner=_player(msg["winner"]),
        scores=(scores[0], scores[1]),
        options=Options(Variant(msg["variant"]), msg["target"], msg["manual_flip"]),
        names=(names[0], names[1]),
        messages=(messages[0], messages[1]),
        pings=(ping[0], ping[1]),
        room_wins=None if msg["match"] is None else (msg["match"][0], msg["match"][1]),
        watchers=msg["watchers"],
        computer=(msg["computer"][0], msg["computer"][1]),
        owners=tuple(_player(o) for o in story["owners"]),
        feed=tuple(_entry(e) for e in story["feed"]),
        played=(played[0], played[1]),
        trend=tuple((Player(SEAT_NAMES.index(s)), n) for s, n in story["trend"]),
        lit=tuple(msg["lit"]),
        left_slot=None if msg["left"] is None else (_seat_of(msg["left"][0]), msg["left"][1]),
        last_round=_end(msg["last_round"]),
        scoreboard=tuple(Scored(r, (a, b)) for r, a, b in msg["scoreboard"]),
        at=at,
        game_s=float(times["game"]),
        round_s=float(times["round"]),
        running=times["running"],
        countdown_end=at + float(times["countdown"]) if msg["counting_down"] else None,
        countdown_s=float(times["countdown_s"]),
        stuck=msg["stuck"],
        waiting=msg["waiting"],
    ), first_to)
