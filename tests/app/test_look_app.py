"""The look on screen (spit_tui/look.py): each palette's colours reach the
terminal (and a light theme's pair under a light theme), four-colour suits,
the ◂ ▸ markers with colour, and large cards on a large terminal, chosen
again as the window is resized; no size shows a card nobody may see."""

from __future__ import annotations

import re

import pytest
from rich.color import Color as RichColor
from testkit.app import make_app, press
from testkit.screen import screen_text

from spit_tui.app import SpitApp
from spit_tui.app.board import BoardView
from spit_tui.app.cards import FOUR_BLUE, FOUR_GREEN
from spit_tui.engine import Card
from spit_tui.engine.cards import full_deck
from spit_tui.look import DEFAULT_LOOK, PALETTES, Look, palette_named

OTHERS = [p for p in PALETTES if p != DEFAULT_LOOK.palette]


def _screen_colours(app: SpitApp) -> set[str]:
    """Every colour on screen as it goes to the terminal (after the filters)."""
    return set(re.findall(r"fill: (#[0-9a-f]{6})", app.export_screenshot()))


@pytest.mark.parametrize("palette", OTHERS, ids=[p.name for p in OTHERS])
async def test_a_palette_colours_the_players_on_a_dark_and_a_light_theme(palette: object) -> None:
    assert palette in PALETTES
    app = make_app(seed=1, spat=True)
    app.use_look(Look(palette=palette))  # as the start-up does, before the run  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "w")  # a card on a pile: framed in LEFT's colour
        dark = _screen_colours(app)
        assert {c.lower() for c in palette.dark} <= dark, dark  # type: ignore[attr-defined]
        assert not dark & {"#56b4e9", "#e69f00"}
        app.theme = "spit-light"
        await pilot.pause()
        light = _screen_colours(app)
        assert {c.lower() for c in palette.light} <= light, light  # type: ignore[attr-defined]
        assert not light & {"#56b4e9", "#e69f00", "#005a8c", "#9a4a00"}


