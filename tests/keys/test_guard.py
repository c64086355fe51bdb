"""The fragment guard (issue 10, items 7 and 8): escape sequences split in
transit never become game keys, and a paste that never ends never freezes
input. Byte streams are split at every offset, on a virtual clock."""

from __future__ import annotations

import pytest
from textual import events
from textual._xterm_parser import XTermParser

from spit_tui.keys.guard import DRAIN_S, ESCAPE_S, FRAGMENT_S, PASTE_S, FragmentGuard
from spit_tui.keys.keymap import US
from spit_tui.keys.terminal import KeyKind, KeyParser, KittyKey, _known


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def run(
    pieces: list[tuple[float, str]], end: float = 3.0
) -> tuple[list[events.Message], FragmentGuard]:
    """Feed (time, text) pieces through a guard, ticking every 10 ms as the
    driver does, and parse what it lets through with Textual's own parser."""
    clock = Clock()
    guard = FragmentGuard(clock, _known)
    parser = KeyParser()  # its kitty fields; the guard under test is fed by hand
    out: list[events.Message] = []
    t = 0.0
    queue = list(pieces)
    while t <= end:
        clock.t = t
        while queue and queue[0][0] <= t + 1e-9:
            passed = guard.feed(queue.pop(0)[1])
            if passed:  # (an empty feed would tell the parser the input ended)
                out += XTermParser.feed(parser, passed)
        text, lone_escape = guard.tick()
        if text:
            out += XTermParser.feed(parser, text)
            if lone_escape:
                parser._timeout_time = 0.0
        out += parser.tick()
        t = round(t + 0.01, 6)
    return out, guard


def game_keys(messages: list[events.Message]) -> list[str]:
    """The keys that would play (a kitty repeat event never does)."""
    return [
        m.key
        for m in messages
        if isinstance(m, events.Key)
        and US.intent_for(m.key, m.character) is not None
        and not (isinstance(m, KittyKey) and m.kind is KeyKind.REPEAT)
    ]


MOUSE = "\x1b[<0;10;5M"  # a mouse press; ";" is a right player's key
CTRL_UP = "\x1b[1;5A"  # "A" is Shift+a, a left player's key
SEQUENCES = [MOUSE, CTRL_UP, "\x1b[59;1:2u", "\x1bOP", "\x1b[M !!", "\x1b[200~q;q\x1b[201~"]


@pytest.mark.parametrize("seq", SEQUENCES)
@pytest.mark.parametrize("gap", [0.05, 0.3, 0.45])
def test_split_escape_sequences_play_nothing(seq: str, gap: float) -> None:
    """Split at every offset with a gap under 0.5 s: no byte of the sequence is a
    game key (split right after ESC, the ESC alone may act as Escape)."""
    for cut in range(1, len(seq)):
        messages, _ = run([(0.0, seq[:cut]), (gap, seq[cut:])])
        assert game_keys(messages) == [], (cut, messages)
        keys = [m.key for m in messages if isinstance(m, events.Key)]
        assert set(keys) <= {"escape", "ctrl+up", "f1", "semicolon"}, (cut, keys)


def test_whole_sequences_still_work() -> None:
    messages, _ = run([(0.0, MOUSE + CTRL_UP + "\x1bOP" + "q")])
    kinds = [type(m).__name__ for m in messages]
    assert "MouseDown" in kinds
    assert [m.key for m in messages if isinstance(m, events.Key)] == ["ctrl+up", "f1", "q"]


def test_keys_after_a_split_sequence_still_play() -> None:
    messages, _ = run([(0.0, "\x1b[<0;10"), (0.2, ";5M"), (0.3, "q")])
    assert game_keys(messages) == ["q"]


def test_a_fragment_left_unfinished_is_dropped_after_half_a_second() -> None:
    messages, guard = run([(0.0, "\x1b[<0;10;5"), (0.3, "")], end=1.0)
    assert game_keys(messages) == []
    assert guard.dropped == ["\x1b[<0;10;5"]
    assert not guard.holding


def test_beyond_half_a_second_the_rest_arrives_as_typed() -> None:
    """Documented limit: the fragment is dropped, and bytes arriving later than
    FRAGMENT_S are what they look like (here "M", Shift+m)."""
    messages, _ = run([(0.0, "\x1b[<0;10;5"), (FRAGMENT_S + 0.2, "M")])
    assert game_keys(messages) == ["M"]


def test_escape_key_alone_is_still_escape() -> None:
    messages, _ = run([(0.0, "\x1b")], end=0.5)
    keys = [m.key for m in messages if isinstance(m, events.Key)]
    assert keys == ["escape"]


def test_unterminated_paste_is_dropped_and_input_resumes() -> None:
    """Item 7: ESC [ 200 ~ qqqq and no end: within PASTE_S + DRAIN_S, keys work again."""
    resume = PASTE_S + DRAIN_S + 0.1
    messages, guard = run([(0.0, "\x1b[200~qqqq"), (resume, "\x11"), (resume + 0.1, "q")])
    keys = [m.key for m in messages if isinstance(m, events.Key)]
    assert keys == ["ctrl+q", "q"]
    assert not guard.holding


def test_a_whole_paste_plays_nothing() -> None:
    text = "qwerty;" * 700  # 4,900 characters
    messages, _ = run([(0.0, "\x1b[200~" + text + "\x1b[201~q")])
    assert game_keys(messages) == ["q"]


def test_unknown_and_overlong_sequences_never_swallow_keys() -> None:
    """Textual keeps an unknown sequence open (reading the keys after it) and
    reissues it all as keys: the guard drops it and the key after it plays."""
    messages, guard = run([(0.0, "\x1b[?62;22cq" + "\x1b[" + "1;" * 40 + "Hq")])
    assert game_keys(messages) == ["q", "q"]
    assert "\x1b[?62;22c" in guard.dropped


def test_kitty_query_answer_is_kept_not_parsed() -> None:
    messages, guard = run([(0.0, "\x1b[?31uq")], end=0.2)
    assert guard.kitty_flags == 31
    assert game_keys(messages) == ["q"]


def test_timing_constants_are_the_documented_ones() -> None:
    assert (ESCAPE_S, FRAGMENT_S, PASTE_S) == (0.1, 0.5, 1.0)
