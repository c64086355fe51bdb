"""A line drawn from a Rich text keeps the text's own style (a refusal's red,
a dimmed legend), under the styles of its spans."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from spit_tui.app.views import to_line, to_strip


def test_a_texts_own_style_reaches_its_segments() -> None:
    text = Text("✗ 6 does not go on 10", style="red")
    text.stylize("bold", 0, 1)
    segs = to_line(text, 30)
    assert all(s.style is not None and s.style.color is not None for s in segs if s.text.strip())
    assert segs[0].style == Style.parse("red bold")
    assert segs[-1].text.strip() == ""  # the padding is not the text's
    strip = to_strip(Text("any key", style="dim"))
    assert all(s.style is not None and s.style.dim for s in strip)


def test_a_plain_text_stays_plain() -> None:
    assert all(not s.style for s in to_line(Text("plain"), 10))
