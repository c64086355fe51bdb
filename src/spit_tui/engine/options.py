"""Rules options: which game is being played (fixed for a whole game)."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Variant(StrEnum):
    STANDARD = "standard"  # R19: first to get rid of every card
    POINTS = "points"  # R20/D10: rounds scored until someone reaches the target


class Options(NamedTuple):
    variant: Variant = Variant.STANDARD
    target: int = 100
    manual_flip: bool = False  # D3: reveal is a separate Flip action
