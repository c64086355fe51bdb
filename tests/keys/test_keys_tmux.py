"""Issue 10 items 7 and 8 in a real terminal (tmux on a private socket): the
byte streams that froze input or played moves, sent as a laggy link or a
broken paste would, checked in the decision log."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.tmux import TmuxServer

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

# ";" (right, slot 5, pile b) and "A" (Shift+a: left, slot 1, pile b) both play here
POSITION = "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0"


class Pane(TmuxServer):
    def __init__(self, tmp: Path) -> None:
        from spit_tui.engine import complete_position as complete
        from spit_tui.engine import format_position, parse_position

        super().__init__("spit-keys", env={**os.environ, "SPIT_LAYOUT": "us"})
        self.log = tmp / "decisions.jsonl"
        pos = format_position(complete(parse_position(POSITION, check=False)))
        cmd = f"{sys.executable} -m spit_tui --position '{pos}' --decision-log {self.log}"
        self.tmux("new-session", "-d", "-x", "100", "-y", "30", cmd)
        deadline = time.monotonic() + 15
        while "pile a" not in self.screen():
            assert time.monotonic() < deadline, self.screen()
            time.sleep(0.1)
        time.sleep(0.3)

    def send(self, text: str) -> None:
        self.tmux("send-keys", "-l", text)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p")

    def decisions(self) -> list[dict[str, object]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line]


@pytest.fixture
def pane(tmp_path: Path) -> Iterator[Pane]:
    p = Pane(tmp_path)
    yield p
    p.close()


def test_split_mouse_report_and_ctrl_up_play_nothing(pane: Pane) -> None:
    """Item 8: ESC [ < 0 ; 10 ; 5 then M 0.2 s later (it applied R5b), and
    ESC [ 1 ; 5 then A (it slapped): now no decision at all; a key after still plays."""
    from spit_tui.keys.guard import ESCAPE_S, FRAGMENT_S

    # The rest comes after Textual's ESCDELAY (0.1 s), well within the guard's
    # FRAGMENT_S (0.5 s) as the game reads it: that gap is this sleep plus the
    # start of the second tmux client, which on a busy machine took over 0.2 s
    # (a 0.3 s sleep let "[1;5A" come 0.5 s after its ESC at load ~6: four keys).
    gap = ESCAPE_S + 0.1
    assert gap + 0.3 <= FRAGMENT_S
    for first, rest in (("\x1b[<0;10;5", "M"), ("\x1b[1;5", "A"), ("\x1b", "[1;5A")):
        pane.send(first)
        time.sleep(gap)
        pane.send(rest)
        time.sleep(0.3)
    time.sleep(0.3)
    assert pane.decisions() == []
    pane.send("q")
    deadline = time.monotonic() + 10  # a bound, not a speed: a busy machine logs late
    while not pane.decisions() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [d["action"] for d in pane.decisions()] == ["L1a"]


def test_unterminated_paste_is_dropped_and_ctrl_q_works_again(pane: Pane) -> None:
    """Item 7: after ESC [ 200 ~ qqqq with no end, input resumes within ~1 s."""
    pane.send("\x1b[200~qqqq")
    time.sleep(1.6)
    pane.tmux("send-keys", "C-q")
    deadline = time.monotonic() + 15  # a bound, not a speed
    while "Quit the game?" not in pane.screen():
        assert time.monotonic() < deadline, pane.screen()
        time.sleep(0.1)
    assert pane.decisions() == []
