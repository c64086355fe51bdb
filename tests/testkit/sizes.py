"""The terminal sizes the tests draw at, by name: every screen is checked at
the smallest size the game accepts and at the usual one."""

from __future__ import annotations

SMALLEST = (80, 24)  # the least the board fits in (app.screens.MIN_W, MIN_H)
STANDARD = (100, 30)  # a usual terminal window
WIDE = (120, 40)  # room to spare: nothing may stretch oddly
TOO_SMALL = (60, 20)  # the game waits and asks for a bigger window

SIZES = {"smallest": SMALLEST, "standard": STANDARD, "wide": WIDE, "too small": TOO_SMALL}
