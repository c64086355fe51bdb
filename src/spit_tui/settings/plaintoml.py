"""config.toml as the game writes it, read without tomllib (whose import and
patterns cost a start about 3 ms): `plain(text)` takes the few line shapes the
writer (tomli-w) gives a file of settings, and nothing else:

    # a comment
    key = "a string without quote, backslash or control characters"
    key = true            (or false)
    key = 42              (0, or a whole number without leading zeros)
    key = []
    key = [
        "a string",
    ]

and blank lines. Anything else (a table, another kind of value, a comment after
a value, a key given twice, CR line ends...) gives None, and the caller reads the
file with tomllib, which reads all of TOML and says what is wrong. Whatever
`plain` reads, tomllib reads as the same table (a test holds it to that).
"""

from __future__ import annotations

from typing import Any

_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_MAX_DIGITS = 18  # a setting's number is small; longer ones are tomllib's to read


def plain(text: str) -> dict[str, Any] | None:
    """The table of `text` if every line has one of the shapes above, else None."""
    table: dict[str, Any] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line or line[0] == "#":
            if not _comment_ok(line):
                return None
            continue
        key, eq, value = line.partition(" = ")
        if not eq or not key or not _KEY_CHARS.issuperset(key) or key in table:
            return None
        if value == "[":  # the writer's array: one string a line, then "]"
            items: list[str] = []
            while i < len(lines) and lines[i] != "]":
                item = lines[i]
                i += 1
                if not (item.startswith("    ") and item.endswith(",")):
                    return None
                got = _string(item[4:-1])
                if got is None:
                    return None
                items.append(got)
            if i == len(lines):
                return None
            i += 1
            table[key] = items
            continue
        got_value = _value(value)
        if got_value is None:
            return None
        table[key] = got_value
    return table


def _comment_ok(line: str) -> bool:
    """A comment line holds no control character but a tab (TOML's rule)."""
    return all(c == "\t" or (c >= " " and c != "\x7f") for c in line)


def _value(text: str) -> object | None:
    if text == "true":
        return True
    if text == "false":
        return False
    if text == "[]":
        return []
    if text[:1] == '"':
        return _string(text)
    digits = text[1:] if text[:1] == "-" else text
    if (
        digits.isascii()
        and digits.isdigit()
        and len(digits) <= _MAX_DIGITS
        and (digits == "0" or digits[0] != "0")
    ):
        return int(text)
    return None


def _string(text: str) -> str | None:
    """A basic string with nothing to unescape, else None."""
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        return None
    inner = text[1:-1]
    if '"' in inner or "\\" in inner:
        return None
    if any(c < " " or c == "\x7f" for c in inner):
        return None
    return inner
