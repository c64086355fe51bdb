"""Checking and applying one action at a time (R7-R10, D3-D5, D12, R15).

`check` answers "may this happen here?" with a reason a player can read;
`move` applies an action already checked. Neither looks at time or chance.
"""

from __future__ import annotations

from .actions import FILLS, FLIPS, PLAYS, Action, Fill, Flip, Play, Ready, Slap, not_an_action
from .cards import ADJACENT, NEAR, Card, adjacent
from .errors import RefusalKind
from .options import Options
from .position import (
    EMPTY_SLOT,
    LEFT,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SLAP,
    PHASE_SPIT,
    PLAYERS,
    RIGHT,
    SLOTS,
    Phase,
    Player,
    Position,
    Side,
    Slot,
)

Problem = tuple[RefusalKind, str]


def pile_name(pos: Position, pile: int) -> str:
    if pos.single_pile:
        return "the spit pile"
    return "pile " + "ab"[pile]  # as the board names the piles


def _phase_problem(pos: Position, wanted: Phase) -> Problem | None:
    if pos.phase is wanted:
        return None
    if pos.phase is PHASE_OVER:
        return RefusalKind.WRONG_PHASE, "the game is over"
    if pos.phase is PHASE_SLAP:
        return RefusalKind.WRONG_PHASE, "the round is over: slap a spit pile"
    if pos.phase is PHASE_SPIT:
        return RefusalKind.WRONG_PHASE, "wait for the spit"
    if wanted is PHASE_SLAP:
        return RefusalKind.WRONG_PHASE, "no slap now: the round is still on"
    return RefusalKind.WRONG_PHASE, "not now"


def _slot_problem(side: Side, slot: int, verb: str) -> Problem | None:
    if not 0 <= slot < SLOTS:
        return RefusalKind.ILLEGAL, f"there is no stockpile {slot + 1}"
    s = side.slots[slot]
    if not s.cards:
        return RefusalKind.ILLEGAL, f"stockpile {slot + 1} is empty: nothing to {verb}"
    if not s.up:
        return RefusalKind.ILLEGAL, f"stockpile {slot + 1} is face down: flip first"
    return None


def malformed(a: Action) -> Problem | None:
    """Fields no rule is about: a player that is not Player.LEFT or Player.RIGHT
    (an int or a bool is not a player), a slot or pile that is not an int.
    Such an action is refused before any rule looks at it; out-of-range ints
    are the rules' to refuse ("there is no stockpile 6")."""
    p = a.player
    if p is not LEFT and p is not RIGHT:
        return RefusalKind.ILLEGAL, f"not a move: {p!r} is not a player (left or right)"
    match a:
        case Play(slot=slot, pile=pile):
            fields: tuple[tuple[str, object], ...] = (("slot", slot), ("pile", pile))
        case Fill(src=src, dst=dst):
            fields = (("slot", src), ("slot", dst))
        case Flip(slot=slot):
            fields = (("slot", slot),)
        case Slap(pile=pile):
            fields = (("pile", pile),)
        case Ready():
            fields = ()
        case _:
            not_an_action(a)
    for name, value in fields:
        if type(value) is not int:
            return RefusalKind.ILLEGAL, f"not a move: {value!r} is not a {name} number"
    return None


def check_play(pos: Position, a: Play) -> Problem | None:
    if (p := malformed(a)) is not None:
        return p
    if (p := _phase_problem(pos, PHASE_PLAY)) is not None:
        return p
    side = pos.sides[a.player]
    if (p := _slot_problem(side, a.slot, "play")) is not None:
        return p
    if not 0 <= a.pile < len(pos.piles):
        if pos.single_pile and a.pile == 1:
            return RefusalKind.ILLEGAL, "only one spit pile this round"
        return RefusalKind.ILLEGAL, "there is no such spit pile"
    top = pos.pile_top(a.pile)
    c = side.slots[a.slot].cards[-1]
    if top is None:
        return RefusalKind.ILLEGAL, f"{pile_name(pos, a.pile)} is empty"
    if not adjacent(c, top):
        return RefusalKind.ILLEGAL, f"{c.rank_label} does not go on {top.rank_label}"
    return None


