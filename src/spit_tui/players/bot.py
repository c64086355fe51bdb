"""The computer opponent: a policy with a person's hands and eyes.

A bot sits at a `Table` like a person. It watches the table (every change the
table announces), decides from a `View` (never a Position: no face-down
card is ever read), waits a reaction time drawn afresh for every decision,
and then submits through `table.submit(action, source="bot")`, the same
arrival-ordered path as key presses. A person who is quicker wins the race
(D5), and a bot move that arrives late is refused as "too late" like a key.

The hand model, per level (players/level.py; the rungs are in players/ladder.py):

- **Reaction time.** Each decision waits a delay drawn from the level's
  distribution: the lowest rung takes 2.9-4.8 s per card, the top 0.4-0.68 s,
  about the fastest human hands. Saying "spit" and slapping have their own,
  quicker distribution that also comes from the rung (about a second on
  the lowest rungs, 0.3 s on the top), always longer than the table's 0.2 s
  stale-key guard (D13), so the bot's reflexes are never thrown away.
- **Form.** A person has good rounds and bad ones: at the start of every
  round the bot draws a pace factor (log-normal, the level's `form`) that
  scales its card times and its reactions for that round. This is what keeps a slightly better
  player from winning every game, as between people.
- **Chains.** A play onto the card the bot itself just played was planned
  with it, so it comes faster (the level's chain factor).
- **Overlooking.** Each possible action is missed with the level's chance;
  a missed one stays missed until the bot looks again (one reaction time
  later), unless something new appears on the table first.
- **One hand.** One action at a time. While the bot is reaching, a change on
  the table that spoils its move makes it think again; in the last
  `MOTOR_S` of the reach the hand is already moving and the key lands anyway
  (and loses the race, exactly as a person's would).

Everything random comes from the bot's own `random.Random`, and everything
timed from the table's clock, so a headless match on a `VirtualClock` makes
the same decisions it would in real time, as fast as the CPU allows.
"""

from __future__ import annotations

import math
import random
from typing import NamedTuple

from spit_tui.clock import Handle
from spit_tui.decision import Decision
from spit_tui.engine import Action, Card, Fill, Phase, Play, Player, Ready, Slap
from spit_tui.keys.gate import earliest_reaction
from spit_tui.subscription import Subscription
from spit_tui.table import Outcome, Table

from .ladder import level_named
from .level import Level
from .policy import (
    EASY_WEIGHTS,
    FULL_WEIGHTS,
    NORMAL_WEIGHTS,
    Policy,
    RandomPolicy,
    SmartPolicy,
)
from .view import View, ViewCache, must_say_spit, play_actions, still_legal, view_of

MOTOR_S = 0.12  # the last part of a reach that can no longer be called off
RETRY_S = 0.05  # a ready/slap the table ignored is tried again after this much more


class Plan(NamedTuple):
    """What a bot is about to do: reach for `action` (None: look again) at `due`.

    From `commit_at` on the hand is already moving and the key lands anyway."""

    action: Action | None
    due: float
    commit_at: float


def make_policy(kind: str) -> Policy:
    if kind == "random":
        return RandomPolicy()
    weights = {"easy": EASY_WEIGHTS, "normal": NORMAL_WEIGHTS, "full": FULL_WEIGHTS}[kind]
    return SmartPolicy(weights, name=kind)


def _verdict_key(view: View, action: Action) -> tuple[object, ...]:
    """What a person looked at when he saw (or missed) an action: the card and the pile."""
    if isinstance(action, Play):
        return (action, view.mine.tops[action.slot], view.pile_tops[action.pile])
    if isinstance(action, Fill):
        return (action, view.mine.tops[action.src])
    return (action,)