async def test_a_chosen_palette_keeps_its_colours_under_an_ansi_theme() -> None:
    """The ANSI themes give the default pair the terminal's own colours; a
    palette someone chose stays as chosen."""
    from spit_tui.app.themes import pair_for

    app = make_app(seed=1, spat=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = "ansi-dark"
        await pilot.pause()
        assert pair_for(app.current_theme) == ("cyan", "yellow")
        chosen = palette_named("high-contrast")
        app.use_look(Look(palette=chosen))
        await pilot.pause()
        assert app.player_colours.palette is chosen and app.player_colours.enabled
        assert pair_for(app.current_theme, chosen) == chosen.dark


def _faces(app: SpitApp) -> dict[str, RichColor | None]:
    """Each card face on the board and its colour, as drawn (before the filters)."""
    view = app.query_one(BoardView)
    out: dict[str, RichColor | None] = {}
    for line in view.lines():
        for seg in line:
            text = seg.text.strip()
            if text and text[-1] in "♠♥♦♣" and seg.style is not None:
                out[text] = seg.style.color
    return out


async def test_four_colour_suits_make_diamonds_blue_and_clubs_green() -> None:
    app = make_app(seed=1, spat=True)
    async with app.run_test(size=(80, 24)) as pilot:
        two = _faces(app)
        app.use_look(Look(suits="four"))
        await pilot.pause()
        four = _faces(app)
    assert set(two) == set(four)
    suits = {face[-1] for face in four}
    assert suits == set("♠♥♦♣"), suits  # seed 1 shows every suit
    for face, colour in four.items():
        name = None if colour is None else colour.name
        want = {"♠": None, "♥": "red", "♦": FOUR_BLUE, "♣": FOUR_GREEN}[face[-1]]
        if want is None:  # the board's own foreground
            assert name not in ("red", FOUR_BLUE, FOUR_GREEN), (face, name)
        else:
            assert name == want, (face, name)
        before = two[face]
        assert (before is not None and before.name == "red") == (face[-1] in "♥♦")


async def test_the_markers_show_with_colour_when_asked() -> None:
    app = make_app(seed=1, spat=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "w")  # LEFT's card on pile a
        plain = await screen_text(pilot)
        app.use_look(Look(marks=True))
        await pilot.pause()
        marked = await screen_text(pilot)
    assert "◂│" not in plain
    assert "◂│" in marked  # beside LEFT's card on the pile


LARGE_EDGE = "╭─────╮"


@pytest.mark.parametrize(
    ("size", "cards", "large"),
    [
        ((80, 24), "auto", False),
        ((119, 40), "auto", False),
        ((120, 35), "auto", False),
        ((120, 36), "auto", True),
        ((200, 60), "auto", True),
        ((200, 60), "small", False),
        ((120, 30), "large", True),
        ((100, 30), "large", False),  # no room: the whole board, small
    ],
)
async def test_large_cards_where_the_terminal_has_the_room(
    size: tuple[int, int], cards: str, large: bool
) -> None:
    app = make_app(seed=1, spat=True)
    app.use_look(Look(cards=cards))
    async with app.run_test(size=size) as pilot:
        await press(pilot, "w")  # LEFT's card on pile a
        text = await screen_text(pilot)
        board = app.query_one(BoardView)
        assert (LARGE_EDGE in text) is large
        assert board.size.width == (120 if large else 80)
        assert app.has_class("-large-cards") is large
        assert ("◂│" in text) is large  # the markers come with large cards


async def test_resizing_the_window_changes_the_card_size_and_back() -> None:
    app = make_app(seed=1, spat=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "w")
        small = await screen_text(pilot)
        await pilot.resize_terminal(150, 45)
        await pilot.pause()
        large = await screen_text(pilot)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        again = await screen_text(pilot)
    assert LARGE_EDGE not in small and LARGE_EDGE in large
    assert again == small


async def test_a_window_too_small_then_large_gets_the_large_frame_too() -> None:
    """From the too-small notice straight to a large window: the board under
    the notice is restyled as well (it came back with large cards in the small
    frame, cut off at the right)."""
    from testkit.board import board_problems, read_board

    app = make_app(seed=1, spat=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.resize_terminal(79, 23)  # too small: the notice on top
        await pilot.pause()
        await pilot.resize_terminal(144, 48)
        await pilot.pause()
        text = await screen_text(pilot)
        assert LARGE_EDGE in text
        assert "RIGHT  25 cards" in text, text  # the right half is on screen, not cut
        assert not board_problems(read_board(app), app.table.position)


@pytest.mark.parametrize(
    ("theme", "blue", "green"),
    [("textual-dark", "#63a1ff", "#38bd4c"), ("spit-light", "#0b5cd6", "#1f5f22")],
)
async def test_four_colour_suits_read_on_dark_and_light_themes(
    theme: str, blue: str, green: str
) -> None:
    app = make_app(seed=1, spat=True)
    app.use_look(Look(suits="four"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        await pilot.pause()
        assert {blue, green} <= _screen_colours(app)


def _card_faces(text: str) -> set[str]:
    faces = {c.face for c in full_deck()}
    found = set(re.findall(r"(?:10|[2-9JQKA])[♠♥♦♣]", text))
    assert found <= faces
    return found


async def test_no_size_shows_a_card_nobody_may_see() -> None:
    """Large cards show each face twice and the suit once more, but the same
    cards as the small board: only the ones face up."""
    seen: list[set[str]] = []
    for size in ((80, 24), (200, 60)):
        app = make_app(seed=1, spat=True)
        async with app.run_test(size=size) as pilot:
            await press(pilot, "w")
            seen.append(_card_faces(await screen_text(pilot)))
            scene = app.table.scene()
            shown = {c.face for c in scene.pile_tops if isinstance(c, Card)} | {
                c.face for side in scene.sides for c in side.tops if c is not None
            }
    assert seen[0] == seen[1]
    assert seen[1] <= shown | _feed_faces(app)


def _feed_faces(app: SpitApp) -> set[str]:
    return {c.face for e in app.table.scene().feed for c in e.cards}


@pytest.mark.parametrize("palette", PALETTES, ids=[p.name for p in PALETTES])
async def test_no_color_drops_every_palette_and_four_colour_suits_keeping_the_shapes(
    monkeypatch: pytest.MonkeyPatch, palette: object
) -> None:
    """NO_COLOR wins over any look: no palette colour and no suit colour reach
    the terminal, and on large cards the markers and the suits' symbols say it all."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(seed=1, spat=True)
    app.use_look(Look(palette=palette, suits="four"))  # type: ignore[arg-type]
    async with app.run_test(size=(120, 36)) as pilot:
        await press(pilot, "w")
        text = await screen_text(pilot)
        colours = _screen_colours(app)
    assert LARGE_EDGE in text and "◂│" in text and "▒" in text
    drawn = {c.lower() for c in (*palette.dark, *palette.light)}  # type: ignore[attr-defined]
    assert not colours & (drawn | {FOUR_BLUE, FOUR_GREEN, "#56b4e9", "#e69f00"})
