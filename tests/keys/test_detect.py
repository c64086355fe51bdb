"""The first-run check's detection: pressing the asked keys of any preset's
keyboard finds that preset (or one with the very same 40 keys)."""

from __future__ import annotations

import pytest

from spit_tui.keys.detect import FIRST_ASKS, Detector
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
        assert len(asks) <= 8
    found = d.result()
    assert [k[0] for r in found.keys for k in r] == [k[0] for r in keyboard.keys for k in r]
    assert tuple(asks[:3]) == FIRST_ASKS[: len(asks[:3])]


def test_three_keys_tell_the_big_families_apart() -> None:
    for name in ("de", "dvorak", "colemak", "ru"):
        d = Detector()
        for pos in FIRST_ASKS:
            d.answer(pos, preset(name).key(pos)[0])
        assert d.done and d.result().name in (name, "ch" if name == "de" else name)


def test_a_key_no_layout_has_there_is_asked_again() -> None:
    d = Detector()
    assert not d.answer((1, 0), "7")
    assert d.asked == [] and len(d.candidates) == len(preset_names())
