"""The host's rooms and seats, with no sockets in sight: the part of the host
that decides, so tests and the fuzz drive it directly.

A `Lobby` holds the rooms by code. A `Room` is one authoritative game: its
Table (engine, game clock, the one arrival-ordered input path) and two seats.
A remote intent goes into `Table.submit_intent` exactly as a local key does.
A connection is a `Session` (net.session).

Who gets in: the room code (50 bits from `secrets`) takes a free seat, and
that seat then holds its own token (128 bits). A token is good for one
connection at a time: presented on a new connection it takes the seat back;
if the host still holds the seat's old connection and that one has answered
no ping for LIVE_S (a line whose client side died), the old one is closed;
if it answers, the token is refused (it is in use). A wrong
code, a bad token, a third client or a client over the rate limit is told one
line and closed; the game does not change because of it.
"""

from __future__ import annotations

import hmac
import math
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import partial
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from spit_tui.clock import Handle
from spit_tui.decision import Decision
from spit_tui.engine import Game, Options, Player
from spit_tui.keys.gate import KeyGate
from spit_tui.keys.intent import Intent, Row
from spit_tui.matchscore import MatchScore
from spit_tui.names import COMPUTER, MAX_CELLS
from spit_tui.scene import Scene
from spit_tui.seats import Seats
from spit_tui.subscription import Subscription
from spit_tui.table import Outcome, Table

from .computer import Rungs, SeatComputer, Tags, computer_seating, level_words
from .latency import Rtt, distance, holds, unusual
from .limits import PLAYING_S, Bucket, Limits, RoomAsks, Strangers
from .protocol import Message, frame
from .seatview import SEAT_NAMES, RoomJson, WireView, match_room, room_scene

if TYPE_CHECKING:
    from .directory import Far

CODE_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford's base 32: no i, l, o, u
CODE_CHARS = 10  # 50 bits
TOKEN_BYTES = 16
RATE = 40.0  # messages a second a connection may send, on average
BURST = 80.0  # and at once
ROOM_RATE = 5.0  # rooms a second the whole host makes for `new_room`, on average
ROOM_BURST = 50.0  # and at once
MAX_ROOMS = 1000  # rooms one host holds at most
LIVE_S = 1.6  # a seat that answered no ping for this long may be taken over by its token
# a seat connected but answering no ping for this long (three of the host's, as a seat
# judges a silent host) pauses its room until it answers: a stopped terminal or a
# shut laptop is not played against, as a dropped line is not
SILENT_S = 1.5
MAX_WATCHERS = 50  # watchers of one room at once
PING_SHOW_MS = 5  # a seat's shown ping is resent when it moves by this much
RECORD_PART_CHARS = 12_000  # characters of record lines in one `record` message


def new_code() -> str:
    n = secrets.randbits(5 * CODE_CHARS)
    chars = "".join(CODE_ALPHABET[(n >> (5 * i)) & 31] for i in range(CODE_CHARS))
    return f"{chars[:5]}-{chars[5:]}"


def normal_code(text: str) -> str:
    """A code as typed: any case, with or without the dash, o for 0 and i/l for 1."""
    t = text.strip().lower().replace("-", "").replace(" ", "")
    t = t.translate(str.maketrans("oil", "011"))
    return f"{t[:5]}-{t[5:]}" if len(t) == CODE_CHARS else t


class Conn(Protocol):
    """One connection as the room sees it: send a message, or close with a reason.
    A connection that also has `send_frame(bytes)` (a socket's) is sent views
    as frames encoded once per change for everyone (seatview.WireView)."""

    def send(self, msg: Message) -> None: ...

    def close(self, reason: str, ends: str | None = None) -> None:
        """Say `reason` and close; `ends` (protocol.ENDS): what ends with it,
        the room or the host (None: this connection only)."""


Gist = tuple[bytes, bytes]  # a view less its clocks (WireView.gist)
Held = bytes | Message  # a view held back: a frame, or a message for a Conn without frames


def _deliver(conn: Conn, view: Held) -> None:
    if isinstance(view, bytes):
        conn.send_frame(view)  # type: ignore[attr-defined]
    else:
        conn.send(view)


