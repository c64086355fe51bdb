"""The first-run check's detection: pressing the asked keys of any preset's
keyboard finds that preset (or one with the very same 40 keys)."""

from __future__ import annotations

import pytest

from spit_tui.keys.detect import (
    FIRST_ASKS,
    Detector,
    ask_hint,
    describe_key,
    where_else,
    whose_half,
)
from spit_tui.keys.layout import preset, preset_names


@pytest.mark.parametrize("name", preset_names())
def test_pressing_the_asked_keys_finds_the_layout(name: str) -> None:
    keyboard = preset(name)
    d = Detector()
    asks = []
    while not d.done:
        pos = d.next_ask()
        asks.append(pos)
        assert d.answer(pos, keyboard.key(pos)[0])
    found = d.result()
    assert [k[0] for r in found.keys for k in r] == [k[0] for r in keyboard.keys for k in r]
    assert tuple(asks[: len(FIRST_ASKS)]) == FIRST_ASKS
    assert 1 <= len(asks) <= 3  # README: "one to three keys"
    assert all(row != 3 for row, _ in asks)  # never the bottom row (ISO's extra key)


def test_one_key_tells_the_big_families_apart() -> None:
    for name in ("dvorak", "ru"):
        d = Detector()
        for pos in FIRST_ASKS:
            d.answer(pos, preset(name).key(pos)[0])
        assert d.done and d.result().name == name


def test_keys_are_named_without_counting_past_a_key_some_keyboards_lack() -> None:
    assert describe_key((0, 5)) == "the key with 6 on it (without Shift)"
    assert describe_key((0, 9)) == "the key with 0 on it (without Shift)"
    assert describe_key((1, 0)) == "the first key of the top letter row"
    assert ask_hint((1, 3)) == "The top letter row starts just right of Tab."
    assert ask_hint((2, 9)) == "The middle letter row starts just right of Caps Lock."
    assert ask_hint((0, 5)) == ""
    assert [whose_half((1, c)) for c in (0, 4, 5, 9)] == ["LEFT", "LEFT", "RIGHT", "RIGHT"]


def test_a_key_of_a_known_layout_is_said_to_be_another_key() -> None:
    assert where_else("(", (1, 0)) == "on fr it is the key with 5 on it (without Shift)"
    assert where_else("@", (1, 0)) == "on us it is the key with 2 on it with Shift"
    azerty = [preset("fr"), preset("be")]  # what the top-left letter "a" left
    assert where_else("(", (0, 5), azerty) == "on fr it is the key with 5 on it (without Shift)"
    assert where_else("q", (1, 0)) == (
        "on fr it is the first key of the middle letter row"
    )
    assert where_else("\N{SNOWMAN}", (1, 0)) is None


def test_a_key_no_layout_has_there_is_asked_again() -> None:
    d = Detector()
    assert not d.answer((1, 0), "7")
    assert d.asked == [] and len(d.candidates) == len(preset_names())
