"""The game object: one position, the Random that deals, and the action log.

The pokerkit trio for every action: `verify` raises a `Refusal` with a full
sentence, `can` answers yes/no, `apply` changes the state and returns an
immutable `Event`. Every public entry point refuses a malformed action (a
player that is not a `Player`, a slot or pile that is not an int, or out of
range) with a `Refusal`, the state unchanged, and raises TypeError for
something that is not an action at all. Actions are applied strictly in call order (D5); the
caller (the app's single input path) is responsible for calling in arrival
order.
"""

from __future__ import annotations

import random
from typing import NoReturn

from . import rules
from .actions import READIES, SLAPS, Action, Fill, Flip, Play, Ready, Slap, not_an_action
from .deal import deal_round, fresh_hands
from .errors import Refusal, RefusalKind
from .events import Event
from .loading import check_position, settle_loaded
from .notation import format_action, format_position
from .options import Options
from .position import (
    LEFT,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SLAP,
    PHASE_SPIT,
    PLAYERS,
    RIGHT,
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
    # `problem` is the one place a refusal is decided; `verify` raises it,
    # `can` is its yes/no, and `apply` asks the rules once on its fast path and
    # goes through `verify` only when they object.

    def problem(self, action: Action) -> tuple[RefusalKind, str] | None:
        """Why `action` would be refused now (D5 lost races included), or None.

        A malformed action (a player that is not a `Player`, a slot or pile
        that is not an int) is refused like an illegal one; something that is
        not an action at all raises TypeError."""
        prob = rules.check(self._pos, action, self.options)
        if prob is None or prob[0] is RefusalKind.NOTICE:
            return prob
        return self._lost_race(action) or prob

    def verify(self, action: Action) -> None:
        """Raise the `Refusal` that `problem` describes, if there is one."""
        prob = self.problem(action)
        if prob is not None:
            shown = format_action(action) if rules.malformed(action) is None else repr(action)
            raise Refusal(prob[0], prob[1], shown, format_position(self._pos))

    def can(self, action: Action) -> bool:
        return self.problem(action) is None

    def apply(self, action: Action) -> Event:
        """Apply `action` or raise `Refusal`; on refusal nothing changes."""
        before = self._pos
        if rules.check(before, action, self.options) is not None:
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

    # -- queries ----------------------------------------------------------------

    def legal_actions(self, player: Player) -> list[Action]:
        """Every action `player` could apply right now (notices excluded)."""
        if player is not LEFT and player is not RIGHT:
            _not_a_player(player)
        pos = self._pos
        phase = pos.phase
        if phase is PHASE_PLAY:
            return rules.moves(pos, player, self.options)
        if phase is PHASE_SPIT:
            ready = READIES[player]
            return [ready] if rules.check_ready(pos, ready, self.options) is None else []
        if phase is PHASE_SLAP:
            return list(SLAPS[player][: len(pos.piles)])
        return []

    def can_act(self, player: Player) -> bool:
        if player is not LEFT and player is not RIGHT:
            _not_a_player(player)
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

    def _lost_race(self, action: Action) -> tuple[RefusalKind, str] | None:
        """D5: a refusal is a lost race when the opponent acted since this
        player's own latest action and the action was legal just before that;
        otherwise the player's own move changed things."""
        player = action.player
        if player is not LEFT and player is not RIGHT:
            return None  # malformed: no race to lose
        other = player.other
        before = self._before[other]
        if (
            self._last_actor is other
            and before is not None
            and rules.check(before, action, self.options) is None
        ):
            return RefusalKind.LOST_RACE, f"too late: the {other.label} player was first"
        return None

    def _do(self, action: Action) -> Event:
        pos = self._pos
        opts = self.options
        match action:
            case Play():
                pos, card, revealed = rules.move_play(pos, action, opts)
            case Fill():
                pos, card, revealed = rules.move_fill(pos, action, opts)
            case Flip():
                pos, card = rules.move_flip(pos, action)
                revealed = None
            case Ready():
                return self._ready(action)
            case Slap():
                pos, summary = resolve_slap(pos, action.player, action.pile, self.rng)
                return Event(action, pos, round_over=summary, winner=pos.winner)
            case _:
                not_an_action(action)
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


def _not_a_player(player: object) -> NoReturn:
    """A query about a player needs a `Player`; ints and bools are not players."""
    raise TypeError(f"not a player: {player!r} (expected Player.LEFT or Player.RIGHT)")


def replay(game: Game, actions: list[Action]) -> list[Event]:
    """Apply a logged sequence; a refusal means the log does not fit the game."""
    return [game.apply(a) for a in actions]


__all__ = ["PLAYERS", "Game", "replay"]
