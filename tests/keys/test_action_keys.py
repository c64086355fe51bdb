"""One mapping between keys and actions: `action_for(intent, position)` reads a
key, `intent_for(action)` names the key for an action, and the two invert each
other for every legal action of positions real games reach (a fill's place is
the leftmost gap: the only place a fill key asks for)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spit_tui.engine import PLAYERS, Fill, Game, Options, Phase, Play, Player, Position, Variant
from spit_tui.engine.actions import READIES
from spit_tui.keys.intent import ROWS, Intent, Row, action_for, intent_for, leftmost_gap


@st.composite
def reached(draw: st.DrawFn) -> Game:
    """A position a game reaches: a seeded deal, then up to 400 random legal actions."""
    opts = Options(variant=draw(st.sampled_from(list(Variant))), manual_flip=draw(st.booleans()))
    game = Game(options=opts, seed=draw(st.integers(0, 2**32 - 1)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, 400))):
        acts = [a for p in PLAYERS for a in game.legal_actions(p)]
        if not acts or game.over:
            break
        game.apply(rng.choice(acts))
    return game


def keyable(action: object, position: Position) -> bool:
    if isinstance(action, Fill):
        sizes = [len(s.cards) for s in position.sides[action.player].slots]
        return action.dst == leftmost_gap(sizes)
    return True


@settings(max_examples=150, deadline=None)
@given(reached())
def test_every_legal_action_has_a_key_that_means_it(game: Game) -> None:
    position = game.position
    for p in PLAYERS:
        for action in game.legal_actions(p):
            intent = intent_for(action)
            assert intent.player is p
            if keyable(action, position):
                assert action_for(intent, position) == action, (action, intent)
            else:  # the fill key fills the leftmost gap, whichever gap the engine allows
                assert isinstance(action, Fill)
                gap = leftmost_gap([len(s.cards) for s in position.sides[p].slots])
                assert gap is not None
                assert action_for(intent, position) == Fill(p, action.src, gap)


@settings(max_examples=150, deadline=None)
@given(reached())
def test_every_key_names_itself_again(game: Game) -> None:
    """Every key that means something names, back again, a key that means the same."""
    position = game.position
    for p in PLAYERS:
        for row in ROWS:
            for slot in range(5):
                action = action_for(Intent(p, row, slot), position)
                if action is not None:
                    assert action_for(intent_for(action), position) == action


def test_the_rows_by_phase() -> None:
    game = Game(seed=1)
    L = Player.LEFT
    assert game.position.phase is Phase.SPIT
    assert action_for(Intent(L, Row.FILL, 3), game.position) == action_for(
        Intent(L, Row.PILE_B, 0), game.position
    )  # any key of the half says spit
    assert intent_for(Play(L, 3, 1)) == Intent(L, Row.PILE_B, 3)
    assert intent_for(Fill(L, 2, 0)) == Intent(L, Row.FILL, 2)


def test_a_key_means_the_engines_own_action_object() -> None:
    """A game's log holds one object per distinct action, not one per key
    (a host holds every room's log until its game ends)."""
    game = Game(seed=5)
    for p in Player:
        game.apply(READIES[p])  # the first spit: cards can be played
    pos = game.position
    assert pos.phase is Phase.PLAY
    for p in Player:
        for row in (Row.PILE_A, Row.PILE_B, Row.FILL, Row.FLIP):
            for slot in range(5):
                a = action_for(Intent(p, row, slot), pos)
                assert a is action_for(Intent(p, row, slot), pos)
