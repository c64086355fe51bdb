"""How the computer opponent chooses, from what it can see (a `View`).

Spit is a race, so the first rule is never to sit on a play: whenever the bot
has any action it takes one. Strategy decides *which* one when there is a
choice, and which pile to slap. The policy only ranks; how fast the bot is and
what it overlooks belong to its level (players/bot.py).

Every candidate gets a score; the highest wins, ties broken by the bot's own
seeded Random. For a play of card c from slot s onto pile p:

- **Play before fill.** A play scores a base of 10, a fill 6. A spit pile can
  change under you at any moment, a gap in your own row cannot, so the card
  that can be taken away is taken first.
- **Reveal.** A play that uncovers a face-down card scores +3, and a little
  more (+0.3 each) the more face-down cards lie under it: a new card is a new
  chance to play, and deep stacks are what keeps a player from clearing.
- **Empty a slot for a fill.** Playing the last card of a slot scores +2 when
  another slot still hides face-down cards, because the gap lets the bot move a
  card over and turn one up. Playing the very last stock card ends the round
  in its favour (+6).
- **Keep the chain going.** +2.5 for each of its other face-up cards that can
  be played after this one lands (counting at most two): a play that enables
  the next play keeps the hand moving while the opponent is still looking.
  Plays onto the pile it just played on are also what the bot is quickest at
  (its level's chain factor).
- **Do not hand the opponent a play.** -2 for each face-up card of the
  opponent's that becomes playable on the new top, +2 for each that stops
  being playable. When a card fits both piles this picks the pile that helps
  the opponent least.
- **Take contested cards first.** +1.5 when the opponent could play on the
  same pile right now and the card fits nowhere else: if the bot waits, the
  opponent's card lands first and the play is gone.
- **Fills** score 6 +3 for the reveal (+0.3 per face-down card beneath): a
  fill always turns a card up (D4), so it is what the bot does when it has no
  play, and it never leaves a fill undone (nobody is stuck while a fill exists).
- **Flips** (manual-flip games) score 12: turning a card up costs nothing and
  can only add plays.
- **Slap** the smaller pile (R15, D8); on equal piles either, by coin.
- **Say "spit"** as soon as it is allowed: there is nothing to gain by waiting.

Levels weaken this on purpose (players/ladder.py): the "easy" policy, on
rungs 1-6, only knows "play before fill" and "reveal"; the "normal" one, on
rungs 7-10, adds chains and emptying slots; rungs 11-14 use all of it.
With the same hands on both sides the full policy beats the normal one in
about 62% of games and a random chooser in about 83%
(benchmarks/bots.py); most of its edge over "normal" comes from not handing
the opponent plays. The
`RandomPolicy` picks uniformly among the same candidates (and slaps a random
pile): the baseline that shows the strategy is worth something on its own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from spit_tui.engine import Action, Card, Fill, Flip, Play, Ready, Slap, adjacent, not_an_action

from .view import View


class Policy(Protocol):
    name: str

    def choose(self, view: View, candidates: Sequence[Action], rng: random.Random) -> Action:
        """Pick one of the (non-empty) play-phase candidates."""
        ...

    def slap(self, view: View, rng: random.Random) -> Slap:
        """Pick the pile to slap at the end of a two-pile round."""
        ...


class Weights(NamedTuple):
    """The score terms of `SmartPolicy` (see the module docstring)."""

    play: float = 10.0
    fill: float = 6.0
    flip: float = 12.0
    reveal: float = 3.0
    depth: float = 0.3
    empty: float = 2.0
    clear: float = 6.0
    chain: float = 2.5
    gift: float = 2.0
    contest: float = 1.5


EASY_WEIGHTS = Weights(empty=0.0, clear=0.0, chain=0.0, gift=0.0, contest=0.0)
NORMAL_WEIGHTS = Weights(gift=0.0, contest=0.0)
FULL_WEIGHTS = Weights()


def _playable(cards: Sequence[Card | None], tops: Sequence[Card | None]) -> int:
    """How many of `cards` fit on at least one of `tops`."""
    n = 0
    for c in cards:
        if c is not None:
            for t in tops:
                if t is not None and adjacent(c, t):
                    n += 1
                    break
    return n


def smaller_pile(view: View, rng: random.Random) -> int:
    sizes = view.pile_sizes
    if len(sizes) < 2 or sizes[0] == sizes[1]:
        return rng.randrange(len(sizes)) if len(sizes) > 1 else 0
    return 0 if sizes[0] < sizes[1] else 1


class SmartPolicy:
    """The scored policy of the module docstring."""

    def __init__(self, weights: Weights = FULL_WEIGHTS, name: str = "smart") -> None:
        self.w = weights
        self.name = name

    def score(self, view: View, action: Action) -> float:
        match action:
            case Play(slot=slot, pile=pile):
                return self._score_play(view, slot, pile)
            case Fill(src=src):
                w, down = self.w, view.mine.down(src)
                return w.fill + (w.reveal + w.depth * down if down else 0.0)
            case Flip():
                return self.w.flip
            case Ready() | Slap():
                return 0.0  # not play-phase candidates: never ranked against plays
            case _:
                not_an_action(action)

    def _score_play(self, view: View, slot: int, pile: int) -> float:
        w = self.w
        mine = view.mine
        c = mine.tops[slot]
        assert c is not None
        s = w.play
        down = mine.down(slot)
        if down:
            s += w.reveal + w.depth * down
        elif mine.sizes[slot] == 1:
            if mine.stock == 1:
                s += w.clear
            elif any(mine.down(i) and i != slot for i in range(len(mine.sizes))):
                s += w.empty
        new_tops = list(view.pile_tops)
        new_tops[pile] = c
        if w.chain:
            others = [t for i, t in enumerate(mine.tops) if i != slot]
            s += w.chain * min(_playable(others, new_tops), 2)
        if w.gift or w.contest:
            theirs = view.theirs.tops
            old = view.pile_tops[pile]
            before = _playable(theirs, (old,))
            after = _playable(theirs, (c,))
            s -= w.gift * (after - before)
            if before and w.contest:
                elsewhere = any(
                    t is not None and adjacent(c, t)
                    for j, t in enumerate(view.pile_tops)
                    if j != pile
                )
                if not elsewhere:
                    s += w.contest
        return s

    def choose(self, view: View, candidates: Sequence[Action], rng: random.Random) -> Action:
        best: list[Action] = []
        top = float("-inf")
        for a in candidates:
            s = self.score(view, a)
            if s > top + 1e-9:
                top, best = s, [a]
            elif s > top - 1e-9:
                best.append(a)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def slap(self, view: View, rng: random.Random) -> Slap:
        return Slap(view.me, smaller_pile(view, rng))


class RandomPolicy:
    """Uniformly random among the legal candidates; slaps a random pile."""

    name = "random"

    def choose(self, view: View, candidates: Sequence[Action], rng: random.Random) -> Action:
        return candidates[rng.randrange(len(candidates))]

    def slap(self, view: View, rng: random.Random) -> Slap:
        return Slap(view.me, rng.randrange(len(view.pile_sizes)))
