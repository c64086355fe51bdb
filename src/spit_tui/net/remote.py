"""A seat's screen of a game on a host: what `spit-tui join` (and the host's own seat) draws.

A `RemoteSeat` keeps the latest `Scene` the host sent (net.seatview) and
nothing else of the game: the host's table is the only table, and nobody
here rebuilds a position from the view (OpenSpiel's rule). What the seat adds
is its own: the away lines (connecting, a lost line, the other seat not there
yet), its own message for a key its key layer refused, and its round trip.
A key goes through the seat's key layer (the repeat rule, "whose half", and
the D13 stale-key guard against the moment this screen showed the phase) and
then, as a (row, slot) intent, to `press`; its decision says "sent", never
"applied": the host decides.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from spit_tui.clock import GameClock
from spit_tui.decision import LOG_LIMIT, Decision
from spit_tui.engine import SLOTS, Phase, Player
from spit_tui.keys.gate import KeyGate
from spit_tui.keys.intent import Intent, Row
from spit_tui.keys.keymap import US, KeyMap
from spit_tui.messages import FOREVER, Messages
from spit_tui.players.view import SideView
from spit_tui.scene import Outcome, Said, Scene
from spit_tui.subscription import Subscribers, Subscription

Press = Callable[[Row, int], None]
_NO_SIDE = SideView((None,) * SLOTS, (0,) * SLOTS, 0, False)
EMPTY = Scene(Phase.SPIT, 1, (_NO_SIDE, _NO_SIDE), (None, None), (0, 0))  # before the first view


def phase_mark(v: Scene) -> tuple[object, ...]:
    """What makes a new phase for D13 on a seat's screen (the seat's key layer
    and a bot playing a seat both read it): a ready or slap phase that appeared,
    or the game going on again after it waited for a seat. The moment a view
    with a new mark arrives is the moment this screen showed the phase."""
    slap = v.pile_sizes if v.phase is Phase.SLAP else ()
    return (v.phase, v.round, v.stuck, slap, v.waiting is None)


class RemoteSeat:
    """One seat's view of a game on a host; keys go to `press`."""

    def __init__(
        self, seat: Player, press: Press, clock: GameClock, stale_s: float, keymap: KeyMap = US,
        watching: bool = False,
    ) -> None:
        self.me = seat
        # the halves whose keys this screen labels: our own (a watcher has none)
        self.keyed = (not watching and seat is Player.LEFT, not watching and seat is Player.RIGHT)
        self.keymap = keymap  # the player's keys: what a decision calls the key pressed
        self.press = press
        self.clock = clock
        self.gate = KeyGate(stale_s, halves=frozenset({seat}))  # this keyboard's limits
        self.latest: Scene | None = None  # the host's latest scene, taken at its arrival
        self.lost: str | None = None  # our own connection is down: the line to show
        self.figures = ""  # the game just over, as our own history saw it (NetSeat)
        self.own_rtt_ms: int | None = None  # our round trip, where the host has not said it yet
        self.invite: str | None = None  # the command that joins the other seat, if ours to give
        # the other seat did not come back: (their name, the computer's level, its pace in words)
        self.offered: tuple[str, int, str] | None = None
        self._heard = Subscribers()
        self._notify = self._heard.tell_change  # a repaint is due
        self.decisions: deque[Decision] = deque(maxlen=LOG_LIMIT)
        self._seq = 0
        self._met = False  # both seats have been at the table
        self._mark: tuple[object, ...] = ()
        self.phase_shown_at = clock.now()
        self._host_said: Said | None = None
        # our player's word: this screen's own (a refused key), or the host's, which
        # stays until the host's next (the other seat's words are not ours to see)
        self.messages = Messages(clock, self._notify)

    # -- what the screen draws ---------------------------------------------------------

    @property
    def away(self) -> str | None:
        if self.lost is not None:
            return self.lost
        s = self.latest
        if s is None:
            return "Connecting to the host…"
        if s.waiting is None or s.phase is Phase.OVER:
            return None
        if not self._met:
            return f"Waiting for {s.waiting} to join"
        if self.offered is not None:
            return f"{self.offered[0]} did not come back"
        return f"Waiting for {s.waiting}: reconnect with the same command"

    def _away_hint(self) -> str:
        s = self.latest
        if self.offered is not None:
            name, level, pace = self.offered
            return (
                # the pace on a line of its own: a banner's line fits any name
                f"Enter: the computer plays {name}'s seat (level {level})\n"
                f"at {pace}\nCtrl+Q: stop the game"
            )
        if s is not None and s.waiting is not None and not self._met:
            if not self.invite:  # (a watcher, a quick match): nothing began to pause
                return "The game begins when they come."
            lines = self.invite.split("\n")
            if len(lines) == 1:
                return f"For the other player: {lines[0]}"
            return "\n".join(("Your friend types one of these (or picks Join by code):", *lines))
        return "The game is paused: it goes on where it stopped."

    def scene(self) -> Scene:
        """The host's latest scene as this screen shows it now."""
        now = self.clock.now()
        base = EMPTY if self.latest is None else self.latest.at_time(now)
        pings = list(base.pings or (None, None))
        if pings[self.me] is None:
            pings[self.me] = self.own_rtt_ms
        messages: list[Said | None] = [None, None]  # the other seat's words are not ours to see
        messages[self.me] = self.messages.said(now)[self.me]
        over = base.phase is Phase.OVER
        return base._replace(
            pings=(pings[0], pings[1]),
            messages=(messages[0], messages[1]),
            keyed=self.keyed,
            away=self.away,
            away_hint=self._away_hint(),
            figures=self.figures if over and not base.figures else base.figures,
        )

    def show_figures(self, text: str) -> None:
        """The game-over lines this player's own history gives the game just
        over (its rating change, a best that fell), once it has kept it."""
        self.figures = text
        self._notify()

    def show(self, scene: Scene) -> None:
        """The host's latest scene: draw it from now on."""
        now = self.clock.now()
        self.latest = scene = scene.taken_at(now)
        self.lost = None
        if scene.waiting is None:
            self.offered = None  # they came back, or the computer took the seat
        self._met = self._met or scene.waiting is None
        mark = phase_mark(scene)
        if mark != self._mark:  # D13: this screen shows the phase from now on
            self._mark = mark
            self.phase_shown_at = now
        said = scene.messages[self.me]
        if said != self._host_said:  # a word from the host replaces ours
            self._host_said = said
            if said is None:
                self.messages.clear(self.me)
            else:
                self.messages.put(self.me, said.text, said.kind, FOREVER)
        self._notify()

    def offer(self, name: str, level: int, pace: str) -> None:
        """The host offers the other seat, whose player did not come back, to
        the computer: the banner says so, and Enter takes it (SeatMode)."""
        self.offered = (name, level, pace)
        self._notify()

    def connection_lost(self, line: str) -> None:
        self.lost = line
        self._notify()

    def subscribe(self, sub: Subscription) -> Subscription:
        """Hear of this seat's changes and decisions (its events are the host's)."""
        return self._heard.add(sub)

    def unsubscribe(self, sub: Subscription) -> None:
        self._heard.remove(sub)

    def pause(self, reason: str, on: bool) -> None:
        """The seat's own clock stops while its screen is covered; the host's game goes on."""
        self.clock.pause(reason, on)

    # -- keys: the seat's key layer, then the host -------------------------------------

    def submit_intent(self, intent: Intent) -> Decision:
        p = intent.player
        key = self.keymap.key(intent)
        if self.gate.repeat(key, self.clock.now()):
            return self._decide(p, "repeat", key, quiet=True)
        if not self.gate.takes(p):
            return self._decide(self.me, f"you play the {self.me.label} half: use its keys", key)
        if self.away is not None:
            return self._decide(p, "paused", key)
        phase = self.latest.phase if self.latest is not None else Phase.SPIT
        reacts = phase is Phase.SPIT or (
            phase is Phase.SLAP and intent.row in (Row.PILE_A, Row.PILE_B)
        )  # a ready or a slap: D13 guards it
        if reacts and self.gate.too_soon(self.phase_shown_at, self.clock.now()):
            return self._decide(p, "too soon: press again", key)
        self.press(intent.row, intent.slot)
        return self._decide(p, "", key, outcome=Outcome.SENT)  # the host decides

    def ignore_repeat(self, intent: Intent) -> Decision:
        """A held key's repeat, as the terminal reports it: logged, shown to no one."""
        key = self.keymap.key(intent)
        self.gate.repeat(key, self.clock.now())  # a dropped repeat counts as an arrival
        return self._decide(intent.player, "repeat", key, quiet=True)

    def _decide(
        self, p: Player, why: str, key: str, *, quiet: bool = False,
        outcome: Outcome = Outcome.IGNORED,
    ) -> Decision:
        now = self.clock.now()
        self._seq += 1
        d = Decision(self._seq, now, p, "key", "", outcome, why, key)
        self.decisions.append(d)
        self._heard.tell_decision(d)
        if outcome is Outcome.IGNORED and not quiet:
            self.messages.say(p, why, outcome)
        return d
