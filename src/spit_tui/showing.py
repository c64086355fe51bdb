"""What one game at a table has on show beside its position: the last event
and its highlight, the rounds so far, the countdown and the ready it waits
to apply, the stuck call, when each phase appeared (D13), the play clock and
the stamp of each applied action.

A `Showing` is plain state with no clock and no listeners: `saw(event, now)`
is what an applied event does to it. The table's ordered path
(spit_tui.table) is its only writer, as it applies each action in arrival
order (and sets the timers: the highlight's end, the stuck call, the
countdown); a resumed game is caught up the same way (`replayed`). Everyone
else reads it (`table.shown`): the scene builder, the record's stamps, the
app (a held game).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spit_tui.clock import Handle, Stopwatch
from spit_tui.engine import (
    Event,
    Game,
    Phase,
    Play,
    Player,
    Position,
    Record,
    RoundEnd,
    Slap,
    Source,
    Stamp,
    Stamps,
)
from spit_tui.story import Story

__all__ = ["HIGHLIGHT_S", "Showing", "playing"]

HIGHLIGHT_S = 0.7  # how long the card just played stays highlighted


@dataclass(slots=True, eq=False, repr=False)  # only __init__: compiled at every start
class Showing:
    """What one game has on show beside the position (see the module).
    `Table.new_game` replaces it whole, so nothing of a finished game is left
    behind; only the Table writes it."""

    started_at: float  # game clock time the game began
    round_started_at: float
    play: Stopwatch  # the game's play so far: while cards can be played or slapped
    round_play_from: float  # the play seconds the current round began at
    phase_shown_at: float  # D13: when the current ready/slap phase appeared
    story: Story  # whose card is on each pile, the feed, the tug-of-war
    stuck_shown: bool = False  # the "no plays left: spit!" banner is up
    last_event: Event | None = None
    highlight_until: float = 0.0
    last_round: RoundEnd | None = None  # shown as the round summary
    rounds: list[RoundEnd] = field(default_factory=list)  # every round finished (scoreboard)
    ended_at: float | None = None
    countdown_ends: float | None = None
    countdown: Handle | None = None
    pending_ready: Player | None = None
    pending_stamp: Stamp | None = None  # when the pending ready was pressed
    stuck_since: float | None = None  # when the last "no plays left" came (before its banner)
    # one stamp per action of the game's log, made as each is applied (a resumed
    # game's stored ones first): the record's stamps, never rebuilt afterwards
    stamps: Stamps = field(default_factory=Stamps)
    held: bool = False  # a resumed game waits for the players (Enter) before its clocks run

    @classmethod
    def start(cls, game: Game, now: float) -> Showing:
        """A game that starts from a given position may start stuck (spit phase with
        cards on the piles): then the "no plays left" call is already showing. An
        action already in the game's log (applied elsewhere) has no stamp."""
        position = game.position
        stuck = position.phase is Phase.SPIT and any(position.piles)
        play = Stopwatch()
        play.run(now, playing(position.phase))
        return cls(
            started_at=now, round_started_at=now, play=play, round_play_from=0.0,
            phase_shown_at=now, story=Story(position), stuck_shown=stuck,
            stamps=Stamps([None] * len(game.log)),
        )

    @classmethod
    def replayed(cls, record: Record, t0: float, countdown_s: float) -> tuple[Game, Showing]:
        """A stopped game caught up from its record (Table.resume): its game
        and what it had on show, every event shown at its stamp's game time
        from `t0`, the game's start (a spit lands `countdown_s` after its
        press). Raises `Refusal` if the log does not fit its start."""
        game = record.game()
        shown = cls.start(game, t0)
        steps = list(record.walk(game))
        shown.stamps = Stamps(record.stamps)
        for step in steps:
            shown.saw(step.event, t0 + step.lands(countdown_s))
        return game, shown

    def lit_piles(self, pos: Position, now: float) -> tuple[int, ...]:
        """Piles whose top card just landed (highlighted for a moment)."""
        ev = self.last_event
        if ev is None or self.highlight_until <= now:
            return ()
        if ev.spat:
            return tuple([i for i, _ in ev.spat])
        if ev.card is not None and isinstance(ev.action, Play):
            pile = ev.action.pile
            if pile < len(pos.piles) and pos.pile_top(pile) == ev.card:
                return (pile,)
        return ()

    def left_slot(self, now: float) -> tuple[Player, int] | None:
        """The stockpile a card just left for a pile (marked for as long as the
        pile it landed on is lit): who played it and from which slot."""
        ev = self.last_event
        if ev is None or self.highlight_until <= now:
            return None
        a = ev.action
        if isinstance(a, Play) and ev.card is not None:
            return (a.player, a.slot)
        return None

    def stamp(self, source: str, now: float) -> Stamp:
        """An action's stamp: its game time since the game began, and who made
        it ("bot": the computer)."""
        ms = max(0, round((now - self.started_at) * 1000))
        return Stamp(ms, Source.COMPUTER if source == "bot" else Source.KEY)

    def saw(self, event: Event, now: float) -> None:
        """Show what `event` did, as of game time `now`: as it lands on the
        table's path, or at its stamp's time in a resumed game's catch-up."""
        self.last_event = event
        self.story.on_event(event)
        if event.card is not None:
            self.highlight_until = now + HIGHLIGHT_S
        pos = event.position
        if event.round_over is not None:
            self.last_round = event.round_over
            self.rounds.append(event.round_over)
        if pos.phase is not Phase.SPIT or event.stuck:
            self.stuck_shown = False
        if event.stuck and pos.phase is Phase.SPIT:
            self.stuck_since = now  # the table calls it out a moment later
        if pos.phase is Phase.SLAP and event.round_over is not None:
            self.phase_shown_at = now
        self.play.run(now, playing(pos.phase))
        if isinstance(event.action, Slap) or (
            event.round_over is not None and pos.phase is Phase.SPIT
        ):
            self.phase_shown_at = now
            self.round_started_at = now
            self.round_play_from = self.play.seconds(now)
        if pos.phase is Phase.OVER and self.ended_at is None:
            self.ended_at = now


def playing(phase: Phase) -> bool:
    """Whether the play clock runs in `phase`: while cards can be played or
    slapped, not while the players wait for the spit (or the game is over)."""
    return phase in (Phase.PLAY, Phase.SLAP)
