"""Suite-wide options: tests marked `slow` (fuzz, soak, real terminal) run only
with --run-slow. Every test gets its own user directories (XDG variables), so
no test reads or writes a real user's config, history or saved games, and
SPIT_LAYOUT=us, so no game a test starts waits at the first-run check.
The app tests' kits (tests/app: appkit, tmuxkit) are importable from every
test folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_APP_TESTS = str(Path(__file__).resolve().parent / "app")
if _APP_TESTS not in sys.path:
    sys.path.insert(0, _APP_TESTS)

XDG_VARS = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow", action="store_true", default=False, help="also run tests marked slow"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the user directories at a fresh temporary folder for each test."""
    root = tmp_path_factory.mktemp("userdirs")
    for var in XDG_VARS:
        monkeypatch.setenv(var, str(root / var.lower()))
    # A game started by a test never stops at the first-run keyboard check
    # (tests of that check take the variable away).
    monkeypatch.setenv("SPIT_LAYOUT", "us")
    return root