def _ping(conn: Conn, n: int) -> None:
    """Ping `n`: a socket's frame is written by hand (a host sends four a room
    a second, and the JSON encoder cost several times this; the same bytes)."""
    send_frame = getattr(conn, "send_frame", None)
    if send_frame is None:
        conn.send({"type": "ping", "id": n})
    else:
        send_frame(frame(b'{"type":"ping","id":%d}' % n))


def _view_for(conn: Conn, wire: WireView, seat: Player, heard: int, said: bool,
              own: bytes) -> Held:
    """The view `conn` is sent: a frame if it takes frames, else a message."""
    if getattr(conn, "send_frame", None) is not None:
        return wire.frame(own)
    return wire.message(seat, heard, said)


@runtime_checkable
class Proves(Protocol):
    """A connection that can say how near its far end is, from evidence the far
    end's program cannot bend (the transport's own round trips): seconds, or
    None while it knows nothing yet. A Conn without it proves nothing."""

    def proven_rtt(self) -> float | None: ...


@dataclass(slots=True)
class Seat:
    token: str | None = None  # None: never taken
    conn: Conn | None = None
    sent: Gist | None = None  # the last view sent, so an unchanged view is not resent
    rtt: Rtt = field(default_factory=Rtt)
    shown_ms: int | None = None  # the ping the views carry for this seat
    held: deque[tuple[Handle, Held]] = field(default_factory=deque)  # views being held
    view_due: float = 0.0  # when the last held view goes out: views keep their order
    action_due: float = 0.0  # when the last held action reaches the table: so do actions
    heard: int = 0  # keys of this connection the table has decided (the view's "heard")
    alive_at: float = -math.inf  # when its connection last proved alive (hello, a pong)
    proven: float | None = None  # the round trip its transport proves (net.latency.distance)
    told_unusual: bool = False  # both players were told this seat's pings are unusual
    silent: bool = False  # connected, but answering no ping for SILENT_S: the room waits
    identity: str | None = None  # the SSH key its player came in with (a door's pass)


SAID_CELLS = 36  # a player's message line at 80 columns, less its mark (tests/app/test_words.py)


def fitted(*words: str) -> str:
    """The first of `words` that fits a player's message line: the whole
    words with a short name, fewer with a long one (the last fits with the
    longest name: a name is one cell a character, names.name_problem)."""
    return next((w for w in words if len(w) <= SAID_CELLS), words[-1])


def rematch_words(asker: str, other: str) -> tuple[str, str]:
    """What each seat is told when `asker` asks for a rematch and `other` has
    not yet: (beside the asker, beside the other). Each fits a player's message
    line with the longest name (the game-over banner says Enter asks for one)."""
    waiting = fitted(f"rematch: waiting for {other}", f"waiting for {other}")
    return waiting, f"{asker} wants a rematch"


def late_words(name: str, late_ms: int) -> str:
    """What both seats are told once a connection when `name`'s seat answers
    pings `late_ms` later than its line carries them (a modified client, or a
    slow one): fits a player's message line with the longest name."""
    return fitted(f"{name}: pings {late_ms} ms late", f"{name}: {late_ms} ms late")


