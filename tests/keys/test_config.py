"""The key config file: a preset plus typed-out rows; every bad file refused
with one line naming the file, the line and the key; written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from spit_tui import cli
from spit_tui.engine import Player
from spit_tui.keys import config
from spit_tui.keys.config import KeyConfigError, choose, load, parse, render, save
from spit_tui.keys.intent import Intent, Row
from spit_tui.keys.layout import preset

GOOD = """\
# my keys
layout = "fr"

[right]
bottom = "n,;:!"
middle = ["h", "j", "k", "l", "*"]
"""


def test_config_names_a_preset_and_overrides_a_row() -> None:
    layout = parse(GOOD, "keys.toml")
    assert layout.name == "fr" and layout.custom
    assert layout.keys[2][9] == ("*", "")
    assert layout.keys[1][0] == ("a", "A")


BAD = [
    ('layout = "fr"\n[left]\ntop = "azeaz"\n', 3, "left.top key 4: 'a' is also left.top key 1"),
    ('layout = "us"\n\n[right]\ntop = "qwert"\n', 4, "a key can only be in one half"),
    ('[left]\nmiddle = "asdf"\n', 2, "left.middle: 4 keys given, a row has 5"),
    ('[left]\nmiddle = "asdfgh"\n', 2, "6 keys given"),
    ('layout = "klingon"\n', 1, "layout: no preset 'klingon'"),
    ("\n\nlayout = 3\n", 3, "layout: no preset 3"),
    ('[left]\ntop = "qw rt"\n', 2, "' ' is not a key"),
    ('[left]\ntop = ["q", "w", "e", "r", "tt"]\n', 2, "'tt' is not one key"),
    ("[left]\ntop = 12345\n", 2, "a row is a string of five keys"),
    ('[left]\nthumb = "qwert"\n', 2, "left.thumb: unknown row"),
    ('colour = "red"\n', 1, "colour: unknown setting"),
    ('layout = "us"\nleft = 5\n', 2, "left: must be a table"),
    ('layout = "us"\n[left]\ntop = "qwer\n', 3, "not valid TOML"),
    ('layout = "us"\n[left]\ntop = "qwer\\t"\n', 3, "is not a key"),
]


@pytest.mark.parametrize(("text", "line", "reason"), BAD)
def test_bad_config_one_line_with_file_line_and_key(text: str, line: int, reason: str) -> None:
    with pytest.raises(KeyConfigError) as e:
        parse(text, "keys.toml")
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith(f"keys.toml:{line}: "), msg
    assert reason in msg, msg


def test_shift_level_clash_is_refused() -> None:
    """':' is Shift+';' on a US keyboard: a row that also uses ':' is ambiguous."""
    with pytest.raises(KeyConfigError, match="with Shift"):
        parse('[left]\nbottom = "zxcv:"\n', "k.toml")


def test_bad_config_exits_2_and_never_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "keys.toml"
    f.write_text('[right]\nmiddle = "hjkla"\n', encoding="utf-8")
    assert cli.main(["--keys", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{f}:2: right.middle key 5: 'a'" in err


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["--layout", "azerty"], "--layout: no layout 'azerty'"),
        (["--keys", "/nonexistent/keys.toml"], "no such file"),
        (["--layout", "fr", "--keys", "x.toml"], "choose one of --layout and --keys"),
    ],
)
def test_bad_layout_arguments(
    argv: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and reason in err


def test_spit_layout_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPIT_LAYOUT", "de")
    import os

    choice = choose(None, None, os.environ)
    assert choice.layout.name == "de" and choice.configured
    monkeypatch.setenv("SPIT_LAYOUT", "qwertz")
    with pytest.raises(KeyConfigError, match="SPIT_LAYOUT: no layout 'qwertz'"):
        choose(None, None, os.environ)
    # --layout wins over the variable
    assert choose("ru", None, {"SPIT_LAYOUT": "de"}).layout.name == "ru"


def test_user_config_file_is_read_and_nothing_means_not_configured() -> None:
    assert not choose(None, None, {}).configured
    save(preset("dvorak"))
    choice = choose(None, None, {})
    assert choice.configured and choice.layout.name == "dvorak"
    assert str(config.default_path()) == choice.source


def test_save_writes_a_file_that_reads_back(tmp_path: Path) -> None:
    layout = preset("de").with_row(Player.LEFT, 3, list("<yxcv"))
    path = save(layout, tmp_path / "k.toml")
    again = load(path)
    assert again.keys == layout.keys and again.name == "de"
    assert "bottom" in render(layout)


def test_failed_save_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = save(preset("fr"), tmp_path / "k.toml")
    before = path.read_bytes()

    def boom(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)  # the one whole-file writer
    with pytest.raises(OSError):
        save(preset("ru"), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["k.toml"]


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    f = tmp_path / "k.toml"
    f.write_bytes(b'layout = "us"\n[left]\ntop = "\xff"\n')
    with pytest.raises(KeyConfigError, match=r"k.toml:3: not UTF-8"):
        load(f)


def test_layout_option_chooses_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    from spit_tui.startup import Board

    board = Board(layout="ru")
    assert board.choose_keys() is None
    assert board.keymap().intent_for("й", "й") == Intent(Player.LEFT, Row.PILE_A, 0)


def test_layouts_command_prints_every_grid(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["layouts"]) == 0
    out = capsys.readouterr().out
    for name in ("us", "fr", "dvorak", "ru"):
        assert f"\n{name} " in out
    assert "A Z E R T   Y U I O P" in out
    assert cli.main(["layouts", "nope"]) == 2
