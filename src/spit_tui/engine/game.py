"""The game object: one position, the Random that deals, and the action log.

The pokerkit trio for every action: `verify` raises a `Refusal` with a full
sentence, `can` answers yes/no, `apply` changes the state and returns an
immutable `Event`. Actions are applied strictly in call order (D5); the
caller (the app's single input path) is responsible for calling in arrival
order.
"""

from __future__ import annotations

import random

from . import rules
from .actions import READIES, SLAPS, Action, Fill, Flip, Play, Ready, Slap
from .deal import deal_round, fresh_hands
from .errors import Refusal, RefusalKind
from .events import Event
from .loading import check_position, settle_loaded
from .notation import format_action, format_position
from .options import Options
from .position import (
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SLAP,
    PHASE_SPIT,
    PLAYERS,
    Player,
    Position,
    Side,
)
from .rounds import is_stuck, resolve_slap, settle


class Game:
    """A game of Spit in progress. Randomness comes only from `rng`."""

    def __init__(
        self,
        *,
        options: Options | None = None,
        rng: random.Random | None = None,
        seed: int | None = None,
        position: Position | None = None,
    ) -> None:
        if rng is None:
            rng = random.Random(seed)
        self.options = options or Options()
        self.rng = rng
        self.seed = seed
        if position is None:
            self.start = self._pos = deal_round(fresh_hands(rng), round_no=1)
        else:
            # A position from outside: refuse the impossible (PositionError), then
            # settle it (a stuck play phase waits for the spit, and so on).
            check_position(position, self.options)
            self.start = position
            self._pos = settle_loaded(position, self.options, rng)
        self.log: list[Action] = []
        self._before: list[Position | None] = [None, None]
        self._last_actor: Player | None = None

    @property
    def position(self) -> Position:
        return self._pos

    @property
    def over(self) -> bool:
        return self._pos.phase is PHASE_OVER

    # -- the trio -------------------------------------------------------------

    def problem(self, action: Action) -> tuple[RefusalKind, str] | None:
        """Why `action` would be refused now (D5 lost races included), or None."""
        prob = rules.check(self._pos, action, self.options)
        if prob is None or prob[0] is RefusalKind.NOTICE:
            return prob
        # D5: a lost race needs the opponent to have acted since this player's
        # own latest action; otherwise the player's own move changed things.
        before = self._before[1 - action.player]
        if (
            self._last_actor == 1 - action.player
            and before is not None
            and rules.check(before, action, self.options) is None
        ):
            other = Player(1 - action.player).label
            return RefusalKind.LOST_RACE, f"too late: the {other} player was first"
        return prob

    def verify(self, action: Action) -> None:
        prob = self.problem(action)
        if prob is not None:
            raise Refusal(prob[0], prob[1], format_action(action), format_position(self._pos))

    def can(self, action: Action) -> bool:
        return rules.check(self._pos, action, self.options) is None

    def apply(self, action: Action) -> Event:
        """Apply `action` or raise `Refusal`; on refusal nothing changes."""
        before = self._pos
        if type(action) is Play:
            problem = rules.check_play(before, action)
        else:
            problem = rules.check(before, action, self.options)
        if problem is not None:
            self.verify(action)  # raises with the full reason (D5 included)
        event = self._do(action)
        self._before[action.player] = before
        self._last_actor = action.player
        self._pos = event.position
        self.log.append(action)
        return event

    def try_apply(self, action: Action) -> Event | Refusal:
        try:
            return self.apply(action)
        except Refusal as r:
            return r

    # -- one method per action, for callers that prefer names -----------------

    def play(self, player: Player, slot: int, pile: int) -> Event:
        return self.apply(Play(player, slot, pile))

    def fill(self, player: Player, src: int, dst: int) -> Event:
        return self.apply(Fill(player, src, dst))

    def flip(self, player: Player, slot: int) -> Event:
        return self.apply(Flip(player, slot))

    def ready(self, player: Player) -> Event:
        return self.apply(Ready(player))

    def slap(self, player: Player, pile: int) -> Event:
        return self.apply(Slap(player, pile))

    def can_play(self, player: Player, slot: int, pile: int) -> bool:
        return rules.check_play(self._pos, Play(player, slot, pile)) is None

    def can_fill(self, player: Player, src: int, dst: int) -> bool:
        return rules.check_fill(self._pos, Fill(player, src, dst)) is None

    def can_ready(self, player: Player) -> bool:
        return rules.check_ready(self._pos, Ready(player), self.options) is None

    # -- queries ----------------------------------------------------------------

    def legal_actions(self, player: Player) -> list[Action]:
        """Every action `player` could apply right now (notices excluded)."""
        pos = self._pos
        phase = pos.phase
        if phase is PHASE_PLAY:
            return rules.moves(pos, player, self.options)
        if phase is PHASE_SPIT:
            return [READIES[player]] if self.can_ready(player) else []
        if phase is PHASE_SLAP:
            return list(SLAPS[player][: len(pos.piles)])
        return []

    def can_act(self, player: Player) -> bool:
        return rules.can_act(self._pos, player, self.options)


    @property
    def stuck(self) -> bool:
        return is_stuck(self._pos, self.options)

    def waiting_for(self) -> tuple[Player, ...]:
        """Players whose ready signal the next spit still needs (D12)."""
        if self._pos.phase is not PHASE_SPIT:
            return ()
        return tuple(p for p in rules.spitters(self._pos) if not self._pos.sides[p].ready)

    # -- internals --------------------------------------------------------------

    def _do(self, action: Action) -> Event:
        pos = self._pos
        opts = self.options
        revealed = None
        if isinstance(action, Play):
            pos, card, revealed = rules.move_play(pos, action, opts)
        elif isinstance(action, Fill):
            pos, card, revealed = rules.move_fill(pos, action, opts)
        elif isinstance(action, Flip):
            pos, card = rules.move_flip(pos, action)
        elif isinstance(action, Ready):
            return self._ready(action)
        else:
            pos, summary = resolve_slap(pos, action.player, action.pile, self.rng)
            return Event(action, pos, round_over=summary, winner=pos.winner)
        pos, stuck, end = settle(pos, action.player, opts, self.rng)
        return Event.fast(action, pos, card, revealed, stuck, end)

    def _ready(self, action: Ready) -> Event:
        pos = self._pos
        side = pos.sides[action.player]
        pos = pos.with_side(action.player, Side(side.slots, side.spit, True))
        if any(not pos.sides[p].ready for p in rules.spitters(pos)):
            return Event(action, pos)  # D12: the spit waits for every player who must say it
        pos, spat = rules.move_spit(pos)
        pos, stuck, end = settle(pos, action.player, self.options, self.rng)
        return Event(action, pos, spat=spat, stuck=stuck, round_over=end, winner=pos.winner)


def replay(game: Game, actions: list[Action]) -> list[Event]:
    """Apply a logged sequence; a refusal means the log does not fit the game."""
    return [game.apply(a) for a in actions]


__all__ = ["PLAYERS", "Game", "replay"]
