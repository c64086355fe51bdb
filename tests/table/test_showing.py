"""What one game has on show (spit_tui.showing): plain state that an applied
event changes (`saw`), the same live on the table's path and in a resumed
game's catch-up (`replayed`)."""

from __future__ import annotations

import random

from spit_tui.clock import VirtualClock
from spit_tui.engine import PLAYERS, Game
from spit_tui.showing import Showing
from spit_tui.store.records import record_of
from spit_tui.table import Table


def _played(seed: int, moves: int) -> Table:
    clock = VirtualClock()
    t = Table(Game(seed=seed), clock, countdown_s=0.5)
    rng = random.Random(seed)
    for _ in range(moves):
        clock.advance(rng.randint(250, 700) / 1000)
        acts = [a for p in PLAYERS for a in t.game.legal_actions(p)]
        if t.counting_down or not acts:
            continue
        t.submit(rng.choice(acts))
    clock.advance(2.0)  # the last spit lands, its stuck call too
    return t


def test_a_record_caught_up_shows_what_the_table_showed_as_it_played() -> None:
    for seed in (2, 5):
        live = _played(seed, 80)
        elapsed = live.clock.now() - live.shown.started_at
        game, caught = Showing.replayed(record_of(live), 100.0 - elapsed, live.countdown_s)
        shown = live.shown
        assert game.position == live.position
        assert caught.rounds == shown.rounds and caught.last_round == shown.last_round
        assert caught.story.played == shown.story.played
        assert caught.stamps == shown.stamps
        went = shown.started_at - (100.0 - elapsed)  # the same times, moved by the start
        assert abs(caught.round_started_at + went - shown.round_started_at) < 0.002
        assert abs(caught.phase_shown_at + went - shown.phase_shown_at) < 0.002
        if shown.last_event is not None and shown.last_event.card is not None:
            assert abs(caught.highlight_until + went - shown.highlight_until) < 0.002
        assert abs(caught.play.seconds(100.0) - shown.play.seconds(live.clock.now())) < 0.05
