"""Key storm (issue 6): two excited players mash both halves of the keyboard, with
junk in between, through the real driver path while a seeded game runs. After
every burst: no exception, the engine's invariants hold, every game key got
exactly one decision, and the board read back from the rendered screen matches
the engine's position.

What the storm sends, per burst (bytes as a terminal sends them, parsed by
Textual's XTermParser and handed to the driver):

- junk (0-60% of a burst, drawn per burst): arrows, Ctrl+arrows, F2-F12,
  Home/End/PgUp/PgDn/Insert/Delete, Tab, Enter, Space, Escape, Ctrl+Z,
  punctuation outside the halves, Unicode letters, mouse clicks, focus in/out, a bracketed paste
  of a paragraph full of game letters (one Paste event: it must play nothing),
  and now and then F1 or Backspace (help opens over the board; the players
  close it with Escape before the board is checked);
- never Ctrl+Q or Ctrl+C inside a burst: they open the quit dialog, where the
  next Enter would quit. Instead some bursts are quit probes: Ctrl+Q or Ctrl+C,
  a few keys (none of them Enter), Escape; the dialog must come and go and the
  game must not change underneath;
- board keys (the rest): mostly moves that are legal when their turn comes
  (so games move through every phase), the rest any of the 40 game keys,
  one in eight in upper case (Caps Lock).

The default run (CI) is derandomized and database-free: about 20,000 keys.
The long test (--run-slow) sends 200,000; SPIT_STORM_KEYS=N sets its length
(and can shorten the default run for a quick look).
"""

from __future__ import annotations

import asyncio
import os
import random
import time

import pytest
from appkit import key_for_action, make_app
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from relkit import DriverInput, board_problems, flush, invariants, read_board
from textual import events
from textual.pilot import Pilot

from spit_tui.app import SpitApp
from spit_tui.app.help import HelpScreen
from spit_tui.app.keysetup import KeySetupScreen
from spit_tui.app.screens import GameScreen, QuitScreen
from spit_tui.engine import PLAYERS, Action, Fill, Game, Options, Phase, Position, Variant
from spit_tui.players.keymap import KEYS, intent_for
from spit_tui.table import Table

GAME_KEYS = sorted(KEYS)
PASTE = (
    "\x1b[200~Spit is a quick game: quite wild, very fast, and it favours players "
    "who keep their eyes on the piles.\nqwert asdfg zxcvb yuiop hjkl; nm,./ 12345 67890"
    "\x1b[201~"
)
JUNK = [
    "\x1b[A",
    "\x1b[B",
    "\x1b[C",
    "\x1b[D",  # arrows
    "\x1b[1;5A",
    "\x1b[1;5D",
    "\x1b[1;2C",  # ctrl/shift arrows
    "\x1bOQ",
    "\x1bOR",
    "\x1bOS",
    "\x1b[15~",
    "\x1b[17~",
    "\x1b[18~",
    "\x1b[19~",
    "\x1b[20~",
    "\x1b[21~",
    "\x1b[23~",
    "\x1b[24~",  # F2-F12
    "\x1b[H",
    "\x1b[F",
    "\x1b[5~",
    "\x1b[6~",
    "\x1b[2~",
    "\x1b[3~",
    "\t",
    "\r",
    " ",
    "\x1a",  # Tab, Enter, Space, Ctrl+Z
    "\x1b\x1b[I",  # Escape (then a focus report, so the parser can tell)
    "=",
    "-",
    "[",
    "]",
    "'",
    "\\",
    "`",
    "~",
    "!",
    "@",
    "#",
    "é",
    "ß",
    "Ж",
    "ñ",
    "日",
    "本",
    "Ω",
    "ç",
    "ü",
    "€",
    "\x1b[<0;12;9M\x1b[<0;12;9m",
    "\x1b[<2;40;12M\x1b[<2;40;12m",  # clicks
    "\x1b[I",
    "\x1b[O",  # focus in/out
    PASTE,
]
HELP_KEYS = ["\x1bOP", "\x7f"]  # F1, Backspace
QUIT_KEYS = ["\x11", "\x03"]  # Ctrl+Q, Ctrl+C
CLOSE = "\x1b\x1b[I"  # Escape, as a terminal sends it when typed on its own

DEFAULT_KEYS = 20_000
LONG_KEYS = 200_000
BURSTS = 25  # per example; a burst is 20-80 keys or tokens
SEEN: dict[str, float] = {"keys": 0, "bursts": 0, "seconds": 0.0, "new_games": 0, "rounds": 0}


def _keyable(pos: Position, a: Action) -> bool:
    if isinstance(a, Fill):
        slots = pos.sides[a.player].slots
        return a.dst == next(i for i, s in enumerate(slots) if not s.cards)
    return True


def make_burst(table: Table, rng: random.Random, size: int, junk: int) -> tuple[str, bool]:
    """`size` tokens; `junk` percent of them junk. Returns the bytes and whether
    a help key is in it (then the exact decision count is not checked).

    Most board keys are moves that are legal when their turn comes, judged on a
    copy of the game that follows the burst's own plays (it stops following at
    a spit or a slap, which the table times), so games go through every phase."""
    sim = Game(options=table.game.options, position=table.position)
    out = []
    helped = False
    for _ in range(size):
        r = rng.randrange(100)
        if r < junk:
            if rng.randrange(60) == 0:
                out.append(rng.choice(HELP_KEYS))
                helped = True
            else:
                out.append(rng.choice(JUNK))
            continue
        pos = sim.position
        legal = [a for p in PLAYERS for a in sim.legal_actions(p) if _keyable(pos, a)]
        if pos.phase is Phase.OVER and r < junk + (100 - junk) // 5:
            out.append("\r")  # Enter: a new game (once the guard has passed)
        elif legal and r < junk + (100 - junk) * 4 // 5:
            a = rng.choice(legal)
            out.append(key_for_action(a))
            if pos.phase is Phase.PLAY:
                sim.apply(a)
        else:
            k = rng.choice(GAME_KEYS)
            out.append(k.upper() if rng.randrange(8) == 0 else k)
    return "".join(out), helped


