"""The key setup screen (F3 in help): every key asked in turn, a used or
reserved key refused, the file written and the one key table changed."""

from __future__ import annotations

from testkit.app import make_app, screen_text, settle

from spit_tui.engine import Player
from spit_tui.keys import config
from spit_tui.keys.intent import Intent, Row

# the order asked: left top, middle, bottom, numbers; then the right's
LEFT = "qwert" "asdfg" "zxcvb" "12345"
RIGHT = "yuiop" "hjkl[" "nm,./" "67890"  # "[" where ";" was


async def test_key_setup_rebinds_every_key_and_saves() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f1", "f3")
        await settle(pilot)
        assert "press your key for top row, key 1" in await screen_text(pilot)
        await pilot.press("q", "q")  # the second q is refused
        assert "'q' is already left.top key 1" in await screen_text(pilot)
        await pilot.press("tab")
        assert "kept for the app" in await screen_text(pilot)
        keys = [{";": "semicolon", ",": "comma", ".": "full_stop", "/": "slash",
                 "[": "left_square_bracket"}.get(c, c) for c in LEFT[1:] + RIGHT]  # fmt: skip
        await pilot.press(*keys)
        text = await screen_text(pilot)
        assert "Saved to" in text
    chosen = app.keymap
    assert chosen.intent_for("[", "[") == Intent(Player.RIGHT, Row.PILE_B, 4)
    assert chosen.intent_for(";", ";") is None
    assert not chosen.physical  # a moved key: characters decide
    assert app.table.keymap is chosen  # the game's table plays with them
    saved = config.load(config.default_path())
    assert saved.keys[2][9][0] == "["


async def test_escape_leaves_the_keys_as_they_were() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f1", "f3", "a", "escape")
        await settle(pilot)
    assert app.keymap.intent_for(";", ";") == Intent(Player.RIGHT, Row.PILE_B, 4)
    assert not config.default_path().exists()
