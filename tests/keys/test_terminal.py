"""Terminal bytes to game keys: the kitty protocol's extra fields (repeat,
release, base-layout key) and the fragment guard, through the real parser and
the driver's path into the app (Textualize/textual#6417 is what we work around)."""

from __future__ import annotations

import pytest
from testkit.app import make_app, settle
from textual import events
from textual._xterm_parser import XTermParser
from textual.keys import Keys

from spit_tui.engine import Player
from spit_tui.keys.intent import Intent, Row
from spit_tui.keys.keymap import US, KeyMap
from spit_tui.keys.layout import preset
from spit_tui.keys.terminal import KeyKind, KeyParser, KittyKey, parse_kitty
from spit_tui.table import Outcome

PLAY = "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0"
L1A = Intent(Player.LEFT, Row.PILE_A, 0)


def one(seq: str, alternate: bool = False) -> events.Key:
    keys = parse_kitty(seq, alternate)
    assert keys is not None and len(keys) == 1
    return keys[0]


def test_textual_itself_crashes_on_these_fields() -> None:
    """The upstream bug this module exists for: if this starts passing, Textual
    fixed #6417 and our wrapper can shrink."""
    parser = XTermParser()
    for seq in ("\x1b[97;1:2u", "\x1b[97;1:3u", "\x1b[113::97;;113u"):
        with pytest.raises(ValueError):
            list(parser.feed(seq))
        parser = XTermParser()


def test_press_repeat_release_and_base_fields() -> None:
    press = one("\x1b[97;1:1;97u")
    assert isinstance(press, KittyKey) and press.kind is KeyKind.PRESS
    assert (press.key, press.character, press.base) == ("a", "a", None)
    repeat = one("\x1b[97;1:2u")
    assert isinstance(repeat, KittyKey) and repeat.kind is KeyKind.REPEAT
    release = one("\x1b[97;1:3u")
    assert not isinstance(release, KittyKey) and release.key == Keys.Ignore
    azerty = one("\x1b[113::97;;113u")  # the AZERTY key where US has "a" types "q"
    assert isinstance(azerty, KittyKey) and (azerty.character, azerty.base) == ("q", "a")
    shifted = one("\x1b[113:81;2;81u")
    assert (shifted.key, shifted.character) == ("Q", "Q")
    ctrl = one("\x1b[113;5u")
    assert (ctrl.key, ctrl.character) == ("ctrl+q", None)
    esc = one("\x1b[27u")
    assert esc.key == "escape"
    # once the terminal confirmed alternate keys, a key without a base is its own base
    assert one("\x1b[113;;113u", alternate=True).base == "q"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "seq", ["\x1b[99999999999;1u", "\x1b[97;1:9u", "\x1b[97:x;1u", "\x1b[;;u", "\x1b[0u"]
)
def test_odd_fields_never_raise(seq: str) -> None:
    keys = parse_kitty(seq, True)
    assert keys is None or all(US.intent_for(k.key, k.character) is None for k in keys)


def test_base_key_maps_by_physical_key_in_any_layout() -> None:
    cyrillic = one("\x1b[1081::113;;1081u")  # Russian layout, the key where US has q
    assert isinstance(cyrillic, KittyKey)
    for layout in ("us", "fr", "ru"):
        keys = KeyMap.of(preset(layout))
        assert keys.intent_for(cyrillic.key, cyrillic.character, cyrillic.base) == L1A
    # a config that moves keys: characters decide, not physical keys
    moved = KeyMap.of(preset("us").with_row(Player.LEFT, 1, list("qwer[")))
    # the typed key wins
    assert moved.intent_for("[", "[", "y") == Intent(Player.LEFT, Row.PILE_A, 4)


def feed_app(app: object, parser: KeyParser, data: str) -> None:
    """Bytes into the real parser, its messages through the driver into the app."""
    driver = app._driver  # type: ignore[attr-defined]
    for message in parser.feed(data):
        driver.process_message(message)


async def test_kitty_bytes_play_the_right_cards_and_repeats_play_nothing() -> None:
    """An AZERTY player's kitty byte stream (base keys) on a default (us) setup:
    the key at US "q" plays L1a; its repeats and release play nothing, and each
    repeat is logged once with the reason "repeat"."""
    app = make_app(PLAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.table
        parser = KeyParser()
        start = len(table.decisions)
        # AZERTY: the US "q" key types "a"; pressed, held (3 repeats), released
        feed_app(app, parser, "\x1b[97::113;1;97u" + "\x1b[97::113;1:2;97u" * 3)
        feed_app(app, parser, "\x1b[97::113;1:3u")
        await settle(pilot)
        decided = list(table.decisions)[start:]
        assert [d.action for d in decided[:1]] == ["L1a"]
        assert decided[0].outcome is Outcome.APPLIED
        assert [(d.outcome, d.message) for d in decided[1:]] == [(Outcome.IGNORED, "repeat")] * 3
        assert table.messages.message(Player.LEFT) is None  # a repeat is shown to no one


async def test_cyrillic_and_shifted_kitty_keys_through_the_driver() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        parser = KeyParser()
        start = len(app.table.decisions)
        # Russian: the US ";" key types "ж" (right pile b, slot 5); Shift+"y" as "Y"
        feed_app(app, parser, "\x1b[1078::59;1;1078u\x1b[121:89;2;89u")
        await settle(pilot)
        decided = list(app.table.decisions)[start:]
        assert [d.action[:3] for d in decided] == ["R5b", "R1a"]


async def test_a_terminal_that_never_answers_the_query_still_plays() -> None:
    """No answer to CSI ? u: plain bytes are keys as ever, and kitty fields
    that arrive anyway (a multiplexer passing them through) still parse."""
    app = make_app(PLAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        parser = KeyParser()
        start = len(app.table.decisions)
        feed_app(app, parser, "q")
        feed_app(app, parser, "\x1b[121;1:2u")  # a repeat, unasked: never plays
        await settle(pilot)
        assert parser.kitty_flags is None
        decided = list(app.table.decisions)[start:]
        assert [d.action for d in decided][:1] == ["L1a"]
        assert decided[1].message == "repeat"


def test_the_query_answer_is_read_and_never_becomes_keys() -> None:
    parser = KeyParser()
    out = list(parser.feed("\x1b[?31uq"))
    assert parser.kitty_flags == 31 and parser.alternate_keys
    assert [getattr(m, "key", None) for m in out][-1] == "q"
