"""Hostile input, round two (issue 10, items 3, 4 and 14): the decision log
never costs a game, and never blocks, overwrites or follows anything.

As real processes on a pseudo-terminal:
- a disk that fills mid-game (a file size limit, so the kernel refuses the
  write as it would on a full disk): the log turns itself off with one message
  on screen and one line at exit, and the game plays on and quits with status 0;
- a FIFO with no reader (it used to hang before the board), a FIFO with a
  reader, /dev/full, /dev/null, /dev/tty, a directory, '' and a symbolic
  link (even a dangling one, even with --force): one line, exit status 2;
- an existing file: refused, unless --force (overwritten) or --append (added to).

In process, with real file descriptors: writes that fail with ENOSPC
(/dev/full) and EPIPE (a pipe whose reader has gone) turn the log off, once.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import threading
from pathlib import Path

import pytest
from testkit.ptygame import BOARD, PtyGame, game_env, run_refused

from spit_tui.clock import VirtualClock
from spit_tui.decision_log import DecisionLog
from spit_tui.engine import Game
from spit_tui.keys.keymap import US
from spit_tui.table import Table

LOG_LIMIT_BYTES = 1500  # room for a few decisions, then "File too large"


def one_line(err: str, *words: str) -> str:
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith("spit-tui"), err
    assert "Traceback" not in err, err
    for w in words:
        assert w in err, (w, err)
    return err


def refused(args: list[str], *words: str) -> None:
    code, err = run_refused(["--seed", "1", *args], game_env())
    assert code == 2, (args, code, err)
    one_line(err, "--decision-log", *words)


def small_file_limit() -> None:
    """In the child: writes past LOG_LIMIT_BYTES fail with EFBIG, as a full disk
    fails them with ENOSPC (SIGXFSZ ignored, so the write returns the error)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (LOG_LIMIT_BYTES, LOG_LIMIT_BYTES))


def test_decision_log_on_a_disk_that_fills_mid_game_turns_off_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    log = tmp_path / "decisions.jsonl"
    game = PtyGame(["--seed", "1", "--decision-log", str(log)], preexec_fn=small_file_limit)
    assert game.wait_for(BOARD), game.output[-500:]
    game.type(b"qqqqqqqqqqqqqqqqqqqqqqqq", gap=0.05)  # about 200 bytes a decision
    assert game.wait_for(b"decision log off: File too large"), game.output[-2000:]
    game.type(b"yuiop", gap=0.05)  # keys still act after the log is off
    code, after = game.quit()
    assert code == 0, (code, after)
    line = one_line(after, "decision log stopped after", "File too large", "game went on")
    lines = log.read_text().splitlines()
    assert 1 <= len(lines) < 24
    assert f"after {len(lines)} decision" in line  # every line it kept is whole
    assert all(json.loads(x)["key"] == "q" for x in lines)


def test_decision_log_fifo_without_reader_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    refused(["--decision-log", str(fifo)], "pipe (FIFO)")
    refused(["--decision-log", str(fifo), "--force"], "pipe (FIFO)")


def test_decision_log_fifo_with_a_reader_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def reader() -> None:  # opens (blocks until a writer comes or we open it ourselves)
        with open(fifo, "rb") as f:
            got.append(f.read())

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    try:
        refused(["--decision-log", str(fifo), "--append"], "pipe (FIFO)")
    finally:
        with open(fifo, "wb"):  # let the reader finish
            pass
        t.join(timeout=5)
    assert got == [b""]  # nothing was written to it


@pytest.mark.parametrize("device", ["/dev/full", "/dev/null", "/dev/tty", "/dev/zero"])
def test_decision_log_device_or_terminal_is_refused(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"this machine has no {device}")
    refused(["--decision-log", device], "device or terminal")
    refused(["--decision-log", device, "--force"], "device or terminal")


def test_decision_log_empty_name_or_a_directory_is_refused(tmp_path: Path) -> None:
    refused(["--decision-log", ""], "empty")
    refused(["--decision-log", str(tmp_path)], "directory")


def test_decision_log_symlink_is_never_followed(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text("keep me\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    dangling = tmp_path / "dangling.jsonl"
    dangling.symlink_to(tmp_path / "nowhere.jsonl")
    for path in (link, dangling):
        for extra in ([], ["--force"], ["--append"]):
            refused(["--decision-log", str(path), *extra], "symbolic link")
    assert target.read_text() == "keep me\n"
    assert not (tmp_path / "nowhere.jsonl").exists()


def test_decision_log_existing_file_is_refused_unless_force_or_append(tmp_path: Path) -> None:
    log = tmp_path / "old.jsonl"
    log.write_text("old line\n")
    refused(["--decision-log", str(log)], "already exists", "--force", "--append")
    assert log.read_text() == "old line\n"
    for flag, kept in (("--append", True), ("--force", False)):
        log.write_text("old line\n")
        # (no history: on a busy machine "q" may come after the opening's guard and
        # count as a spit, and quitting then prints how to resume the game kept)
        game = PtyGame(["--seed", "1", "--no-history", "--decision-log", str(log), flag])
        assert game.wait_for(BOARD)
        game.type(b"q")
        assert game.quit() == (0, "")
        lines = log.read_text().splitlines()
        assert (lines[0] == "old line") is kept, (flag, lines)
        assert json.loads(lines[-1])["key"] == "q"


def test_force_or_append_without_a_decision_log_is_refused() -> None:
    for flag in ("--force", "--append"):
        code, err = run_refused(["--seed", "1", flag], game_env())
        assert code == 2
        one_line(err, f"{flag} needs --decision-log")
    code, err = run_refused(["--force", "--append", "--decision-log", "x"], game_env())
    assert code == 2
    one_line(err, "not allowed with")


# -- in process, real descriptors ------------------------------------------------------


def keys_into(log: DecisionLog, keys: str) -> Table:
    table = Table(Game(seed=3), VirtualClock())
    log.attach(table)
    for k in keys:
        table.submit_intent(US.keys[k])
    return table


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="this machine has no /dev/full")
def test_decision_log_write_to_a_full_device_turns_off_once() -> None:
    log = DecisionLog.over_fd(os.open("/dev/full", os.O_WRONLY), "/dev/full")
    table = Table(Game(seed=3), VirtualClock())
    log.attach(table)
    first = table.submit_intent(US.keys["q"])
    m = table.messages.message(first.player)
    assert m is not None and m.text == "decision log off: No space left on device"
    assert log.failure is not None and "No space left on device" in log.failure
    assert "after 0 decisions" in log.failure
    failure = log.failure
    for k in "yqyqy":
        table.submit_intent(US.keys[k])
    assert len(table.decisions) == 6  # every key was still decided
    assert log.failure == failure  # said once
    log.close()  # closing a log that turned off is quiet
    assert log.failure == failure


def test_decision_log_reader_gone_broken_pipe_turns_off() -> None:
    read_end, write_end = os.pipe()
    log = DecisionLog.over_fd(write_end, "pipe")
    keys_into(log, "q")
    assert log.failure is None and log.written == 1
    assert json.loads(os.read(read_end, 65536))["key"] == "q"
    os.close(read_end)  # the reader goes away
    table = keys_into(log, "yqy")
    assert len(table.decisions) == 3
    assert log.failure is not None and "Broken pipe" in log.failure
    assert "after 1 decision:" in log.failure
    log.close()
