"""One picture of what a screen shows: the `Scene`.

A Scene is a value: the public cards (face-up tops, counts, pile tops and
sizes: a face-down card or a spit card has no representation here at all,
an unknown is a count), the names, each seat's message, the story beside the
cards, the lit piles, the last round, the clocks as values plus a running
flag, the countdown's end and the banner's facts. `Table.scene()` builds it
(spit_tui.tablescene), the host sends it (`net.seatview.scene_to_wire`), a
seat reads it back (`scene_from_wire`), and every widget draws a Scene and
nothing else, so a local game, a remote seat and a help page's board are
drawn by one code path from one kind of value, and no screen ever holds a
stand-in for a hidden card.

Times: `at` is the time on the holder's game clock that the clock values are
true at; `countdown_end` is on that same clock. `at_time(now)` moves the
running clocks on to `now` (a remote seat between two views).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from spit_tui.engine import PLAYERS, Card, Options, Phase, Player, RoundEnd
from spit_tui.players.view import SideView, View
from spit_tui.story import FeedEntry

DEFAULT_OPTIONS = Options()
SCOREBOARD_ROUNDS = 10  # the points game's scoreboard shows this many latest rounds


class Outcome(StrEnum):
    """What became of one submission, and the kind of the message it left."""

    APPLIED = "applied"
    ILLEGAL = "illegal"
    LOST_RACE = "too late"
    IGNORED = "ignored"  # stale key (D13), wrong phase, notice, countdown running
    SENT = "sent"  # a remote seat's key, sent on: the host decides (and its table logs that)


class Said(NamedTuple):
    """A word beside a player: why their last key did nothing, and its kind."""

    text: str
    kind: Outcome


class Scored(NamedTuple):
    """One finished round on the points game's scoreboard."""

    round: int
    points: tuple[int, int]


class Scene(NamedTuple):
    """Everything a screen may show of one game at one moment (see the module)."""

    # the cards on show
    phase: Phase
    round: int
    sides: tuple[SideView, SideView]  # each side's ready flag counts a ready whose spit is coming
    pile_tops: tuple[Card | None, ...]
    pile_sizes: tuple[int, ...]
    spitter: Player | None = None
    winner: Player | None = None
    scores: tuple[int, int] = (0, 0)
    options: Options = DEFAULT_OPTIONS
    # the words
    names: tuple[str, str] = ("LEFT", "RIGHT")
    messages: tuple[Said | None, Said | None] = (None, None)
    computer: tuple[str | None, str | None] = (None, None)  # the computer's halves: level words
    # the halves whose keys this screen labels: both at one keyboard; a seat's
    # own (the other's player has keys of their own, unknown here); none for a watcher
    keyed: tuple[bool, bool] = (True, True)
    pings: tuple[int | None, int | None] | None = None  # each seat's round trip (ms); None: local
    room_wins: tuple[int, int] | None = None  # a host's room: games each seat has won in it
    first_to: int | None = None  # a host's match room: first to this many games (room_wins: its)
    watchers: int = 0  # a host's room: how many watch it
    # the story
    owners: tuple[Player | None, ...] = ()
    feed: tuple[FeedEntry, ...] = ()
    played: tuple[int, int] = (0, 0)
    trend: tuple[tuple[Player, int], ...] = ()
    lit: tuple[int, ...] = ()
    left_slot: tuple[Player, int] | None = None  # the stockpile a card just left, while lit
    last_round: RoundEnd | None = None
    scoreboard: tuple[Scored, ...] = ()
    # the clocks
    at: float = 0.0
    game_s: float = 0.0  # seconds of play in the game so far (no pause, no wait for the spit)
    round_s: float = 0.0  # seconds of play in this round
    running: bool = False  # the play clock runs on after `at`
    countdown_end: float | None = None
    countdown_s: float = 0.6
    # the banner's facts
    stuck: bool = False  # "no plays left: spit!" is up
    waiting: str | None = None  # the seat a host waits for (by name), if any
    # what only the screen's own table knows (never on the wire)
    fresh: bool = True  # nothing has been played in this game yet
    held: bool = False  # a resumed game waits for its players before its clocks run
    away: str | None = None  # a remote seat's game waits for this (a seat, the line)
    away_hint: str = ""
    offer: str = ""  # a stopped game the opening banner offers to resume
    figures: str = ""  # the finished game's figures beside the players' records
    match: str = ""  # the match's score, in a match (--match N)

    @property
    def single_pile(self) -> bool:
        return len(self.pile_sizes) == 1

    @property
    def counting_down(self) -> bool:
        return self.countdown_end is not None

    @property
    def ready(self) -> tuple[bool, bool]:
        """Who has said "spit" (a ready whose spit is counting down counts)."""
        return self.sides[0].ready, self.sides[1].ready

    def countdown_left(self) -> float:
        end = self.countdown_end
        return 0.0 if end is None else max(0.0, end - self.at)

    def message(self, p: Player) -> Said | None:
        return self.messages[p]

    def spitters(self) -> tuple[Player, ...]:
        """Who the next spit needs a "spit" from (D12): both at a round's
        start, else the players who still have a spit card."""
        if not any(self.pile_sizes):
            return PLAYERS
        return tuple(p for p in PLAYERS if self.sides[p].spit)

    def opening(self) -> bool:
        """The game's first banner: round 1, nobody has spat yet."""
        return (
            self.round == 1 and self.phase is Phase.SPIT and not any(self.pile_sizes)
            and self.last_round is None and not self.counting_down
        )

    def at_time(self, now: float) -> Scene:
        """The same scene at `now` on the same clock: the running clocks moved on."""
        if now == self.at:
            return self
        run = max(0.0, now - self.at) if self.running else 0.0
        return self._replace(at=now, game_s=self.game_s + run, round_s=self.round_s + run)

    def taken_at(self, now: float) -> Scene:
        """The same scene as if taken at `now` (a view just read: its clocks run from here)."""
        end = self.countdown_end
        return self._replace(at=now, countdown_end=None if end is None else now + (end - self.at))

    def view(self, me: Player) -> View:
        """The table from `me`'s chair, as the computer's policy reads it."""
        return View(
            me=me,
            phase=self.phase,
            round=self.round,
            sides=self.sides,
            pile_tops=self.pile_tops,
            pile_sizes=self.pile_sizes,
            single_pile=self.single_pile,
            manual_flip=self.options.manual_flip,
            stuck_banner=self.stuck,
            counting_down=self.counting_down,
        )
