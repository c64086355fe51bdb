"""Command-line front door (placeholder until the app lands)."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    print("spit-tui: the game screen is not built yet; the rules engine is in spit_tui.engine")
    return 0
