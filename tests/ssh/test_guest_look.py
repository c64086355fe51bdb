"""A guest of the SSH door may send the look's variables (ssh -o
SetEnv=SPIT_PALETTE=high-contrast): they reach the guest's game, checked there
as on the command line; the operator's own SPIT_* settings never do, and
nothing else a guest sends gets through."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from spit_tui.ssh.server import Door, GuestSession


class _Chan:
    def __init__(self, env: dict[str, str]) -> None:
        self.env = env

    def get_environment(self) -> dict[str, str]:
        return self.env


def _session(tmp_path: Path, env: dict[str, str]) -> Any:
    door = Door(("127.0.0.1", 7878), guest_home=tmp_path / "guests")
    server = SimpleNamespace(door=door, conn=None, key=None)
    session = GuestSession(server)  # type: ignore[arg-type]
    session.chan = _Chan(env)  # type: ignore[assignment]
    return session


def test_a_guest_sends_the_look_and_the_operators_stays_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPIT_PALETTE", "violet-lime")  # the operator's own: not the guest's
    monkeypatch.setenv("SPIT_CARDS", "small")
    sent = {
        "SPIT_PALETTE": "high-contrast", "SPIT_SUITS": "four", "SPIT_MARKS": "1",
        "SPIT_DOOR_DB": "/etc/passwd", "NO_COLOR": "1", "SPIT_LAYOUT": "fr",
    }
    env = _session(tmp_path, sent)._env(None)
    assert env["SPIT_PALETTE"] == "high-contrast" and env["SPIT_SUITS"] == "four"
    assert env["SPIT_MARKS"] == "1" and env["SPIT_LAYOUT"] == "fr"
    assert "SPIT_CARDS" not in env  # the operator's stays out; the guest sent none
    assert "SPIT_DOOR_DB" not in env and "NO_COLOR" not in env


def test_a_guests_odd_value_is_left_out(tmp_path: Path) -> None:
    env = _session(tmp_path, {"SPIT_PALETTE": "\x1b[31m", "SPIT_SUITS": "x" * 100})._env(None)
    assert "SPIT_PALETTE" not in env and "SPIT_SUITS" not in env
