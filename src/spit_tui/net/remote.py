"""The remote table: what `spit-tui join` (and the host's own seat) draws.

A `RemoteTable` is a `Table` the app's widgets read exactly as they read a
local one, but the game is elsewhere: each view the host sends (seatview)
replaces the position, the story, the banners' facts and this seat's message.
The position is a stand-in built from the public view alone: the face-down
stockpile cards, the spit cards and the cards under each pile top are all
the one placeholder card `HIDDEN`, because the client is never told what they
are. Nothing here ever applies an action: a key goes through the local key
layer (the repeat rule, and the D13 stale-key guard against the moment this
screen showed the phase) and then, as a (row, slot) intent, to the host.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Callable
from dataclasses import replace

from spit_tui.clock import GameClock, Stopwatch
from spit_tui.engine import (
    Card,
    Event,
    Game,
    Options,
    Phase,
    Player,
    Position,
    Side,
    Slot,
    card,
)
from spit_tui.players.keymap import Intent, Row, key_for
from spit_tui.players.view import SideView
from spit_tui.scene import Scene
from spit_tui.story import FEED_LEN, Story
from spit_tui.table import Decision, Message, Outcome, Table, playing

HIDDEN: Card = card("As")  # stands for every card the seat may not see; never drawn
FOREVER = math.inf  # a host's message stays until the host's next view says otherwise

Press = Callable[[Row, int], None]


def _slot(size: int, top: Card | None) -> Slot:
    if top is None:
        return Slot((HIDDEN,) * size, False)
    return Slot((HIDDEN,) * (size - 1) + (top,), True)


def _side(s: SideView) -> Side:
    slots = tuple(_slot(n, t) for n, t in zip(s.sizes, s.tops, strict=True))
    return Side(slots, (HIDDEN,) * s.spit, s.ready)


def masked_position(v: Scene) -> Position:
    """A Position holding only what the scene shows; every hidden card is HIDDEN."""
    piles = tuple(
        () if top is None else (HIDDEN,) * (n - 1) + (top,)
        for top, n in zip(v.pile_tops, v.pile_sizes, strict=True)
    )
    return Position(
        phase=v.phase,
        round=v.round,
        sides=(_side(v.sides[0]), _side(v.sides[1])),
        piles=piles,
        spitter=v.spitter,
        winner=v.winner,
        scores=v.scores,
    )


class ShownGame(Game):
    """A Game that only holds the position a view shows: it is drawn, never played."""

    def __init__(self, position: Position, options: Options) -> None:
        self.options = options
        self.rng = random.Random(0)
        self.seed = None
        self.start = self._pos = position
        self.log = []
        self._before = [None, None]
        self._last_actor = None

    def show(self, position: Position) -> None:
        self._pos = position

    def apply(self, action: object) -> Event:
        raise RuntimeError("a remote table's game is played on the host")


class ShownStory(Story):
    """The host's story of the game, as its views tell it."""

    def __init__(self, start: Position) -> None:
        super().__init__(start)
        self.shown_trend: list[tuple[Player, int]] = []

    def take(self, rv: Scene) -> None:
        self.owners = list(rv.owners)
        self.feed = deque(rv.feed, maxlen=FEED_LEN)
        self.played = list(rv.played)
        self.shown_trend = list(rv.trend)
        # the board repaints the bar when the rounds' count changes
        self.held = [(0, 0)] * (len(rv.trend) + 1)

    def trend(self) -> list[tuple[Player, int]]:
        return list(self.shown_trend)


def _mark(v: Scene) -> tuple[object, ...]:
    """What makes a new phase for D13: a ready or slap phase that appeared, or
    the game going on again after it waited for a seat."""
    slap = v.pile_sizes if v.phase is Phase.SLAP else ()
    return (v.phase, v.round, v.stuck, slap, v.waiting is None)


