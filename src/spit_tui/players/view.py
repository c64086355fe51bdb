"""What a person sitting at the table can see, and nothing more.

The computer opponent decides from a `View`, never from a `Position`: the
face-down cards of the stockpiles and the spit cards are reduced to counts,
and a spit pile to its top card and its size. So a bot cannot cheat by
construction, and a test can swap face-down cards and check that nothing the
bot does changes.

The view also carries what the table shows around the rules (the "no plays
left: spit!" banner, the countdown, who has said "spit"), because a person
reacts to those too.
"""

from __future__ import annotations

from typing import NamedTuple

from spit_tui.engine import (
    SLOTS,
    Action,
    Card,
    Fill,
    Flip,
    Phase,
    Play,
    Player,
    Position,
    Ready,
    Side,
    Slap,
    adjacent,
    not_an_action,
)
from spit_tui.keys.intent import leftmost_gap


class SideView(NamedTuple):
    """One player's side as seen across the table."""

    tops: tuple[Card | None, ...]  # the face-up top card of each slot, if any
    sizes: tuple[int, ...]  # cards in each slot (face-down ones included)
    spit: int  # face-down spit cards left
    ready: bool  # has said "spit"

    def down(self, slot: int) -> int:
        """Face-down cards in `slot`: the ones a play or fill from it would uncover."""
        return self.sizes[slot] - (self.tops[slot] is not None)

    @property
    def stock(self) -> int:
        return sum(self.sizes)


class View(NamedTuple):
    """The table from `me`'s chair."""

    me: Player
    phase: Phase
    round: int
    sides: tuple[SideView, SideView]
    pile_tops: tuple[Card | None, ...]  # one entry per spit pile in use
    pile_sizes: tuple[int, ...]
    single_pile: bool
    manual_flip: bool = False
    stuck_banner: bool = False  # "no plays left: spit!" is on show
    counting_down: bool = False  # the spit is on its way

    @property
    def mine(self) -> SideView:
        return self.sides[self.me]

    @property
    def theirs(self) -> SideView:
        return self.sides[1 - self.me]


def side_view(side: Side, ready: bool | None = None) -> SideView:
    tops: list[Card | None] = []
    sizes: list[int] = []
    for s in side.slots:
        cards = s.cards
        tops.append(cards[-1] if s.up and cards else None)
        sizes.append(len(cards))
    return SideView(
        tuple(tops), tuple(sizes), len(side.spit), side.ready if ready is None else ready
    )


def view_of(
    pos: Position,
    me: Player,
    *,
    manual_flip: bool = False,
    stuck_banner: bool = False,
    counting_down: bool = False,
    ready: tuple[bool, bool] | None = None,
    cache: ViewCache | None = None,
) -> View:
    """Mask `pos` down to what `me` can see. `ready` overrides the ready flags
    (the table counts a ready whose spit is counting down)."""
    rl, rr = ready if ready is not None else (pos.sides[0].ready, pos.sides[1].ready)
    if cache is not None:
        left, right = cache.side(0, pos.sides[0], rl), cache.side(1, pos.sides[1], rr)
    else:
        left, right = side_view(pos.sides[0], rl), side_view(pos.sides[1], rr)
    piles = pos.piles
    return View(
        me=me,
        phase=pos.phase,
        round=pos.round,
        sides=(left, right),
        pile_tops=tuple(p[-1] if p else None for p in piles),
        pile_sizes=tuple(len(p) for p in piles),
        single_pile=len(piles) == 1,
        manual_flip=manual_flip,
        stuck_banner=stuck_banner,
        counting_down=counting_down,
    )


class ViewCache:
    """Remembers the last view of each side: one action changes one side, so a
    bot watching every change rebuilds only the side that moved."""

    def __init__(self) -> None:
        self._last: list[tuple[Side, bool, SideView] | None] = [None, None]

    def side(self, i: int, side: Side, ready: bool) -> SideView:
        last = self._last[i]
        if last is not None and last[0] is side and last[1] == ready:
            return last[2]
        sv = side_view(side, ready)
        self._last[i] = (side, ready, sv)
        return sv


def plays_for(view: View, player: Player | None = None) -> list[Play]:
    """Plays `player` (default: me) could make, judged from what is visible."""
    who = view.me if player is None else player
    out: list[Play] = []
    tops = view.sides[who].tops
    for j, t in enumerate(view.pile_tops):
        if t is None:
            continue
        for i, c in enumerate(tops):
            if c is not None and adjacent(c, t):
                out.append(Play(who, i, j))
    return out


def play_actions(view: View) -> list[Action]:
    """Every play-phase action open to me: plays, useful fills (D4), flips."""
    if view.phase is not Phase.PLAY or view.counting_down:
        return []
    me = view.me
    mine = view.mine
    out: list[Action] = list(plays_for(view))
    dst = leftmost_gap(mine.sizes)  # where the fill key fills (the place never matters)
    if dst is not None:
        out.extend(
            Fill(me, i, dst) for i in range(SLOTS) if mine.tops[i] is not None and mine.sizes[i] > 1
        )
    if view.manual_flip:
        out.extend(Flip(me, i) for i in range(SLOTS) if mine.sizes[i] and mine.tops[i] is None)
    return out


def must_say_spit(view: View) -> bool:
    """D12: whether the next spit waits for my "spit" (and I have not said it)."""
    if view.phase is not Phase.SPIT or view.counting_down or view.mine.ready:
        return False
    if not any(view.pile_sizes):
        return True  # round start: both say it, even a player with no spit card
    return view.stuck_banner and view.mine.spit > 0


def still_legal(view: View, action: Action) -> bool:
    """Whether a planned action still makes sense on the table as it is now."""
    match action:
        case Play(player, slot, pile):
            if view.phase is not Phase.PLAY or view.counting_down:
                return False
            c = view.sides[player].tops[slot]
            t = view.pile_tops[pile] if pile < len(view.pile_tops) else None
            return c is not None and t is not None and adjacent(c, t)
        case Fill(player, src, dst):
            side = view.sides[player]
            return (
                view.phase is Phase.PLAY
                and not view.counting_down
                and side.sizes[dst] == 0
                and side.tops[src] is not None
                and side.sizes[src] > 1
            )
        case Flip(player, slot):
            side = view.sides[player]
            return view.phase is Phase.PLAY and side.sizes[slot] > 0 and side.tops[slot] is None
        case Ready():
            return must_say_spit(view)
        case Slap():
            return view.phase is Phase.SLAP
        case _:
            not_an_action(action)
