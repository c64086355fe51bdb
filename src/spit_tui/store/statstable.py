"""`spit-tui stats` as a table that fits the terminal, and the words for each column.

Every column has a short header, a line saying what it counts (the legend
under the table and `stats --help` print the same words: one home) and an
importance. The table keeps the most important columns that fit the width
and says which it left out, so no header ever shrinks to "…"; `--json`
always has every figure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from rich.table import Table
from rich.text import Text

from spit_tui.clock import clock_text
from spit_tui.store.stats import LAST_N, PlayerStats, sparkline
from spit_tui.store.stored import escaped


class Column(NamedTuple):
    header: str
    means: str  # what it counts, for --help
    short: str  # the same in a few words, for the legend line under the table
    cell: Callable[[PlayerStats], str]
    right: bool = True  # numbers line up on the right


def _rate(s: PlayerStats) -> str:
    lo, hi = s.interval
    return f"{s.win_rate:.0%} ({lo:.0%}-{hi:.0%})"


def _last(s: PlayerStats) -> str:
    marks = "".join("W" if w else "·" for w in s.last_won)
    return f"{sparkline(s.last)}\n{marks}"


def _rating(s: PlayerStats) -> str:
    """"1412 ±96 Snapper" over the rating after each of the last 20 games."""
    if s.rating is None or s.rating_spread is None:
        return "-"
    return f"{s.rating:.0f} ±{s.rating_spread:.0f} {s.tier}\n{sparkline(s.rating_last)}"


def _mmss(seconds: float | None) -> str:
    return "-" if seconds is None else clock_text(seconds)


# In order of importance: the first columns are kept on the narrowest terminal.
COLUMNS: tuple[Column, ...] = (
    Column("player", "the name played under", "", lambda s: escaped(s.name), right=False),
    Column("games", "finished games", "finished games", lambda s: str(s.games)),
    Column(
        "win rate",
        "share of games won (the range it is 95% sure to lie in)",
        "won (95% range)",
        _rate,
    ),
    Column(
        "cards/min",
        "cards played a minute of play",
        "a minute of play",
        lambda s: f"{s.cards_per_minute:.1f}",
    ),
    Column(
        "reaction",
        "median time from a card becoming playable to playing it",
        "median s a card",
        lambda s: "-" if s.median_reaction_s is None else f"{s.median_reaction_s:.2f} s",
    ),
    Column("wins", "games won", "games won", lambda s: str(s.wins)),
    Column(
        "rating",
        "rating (likely within ±), tier, and its last 20 games; the computer's levels are fixed",
        "±, tier, last 20",
        _rating,
        right=False,
    ),
    Column(
        "streak",
        "wins in a row now (the best run)",
        "now (best)",
        lambda s: f"{s.streak} ({s.best_streak})",
    ),
    Column(
        f"last {LAST_N}",
        f"cards/min in each of the last {LAST_N} games, oldest first; W: won",
        "cards/min, W: won",
        _last,
        right=False,
    ),
    Column(
        "races",
        "plays onto the same pile at once, won:lost",
        "same pile at once, won:lost",
        lambda s: f"{s.races_won}:{s.races_lost}",
    ),
    Column(
        "slaps", "slaps won (first to the smaller pile)", "slaps won", lambda s: str(s.slaps_won)
    ),
    Column(
        "best win",
        "length of the shortest game won (play time)",
        "shortest win",
        lambda s: _mmss(s.best_win_s),
    ),
)


def legend_lines(columns: Sequence[Column] = COLUMNS) -> list[str]:
    """One line a column: its header and what it counts."""
    wide = max(len(c.header) for c in columns)
    return [f"{c.header:<{wide}}  {c.means}" for c in columns]


def help_epilog() -> str:
    """What `stats --help` says about the columns."""
    return "columns (the narrowest terminals show the first ones):\n" + "\n".join(
        f"  {line}" for line in legend_lines()
    )


def _width(lines: str) -> int:
    return max((Text(line).cell_len for line in lines.split("\n")), default=0)


def choose(figures: Sequence[PlayerStats], width: int) -> list[Column]:
    """The most important columns whose cells fit in `width` terminal cells
    (a rich table with borders: three cells a column for padding and rule,
    one more for the closing rule)."""
    chosen: list[Column] = []
    used = 1
    for col in COLUMNS:
        need = max([len(col.header), *(_width(col.cell(s)) for s in figures)]) + 3
        if used + need <= width or not chosen:
            chosen.append(col)
            used += need
    return chosen


def stats_table(figures: Sequence[PlayerStats], width: int, title: str) -> tuple[Table, str]:
    """The table for `width` columns and the legend line beneath it."""
    columns = choose(figures, width)
    t = Table(title=Text(title))
    for col in columns:
        t.add_column(col.header, justify="right" if col.right else "left", no_wrap=True)
    for s in figures:
        t.add_row(*(Text(col.cell(s)) for col in columns))
    return t, legend(columns, width)


def legend(columns: Sequence[Column], width: int) -> str:
    """The shown columns' meanings in a few words ("stats --help" says more),
    wrapped to `width`, and what was left out."""
    parts = [f"{c.header}: {c.short}" for c in columns[1:]]
    left_out = [c.header for c in COLUMNS if c not in columns]
    if left_out:
        parts.append(f"not shown: {', '.join(left_out)} (wider terminal, --json)")
    lines: list[str] = []
    line = ""
    for part in parts:
        piece = part
        if line and len(line) + 3 + len(piece) > width:
            lines.append(line)
            line = ""
        line = f"{line} · {piece}" if line else piece
        while len(line) > width:  # a part longer than the width: cut at a space
            cut = line.rfind(" ", 0, width)
            cut = cut if cut > 0 else width
            lines.append(line[:cut])
            line = line[cut:].lstrip()
    if line:
        lines.append(line)
    return "\n".join(lines)
