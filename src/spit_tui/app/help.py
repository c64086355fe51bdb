"""Help on F1: the key map and a walkthrough of the rules, one page per rule
group, each with a live position played with the real keys. The game waits
underneath (the app pauses it while this screen is up)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from spit_tui.app.banner import Banner
from spit_tui.app.board import BoardView
from spit_tui.app.cues import still
from spit_tui.app.screens import LATER_CSS
from spit_tui.app.views import SceneView
from spit_tui.app.walkthrough import PAGES, Page, describe, key_map_text
from spit_tui.engine import Event, Position
from spit_tui.keys.keymap import US, KeyMap
from spit_tui.scene import Scene
from spit_tui.subscription import Subscription
from spit_tui.table import Table

TableFactory = Callable[[Position], Table]
RecordSaver = Callable[[], str]  # saves the game so far; returns the line to show


class HelpScreen(Screen[None]):
    CSS_PATH = LATER_CSS  # read when the first later screen opens
    BINDINGS: ClassVar[list[BindingType]] = [
        # priority: handled in order with the app's own keys (see QuitScreen)
        Binding("escape", "close", "back to the game", show=False, priority=True),
        Binding("right,pagedown,down", "page(1)", "next page", show=False),
        Binding("left,pageup,up", "page(-1)", "previous page", show=False),
        Binding("enter", "reset", "reset the position", show=False),
        Binding("f2", "save_record", "save the game record", show=False),
        Binding("f3", "key_setup", "set up the keys", show=False),
    ]

    def __init__(
        self,
        make_table: TableFactory,
        page: int = 0,
        save_record: RecordSaver | None = None,
        keymap: KeyMap = US,
        waits: bool = True,
        idle_keys: frozenset[str] = frozenset(),
    ) -> None:
        super().__init__(id="help")
        self.waits = waits  # the game stops underneath (not a seat at a host's game)
        self.idle_keys = idle_keys  # the app's own keys that do nothing here: not listed
        self.still = False  # reduced motion: the live boards drawn still (app/cues.py)
        self.make_table = make_table
        self.keymap = keymap  # the players' keys: the key page and every "Try it" name them
        self.save_record = save_record  # F2 on the key page: the game so far, for a bug report
        self.saved = ""  # what the last F2 said (the file's path, or why it failed)
        self.page = page
        self.table: Table | None = None
        self.views: list[SceneView] = []
        self.feedback = ""

    def shown_table(self) -> Table | None:
        """The live page's table: game keys play there, and the app drives its
        clock (real time, not the paused game's) while help is up."""
        return self.table

    def compose(self) -> ComposeResult:
        placeholder = self._placeholder()
        with Vertical(classes="frame"):
            yield Static(id="help-title")
            yield Static(id="help-text")
            with Vertical(id="help-live"):
                yield Banner(placeholder, id="help-banner")
                yield BoardView(placeholder, id="help-board", classes="board", bar=False)
                yield Static(id="help-try")
            yield Static(id="help-nav")

    def _placeholder(self) -> Scene:
        first = next(p for p in PAGES if p.position)
        pos = first.start()
        assert pos is not None
        return self.make_table(pos).scene()

    def on_mount(self) -> None:
        self.views = list(self.query(SceneView))
        self.show_page()

    def show_page(self) -> None:
        page: Page = PAGES[self.page]
        n = len(PAGES)
        title = Text(f" Help {self.page + 1}/{n} · ", "dim")
        title.append(page.title, "bold")
        title.append("   (the game waits)" if self.waits else "   (the game goes on)", "dim")
        self.query_one("#help-title", Static).update(title)
        keys_page = self.page == 0
        body = Text(page.text)
        if keys_page:
            body = Text(page.text + "\n\n") + key_map_text(self.keymap, self.idle_keys)
            if self.saved:
                body.append("\n\n" + self.saved, "bold")
        self.query_one("#help-text", Static).update(body)
        live = self.query_one("#help-live", Vertical)
        pos = page.start()
        self.feedback = ""
        if pos is None:
            self.table = None
            live.display = False
        else:
            self.table = table = self.make_table(pos)
            table.subscribe(Subscription(on_change=self.sync, on_event=self._on_event))
            live.display = True
            scene = table.scene()
            for v in self.views:
                v.show(still(scene) if self.still else scene)
        self.query_one("#help-nav", Static).update(
            Text.assemble(
                ("← →", "bold"), " pages   ",
                ("Enter", "bold"), " reset the position   ",
                ("Esc", "bold"), " or ", ("F1", "bold"), " back to the game",
                style="dim",
            )
        )
        self.sync()

    def _on_event(self, event: Event) -> None:
        self.feedback = describe(event)

    def sync(self) -> None:
        if self.table is None:
            return
        scene = self.table.scene()
        if self.still:  # reduced motion (app/cues.py)
            scene = still(scene)
        for v in self.views:
            v.show(scene)
        page = PAGES[self.page]
        line = Text("Try it: ", "bold")
        line.append(page.try_line(self.keymap))
        if self.feedback:
            line = Text(self.feedback, "green bold")
        self.query_one("#help-try", Static).update(line)

    def use_keys(self, keymap: KeyMap) -> None:
        """The players' keys changed (F3's key setup): name the new ones."""
        self.keymap = keymap
        self.show_page()

    def action_page(self, step: int) -> None:
        self.page = (self.page + step) % len(PAGES)
        self.show_page()

    def action_save_record(self) -> None:
        if self.save_record is None or self.page != 0:
            return
        self.saved = self.save_record()
        self.show_page()

    def action_key_setup(self) -> None:
        from spit_tui.app.keysetup import KeySetupScreen

        self.app.push_screen(KeySetupScreen(self.keymap))

    def action_reset(self) -> None:
        self.show_page()

    def action_close(self) -> None:
        self.dismiss()
