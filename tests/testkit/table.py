"""A table at a position, on a virtual clock the test steps."""

from __future__ import annotations

from spit_tui.clock import VirtualClock
from spit_tui.engine import Game, Options, Position, complete_position, parse_position
from spit_tui.table import Table


def position_of(position: str | Position) -> Position:
    """A position from notation (cards it leaves out are completed), or as given."""
    if isinstance(position, str):
        return complete_position(parse_position(position, check=False))
    return position


def table_at(
    position: str | Position | None = None,
    *,
    seed: int | None = 1,
    options: Options | None = None,
    **timings: float,
) -> Table:
    """A Table at `position` (None: the seed's deal) on a fresh VirtualClock;
    `timings`: the Table's own (stale_s=0.0, countdown_s=..., ...)."""
    pos = None if position is None else position_of(position)
    game = Game(options=options or Options(), seed=seed, position=pos)
    return Table(game, VirtualClock(), **timings)


def clock_of(table: Table) -> VirtualClock:
    """The table's virtual clock (to step it)."""
    clock = table.clock
    assert isinstance(clock, VirtualClock), "a test table runs on a VirtualClock"
    return clock
