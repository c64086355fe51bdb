"""Helpers for the reliability tests.

- `DriverInput`: bytes as a terminal sends them, parsed by Textual's own
  XTermParser on a worker thread (as the Linux driver's input thread does) and
  handed to the app's driver with `process_message`, so keys, escape sequences,
  bracketed pastes and mouse reports take the same path as in a real terminal.
- `read_board`: the board read back from the rendered screen (the compositor's
  output, cell by cell), never from the state the widgets were given.
- `board_problems`: how that reading differs from the engine's position.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from textual import events
from textual._xterm_parser import XTermParser
from textual.app import App
from textual.message import Message
from textual.pilot import Pilot

from spit_tui.engine import Card, Phase, Position, card
from spit_tui.engine.cards import SUIT_SYMBOLS
from testkit.engine import invariants  # the engine tests' kit (pyproject's pytest pythonpath)

__all__ = ["DriverInput", "board_problems", "flush", "invariants", "read_board", "screen_lines"]


# -- input through the driver -------------------------------------------------------


class DriverInput:
    """A terminal's input stream into a running (headless) app."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.parser = XTermParser()

    async def send(self, pilot: Pilot[Any], data: str) -> list[Message]:
        """Feed `data`; return once the app has handled every message it produced
        (screens included). Returns the parsed messages, in order."""
        driver = self.app._driver
        assert driver is not None
        parser = self.parser

        def input_thread() -> list[Message]:
            out = list(parser.feed(data))
            for msg in out:
                driver.process_message(msg)
            return out

        parsed = await asyncio.to_thread(input_thread)
        # A marker behind the burst, through the same path: when it runs, the
        # app has taken every message of the burst off its queue.
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        driver.send_message(events.Callback(callback=lambda: done.set_result(None)))
        await asyncio.wait_for(done, timeout=30)
        await flush(pilot)
        return parsed


async def flush(pilot: Pilot[Any]) -> None:
    """Let the screen handle what the app forwarded to it (keys, bindings) and
    bring the screen's layout and compositor up to date: `Pilot.pause()` without
    its wait for the CPU to go idle, which on a shared machine costs 30 ms or more."""
    for _ in range(2):
        await pilot._wait_for_screen()
    pilot.app.screen._on_timer_update()


# -- reading the screen ---------------------------------------------------------------


