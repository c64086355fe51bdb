"""What a player can set, in one table: each setting's key in config.toml, its
default, its flag and environment variable where it has one, and how a value
is checked (from the file: a TOML value; from a flag or a variable: text).

The resolver (settings/resolve.py) reads this table and nothing else, so a new
setting is one `Setting` line here and one field of `Settings`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from spit_tui import look

BELL_EVENTS = ("lost-race", "spit", "slap")  # what the bell can ring for
BELL_WORDS = {"lost-race": "a lost race", "spit": "the call to spit", "slap": "the slap"}
VARIANTS = ("standard", "points")
MAX_TARGET = 10_000
DEFAULT_THEME = "textual-dark"
# the look's values are spit_tui/look.py's
SUITS = look.SUITS
CARD_SIZES = look.CARDS
PALETTE_NAMES = look.PALETTE_NAMES
DEFAULT_PALETTE = look.DEFAULT_PALETTE.name


class Refused(ValueError):
    """A value a setting cannot take; str() says why, in a player's words."""


def _quoted(value: object) -> str:
    from spit_tui.command import shown

    return repr(shown(value)) if isinstance(value, str) else shown(repr(value))


def one_of(choices: tuple[str, ...]) -> Callable[[object], str]:
    def check(value: object) -> str:
        if not isinstance(value, str) or value not in choices:
            raise Refused(f"{_quoted(value)} is not one of {', '.join(choices)}")
        return value

    return check


def theme(value: object) -> str:
    from spit_tui.app.themes import theme_names  # here: only a start with a theme set needs it

    if not isinstance(value, str) or value not in theme_names():
        raise Refused(
            f"{_quoted(value)} is not a theme the game has "
            "(such as spit-light, textual-light, ansi-dark; Ctrl+P, Theme lists them all)"
        )
    return value


palette = one_of(PALETTE_NAMES)  # a palette's name (spit_tui/look.py)


def boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise Refused(f"{_quoted(value)} is not true or false")
    return value


def bool_text(text: str) -> bool:
    word = text.strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off", ""):
        return False
    raise Refused(f"{_quoted(text)} is not true or false (1, 0, yes, no)")


def animations(text: str) -> bool:
    """TEXTUAL_ANIMATIONS (Textual's own variable): "none" is reduced motion."""
    word = text.strip().lower()
    if word not in ("none", "basic", "full"):
        raise Refused(f"{_quoted(text)} is not none, basic or full")
    return word == "none"


def bell(value: object) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Refused(f"{_quoted(value)} is not a list, like [\"spit\", \"slap\"]")
    wrong = [v for v in value if v not in BELL_EVENTS]
    if wrong:
        raise Refused(f"{_quoted(wrong[0])} is not one of {', '.join(BELL_EVENTS)}")
    return frozenset(value)


def bell_text(text: str) -> frozenset[str]:
    """SPIT_BELL=spit,slap (or "none")."""
    words = [w.strip() for w in text.split(",") if w.strip()]
    return bell([] if words == ["none"] else words)


def target(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_TARGET:
        raise Refused(f"{_quoted(value)} is not a whole number from 1 to {MAX_TARGET:,}")
    return value


DEFAULT_LEVEL = "normal"


def level(value: object) -> str:
    """A level's name from config.toml. The default is a level as written
    (a test checks the ladder's own check agrees), so a config.toml that keeps
    it starts without loading the ladder, which builds every rung."""
    if value == DEFAULT_LEVEL:
        return DEFAULT_LEVEL
    import argparse

    from spit_tui.command import level_argument

    if not isinstance(value, str):
        raise Refused(f"{_quoted(value)} is not a level's name")
    try:
        return level_argument(value)
    except argparse.ArgumentTypeError as e:
        raise Refused(str(e)) from None


class Setting(NamedTuple):
    """One setting: `key` in config.toml (and the field of `Settings`)."""

    key: str
    default: Any
    check: Callable[[object], Any]  # a value read from config.toml -> the value; Refused
    label: str  # what the settings screen and `spit-tui settings --show` call it
    flag: str | None = None  # the command line's option that sets it, if any
    env: str | None = None  # the environment variable that sets it, if any
    text: Callable[[str], Any] | None = None  # the variable's text -> the value (else `check`)


SETTINGS: tuple[Setting, ...] = (
    Setting("theme", DEFAULT_THEME, theme, "Theme", "--theme", "TEXTUAL_THEME"),
    Setting("palette", DEFAULT_PALETTE, palette, "Player colours", "--palette", "SPIT_PALETTE"),
    Setting("suits", "two", one_of(SUITS), "Four-colour suits", "--suits", "SPIT_SUITS"),
    Setting("cards", "auto", one_of(CARD_SIZES), "Card size", "--cards", "SPIT_CARDS"),
    Setting("marks", False, boolean, "Markers ◂ ▸", "--marks", "SPIT_MARKS", text=bool_text),
    Setting("bell", frozenset(), bell, "Bell", env="SPIT_BELL", text=bell_text),
    Setting(
        "reduced_motion", False, boolean, "Reduced motion",
        env="TEXTUAL_ANIMATIONS", text=animations,
    ),
    Setting("variant", "standard", one_of(VARIANTS), "Variant", "--variant"),
    Setting("target", 100, target, "Points target", "--target"),
    Setting("level", DEFAULT_LEVEL, level, "Computer level", "--level"),
)  # fmt: skip
BY_KEY: Mapping[str, Setting] = {s.key: s for s in SETTINGS}


class Settings(NamedTuple):
    """The settings in force (see `resolve`): one value per `Setting`, and where
    each came from ("--theme", "TEXTUAL_THEME", "config.toml", "default"). Two
    are equal when their values are: where they came from is left out."""

    theme: str = DEFAULT_THEME
    palette: str = DEFAULT_PALETTE
    suits: str = "two"
    cards: str = "auto"
    marks: bool = False
    bell: frozenset[str] = frozenset()
    reduced_motion: bool = False
    variant: str = "standard"
    target: int = 100
    level: str = DEFAULT_LEVEL
    sources: Mapping[str, str] = MappingProxyType({})

    def __eq__(self, other: object) -> bool:
        if type(other) is Settings:
            return self[:-1] == other[:-1]
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if type(other) is Settings:
            return self[:-1] != other[:-1]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self[:-1])

    def source(self, key: str) -> str:
        return self.sources.get(key, "default")

    def rings(self, event: str) -> bool:
        """Whether the bell rings for `event` (one of BELL_EVENTS)."""
        return event in self.bell


def toml_value(value: object) -> object:
    """A setting's value as config.toml holds it (a bell is a list)."""
    return sorted(value, key=BELL_EVENTS.index) if isinstance(value, frozenset) else value
