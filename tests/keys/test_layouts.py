"""Layout presets: generated from xkeyboard-config, checked here against the
key strings read off that data, and for being usable (40 distinct keys at both
levels, halves disjoint, no key the app keeps for itself)."""

from __future__ import annotations

import unicodedata

import pytest
from textual.keys import _character_to_key

from spit_tui.engine import Player
from spit_tui.keys.intent import Intent, Row
from spit_tui.keys.keymap import KeyMap
from spit_tui.keys.layout import COLUMNS, grid, preset, preset_names
from spit_tui.keys.names import key_name
from spit_tui.keys.reserved import RESERVED_KEYS

NAMES = [
    "us", "gb", "fr", "be", "de", "ch", "es", "it", "pt", "se", "no", "dk", "fi",
    "dvorak", "colemak", "ru",
]  # fmt: skip

# number row | top | middle | bottom, as the issue read them off xkeyboard-config
EXPECTED = {
    "us": "1234567890 | qwertyuiop | asdfghjkl; | zxcvbnm,./",
    "gb": "1234567890 | qwertyuiop | asdfghjkl; | zxcvbnm,./",
    "fr": "&é\"'(-è_çà | azertyuiop | qsdfghjklm | wxcvbn,;:!",
    "be": "&é\"'(§è!çà | azertyuiop | qsdfghjklm | wxcvbn,;:=",
    "de": "1234567890 | qwertzuiop | asdfghjklö | yxcvbnm,.-",
    "ch": "1234567890 | qwertzuiop | asdfghjklö | yxcvbnm,.-",
    "dvorak": "1234567890 | ',.pyfgcrl | aoeuidhtns | ;qjkxbmwvz",
    "colemak": "1234567890 | qwfpgjluy; | arstdhneio | zxcvbkm,./",
    "ru": "1234567890 | йцукенгшщз | фывапролдж | ячсмитьбю.",
}


def test_every_preset_the_issue_names_is_there() -> None:
    assert preset_names() == NAMES


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_preset_keys_match_xkeyboard_config(name: str) -> None:
    layout = preset(name)
    got = " | ".join("".join(k[0] for k in row) for row in layout.keys)
    assert got == EXPECTED[name]


def test_fr_number_row_gives_digits_with_shift() -> None:
    assert "".join(k[1] for k in preset("fr").keys[0]) == "1234567890"


@pytest.mark.parametrize("name", NAMES)
def test_preset_is_usable(name: str) -> None:
    """40 positions, every character at either level on one position only (so the
    halves are disjoint), each a printable key that is not one the app keeps."""
    layout = preset(name)
    assert len(layout.keys) == 4 and all(len(r) == COLUMNS for r in layout.keys)
    assert layout.problems() == []
    owner: dict[str, tuple[int, int]] = {}
    for pos in layout.positions():
        for ch in layout.key(pos):
            assert len(ch) == 1 and ch.isprintable() and not ch.isspace()
            assert key_name(ch) not in RESERVED_KEYS
            assert owner.setdefault(ch, pos) == pos, (ch, pos, owner[ch])
    left = {ch for ch, (_, c) in owner.items() if c < 5}
    right = {ch for ch, (_, c) in owner.items() if c >= 5}
    assert left and right and not left & right


@pytest.mark.parametrize("name", NAMES)
def test_key_names_agree_with_textual(name: str) -> None:
    """Our name for each key (for drivers that send no character) is Textual's."""
    from textual.keys import KEY_NAME_REPLACEMENTS

    for pos in preset(name).positions():
        for ch in preset(name).key(pos):
            if ch.isalnum():
                continue
            textual = _character_to_key(ch)
            assert key_name(ch) == KEY_NAME_REPLACEMENTS.get(textual, textual), unicodedata.name(ch)


@pytest.mark.parametrize("name", NAMES)
def test_a_preset_makes_a_whole_key_map(name: str) -> None:
    layout = preset(name)
    keys = KeyMap.of(layout)
    assert keys.name == name
    assert len(keys.keys) == 40
    top_left, top_left_shifted = layout.keys[1][0]
    assert keys.intent_for(top_left, top_left) == Intent(Player.LEFT, Row.PILE_A, 0)
    assert keys.intent_for(top_left_shifted, top_left_shifted) == Intent(Player.LEFT, Row.PILE_A, 0)
    last = layout.keys[3][9][0]
    assert keys.intent_for(last, last) == Intent(Player.RIGHT, Row.FILL, 4)
    assert keys.key_for(Player.RIGHT, Row.PILE_B, 4) == layout.keys[2][9][0]
    # the physical key decides where the terminal reports it, whatever the layout
    assert keys.intent_for("x", "x", base="q") == Intent(Player.LEFT, Row.PILE_A, 0)


def test_a_key_map_is_a_value_nobody_can_change() -> None:
    keys = KeyMap.of(preset("fr"))
    with pytest.raises(TypeError):
        keys.keys["q"] = Intent(Player.LEFT, Row.PILE_A, 0)  # type: ignore[index]
    with pytest.raises(AttributeError):
        keys.layout = preset("us")  # type: ignore[misc]


def test_azerty_keys_are_what_a_french_keyboard_sends() -> None:
    keymap = KeyMap.of(preset("fr"))
    intent_for = keymap.intent_for
    assert intent_for("a", "a") == Intent(Player.LEFT, Row.PILE_A, 0)
    assert intent_for("q", "q") == Intent(Player.LEFT, Row.PILE_B, 0)
    assert intent_for("ampersand", "&") == Intent(Player.LEFT, Row.FLIP, 0)
    assert intent_for("1", "1") == Intent(Player.LEFT, Row.FLIP, 0)  # Shift or Caps Lock
    assert intent_for("exclamation_mark", "!") == Intent(Player.RIGHT, Row.FILL, 4)
    assert intent_for("semicolon", None) == Intent(Player.RIGHT, Row.FILL, 2)
    assert keymap.label("a") == "A" and keymap.label("é") == "é"


def test_layouts_grid_shows_both_halves() -> None:
    lines = grid(preset("de"))
    assert lines[1] == "Q W E R T   Z U I O P"
    assert lines[2].endswith("K L Ö")


def test_readme_lists_every_reserved_key() -> None:
    """The README's table of non-game keys is the app's one list of them."""
    from pathlib import Path

    from spit_tui.keys.reserved import RESERVED

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Keys") : readme.index("## Rules and notation")]
    for r in RESERVED:
        for part in r.label.replace(" or ", " / ").split(" / "):
            shown = {"arrows": "arrows", "Esc": "`Esc`"}.get(part, f"`{part}`")
            assert shown in section, part
    for name in ("us", "fr", "de", "dvorak", "ru", "colemak"):
        assert f"`{name}`" in section