def screen_lines(app: App[Any]) -> list[list[str]]:
    """The current screen as rendered, one list of cells per line (a wide
    character takes two cells: itself and "")."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        record=True,
        file=_Null(),
        legacy_windows=False,
        color_system=None,
    )
    update = app.screen._compositor.render_update(full=True)
    console.print(update)
    rows: list[list[str]] = []
    for line in console.export_text().splitlines():
        cells: list[str] = []
        for ch in line:
            cells.append(ch)
            if cell_len(ch) == 2:
                cells.append("")
        rows.append(cells)
    return rows


class _Null:
    def write(self, _: str) -> int:
        return 0

    def flush(self) -> None:
        pass


FACE_DOWN = "down"
EMPTY = "empty"
_SUITS = {sym: s for s, sym in SUIT_SYMBOLS.items()}
# the top edges of a card, a pile's empty place and their ASCII forms: large
# cards (7 x 5, on terminals of 120x36 and more) first, then small (5 x 3)
_BOX_TOPS = ("╭─────╮", "┌ ─ ─ ┐", "╭───╮", "┌ ─ ┐", "+---+", "+ - +")
_BOX_HIGH = {5: 3, 7: 5}  # a box's height by its width


@dataclass
class PileSeen:
    face: str  # a card such as "Th", FACE_DOWN or EMPTY
    count: int


@dataclass
class SideSeen:
    total: int
    spit: int
    slots: list[PileSeen] = field(default_factory=list)


@dataclass
class BoardSeen:
    sides: list[SideSeen]
    piles: list[PileSeen]
    legend: list[str]
    text: str  # the screen, for failure messages


def _face(text: str) -> str:
    t = text.strip()
    if not t:
        return EMPTY
    if set(t) <= {"▒", "#"}:
        return FACE_DOWN
    rank, suit = t[:-1], t[-1]
    suit = _SUITS.get(suit, suit.lower())
    return str(card(rank + suit))


def _boxes(lines: list[str]) -> list[tuple[int, str, int]]:
    """(column, face, width) of every card box whose top edge is on lines[0]
    (a large card's face is on the first line inside it, at its left)."""
    top, mid = lines[0], lines[1]
    found = []
    for m in re.finditer("|".join(re.escape(t) for t in _BOX_TOPS), top):
        x, w = m.start(), len(m[0])
        found.append((x, _face(mid[x + 1 : x + w - 1]), w))
    return found


def _count_under(line: str, x: int, w: int = 5) -> int:
    digits = re.search(r"\d+", line[x : x + w])  # the size, maybe beside depth marks
    return int(digits[0]) if digits else 0


_HEAD = re.compile(r"(LEFT|RIGHT)\s+(\d+) cards? · [^\d·]*(\d+) spit")
_LEGEND = re.compile(r"◂ ([^▸]*) ▸")


def read_board(app: App[Any]) -> BoardSeen:
    """Read the game board back from the rendered screen, by what is drawn:
    the two players' card counts, then the first line of card boxes below them
    (five stockpiles, the spit piles, five stockpiles), the sizes under the
    boxes, and the key-row legend ("◂ on pile a ▸")."""
    rows = ["".join(r) for r in screen_lines(app)]
    text = "\n".join(r.rstrip() for r in rows)
    head_y = next((y for y, r in enumerate(rows) if len(_HEAD.findall(r)) == 2), None)
    assert head_y is not None, f"no card counts for both players on screen:\n{text}"
    heads = {m[1]: (int(m[2]), int(m[3])) for m in _HEAD.finditer(rows[head_y])}
    box_y = next(
        y for y in range(head_y + 1, len(rows) - 3) if any(t in rows[y] for t in _BOX_TOPS)
    )
    boxes = _boxes(rows[box_y : box_y + 2])
    assert len(boxes) in (11, 12), f"{len(boxes)} card boxes in a row:\n{text}"
    w = boxes[0][2]
    assert all(b[2] == w for b in boxes), f"cards of two sizes in a row:\n{text}"
    counts = rows[box_y + _BOX_HIGH[w]]
    sides = []
    for name, mine in (("LEFT", boxes[:5]), ("RIGHT", boxes[-5:])):
        side = SideSeen(*heads[name])
        side.slots = [PileSeen(face, _count_under(counts, x, w)) for x, face, _ in mine]
        sides.append(side)
    middle = boxes[5:-5]
    between = counts[boxes[4][0] + w : boxes[-5][0]]
    sizes = [int(n) for n in re.findall(r"(\d+) cards?", between)]
    assert len(sizes) == len(middle), f"piles and sizes disagree: {between!r}\n{text}"
    piles = [PileSeen(face, n) for (_, face, _), n in zip(middle, sizes, strict=True)]
    legend = [m[1].strip() for r in rows for m in _LEGEND.finditer(r)]
    return BoardSeen(sides=sides, piles=piles, legend=legend, text=text)


def _top(cards: tuple[Card, ...], up: bool = True) -> str:
    if not cards:
        return EMPTY
    return str(cards[-1]) if up else FACE_DOWN


def board_problems(seen: BoardSeen, pos: Position) -> list[str]:
    """Every way the rendered board differs from `pos` (empty if none)."""
    bad: list[str] = []
    for i, (s, side) in enumerate(zip(seen.sides, pos.sides, strict=True)):
        who = "LR"[i]
        if (s.total, s.spit) != (side.total, len(side.spit)):
            bad.append(f"{who} counts {s.total}/{s.spit}, engine {side.total}/{len(side.spit)}")
        if len(s.slots) != len(side.slots):
            bad.append(f"{who} shows {len(s.slots)} stockpiles")
            continue
        for j, (shown, slot) in enumerate(zip(s.slots, side.slots, strict=True)):
            want = PileSeen(_top(slot.cards, slot.up), len(slot.cards))
            if shown != want:
                bad.append(f"{who}{j + 1} shows {shown}, engine {want}")
    want_piles = [PileSeen(_top(p), len(p)) for p in pos.piles]
    if seen.piles != want_piles:
        bad.append(f"piles show {seen.piles}, engine {want_piles}")
    legend = " ".join(seen.legend)
    expect = {
        Phase.SPIT: "spit!",
        Phase.OVER: "game over",
        Phase.SLAP: "slap pile a",
        Phase.PLAY: "on the pile" if pos.single_pile else "on pile a",
    }[pos.phase]
    if expect not in legend:
        bad.append(f"legend {legend!r} does not say {expect!r} in phase {pos.phase}")
    return bad
