"""Helpers for the engine tests.

- `pos(text)` / `game(text)`: a position from notation in which a `*` stands
  for "every card not spelled out", and `#N` for "the next N unused cards", so
  a test only spells the cards that matter and still holds all 52 exactly once.
- An independent D6 oracle (`oracle_can_act`, `oracle_stuck`) and legal-action
  counter, written from spit-rules.md without calling the engine's rules.
- `invariants(game)`: what must hold after every step of any game.
- A seeded random agent for whole games.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from spit_tui.engine import (
    PLAYERS,
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
    Slap,
    Slot,
    Variant,
    card,
    format_position,
    missing_cards,
    parse_position,
)

L, R = Player.LEFT, Player.RIGHT
RANKS = "23456789TJQKA"
ROUND_CAP = 1000
_CARD = re.compile(r"[2-9TJQKA][shdc]")
_COUNTED = re.compile(r"#(\d+)")


def fill_text(text: str) -> str:
    """Expand `#N` (the next N unused cards) then a lone `*` (all the rest)."""
    pool = [str(c) for c in missing_cards(map(card, _CARD.findall(text)))]

    def take(m: re.Match[str]) -> str:
        n = int(m[1])
        if n > len(pool):
            raise ValueError(f"#{n}: only {len(pool)} unused cards left")
        got = pool[:n]
        del pool[:n]
        return "".join(got)

    text = _COUNTED.sub(take, text)
    if text.count("*") > 1:
        raise ValueError("at most one bare '*' (the rest of the deck)")
    rest = "".join(pool)
    if not rest:  # a field or slot that is nothing but '*' becomes empty ('-')
        text = re.sub(r"(?<![^\s/])\*(?![^\s/])", "-", text)
    text = text.replace("*", rest)
    return text


def pos(text: str, *, full: bool = True) -> Position:
    """Parse `text` after expanding `*`; by default insist on all 52 cards once."""
    p = parse_position(fill_text(text))
    if full:
        cards = p.all_cards()
        assert len(cards) == 52 and not missing_cards(cards), (
            f"position does not hold the 52 cards exactly once: {len(cards)}"
        )
    return p


def opts(*, manual_flip: bool = False, points: bool = False, target: int = 100) -> Options:
    return Options(
        variant=Variant.POINTS if points else Variant.STANDARD,
        target=target,
        manual_flip=manual_flip,
    )


def game(
    text: str, *, manual_flip: bool = False, points: bool = False, target: int = 100,
    seed: int = 0,
) -> Game:
    return Game(
        position=pos(text),
        options=opts(manual_flip=manual_flip, points=points, target=target),
        seed=seed,
    )


def refused(g: Game, action: Action) -> Refusal:
    """Apply `action`, insist it is refused and that nothing changed."""
    before = g.position
    n = len(g.log)
    out = g.try_apply(action)
    assert isinstance(out, Refusal), f"{action} was applied, expected a refusal"
    assert g.position == before
    assert len(g.log) == n
    assert out.position == format_position(before)
    return out


# -- the independent D6 oracle ------------------------------------------------


def ranks_touch(a: str, b: str) -> bool:
    """R2 from the text: one rank apart, A next to both K and 2, never equal."""
    i, j = RANKS.index(a[0]), RANKS.index(b[0])
    return abs(i - j) == 1 or {a[0], b[0]} == {"A", "2"}


def _tops(p: Position) -> list[str]:
    return [str(pile[-1]) for pile in p.piles if pile]


def oracle_plays(p: Position, player: Player) -> int:
    """R7: (face-up top, pile) pairs that touch."""
    n = 0
    for s in p.sides[player].slots:
        if s.cards and s.up:
            n += sum(ranks_touch(str(s.cards[-1]), t) for t in _tops(p))
    return n


def oracle_fills(p: Position, player: Player) -> int:
    """R9/D4: a face-up top with a card beneath it, into any empty slot."""
    slots = p.sides[player].slots
    empty = sum(1 for s in slots if len(s.cards) == 0)
    movable = sum(1 for s in slots if s.up and len(s.cards) >= 2)
    return empty * movable


def oracle_flips(p: Position, player: Player, manual_flip: bool) -> int:
    """D3: a face-down top to turn up (manual_flip only)."""
    if not manual_flip:
        return 0
    return sum(1 for s in p.sides[player].slots if s.cards and not s.up)


def oracle_can_act(p: Position, player: Player, manual_flip: bool) -> bool:
    return (
        oracle_plays(p, player) + oracle_fills(p, player) + oracle_flips(p, player, manual_flip)
    ) > 0


def oracle_stuck(p: Position, manual_flip: bool) -> bool:
    """D6: the spit piles are going and no player has a play, a flip or a fill."""
    if p.phase not in (Phase.PLAY, Phase.SPIT) or not any(p.piles):
        return False
    return not any(oracle_can_act(p, pl, manual_flip) for pl in PLAYERS)


def oracle_legal_count(p: Position, player: Player, manual_flip: bool) -> int:
    """How many actions `player` may apply (notices excluded), from the rules."""
    if p.phase is Phase.PLAY:
        return (
            oracle_plays(p, player) + oracle_fills(p, player)
            + oracle_flips(p, player, manual_flip)
        )
    if p.phase is Phase.SPIT:
        start = not any(p.piles)
        must = start or bool(p.sides[player].spit)  # D12
        return int(must and not p.sides[player].ready)
    if p.phase is Phase.SLAP:
        return len(p.piles)
    return 0


# -- invariants ---------------------------------------------------------------


def invariants(g: Game) -> None:
    """Everything that must hold in any position a game reaches."""
    p = g.position
    manual = g.options.manual_flip
    cards = p.all_cards()
    counts = Counter(cards)
    assert len(cards) == 52 and len(counts) == 52, "a card was lost or duplicated"
    for side in p.sides:
        assert len(side.slots) == 5  # R10
        for s in side.slots:
            if not s.cards:
                assert not s.up, "an empty slot shows a face-up card"
            elif not manual:
                assert s.up, "a face-down top without manual_flip (D3)"
    # R17: one pile exactly when someone spits alone for the whole round
    assert len(p.piles) == (2 if p.spitter is None else 1)
    if p.phase in (Phase.PLAY, Phase.SPIT):
        # R19: no round is under way with a player holding no cards (a player
        # who has just cleared holds none while the slap is awaited)
        assert all(side.total > 0 for side in p.sides), "a round with an empty hand (R19)"
    assert (p.winner is not None) == (p.phase is Phase.OVER)
    stuck = oracle_stuck(p, manual)
    assert g.stuck == stuck, f"stuck is {g.stuck}, D6 says {stuck}: {format_position(p)}"
    if p.phase is Phase.PLAY:
        assert not stuck, "play phase while nobody can act"
    if p.phase is Phase.SPIT and any(p.piles):
        # mid-round spit: only because stuck, and someone still has a spit card (R13/R14)
        assert stuck
        assert any(side.spit for side in p.sides)
    if p.phase is Phase.SPIT and not any(p.piles):
        assert all(not any(s.cards and s.up is False for s in side.slots) for side in p.sides)
    if p.phase is Phase.SLAP:
        assert p.spitter is None and g.options.variant is Variant.STANDARD  # D8, D10


# -- a seeded random agent ----------------------------------------------------


def random_legal(g: Game, rng: random.Random) -> Action:
    """Any legal action of either player, uniformly."""
    acts = g.legal_actions(L) + g.legal_actions(R)
    assert acts, f"no legal action in a live game: {format_position(g.position)}"
    return rng.choice(acts)


def play_out(
    g: Game, rng: random.Random, *, round_cap: int = ROUND_CAP, check: bool = False
) -> bool:
    """Play random legal actions until the game ends; False if it hit the round cap."""
    while not g.over:
        if g.position.round > round_cap:
            return False
        g.apply(random_legal(g, rng))
        if check:
            invariants(g)
    return True


def oracle_legal(p: Position, a: Action, manual_flip: bool) -> bool:
    """May `a` be applied in `p`? From the rules text, not the engine's check."""
    side = p.sides[a.player]

    def slot(i: int) -> Slot | None:
        return side.slots[i] if 0 <= i < 5 else None

    if isinstance(a, Play):
        s = slot(a.slot)
        if p.phase is not Phase.PLAY or s is None or not s.cards or not s.up:
            return False
        if not 0 <= a.pile < len(p.piles) or not p.piles[a.pile]:
            return False
        return ranks_touch(str(s.cards[-1]), str(p.piles[a.pile][-1]))
    if isinstance(a, Fill):
        src, dst = slot(a.src), slot(a.dst)
        if p.phase is not Phase.PLAY or src is None or dst is None or a.src == a.dst:
            return False
        return src.up and len(src.cards) >= 2 and not dst.cards
    if isinstance(a, Flip):
        s = slot(a.slot)
        return manual_flip and p.phase is Phase.PLAY and s is not None and bool(s.cards) and (
            not s.up
        )
    if isinstance(a, Ready):
        if p.phase is not Phase.SPIT or side.ready:
            return False
        return not any(p.piles) or bool(side.spit)  # D12: start of round, or has a spit card
    assert isinstance(a, Slap)
    return p.phase is Phase.SLAP and 0 <= a.pile < len(p.piles)
