"""The lines that tell how the game goes, beside the cards: the feed by the
piles (one line an entry: "LEFT 7♥ → a", "RIGHT too late") and the tug-of-war
bar across the top of the board, with the trend of the last rounds. Both are
drawn from a Scene's story, in the players' colours."""

from __future__ import annotations

from functools import lru_cache

from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from spit_tui.app.cards import card_face
from spit_tui.app.views import DIM, MARKS, PLAYER_STYLES, Line, styled, to_line
from spit_tui.engine import Player, Variant
from spit_tui.scene import Scene
from spit_tui.story import FEED_LEN, TREND_LEN, FeedEntry

FEED_W = 20  # the feed sits between the stockpiles, under the piles
TREND_WORDS = "last rounds:"
TREND_SHOWN = min(2, TREND_LEN)  # rounds the bar shows (a card a cell needs the room)
# room kept for the trend (" last rounds: ◂+3 ▸+12") at the bar's end, used or not,
# so the bar stays where it is as rounds are added
TREND_W = 1 + len(TREND_WORDS) + 5 * TREND_SHOWN
DECK = 52


def _blank(n: int) -> Line:
    return (Segment(" " * n),) if n > 0 else ()


def feed_text(
    entry: FeedEntry, names: tuple[str, str], width: int = FEED_W, four: bool = False
) -> Text:
    """One feed entry in words: "LEFT 7♥ → a", "RIGHT too late", "spit! 7♥ 9♠".
    A long name is cut, never what happened. `four`: four-colour suits."""
    if entry.kind == "spit":
        text = Text("spit!")
        for c in entry.cards:
            text.append(" ")
            text.append_text(card_face(c, four))
        return text
    p = entry.player
    assert p is not None
    rest = Text()
    if entry.kind == "play":
        rest.append(" ")
        rest.append_text(card_face(entry.cards[0], four))
        if entry.pile is not None:
            rest.append(f" → {'ab'[entry.pile]}")
    elif entry.kind == "slap":
        rest.append(f" slapped {'ab'[entry.pile or 0]}")
    else:
        rest.append(" too late")
    name = names[p][: max(1, width - rest.cell_len)]
    return Text.assemble((name, PLAYER_STYLES[p]), rest)


def feed_lines(
    scene: Scene, base: Style, side_w: int, centre_w: int, four: bool = False
) -> tuple[Line, ...]:
    """The feed by the piles: the latest entries, newest first, one line each."""
    return _feed_lines(scene.feed, scene.names, base, side_w, centre_w, four)


@lru_cache(maxsize=64)
def _feed_lines(
    entries: tuple[FeedEntry, ...],
    names: tuple[str, str],
    base: Style,
    side_w: int,
    centre_w: int,
    four: bool = False,
) -> tuple[Line, ...]:
    return tuple(
        _feed_line(
            entries[i] if i < len(entries) else None, i > 0, names, base, side_w, centre_w, four
        )
        for i in range(FEED_LEN)
    )


@lru_cache(maxsize=256)
def _feed_line(
    entry: FeedEntry | None, dim: bool, names: tuple[str, str], base: Style, side_w: int,
    centre_w: int, four: bool = False,
) -> Line:
    """One line of the feed. Cached per entry: a new entry moves the others down
    a line, and each is drawn once bright (the newest) and once dim, not on
    every key."""
    text = feed_text(entry, names, centre_w, four) if entry is not None else Text()
    if dim:
        text.stylize(DIM)
    text.truncate(centre_w)
    pad = centre_w - text.cell_len
    text = Text.assemble(" " * (pad // 2), text, " " * (pad - pad // 2))
    return styled([_blank(side_w) + to_line(text, centre_w) + _blank(side_w)], base)[0]


def bar_line(scene: Scene, base: Style, width: int, marks: bool = False) -> Line:
    """The tug-of-war across the top of the board. Standard game: each player's
    cards from their own end (26:26 at the start; the winner's reaches 0), the
    cards on the piles between them, then which way the last rounds pulled
    ("last rounds: ◂+3": LEFT shed 3 cards more than RIGHT in that round; in
    the points game, won it by 3 points), in a field of fixed width. Points
    game: each score against the target."""
    opts = scene.options
    left, right = scene.sides
    held = (left.stock + left.spit, right.stock + right.spit)
    target = opts.target if opts.variant is Variant.POINTS else 0
    return _bar_line(held, scene.scores, target, scene.trend, scene.names, marks, base, width)


def trend_text(trend: tuple[tuple[Player, int], ...]) -> Text:
    """The trend in a field of TREND_W - 1 cells: "last rounds: ◂+20 ▸+25"
    (the newest last), each gain in its player's colour; blank before the
    first round ends."""
    out = Text()
    if trend:
        out.append(TREND_WORDS, DIM)
        for p, n in trend[-TREND_SHOWN:]:
            out.append(f" {MARKS[p]}+{n}", PLAYER_STYLES[p])
    out.pad_right(TREND_W - 1 - out.cell_len)
    return out


@lru_cache(maxsize=256)
def _bar_line(
    held: tuple[int, int],
    scores: tuple[int, int],
    target: int,
    trend: tuple[tuple[Player, int], ...],
    names: tuple[str, str],
    marks: bool,
    base: Style,
    board_w: int,
) -> Line:
    lstyle, rstyle = PLAYER_STYLES
    if target:
        left = Text.assemble((names[0], lstyle), f" {scores[0]}/{target} ")
        right = Text.assemble(f" {scores[1]}/{target} ", (names[1], rstyle))
    else:
        left = Text.assemble((names[0], lstyle), f" {held[0]:>2} ")
        right = Text.assemble(f" {held[1]:<2} ", (names[1], rstyle))
    tail = trend_text(trend)
    # one cell a card where the names leave room for it
    width = min(DECK, board_w - left.cell_len - right.cell_len - TREND_W)
    rfill = "▒" if marks else "█"
    if target:
        half = width // 2
        lf = min(half, round(scores[0] / target * half))
        rf = min(half, round(scores[1] / target * half))
        bar = Text.assemble(
            ("█" * lf, lstyle), ("·" * (half - lf), DIM), ("│", DIM),
            ("·" * (width - half - 1 - rf), DIM), (rfill * rf, rstyle),
        )
    else:
        lf = round(held[0] * width / DECK)
        rf = min(width - lf, round(held[1] * width / DECK))
        mid = "·" * (width - lf - rf)
        bar = Text.assemble(("█" * lf, lstyle), (mid, DIM), (rfill * rf, rstyle))
    line = Text.assemble(left, bar, right, " ", tail)
    line.truncate(board_w)
    pad = (board_w - line.cell_len) // 2
    line = Text.assemble(" " * max(0, pad), line)
    return styled([to_line(line, board_w)], base)[0]
