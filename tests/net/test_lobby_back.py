"""A seat taken in the lobby of `join HOST` (the SSH and browser doors' too)
whose room the host stops goes back to the lobby, which says why (issue 20
item 3: "either can leave, and the other is offered the lobby"); a host
that is itself stopping ends the command with its line and status 0 (no
lobby is left to go back to, and a host stopping is not the player's error).
Real sockets on 127.0.0.1: a host, the lobby's seat and the other player's
client; the board runs headless, the lobby's choices are scripted."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace

import pytest
from testkit.join import FAST, HeadlessBoard, a_room_in_play, until

from spit_tui.app import lobby
from spit_tui.app.lobby import Choice
from spit_tui.engine import Phase, Player
from spit_tui.keys.intent import Row
from spit_tui.net import joincmd
from spit_tui.net.client import Client
from spit_tui.net.host import Host
from spit_tui.net.room import Room


class ScriptedLobby:
    """`choose_in_lobby` with its choices given: what each run was told (the
    notice), and the choices in order (then None: the player leaves)."""

    def __init__(self, *choices: Choice) -> None:
        self.choices = list(choices)
        self.notices: list[str | None] = []

    async def __call__(
        self, *args: object, notice: str | None = None, **kw: object
    ) -> Choice | None:
        self.notices.append(notice)
        return self.choices.pop(0) if self.choices else None


def _join(host: Host) -> asyncio.Task[int]:
    """`join HOST` (the lobby's loop) run on this loop; its exit status."""
    args = SimpleNamespace(code=None, quick=False, name="ana", seat=None, db=None,
                           host="127.0.0.1", port=host.port)  # fmt: skip
    return asyncio.create_task(joincmd._join(args, HeadlessBoard()))  # type: ignore[arg-type]


@asynccontextmanager
async def from_the_lobby(
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[tuple[Host, Room, Client, ScriptedLobby, asyncio.Task[int]]]:
    """A host with a room: ben (a real client) on the right, and `join HOST`
    whose lobby joins it by code on the left (past the stale-key window)."""
    host = Host(port=0, timings=FAST, seed=3, wait_s=120.0)
    await host.start()
    try:
        room = host.new_room()
        ben = await Client.join("127.0.0.1", host.port, room.code, "right", name="ben")
        chosen = ScriptedLobby(Choice("join", room.code))
        monkeypatch.setattr(lobby, "choose_in_lobby", chosen)
        status = _join(host)
        try:
            await until(lambda: room.seats[Player.LEFT].conn is not None or status.done(),
                        "seated")  # fmt: skip
            assert not status.done(), status.result()
            await asyncio.sleep(FAST.stale_s + 0.05)
            yield host, room, ben, chosen, status
        finally:
            status.cancel()
            await ben.close()
    finally:
        await host.close()  # (a second time is nothing)


async def test_the_other_player_quits_and_the_lobby_says_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async with from_the_lobby(monkeypatch) as (_host, room, ben, chosen, status):
        room.submit(Player.LEFT, Row.PILE_A, 0)
        ben.press(Row.PILE_A, 0)
        await until(lambda: room.table.position.phase is Phase.PLAY, "in play")
        await ben.close(leave=True)  # ben quits mid-game with his own key
        async with asyncio.timeout(15):
            assert await status == 0  # the lobby again, then left: not "exit 1"
    line = "ben left the game: the game is stopped"
    assert chosen.notices == [None, line]  # the lobby, asked again, says why
    assert "the game is stopped" not in capsys.readouterr().err  # not printed as the end


async def test_a_host_that_is_stopping_still_ends_the_join_with_its_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host's own end ("the host is stopping") leaves no lobby to go back
    to: one line, status 0 (it was 1, as for an error of the player's), as
    `join HOST CODE` ends."""
    async with from_the_lobby(monkeypatch) as (host, _room, _ben, chosen, status):
        await host.close()
        async with asyncio.timeout(15):
            assert await status == 0
    assert chosen.notices == [None]  # no lobby again
    err = capsys.readouterr().err
    assert err.strip().splitlines() == ["spit-tui join: the host is stopping"], err


@asynccontextmanager
async def watching_from_the_lobby(
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[tuple[Host, Client, ScriptedLobby, asyncio.Task[int]]]:
    """A room ana and ben (real clients) play, and `join HOST` whose lobby
    chose Watch a game on it."""
    async with a_room_in_play() as (host, room, _ana, ben):
        chosen = ScriptedLobby(Choice("watch", room.code))
        monkeypatch.setattr(lobby, "choose_in_lobby", chosen)
        status = _join(host)
        try:
            await until(lambda: room.watchers or status.done(), "watching")
            assert not status.done(), status.result()
            yield host, ben, chosen, status
        finally:
            status.cancel()


async def test_a_watcher_from_the_lobby_goes_back_to_it_when_the_room_ends(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Watch a game, a player leaves: the lobby again, saying why (it used to
    end `join HOST` with "the host: ..." and status 1)."""
    async with watching_from_the_lobby(monkeypatch) as (_host, ben, chosen, status):
        await ben.close(leave=True)
        async with asyncio.timeout(15):
            assert await status == 0
    assert chosen.notices == [None, "ben left the game: the game is stopped"]
    assert capsys.readouterr().err.strip() == ""


async def test_a_watcher_from_the_lobby_of_a_stopping_host_ends_with_its_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async with watching_from_the_lobby(monkeypatch) as (host, _ben, chosen, status):
        await host.close()
        async with asyncio.timeout(15):
            assert await status == 0
    assert chosen.notices == [None]
    err = capsys.readouterr().err
    assert err.strip().splitlines() == ["spit-tui watch: the host is stopping"], err