@dataclass
class Room:
    """One game on the host and the two seats at it."""

    code: str
    table: Table
    seats: dict[Player, Seat] = field(default_factory=lambda: {p: Seat() for p in Player})
    poke: Callable[[], None] = lambda: None  # the host's loop: a new timer may be due sooner
    hold_actions: bool = True  # latency equalisation of key presses (net.latency)
    hold_views: bool = True  # and of the views sent to the nearer seat
    trust_pongs: bool = False  # believe pings alone (a relay TCP cannot see: benchmarks only)
    expires: bool = False  # made by `new_room`: dropped if no one takes a seat in time
    on_seats: Callable[[], None] = lambda: None  # the host: a seat came or went
    # how late the host's own loop runs at a time (net.latency.LoopLag): not a seat's fault
    loop_late: Callable[[float], float] = lambda now: 0.0
    owner: str | None = None  # the client address that asked for it (`new_room`)
    played_at: float = 0.0  # the host's time of the last card played (or of its making)
    rematch: set[Player] = field(default_factory=set)  # seats that asked for another game
    watchers: list[Conn] = field(default_factory=list)  # at most MAX_WATCHERS
    watch_sent: Gist | None = None  # the last view the watchers were sent
    games: int = 1  # games played in this room, this one included
    wins: list[int] = field(default_factory=lambda: [0, 0])  # games each seat won before this
    match: MatchScore | None = None  # a match room (first to N games): its games before this
    lost: list[int] = field(default_factory=lambda: [0, 0])  # races each seat lost, this game
    daily: str | None = None  # a room of this UTC day's daily deal (store.daily)
    # each rematch's game: a new deal with the room's options (tests deal near an end)
    deal: Callable[[Options], Game] = field(
        default=lambda options: Game(options=options, seed=secrets.randbits(63))
    )
    # the human limits applied to each remote seat's keys, whatever its client claims
    gates: dict[Player, KeyGate] = field(default_factory=dict)
    computers: dict[Player, SeatComputer] = field(default_factory=dict)  # seats it plays
    offered: Player | None = None  # a dropped seat the other player may give the computer
    left: Player | None = None  # a seat whose player said `bye` (left on purpose, not dropped)
    on_takeover: Callable[[Player], None] = lambda p: None  # the host: the offer was taken
    room_json: RoomJson = field(default_factory=RoomJson)  # its views' seldom-changing part

    def __post_init__(self) -> None:
        self.table.subscribe(Subscription(on_change=self.flush, on_decision=self._heard))
        for p in Player:
            # the repeat rule where the keys arrive (before a hold squeezes their gaps)
            self.gates[p] = KeyGate(self.table.gate.stale_s, halves=frozenset({p}), at_arrival=True)
        self._hold()

    @property
    def waiting(self) -> str | None:
        """The seats the game waits for ("LEFT", "LEFT and RIGHT"), or None."""
        names = self.table.seats.names
        missing = [
            names[p] for p, seat in self.seats.items()
            if (seat.conn is None or seat.silent) and p not in self.computers
        ]
        return " and ".join(missing) if missing else None

    def _hold(self) -> None:
        self.table.pause("seats", self.waiting is not None)

    def _seats_moved(self) -> None:
        """A seat fell silent or answers again: the room waits or goes on, and says so."""
        self.table.clock.update()
        self._hold()
        self.flush()
        self.poke()

    def take(self, hello: Message, now: float | None = None) -> tuple[Player, str] | str:
        """The seat a hello asks for and its token, or why not (one line).

        A token whose seat is connected takes it over only if the old
        connection has answered no ping for LIVE_S at `now`: two terminals
        of one machine share their kept tokens, and each tries them all."""
        token, want = hello["token"], hello["seat"]
        if token is not None:
            for p, seat in self.seats.items():
                if seat.token is not None and hmac.compare_digest(seat.token, token):
                    if p in self.computers:
                        return "the computer has taken that seat: the game went on without you"
                    old = seat.conn
                    if old is not None:
                        if now is None or now - seat.alive_at <= LIVE_S:
                            return (
                                "that seat is connected already: "
                                "a token is good for one connection"
                            )
                        # The player is back on a new line while the host still
                        # holds the old one, which answers no ping (half-open:
                        # only the client's side died). The new one wins; the
                        # room pauses between the two.
                        self.detach(p, old)
                        old.close("this seat was taken over by a new connection")
                    return p, seat.token
            return "that token is not for this room"
        free = [p for p in Player if self.seats[p].token is None]
        if want is not None:
            p = Player(SEAT_NAMES.index(want))
            if p not in free:
                return f"the {want} seat is taken"
            free = [p]
        if not free:
            return "the room is full"
        p = free[0]
        self.seats[p].token = secrets.token_urlsafe(TOKEN_BYTES)
        return p, self.seats[p].token or ""

    def watch(self, conn: Conn) -> str | None:
        """A watcher comes: it gets the public board from now on (None), or
        why not. A watcher sees what both players see of each other: no
        face-down card, no spit pile, no seat's own message."""
        if len(self.watchers) >= MAX_WATCHERS:
            return f"this room has {MAX_WATCHERS} watchers already"
        self.watchers.append(conn)
        self._show_watchers([conn], force=True)
        self.flush()  # the players see one more watching
        return None

    def unwatch(self, conn: Conn) -> None:
        if conn in self.watchers:
            self.watchers.remove(conn)
            self.flush()

    def send_watchers_away(self, reason: str, ends: str = "room") -> None:
        """The room ends (or, `ends` "host", the host): each watcher is told why and closed."""
        for conn in list(self.watchers):
            conn.close(reason, ends)
        self.watchers.clear()

    def _scene(self) -> Scene:
        """The scene every seat and watcher of the room is shown now."""
        pings = (self.seats[Player.LEFT].shown_ms, self.seats[Player.RIGHT].shown_ms)
        scene = room_scene(self.table, self.waiting, pings, self.standing())
        return match_room(scene, None if self.match is None else self.match.first_to)

    def _show_watchers(self, watchers: list[Conn], force: bool = False,
                       wire: WireView | None = None) -> None:
        """Each watcher's view: sent now, never held, never waited for; a
        watcher behind on reading skips views until it has caught up (the
        newest is sent then), so a slow watcher never slows the room. A
        watcher sees LEFT's board without LEFT's own message."""
        if not watchers:
            return
        wire = wire or WireView(self._scene(), self.room_json)
        own = wire.own(Player.LEFT, 0, said=False)
        gist = wire.gist(own)  # the clocks alone are no change worth sending
        if gist == self.watch_sent and not force:
            return
        self.watch_sent = gist
        frame: bytes | None = None
        for conn in watchers:
            busy = getattr(conn, "busy", None)
            if busy is not None and busy():
                continue
            if getattr(conn, "send_frame", None) is None:
                conn.send(wire.message(Player.LEFT, 0, said=False))
                continue
            frame = frame or wire.frame(own)
            conn.send_frame(frame)  # type: ignore[attr-defined]

    def standing(self) -> tuple[tuple[int, int] | None, int]:
        """What the boards show of the room: the games each seat has won in it
        (None until a game has ended; in a match room, the match's, from its
        first game on) and how many watch."""
        match = self.match_now()
        if match is not None:
            return (match.wins[0], match.wins[1]), len(self.watchers)
        wins = list(self.wins)
        winner = self.table.position.winner if self.table.game.over else None
        if winner is not None:
            wins[winner] += 1
        ended = self.games > 1 or self.table.game.over
        return ((wins[0], wins[1]) if ended else None), len(self.watchers)

    def match_now(self) -> MatchScore | None:
        """The room's match with the game in play counted once it is over."""
        if self.match is None or not self.table.game.over:
            return self.match
        now = MatchScore(self.match.first_to, self.match.number, list(self.match.wins),
                         self.match.games)
        now.add(self.table.position.winner)
        return now

    def seating(self) -> tuple[tuple[str, str], tuple[str | None, str | None],
                               tuple[str, int] | None, Tags, Rungs, str | None]:
        """Who sits here, for the stored games: the names (the computer's where
        it played a seat from the start), the seats' key identities, the match
        the game belongs to (its key, first to N), the record's tags and the
        computer's rung per seat (net.computer.computer_seating); the Room tag
        says the game was played at seats, so no history offers to resume it
        at one keyboard."""
        ids = (self.seats[Player.LEFT].identity, self.seats[Player.RIGHT].identity)
        match = self.match
        key = None if match is None else (f"{self.code} {match.number}", match.first_to)
        names, tags, rungs = computer_seating(self.table, self.computers)
        from spit_tui.store.resume import ROOM_TAG

        tags = (*tags, (ROOM_TAG, self.code))  # played at seats: never resumed at one keyboard
        if self.daily is not None:  # as a daily game at one keyboard is tagged
            tags = (*tags, ("Daily", self.daily))
        return names, ids, key, tags, rungs, self.daily

    def want_rematch(self, p: Player) -> None:
        """A seat asks for another game after game over: the other is told;
        once both have asked, a new game starts in this room, with the same
        options, seats and names (the last game was stored at its end)."""
        table = self.table
        if not table.game.over:
            return
        self.rematch.add(p)
        # (the computer's seats always want one; each seat sees its own message only)
        if len(self.rematch | self.computers.keys()) < len(self.seats):
            other = Player(1 - p)
            to_asker, to_other = rematch_words(table.seats.names[p], table.seats.names[other])
            table.messages.say(p, to_asker)
            table.messages.say(other, to_other)
            return
        self.rematch.clear()
        for c in self.computers.values():
            c.since_s = None  # a computer that took a seat plays the next game from its start
        winner = table.position.winner
        if winner is not None:
            self.wins[winner] += 1
        match = self.match_now()
        if match is not None:  # a match won: the rematch begins the next one
            self.match = match.next() if match.over else match
        self.games += 1
        self.lost = [0, 0]
        table.new_game(self.deal(table.game.options))
        self.poke()

    def record_parts(self) -> list[Message]:
        """The finished game's record as `record` messages of whole lines, each
        within a frame, for a seat's own history; none before game over (the
        record holds every card, face down ones too) or if it is too long."""
        from spit_tui.engine import format_record
        from spit_tui.store.records import MAX_RECORD_BYTES, record_of

        from .protocol import RECORD_LINE, RECORD_PARTS

        table = self.table
        if not table.game.over:
            return []
        names, _keys, _match, tags, _rungs, _day = self.seating()  # as the host's history has it
        text = format_record(record_of(table, {"Left": names[0], "Right": names[1], **dict(tags)}))
        lines = text.splitlines()
        if len(text) > MAX_RECORD_BYTES or any(len(line) > RECORD_LINE for line in lines):
            return []
        parts: list[list[str]] = [[]]
        size = 0
        for line in lines:
            if size + len(line) + 3 > RECORD_PART_CHARS:
                parts.append([])
                size = 0
            parts[-1].append(line)
            size += len(line) + 3  # its quotes and comma in the JSON
        if len(parts) > RECORD_PARTS:
            return []
        return [
            {"type": "record", "part": i, "parts": len(parts), "lines": chunk,
             "lost": list(self.lost),
             "play_s": round(table.play_seconds(), 3)}
            for i, chunk in enumerate(parts, 1)
        ]

    def name_seat(self, p: Player, name: str) -> None:
        """The name the seat's player gave (protocol 2): on both boards and in
        the stored game. The same name as the other seat's gets a " 2"."""
        names = list(self.table.seats.names)
        if name == names[1 - p]:
            name = f"{name[: MAX_CELLS - 2]} 2"
        names[p] = name
        self.seat_names((names[0], names[1]))

    def seat_names(self, names: tuple[str, str]) -> None:
        """Seat `names` at the table, with the computer's level where it plays."""
        self.table.seat(
            Seats.of(names, {q: level_words(c.rung) for q, c in self.computers.items()})
        )

    def offer_takeover(self, p: Player, level: int, pace: str) -> bool:
        """Seat `p` did not come back in time: the other player (if here) is
        asked whether the computer should finish the game in its place
        (level `level`, `pace` in words), or stop it; False if nobody is
        there to ask."""
        other = self.seats[Player(1 - p)].conn
        if other is None or p in self.computers:
            return False
        self.offered = p
        name = self.table.seats.names[p]
        other.send({"type": "dropped", "name": name, "level": level, "pace": pace})
        return True

    def take_offer(self, by: Player) -> None:
        """The player at `by` chose the computer for the dropped seat offered."""
        p = self.offered
        if p is None or p == by or self.seats[p].conn is not None:
            return
        self.offered = None
        self.on_takeover(p)

    def seat_computer(self, p: Player, computer: SeatComputer) -> None:
        """The computer plays seat `p` from now on (its level on the boards)."""
        self.computers[p] = computer
        self.seats[p].shown_ms = None  # no line to measure: the board shows no ping for it
        if self.seats[p].token is None:  # never given out: nobody can take this seat
            self.seats[p].token = secrets.token_urlsafe(TOKEN_BYTES)
        self.seat_names(self.table.seats.names)
        self.table.clock.update()
        self._hold()
        self.flush()
        self.poke()
        self.on_seats()

    def attach(self, p: Player, conn: Conn) -> None:
        if self.offered == p:
            self.offered = None  # back in time after all: no computer needed
        if self.left == p:
            self.left = None  # back with its token after all (a finished game's seat)
        seat = self.seats[p]
        seat.conn = conn
        seat.sent = None
        seat.rtt = Rtt()  # a new connection may come from somewhere else
        seat.proven = None
        seat.told_unusual = False
        seat.silent = False
        seat.heard = 0
        seat.shown_ms = None
        self.table.clock.update()
        self._hold()
        self.flush()
        self.poke()
        self.on_seats()

    def leave(self, p: Player, conn: Conn) -> None:
        """Seat `p`'s player says `bye` on its connection: a leave, not a drop
        (its detach follows as the connection closes: the host stops a game
        in play at once rather than wait for a player who is not coming)."""
        if self.seats[p].conn is conn:
            self.left = p

    def detach(self, p: Player, conn: Conn) -> None:
        seat = self.seats[p]
        if seat.conn is conn:
            seat.conn = None
            seat.silent = False  # gone: waited for as a drop now
            self._drop_held(seat)
            self.rematch.discard(p)
            other = Player(1 - p)
            if self.table.game.over and self.seats[other].conn is not None:
                # no rematch without them: the one staying is told the way on
                self.table.messages.say(other, f"{self.table.seats.names[p]} has left the room")
            self.table.clock.update()
            self._hold()
            self.flush()
            self.poke()  # the host drops a room whose game is over once both have gone
            self.on_seats()

    def _heard(self, d: Decision) -> None:
        if d.source == "key":
            self.seats[d.player].heard += 1
        if d.outcome is Outcome.LOST_RACE:
            self.lost[d.player] += 1

    def playing(self, now: float) -> bool:
        """Both seats here and a card played lately: its players are never
        charged to the strangers' budget (net.limits)."""
        seats = self.seats.values()
        return now - self.played_at <= PLAYING_S and all(s.conn is not None for s in seats)

    # -- latency equalisation (net.latency) --------------------------------------------

    def one_way(self, p: Player) -> float | None:
        """The one-way delay the holds take for seat `p` (net.latency.distance);
        None until it is measured."""
        seat = self.seats[p]
        if seat.conn is None or seat.rtt.srtt is None:
            return None
        if self.trust_pongs:
            return seat.rtt.one_way
        return distance(seat.rtt.srtt, seat.proven)

    def holds(self) -> tuple[float, float]:
        """How long each seat is held now: nothing until both seats have been measured."""
        left, right = self.one_way(Player.LEFT), self.one_way(Player.RIGHT)
        if left is None or right is None:
            return (0.0, 0.0)
        return holds((left, right))

    def ping(self, now: float) -> None:
        """Ping every connected seat (the host does this every latency.PING_S),
        and every watcher that is keeping up: a board that does not change for
        a while must not look like a host that has gone (their pongs are not
        measured). A seat that answered none for SILENT_S pauses the room
        until it answers again (`pong`)."""
        late = self.loop_late(now)  # the host's own delay is no seat's silence
        fell_silent = False
        for p, seat in self.seats.items():
            if seat.conn is not None:
                quiet = now - seat.alive_at - late  # (inf: not yet heard: not judged)
                if not seat.silent and SILENT_S < quiet < math.inf and p not in self.computers:
                    seat.silent = fell_silent = True
                _ping(seat.conn, seat.rtt.ping(now))
        if fell_silent:
            self._seats_moved()
        for conn in self.watchers:
            busy = getattr(conn, "busy", None)
            if busy is None or not busy():
                _ping(conn, 0)

    def pong(self, p: Player, n: int, now: float) -> None:
        """Seat `p` answered ping `n`; its shown ping is updated when it has moved."""
        seat = self.seats[p]
        if not seat.rtt.pong(n, now, self.loop_late(now)):
            return
        seat.alive_at = now
        if seat.silent:  # answering again: the room goes on
            seat.silent = False
            self._seats_moved()
        # getattr, not isinstance: a runtime Protocol check costs more than the
        # rest of a pong (benchmarks/room_cost.py)
        proven_rtt = getattr(seat.conn, "proven_rtt", None)
        if proven_rtt is not None:
            seat.proven = proven_rtt()
        own = seat.rtt.seats_own
        if own is not None and unusual(own, seat.proven):
            self._tell_unusual(p, own)
        one_way = self.one_way(p)
        ms = None if one_way is None else round(2000 * one_way)  # the distance held on
        if ms is not None and (seat.shown_ms is None or abs(ms - seat.shown_ms) >= PING_SHOW_MS):
            seat.shown_ms = ms
            self.table.clock.update()
            self.flush()
            self.poke()

    def _tell_unusual(self, p: Player, own: float) -> None:
        """Tell both players, once a connection, that seat `p` answers pings far
        later than its line carries them (a modified client, or a slow one):
        `own`, its smoothed round trip less what the host's own loop added."""
        seat = self.seats[p]
        if seat.told_unusual or seat.proven is None:
            return
        seat.told_unusual = True
        late = round(1000 * (own - seat.proven))
        line = late_words(self.table.seats.names[p], late)
        for q in Player:
            self.table.messages.say(q, line)

    def submit(self, p: Player, row: Row, slot: int) -> None:
        """A remote key press: the same path as a local one, after the seat's hold.

        The hold runs on the room's clock, and a seat's presses keep their order
        even while its hold changes. The seat's gate applies a person's limits
        whatever the client did: the repeat rule per key, measured here as the
        keys arrive, and D13 from the moment the seat can have seen the phase
        (`lag_s`)."""
        clock = self.table.clock
        clock.update()
        intent = Intent(p, row, slot)
        gate = self.gates[p]
        if gate.repeat(intent, clock.now()):
            self.table.ignore_repeat(intent, gate)
            self.poke()
            return
        hold = self.holds()[p] if self.hold_actions else 0.0
        lag = self.lag_s(p)
        seat = self.seats[p]
        due = max(clock.now() + hold, seat.action_due)
        if due > clock.now() and not clock.paused:
            seat.action_due = due
            clock.call_at(due, lambda: self.table.submit_intent(intent, gate=gate, lag_s=lag))
        else:
            self.table.submit_intent(intent, gate=gate, lag_s=lag)
        self.poke()

    def lag_s(self, p: Player) -> float:
        """How much later than the table seat `p` can have reacted to a phase (D13):
        its view's hold, the way there and back (the lowest round trip its transport
        proves: never more than an honest key takes), and its key's hold."""
        holds = self.holds()[p]
        view = holds if self.hold_views else 0.0
        action = holds if self.hold_actions else 0.0
        proven = self.seats[p].proven
        return view + action + (proven or 0.0)

    def flush(self) -> None:
        """Send each connected seat its view, if it changed since the last one sent,
        holding the nearer seat's views (hold_views) so both see a change together."""
        wire = WireView(self._scene(), self.room_json)
        hold = self.holds() if self.hold_views else (0.0, 0.0)
        clock = self.table.clock
        self._show_watchers(self.watchers, wire=wire)
        for p, seat in self.seats.items():
            conn = seat.conn
            if conn is None:
                continue
            own = wire.own(p, seat.heard)
            gist = wire.gist(own)  # the clocks alone are no change worth sending
            if gist == seat.sent:
                continue
            seat.sent = gist
            view = _view_for(conn, wire, p, seat.heard, True, own)
            due = max(clock.now() + hold[p], seat.view_due)
            if clock.paused or due <= clock.now():
                self._send_held(seat, len(seat.held))
                _deliver(conn, view)
            else:
                seat.view_due = due
                handle = clock.call_at(due, partial(self._send_held, seat, 1))
                seat.held.append((handle, view))
                self.poke()  # the host's loop may be asleep past `due`

    def _send_held(self, seat: Seat, n: int) -> None:
        """Send the first `n` held views of `seat`, in order."""
        for _ in range(min(n, len(seat.held))):
            handle, view = seat.held.popleft()
            handle.cancel()
            if seat.conn is not None:
                _deliver(seat.conn, view)

    def _drop_held(self, seat: Seat) -> None:
        for handle, _ in seat.held:
            handle.cancel()
        seat.held.clear()
        seat.view_due = 0.0


