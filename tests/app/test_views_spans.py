"""A board line that changed is repainted only in the runs of cells that differ
(`views.changed_spans`); a run left out would leave stale cells on the player's
screen, so: painting the new line's cells inside the runs over the old line's
cells gives exactly the new line, for any two lines (hypothesis)."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st
from rich.segment import Segment
from rich.style import Style

from spit_tui.app.views import SPAN_GAP, Line, _diff, changed_spans, line_length

WIDTH = 40
BASE = Style(bgcolor="black")
STYLES = [BASE, Style(color="red", bgcolor="black"), Style(bold=True, bgcolor="black"), None]
# narrow and wide characters: a wide one takes two cells, never cut by a run
TEXTS = st.text(alphabet="ab ♠│中", min_size=0, max_size=6)
SEGMENTS = st.builds(Segment, TEXTS, st.sampled_from(STYLES), st.none())
LINES = st.lists(SEGMENTS, max_size=14).map(tuple)


def cells(line: Line, width: int) -> list[tuple[str, Style | None]]:
    """The line as the terminal shows it: one (character, style) a cell, a wide
    character's second cell "", cut and padded to `width` in the base style
    (as `Strip.adjust_cell_length` does)."""
    out: list[tuple[str, Style | None]] = []
    for seg in line:
        for ch in seg.text:
            out.append((ch, seg.style))
            if Segment(ch).cell_length == 2:
                out.append(("", seg.style))
    out = out[:width]
    out += [(" ", BASE)] * (width - len(out))
    return out


@given(LINES, LINES, st.integers(min_value=1, max_value=WIDTH), st.integers(0, 10))
def test_the_runs_repaint_every_changed_cell(old: Line, new: Line, width: int, gap: int) -> None:
    spans = changed_spans(old, new, width, gap)
    assert _diff(old, new, width, gap) == (spans, line_length(new))  # one walk, both answers
    screen = cells(old, width)
    want = cells(new, width)
    for x0, x1 in spans:
        screen[x0:x1] = want[x0:x1]
    assert screen == want
    # in order, apart, inside the line, none empty
    assert all(0 <= x0 < x1 <= width for x0, x1 in spans)
    assert all(a[1] + gap <= b[0] for a, b in pairwise(spans))


def test_a_play_repaints_the_cards_not_the_row_between_them() -> None:
    card = (Segment("╭───╮", Style(color="grey50")), Segment(" "))
    lit = (Segment("╭───╮", Style(color="yellow", bold=True)), Segment(" "))
    old = card * 2 + lit + card * 6 + lit
    new = lit + card * 9
    assert line_length(old) == line_length(new) == 60
    assert changed_spans(old, new, 60, gap=4) == [(0, 5), (12, 17), (54, 59)]
    assert changed_spans(old, new, 60) == [(0, 17), (54, 59)]  # 7 cells apart: one run
    assert changed_spans(old, new, 60, gap=100) == [(0, 59)]
    assert changed_spans(new, new, 60) == [(0, 1)]  # (asked only when lines differ)
    assert SPAN_GAP == 8
