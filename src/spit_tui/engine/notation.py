"""Text notation for positions and actions (like FEN); whole-game records
(like PGN) are in record.py.

Position, ten fields separated by single spaces:

    phase round kind ready left-slots left-spit piles right-slots right-spit scores

- phase: ``spit`` | ``play`` | ``slap`` | ``over:L`` | ``over:R`` (winner)
- round: 1, 2, ...
- kind: ``two`` (two spit piles) or ``one:L`` / ``one:R`` (single pile; who spits)
- ready: ``-``, ``L``, ``R`` or ``LR``
- slots: five stockpiles separated by ``/``; each is its face-down cards
  bottom to top, then ``:`` and the face-up top card if there is one
  (``4c9d:Kh``, ``:Kh``, ``4c9d`` with manual flip), or ``-`` when empty
- spit: the spit cards bottom to top (the last one is turned next) or ``-``
- piles: the spit piles separated by ``/``, bottom to top, ``-`` when empty
- scores: ``left,right`` (points variant; ``0,0`` otherwise)

Actions: ``L3a`` play left stockpile 3 onto pile a (``b`` is the right pile),
``L2>4`` fill slot 4 from stockpile 2, ``L3^`` flip stockpile 3, ``L!`` ready
("spit"), ``L*b`` slap pile b. ``R`` for the right player.
"""

from __future__ import annotations

import re

from .actions import Action, Fill, Flip, Play, Ready, Slap, not_an_action
from .cards import Card, card, missing_cards
from .errors import NotationError
from .loading import check_position
from .position import SLOTS, Phase, Player, Position, Side, Slot

FIELDS = (
    "phase", "round", "kind", "ready", "left stockpiles", "left spit cards",
    "spit piles", "right stockpiles", "right spit cards", "scores",
)
PILES = "ab"


def _cards(cs: tuple[Card, ...]) -> str:
    return "".join(map(str, cs)) or "-"


def format_slot(s: Slot) -> str:
    if not s.cards:
        return "-"
    if s.up:
        return _cards(s.cards[:-1]).replace("-", "") + ":" + str(s.cards[-1])
    return _cards(s.cards)


def format_position(pos: Position) -> str:
    phase = str(pos.phase)
    if pos.phase is Phase.OVER and pos.winner is not None:
        phase += ":" + pos.winner.letter
    kind = "two" if pos.spitter is None else "one:" + pos.spitter.letter
    ready = "".join(p.letter for p, s in zip(Player, pos.sides, strict=True) if s.ready) or "-"
    parts = [phase, str(pos.round), kind, ready]
    for i, side in enumerate(pos.sides):
        slots = "/".join(format_slot(s) for s in side.slots)
        if i == 0:
            parts += [slots, _cards(side.spit), "/".join(_cards(p) for p in pos.piles)]
        else:
            parts += [slots, _cards(side.spit)]
    parts.append(f"{pos.scores[0]},{pos.scores[1]}")
    return " ".join(parts)


_ASCII_GAPS = " \t\r\n"  # trimmed from the ends of a position, an action or a record line
_NUMBER = re.compile(r"[0-9]{1,9}")
_SEED = re.compile(r"-?[0-9]{1,4000}")


def quoted(text: str, limit: int = 24) -> str:
    """`text` quoted for an error message: escapes made visible, long text cut."""
    if len(text) > limit:
        return repr(text[:limit]) + f"... ({len(text)} characters)"
    return repr(text)


def ascii_problem(text: str, spaces: str) -> str | None:
    """Where `text` leaves printable ASCII (plus the whitespace in `spaces`)."""
    for i, ch in enumerate(text):
        if not ("!" <= ch <= "~" or ch in spaces):
            what = "a tab" if ch == "\t" else f"{ch!r} (U+{ord(ch):04X})"
            return (
                f"character {i + 1} is {what}: the notation is plain ASCII, "
                "with fields separated by spaces"
            )
    return None


