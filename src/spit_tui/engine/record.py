"""Game records (like PGN): tags, then the action log, each action optionally
stamped with when it was made and by whom.

    [Variant "standard"]
    [Target "100"]
    [ManualFlip "no"]
    [Seed "7"]
    [Left "ANN"]
    [Position "..."]
    R1a@1.204k R2>1@2.011k L!@3.5c

- A tag's text is ASCII: any other character (a player's name may have
  them: "Zoë") is written `\\u00eb` (`\\U0001xxxx` beyond four digits) and
  read back as the character; an escape of a character that is not
  printable is an error.
- The four option tags come first, always; other tags (player names, date,
  result: whatever the writer wants kept) follow in the order given; the
  optional `[Position "..."]` (the start, when not a fresh deal) is last.
- An action token is the action's notation (`L3a`), optionally followed by
  `@SECONDS` and a source letter: the game-clock time since the game began
  (play time: pauses do not count; at most three decimals, so times are kept
  in whole milliseconds) and `k` for a key press or `c` for the computer.
  A record without stamps is as before, 16 actions a line; with stamps, 8.

This one file is a bug report, a saved game and the replay format: the seed
(or start position) rebuilds every deal, the actions every position, and the
stamps the pace at which it was played.

`Record.walk` is the one traversal of a record (python-chess's visitor idea,
as a generator): it applies each action to the record's own game and yields a
`Step` (the position before, the event, the time); resume, replay, the
figures and `--position @FILE` all read a record through it, and
`Step.lands` holds the one timing rule a record implies (a ready that brought
the spit was stamped when pressed; the cards landed a countdown later).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from enum import StrEnum
from typing import NamedTuple, overload

from .actions import Action
from .errors import NotationError
from .events import Event
from .game import Game
from .loading import check_position
from .notation import (
    ascii_problem,
    format_action,
    format_position,
    parse_action,
    parse_position,
    quoted,
)
from .options import Options, Variant
from .position import Position

# patterns, compiled (and kept by `re`) when a record is first read, not at every start
_TAG = r'\[([A-Za-z0-9_]+) "([^"\n]*)"\]'
_ESCAPE = r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})"
_STAMP = r"([0-9]{1,9})(?:\.([0-9]{1,3}))?([kc])"
OPTION_TAGS = ("Variant", "Target", "ManualFlip", "Seed")
RESERVED_TAGS = frozenset((*OPTION_TAGS, "Position"))


class Source(StrEnum):
    """Who made an action: a key press at this keyboard, or the computer."""

    KEY = "k"
    COMPUTER = "c"


class Stamp(NamedTuple):
    """When an action was made (game-clock milliseconds since the game began) and by whom."""

    ms: int
    source: Source

    @property
    def seconds(self) -> float:
        return self.ms / 1000


_SOURCES = (None, *Source)  # a stamp's source as one byte: 0 is no stamp


class Stamps(Sequence[Stamp | None]):
    """A game's stamps as a table keeps them while the game is played: nine
    bytes an action (milliseconds and a source byte) rather than a Stamp and
    its int each (about 90 bytes), since a host holds every room's game until
    it ends (benchmarks/room_cost.py --memory). Reads give Stamps (or None)."""

    __slots__ = ("_ms", "_src")

    def __init__(self, stamps: Iterable[Stamp | None] = ()) -> None:
        self._ms = array("q")
        self._src = bytearray()
        for s in stamps:
            self.append(s)

    def append(self, s: Stamp | None) -> None:
        self._ms.append(0 if s is None else s.ms)
        self._src.append(0 if s is None else _SOURCES.index(s.source))

    def __len__(self) -> int:
        return len(self._src)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Stamps):
            return self._ms == other._ms and self._src == other._src
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # it grows: no hash

    @overload
    def __getitem__(self, i: int) -> Stamp | None: ...

    @overload
    def __getitem__(self, i: slice) -> list[Stamp | None]: ...

    def __getitem__(self, i: int | slice) -> Stamp | list[Stamp | None] | None:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        source = _SOURCES[self._src[i]]
        return None if source is None else Stamp(self._ms[i], source)


def format_stamp(s: Stamp) -> str:
    whole, frac = divmod(s.ms, 1000)
    t = f"{whole}.{frac:03d}".rstrip("0").rstrip(".")
    return f"@{t}{s.source}"


def parse_stamp(text: str) -> Stamp:
    m = re.fullmatch(_STAMP, text)
    if not m:
        raise NotationError(
            f"{'@' + text!r} is not a time and source like @12.345k (key) or @3.2c (computer)"
        )
    frac = (m[2] or "").ljust(3, "0")
    return Stamp(int(m[1]) * 1000 + int(frac), Source(m[3]))


class Step(NamedTuple):
    """One action of a record, as `Record.walk` applies it."""

    n: int  # the action's place in the log, from 0
    action: Action
    stamp: Stamp | None
    at: float  # seconds since the game began: its stamp's, else the last stamp's before (0)
    before: Position  # the position the action was made in
    event: Event  # what it did (event.position: the position after)

    def lands(self, countdown_s: float) -> float:
        """When the action took effect: a ready that brought the spit was
        stamped when it was pressed, and the cards landed `countdown_s` later
        (the table's countdown); anything else at once."""
        return self.at + countdown_s if self.event.spat else self.at


class Record:
    """A game record: options, seed, optional start position, other tags and the
    action log, with an optional stamp per action."""

    def __init__(
        self,
        *,
        options: Options,
        seed: int | None,
        actions: list[Action],
        start: Position | None = None,
        stamps: Iterable[Stamp | None] | None = None,
        tags: Mapping[str, str] | None = None,
    ) -> None:
        self.options = options
        self.seed = seed
        self.actions = actions
        self.start = start
        self.stamps: list[Stamp | None] = (
            [None] * len(actions) if stamps is None else list(stamps)
        )
        if len(self.stamps) != len(actions):
            raise ValueError(f"{len(actions)} actions but {len(self.stamps)} stamps")
        self.tags: dict[str, str] = dict(tags or {})
        for k, v in self.tags.items():
            if k in RESERVED_TAGS or not re.fullmatch(r"[A-Za-z0-9_]+", k):
                raise NotationError(f"tag {k!r}: not a free tag name")
            if '"' in v or "\n" in v or "\r" in v:
                raise NotationError(f"tag {k}: {v!r} holds a quote or a line break")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return (self.options, self.seed, self.actions, self.start, self.stamps, self.tags) == (
            other.options, other.seed, other.actions, other.start, other.stamps, other.tags,
        )

    __hash__ = None  # type: ignore[assignment]

    def game(self) -> Game:
        """A fresh game at the record's start: its seed's deal, or its position."""
        return Game(options=self.options, seed=self.seed, position=self.start)

    def from_deal(self) -> bool:
        """True when the game began from its seed's own deal (a fair deal), not
        from a position set by hand: only such a game is rated or counted."""
        if self.start is None:
            return True
        if self.seed is None:
            return False
        return Game(options=self.options, seed=self.seed).start == self.start

    def walk(self, game: Game | None = None) -> Iterator[Step]:
        """Apply the actions in turn to `game` (a fresh `self.game()` if None),
        yielding a Step for each. Lazy: stop early to walk only the first n.
        Raises `Refusal` where the log does not fit its start (the steps before
        it have been applied)."""
        game = self.game() if game is None else game
        at = 0.0
        for i, (action, stamp) in enumerate(zip(self.actions, self.stamps, strict=True)):
            before = game.position
            at = at if stamp is None else stamp.seconds
            yield Step(i, action, stamp, at, before, game.apply(action))

    def __repr__(self) -> str:
        return f"Record({len(self.actions)} actions, seed={self.seed}, tags={self.tags})"


def format_record(rec: Record) -> str:
    o = rec.options
    lines = [
        f'[Variant "{o.variant}"]',
        f'[Target "{o.target}"]',
        f'[ManualFlip "{"yes" if o.manual_flip else "no"}"]',
        f'[Seed "{"" if rec.seed is None else rec.seed}"]',
    ]
    lines += [f'[{k} "{tag_text(v)}"]' for k, v in rec.tags.items()]
    if rec.start is not None:
        lines.append(f'[Position "{format_position(rec.start)}"]')
    moves = [
        format_action(a) + ("" if s is None else format_stamp(s))
        for a, s in zip(rec.actions, rec.stamps, strict=True)
    ]
    per_line = 8 if any(s is not None for s in rec.stamps) else 16
    for i in range(0, len(moves), per_line):
        lines.append(" ".join(moves[i : i + per_line]))
    return "\n".join(lines) + "\n"


def tag_text(value: str) -> str:
    """A tag's text as the record writes it: ASCII, each other character escaped."""
    if value.isascii():
        return value
    return "".join(
        ch if ch.isascii() else f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"
        for ch in value
    )


def _unescaped(value: str, n: int) -> str:
    """A tag's text as written, each escape read back as its character."""

    def char(m: re.Match[str]) -> str:
        code = int(m[1] or m[2], 16)
        ch = chr(code) if code <= 0x10FFFF else "\0"
        if not ch.isprintable():
            raise NotationError(f"line {n}: {m[0]} is not a printable character")
        return ch

    return re.sub(_ESCAPE, char, value) if "\\" in value else value


def _token(tok: str) -> tuple[Action, Stamp | None]:
    act, at, stamp = tok.partition("@")
    return parse_action(act), (parse_stamp(stamp) if at else None)


def parse_record(text: str) -> Record:
    """Read a record; an error names the line and what is wrong with it."""
    tags: dict[str, str] = {}
    actions: list[Action] = []
    stamps: list[Stamp | None] = []
    for n, line in enumerate(text.split("\n"), 1):
        problem = ascii_problem(line, " \t\r")  # a record is ASCII, as its positions are
        if problem is not None:
            raise NotationError(f"line {n}: {problem}")
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s.startswith("["):
            m = re.fullmatch(_TAG, s)
            if not m:
                raise NotationError(f"line {n}: {s[:40]!r} is not a tag like [Seed \"1\"]")
            tags[m[1]] = _unescaped(m[2], n)
            continue
        for tok in s.split():
            try:
                action, stamp = _token(tok)
            except NotationError as e:
                raise NotationError(f"line {n}: {e}") from None
            actions.append(action)
            stamps.append(stamp)
    try:
        variant = Variant(tags.get("Variant", "standard"))
    except ValueError:
        raise NotationError(
            f"Variant: {quoted(tags['Variant'])} is not standard or points"
        ) from None
    target_s = tags.get("Target", "100")
    if not re.fullmatch(r"[0-9]{1,9}", target_s) or int(target_s) < 1:
        raise NotationError(f"Target: {quoted(target_s)} is not a positive number")
    flip = tags.get("ManualFlip", "no")
    if flip not in ("yes", "no"):
        raise NotationError(f"ManualFlip: {quoted(flip)} is not yes or no")
    seed_s = tags.get("Seed", "")
    if seed_s and not re.fullmatch(r"-?[0-9]{1,40}", seed_s):
        raise NotationError(f"Seed: {quoted(seed_s)} is not a whole number")
    options = Options(variant=variant, target=int(target_s), manual_flip=flip == "yes")
    try:
        start = parse_position(tags["Position"]) if "Position" in tags else None
        if start is not None:
            check_position(start, options)  # what the record's own options rule out
    except NotationError as e:
        raise NotationError(f"Position: {e}") from None
    return Record(
        options=options,
        seed=int(seed_s) if seed_s else None,
        actions=actions,
        start=start,
        stamps=stamps,
        tags={k: v for k, v in tags.items() if k not in RESERVED_TAGS},
    )


def replay_record(rec: Record) -> Game:
    """The game a record describes, played to its last action; a refusal (as a
    `Refusal`) means the log does not fit its own start."""
    game = rec.game()
    for _ in rec.walk(game):
        pass
    return game
