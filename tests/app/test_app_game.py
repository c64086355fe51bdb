"""Whole games through the app, by real key presses: every phase of a standard
game to its win, and a points game to its target."""

from __future__ import annotations

from appdriver import play_game
from testkit.app import make_app

from spit_tui.engine import Options, Phase, Player, Variant


async def test_standard_game_through_every_phase_by_keys() -> None:
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        seen = await play_game(pilot, seed=5)
        pos = app.table.position
        assert pos.phase is Phase.OVER and pos.winner is not None
        assert {Phase.SPIT, Phase.PLAY, Phase.SLAP, Phase.OVER} <= seen.phases
        assert seen.plays_by == {Player.LEFT, Player.RIGHT}
        assert seen.refused > 0
        assert seen.stale_ignored > 0
        assert seen.stuck_spits > 0
        assert seen.slaps > 0
        assert seen.unequal_round_starts > 0
        assert seen.single_pile_rounds > 0
        assert "GAME OVER" in seen.screens["over"]
        assert f"{pos.winner.label.upper()} wins" in seen.screens["over"]
        assert "SLAP!" in seen.screens["slap"]
        assert "No plays left: spit!" in seen.screens["stuck"]
        assert "Round 1 over" in seen.screens["summary"]
        assert "single pile" in seen.screens["single"].lower()
        assert "spit pile" in seen.screens["single"]
        assert len(pos.all_cards()) == 52


async def test_points_game_to_its_target_by_keys() -> None:
    options = Options(variant=Variant.POINTS, target=40)
    app = make_app(seed=2, options=options)
    async with app.run_test(size=(100, 30)) as pilot:
        seen = await play_game(pilot, seed=2)
        pos = app.table.position
        assert pos.phase is Phase.OVER
        assert max(pos.scores) >= 40 and pos.scores[0] != pos.scores[1]
        assert pos.winner == (Player.LEFT if pos.scores[0] < pos.scores[1] else Player.RIGHT)
        assert Phase.SLAP not in seen.phases  # D10: points rounds end without a slap
        assert seen.rounds_ended == len(app.table.shown.rounds) >= 2
        over = seen.screens["over"]
        assert "final score" in over and "total" in over
        assert f"{pos.scores[0]}" in over
