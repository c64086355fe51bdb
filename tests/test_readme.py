"""README.md is what a new player reads first: it says the goal, installs into a
virtual environment, names every option the program takes, and its text
picture of the board is what the app draws (regenerate it with
`python scripts/screenshot.py`)."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import re
from pathlib import Path
from types import ModuleType

from spit_tui.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _screenshot() -> ModuleType:
    spec = importlib.util.spec_from_file_location("screenshot", ROOT / "scripts" / "screenshot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _usage_block() -> str:
    quick = README[README.index("## Quick start"):]
    m = re.search(r"```\n(spit-tui .*?)```", quick, re.S)
    assert m, "no usage block under Quick start"
    return m[1]


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return [
        max(a.option_strings, key=len)
        for a in parser._actions
        if a.option_strings and a.help is not argparse.SUPPRESS
    ]


def test_the_goal_comes_first() -> None:
    first = README.split("\n\n")[1]
    assert "get rid of all your cards" in first


def test_quick_start_makes_a_virtual_environment() -> None:
    quick = README[README.index("## Quick start"):]
    assert "Python 3.11" in quick
    assert "python3 -m venv .venv && . .venv/bin/activate" in quick


def test_the_usage_block_names_every_option() -> None:
    usage = _usage_block()
    missing = [o for o in _options(build_parser()) if o not in usage]
    assert not missing, f"the README's usage block does not name {missing}"


def test_the_short_game_is_offered() -> None:
    assert "--variant points --target 40" in README
    assert "--variant points --target 40" in build_parser().format_help().replace("\n", " ")


def test_the_text_picture_is_what_the_app_draws() -> None:
    shot = _screenshot()
    drawn = asyncio.run(shot.shoot(None))
    assert shot.readme_picture(README) == drawn, "run: python scripts/screenshot.py"


def test_the_computers_words_are_the_helps() -> None:
    """--level, --demo, the levels' pace and slaps: one source for README and --help."""
    from spit_tui.helpwords import level_usage, shared

    def flat(text: str) -> str:
        return " ".join(text.split())

    readme, helptext = flat(README), flat(build_parser().format_help())
    for words in shared():
        assert flat(words) in readme, words
        assert flat(words) in helptext, words
    assert README.count(f"--level {level_usage()}") == 2  # the usage block and the computer's
    assert "easy|normal|hard|expert]" not in README


def test_the_ssh_section_names_every_key_of_the_doors_lobby_and_the_name_rule() -> None:
    from datetime import date

    from spit_tui.app.lobby import ENTRIES
    from spit_tui.app.lobbypages import history_entries
    from spit_tui.names import MAX_CELLS

    ssh = README[README.index("### Playing over ssh"):README.index("**Over the internet")]
    entries = ENTRIES + history_entries(ROOT / "no-such.db", None, date(2026, 1, 1))
    missing = [e.label for e in entries if f"`{e.key}`" not in ssh]
    assert not missing, missing
    assert f"at most {MAX_CELLS} characters" in ssh
