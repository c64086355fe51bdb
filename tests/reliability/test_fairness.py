"""Fairness (issue 6): both players press for the same spit pile within a
millisecond, in random order, through the app's real key path (bytes parsed by
Textual and handed to the driver in one read, as a terminal delivers two keys
pressed together). Exactly one card is played each time, always the one whose
key arrived first; the other is refused as too late. The split of wins must
mirror the send order: neither half of the keyboard is favoured.

SPIT_FAIR_RACES=N changes the number of races (default 250). A race is one of
eight key pairs (pile a or b, who sends first, Caps Lock or not), each met 15 to
50 times in 250; the default was 1,000, 22 s of an idle machine.
"""

from __future__ import annotations

import os
import random

from testkit.app import make_app
from testkit.board import DriverInput, flush

from spit_tui.clock import VirtualClock
from spit_tui.engine import Game, Phase, Player, complete_position, parse_position
from spit_tui.keys.intent import Row
from spit_tui.keys.keymap import US
from spit_tui.table import Outcome

# Both can play slot 1 onto either pile: the left's 7h and the right's 9d on 8s / 8h.
RACE = "play 1 two - :7h/4c:Kc/-/-/- TcTd 8s/8h :9d/5s:Kd/-/-/- 2h2d 0,0"
RACES = int(os.environ.get("SPIT_FAIR_RACES", "250"))


async def test_simultaneous_presses_first_key_wins_and_no_half_is_favoured() -> None:
    start = complete_position(parse_position(RACE, check=False))
    app = make_app(start)
    rng = random.Random(6)
    sent_first = {Player.LEFT: 0, Player.RIGHT: 0}
    won = {Player.LEFT: 0, Player.RIGHT: 0}
    async with app.run_test(size=(100, 30)) as pilot:
        feed = DriverInput(app)
        table = app.table
        clock = table.clock
        assert isinstance(clock, VirtualClock)
        for i in range(RACES):
            clock.advance(table.gate.repeat_s * 2)  # a fresh press, not a held key's repeat (D13)
            table.new_game(Game(position=start))
            pile = rng.randrange(2)
            row = Row.PILE_A if pile == 0 else Row.PILE_B
            first = rng.choice([Player.LEFT, Player.RIGHT])
            keys = US.key_for(first, row, 0) + US.key_for(first.other, row, 0)
            if rng.randrange(4) == 0:
                keys = keys.upper()  # Caps Lock on: the same keys
            n = len(table.decisions)
            before = len(table.position.piles[pile])
            await feed.send(pilot, keys)
            a, b = list(table.decisions)[n:]
            assert table.position.phase is Phase.PLAY
            assert len(table.position.piles[pile]) == before + 1, f"race {i}: {keys!r}"
            assert len(table.position.piles[1 - pile]) == 1
            assert (a.player, a.outcome) == (first, Outcome.APPLIED), (i, keys, a)
            assert (b.player, b.outcome) == (first.other, Outcome.LOST_RACE), (i, keys, b)
            assert b.message.startswith("too late")
            played = table.position.pile_top(pile)
            assert str(played) == ("7h" if first is Player.LEFT else "9d")
            sent_first[first] += 1
            won[a.player] += 1
        await flush(pilot)
    assert won == sent_first
    print(
        f"\nFAIRNESS: {RACES} races; left first {sent_first[Player.LEFT]}, won "
        f"{won[Player.LEFT]}; right first {sent_first[Player.RIGHT]}, won {won[Player.RIGHT]}"
    )
