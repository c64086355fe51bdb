"""Play a whole game through the app with real key presses (posted key events),
choosing moves with a seeded random policy, and record what was seen on the way."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from testkit.app import advance, key_for_action, keyable, press, screen_text
from textual.pilot import Pilot

from spit_tui.app import SpitApp
from spit_tui.engine import PLAYERS, Phase, Play, Player, Slap, format_action
from spit_tui.keys.gate import earliest_reaction
from spit_tui.table import Outcome


@dataclass
class Seen:
    phases: set[Phase] = field(default_factory=set)
    plays_by: set[Player] = field(default_factory=set)
    refused: int = 0
    lost_races: int = 0
    stale_ignored: int = 0
    stuck_spits: int = 0
    rounds_ended: int = 0
    slaps: int = 0
    unequal_round_starts: int = 0
    single_pile_rounds: int = 0
    keys: int = 0
    screens: dict[str, str] = field(default_factory=dict)


async def play_game(
    pilot: Pilot[None], seed: int, *, left_bias: float = 0.7, max_keys: int = 6000
) -> Seen:
    app = pilot.app
    assert isinstance(app, SpitApp)
    table = app.table
    rng = random.Random(seed)
    seen = Seen()
    last_round_seen = 0

    pressed: dict[str, float] = {}

    async def key(ch: str) -> None:
        # A person cannot press one key twice within the D13 repeat window: the
        # same key again waits that long (anything quicker is a held key's repeat).
        last = pressed.get(ch)
        if last is not None and table.clock.now() - last < table.gate.repeat_s:
            await advance(pilot, table.gate.repeat_s + 0.001)
        seen.keys += 1
        await press(pilot, ch)
        pressed[ch] = table.clock.now()

    while seen.keys < max_keys:
        pos = table.position
        game = table.game
        seen.phases.add(pos.phase)
        if pos.round != last_round_seen and pos.phase is Phase.SPIT and not any(pos.piles):
            last_round_seen = pos.round
            if pos.sides[0].total != pos.sides[1].total:
                seen.unequal_round_starts += 1
            if pos.single_pile:
                seen.single_pile_rounds += 1
                if "single" not in seen.screens:
                    seen.screens["single"] = await screen_text(pilot)
            if table.shown.last_round is not None and "summary" not in seen.screens:
                seen.screens["summary"] = await screen_text(pilot)
        if pos.phase is Phase.OVER:
            seen.screens["over"] = await screen_text(pilot)
            break
        if table.counting_down:
            await advance(pilot, table.countdown_left() + 0.01)
            continue
        now = table.clock.now()
        if pos.phase in (Phase.SPIT, Phase.SLAP):
            if pos.phase is Phase.SPIT and any(pos.piles) and not table.shown.stuck_shown:
                await advance(pilot, table.stuck_delay_s + 0.01)
                continue
            if now < table.shown.phase_shown_at + table.gate.stale_s:
                # D13: a key this soon is ignored, with a word to the player.
                p = rng.choice(PLAYERS)
                before = len(table.decisions)
                await key(key_for_action(Slap(p, 0)))
                d = table.decisions[-1]
                assert len(table.decisions) == before + 1
                # "too soon: press again", or "too late" for the slap just lost
                assert d.outcome in (Outcome.IGNORED, Outcome.LOST_RACE), d
                assert d.message.startswith(("too soon", "too late")), d
                seen.stale_ignored += 1
                # past the window by the one margin every bot driver keeps
                shown_at = table.shown.phase_shown_at
                await advance(pilot, earliest_reaction(shown_at, table.gate.stale_s) - now)
                continue
        if pos.phase is Phase.SPIT:
            if any(pos.piles):
                seen.stuck_spits += 1
                if "stuck" not in seen.screens:
                    seen.screens["stuck"] = await screen_text(pilot)
            for p in game.waiting_for():
                await key(key_for_action(game.legal_actions(p)[0]))
            continue
        if pos.phase is Phase.SLAP:
            if "slap" not in seen.screens:
                seen.screens["slap"] = await screen_text(pilot)
            p = Player.LEFT if rng.random() < left_bias else Player.RIGHT
            sizes = [len(x) for x in pos.piles]
            pile = 0 if sizes[0] <= sizes[1] else 1
            await key(key_for_action(Slap(p, pile)))
            seen.slaps += 1
            seen.rounds_ended += 1
            continue
        # play phase
        p = Player.LEFT if rng.random() < left_bias else Player.RIGHT
        legal = [a for a in game.legal_actions(p) if keyable(table, a)]
        if not legal or rng.random() < 0.03:
            # a wrong key: a play that does not fit (or any play when none fits)
            bad = [
                Play(p, s, pile)
                for s in range(5)
                for pile in range(len(pos.piles))
                if not game.can(Play(p, s, pile))
            ]
            if bad:
                rounds_before = len(table.shown.rounds)
                await key(key_for_action(rng.choice(bad)))
                d = table.decisions[-1]
                assert d.outcome in (Outcome.ILLEGAL, Outcome.LOST_RACE), d
                assert table.messages.message(p) is not None
                seen.refused += 1
                if d.outcome is Outcome.LOST_RACE:
                    seen.lost_races += 1
                assert len(table.shown.rounds) == rounds_before
            continue
        plays = [a for a in legal if isinstance(a, Play)]
        action = rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(legal)
        rounds_before = len(table.shown.rounds)
        await key(key_for_action(action))
        d = table.decisions[-1]
        assert d.outcome is Outcome.APPLIED and d.action == format_action(action), (d, action)
        if isinstance(action, Play):
            seen.plays_by.add(p)
        if len(table.shown.rounds) > rounds_before and table.position.phase is not Phase.SLAP:
            seen.rounds_ended += 1
    return seen
