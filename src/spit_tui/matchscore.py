"""A match: first to N games (`--match N`), the score kept game by game.

Pure (no Textual, no clock): the app counts each finished game into it and
shows its line; the history stores each game with its match (the first
game's id names the match), and ratings count every game on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spit_tui.engine import Player

MAX_FIRST_TO = 99


@dataclass
class MatchScore:
    first_to: int
    number: int = 1  # this session's match number (the history's writer maps it to an id)
    wins: list[int] = field(default_factory=lambda: [0, 0])
    games: int = 0  # finished games, a game nobody won included

    def __post_init__(self) -> None:
        if not 1 <= self.first_to <= MAX_FIRST_TO:
            raise ValueError(f"a match is first to 1-{MAX_FIRST_TO} games, not {self.first_to}")

    def add(self, winner: Player | None) -> None:
        """A finished game (after the match is won, nothing more counts)."""
        if self.over:
            return
        self.games += 1
        if winner is not None:
            self.wins[winner] += 1

    @property
    def winner(self) -> Player | None:
        for p in Player:
            if self.wins[p] >= self.first_to:
                return p
        return None

    @property
    def over(self) -> bool:
        return self.winner is not None

    def next(self) -> MatchScore:
        """The match after this one: the same length, a new number, no wins."""
        return MatchScore(self.first_to, self.number + 1)

    def line(self, names: tuple[str, str]) -> str:
        """"match ANN 2 : 1 BO, first to 3", or "ANN wins the match 3 : 1"
        (names left out where they would make the line too long)."""
        left, right = names
        score = f"{self.wins[0]} : {self.wins[1]}"
        w = self.winner
        if w is not None:  # the winner's games first
            won = f"{self.wins[w]} : {self.wins[w.other]}"
            full = f"{names[w]} wins the match {won}"
            return full if len(full) <= 36 else f"match over: {score}"
        full = f"match {left} {score} {right}, first to {self.first_to}"
        return full if len(full) <= 40 else f"match {score}, first to {self.first_to}"
