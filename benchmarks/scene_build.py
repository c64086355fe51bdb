"""CPU per `Table.scene()`: the Scene a screen draws, built on every key and
every repaint (the key path), and by a host's room for every view it sends.

    python benchmarks/scene_build.py [--builds N]

A table 60 seeded random moves into a game, with a word beside one player, a
lit pile and the computer on one half; the best of seven runs of N builds,
in CPU time (time.process_time), so a busy shared machine moves it little.
"""

from __future__ import annotations

import argparse
import random
import time
import timeit

from spit_tui.clock import VirtualClock
from spit_tui.engine import Game, Player
from spit_tui.seats import Seats
from spit_tui.table import Table


def table_in_play(seed: int = 7, moves: int = 60) -> Table:
    clock = VirtualClock()
    t = Table(Game(seed=seed), clock)
    t.seat(Seats.of(("ANN", "COMPUTER"), {Player.RIGHT: "hard"}))
    rng = random.Random(1)
    for _ in range(moves):
        acts = [a for p in Player for a in t.game.legal_actions(p)]
        if not acts:
            break
        t.submit(rng.choice(acts), source="bot")
        clock.advance(0.25)
    t.messages.say(Player.LEFT, "too soon: press again")
    return t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--builds", type=int, default=20_000)
    args = parser.parse_args()
    t = table_in_play()
    runs = timeit.repeat(t.scene, number=args.builds, repeat=7, timer=time.process_time)
    print(f"Table.scene(): {min(runs) / args.builds * 1e6:.2f} us CPU a build")


if __name__ == "__main__":
    main()
