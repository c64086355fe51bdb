"""Many hosts behind one Redis (net.directory, net.redisdir): a room on any
host is found from any other (the asked host answers `moved`, the client goes
there), quick matches pair players asking different hosts, codes are claimed
in Redis so no two hosts give the same one, and whatever Redis holds is read
as untrusted. Real redis-server on a free loopback port; hosts in process."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from testkit.host import no_task_stuck, running_host
from testkit.redis import RedisServer, redis_server

from spit_tui.engine import Player
from spit_tui.net.client import Client, JoinRefused
from spit_tui.net.directory import KEY, QUEUE, Entry, parse_url, read_entry, safe_url
from spit_tui.net.host import Host
from spit_tui.net.protocol import ProtocolError, check_host_message, encode
from spit_tui.net.redisdir import RedisDirectory
from spit_tui.net.seatproto import SeatProtocol

LOCAL = "127.0.0.1"


@asynccontextmanager
async def hosts(
    server: RedisServer, n: int, ttl_s: float = 6.0
) -> AsyncIterator[list[tuple[Host, RedisDirectory, list[str]]]]:
    """`n` hosts sharing `server`'s Redis, each with the lines it logged; once
    they are closed, no task of theirs may refuse to end. (Entries live 6 s,
    renewed every 2: with 1.5 s, a test loop that a busy machine stalled for
    a second let a host's claimed codes expire in Redis before their renewal.)"""
    async with AsyncExitStack() as stack:
        out = []
        for _ in range(n):
            host = await stack.enter_async_context(running_host(seed=3))
            lines: list[str] = []
            d = RedisDirectory(
                server.url, host.lobby, LOCAL, host.port, ttl_s=ttl_s, notice=lines.append
            )
            await d.start()
            stack.push_async_callback(d.close)
            out.append((host, d, lines))
        yield out
    await no_task_stuck()  # once, after this, a worker hung minutes in the loop's teardown


def entry(**changes: Any) -> dict[str, Any]:
    e = {"id": "0123456789abcdef", "host": "127.0.0.1", "port": 7878, "free": 1, "away": 0,
         "watchers": 0, "variant": "standard", "target": 100, "manual_flip": False,
         "made": True, "show": None}  # fmt: skip
    return {**e, **changes}


# -- no Redis needed ------------------------------------------------------------------


def test_an_entry_reads_back_and_anything_else_is_malformed() -> None:
    good = Entry(**entry())
    assert read_entry(good.wire()) == good
    bad = [
        b"\xff", "not json", "[]", json.dumps(entry(port=0)), json.dumps(entry(host="a b")),
        json.dumps(entry(host="\x1b[31m")), json.dumps(entry(free=True)),
        json.dumps({**entry(), "extra": 1}), json.dumps(entry(id="ZZ")),
        '{"id": NaN}', "[" * 5000, json.dumps(entry(variant="x" * 2000)),
    ]  # fmt: skip
    for raw in bad:
        why = read_entry(raw)
        assert isinstance(why, str) and why.isprintable(), raw


def test_directory_urls_are_checked_and_never_logged_with_a_password() -> None:
    assert parse_url("redis://127.0.0.1:6379/0") is None
    assert parse_url("rediss://:pw@cache.example:6380/2") is None
    for bad in ("http://x", "redis://", "redis://h:99999/0", "redis://h/x", "redis://h/0?a=b"):
        assert parse_url(bad) is not None, bad
    assert safe_url("redis://:secret@h:1/0") == "redis://h:1/0"


def test_moved_is_a_checked_host_message_and_only_before_the_welcome() -> None:
    ok = {"type": "moved", "host": "10.0.0.2", "port": 7878, "code": "k3f9q-2x7mz"}
    assert check_host_message(encode(ok)[4:]) == ok
    for bad in ({**ok, "host": "a\x1bb"}, {**ok, "port": 0}, {**ok, "extra": 1}):
        with pytest.raises(ProtocolError):
            check_host_message(encode(bad)[4:])
    proto = SeatProtocol(0.0)
    proto.hello("k3f9q-2x7mz")
    (ended,) = proto.receive_message(ok, 0.0)
    assert ended.kind == "moved" and proto.moved == ("10.0.0.2", 7878, "k3f9q-2x7mz")
    seated = SeatProtocol(0.0)
    seated.seated(Player.LEFT)
    (ended,) = seated.receive_message(ok, 0.0)
    assert ended.kind == "broke"  # a seated client is never sent elsewhere


# -- with a real redis-server ---------------------------------------------------------


async def test_a_room_on_any_host_is_joined_and_watched_from_another(tmp_path: Path) -> None:
    with redis_server(tmp_path) as server:
        async with hosts(server, 2) as [(a, _, _), (b, _, _)]:
            room = b.new_room()
            seat = await Client.join(LOCAL, a.port, room.code, name="ana")
            assert (seat.host, seat.port) == (LOCAL, b.port)  # sent to the room's host
            watcher = await Client.watch(LOCAL, a.port, room.code)
            assert watcher.port == b.port
            with pytest.raises(JoinRefused, match="no room with that code"):
                await Client.join(LOCAL, a.port, "zzzzz-zzzzz")
            # an SSH door's pass is for its own host: not handed on (B would refuse it)
            passed = await Client.join(LOCAL, a.port, room.code, door=a.lobby.vouch("SHA256:k"))
            assert passed.port == b.port
            await seat.close()
            await watcher.close()
            await passed.close()


async def test_quick_match_pairs_players_asking_different_hosts(tmp_path: Path) -> None:
    with redis_server(tmp_path) as server:
        async with hosts(server, 3) as [(a, _, _), (b, _, _), (c, _, _)]:
            first = await Client.new_room(LOCAL, a.port, kind="quick")
            p1 = await Client.join(LOCAL, a.port, first)
            second = await Client.new_room(LOCAL, b.port, kind="quick")
            assert second == first
            p2 = await Client.join(LOCAL, b.port, second)
            assert p2.port == a.port and {p1.seat, p2.seat} == {0, 1}
            third = await Client.new_room(LOCAL, c.port, kind="quick")
            assert third != first and third in c.lobby.rooms  # the next waits on its host
            await p1.close()
            await p2.close()


async def test_a_quick_match_whose_player_left_is_never_paired_with(tmp_path: Path) -> None:
    with redis_server(tmp_path) as server:
        async with hosts(server, 2) as [(a, da, _), (b, _, _)]:
            first = await Client.new_room(LOCAL, a.port, kind="quick")
            p1 = await Client.join(LOCAL, a.port, first)
            await p1.close()
            for _ in range(100):  # the host's next renewal says a seat is gone
                await asyncio.sleep(0.05)
                if da.written.get(first, ((0, 0, 0), 0.0))[0][1] == 1:
                    break
            assert await Client.new_room(LOCAL, b.port, kind="quick") != first


async def test_new_rooms_take_codes_claimed_in_redis(tmp_path: Path) -> None:
    """A code is claimed with SET NX before any room has it: a host never
    gives a code another host holds."""
    with redis_server(tmp_path) as server:
        async with hosts(server, 2) as [(a, da, _), (_, db, _)]:
            assert da.pool and db.pool and not set(da.pool) & set(db.pool)
            r = server.client()
            for _ in range(20):
                room = a.new_room()
                raw = r.get(KEY + room.code)  # type: ignore[attr-defined]
                got = read_entry(raw)
                assert isinstance(got, Entry) and got.id == da.id, room.code
                await da.sync()


async def test_malformed_entries_are_skipped_with_a_log_line(tmp_path: Path) -> None:
    with redis_server(tmp_path) as server:
        async with hosts(server, 1) as [(a, _, lines)]:
            r: Any = server.client()
            r.set(KEY + "zzzzz-zzzzz", "\x1b[31m{not json")
            with pytest.raises(JoinRefused, match="no room with that code"):
                await Client.join(LOCAL, a.port, "zzzzz-zzzzz")
            assert any("skipped the entry of room zzzzz-zzzzz: not JSON" in x for x in lines)
            # an entry an earlier run at this address left: not a move to ourselves
            r.set(KEY + "xxxxx-xxxxx", json.dumps(entry(port=a.port)))
            with pytest.raises(JoinRefused, match="no room with that code"):
                await Client.join(LOCAL, a.port, "xxxxx-xxxxx")
            # a queued code whose entry is garbage passes Redis's test but not ours
            r.set(KEY + "yyyyy-yyyyy", '{"free": 1, "away": 0, "host": "\\u001b"}')
            r.rpush(QUEUE, "yyyyy-yyyyy")
            code = await Client.new_room(LOCAL, a.port, kind="quick")
            assert code in a.lobby.rooms
            assert any("skipped a quick-match entry" in x for x in lines)
            assert all(x.isprintable() for x in lines)


async def test_redis_not_reachable_is_one_line_and_local_rooms_go_on(tmp_path: Path) -> None:
    with redis_server(tmp_path) as server:
        async with hosts(server, 2) as [(a, da, lines), (b, _, _)]:
            far = b.new_room()
            here = a.new_room()
            server.stop()
            with pytest.raises(JoinRefused, match=r"^the directory is not reachable: try again$"):
                await Client.join(LOCAL, a.port, far.code)
            with pytest.raises(JoinRefused, match=r"^the directory is not reachable: try again$"):
                await Client.new_room(LOCAL, a.port, kind="quick")
            seat = await Client.join(LOCAL, a.port, here.code)  # this host's own: no Redis
            assert seat.port == a.port
            await da.sync()
            assert sum("is not reachable" in x for x in lines) == 1
            server.start()
            await da.sync()
            assert lines[-1].startswith("the directory is back")
            moved = await Client.join(LOCAL, a.port, far.code)
            assert moved.port == b.port
            await seat.close()
            await moved.close()


@given(st.one_of(st.binary(max_size=300), st.text(max_size=300), st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                max_size=10),
    max_leaves=20,
).map(json.dumps)))
def test_no_entry_however_malformed_raises(raw: bytes | str) -> None:
    got = read_entry(raw)
    assert isinstance(got, Entry) or (isinstance(got, str) and got.isprintable())