class Lobby:
    """The rooms of one host, by code; `make_table` builds each room's game."""

    def __init__(
        self,
        make_table: Callable[..., Table],  # (), or (options) for a room of its own
        *,
        max_rooms: int = MAX_ROOMS,
        room_rate: float = ROOM_RATE,
        room_burst: float = ROOM_BURST,
        limits: Limits | None = None,
    ) -> None:
        self.make_table = make_table
        self.limits = limits or Limits()
        self.asks = RoomAsks(self.limits)
        self.strangers = Strangers(self.limits)
        self.rooms: dict[str, Room] = {}
        self.on_new_room: Callable[[Room], None] = lambda room: None
        self.max_rooms = max_rooms
        self.room_bucket = Bucket(room_rate, room_burst)
        self.equalise = (True, True)  # each new room's (hold_actions, hold_views)
        self.trust_pongs = False  # each new room's Room.trust_pongs
        self.quick: Room | None = None  # where the next quick match goes
        self.first_to: int | None = None  # each new room plays matches, first to N games
        self.passes: dict[str, str] = {}  # an SSH door's passes: pass -> its guest's key
        # the directory many hosts share (net.directory), if this host has one:
        # it answers for codes held elsewhere and pairs quick matches, and
        # gives the codes for new rooms (claimed there, so no host repeats one)
        self.far: Far | None = None
        self.take_code: Callable[[], str] = new_code
        self.today: Callable[[], date] = lambda: datetime.now(UTC).date()  # the daily deal's day

    def new_room(self, expires: bool = False, options: Options | None = None) -> Room:
        """A room with the host's options, or its own (`options`: New room's)."""
        code = self.take_code()
        while code in self.rooms:
            code = new_code()
        table = self.make_table() if options is None else self.make_table(options)
        room = Room(code, table, expires=expires)
        room.hold_actions, room.hold_views = self.equalise
        room.trust_pongs = self.trust_pongs
        if self.first_to is not None:
            room.match = MatchScore(self.first_to)
        self.rooms[code] = room
        self.on_new_room(room)
        return room

    def vouch(self, identity: str) -> str:
        """A pass for a guest of this host's own SSH door, whose key is
        `identity`: the guest's game says it in its hello, and the seat it
        takes is stored and rated under that key (a name alone proves nothing)."""
        given = secrets.token_urlsafe(TOKEN_BYTES)
        self.passes[given] = identity
        return given

    def revoke(self, given: str) -> None:
        """The guest's session ended: its pass is good no more."""
        self.passes.pop(given, None)

    def vouched(self, given: str) -> str | None:
        """The key a pass stands for, or None if this host gave no such pass."""
        for known, identity in self.passes.items():
            if hmac.compare_digest(known, given):
                return identity
        return None

    def quick_room(self, now: float, address: str = "") -> Room | str:
        """A quick match: the room of the player waiting for one, if they are
        still there (or about to say hello), else a new room for the next to
        find; or why not (one line), as for request_room."""
        room = self.quick
        if room is not None and self.rooms.get(room.code) is room:
            seats = room.seats.values()
            left = any(s.token is not None and s.conn is None for s in seats)
            full = all(s.token is not None for s in seats)
            if not left and not full:
                self.quick = None  # paired: the next quick starts a new room
                return room
        made = self.request_room(now, address)
        self.quick = made if isinstance(made, Room) else None
        return made

    def daily_room(self, now: float, address: str = "") -> Room | str:
        """A room of today's daily deal (UTC, this host's day) against the
        computer at the daily's level, for the player asking: the deal and
        the level everyone meets that day; a rematch deals it again (practice:
        the day's table counts a player's first finished game). Or why not."""
        from spit_tui.store.daily import LEVEL, seed_for
        from spit_tui.store.ratings import RUNG_OF_LEVEL

        day = self.today()
        seed = seed_for(day)
        room = self.request_room(now, address, Options(), RUNG_OF_LEVEL[LEVEL], seed=seed)
        if isinstance(room, Room):
            room.daily = day.isoformat()
            room.deal = lambda options: Game(options=options, seed=seed)
        return room

    def request_room(
        self, now: float, address: str = "", options: Options | None = None,
        computer: int | None = None, seed: int | None = None,
    ) -> Room | str:
        """A room asked for over the wire (`new_room`) from `address`, or why
        not (one line); with its own `options`, and the computer at level
        `computer` in the RIGHT seat if given (the lobby's Play the computer).
        The host-wide bucket slows only addresses that hold rooms already, so
        a flood from some cannot deny everyone else."""
        if len(self.rooms) >= self.max_rooms:
            return "this host has no room for another game"
        held = sum(1 for r in self.rooms.values() if r.owner == address)
        why = self.asks.refuse(address, held, len(self.rooms), self.max_rooms, now)
        if why is not None:
            return why
        if held and not self.room_bucket.take(now):
            return "too many new rooms: try again in a moment"
        room = self.new_room(expires=True, **({} if options is None else {"options": options}))
        room.owner = address
        room.played_at = now
        if seed is not None:  # a given deal (the daily's), before anyone sits
            room.table.new_game(Game(options=room.table.game.options, seed=seed))
        if computer is not None:
            room.seat_names((room.table.seats.names[0], COMPUTER))
            room.seat_computer(Player.RIGHT, SeatComputer.seat(room.table, Player.RIGHT, computer))
        return room
