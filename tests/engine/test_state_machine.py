"""Both players fire random actions, legal and illegal, in random order.

After every step: the 52 cards are all there once, slots are well formed,
the number of spit piles fits the round, `stuck` agrees with an independent
D6 oracle, the engine accepts exactly what the rules (re-implemented here)
allow, a refusal changes nothing, and a refusal is a lost race exactly when
the action was legal just before the opponent's latest action (D5).
"""

from __future__ import annotations

import random

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from testkit.engine import L, R, invariants, oracle_legal, pos

from spit_tui.engine import (
    Action,
    Fill,
    Flip,
    Game,
    Options,
    Phase,
    Play,
    Player,
    Position,
    Ready,
    Refusal,
    RefusalKind,
    Slap,
    Variant,
    format_position,
    full_deck,
)
from spit_tui.engine.deal import deal_round

# interesting starts besides a fresh 26/26 deal
STARTS: list[str] = [
    # D7: 16 cards against 36; stuck right after the first spit
    "spit 2 two - #0:2c/#1:2d/#2:2h/#3:2s/#4:3c 7s -/- :Kc/#1:Kd/#2:Kh/#3:Ks/#4:Qc *7h 0,0",
    # a single-pile round under way, the spitter with a few spit cards
    "play 3 one:R - 4c:8h/:2c/:3d/-/- - *7s :Jh/#2:Qd/-/-/- 9d9h9s 0,0",
    # a two-pile round close to its end
    "play 1 two - :8h/-/-/-/- 4c 2s3s7s/* :5c/:Jh/-/-/- 2d 0,0",
]


def start_position(i: int) -> Position | None:
    if i == 0:
        return None
    if i == 1:  # a short hand of 9: single pile, right spits
        deck = full_deck()
        return deal_round((deck[:9], deck[9:]), round_no=2)
    return pos(STARTS[i - 2])


small = st.integers(-1, 6)


class SpitMachine(RuleBasedStateMachine):
    @initialize(
        variant=st.sampled_from(list(Variant)),
        manual_flip=st.booleans(),
        seed=st.integers(0, 2**32 - 1),
        start=st.integers(0, len(STARTS) + 1),
    )
    def setup(self, variant: Variant, manual_flip: bool, seed: int, start: int) -> None:
        self.opts = Options(variant=variant, manual_flip=manual_flip, target=60)
        self.game = Game(options=self.opts, seed=seed, position=start_position(start))
        # our own record of the position before each player's latest applied action
        self.before: list[Position | None] = [None, None]
        self.last_actor: Player | None = None
        self.applied = 0
        self.refused = 0

    def fire(self, action: Action) -> None:
        g = self.game
        p = g.position
        n = len(g.log)
        legal = oracle_legal(p, action, self.opts.manual_flip)
        out = g.try_apply(action)
        if isinstance(out, Refusal):
            self.refused += 1
            assert not legal, f"{action} refused but legal: {out}"
            assert g.position is p and len(g.log) == n
            assert out.position == format_position(p) and out.reason
            if out.kind is RefusalKind.NOTICE:
                assert isinstance(action, Ready) and p.phase is Phase.SPIT
                return
            prev = self.before[1 - action.player]
            raced = (
                self.last_actor == 1 - action.player
                and prev is not None
                and oracle_legal(prev, action, self.opts.manual_flip)
            )
            assert (out.kind is RefusalKind.LOST_RACE) == raced, (out, action)
        else:
            self.applied += 1
            assert legal, f"{action} applied but the rules forbid it"
            assert len(g.log) == n + 1 and g.log[-1] == action
            assert out.position is g.position
            self.before[action.player] = p
            self.last_actor = action.player
        invariants(g)

    @rule(player=st.sampled_from([L, R]), kind=st.integers(0, 4), a=small, b=small)
    def wild(self, player: Player, kind: int, a: int, b: int) -> None:
        """Any action at all, including out-of-range slots and piles."""
        action: Action
        if kind == 0:
            action = Play(player, a, b % 4 - 1)
        elif kind == 1:
            action = Fill(player, a, b)
        elif kind == 2:
            action = Flip(player, a)
        elif kind == 3:
            action = Ready(player)
        else:
            action = Slap(player, b % 4 - 1)
        self.fire(action)

    @rule(player=st.sampled_from([L, R]), i=st.integers(0, 30))
    def legal(self, player: Player, i: int) -> None:
        acts = self.game.legal_actions(player)
        if acts:
            self.fire(acts[i % len(acts)])

    @rule(seed=st.integers(0, 2**16), n=st.integers(1, 120))
    def burst(self, seed: int, n: int) -> None:
        """A run of random legal actions by either player, to reach round ends."""
        rng = random.Random(seed)
        for _ in range(n):
            acts = self.game.legal_actions(L) + self.game.legal_actions(R)
            if not acts:
                assert self.game.over
                return
            self.fire(rng.choice(acts))

    @invariant()
    def holds(self) -> None:
        if hasattr(self, "game"):
            invariants(self.game)


TestSpitMachine = SpitMachine.TestCase
