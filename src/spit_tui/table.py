"""The table: one arrival-ordered input path between players and the engine,
and what is timed around it on the game clock: the countdown before a spit,
the stuck call, the stale-key and repeat rules (through its key gate), the
highlight of the card just played.

Humans (key presses) and bots (scheduled actions) both come through
`Table.submit`, so the order in which things reach `submit` is the order in
which the engine applies them (D5). Every submission gets exactly one
`Decision` (spit_tui.decision) in `decisions`, which is what the burst
benchmark and the fairness tests read. Beside the path, each in a module of
its own: what the game has on show (spit_tui.showing, which the path alone
writes), who sits where (spit_tui.seats), the word beside each player
(spit_tui.messages), the Scene a screen draws (spit_tui.tablescene) and who
hears of it (spit_tui.subscription). Nothing here imports Textual: the app
is a view of a Table.
"""

from __future__ import annotations

from collections import deque

from spit_tui.clock import GameClock
from spit_tui.decision import LOG_LIMIT, Decision, action_text, refusal_outcome
from spit_tui.engine import (
    Action,
    Event,
    Game,
    Phase,
    Player,
    Position,
    Ready,
    Record,
    RefusalKind,
    Slap,
)
from spit_tui.keys.gate import REPEAT_S, STALE_S, KeyGate, guarded
from spit_tui.keys.intent import Intent, action_for
from spit_tui.keys.keymap import US, KeyMap
from spit_tui.messages import Messages, computers_half, idle, slapped_first, too_late
from spit_tui.scene import Outcome, Scene
from spit_tui.seats import Seats
from spit_tui.showing import HIGHLIGHT_S, Showing
from spit_tui.subscription import Subscribers, Subscription
from spit_tui.tablescene import SceneBuilder

__all__ = ["Outcome", "Table"]

COUNTDOWN_S = 0.6  # between the last "ready" and the spit: the cards fly on "spit!"
STUCK_DELAY_S = 0.35  # let players see the last card before "no plays left"


