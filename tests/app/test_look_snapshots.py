"""Snapshots of the board in each look (spit_tui/look.py): each palette, the
four-colour suits and the markers at 80x24; large cards at 120x36 and 200x60
(the 80x24 board is test_app_snapshots.py's, unchanged). Regenerate with
`pytest tests/app/test_look_snapshots.py --snapshot-update` and look at the
report."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_app_snapshots import (
    OVER,
    SLAP,
    Before,
    Snap,
    _board,
    _computers_key,
    _nothing,
    _over,
    _vs_computer,
)
from testkit.app import make_app

from spit_tui.app import SpitApp
from spit_tui.engine import Options, Variant
from spit_tui.look import Look, palette_named

POINTS = Options(variant=Variant.POINTS, target=50)


def _with_look(app: SpitApp, look: Look) -> SpitApp:
    app.use_look(look)
    return app


def _app(look: Look, position: str | None = None, theme: str | None = None) -> SpitApp:
    app = make_app(position) if position else make_app(seed=1, spat=True)
    app.use_look(look)
    if theme is not None:
        app.theme = theme
    return app


LOOKS: dict[str, tuple[Callable[[], SpitApp], Before]] = {
    "blue_gold": (lambda: _app(Look(palette=palette_named("blue-gold"))), _board),
    "violet_lime": (lambda: _app(Look(palette=palette_named("violet-lime"))), _board),
    "high_contrast": (lambda: _app(Look(palette=palette_named("high-contrast"))), _board),
    "high_contrast_light": (
        lambda: _app(Look(palette=palette_named("high-contrast")), theme="spit-light"), _board,
    ),
    "four_suits": (lambda: _app(Look(suits="four")), _board),
    "marks": (lambda: _app(Look(marks=True)), _board),
}


@pytest.mark.parametrize("name", list(LOOKS))
def test_look(snap_compare: Snap, name: str) -> None:
    factory, before = LOOKS[name]
    assert snap_compare(factory(), terminal_size=(80, 24), run_before=before)


LARGE: dict[str, tuple[Callable[[], SpitApp], Before, tuple[int, int]]] = {
    "board_120x36": (lambda: _app(Look()), _board, (120, 36)),
    "board_200x60": (lambda: _app(Look(suits="four")), _board, (200, 60)),
    "slap_120x36": (lambda: _app(Look(), SLAP), _nothing, (120, 36)),
    "over_120x36": (lambda: _app(Look(), OVER), _over, (120, 36)),
    "small_at_120x36": (lambda: _app(Look(cards="small")), _board, (120, 36)),
    "vs_computer_120x36": (_vs_computer, _computers_key, (120, 36)),
    "points_120x36": (
        lambda: _with_look(make_app(seed=2, spat=True, options=POINTS), Look()), _nothing,
        (120, 36),
    ),
}


@pytest.mark.parametrize("name", list(LARGE))
def test_large(snap_compare: Snap, name: str) -> None:
    factory, before, size = LARGE[name]
    assert snap_compare(factory(), terminal_size=size, run_before=before)


def test_large_replay(snap_compare: Snap) -> None:
    """`spit-tui replay` on a large terminal: the replay screen's frame widens too."""
    from test_app_replay import _record, replay

    from spit_tui.app.replay import replay_app

    rec, _ = _record()
    app = replay_app(rec, "game 1: ANN v BO", playing=False)

    async def before(pilot: object) -> None:
        replay(app).goto(30)

    assert snap_compare(app, terminal_size=(120, 36), run_before=before)
