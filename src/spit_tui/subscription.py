"""What a party hears from a table: one typed subscription instead of three
public listener lists.

    table.subscribe(Subscription(on_change=self.sync, on_event=self.saw))

- `on_change()`: after anything worth a repaint (a decision, an event, a
  message running out, a pause);
- `on_event(event)`: each event the engine applied at the table, as it happens
  (not the catch-up of a resumed game, which is history);
- `on_decision(decision)`: the fate of every submission (key press or bot move);
- `on_new_game()`: the table has a new game (the next deal, or a stopped game
  resumed): whatever was kept about the last one is the last one's.

`Subscribers` keeps them for the table (and a remote seat), and tells them:
a tuple per kind, rebuilt when a subscription comes or goes, so the hot path
walks a tuple, and a listener that unsubscribes (or subscribes) while being
told changes only what later news reaches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spit_tui.engine import Event
from spit_tui.engine.frozen import Frozen
from spit_tui.engine.frozen import set_field as _set

if TYPE_CHECKING:
    from spit_tui.decision import Decision


class Subscription(Frozen):
    """One party's ears at a table; each part optional. Unsubscribe with the
    same object (subscriptions compare by identity). Frozen as a frozen
    dataclass would make it (engine.frozen), without its methods compiled at
    every start."""

    __slots__ = ("on_change", "on_decision", "on_event", "on_new_game")
    on_change: Callable[[], None] | None
    on_event: Callable[[Event], None] | None
    on_decision: Callable[[Decision], None] | None
    on_new_game: Callable[[], None] | None

    def __init__(
        self,
        on_change: Callable[[], None] | None = None,
        on_event: Callable[[Event], None] | None = None,
        on_decision: Callable[[Decision], None] | None = None,
        on_new_game: Callable[[], None] | None = None,
    ) -> None:
        _set(self, "on_change", on_change)
        _set(self, "on_event", on_event)
        _set(self, "on_decision", on_decision)
        _set(self, "on_new_game", on_new_game)


class Subscribers:
    """The subscriptions of one table, and the telling."""

    def __init__(self) -> None:
        self._subs: list[Subscription] = []
        self.changed: tuple[Callable[[], None], ...] = ()
        self.events: tuple[Callable[[Event], None], ...] = ()
        self.decisions: tuple[Callable[[Decision], None], ...] = ()
        self.new_games: tuple[Callable[[], None], ...] = ()

    def add(self, sub: Subscription) -> Subscription:
        self._subs.append(sub)
        self._index()
        return sub

    def remove(self, sub: Subscription) -> None:
        """Forget `sub` (nothing happens if it is not subscribed)."""
        if sub in self._subs:
            self._subs.remove(sub)
            self._index()

    def _index(self) -> None:
        subs = self._subs
        self.changed = tuple(s.on_change for s in subs if s.on_change is not None)
        self.events = tuple(s.on_event for s in subs if s.on_event is not None)
        self.decisions = tuple(s.on_decision for s in subs if s.on_decision is not None)
        self.new_games = tuple(s.on_new_game for s in subs if s.on_new_game is not None)

    def __len__(self) -> int:
        return len(self._subs)

    # the telling (the holder's own: a table, a remote seat)

    def tell_change(self) -> None:
        """Tell every on_change: something worth a repaint happened."""
        for listener in self.changed:
            listener()

    def tell_event(self, event: Event) -> None:
        for listener in self.events:
            listener(event)

    def tell_decision(self, decision: Decision) -> None:
        for listener in self.decisions:
            listener(decision)

    def tell_new_game(self) -> None:
        """Tell every on_new_game, then every on_change (the board is new)."""
        for listener in self.new_games:
            listener()
        self.tell_change()
