"""Key names as Textual gives them, computed without importing Textual."""

from __future__ import annotations

import unicodedata

# Textual's shorter names for a few characters (textual.keys.KEY_NAME_REPLACEMENTS).
_REPLACED = {
    "solidus": "slash",
    "reverse_solidus": "backslash",
    "commercial_at": "at",
    "hyphen_minus": "minus",
    "plus_sign": "plus",
    "low_line": "underscore",
}


def key_name(ch: str) -> str:
    """Textual's name for the key that types `ch` (as `textual.keys` derives it:
    a test checks the two agree for every preset key)."""
    if ch.isalnum():
        return ch
    try:
        name = unicodedata.name(ch).lower().replace("-", "_").replace(" ", "_")
    except ValueError:
        return ch
    return _REPLACED.get(name, name)
