"""Reliability tests reuse the app tests' helpers (tests/app/appkit.py)."""

from __future__ import annotations

import sys
from pathlib import Path

_APP_TESTS = str(Path(__file__).resolve().parent.parent / "app")
if _APP_TESTS not in sys.path:
    sys.path.insert(0, _APP_TESTS)
