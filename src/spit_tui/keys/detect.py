"""Which layout is this keyboard? The first-run check asks for a few physical
keys, one at a time, and keeps the presets whose key there types what came.

It asks the top-left letter key first (it alone tells QWERTY, AZERTY,
Dvorak and Cyrillic apart), and then, while presets still differ, the key
that best splits the ones left: two or three keys for every preset here.
Only keys a person finds without counting past a key some keyboards lack
are asked: the number row by the digit printed on the key (a key such as
the French "²" stands left of 1), the top letter row (it starts just right
of Tab) and the middle one (just right of Caps Lock); never the bottom row,
where ISO keyboards have an extra key between Shift and the first letter.
Presets whose 40 keys are the same (unshifted) count as one answer: the
first of them in preset order is taken.
"""

from __future__ import annotations

from collections.abc import Sequence

from spit_tui.keys.layout import Layout, Position, preset, preset_names

FIRST_ASKS: tuple[Position, ...] = ((1, 0),)
ASKABLE_ROWS = (1, 2, 0)  # in the order they are preferred; never the bottom row
_NTH = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
        "ninth", "tenth")  # fmt: skip
_ROWS = ("number row", "top letter row", "middle letter row", "bottom letter row")
_STARTS = ("", "Tab", "Caps Lock", "")


def describe_key(pos: Position, shifted: bool = False) -> str:
    """A key as a person finds it: the number row by the digit on the key, a
    letter row by its place counted from the row's left end."""
    row, col = pos
    if row == 0:
        how = "with Shift" if shifted else "(without Shift)"
        return f"the key with {(col + 1) % 10} on it {how}"
    shift = ", with Shift" if shifted else ""
    return f"the {_NTH[col]} key of the {_ROWS[row]}{shift}"


def describe_ask(pos: Position) -> str:
    return describe_key(pos)


def ask_hint(pos: Position) -> str:
    """Where the asked row starts (only for a row counted from its left end)."""
    start = _STARTS[pos[0]]
    return f"The {_ROWS[pos[0]]} starts just right of {start}." if start else ""


def whose_half(pos: Position) -> str:
    """Which player's half of the keyboard the key is in: that player presses it."""
    return "LEFT" if pos[1] < 5 else "RIGHT"


def where_else(ch: str, asked: Position, likely: Sequence[Layout] = ()) -> str | None:
    """Where `ch` is on the known layouts, when it is not at the asked key: a
    true word for a wrong key ("on fr it is the key with 5 on it"), from the
    `likely` layouts first (those the earlier keys left), a key typing it
    without Shift before one typing it with; None if no known layout has it."""
    layouts = [*likely, *(preset(n) for n in preset_names())]
    for level in (0, 1):
        for layout in layouts:
            for pos in layout.positions():
                if pos != asked and layout.key(pos)[level] == ch:
                    return f"on {layout.name} it is {describe_key(pos, shifted=level == 1)}"
    return None


class Detector:
    def __init__(self) -> None:
        self.candidates: list[Layout] = [preset(n) for n in preset_names()]
        self.asked: list[Position] = []

    def _plain(self, layout: Layout) -> tuple[str, ...]:
        return tuple("".join(k[0] for k in row) for row in layout.keys)

    def distinct(self) -> list[Layout]:
        """One candidate per distinct set of unshifted keys, in preset order."""
        seen: set[tuple[str, ...]] = set()
        out = []
        for c in self.candidates:
            if self._plain(c) not in seen:
                seen.add(self._plain(c))
                out.append(c)
        return out

    @property
    def done(self) -> bool:
        return len(self.distinct()) <= 1 or self._best() is None

    def _best(self) -> Position | None:
        """The unasked key whose answer splits the presets left the most."""
        groups = self.distinct()
        best: tuple[int, Position] | None = None
        for pos in groups[0].positions():
            if pos in self.asked or pos[0] not in ASKABLE_ROWS:
                continue
            score = len({c.key(pos)[0] for c in groups})
            if score > 1 and (best is None or score > best[0]):
                best = (score, pos)
        return None if best is None else best[1]

    def result(self) -> Layout:
        return self.distinct()[0]

    def next_ask(self) -> Position:
        """The next key to ask for (only while not done)."""
        for pos in FIRST_ASKS:
            if pos not in self.asked:
                return pos
        best = self._best()
        assert best is not None
        return best

    def answer(self, pos: Position, ch: str) -> bool:
        """The key at `pos` typed `ch`: keep the presets that agree. False (and
        nothing changes) if no preset left has `ch` there."""
        keep = [c for c in self.candidates if c.key(pos)[0] in (ch, ch.lower())]
        if not keep:  # Shift or Caps Lock was on: the shifted level then
            keep = [c for c in self.candidates if c.key(pos)[1] == ch]
        if not keep:
            return False
        self.candidates = keep
        self.asked.append(pos)
        return True