class Bot:
    """One computer player at a table. `attach()` starts it, `detach()` stops it."""

    def __init__(
        self,
        table: Table,
        player: Player,
        level: Level | str = "normal",
        *,
        rng: random.Random | None = None,
        policy: Policy | None = None,
    ) -> None:
        self.table = table
        self.player = player
        self.level = level_named(level) if isinstance(level, str) else level
        self.rng = rng if rng is not None else random.Random()
        self._own_policy = policy is None
        self.policy = policy if policy is not None else make_policy(self.level.policy)
        self._pending: Handle | None = None
        self._action: Action | None = None  # what the hand is reaching for (None: a look)
        self._commit_at = 0.0
        self._seen: tuple[object, ...] = ()
        self._verdicts: dict[tuple[object, ...], float] = {}  # missed action -> look again at
        self._last_card: Card | None = None  # the card this bot last played
        self._round = -1  # the round its form was drawn for
        self._pace = 1.0  # this round's form factor
        self.attached = False
        self._ears = Subscription(on_change=self._on_change)
        self._views = ViewCache()

    # -- wiring -----------------------------------------------------------------

    def attach(self) -> None:
        if not self.attached:
            self.attached = True
            self.table.subscribe(self._ears)
            self._seen = ()
            self._on_change()

    def detach(self) -> None:
        if self.attached:
            self.attached = False
            self.table.unsubscribe(self._ears)
            self._cancel()

    def set_level(self, level: Level) -> None:
        """Play at another level from the next decision on (--level auto)."""
        self.level = level
        if self._own_policy:
            self.policy = make_policy(level.policy)

    @property
    def plan(self) -> Plan | None:
        """What the bot will do next and when (None: nothing scheduled)."""
        if self._pending is None:
            return None
        return Plan(self._action, self._pending.when, self._commit_at)

    # -- watching the table -------------------------------------------------------

    def view(self) -> View:
        t = self.table
        return view_of(
            t.game.position,
            self.player,
            manual_flip=t.game.options.manual_flip,
            stuck_banner=t.shown.stuck_shown,
            counting_down=t.shown.countdown_ends is not None,
            ready=t.ready_flags(),
            cache=self._views,
        )

    def _on_change(self) -> None:
        t = self.table
        seen = self._seen
        pos = t.game.position
        shown = t.shown
        stuck, countdown = shown.stuck_shown, shown.countdown_ends
        if seen and seen[0] is pos and seen[1] == stuck and seen[2] == countdown:
            return
        self._seen = (pos, stuck, countdown)
        if self._pending is not None:
            if self._action is None:
                self._cancel()  # a look: something new is on the table, look now
            elif t.clock.now() >= self._commit_at or still_legal(self.view(), self._action):
                return  # the hand keeps going
            else:
                self._cancel()
        self._plan()

    def _cancel(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
        self._pending = None
        self._action = None

    # -- deciding -------------------------------------------------------------------

    def _card_delay(self) -> float:
        """Seconds for one card (or one more look), at this round's form."""
        return self.level.play.draw(self.rng) * self._pace

    def _plan(self) -> None:
        view = self.view()
        phase = view.phase
        lvl = self.level
        rng = self.rng
        if view.round != self._round:
            self._round = view.round
            self._pace = math.exp(rng.gauss(0.0, lvl.form)) if lvl.form else 1.0
        if phase is Phase.PLAY:
            candidates = play_actions(view)
            if not candidates:
                return
            now = self.table.clock.now()
            noticed = self._notice(view, candidates, now)
            if not noticed:
                wake = min(self._verdicts.values())
                self._schedule(None, max(wake - now, RETRY_S))
                return
            action = self.policy.choose(view, noticed, rng)
            delay = self._card_delay()
            if (
                isinstance(action, Play)
                and self._last_card is not None
                and view.pile_tops[action.pile] is self._last_card
            ):
                delay *= lvl.chain
            self._schedule(action, delay)
        elif phase is Phase.SPIT:
            if must_say_spit(view):
                self._schedule(Ready(self.player), self._react_delay())
        elif phase is Phase.SLAP:
            self._schedule(self.policy.slap(view, rng), self._react_delay())

    def _react_delay(self) -> float:
        """A ready/slap reaction, never inside the table's stale-key window (D13)."""
        t = self.table
        delay = self.level.react.draw(self.rng) * self._pace
        earliest = earliest_reaction(t.shown.phase_shown_at, t.gate.stale_s) - t.clock.now()
        return max(delay, earliest)

    def _notice(self, view: View, candidates: list[Action], now: float) -> list[Action]:
        """Which candidates the bot sees this look; missed ones stay missed for a while."""
        p = self.level.overlook
        if p <= 0.0:
            return candidates
        verdicts = self._verdicts
        keys = [_verdict_key(view, a) for a in candidates]
        if verdicts:
            live = set(keys)
            for k in [k for k, until in verdicts.items() if k not in live or until <= now]:
                del verdicts[k]
        out: list[Action] = []
        for a, k in zip(candidates, keys, strict=True):
            if k in verdicts:
                continue
            if self.rng.random() < p:
                verdicts[k] = now + self._card_delay()
            else:
                out.append(a)
        return out

    def _schedule(self, action: Action | None, delay: float) -> None:
        clock = self.table.clock
        self._action = action
        self._commit_at = clock.now() + max(0.0, delay - MOTOR_S)
        self._pending = clock.call_later(delay, self._fire)

    def _fire(self) -> None:
        action = self._action
        self._pending = None
        self._action = None
        if action is None:
            self._seen = ()
            self._on_change()
            return
        if isinstance(action, Play):
            # Set before submitting: the table announces the change (and this
            # bot plans its next move) inside submit.
            self._last_card = self.table.game.position.sides[self.player].slots[action.slot].face_up
        d = self.table.submit(action, source="bot")
        self._after_submit(action, d)

    def _after_submit(self, action: Action, d: Decision) -> None:
        if d.outcome is Outcome.APPLIED:
            return  # the change it made has already set the next plan going
        if self._pending is None:
            # Refused without changing the table (lost race, too soon, ...):
            # look again rather than wait for a change that may never come.
            if d.outcome is Outcome.IGNORED and isinstance(action, Ready | Slap):
                self._schedule(None, RETRY_S)
            else:
                self._seen = ()
                self._on_change()
