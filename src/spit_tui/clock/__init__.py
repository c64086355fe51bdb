"""The one game-clock abstraction: everything timed is scheduled here.

The engine never reads time. The app runs the game on a `RealClock`
(`time.monotonic()` less the time paused), ticked from a Textual timer; tests,
headless matches and bot simulations use `VirtualClock`, which jumps straight
to the next scheduled event, so simulated seconds cost nothing. Both pause the
same way (`pause(reason, on)`): while paused, nothing runs and time stands still.
A `Stopwatch` on that time counts play only (the round clock).
"""

from .real import RealClock
from .scheduler import GameClock, Handle, VirtualClock
from .stopwatch import Stopwatch, clock_text

__all__ = ["GameClock", "Handle", "RealClock", "Stopwatch", "VirtualClock", "clock_text"]
