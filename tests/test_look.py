"""The look options (spit_tui/look.py): each choice comes through the
settings' resolver (a flag, else its SPIT_* variable, else config.toml, else
the default), a value no choice has is one clear line, and the card size is
a pure function of the terminal's size."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spit_tui import cli
from spit_tui.look import (
    CARDS,
    DEFAULT_LOOK,
    LARGE,
    LARGE_FITS,
    LARGE_FROM,
    PALETTES,
    SMALL,
    Look,
    LookError,
    card_size,
    look_of,
    palette_named,
)
from spit_tui.settings import Loaded, SettingError, resolve


def test_the_default_look_is_todays_board() -> None:
    look = look_of()
    assert look == DEFAULT_LOOK
    assert look.palette.name == "sky-orange" and look.palette.dark == ("#56b4e9", "#e69f00")
    assert (look.suits, look.cards, look.marks) == ("two", "auto", False)


def _resolved(flags: dict[str, object], env: dict[str, str], config: dict[str, object]) -> Look:
    settings = resolve(flags, env, Loaded(values=config, table=config, problem=None))
    return look_of(settings.palette, settings.suits, settings.cards, settings.marks)


def test_a_flag_wins_over_its_variable_over_config_toml_over_the_default() -> None:
    """The look's four settings go through the settings' one resolver."""
    config: dict[str, object] = {
        "palette": "violet-lime", "suits": "four", "cards": "large", "marks": True,
    }
    env = {"SPIT_PALETTE": "blue-gold", "SPIT_SUITS": "two", "SPIT_CARDS": "small",
           "SPIT_MARKS": "0"}
    flags: dict[str, object] = {
        "palette": "high-contrast", "suits": "four", "cards": "auto", "marks": True,
    }
    assert _resolved({}, {}, {}) == DEFAULT_LOOK
    assert _resolved({}, {}, config) == look_of("violet-lime", "four", "large", True)
    assert _resolved({}, env, config) == look_of("blue-gold", "two", "small", False)
    assert _resolved(flags, env, config) == look_of("high-contrast", "four", "auto", True)
    # an empty variable counts as unset
    assert _resolved({}, {"SPIT_PALETTE": ""}, config).palette.name == "violet-lime"


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"SPIT_PALETTE": "nope"}, "SPIT_PALETTE: 'nope' is not one of sky-orange, blue-gold"),
        ({"SPIT_SUITS": "five"}, "SPIT_SUITS: 'five' is not one of two, four"),
        ({"SPIT_CARDS": "huge"}, "SPIT_CARDS: 'huge' is not one of auto, small, large"),
        ({"SPIT_MARKS": "maybe"}, "SPIT_MARKS: 'maybe' is not true or false"),
        ({"SPIT_PALETTE": "\x1b[31mred"}, "SPIT_PALETTE: "),
    ],
)
def test_a_variable_no_choice_has_is_one_line(env: dict[str, str], says: str) -> None:
    with pytest.raises(SettingError) as e:
        resolve({}, env, Loaded(values={}, table={}, problem=None))
    assert says in str(e.value)
    assert "\n" not in str(e.value) and "\x1b" not in str(e.value)


def test_look_of_refuses_a_value_no_choice_has() -> None:
    with pytest.raises(LookError, match="'nope' is not a palette: sky-orange"):
        look_of("nope")
    with pytest.raises(LookError, match="'huge' is not a card size"):
        look_of(cards="huge")


@pytest.mark.parametrize(
    ("argv", "env", "code", "says"),
    [
        (["--palette", "nope"], {}, 2, "--palette: 'nope' is not one of sky-orange"),
        (["--cards", "huge"], {}, 2, "--cards: 'huge' is not one of auto"),
        (["--suits", "five"], {}, 2, "--suits: 'five' is not one of two, four"),
        ([], {"SPIT_SUITS": "five"}, 1, "SPIT_SUITS: 'five' is not one of two, four"),
    ],
)
def test_the_command_line_says_one_line(
    argv: list[str], env: dict[str, str], code: int, says: str,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert cli.main([*argv, "--no-history"]) == code
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("spit-tui: ")
    assert says in err


def test_every_palette_has_a_name_two_colours_a_kind_and_words() -> None:
    names = [p.name for p in PALETTES]
    assert len(set(names)) == len(names) >= 4
    for p in PALETTES:
        assert palette_named(p.name) is p
        for colour in (*p.dark, *p.light):
            assert len(colour) == 7 and colour.startswith("#")
        assert p.dark[0] != p.dark[1] and p.light[0] != p.light[1] and p.words


@pytest.mark.parametrize(
    ("cards", "width", "height", "size"),
    [
        ("auto", 80, 24, SMALL),
        ("auto", 119, 60, SMALL),
        ("auto", 200, 35, SMALL),
        ("auto", 120, 36, LARGE),
        ("auto", 200, 60, LARGE),
        ("small", 200, 60, SMALL),
        ("large", 120, 30, LARGE),
        ("large", 119, 60, SMALL),  # cannot fit: the whole board, small
        ("large", 80, 24, SMALL),
    ],
)
def test_the_card_size_follows_the_terminal(
    cards: str, width: int, height: int, size: object
) -> None:
    assert card_size(cards, width, height) is size


@given(
    st.sampled_from(CARDS), st.integers(0, 400), st.integers(0, 200),
)
def test_the_card_size_is_a_pure_function_that_always_fits(
    cards: str, width: int, height: int
) -> None:
    size = card_size(cards, width, height)
    assert size is card_size(cards, width, height)
    if size is LARGE:
        assert width >= LARGE.board_w and height >= LARGE_FITS[1]
    if cards == "auto":
        assert (size is LARGE) == (width >= LARGE_FROM[0] and height >= LARGE_FROM[1])


def test_the_measures_of_each_size() -> None:
    assert SMALL.board_w == 80 and SMALL.side_w == 30 and SMALL.card_h == 3
    assert LARGE.board_w == 120 and LARGE.side_w == 45 and LARGE.card_h == 5
    assert LARGE.board_w <= LARGE_FROM[0]


@pytest.mark.parametrize("command", ["join", "watch"])
def test_join_and_watch_take_the_settings_too(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat or a watcher (and so an SSH guest, whose game is a join) gets the
    look and the theme as the game does: a bad variable stops it before it
    connects anywhere (port 9 on 127.0.0.1 is never asked)."""
    monkeypatch.setenv("SPIT_PALETTE", "nope")
    args = ["127.0.0.1:9", "abcde-fghij"]
    assert cli.main([command, *args]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "SPIT_PALETTE: 'nope' is not one of" in err


async def test_the_start_up_hands_a_door_that_chose_only_its_keys_the_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from spit_tui.settings import Settings
    from spit_tui.startup import Board

    class App:
        first_run = False
        end_line = None
        return_code = 0
        board = None
        settings: Settings | None = None

        def use_keys(self, keymap: object) -> None:
            pass

        def use_settings(self, settings: Settings, note: str | None = None) -> None:
            self.settings = settings

        async def run_async(self) -> None:
            pass

    monkeypatch.setenv("SPIT_PALETTE", "blue-gold")
    monkeypatch.setattr("spit_tui.crash.arm", lambda board: None)
    app = App()
    board = Board()
    assert board.choose_keys() is None
    assert await board.run(app) == 0  # type: ignore[arg-type]
    assert app.settings is not None and app.settings.palette == "blue-gold"
