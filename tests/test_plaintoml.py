"""config.toml read without tomllib (settings/plaintoml.py): what it reads,
tomllib reads as the same table; what it does not, it leaves to tomllib."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from spit_tui.settings import SETTINGS, save
from spit_tui.settings.configfile import default_path, load
from spit_tui.settings.fields import toml_value
from spit_tui.settings.plaintoml import plain

_SIMPLE = (
    st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.text(max_size=8)
    | st.lists(st.text(max_size=5), max_size=3)
)
_KEYS = st.text(max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_KEYS, _SIMPLE | st.floats(allow_nan=False), max_size=5))
def test_what_it_reads_of_a_written_table_is_the_table(table: dict[str, Any]) -> None:
    text = tomli_w.dumps(table)
    got = plain(text)
    if got is not None:
        assert got == table == tomllib.loads(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=' =#"\\[],\t\r-_0123456789abtruefals\x7f\x01é', max_size=14)))
def test_any_lines_it_reads_tomllib_reads_alike(lines: list[str]) -> None:
    text = "\n".join(lines)
    got = plain(text)
    if got is not None:
        assert got == tomllib.loads(text)


def test_the_games_own_file_needs_no_parser() -> None:
    every = {s.key: toml_value(s.default) for s in SETTINGS}
    every["bell"] = ["lost-race", "spit", "slap"]
    assert save(every) is None
    text = default_path().read_text("utf-8")
    assert plain(text) == tomllib.loads(text) == every
    assert load().values["bell"] == frozenset(every["bell"])


@pytest.mark.parametrize(
    "text",
    [
        "[table]\n",
        "a = 1 # note\n",
        "a = 1\na = 2\n",  # a key twice: tomllib's error
        "a = 1\r\n",
        "a = 1.5\n",
        "a = 01\n",
        "a = +1\n",
        'a = "x\\ty"\n',
        "a = 'x'\n",
        'a = ["x", "y"]\n',
        'a = [\n    "x",\n',  # no end
        'a = [\n    1,\n]\n',
        "a.b = 1\n",
        " a = 1\n",
        "a=1\n",
        "\ufeffa = 1\n",
    ],
)
def test_anything_else_is_left_to_tomllib(text: str) -> None:
    assert plain(text) is None


def test_a_file_it_leaves_is_still_read_and_its_fault_still_said() -> None:
    path = default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('theme = "nord"  # mine\n', encoding="utf-8")
    assert load().values == {"theme": "nord"}
    path.write_text("theme = nord\n", encoding="utf-8")
    assert load().problem is not None and "not valid TOML" in str(load().problem)