def check_fill(pos: Position, a: Fill) -> Problem | None:
    if (p := malformed(a) or _phase_problem(pos, PHASE_PLAY)) is not None:
        return p
    side = pos.sides[a.player]
    if not side.has_gap:
        return RefusalKind.ILLEGAL, "no empty slot to fill"
    if (p := _slot_problem(side, a.src, "move")) is not None:
        return p
    if not 0 <= a.dst < SLOTS or a.dst == a.src:
        return RefusalKind.ILLEGAL, "a card moves only into an empty slot"
    if side.slots[a.dst].cards:
        return RefusalKind.ILLEGAL, f"slot {a.dst + 1} is not empty"
    if len(side.slots[a.src].cards) < 2:
        return RefusalKind.ILLEGAL, "moving a lone card changes nothing"
    return None


def check_flip(pos: Position, a: Flip, opts: Options) -> Problem | None:
    if (p := malformed(a)) is not None:
        return p
    if not opts.manual_flip:
        return RefusalKind.ILLEGAL, "cards turn up by themselves"
    if (p := _phase_problem(pos, PHASE_PLAY)) is not None:
        return p
    if not 0 <= a.slot < SLOTS:
        return RefusalKind.ILLEGAL, f"there is no stockpile {a.slot + 1}"
    s = pos.sides[a.player].slots[a.slot]
    if not s.cards:
        return RefusalKind.ILLEGAL, f"stockpile {a.slot + 1} is empty: nothing to flip"
    if s.up:
        return RefusalKind.ILLEGAL, f"stockpile {a.slot + 1} is already face up"
    return None


def spitters(pos: Position) -> tuple[Player, ...]:
    """Who must say "spit" before the next spit happens (D12).

    At the start of a round, both players (even the one with no spit cards);
    when stuck, only the players who still have a spit card (D7).
    """
    if not any(pos.piles):
        return PLAYERS
    left, right = pos.sides  # unrolled: asked on every ready and every spit phase
    if left.spit:
        return PLAYERS if right.spit else (LEFT,)
    return (RIGHT,) if right.spit else ()


def check_ready(pos: Position, a: Ready, opts: Options) -> Problem | None:
    if a.player is not LEFT and a.player is not RIGHT:
        return malformed(a)
    if pos.phase is PHASE_PLAY:
        who = [p.label for p in PLAYERS if can_act(pos, p, opts)]
        named = "both" if len(who) == 2 else who[0] if who else "a player"
        return RefusalKind.ILLEGAL, f"no spit yet: {named} can still play"
    if pos.phase is not PHASE_SPIT:
        return _phase_problem(pos, PHASE_SPIT)
    side = pos.sides[a.player]
    if a.player not in spitters(pos):
        return RefusalKind.NOTICE, "no spit card: the other spits alone"
    if side.ready:
        return RefusalKind.NOTICE, "ready: waiting for the other player"
    return None


def check_slap(pos: Position, a: Slap) -> Problem | None:
    if (p := malformed(a) or _phase_problem(pos, PHASE_SLAP)) is not None:
        return p
    if not 0 <= a.pile < len(pos.piles):
        return RefusalKind.ILLEGAL, "there is no such spit pile"
    return None


def check(pos: Position, a: Action, opts: Options) -> Problem | None:
    """The reason `a` may not happen in `pos`, or None if it may; a malformed
    action is refused like an illegal one, and a non-action is a TypeError."""
    match a:
        case Play(player=player, slot=slot, pile=pile):
            # By far the most frequent case, and a legal play is decided here
            # inline (the hot path of every game); anything else takes
            # check_play, which works out which rule it breaks.
            if (
                pos.phase is PHASE_PLAY
                and (player is LEFT or player is RIGHT)
                and type(slot) is int
                and type(pile) is int
                and 0 <= slot < SLOTS
                and 0 <= pile < len(pos.piles)
            ):
                s = pos.sides[player].slots[slot]
                cards = pos.piles[pile]
                if s.up and cards and ADJACENT[s.cards[-1].rank][cards[-1].rank]:
                    return None
            return check_play(pos, a)
        case Fill():
            return check_fill(pos, a)
        case Flip():
            return check_flip(pos, a, opts)
        case Ready():
            return check_ready(pos, a, opts)
        case Slap():
            return check_slap(pos, a)
        case _:
            not_an_action(a)


# -- what a player can do ----------------------------------------------------


