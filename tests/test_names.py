"""The players' names: what a name may be, and the names remembered between
runs (players.toml in the user config directory): written whole or not at
all, and a bad file is one line and the defaults."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spit_tui import names
from spit_tui.engine import Player
from spit_tui.names import as_name, choose, load, name_problem, save, seat_names


def test_a_name_is_short_printable_text_without_quotes() -> None:
    assert name_problem("ANN") is None
    assert name_problem("[b]BO[/b]") is None  # allowed: it is shown as typed
    assert name_problem("Ann-Marie O'Neil-Smith"[:20]) is None
    for good in ("Zoë", "Łukasz", "Ана", "Ελένη", "José María", "W" * 20):  # one cell a letter
        assert name_problem(good) is None, good
    for bad in ("", "   ", "A\x1b[31m", "tab\there", 'say "hi"', "back\\slash", "x" * 21):
        assert name_problem(bad) is not None, bad
    # nothing a board cannot lay out one cell a character, nothing invisible
    for trick in ("日本", "a😀", "e\u0301", "a\u200bb", "\u202eevil", "\u2800", "a\u3164", "\xa0a"):
        assert name_problem(trick) is not None, repr(trick)
    assert as_name("Zoe\u0308") == "Zoë"  # sent decomposed: one character, allowed


def test_seat_names_default_to_left_and_right_and_the_computer_is_its_level() -> None:
    assert seat_names((None, None)) == ("LEFT", "RIGHT")
    assert seat_names(("ANN", None)) == ("ANN", "RIGHT")
    assert seat_names(("ANN", "BO"), {Player.RIGHT: "hard"}) == ("ANN", "computer (hard)")
    # an unnamed person against the computer is YOU everywhere, as on the board
    assert seat_names((None, None), {Player.RIGHT: "hard"}) == ("YOU", "computer (hard)")
    assert seat_names((None, None), {Player.LEFT: "auto"}) == ("computer (auto)", "YOU")


def test_saved_names_are_loaded_next_time(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "players.toml"
    assert load(path)[:2] == ((None, None), None)  # nothing remembered yet
    save(("ANN", "[b]BO[/b]"), path)
    assert load(path)[:2] == (("ANN", "[b]BO[/b]"), None)
    save((None, "BO"), path)
    assert load(path)[:2] == ((None, "BO"), None)


def test_the_players_own_name_at_a_door_is_kept_beside_the_seats_names(tmp_path: Path) -> None:
    """`me` (the lobby's question): saving the seats' names keeps it, and
    remembering it keeps theirs; a bad one is one line, as for a seat's."""
    path = tmp_path / "players.toml"
    assert names.remember_me(" Ana ", path) is None
    save(("ANN", None), path)
    assert load(path) == (("ANN", None), None, "Ana")
    assert names.remember_me("Ben", path) is None
    assert load(path) == (("ANN", None), None, "Ben")
    path.write_text('left = "ANN"\nme = 7\n')
    remembered = load(path)
    assert remembered.me is None and remembered.problem is not None and "me" in remembered.problem


def test_the_default_file_is_in_the_user_config_dir(user_dirs: Path) -> None:
    save(("ANN", None))
    assert (user_dirs / "xdg_config_home" / "spit-tui" / "players.toml").is_file()
    assert load().names == ("ANN", None)


@pytest.mark.parametrize(
    "content",
    [
        os.urandom(300),
        b"left = \"ANN\n",  # broken TOML
        b"left = 7\n",
        b'left = "A\\u001b[31m"\n',  # a control character
        b'right = "' + b"x" * 40 + b'"\n',
        'left = "日本"\n'.encode(),  # two cells a character
        b"x" * 10_000,
    ],
    ids=["random", "bad_toml", "not_text", "control", "too_long", "wide", "too_big"],
)
def test_a_bad_file_is_one_line_and_no_names(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "players.toml"
    path.write_bytes(content)
    remembered = load(path)
    assert remembered.names == (None, None)
    assert remembered.problem is not None and "\n" not in remembered.problem
    assert "players.toml" in remembered.problem
    assert path.read_bytes() == content  # left as it was


def test_names_given_now_win_and_are_remembered(tmp_path: Path) -> None:
    path = tmp_path / "players.toml"
    assert choose(("ANN", None), path) == (("ANN", None), None)
    assert choose((None, None), path) == (("ANN", None), None)  # remembered
    assert choose((None, "BO"), path) == (("ANN", "BO"), None)  # the other seat kept
    # the remembered left name given now to the right: the left is the default again
    assert choose((None, "ann"), path) == ((None, "ann"), None)
    assert load(path).names == (None, "ann")


def test_a_failed_save_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = save(("ANN", "BO"), tmp_path / "players.toml")
    before = path.read_bytes()

    def boom(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    chosen, note = choose(("CY", None), path)
    assert chosen == ("CY", "BO")  # used this run all the same
    assert note is not None and "No space left" in note and "\n" not in note
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["players.toml"]


def test_a_read_only_folder_is_one_line_and_the_names_are_used(tmp_path: Path) -> None:
    folder = tmp_path / "cfg"
    path = save(("ANN", "BO"), folder / "players.toml")
    before = path.read_bytes()
    root = os.geteuid() == 0  # root ignores modes: an immutable folder instead
    if root and subprocess.run(["chattr", "+i", str(folder)], check=False).returncode != 0:
        pytest.skip("cannot make a folder immutable here")
    if not root:
        folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        chosen, note = choose(("CY", None), path)
    finally:
        if root:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(stat.S_IRWXU)
    assert chosen == ("CY", "BO") and note is not None and "remembered" in note
    assert path.read_bytes() == before
    assert [p.name for p in folder.iterdir()] == ["players.toml"]


def test_a_folder_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "cfg"
    blocker.write_text("")
    chosen, note = choose(("CY", None), blocker / "players.toml")
    assert chosen == ("CY", None) and note is not None and "\n" not in note
    assert blocker.read_text() == ""


def test_render_cannot_be_given_a_bad_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        save(('a"b', None), tmp_path / "p.toml")
    assert not (tmp_path / "p.toml").exists()
    assert names.MAX_CELLS == 20


def test_the_same_name_for_both_seats_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from spit_tui import cli

    assert cli.main(["--left-name", "Ann", "--right-name", "ann"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "different names" in err
    assert load().names == (None, None)  # nothing remembered from a refused start


@given(st.text(st.characters(codec="ascii"), min_size=1, max_size=20) | st.text(max_size=20))
def test_every_name_allowed_reads_back_from_a_game_record(name: str) -> None:
    """A stored game keeps its names as record tags: any name allowed must
    leave the record readable, and come back as it was."""
    from spit_tui.engine import Options, Record, format_record, parse_record

    if name_problem(name) is not None:
        return
    name = name.strip()
    rec = Record(options=Options(), seed=1, actions=[], tags={"Left": name, "Right": "B"})
    assert parse_record(format_record(rec)).tags["Left"] == name