def game_keys_in(parsed: list[object]) -> int:
    return sum(
        1
        for m in parsed
        if isinstance(m, events.Key) and intent_for(m.key, m.character) is not None
    )


async def check(app: SpitApp, where: str) -> None:
    assert app.is_running and app._exception is None, where
    table = app.table
    invariants(table.game)
    seen = read_board(app)
    bad = board_problems(seen, table.position)
    assert not bad, f"{where}: screen and engine disagree: {bad}\n{seen.text}"


async def quit_probe(
    app: SpitApp, pilot: Pilot[None], feed: DriverInput, rng: random.Random
) -> None:
    table = app.table
    before = (table.position, len(table.decisions))
    await feed.send(pilot, rng.choice(QUIT_KEYS))
    assert isinstance(app.screen, QuitScreen), app.screen
    noise = "".join(rng.choice([*GAME_KEYS, "\x1b[A", "\t", " ", "é"]) for _ in range(8))
    await feed.send(pilot, noise)
    assert isinstance(app.screen, QuitScreen)
    await feed.send(pilot, CLOSE)
    assert isinstance(app.screen, GameScreen), app.screen
    assert (table.position, len(table.decisions)) == before, "the quit dialog changed the game"


async def storm(seed: int, options: Options, bursts: list[tuple[int, int, int, float]]) -> None:
    app = make_app(seed=seed, options=options)
    async with app.run_test(size=(100, 30)) as pilot:
        feed = DriverInput(app)
        table = app.table
        await feed.send(pilot, "\x1b[I")
        await check(app, "start")
        t0 = time.perf_counter()
        for i, (bseed, size, junk, wait) in enumerate(bursts):
            rng = random.Random(bseed)
            where = f"burst {i}"
            if rng.randrange(30) == 0:
                await quit_probe(app, pilot, feed, rng)
            data, helped = make_burst(table, rng, size, junk)
            n = len(table.decisions)
            parsed = await feed.send(pilot, data)
            keys = sum(1 for m in parsed if isinstance(m, events.Key))
            SEEN["keys"] += keys
            SEEN["bursts"] += 1
            if not helped:
                # one decision per game key; a paste, junk and mouse play nothing
                assert len(table.decisions) - n == game_keys_in(parsed), where
            for _ in range(2):  # help, and the key setup screen that F3 opens from it
                if isinstance(app.screen, HelpScreen | KeySetupScreen):
                    await feed.send(pilot, CLOSE)
            assert isinstance(app.screen, GameScreen), f"{where}: {app.screen}"
            if table.position.phase is not Phase.PLAY or table.counting_down:
                wait = max(wait, 0.7)  # between rounds the players look up
            app.table.clock.advance(wait)  # type: ignore[attr-defined]
            app.tick()
            await flush(pilot)
            await check(app, where)
        SEEN["seconds"] += time.perf_counter() - t0
        SEEN["new_games"] += app._games
        SEEN["rounds"] += table.position.round


def storm_keys(default: int) -> int:
    return int(os.environ.get("SPIT_STORM_KEYS", default))


burst = st.tuples(
    st.integers(0, 2**32 - 1),  # token seed
    st.integers(20, 80),  # tokens in the burst
    st.integers(0, 60),  # percent junk
    st.sampled_from([0.0, 0.05, 0.2, 0.35, 0.7, 1.2, 2.0]),  # seconds to the next burst
)
options = st.builds(
    Options,
    variant=st.sampled_from([Variant.POINTS, Variant.STANDARD]),  # points to 25: games end
    target=st.sampled_from([25, 100]),
    manual_flip=st.booleans(),
)


def run_storm(keys: int) -> None:
    # Examples run until the storm has sent `keys` keys (the first, simplest
    # examples are short); the rest of max_examples then return at once.
    examples = keys // (BURSTS * 20) + 2

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        seed=st.integers(0, 10**6),
        options=options,
        bursts=st.lists(burst, min_size=BURSTS, max_size=BURSTS),
    )
    def one(seed: int, options: Options, bursts: list[tuple[int, int, int, float]]) -> None:
        if SEEN["keys"] >= keys:
            return
        asyncio.run(storm(seed, options, bursts))

    for k in SEEN:
        SEEN[k] = 0
    one()
    rate = SEEN["keys"] / SEEN["seconds"] if SEEN["seconds"] else 0.0
    print(
        f"\nSTORM: {SEEN['keys']} keys in {SEEN['bursts']} bursts, "
        f"{SEEN['seconds']:.1f} s in bursts and checks, {rate:.0f} keys/s; "
        f"{SEEN['new_games']:.0f} new games, {SEEN['rounds']:.0f} rounds reached"
    )
    assert SEEN["keys"] >= keys


def test_key_storm() -> None:
    """About 20,000 keys (SPIT_STORM_KEYS can only make this one shorter)."""
    run_storm(min(storm_keys(DEFAULT_KEYS), DEFAULT_KEYS))


@pytest.mark.slow
def test_key_storm_long() -> None:
    """200,000 keys, or SPIT_STORM_KEYS."""
    run_storm(storm_keys(LONG_KEYS))
