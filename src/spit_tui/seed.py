"""Where a game's seed comes from when the player gives none: the system's
randomness, so nobody can guess the deal, and the seed is kept with the game,
so every game can be replayed. (Here, not in the store: a game that is not
stored needs one too, and the store loads only once the board is up.)"""

from __future__ import annotations

import random

_SYSTEM = random.SystemRandom()  # os.urandom, as the secrets module uses


def fresh_seed() -> int:
    """A seed for a game the player gave none (32 bits)."""
    return _SYSTEM.getrandbits(32)
