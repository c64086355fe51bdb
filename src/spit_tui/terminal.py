"""Can this terminal show the board? Checked before the app starts, so an odd
terminal gets one clear line instead of escape-code garbage or a stuck process.

- stdin and stdout must be a terminal: with input from a file or /dev/null the
  driver would wait for keys forever (and spin on end-of-file).
- TERM=dumb cannot move the cursor, so no full-screen board can work there.
- The board draws suits (♠ ♥ ♦ ♣) and box lines in UTF-8. A locale that names
  another character set (LC_ALL, LC_CTYPE or LANG such as ``de_DE.ISO-8859-1``,
  ``en_US`` without a codeset, or ``C``/``POSIX``) would show them as garbage.
  No locale at all (a bare container) counts as UTF-8, as Python itself
  treats it (PEP 538, PEP 540).
- Textual's own settings TEXTUAL_DRIVER and TEXTUAL_COLOR_SYSTEM must name
  something Textual has: it reads them only once the app starts, and a bad
  value then ends in a traceback (`environment_problem`). TEXTUAL_THEME must
  name a theme the game has: Textual would draw its default silently.
- Under Textual's web driver (textual-serve and textual-web start the game with
  TEXTUAL_DRIVER naming it) there is no terminal: stdin and stdout are pipes to
  the server, which packs the bytes into frames for the browser, and the web
  driver writes UTF-8 whatever the locale or TERM says. Pipes are then right and
  a terminal is wrong: the frames would land on the screen as garbage.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any, TextIO


def initial_environ() -> Mapping[str, str]:
    """The environment the process was started with. Python itself may have
    changed os.environ since: under a C locale (or a locale that is not
    installed) it sets LC_CTYPE=C.UTF-8 (PEP 538), which would hide the
    locale the player's terminal really uses."""
    try:
        with open("/proc/self/environ", "rb") as f:
            raw = f.read()
    except OSError:
        return os.environ
    env = {}
    for item in raw.split(b"\0"):
        key, sep, value = item.partition(b"=")
        if sep:
            env[os.fsdecode(key)] = os.fsdecode(value)
    return env


def locale_name(env: Mapping[str, str]) -> str | None:
    """The locale that decides the character set, as the C library picks it."""
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(var)
        if value:
            return value
    return None


def is_utf8_locale(name: str | None) -> bool:
    if name is None:
        return True
    codeset = name.split("@", 1)[0].partition(".")[2]
    return codeset.lower().replace("-", "").replace("_", "") == "utf8"


# What Rich's Console takes as a color system (textual 8.2.8 passes the variable on).
COLOR_SYSTEMS = ("auto", "standard", "256", "truecolor", "windows")


def environment_problem(env: Mapping[str, str] | None = None) -> str | None:
    """A Textual setting in the environment that would crash the app, in one line."""
    from spit_tui.command import shown

    env = os.environ if env is None else env
    color = env.get("TEXTUAL_COLOR_SYSTEM")
    if color is not None and color not in COLOR_SYSTEMS:
        return (
            f"TEXTUAL_COLOR_SYSTEM={shown(color)!r} is not a color system "
            f"(one of {', '.join(COLOR_SYSTEMS)}); unset it to let Textual choose"
        )
    theme = env.get("TEXTUAL_THEME")
    if theme is not None:
        from spit_tui.app.themes import theme_names

        if theme not in theme_names():
            return (
                f"TEXTUAL_THEME={shown(theme)!r} is not a theme the game has "
                f"(such as spit-light, textual-light, ansi-dark; Ctrl+P, Theme lists them all)"
            )
    driver = env.get("TEXTUAL_DRIVER")
    if driver is not None and _driver_class(driver) is None:
        return (
            f"TEXTUAL_DRIVER={shown(driver)!r} does not name a Textual driver class "
            "(module:Class); unset it to use the terminal's own"
        )
    return None


def _driver_class(spec: str) -> type[Any] | None:
    """The driver class TEXTUAL_DRIVER names, if Textual would accept it (the
    check App.driver_class makes), else None."""
    import importlib
    import inspect

    module_name, _, name = spec.partition(":")
    if not module_name or not name:
        return None
    try:
        from textual.driver import Driver

        cls = getattr(importlib.import_module(module_name), name)
    except Exception:  # any failure to import it is the same answer for the player
        return None
    return cls if inspect.isclass(cls) and issubclass(cls, Driver) else None


def uses_web_driver(env: Mapping[str, str]) -> bool:
    """Does TEXTUAL_DRIVER name Textual's web driver (or a driver built on it)?"""
    spec = env.get("TEXTUAL_DRIVER")
    cls = None if spec is None else _driver_class(spec)
    if cls is None:
        return False
    from textual.drivers.web_driver import WebDriver

    return issubclass(cls, WebDriver)


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def terminal_problem(
    env: Mapping[str, str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> str | None:
    """Why the board cannot be shown here, in one line, or None if it can."""
    env = initial_environ() if env is None else env
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    if uses_web_driver(env):
        if _is_tty(stdout):
            return (
                "TEXTUAL_DRIVER names Textual's web driver, which talks to a web server "
                "through pipes, not to a terminal; unset it here, or play in a browser "
                "with 'spit-tui serve'"
            )
        return None
    for name, stream in (("input", stdin), ("output", stdout)):
        if not _is_tty(stream):
            return f"needs a terminal: its {name} is not one (run it in a terminal window)"
    if env.get("TERM", "") == "dumb":
        return (
            "TERM=dumb cannot move the cursor, so the board cannot be drawn; "
            "run it in a terminal emulator (e.g. TERM=xterm-256color)"
        )
    loc = locale_name(env)
    if not is_utf8_locale(loc):
        return (
            f"the locale {loc} is not UTF-8 and the board draws card suits and lines "
            "in UTF-8; run it with a UTF-8 locale, e.g. LC_ALL=C.UTF-8 spit-tui"
        )
    return None


def forget_exported_size() -> None:
    """Before the app starts: exported COLUMNS/LINES would override the real
    terminal size, and keep overriding it after every resize
    (shutil.get_terminal_size reads them first), so they go. Under the web
    driver they stay: COLUMNS (with ROWS) is the browser's first size, set by
    the server, the web driver reads them, and later sizes come as messages."""
    if not uses_web_driver(initial_environ()):
        os.environ.pop("COLUMNS", None)
        os.environ.pop("LINES", None)
