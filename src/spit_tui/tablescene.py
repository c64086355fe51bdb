"""A table's Scene: what a screen shows of a local table now.

The table keeps the ordered path (what was applied, the countdown, the stuck
call, the highlight); who sits there (`table.seats`) and the word beside
each player (`table.messages`) are kept beside it. `SceneBuilder` puts the
three together into one `Scene` (spit_tui.scene) for every widget, the wire
and the computer's eyes. It runs on every key and every repaint, so it
reads each part once, keeps the last view of each side (one action changes
one side), and takes the room's additions as arguments rather than copying
the Scene again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spit_tui.players.view import ViewCache
from spit_tui.scene import SCOREBOARD_ROUNDS, Scene, Scored

if TYPE_CHECKING:
    from spit_tui.table import Table

__all__ = ["SceneBuilder"]


class SceneBuilder:
    """Builds one table's scenes (a table has one: `Table.scene`)."""

    __slots__ = ("_views",)

    def __init__(self) -> None:
        self._views = ViewCache()

    def scene(
        self,
        table: Table,
        *,
        waiting: str | None = None,
        pings: tuple[int | None, int | None] | None = None,
        room_wins: tuple[int, int] | None = None,
        watchers: int = 0,
    ) -> Scene:
        """`table` as a screen shows it now; `waiting`, `pings`, `room_wins`
        and `watchers`: what a host's room adds of its seats (net.seatview)."""
        now = table.clock.now()
        game = table.game
        pos = game.position
        shown = table.shown
        story = shown.story
        ready = table.ready_flags()
        views = self._views
        sides = (views.side(0, pos.sides[0], ready[0]), views.side(1, pos.sides[1], ready[1]))
        piles = pos.piles
        game_s = shown.play.seconds(now)
        seats = table.seats
        rounds = shown.rounds
        first = max(0, len(rounds) - SCOREBOARD_ROUNDS)  # numbered as the game's rounds: 1, 2, ...
        return Scene(
            phase=pos.phase,
            round=pos.round,
            sides=sides,
            pile_tops=tuple([p[-1] if p else None for p in piles]),
            pile_sizes=tuple([len(p) for p in piles]),
            spitter=pos.spitter,
            winner=pos.winner,
            scores=pos.scores,
            options=game.options,
            names=seats.names,
            messages=table.messages.said(now),
            computer=seats.levels,
            owners=tuple([story.owner(i) for i in range(len(piles))]),
            feed=tuple(story.feed),
            played=(story.played[0], story.played[1]),
            trend=story.trend(),
            lit=shown.lit_piles(pos, now),
            left_slot=shown.left_slot(now),
            last_round=shown.last_round,
            scoreboard=tuple(
                [Scored(i, r.round_points) for i, r in enumerate(rounds[first:], first + 1)]
            ),
            at=now,
            game_s=game_s,
            round_s=game_s - shown.round_play_from,
            running=shown.play.running and not table.clock.paused,
            countdown_end=shown.countdown_ends,
            countdown_s=table.countdown_s,
            stuck=shown.stuck_shown,
            fresh=not game.log,
            held=shown.held,
            waiting=waiting,
            pings=pings,
            room_wins=room_wins,
            watchers=watchers,
        )
