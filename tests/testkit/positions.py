"""Hypothesis strategies for hostile-input tests of the notation.

- `reached()`: (options, position) pairs that real games reach (random play
  from a seeded deal), so every one of them must be accepted.
- `mutated()`: the text of such a position after a few edits: characters
  replaced (Unicode digits and spaces among them), inserted or deleted,
  fields swapped, repeated or blown up to thousands of digits, cards moved
  from one place to another, phase, kind and ready rewritten. Most results
  are still well-formed, many describe positions no game can be in.
- `round_end_reached(game)`: random play until a round ends (bounded).
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from spit_tui.engine import (
    PLAYERS,
    Game,
    NotationError,
    Options,
    Position,
    Variant,
    format_position,
    parse_position,
)
from spit_tui.engine.actions import READIES

MAX_STEPS = 3000  # far more actions than any one round can take

options = st.builds(
    Options,
    variant=st.sampled_from(list(Variant)),
    target=st.integers(1, 200),
    manual_flip=st.booleans(),
)


@st.composite
def reached(draw: st.DrawFn) -> tuple[Options, Position]:
    """A position some game reaches: a seeded deal, then up to 300 random actions."""
    opts = draw(options)
    seed = draw(st.integers(0, 2**32 - 1))
    steps = draw(st.integers(0, 300))
    g = Game(options=opts, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        acts = g.legal_actions(PLAYERS[0]) + g.legal_actions(PLAYERS[1])
        if not acts:
            break
        g.apply(rng.choice(acts))
    return opts, g.position


ODD_CHARS = (
    "²①１٣\t\u00a0\u3000\u2028\n\r\x00\x1b" "-/:,LRab0123456789TJQKAshdc *#"
)
odd_text = st.text(alphabet=st.sampled_from(ODD_CHARS) | st.characters(), max_size=6)
FIELD_VALUES = {
    0: ["spit", "play", "slap", "over:L", "over:R", "over", "slap:L"],
    1: ["1", "2", "0", "9" * 5000, "²", "①", "\uff11", "٣", "-1"],
    2: ["two", "one:L", "one:R", "one"],
    3: ["-", "L", "R", "LR", "RL"],
    9: ["0,0", "12,40", "9" * 5000 + ",0", "٣,1", "0,", "1,2,3"],
}


FIELD_POOLS = [
    FIELD_VALUES[0],
    FIELD_VALUES[1],
    FIELD_VALUES[2],
    FIELD_VALUES[3],
    [":3s/-/-/-/-", "-/-/-/-/-", ":3s//-/-/-", "4c9d:Kh/-/-/-/-", "3s:/-/-/-/-"],
    ["-", "Kh", "KhQs"],
    ["9s/9h", "9s", "5s/5h/6h", "5s//5h", "-/-", "5s/"],
    [":3h/-/-/-/-", "-/-/-/-/-", "/////"],
    ["-", "2c", "2c3c"],
    FIELD_VALUES[9],
]


@st.composite
def notation_like(draw: st.DrawFn) -> str:
    """Ten fields, each the notation's own piece for that field or odd characters:
    arbitrary text that gets past the field count and reaches every field."""
    fields = [
        draw(st.sampled_from(pool) | odd_text) if draw(st.integers(0, 5)) else draw(odd_text)
        for pool in FIELD_POOLS
    ]
    return " ".join(fields)


EDITS = ("char", "insert", "delete", "field", "field", "swap", "card", "blow")
STATE_EDITS = ("field", "card", "card")  # keep the text well-formed, change the state


@st.composite
def mutated(draw: st.DrawFn, edits: tuple[str, ...] = EDITS) -> str:
    """A reached position's text after one to four hostile edits."""
    _, pos = draw(reached())
    text = format_position(pos)
    for _ in range(draw(st.integers(1, 4))):
        text = draw(_edit(text, draw(st.sampled_from(edits))))
    return text


@st.composite
def _edit(draw: st.DrawFn, text: str, kind: str) -> str:
    fields = text.split(" ")
    if kind == "char" and text:
        i = draw(st.integers(0, len(text) - 1))
        return text[:i] + draw(odd_text) + text[i + 1 :]
    if kind == "insert":
        i = draw(st.integers(0, len(text)))
        return text[:i] + draw(odd_text) + text[i:]
    if kind == "delete" and text:
        i = draw(st.integers(0, len(text) - 1))
        return text[:i] + text[i + draw(st.integers(1, 4)) :]
    if kind == "field" and len(fields) == 10:
        i = draw(st.sampled_from(sorted(FIELD_VALUES)))
        fields[i] = draw(st.sampled_from(FIELD_VALUES[i]))
        return " ".join(fields)
    if kind == "swap" and len(fields) > 1:
        i, j = draw(st.integers(0, len(fields) - 1)), draw(st.integers(0, len(fields) - 1))
        fields[i], fields[j] = fields[j], fields[i]
        return " ".join(fields)
    if kind == "blow" and fields:
        i = draw(st.integers(0, len(fields) - 1))
        fields.insert(i, draw(st.sampled_from(["/", "//", "-", "5s/5h/6h", "5s//5h", ":"])))
        return " ".join(fields) if draw(st.booleans()) else "".join(fields)
    if kind == "card":
        return draw(_move_card(text))
    return text


@st.composite
def _move_card(draw: st.DrawFn, text: str) -> str:
    """Move one two-character card to another place among the card fields (4-8)."""
    fields = text.split(" ")
    if len(fields) != 10:
        return text
    spots = [
        (f, i)
        for f in range(4, 9)
        for i in range(len(fields[f]) - 1)
        if fields[f][i] in "23456789TJQKA" and fields[f][i + 1] in "shdc"
    ]
    if not spots:
        return text
    f, i = draw(st.sampled_from(spots))
    card = fields[f][i : i + 2]
    rest = fields[f][:i] + fields[f][i + 2 :]
    fields[f] = rest if rest and rest not in (":", "/") else "-"
    g = draw(st.integers(4, 8))
    target = "" if fields[g] == "-" else fields[g]
    j = draw(st.integers(0, len(target)))
    fields[g] = target[:j] + card + target[j:]
    return " ".join(fields)


def round_end_reached(g: Game, rng: random.Random) -> bool:
    """Play random legal actions until a round ends or the game is over.

    False if no player has anything to do while the game goes on (every key
    would be refused for ever) or the step bound runs out."""
    for _ in range(MAX_STEPS):
        if g.over:
            return True
        for p in PLAYERS:  # a refusal of "spit" names who can still play
            prob = g.problem(READIES[p])
            assert prob is None or "( " not in prob[1], prob
        acts = g.legal_actions(PLAYERS[0]) + g.legal_actions(PLAYERS[1])
        if not acts:
            return False
        if g.apply(rng.choice(acts)).round_over is not None:
            return True
    return False


def accepted(text: str) -> Position | None:
    """The parsed position, or None if the parser refused it (NotationError only)."""
    try:
        return parse_position(text)
    except NotationError:
        return None