def moves(pos: Position, player: Player, opts: Options) -> list[Action]:
    """Every play, fill and flip `player` has (the play phase's legal actions)."""
    piles = pos.piles
    first = piles[0]
    near_a = NEAR[first[-1].rank] if first else 0
    near_b = 0
    if len(piles) > 1 and piles[1]:
        near_b = NEAR[piles[1][-1].rank]
    ptable = PLAYS[player]
    out: list[Action] = []
    empty: list[int] = []
    movable: list[int] = []
    near = near_a | near_b
    for i, (cards, up) in enumerate(pos.sides[player].slots):
        if not cards:
            empty.append(i)
        elif up:
            bit = 1 << cards[-1].rank
            if near & bit:
                if near_a & bit:
                    out.append(ptable[i][0])
                if near_b & bit:
                    out.append(ptable[i][1])
            if len(cards) > 1:
                movable.append(i)
        elif opts.manual_flip:
            out.append(FLIPS[player][i])
    if empty and movable:
        ftable = FILLS[player]
        out += [ftable[m][d] for m in movable for d in empty]
    return out


def _wanted(piles: tuple[tuple[Card, ...], ...]) -> int:
    m = 0
    for p in piles:
        if p:
            m |= NEAR[p[-1].rank]
    return m


def _slots_can_act(slots: tuple[Slot, ...], wanted: int, manual_flip: bool) -> bool:
    has_empty = has_movable = False
    for cards, up in slots:
        if not cards:
            has_empty = True
        elif up:
            if wanted >> cards[-1].rank & 1:
                return True
            if len(cards) > 1:
                has_movable = True
        elif manual_flip:
            return True
    return has_empty and has_movable


def can_act(pos: Position, player: Player, opts: Options) -> bool:
    """D6 for one player: a play, a flip or a useful fill exists."""
    return _slots_can_act(pos.sides[player].slots, _wanted(pos.piles), opts.manual_flip)


def any_can_act(pos: Position, opts: Options) -> bool:
    wanted = 0  # _wanted inlined: this runs after every action
    for p in pos.piles:
        if p:
            wanted |= NEAR[p[-1].rank]
    manual = opts.manual_flip
    return _slots_can_act(pos.sides[0].slots, wanted, manual) or _slots_can_act(
        pos.sides[1].slots, wanted, manual
    )


# -- applying ----------------------------------------------------------------


def _take_top(slot: Slot, opts: Options) -> tuple[Card, Slot, Card | None]:
    """Lift the top card; D3 turns the next one up unless manual_flip."""
    cards = slot.cards
    c = cards[-1]
    rest = cards[:-1]
    if not rest:
        return c, EMPTY_SLOT, None
    if opts.manual_flip:
        return c, Slot.fast(rest, False), None
    return c, Slot.fast(rest, True), rest[-1]


def move_play(pos: Position, a: Play, opts: Options) -> tuple[Position, Card, Card | None]:
    # The engine's hottest path: the slot is lifted inline rather than by
    # _take_top (D3 the same way), and Position.with_slot builds the records.
    cards = pos.sides[a.player].slots[a.slot].cards
    c = cards[-1]
    rest = cards[:-1]
    up = not opts.manual_flip if rest else False
    piles = list(pos.piles)
    piles[a.pile] += (c,)
    new = pos.with_slot(a.player, a.slot, rest, up, tuple(piles))
    return new, c, rest[-1] if up else None


def move_fill(pos: Position, a: Fill, opts: Options) -> tuple[Position, Card, Card | None]:
    side = pos.sides[a.player]
    c, rest, revealed = _take_top(side.slots[a.src], opts)
    side = side.with_slot(a.src, rest).with_slot(a.dst, Slot.fast((c,), True))
    return pos.with_side(a.player, side), c, revealed


def move_flip(pos: Position, a: Flip) -> tuple[Position, Card]:
    side = pos.sides[a.player]
    s = side.slots[a.slot]
    return pos.with_slot(a.player, a.slot, s.cards, True), s.cards[-1]


def move_spit(pos: Position) -> tuple[Position, tuple[tuple[int, Card], ...]]:
    """R6/R13/D2/D7: every player who must spit turns his top spit card onto his pile."""
    piles = list(pos.piles)
    sides = list(pos.sides)
    spat: list[tuple[int, Card]] = []
    for p in PLAYERS:
        side = sides[p]
        if side.spit:
            target = 0 if pos.single_pile else int(p)
            c = side.spit[-1]
            piles[target] = piles[target] + (c,)
            sides[p] = Side(side.slots, side.spit[:-1], False)
            spat.append((target, c))
        else:
            sides[p] = Side(side.slots, side.spit, False)
    new = pos._replace(piles=tuple(piles), sides=(sides[0], sides[1]), phase=PHASE_PLAY)
    return new, tuple(spat)
