"""Which layout is this keyboard? The first-run check asks for a few physical
keys, one at a time, and keeps the presets whose key there types what came.

It asks the top-left letter key first, then the sixth key of that row, then
the tenth key of the middle row (together they tell QWERTY, AZERTY, QWERTZ,
Dvorak, Colemak and Cyrillic apart), and then, while presets still differ, the
key that best splits the ones left. Presets whose 40 keys are the same
(unshifted) count as one answer: the first of them in preset order is taken.
"""

from __future__ import annotations

from spit_tui.keys.layout import Layout, Position, preset, preset_names

FIRST_ASKS: tuple[Position, ...] = ((1, 0), (1, 5), (2, 9))


def describe_ask(pos: Position) -> str:
    row, col = pos
    rows = ("number row", "top letter row", "middle letter row", "bottom letter row")
    nth = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
           "ninth", "tenth")  # fmt: skip
    return f"the {nth[col]} key of the {rows[row]}"


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
            if pos in self.asked:
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
