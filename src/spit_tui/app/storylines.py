"""The lines that tell how the game goes, beside the cards: the feed by the
piles (one line an entry: "LEFT 7♥ → a", "RIGHT too late") and the tug-of-war
bar across the top of the board, with the trend of the last rounds. Both are
drawn from a Scene's story, in the players' colours."""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from spit_tui.app.cards import face_text
from spit_tui.app.views import DIM, MARKS, PLAYER_STYLES, Line, Piece, pieces_line
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


def feed_pieces(
    entry: FeedEntry, names: tuple[str, str], width: int = FEED_W, four: bool = False
) -> list[Piece]:
    """One feed entry in words: "LEFT 7♥ → a", "RIGHT too late", "spit! 7♥ 9♠",
    as runs of text and style. A long name is cut, never what happened.
    `four`: four-colour suits."""
    if entry.kind == "spit":
        out: list[Piece] = [("spit!", None)]
        for c in entry.cards:
            out += [(" ", None), face_text(c, four)]
        return out
    p = entry.player
    assert p is not None
    rest: list[Piece] = []
    if entry.kind == "play":
        rest += [(" ", None), face_text(entry.cards[0], four)]
        if entry.pile is not None:
            rest.append((f" → {'ab'[entry.pile]}", None))
    elif entry.kind == "slap":
        rest.append((f" slapped {'ab'[entry.pile or 0]}", None))
    else:
        rest.append((" too late", None))
    rest_cells = sum(cell_len(text) for text, _ in rest)
    name = names[p][: max(1, width - rest_cells)]
    return [(name, PLAYER_STYLES[p]), *rest]


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
    pieces = feed_pieces(entry, names, centre_w, four) if entry is not None else []
    if dim:
        pieces = [(text, style + DIM if style else DIM) for text, style in pieces]
    side = (Segment(" " * side_w, base),) if side_w > 0 else ()
    return side + pieces_line(pieces, centre_w, base, centre=True) + side


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


def trend_pieces(trend: tuple[tuple[Player, int], ...]) -> list[Piece]:
    """The trend in a field of TREND_W - 1 cells: "last rounds: ◂+20 ▸+25"
    (the newest last), each gain in its player's colour; blank before the
    first round ends."""
    out: list[Piece] = []
    if trend:
        out.append((TREND_WORDS, DIM))
        for p, n in trend[-TREND_SHOWN:]:
            out.append((f" {MARKS[p]}+{n}", PLAYER_STYLES[p]))
    cells = sum(cell_len(text) for text, _ in out)
    out.append((" " * (TREND_W - 1 - cells), None))
    return out


def trend_text(trend: tuple[tuple[Player, int], ...]) -> Text:
    """The trend as a Rich text (trend_pieces)."""
    return Text.assemble(*((text, style or "") for text, style in trend_pieces(trend)))


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
    # built from runs of text (no Rich Text): the bar changes on every play
    if target:
        left = [(names[0], lstyle), (f" {scores[0]}/{target} ", None)]
        right = [(f" {scores[1]}/{target} ", None), (names[1], rstyle)]
    else:
        left = [(names[0], lstyle), (f" {held[0]:>2} ", None)]
        right = [(f" {held[1]:<2} ", None), (names[1], rstyle)]
    labels = sum(cell_len(text) for text, _ in (*left, *right))
    # one cell a card where the names leave room for it
    width = min(DECK, board_w - labels - TREND_W)
    rfill = "▒" if marks else "█"
    bar: list[Piece]
    if target:
        half = width // 2
        lf = min(half, round(scores[0] / target * half))
        rf = min(half, round(scores[1] / target * half))
        bar = [
            ("█" * lf, lstyle), ("·" * (half - lf), DIM), ("│", DIM),
            ("·" * (width - half - 1 - rf), DIM), (rfill * rf, rstyle),
        ]
    else:
        lf = round(held[0] * width / DECK)
        rf = min(width - lf, round(held[1] * width / DECK))
        bar = [("█" * lf, lstyle), ("·" * (width - lf - rf), DIM), (rfill * rf, rstyle)]
    return pieces_line([*left, *bar, *right, (" ", None), *trend_pieces(trend)], board_w, base,
                       centre=True)
