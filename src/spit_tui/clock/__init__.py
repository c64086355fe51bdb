"""The one game-clock abstraction: everything timed is scheduled here.

The engine never reads time. The app drives a `GameClock` from a Textual
interval timer (`tick(time.monotonic())`); tests, headless matches and bot
simulations use `VirtualClock`, which jumps straight to the next scheduled
event, so simulated seconds cost nothing.
"""

from .scheduler import GameClock, Handle, VirtualClock

__all__ = ["GameClock", "Handle", "VirtualClock"]
