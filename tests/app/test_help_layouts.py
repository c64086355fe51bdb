"""The help's "Try it" lines name the players' own keys: on every layout each
key a line names is pressed on the page's live board (as the player would type
it) and does what the line says, the slap page's first key for LEFT slapping
the smaller pile. The replay labels the keys of the layout in use too."""

from __future__ import annotations

import re

import pytest
from testkit.app import make_app, press, screen_text, settle
from textual.pilot import Pilot

from spit_tui.app.help import HelpScreen
from spit_tui.app.walkthrough import PAGES, Page
from spit_tui.clock import VirtualClock
from spit_tui.engine import Slap
from spit_tui.keys.keymap import US, KeyMap
from spit_tui.keys.layout import preset
from spit_tui.table import Outcome

PLAY = "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0"
A, NO, L = Outcome.APPLIED, Outcome.ILLEGAL, Outcome.LOST_RACE

# Per page (by the first word of its title): runs from a fresh board, each the
# keys pressed (by their place in the line) and what the table made of them.
SCRIPTS: dict[str, list[tuple[tuple[int, ...], list[tuple[str, Outcome]]]]] = {
    "Playing": [
        ((0,), [("L1a", A)]), ((1,), [("L2b", A)]), ((2,), [("R1a", A)]), ((3,), [("R3b", A)]),
    ],
    "Filling": [((0,), [("L2>3", A)]), ((1,), [("L1>3", NO)]), ((2,), [("R4>3", A)])],
    "First": [((0,), [("L1a", A)]), ((1,), [("R1a", A)]), ((0, 1), [("L1a", A), ("R1a", L)])],
    "The": [((0,), [("L*a", A)]), ((1,), [("R*a", A)]), ((2,), [("L*b", A)]), ((3,), [("R*b", A)])],
    "One": [((0, 2), [("L1a", A), ("L2a", A)]), ((1, 3), [("L1a", A), ("L2a", A)])],
    "Winning": [((0, 1), [("L1a", A), ("L2a", A)])],
}
NAMED = re.compile(r"\[(.)\]")


def typed(keys: KeyMap, label: str) -> str:
    """What the key labelled `label` types (a letter's key types it small)."""
    return label.lower() if label.lower() in keys.keys else label


async def open_help(pilot: Pilot[None]) -> HelpScreen:
    await pilot.press("f1")
    screen = pilot.app.screen
    assert isinstance(screen, HelpScreen)
    return screen


def pages_with_keys() -> list[tuple[int, Page]]:
    return [(i, p) for i, p in enumerate(PAGES) if p.try_keys()]


def test_every_page_with_a_board_names_its_keys_by_place_not_by_character() -> None:
    named = {p.title.split()[0] for _, p in pages_with_keys()}
    assert named == set(SCRIPTS)
    for _, page in pages_with_keys():
        assert not NAMED.search(page.try_it), page.try_it  # no key written out as on US
        assert page.try_line(US).count("[") == len(page.try_keys())


@pytest.mark.parametrize("layout", ["fr", "de", "dvorak"])
async def test_every_try_it_line_names_keys_that_do_what_it_says(layout: str) -> None:
    keys = KeyMap.of(preset(layout))
    app = make_app(PLAY, keymap=keys)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_help(pilot)
        for index, page in pages_with_keys():
            screen.page = index
            line = page.try_line(keys)
            labels = NAMED.findall(line)
            assert [keys.intent_for(k, k) for k in labels] == page.try_keys(), (layout, line)
            for pressed, wanted in SCRIPTS[page.title.split()[0]]:
                screen.action_reset()  # a fresh board
                await settle(pilot)
                shown = " ".join((await screen_text(pilot)).split())
                assert " ".join(f"Try it: {line}".split()) in shown
                table = screen.table
                assert table is not None and table.keymap is keys
                assert isinstance(table.clock, VirtualClock)
                table.clock.advance(0.31)  # past D13's first 0.2 s
                await press(pilot, [typed(keys, labels[i]) for i in pressed])
                got = [(d.action, d.outcome) for d in table.decisions]
                assert got == wanted, (layout, page.title, [labels[i] for i in pressed])


@pytest.mark.parametrize("layout", ["us", "fr", "de", "dvorak"])
async def test_the_slap_page_tells_left_to_slap_the_smaller_pile(layout: str) -> None:
    keys = KeyMap.of(preset(layout))
    app = make_app(PLAY, keymap=keys)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_help(pilot)
        while not PAGES[screen.page].title.startswith("The slap"):
            await pilot.press("right")
        text = " ".join((await screen_text(pilot)).split())
        found = re.search(r"LEFT \[(.)\]", text)
        assert found is not None, text
        table = screen.table
        assert table is not None and isinstance(table.clock, VirtualClock)
        piles = [len(p) for p in table.position.piles]
        table.clock.advance(0.31)
        await press(pilot, typed(keys, found.group(1)))
        event = table.shown.last_event
        assert event is not None and isinstance(event.action, Slap)
        assert piles[event.action.pile] == min(piles), (layout, found.group(1), piles)
        assert "LEFT slapped pile a first" in " ".join((await screen_text(pilot)).split())


async def test_the_key_page_and_board_show_the_layout_in_use() -> None:
    keys = KeyMap.of(preset("fr"))
    app = make_app(PLAY, keymap=keys)
    async with app.run_test(size=(100, 30)) as pilot:
        board = await screen_text(pilot)
        assert "[A]   [Z]   [E]" in board and "[Q]   [W]" not in board
        await pilot.press("f1")
        text = await screen_text(pilot)
        assert "fr, French (AZERTY)" in text or "fr," in text
        assert "A Z E R T" in text and "Q W E R T" not in text