def _parse_cards(text: str, field: str) -> tuple[Card, ...]:
    """A run of cards, or `-` for none."""
    if text == "-":
        return ()
    if not text:
        raise NotationError(f"{field}: empty; write '-' for no cards")
    if len(text) % 2:
        raise NotationError(f"{field}: {quoted(text)} is not a run of two-character cards")
    out = []
    for i in range(0, len(text), 2):
        try:
            out.append(card(text[i : i + 2]))
        except ValueError:
            raise NotationError(
                f"{field}: {quoted(text[i : i + 2])} is not a card "
                "(rank 2-9/T/J/Q/K/A, then suit s/h/d/c)"
            ) from None
    return tuple(out)


def _parse_slot(text: str, field: str) -> Slot:
    if ":" not in text:
        return Slot(_parse_cards(text, field), False)
    down, _, up = text.partition(":")
    if len(up) != 2:
        raise NotationError(f"{field}: {quoted(text)} must have exactly one card after ':'")
    if down == "-":
        raise NotationError(f"{field}: {quoted(text)}: write ':{up}' for a card alone")
    return Slot((_parse_cards(down, field) if down else ()) + _parse_cards(up, field), True)


def _parse_side(slots: str, spit: str, field: str, spit_field: str, ready: bool) -> Side:
    parts = slots.split("/")
    if len(parts) != SLOTS:
        raise NotationError(f"{field}: expected {SLOTS} slots separated by '/', got {len(parts)}")
    return Side(
        slots=tuple(_parse_slot(p, f"{field} slot {i + 1}") for i, p in enumerate(parts)),
        spit=_parse_cards(spit, spit_field),
        ready=ready,
    )


def _parse_number(text: str, field: str, what: str) -> int:
    if not _NUMBER.fullmatch(text):
        if text.isdigit() and len(text) > 9:
            raise NotationError(f"{field}: {quoted(text)} is too large (at most 9 digits)")
        raise NotationError(f"{field}: {quoted(text)} is not {what}")
    return int(text)


def parse_position(text: str, *, check: bool = True) -> Position:
    """Parse a position; the error names the field that is wrong.

    With `check` (the default) the position must also be one a game can be
    in (all 52 cards, phase and piles that fit: see `loading`), so whatever
    this returns can be played on. `check=False` reads the notation alone,
    for fragments that are completed later (the help's short positions)."""
    text = text.strip(_ASCII_GAPS)
    problem = ascii_problem(text, " ")
    if problem is not None:
        raise NotationError(problem)
    f = text.split()
    if len(f) != len(FIELDS):
        raise NotationError(
            f"a position has {len(FIELDS)} fields ({', '.join(FIELDS)}); got {len(f)}"
        )
    phase_s, _, win_s = f[0].partition(":")
    try:
        phase = Phase(phase_s)
    except ValueError:
        raise NotationError(
            f"phase: {quoted(f[0])} is not spit, play, slap or over:L/over:R"
        ) from None
    winner = None
    if phase is Phase.OVER:
        if win_s not in ("L", "R"):
            raise NotationError(f"phase: {quoted(f[0])} must name the winner (over:L or over:R)")
        winner = Player("LR".index(win_s))
    elif win_s:
        raise NotationError(f"phase: only 'over' names a winner, got {quoted(f[0])}")
    round_no = _parse_number(f[1], "round", "a round number (1, 2, ...)")
    if round_no < 1:
        raise NotationError(f"round: {quoted(f[1])} is not a round number (1, 2, ...)")
    if f[2] == "two":
        spitter = None
    elif f[2] in ("one:L", "one:R"):
        spitter = Player("LR".index(f[2][-1]))
    else:
        raise NotationError(f"kind: {quoted(f[2])} is not two, one:L or one:R")
    if f[3] not in ("-", "L", "R", "LR"):
        raise NotationError(f"ready: {quoted(f[3])} is not -, L, R or LR")
    left = _parse_side(f[4], f[5], FIELDS[4], FIELDS[5], "L" in f[3])
    right = _parse_side(f[7], f[8], FIELDS[7], FIELDS[8], "R" in f[3])
    pile_texts = f[6].split("/")
    want = 2 if spitter is None else 1
    if len(pile_texts) != want:
        raise NotationError(
            f"spit piles: kind {f[2]} needs {want} pile{'s' * (want > 1)} "
            f"separated by '/', got {len(pile_texts)}"
        )
    piles = tuple(_parse_cards(p, f"{FIELDS[6]} {PILES[i]}") for i, p in enumerate(pile_texts))
    a, comma, b = f[9].partition(",")
    if not comma:
        raise NotationError(f"scores: {quoted(f[9])} is not two numbers like 12,40")
    scores = (
        _parse_number(a, "scores", "two numbers like 12,40"),
        _parse_number(b, "scores", "two numbers like 12,40"),
    )
    pos = Position(
        phase=phase,
        round=round_no,
        sides=(left, right),
        piles=piles,
        spitter=spitter,
        scores=scores,
        winner=winner,
    )
    seen: set[Card] = set()
    for c in pos.all_cards():
        if c in seen:
            raise NotationError(f"card {c} appears twice")
        seen.add(c)
    if check:
        check_position(pos)
    return pos


