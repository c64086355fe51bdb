"""What the table tells the players besides the cards: who put each pile's top
card there, a short feed of the latest plays, races and slaps, how many cards
each player has played this game, and the rope of the tug-of-war (the cards
each held at the start and after every round).

A `Story` is fed the Table's events and lost races, in the order they happen,
and keeps only what the board draws; a new game gets a new Story. Nothing here
reads a clock or imports Textual.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from spit_tui.engine import PLAYERS, Card, Event, Play, Player, Position, Slap

FEED_LEN = 2  # feed entries the board shows, newest first
TREND_LEN = 3  # rounds the trend looks back over


class FeedEntry(NamedTuple):
    """One line of the feed, in facts (the board puts them into words)."""

    kind: str  # "play", "spit", "slap" or "late" (a lost race)
    player: Player | None  # None for a spit (everyone who spat)
    cards: tuple[Card, ...] = ()
    pile: int | None = None  # None in a single-pile round


class Story:
    """The running account of one game, for the board's feed, colours and bar."""

    def __init__(self, start: Position) -> None:
        self.owners: list[Player | None] = [None] * len(start.piles)
        self.feed: deque[FeedEntry] = deque(maxlen=FEED_LEN)
        self.played = [0, 0]  # cards each player has put on a spit pile this game
        # The rope at the start and after every round (a game that starts in the
        # middle of a round, with cards on the piles, starts at its first round end).
        totals = (start.sides[0].total, start.sides[1].total)
        self.held: list[tuple[int, int]] = [] if any(start.piles) else [totals]
        self.scores: list[tuple[int, int]] = [] if any(start.piles) else [start.scores]
        # the trend as of len(held) rounds: it changes only as a round ends
        self._trend: tuple[int, tuple[tuple[Player, int], ...]] = (0, ())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Story):
            return False
        mine, theirs = dict(vars(self)), dict(vars(other))
        del mine["_trend"], theirs["_trend"]  # worked out when asked
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value only

    def owner(self, pile: int) -> Player | None:
        """Who put the pile's top card there (None: nobody yet, or no such pile)."""
        return self.owners[pile] if 0 <= pile < len(self.owners) else None

    def on_event(self, event: Event) -> None:
        a = event.action
        pos = event.position
        if len(self.owners) != len(pos.piles):
            self.owners = [None] * len(pos.piles)
        if isinstance(a, Play) and event.card is not None:
            self.owners[a.pile] = a.player
            self.played[a.player] += 1
            where = None if pos.single_pile else a.pile
            self.feed.appendleft(FeedEntry("play", a.player, (event.card,), where))
        elif event.spat:
            for i, _ in event.spat:
                self.owners[i] = pos.spitter if pos.single_pile else PLAYERS[i]
            cards = tuple(c for _, c in event.spat)
            self.feed.appendleft(FeedEntry("spit", None, cards))
        elif isinstance(a, Slap):
            self.feed.appendleft(FeedEntry("slap", a.player, (), a.pile))
        for i, cards in enumerate(pos.piles):
            if not cards:
                self.owners[i] = None
        end = event.round_over
        if end is not None:
            self.held.append(end.held)
            self.scores.append(end.scores)

    def lost_race(self, player: Player) -> None:
        self.feed.appendleft(FeedEntry("late", player))

    def trend(self) -> tuple[tuple[Player, int], ...]:
        """The last rounds, oldest first: who gained and by how much. In the
        standard game a gain is cards shed; in the points game it is the round
        won on points (the fewer points). Even rounds are left out. Worked out
        once a round (a host asks at every change of every room)."""
        rounds, trend = self._trend
        if rounds != len(self.held):
            trend = self._rounds_won()
            self._trend = (len(self.held), trend)
        return trend

    def _rounds_won(self) -> tuple[tuple[Player, int], ...]:
        out: list[tuple[Player, int]] = []
        for before, after, s0, s1 in zip(
            self.held, self.held[1:], self.scores, self.scores[1:], strict=False
        ):
            # points: every round is a fresh deal, and the fewer points won it
            points = (s1[0] - s0[0]) - (s1[1] - s0[1])
            diff = points if s1 != s0 else after[0] - before[0]
            if diff:
                out.append((Player.LEFT if diff < 0 else Player.RIGHT, abs(diff)))
        return tuple(out[-TREND_LEN:])
