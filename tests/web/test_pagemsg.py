"""A page's websocket messages (spit_tui.web.pagemsg): what textual.js sends
passes, anything else is refused with a reason and never raises otherwise."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spit_tui.web.pagemsg import MAX_TEXT, BadPageMessage, page_message, start_size


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('["stdin", "q"]', ("stdin", "q")),
        ('["stdin", "\\u001b[A"]', ("stdin", "\x1b[A")),
        ('["resize", {"width": 122, "height": 29}]', ("resize", (122, 29))),
        ('["ping", "1733051234567"]', ("ping", "1733051234567")),
        ('["blur"]', ("blur", None)),
        ('["focus"]', ("focus", None)),
    ],
)
def test_what_textual_js_sends_passes(text: str, expected: tuple[str, object]) -> None:
    assert page_message(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "{}",
        "[]",
        "[5]",
        '["stdin"]',
        '["stdin", 5]',
        '["stdin", "q", "w"]',
        '["resize"]',
        '["resize", {"width": "x", "height": 5}]',
        '["resize", {"width": 100000, "height": 100000}]',
        '["resize", {"width": 0, "height": 24}]',
        '["resize", {"width": 80.0, "height": 24}]',
        '["resize", {"width": true, "height": 24}]',
        '["resize", {"width": 80, "height": 24, "depth": 3}]',
        '["ping", {"a": 1}]',
        '["blur", 1]',
        '["exec", "rm"]',
        "[" * 100_000,
        json.dumps(["stdin", "q" * (MAX_TEXT + 1)]),
    ],
)
def test_anything_else_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(BadPageMessage) as e:
        page_message(text)
    assert "\n" not in str(e.value) and len(str(e.value)) < 200


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@given(st.one_of(st.text(max_size=200), JSONISH.map(json.dumps)))
def test_any_message_is_a_known_one_or_a_refusal(text: str) -> None:
    try:
        kind, data = page_message(text)
    except BadPageMessage:
        return
    assert kind in ("stdin", "resize", "ping", "blur", "focus")
    if kind == "resize":
        w, h = data
        assert type(w) is int and type(h) is int and w >= 1 and h >= 1


def test_the_start_size_of_a_game() -> None:
    assert start_size("100", "30") == (100, 30)
    assert start_size(None, None) == (80, 24)
    for w, h in (("100000", "30"), ("-1", "30"), ("1e3", "30"), ("0", "0"), ("\uff19\uff19", "30")):
        with pytest.raises(BadPageMessage):
            start_size(w, h)