def test_the_host_command_checks_its_directory_options(capsys: pytest.CaptureFixture[str]) -> None:
    from spit_tui.cli import main

    cases = [
        (["--directory", "http://x"], "--directory: not a URL like redis://HOST:PORT/DB"),
        (["--advertise", "10.0.0.2"], "--advertise is for a host with --directory"),
        (["--bind", "0.0.0.0", "--directory", "redis://127.0.0.1/0"], "needs --advertise"),
        (["--directory", "redis://127.0.0.1/0", "--directory-ttl", "0"], "--directory-ttl"),
    ]
    for flags, said in cases:
        assert main(["host", "--port", "0", *flags]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err


async def test_a_redis_that_stands_still_is_not_reachable_within_a_second(
    tmp_path: Path,
) -> None:
    """SIGSTOP: Redis accepts nothing and answers nothing; the host's own
    timeout (1 s) decides, and its games never wait for it."""
    with redis_server(tmp_path) as server:
        async with hosts(server, 2) as [(a, _, _), (b, _, _)]:
            far = b.new_room()
            server.pause(True)
            try:
                t0 = asyncio.get_running_loop().time()
                with pytest.raises(JoinRefused, match="the directory is not reachable"):
                    await Client.join(LOCAL, a.port, far.code)
                took = asyncio.get_running_loop().time() - t0
            finally:
                server.pause(False)
            assert 0.9 <= took < 8.0, took  # the host's 1 s, not a wait for Redis; a bound
            again = await Client.join(LOCAL, a.port, far.code)
            assert again.port == b.port
            await again.close()


async def test_the_rooms_to_watch_include_the_other_hosts(tmp_path: Path) -> None:
    """The lobby's Watch list asked of one host lists the games the other
    hosts hold too (both seats taken); a malformed show is skipped."""
    with redis_server(tmp_path) as server:
        async with hosts(server, 2) as [(a, da, _), (b, _, lines)]:
            here, there = b.new_room(), a.new_room()
            seats = [await Client.join(LOCAL, h.port, r.code)
                     for h, r in ((a, there), (a, there), (b, here), (b, here))]
            await da.sync()
            r: Any = server.client()
            r.set(KEY + "wwwww-wwwww", json.dumps(entry(show={"code": "x", "names": ["\x1b"]})))
            for _ in range(50):  # a seat's entry is written within 0.1 s of its coming
                listed = await Client.rooms(LOCAL, b.port)
                if {x["code"] for x in listed} == {here.code, there.code}:
                    break
                await asyncio.sleep(0.1)
            assert {x["code"] for x in listed} == {here.code, there.code}
            assert any("skipped the entry of room wwwww-wwwww" in x for x in lines)
            server.stop()  # no directory: this host's own list, at once
            assert [x["code"] for x in await Client.rooms(LOCAL, b.port)] == [here.code]
            for c in seats:
                await c.close()
