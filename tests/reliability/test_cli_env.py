"""Bad command lines and a hostile environment (issue 6).

Every bad argument, run as a real process: exit status 2, nothing on stdout,
one line on stderr naming the problem, no traceback. The game does not write
to the home directory, so an unwritable, missing or bogus HOME (and XDG
directories) does not stop it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# (arguments, what the one line must say)
BAD: list[tuple[list[str], str]] = [
    (["--variant", "poker"], "invalid choice: 'poker'"),
    (["--variant"], "--variant: expected one argument"),
    (["--target", "0", "--variant", "points"], "more than 0"),
    (["--target", "-5", "--variant", "points"], "more than 0"),
    (["--target", "ten", "--variant", "points"], "not a number: 'ten'"),
    (["--target", "1e3", "--variant", "points"], "not a number"),
    (["--target", "50"], "--target only applies to --variant points"),
    (["--target"], "--target: expected one argument"),
    (["--seed", "abc"], "not a whole number: 'abc'"),
    (["--seed", "1.5"], "not a whole number"),
    (["--seed", ""], "not a whole number"),
    (["--seed"], "--seed: expected one argument"),
    (["--position", "play 1 two"], "--position"),
    (["--position", ""], "--position"),
    (["--position", "play 1 two - :7h/-/-/-/- - 8s/9s :Kd/-/-/-/- - 0,0"], "52"),
    (["--position"], "--position: expected one argument"),
    (["--manual-flip=yes"], "--manual-flip"),
    (["--level", "godlike", "--demo"], "unknown level 'godlike'"),
    (["--level", "0", "--vs-computer"], "unknown level '0'"),
    (["--level", "auto", "--demo"], "--level auto needs --vs-computer"),
    (["--level", "hard"], "--level needs --vs-computer or --demo"),
    (["--level", ""], "unknown level"),
    (["--computer-side", "up", "--vs-computer"], "invalid choice: 'up'"),
    (["--computer-side", "left"], "--computer-side needs --vs-computer"),
    (["--vs-computer", "--demo"], "choose one of --vs-computer and --demo"),
    (["--frobnicate"], "unrecognized arguments: --frobnicate"),
    (["-x"], "unrecognized arguments: -x"),
    (["extra"], "unrecognized arguments: extra"),
    (["sim", "--games", "0"], "--games must be at least 1"),
    (["sim", "--games", "x"], "--games"),
    (["sim", "--left", "godlike"], "unknown level 'godlike'"),
    (["sim", "--left-like", "nobody"], "no stored card times for 'nobody'"),
    (["sim", "--left", "auto"], "use it on the right"),
    (["sim", "--seed", "x"], "--seed"),
    (["sim", "--frob"], "unrecognized arguments: --frob"),
    (["sim", "extra"], "unrecognized arguments: extra"),
]


def run(
    args: list[str] | list[bytes], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "spit_tui", *args],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        env=env,
    )


def check_one_line(r: subprocess.CompletedProcess[bytes], reason: str, what: object) -> None:
    err = r.stderr.decode("utf-8", "replace")
    assert r.returncode == 2, (what, r.returncode, err)
    assert r.stdout == b"", what
    assert err.count("\n") == 1 and err.endswith("\n"), (what, err)
    assert err.startswith("spit-tui"), (what, err)
    assert "Traceback" not in err
    assert reason in err, (what, err)


def test_every_bad_argument_is_one_line_and_exit_2() -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda case: run(case[0]), BAD))
    for (args, reason), r in zip(BAD, results, strict=True):
        check_one_line(r, reason, args)


def test_bad_bytes_and_a_plain_ascii_locale() -> None:
    """Arguments that are not UTF-8, and a C locale whose stderr cannot print é."""
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": ""}
    env.pop("PYTHONUTF8", None)
    cases: list[tuple[list[bytes], str]] = [
        ([b"--seed", b"\xff\xfe"], "not a whole number"),
        ([b"--variant", b"\xe9t\xe9"], "invalid choice"),
        ([b"--seed", "é".encode()], "not a whole number"),
        ([b"--position", b"play 1 \xff"], "--position"),
    ]
    for args, reason in cases:
        check_one_line(run(args, env), reason, args)


PLAY_A_LITTLE = """
import asyncio, sys
from spit_tui.app import SpitApp

async def pilot(p):
    await p.pause()
    await p.press("f1", "escape", "q", "y", "ctrl+q", "enter")

app = SpitApp(seed=1)
app.run(headless=True, size=(100, 30), auto_pilot=pilot)
print("exited", app.return_code)
"""


def homes(tmp: Path) -> dict[str, dict[str, str]]:
    ro = tmp / "ro"
    ro.mkdir()
    (ro / ".config").mkdir()
    a_file = tmp / "file"
    a_file.write_text("not a directory")
    for d in (ro / ".config", ro):
        d.chmod(0o555)
    xdg = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")
    return {
        "read-only": {"HOME": str(ro), **{x: str(ro / ".config") for x in xdg}},
        "under a file": {"HOME": str(a_file / "home"), **{x: str(a_file / x) for x in xdg}},
        "missing": {"HOME": str(tmp / "nowhere"), **{x: "/proc/nowhere" for x in xdg}},
        "empty": {"HOME": "", **dict.fromkeys(xdg, "")},
    }


def test_an_unwritable_home_does_not_stop_the_game(tmp_path: Path) -> None:
    """The app plays (help, two keys, quit) with HOME read-only, under a plain
    file, missing, empty or unset, and the XDG directories likewise."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("XDG_") and k != "HOME"}
    envs = {"unset": base} | {kind: base | env for kind, env in homes(tmp_path).items()}
    before = sorted(p.name for p in tmp_path.rglob("*"))

    def play(env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-c", PLAY_A_LITTLE],
            capture_output=True,
            timeout=60,
            env=env,
            cwd=tmp_path,
        )

    try:
        with ThreadPoolExecutor(max_workers=3) as pool:
            results = dict(zip(envs, pool.map(play, envs.values()), strict=True))
        for kind, r in results.items():
            assert r.returncode == 0, (kind, r.stderr.decode())
            assert b"exited 0" in r.stdout, (kind, r.stdout, r.stderr)
            assert b"Traceback" not in r.stderr, kind
        assert sorted(p.name for p in tmp_path.rglob("*")) == before  # wrote nothing
    finally:
        for p in tmp_path.rglob("*"):
            if p.is_dir():
                p.chmod(0o755)


def test_unwritable_decision_log_in_a_terminal(tmp_path: Path) -> None:
    """--decision-log is checked once the terminal is known to be fine, so this
    one runs on a pseudo-terminal: still one line and exit 2, and nothing drawn."""
    main, sub = os.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": ""}
    try:
        for path in ("/proc/nowhere/log.jsonl", str(tmp_path / "missing-dir" / "log")):
            r = subprocess.run(
                [sys.executable, "-m", "spit_tui", "--seed", "1", "--decision-log", path],
                stdin=sub,
                stdout=sub,
                stderr=subprocess.PIPE,
                timeout=60,
                env=env,
            )
            check_one_line(
                subprocess.CompletedProcess(r.args, r.returncode, b"", r.stderr),
                "--decision-log",
                path,
            )
    finally:
        os.close(sub)
        os.close(main)
