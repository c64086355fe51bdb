"""Real terminals for the network tests: named tmux sessions that run
`spit-tui` commands (`Terminals`, the `terms` fixture), a host on its own loop
in a thread (`ThreadHost`), and the host-side truth a scripted player reads
to choose its next key (`choose`, `phase_mark`). Used by the join, silent-host,
host-seat-signal and SSH terminal tests."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from testkit.tmux import TmuxServer, shows

BOUND_S = 20.0  # a bound on every wait for a screen, not a speed


class Terminals(TmuxServer):
    """Named tmux sessions on one private socket, each running one command (no
    session is called "left" or "right": tmux reads those as pane positions)."""

    def __init__(self, tmp: Path) -> None:
        # no first-run keyboard check, and no lobby asking the player's name
        env = {**os.environ, "SPIT_LAYOUT": "us", "SPIT_NO_HISTORY": "1", "SPIT_ASK_NAME": "no"}
        super().__init__("spit-join", env=env)
        self.tmp = tmp
        keep = os.environ.get("SPIT_JOIN_TRANSCRIPT")
        self.keep = Path(keep) if keep else None
        self.shots = 0

    def start(self, name: str, argv: list[str], env: str = "") -> None:
        """Run `spit-tui ARGV` in a new session (`env`: assignments to put first)."""
        cmd = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "spit_tui", *argv])
        cmd = f"{env} {cmd}" if env else cmd
        shell = f"{cmd}; echo EXIT=$?; sleep 60"
        self.tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", shell)

    def close_window(self, name: str) -> None:
        """The terminal window is closed (its process gets SIGHUP)."""
        self.tmux("kill-session", "-t", name)

    def send(self, name: str, text: str) -> None:
        # a lone ";" would end tmux's command: it is the right player's key
        self.tmux("send-keys", "-t", name, "-l", "\\;" if text == ";" else text)

    def key(self, name: str, key: str) -> None:
        self.tmux("send-keys", "-t", name, key)

    def screen(self, name: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", name)

    def wait(
        self, name: str, text: str | tuple[str, ...] | Callable[[str], bool], bound: float = BOUND_S
    ) -> str:
        """The screen once it shows `text` (a tuple: every one of them on the same
        capture, as a screen may be read half painted), or `text(screen)` holds."""
        ok = shows(text)
        deadline = time.monotonic() + bound
        while True:
            screen = self.screen(name)
            if ok(screen):
                return screen
            assert time.monotonic() < deadline, f"{name} never showed {text!r}:\n{screen}"
            time.sleep(0.1)

    def shot(self, label: str, *names: str) -> None:
        """Keep both screens as text, if transcripts were asked for."""
        if self.keep is None:
            return
        self.keep.mkdir(parents=True, exist_ok=True)
        self.shots += 1
        out = [f"== {label}"]
        for name in names:
            out += [f"-- {name}", self.screen(name).rstrip()]
        path = self.keep / f"{self.shots:02d}-{label.replace(' ', '-')}.txt"
        path.write_text("\n".join(out) + "\n", encoding="utf-8")


@pytest.fixture
def terms(tmp_path: Path) -> Iterator[Terminals]:
    t = Terminals(tmp_path)
    yield t
    t.close()


# `host --seat`'s line for the other player, its code whole (a line half painted
# would give a code cut short)
JOIN_LINE = re.compile(r"For the other player: spit-tui (join \S+ [0-9a-z]{5}-[0-9a-z]{5})")


def join_command(terms: Terminals, name: str, *also: str) -> tuple[list[str], str]:
    """The `join` argv a `host --seat` terminal shows for the other player, and
    its screen once it shows that line whole and every one of `also`."""
    screen = terms.wait(name, lambda s: JOIN_LINE.search(s) is not None
                        and all(t in s for t in also))
    m = JOIN_LINE.search(screen)
    assert m, screen
    return m[1].split(), screen


def board_rows(screen: str) -> list[str]:
    """The card rows of the board (the stockpiles and piles), to compare."""
    return [
        line for line in screen.splitlines()
        if line.strip().startswith("│") and any(suit in line for suit in "♠♥♦♣")
    ]


class ThreadHost:
    """A Host on 127.0.0.1 on its own loop in a thread, and a way to read its rooms."""

    def __init__(self, **kwargs: Any) -> None:
        from spit_tui.net.host import Host

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.host = Host(port=0, **kwargs)
        self.call(self.host.start())

    def call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(BOUND_S)

    def read(self, fn: Callable[[], Any]) -> Any:
        async def run() -> Any:
            return fn()

        return self.call(run())

    def close(self) -> None:
        self.call(self.host.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(BOUND_S)


def phase_mark(room: Any) -> tuple[Any, ...]:
    """The host's phase (what starts a stale-key window) and its clock's time."""
    table = room.table
    table.clock.update()  # the room's clock reads real time when asked to
    pos = table.position
    return (pos.phase, pos.round, table.shown.stuck_shown, table.clock.now())


def choose(room: Any, seat: Any, shown_since: float) -> Any:
    """The key this seat would press now (host-side truth), or None."""
    from spit_tui.engine import Fill, Phase, Play, Ready, Slap

    table = room.table
    table.clock.update()  # the room's clock reads real time when asked to
    pos = table.position
    if room.waiting is not None or table.counting_down:
        return None
    legal = table.game.legal_actions(seat)
    if pos.phase is Phase.PLAY:
        for kind in (Play, Fill):
            moves = [a for a in legal if isinstance(a, kind)]
            if moves:
                return moves[0]
        return None
    if table.clock.now() < shown_since + 0.5:
        return None  # past the stale-key window on every screen
    if pos.phase is Phase.SPIT and (not any(pos.piles) or table.shown.stuck_shown):
        return next((a for a in legal if isinstance(a, Ready)), None)
    if pos.phase is Phase.SLAP:
        slaps = [a for a in legal if isinstance(a, Slap)]
        if slaps:
            return min(slaps, key=lambda a: len(pos.piles[a.pile]))
    return None