class RemoteTable(Table):
    """One seat's view of a game on a host; keys go to `press`."""

    def __init__(self, seat: Player, press: Press, clock: GameClock, stale_s: float) -> None:
        empty = Side(tuple(Slot() for _ in range(5)))
        start = Position(phase=Phase.SPIT, round=1, sides=(empty, empty), piles=((), ()))
        super().__init__(ShownGame(start, Options()), clock, stale_s=stale_s)
        self.shown.story = ShownStory(start)
        self.me = seat
        self.press = press
        self.remote: Scene | None = None
        self.lost: str | None = None  # our own connection is down: the line to show
        self.own_rtt_ms: int | None = None  # our round trip, as this client measures it
        self._mark: tuple[object, ...] = ()
        self._host_said: tuple[str, str] | None = None
        self._lit: tuple[int, ...] = ()
        self._left: tuple[Player, int] | None = None
        self.invite: str | None = None  # the command that joins the other seat, if ours to give
        self._met = False  # both seats have been at the table

    # -- what the widgets read, from the host's view ----------------------------------

    @property
    def shown_game(self) -> ShownGame:
        assert isinstance(self.game, ShownGame)
        return self.game

    def lit_piles(self) -> tuple[int, ...]:
        return self._lit

    def left_slot(self) -> tuple[Player, int] | None:
        return self._left

    @property
    def away(self) -> str | None:
        if self.lost is not None:
            return self.lost
        rv = self.remote
        if rv is None:
            return "Connecting to the host…"
        if rv.waiting is None or rv.phase is Phase.OVER:
            return None
        if not self._met:
            return f"Waiting for {rv.waiting} to join"
        return f"Waiting for {rv.waiting}: reconnect with the same command"

    @property
    def away_hint(self) -> str:
        rv = self.remote
        if rv is not None and rv.waiting is not None and not self._met and self.invite:
            return f"On the other terminal: {self.invite}"
        return super().away_hint

    @property
    def over_keys(self) -> str:
        return "Ctrl+Q: quit  ·  the game is kept on the host"

    def scene(self) -> Scene:
        rv = self.remote
        ms: list[int | None] = list(rv.pings or (None, None)) if rv is not None else [None, None]
        if ms[self.me] is None:
            ms[self.me] = self.own_rtt_ms
        scene = super().scene()
        if rv is None:
            return replace(scene, pings=(ms[0], ms[1]))
        return replace(
            scene, pings=(ms[0], ms[1]), waiting=rv.waiting, scoreboard=rv.scoreboard
        )

    def show(self, rv: Scene) -> None:
        """The host's latest view of the table: draw it."""
        now = self.clock.now()
        self.remote = rv
        self.lost = None
        self._met = self._met or rv.waiting is None
        v = rv
        game = self.shown_game
        if game.options != v.options:
            game.options = v.options
        game.show(masked_position(rv))
        shown = self.shown
        assert isinstance(shown.story, ShownStory)
        shown.story.take(rv)
        self._names = rv.names
        self._lit = rv.lit
        self._left = rv.left_slot
        shown.stuck_shown = v.stuck
        shown.last_round = rv.last_round
        # the play clock goes on here between views while play is on, as there
        shown.play = Stopwatch(rv.game_s)
        shown.play.run(now, playing(v.phase))
        shown.round_play_from = rv.game_s - rv.round_s
        shown.ended_at = now if v.phase is Phase.OVER else None
        shown.countdown_ends = now + rv.countdown_left() if v.counting_down else None
        mark = _mark(rv)
        if mark != self._mark:  # D13: this screen shows the phase from now on
            self._mark = mark
            shown.phase_shown_at = now
        mine = rv.messages[self.me]
        said = None if mine is None else (mine.text, mine.kind.value)
        if said != self._host_said:  # a word from the host replaces ours
            self._host_said = said
            shown.messages[self.me] = (
                None if said is None else Message(said[0], Outcome(said[1]), FOREVER)
            )
        self._notify()

    def connection_lost(self, line: str) -> None:
        self.lost = line
        self._notify()

    # -- keys: the local key layer, then the host --------------------------------------

    def submit_intent(
        self, intent: Intent, source: str = "key", *, repeats_dropped: bool = False
    ) -> Decision:
        p = intent.player
        key = key_for(p, intent.row, intent.slot)
        if not repeats_dropped and self._repeat(key):
            return self._decide(p, source, "", Outcome.IGNORED, "repeat", key, quiet=True)
        if p is not self.me:
            why = f"you play the {self.me.label} half: use its keys"
            return self._decide(self.me, source, "", Outcome.IGNORED, why, key)
        if self.away is not None:
            return self._decide(p, source, "", Outcome.IGNORED, "paused", key)
        phase = self.position.phase
        guarded = phase is Phase.SPIT or (
            phase is Phase.SLAP and intent.row in (Row.PILE_A, Row.PILE_B)
        )
        if guarded and self.clock.now() < self.phase_shown_at + self.stale_s:
            return self._decide(p, source, "", Outcome.IGNORED, "too soon: press again", key)
        self.press(intent.row, intent.slot)
        self._seq += 1
        d = Decision(self._seq, self.clock.now(), p, source, "", Outcome.APPLIED, "sent", key)
        self.decisions.append(d)
        return d

    def new_game(self, game: Game) -> None:
        """A new game is the host's to start."""