def complete_position(pos: Position) -> Position:
    """Add the cards a short position leaves out, face down at the bottom of the
    spit cards (all to the spitter in a one-pile round, else dealt alternately
    left and right), so that it holds all 52 cards and plays on into new rounds
    like a real game. Help pages, tests and benchmarks spell only the cards that
    matter and complete the rest with this."""
    missing = missing_cards(pos.all_cards())
    if not missing:
        return pos
    extra: list[tuple[Card, ...]]
    if pos.spitter is not None:
        extra = [(), ()]
        extra[pos.spitter] = tuple(missing)
    else:
        extra = [tuple(missing[0::2]), tuple(missing[1::2])]
    left, right = (side._replace(spit=extra[p] + side.spit) for p, side in enumerate(pos.sides))
    return pos._replace(sides=(left, right))


# -- actions ------------------------------------------------------------------

_ACTION = re.compile(r"([LR])(?:([1-5])([ab])|([1-5])>([1-5])|([1-5])\^|(!)|\*([ab]))")


def _pile_letter(pile: int) -> str:
    """"a" or "b"; an out-of-range pile (refused, but still reported) shows as "?N"."""
    return PILES[pile] if 0 <= pile < len(PILES) else f"?{pile}"


def format_action(a: Action) -> str:
    match a:
        case Play(player, slot, pile):
            return f"{player.letter}{slot + 1}{_pile_letter(pile)}"
        case Fill(player, src, dst):
            return f"{player.letter}{src + 1}>{dst + 1}"
        case Flip(player, slot):
            return f"{player.letter}{slot + 1}^"
        case Ready(player):
            return f"{player.letter}!"
        case Slap(player, pile):
            return f"{player.letter}*{_pile_letter(pile)}"
        case _:
            not_an_action(a)


def parse_action(text: str) -> Action:
    problem = ascii_problem(text.strip(_ASCII_GAPS), "")
    if problem is not None:
        raise NotationError(f"action {quoted(text)}: {problem}")
    m = _ACTION.fullmatch(text.strip(_ASCII_GAPS))
    if not m:
        raise NotationError(
            f"{quoted(text)} is not an action (L3a play, L2>4 fill, L3^ flip, L! ready, L*b slap)"
        )
    p = Player("LR".index(m[1]))
    if m[2]:
        return Play(p, int(m[2]) - 1, PILES.index(m[3]))
    if m[4]:
        return Fill(p, int(m[4]) - 1, int(m[5]) - 1)
    if m[6]:
        return Flip(p, int(m[6]) - 1)
    if m[7]:
        return Ready(p)
    return Slap(p, PILES.index(m[8]))
