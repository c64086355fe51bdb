"""Hostile config files (issue 22, item 21): keys.toml, players.toml and
`--keys FILE` as a FIFO, a link to /dev/zero, a 300 MB file, arrays nested
100,000 deep and 5 MB values. Each is one line (exit 2 where it ends the
program), in bounded time and memory; a bad value is quoted in at most 40
characters. The ones that hung or read without end run as real processes
with a timeout and a memory limit."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from spit_tui import names
from spit_tui.keys import config
from spit_tui.keys.config import KeyConfigError

TIMEOUT_S = 20
MEMORY_LIMIT = 1 << 30  # a process that reads /dev/zero whole dies here, not the machine


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _run(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "SPIT_LAYOUT"}
    full.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "spit_tui", *args],
        capture_output=True, text=True, timeout=TIMEOUT_S, env=full,
        stdin=subprocess.DEVNULL, preexec_fn=_limit_memory,
    )


def _one_line(p: subprocess.CompletedProcess[str], status: int, *words: str) -> None:
    assert p.returncode == status, (p.returncode, p.stderr[-500:])
    assert p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr, p.stderr[-500:]
    assert len(p.stderr) < 300, p.stderr[:300]
    for w in words:
        assert w in p.stderr, p.stderr


def _fifo(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    os.mkfifo(path)
    return path


def test_keys_option_naming_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path, "keys.toml")
    _one_line(_run(["--keys", str(fifo)]), 2, "pipe (FIFO)")


def test_keys_toml_as_a_fifo_or_a_link_to_dev_zero_is_refused(user_dirs: Path) -> None:
    path = config.default_path()
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    _one_line(_run(["--seed", "1"]), 2, "keys.toml", "pipe (FIFO)")
    path.unlink()
    path.symlink_to("/dev/zero")
    _one_line(_run(["--seed", "1"]), 2, "keys.toml", "device")


def test_keys_file_of_300_mb_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with big.open("wb") as f:
        f.truncate(300 * 1024 * 1024)  # sparse: no disk used
    _one_line(_run(["--keys", str(big)]), 2, "314,572,800 bytes, more than the 65,536 allowed")


def test_players_toml_as_a_fifo_or_a_link_to_dev_zero_gives_no_names(tmp_path: Path) -> None:
    """players.toml is read after the terminal checks: load it in a real process."""
    fifo = _fifo(tmp_path, "players.toml")
    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")
    code = (
        "import sys; from pathlib import Path; from spit_tui.names import load\n"
        "for p in sys.argv[1:]: print(load(Path(p)))\n"
    )
    p = subprocess.run(
        [sys.executable, "-c", code, str(fifo), str(zero)],
        capture_output=True, text=True, timeout=TIMEOUT_S, preexec_fn=_limit_memory,
    )
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "pipe (FIFO)" in lines[0] and "using none" in lines[0]
    assert "device" in lines[1] and "using none" in lines[1]


def test_arrays_nested_100000_deep(tmp_path: Path) -> None:
    deep = "layout = " + "[" * 100_000 + "]" * 100_000 + "\n"
    with pytest.raises(KeyConfigError) as e:
        config.parse(deep, "keys.toml")
    assert "nested too deeply" in str(e.value)
    small = "left = " + "[" * 2_000 + "]" * 2_000 + "\n"  # fits players.toml's 4 KiB
    path = tmp_path / "players.toml"
    path.write_text(small)
    got = names.load(path)
    assert got.names == (None, None) and got.problem is not None and "bad TOML" in got.problem
    path.write_text(deep)  # too big for a names file: refused unread
    got = names.load(path)
    assert got.problem is not None and "more than the 4,096 allowed" in got.problem


FIVE_MB = "x" * 5_000_000
LONG_VALUES = [
    f'layout = "{FIVE_MB}"\n',
    f'layout = "us"\n[left]\ntop = ["q", "w", "e", "r", "{FIVE_MB}"]\n',
    f'layout = "us"\n[left]\n{FIVE_MB} = "qwert"\n',
    f'{FIVE_MB} = "us"\n',
]


@pytest.mark.parametrize("text", LONG_VALUES, ids=["layout", "key", "row", "setting"])
def test_a_5_mb_value_is_quoted_in_40_characters(text: str) -> None:
    with pytest.raises(KeyConfigError) as e:
        config.parse(text, "keys.toml")
    msg = str(e.value)
    assert len(msg) < 250 and "\n" not in msg, msg[:300]
    assert "x" * 41 not in msg and "(5,000,0" in msg, msg


@pytest.mark.parametrize("where", ["--layout", "SPIT_LAYOUT"])
def test_a_long_layout_name_is_quoted_in_40_characters(where: str) -> None:
    value = "\x1b]0;title\x07" + "y" * 100_000
    args, env = (["--layout", value], {}) if where == "--layout" else ([], {"SPIT_LAYOUT": value})
    p = _run([*args, "--seed", "1"], {**env, "SPIT_NO_HISTORY": "1"})
    _one_line(p, 2, where, "100,010 characters")
    assert "\x1b" not in p.stderr and "\\x1b" in p.stderr and "y" * 41 not in p.stderr


def test_layouts_command_quotes_an_unknown_name_short() -> None:
    p = _run(["layouts", "z" * 10_000])
    _one_line(p, 2, "10,000 characters")
