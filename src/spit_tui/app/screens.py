"""The game screen. The small screens over it (the quit question, the pause,
"terminal too small") live in dialogs.py, the help screen in help.py.

Screens talk to the app the Textual way, messages up (`GameScreen.Covered`),
and the app finds what a screen shows through the small `ShowsTable`
protocol; nothing here imports the app."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple, Protocol, Self, cast, runtime_checkable

from textual.app import ComposeResult
from textual.geometry import Region, Size
from textual.message import Message
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from spit_tui.app.banner import OVER_KEYS, Banner
from spit_tui.app.board import BoardView
from spit_tui.app.cues import Bell, still
from spit_tui.app.repaint import CellsCompositor
from spit_tui.app.status import HeaderBar, Scoreboard
from spit_tui.app.views import SceneView
from spit_tui.clock import GameClock
from spit_tui.keys.intent import Intent
from spit_tui.keys.keymap import KeyMap
from spit_tui.messages import Messages
from spit_tui.scene import Scene
from spit_tui.subscription import Subscription

MIN_W, MIN_H = 80, 24


class Playing(Protocol):
    """What a screen shows and sends the game keys to: a local Table, or a
    seat at a host's table (net.remote.RemoteSeat). Both give a Scene to draw;
    neither pretends to be the other."""

    clock: GameClock
    keymap: KeyMap  # the players' keys, which the app hands over (SpitApp.use_keys)

    def subscribe(self, sub: Subscription) -> Subscription: ...

    def scene(self) -> Scene: ...

    def submit_intent(self, intent: Intent) -> object: ...

    def ignore_repeat(self, intent: Intent) -> object: ...

    def pause(self, reason: str, on: bool) -> None: ...

    @property
    def messages(self) -> Messages: ...


@runtime_checkable
class ShowsTable(Protocol):
    """A screen with a live table on it (the game, a help page): the app sends
    that table the game keys, ticks its clock and calls `sync()` to repaint."""

    def shown_table(self) -> Playing | None: ...

    def sync(self) -> None: ...


def as_table_screen(screen: object) -> ShowsTable | None:
    """`screen` if it is a ShowsTable, else None. Decided once per screen class:
    an isinstance check against a runtime protocol costs about 30 µs on a
    Textual screen, and this runs on every key."""
    cls = type(screen)
    shows = _SHOWS_TABLE.get(cls)
    if shows is None:
        shows = _SHOWS_TABLE[cls] = issubclass(cls, ShowsTable)
    return cast(ShowsTable, screen) if shows else None


_SHOWS_TABLE: dict[type, bool] = {}


# The stylesheet of the screens shown after the board (help, dialogs, keys,
# names, settings): their CSS_PATH. Textual reads it, and parses the app's
# stylesheets again, when the first of them opens, once; kept out of app.tcss,
# a start parses about 1.5 ms of CSS less. Absolute, so a subclass elsewhere
# finds it too.
LATER_CSS = Path(__file__).parent / "later.tcss"


class Notes(NamedTuple):
    """What the app itself adds to its game's picture, not the table's to keep:
    the history's figures for a finished game and its offer of a stopped game
    to resume (both for this game only), and the match's score."""

    figures: str = ""
    offer: str = ""
    match: str = ""

    def over(self, scene: Scene) -> Scene:
        """`scene` with these notes (a note left empty keeps the scene's own)."""
        if not (self.figures or self.offer or self.match):
            return scene
        return scene._replace(
            figures=self.figures or scene.figures,
            offer=self.offer or scene.offer,
            match=self.match or scene.match,
        )


class Box(Widget):
    """Widgets one under another in a box of their own, drawn by them alone.
    Textual redraws, in each frame, every widget whose clip meets the frame's
    changed cells; a widget at the screen's top level is clipped only by the
    screen, so a key that changed a few board cells still had the header and
    the banner draw all their lines (about 0.05 ms each, more for the first
    drawn in a frame); the scoreboard likewise. In a box they are clipped by
    the box, and a frame that changes nothing in it leaves them alone. The box
    itself has nothing to show (its children cover all of it; the scoreboard's
    margin is its box's) and is still asked for its lines at every frame:
    they are kept until its size or styles change or it is refreshed, rather
    than made again by Textual's styles cache (about 0.04 ms a frame)."""

    DEFAULT_CSS = "Box { height: auto; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._kept: tuple[Region, Size, list[Strip]] | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        kept = self._kept
        size = self.size
        if kept is not None and kept[0] == crop and kept[1] == size:
            return kept[2]
        strips = super().render_lines(crop)
        self._kept = crop, size, strips
        return strips

    def notify_style_update(self) -> None:
        self._kept = None
        super().notify_style_update()

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        self._kept = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


class GameScreen(Screen[None]):
    """The board. Game keys never reach it: the app routes them to the table on
    arrival; this screen only draws, and says when it is covered."""

    class Covered(Message):
        """Another screen went on top of the board (True) or came off it (False):
        the game waits while nobody can see it."""

        def __init__(self, covered: bool) -> None:
            super().__init__()
            self.covered = covered

    def __init__(
        self,
        table: Playing,
        names_key: str = "",
        over_keys: str = OVER_KEYS,
        pauses: bool = True,
        viewer: bool = False,
    ) -> None:
        super().__init__(id="game")
        self._compositor = CellsCompositor()  # a key writes only the cells it changed
        self.table = table
        self.names_key = names_key  # offered on the opening banner ("" for none)
        self.over_keys = over_keys  # offered on the game-over banner (the app's mode's)
        self.pauses = pauses  # the header offers the pause key (a seat cannot pause)
        self.viewer = viewer  # no game keys: the banner says what the players do
        self.views: list[SceneView] = []
        self.bell: Bell | None = None  # the settings' bell, if it rings for anything
        self.still = False  # reduced motion: no highlights, a still countdown (app/cues.py)
        self.notes = Notes()  # the app's own lines on its game (SpitApp.show_notes)

    def shown_table(self) -> Playing | None:
        return self.table

    def compose(self) -> ComposeResult:
        scene = self.table.scene()
        header = HeaderBar(scene, self.table.clock, id="header")
        header.pauses = self.pauses
        banner = Banner(scene, id="banner")
        banner.names_key = self.names_key
        banner.over_keys = self.over_keys
        banner.viewer = self.viewer
        with Box(classes="frame"):
            yield header
            yield banner
        yield BoardView(scene, id="board", classes="board")
        with Box(classes="frame", id="scoreboard-box"):
            yield Scoreboard(scene, id="scoreboard")

    def on_mount(self) -> None:
        self.views = list(self.query(SceneView))
        self.sync()

    def sync(self) -> None:
        """Draw the table as it is now: one Scene for every widget (and the
        bell's ear: app/cues.py)."""
        scene = self.notes.over(self.table.scene())
        if self.still:
            scene = still(scene)
        if self.bell is not None:
            self.bell.saw(scene)
        for v in self.views:
            v.show(scene)

    def on_screen_resume(self) -> None:
        self.post_message(self.Covered(False))
        self.sync()

    def on_screen_suspend(self) -> None:
        self.post_message(self.Covered(True))


PAUSE_KEY, PAUSE_LABEL = "space", "Space"
TOO_SMALL_ID = "too-small"  # dialogs.TooSmallScreen's id: the app finds it by this
