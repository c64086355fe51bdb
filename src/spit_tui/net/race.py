"""The contested position fair races are measured on (docs/rules.md, R11).

LEFT's 8h (key row a, slot 1) and RIGHT's Tc (row a, slot 0) both fit on the
9s on pile a, so when both press, exactly one card lands: the one whose key
reached the engine first. The fairness benchmark (benchmarks/fairness.py)
and its tests start each race from here.
"""

from __future__ import annotations

from spit_tui.engine import Game, Player, parse_position
from spit_tui.keys.intent import Row
from spit_tui.table import Table

RACE = (
    "play 1 two - :Kd/8s:8h/8c4h:Qc/Kh7h2h:2c/3c3dQs3h:Jh Ac2sQd6hKc "
    "Qh4d4cJd8dTh9s/5cJsTdJc5h5d :Tc/5s:3s/4s6c:Ah/9hAd9c:Ks/6dTs7c7s:7d 6s9dAs2d 0,0"
)
RACE_TOP = "9s"  # pile a's top before the race
RACE_KEYS = {Player.LEFT: (Row.PILE_A, 1), Player.RIGHT: (Row.PILE_A, 0)}
RACE_CARDS = {Player.LEFT: "8h", Player.RIGHT: "Tc"}


def race_game() -> Game:
    return Game(position=parse_position(RACE), seed=1)


def race_winner(table: Table) -> Player | None:
    """Whose card landed on pile a (None: neither yet)."""
    pile = table.position.piles[0]
    top = str(pile[-1]) if pile else None
    return next((p for p, c in RACE_CARDS.items() if c == top), None)
