"""The kitty protocol with a real driver: spit-tui in a pseudo-terminal that
answers CSI ? u. The app asks for event types and alternate keys by setting
flags on Textual's own stack entry (never a second push), AZERTY base keys play
the right cards, repeats play nothing, and a terminal that never answers works."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from testkit.kittypty import KittyPty

POSITION = "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0"


def start(tmp: Path, flags: int | None) -> tuple[KittyPty, Path]:
    from spit_tui.engine import complete_position as complete
    from spit_tui.engine import format_position, parse_position

    log = tmp / "d.jsonl"
    pos = format_position(complete(parse_position(POSITION, check=False)))
    env = {**os.environ, "TERM": "xterm-kitty", "SPIT_LAYOUT": "us", "LC_ALL": "C.UTF-8"}
    term = KittyPty(["--position", pos, "--decision-log", str(log)], env, flags)
    term.wait_for(b"pile a")
    term.pump(0.3)
    return term, log


def decisions(log: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in log.read_text().splitlines() if x] if log.exists() else []


def test_kitty_flags_asked_for_and_restored_by_one_pop(tmp_path: Path) -> None:
    term, log = start(tmp_path, 25)
    try:
        term.pump_until(lambda: bool(term.set_flags), "the app set no flags")
        assert term.set_flags == [31]  # 1+2+4+8+16, on the entry Textual pushed
        # AZERTY: the key at US "q" types "a" (base key q): press, 3 repeats, release
        term.send("\x1b[97::113;1;97u" + "\x1b[97::113;1:2;97u" * 3 + "\x1b[97::113;1:3u")
        term.pump_until(lambda: len(decisions(log)) >= 4, "four decisions never came")
        term.pump(0.3)  # (and none more)
        got = decisions(log)
        assert [(d["action"], d["outcome"]) for d in got][:1] == [("L1a", "applied")]
        assert [d["message"] for d in got[1:]] == ["repeat"] * 3
    finally:
        term.close()
    out = term.out
    assert out.count(b"\x1b[>") == 1 and out.count(b"\x1b[<u") == 1  # one push, one pop


def test_terminal_that_never_answers(tmp_path: Path) -> None:
    term, log = start(tmp_path, None)
    try:
        assert term.set_flags == []
        term.send("q")
        term.pump_until(lambda: bool(decisions(log)), "the key was never decided")
        term.pump(0.3)  # (and nothing more)
        assert [d["action"] for d in decisions(log)] == ["L1a"]
    finally:
        term.close()


@pytest.mark.parametrize("layout_key", ["\x1b[1081::113;1;1081u", "\x1b[113;1;113u"])
def test_any_layout_plays_by_physical_key(tmp_path: Path, layout_key: str) -> None:
    """Russian (й at US q) and US keyboards both play L1a, with no layout set up."""
    term, log = start(tmp_path, 25)
    try:
        term.send(layout_key)
        term.pump_until(lambda: bool(decisions(log)), "the key was never decided")
        term.pump(0.3)  # (and nothing more)
        assert [d["action"] for d in decisions(log)] == ["L1a"]
    finally:
        term.close()