class Table:
    """A game in progress at a table: the Game, the clock, and what is on show.

    Others read it (the scene, the bots, the history) and act on it through
    its methods only: `submit`/`submit_intent` (the one input path),
    `messages.say` (a word beside a player), `pause`, `seat` (who sits where)
    and `new_game`/`resume`."""

    def __init__(
        self,
        game: Game,
        clock: GameClock,
        *,
        countdown_s: float = COUNTDOWN_S,
        stale_s: float = STALE_S,
        repeat_s: float = REPEAT_S,
        stuck_delay_s: float = STUCK_DELAY_S,
        keymap: KeyMap = US,
        log_limit: int = LOG_LIMIT,
    ) -> None:
        """`log_limit`: the decisions kept (a host keeps few: net.host)."""
        self.game = game
        self.keymap = keymap  # the players' keys: what a Decision calls the key pressed
        self.clock = clock
        self.countdown_s = countdown_s
        self.gate = KeyGate(stale_s, repeat_s)  # the human limits of this table's keyboard
        self.stuck_delay_s = stuck_delay_s
        self.decisions: deque[Decision] = deque(maxlen=log_limit)
        self.counts: dict[Outcome, int] = dict.fromkeys(Outcome, 0)
        self._seq = 0
        self._heard = Subscribers()  # who hears of changes, events, decisions, new games
        self._notify = self._heard.tell_change  # a repaint is due
        self.seats = Seats()  # who sits where: the names, the computer's halves (Table.seat)
        self._told_computer = False  # "that half is the computer's" is said once
        self.shown = Showing.start(game, clock.now())
        self._scenes = SceneBuilder()  # what a screen shows of it (Table.scene)
        self.messages = Messages(clock, self._notify)  # the word beside each player

    # -- what the views and the bots read ---------------------------------------------

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def paused(self) -> bool:
        return self.clock.paused

    def play_seconds(self) -> float:
        """Seconds of play in this game so far (the game-over line, the history):
        game time while cards could be played or slapped, so neither a pause nor
        the wait for the spit counts."""
        return self.shown.play.seconds(self.clock.now())

    def round_play_seconds(self) -> float:
        """Seconds of play in the current round (the round clock)."""
        return self.play_seconds() - self.shown.round_play_from

    @property
    def counting_down(self) -> bool:
        return self.shown.countdown_ends is not None

    def countdown_left(self) -> float:
        ends = self.shown.countdown_ends
        return 0.0 if ends is None else max(0.0, ends - self.clock.now())

    @property
    def decided(self) -> int:
        """How many submissions this table has decided in all: `decisions` keeps
        only the last `log_limit` of them (a host keeps few: net.host)."""
        return self._seq

    def ready_flags(self) -> tuple[bool, bool]:
        """Who has said "spit" (a ready whose spit is counting down counts)."""
        sides = self.game.position.sides
        flags = [sides[0].ready, sides[1].ready]
        pending = self.shown.pending_ready
        if pending is not None:
            flags[pending] = True
        return flags[0], flags[1]

    def scene(
        self,
        *,
        waiting: str | None = None,
        pings: tuple[int | None, int | None] | None = None,
        room_wins: tuple[int, int] | None = None,
        watchers: int = 0,
    ) -> Scene:
        """What a screen shows of this table now (spit_tui.tablescene). A host's
        room passes what it adds of its seats (net.seatview.room_scene)."""
        return self._scenes.scene(
            self, waiting=waiting, pings=pings, room_wins=room_wins, watchers=watchers
        )

    # -- what others ask of the table ------------------------------------------------

    def pause(self, reason: str, on: bool) -> None:
        """Pause the game for `reason` (help, dialog, small window, suspended), or
        lift that reason. While any reason holds, the clock stands still and every
        submission is ignored ("paused")."""
        self.clock.pause(reason, on)

    def seat(self, seats: Seats) -> None:
        """Who sits where (spit_tui.seats): the names on the board, and the
        halves the computer plays. A key pressed there is refused, not played;
        the first such key at this table says why, the rest are only logged
        (seating again, as `--level auto` does when the level moves, does not
        say it again)."""
        self.seats = seats
        self.gate.halves = seats.people
        self._notify()

    # -- the one input path ----------------------------------------------------------

    def submit_intent(
        self,
        intent: Intent,
        source: str = "key",
        *,
        gate: KeyGate | None = None,
        lag_s: float = 0.0,
    ) -> Decision:
        """A key press: give it its meaning in the current phase, then decide.

        `gate`: the human limits the key passes (keys/gate.py): this table's own
        keyboard's if None; the host passes a remote seat's, which applied the
        repeat rule where the key arrived, before any hold. `lag_s`: how much
        later than this table that seat saw the phase and its key got here (D13)."""
        g = self.gate if gate is None else gate
        p = intent.player
        key = self.keymap.key(intent)
        if not g.at_arrival and g.repeat(key, self.clock.now()):
            return self._decide(p, source, "", Outcome.IGNORED, "repeat", key, quiet=True)
        if not self.gate.takes(p):  # the computer's half
            why = computers_half(p)
            told, self._told_computer = self._told_computer, True
            return self._decide(p, source, "", Outcome.IGNORED, why, key, quiet=told)
        action = action_for(intent, self.game.position)
        if action is None:
            why = idle(self.game.position.phase)
            return self._decide(p, source, "", Outcome.IGNORED, why, key)
        return self.submit(action, source, key, gate=g, lag_s=lag_s)

    def ignore_repeat(self, intent: Intent, gate: KeyGate | None = None) -> Decision:
        """A held key's repeat, as the terminal reports it (kitty protocol), or
        as a remote seat's gate found it where it arrived: a held key acts once,
        so this is logged with the reason "repeat" and shown to no one."""
        g = self.gate if gate is None else gate
        key = self.keymap.key(intent)
        if not g.at_arrival:
            g.repeat(key, self.clock.now())  # a dropped repeat counts as an arrival
        return self._decide(intent.player, "key", "", Outcome.IGNORED, "repeat", key, quiet=True)

    def submit(
        self,
        action: Action,
        source: str = "key",
        key: str = "",
        *,
        gate: KeyGate | None = None,
        lag_s: float = 0.0,
    ) -> Decision:
        """Decide one action, in arrival order. Never raises for a player's mistake.

        `key` is the key that asked for it, if any: it is kept on the Decision.
        `gate` and `lag_s` as for `submit_intent` (a bot's move: this table's)."""
        p = action.player
        text = action_text(action)
        if self.clock.paused:
            return self._decide(p, source, text, Outcome.IGNORED, "paused", key)
        now = self.clock.now()
        shown = self.shown
        if guarded(action):
            if shown.countdown_ends is not None:
                return self._decide(p, source, text, Outcome.IGNORED, "spit coming: get ready", key)
            pos = self.game.position
            if pos.phase is Phase.SPIT and any(pos.piles) and not shown.stuck_shown:
                return self._decide(p, source, text, Outcome.IGNORED, "wait for the spit call", key)
            if (self.gate if gate is None else gate).too_soon(shown.phase_shown_at, now, lag_s):
                last = shown.last_event
                if last is not None and isinstance(last.action, Slap) and last.action.player != p:
                    # the slap race was lost by a hair: say so, not "too soon"
                    why = slapped_first(self.seats.names[last.action.player])
                    return self._decide(p, source, text, Outcome.LOST_RACE, why, key)
                return self._decide(p, source, text, Outcome.IGNORED, "too soon: press again", key)
        elif shown.countdown_ends is not None:
            return self._decide(p, source, text, Outcome.IGNORED, "wait for the spit", key)
        problem = self.game.problem(action)
        if problem is not None:
            kind, reason = problem
            if kind is RefusalKind.LOST_RACE:
                reason = too_late(shown.last_event, p, self.seats.names, reason)
            return self._decide(p, source, text, refusal_outcome(kind), reason, key)
        if isinstance(action, Ready) and self.game.waiting_for() == (p,):
            # The last ready: count down before the engine hears it, so no card
            # can be played before the spit cards land.
            shown.pending_ready = p
            shown.pending_stamp = shown.stamp(source, now)  # the key's time, not the spit's
            shown.countdown_ends = now + self.countdown_s
            shown.countdown = self.clock.call_later(self.countdown_s, self._spit)
            return self._decide(p, source, text, Outcome.APPLIED, "", key)
        event = self.game.apply(action)
        shown.stamps.append(shown.stamp(source, now))
        self._after(event)
        return self._decide(p, source, text, Outcome.APPLIED, "", key)

    def _spit(self) -> None:
        shown = self.shown
        p = shown.pending_ready
        shown.pending_ready = None
        shown.countdown_ends = None
        shown.countdown = None
        if p is None:
            return
        event = self.game.apply(Ready(p))
        shown.stamps.append(shown.pending_stamp)
        shown.pending_stamp = None
        self._after(event)
        self._notify()

    def _after(self, event: Event) -> None:
        """Show what `event` did (Showing.saw), repaint when its highlight ends,
        call "no plays left" a moment after it got stuck, and tell the listeners."""
        self.shown.saw(event, self.clock.now())
        if event.card is not None:
            self.clock.call_later(HIGHLIGHT_S, self._notify)
        if event.stuck and event.position.phase is Phase.SPIT:
            self.clock.call_later(self.stuck_delay_s, self._show_stuck)
        self._heard.tell_event(event)

    def _show_stuck(self) -> None:
        pos = self.game.position
        if pos.phase is Phase.SPIT and any(pos.piles):
            self.shown.stuck_shown = True
            self.shown.phase_shown_at = self.clock.now()
            self._notify()

    def _decide(
        self,
        p: Player,
        source: str,
        text: str,
        outcome: Outcome,
        why: str,
        key: str = "",
        quiet: bool = False,
    ) -> Decision:
        now = self.clock.now()
        self._seq += 1
        d = Decision(self._seq, now, p, source, text, outcome, why, key)
        self.decisions.append(d)
        self.counts[outcome] += 1
        if outcome is Outcome.LOST_RACE:
            self.shown.story.lost_race(p)
        if outcome is not Outcome.APPLIED and why and source == "key" and not quiet:
            self.messages.put(p, why, outcome)
        elif outcome is Outcome.APPLIED:
            self.messages.clear(p)
        self._heard.tell_decision(d)
        self._notify()
        return d

    def subscribe(self, sub: Subscription) -> Subscription:
        """Hear of this table's changes, events, decisions and new games
        (spit_tui.subscription); `sub` is what `unsubscribe` takes."""
        return self._heard.add(sub)

    def unsubscribe(self, sub: Subscription) -> None:
        self._heard.remove(sub)

    # -- lifecycle ------------------------------------------------------------------

    def new_game(self, game: Game) -> None:
        """Start over at the same table (after a game ends): a fresh Showing."""
        self._begin(game, Showing.start(game, self.clock.now()))
        self._heard.tell_new_game()

    def _begin(self, game: Game, shown: Showing) -> None:
        """`game` is this table's now, with `shown` on show: nothing of the
        last game's (its countdown, its words) is left behind."""
        if self.shown.countdown is not None:
            self.shown.countdown.cancel()
        self.game = game
        self.shown = shown
        self.messages.forget()

    def resume(self, record: Record, elapsed: float, hold: bool = False) -> None:
        """Continue a stopped game: `record` is its log so far, `elapsed` the
        game clock's seconds since it began when it stopped (pauses left out;
        the play clock is rebuilt from the stamps, so it is not needed).

        The record is replayed from its own start (Showing.replayed), so the
        position and the Random that deals the rounds to come stand exactly
        where they stood, and every event is shown as it was at its stamp's
        time, the clock set back by `elapsed`: the game's time, the round's and
        the stamps to come run on as if it had never stopped. `hold`: the game
        waits (paused) until `play_on`, so nobody, the computer included, moves
        before both players have the board in view. Raises `Refusal` if the
        log does not fit its start (nothing changes then)."""
        t0 = self.clock.now() - elapsed
        game, shown = Showing.replayed(record, t0, self.countdown_s)  # a Refusal: no change
        self._begin(game, shown)
        pos = self.game.position
        if pos.phase is Phase.SPIT and any(pos.piles) and shown.stuck_since is not None:
            due = shown.stuck_since + self.stuck_delay_s
            if due <= self.clock.now():
                shown.stuck_shown = True
                shown.phase_shown_at = due
            else:
                self.clock.call_at(due, self._show_stuck)
        if hold:
            shown.held = True
            self.pause("resumed", True)
        self._heard.tell_new_game()

    def play_on(self) -> bool:
        """A held resumed game goes on (Enter); False if nothing was held."""
        if not self.shown.held:
            return False
        self.shown.held = False
        self.pause("resumed", False)
        self._notify()
        return True
