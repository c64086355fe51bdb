"""Every text the game can say fits its place, without rule codes, in plain words.

The texts are not listed by hand: seeded key storms run whole games through a
Table on a virtual clock (standard, points, manual flip; LEFT/RIGHT and
YOU/COMPUTER), pressing mostly keys that act and the rest at random, at every
pace from a burst to a pause, and collect every message beside a player and
every banner line they met. A list of texts the storms must meet keeps them
honest. Each message is then drawn by the app at 80 and 100 columns: it must
sit whole on its player's message line: nothing wraps or is cut.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from rich.text import Text
from testkit.app import key_for_action, make_app

from spit_tui.app.banner import banner
from spit_tui.app.board import CENTRE_W, MESSAGE_W, BoardView
from spit_tui.app.storylines import feed_pieces
from spit_tui.app.walkthrough import PAGES
from spit_tui.clock import VirtualClock
from spit_tui.engine import PLAYERS, Game, Options, Phase, Player, Variant
from spit_tui.keys.keymap import US, KeyMap
from spit_tui.keys.layout import preset, preset_names
from spit_tui.messages import MESSAGE_S
from spit_tui.seats import Seats
from spit_tui.table import Outcome, Table

BANNER_W = 76  # 80 columns less the border and padding
HELP_W = 78  # the help text's width inside its padding
KEY_LIST = sorted(US.keys)
PACES = (0.0, 0.0, 0.01, 0.05, 0.1, 0.15, 0.25, 0.4, 0.8)  # seconds between keys
RULE_CODE = re.compile(r"\b[RD]\d{1,2}\b")
STORMS = [
    (Options(), ("LEFT", "RIGHT")),
    (Options(), ("YOU", "COMPUTER")),
    (Options(variant=Variant.POINTS, target=40), ("COMPUTER", "YOU")),
    (Options(manual_flip=True), ("LEFT", "RIGHT")),
    # the longest names a name may be (names.MAX_CELLS, 20): every banner still fits
    (Options(variant=Variant.POINTS, target=40), ("W" * 20, "Ŵ" * 19 + "M")),
    (Options(), ("Ŵ" * 19 + "M", "W" * 20)),
]
# Texts the storms must meet (as parts of messages), so they cannot quietly miss a kind.
MUST_MEET = [
    "does not go on",
    "too late",
    "played",  # a lost race names the card that won it
    "moving a lone card changes nothing",
    "is empty: nothing to",
    "face down: flip first",
    "ready: waiting for the other player",
    "slap a pile: top or middle row",
    "the game is over",
    "computer's half: use the",
]


def _storm(options: Options, names: tuple[str, str], seed: int, keys: int) -> tuple[
    set[tuple[str, Outcome]], set[str]
]:
    rng = random.Random(seed)
    clock = VirtualClock()
    table = Table(Game(options=options, seed=seed), clock)
    table.seat(Seats(names))
    messages: set[tuple[str, Outcome]] = set()
    banners: set[str] = set()
    viewers = VIEWER_BANNERS
    for _ in range(keys):
        p = rng.choice(PLAYERS)
        legal = table.game.legal_actions(p) if table.position.phase is Phase.PLAY else []
        if legal and rng.random() < 0.6:
            key = key_for_action(rng.choice(legal))
        else:
            key = rng.choice(KEY_LIST)
        d = table.submit_intent(US.keys[key])
        if d.message:
            messages.add((d.message, d.outcome))
        clock.advance(rng.choice(PACES))
        banners.update(line.plain for line in banner(table.scene())[1])
        viewers.update(line.plain for line in banner(table.scene(), viewer=True)[1])
        banners.update(
            "".join(text for text, _ in feed_pieces(e, names)) for e in table.shown.story.feed
        )
        if table.position.phase is Phase.OVER and rng.random() < 0.05:
            clock.advance(2.0)
            table.new_game(Game(options=options, seed=rng.getrandbits(32)))
    return messages, banners


VIEWER_BANNERS: set[str] = set()  # the same banners as a watcher or a replay shows them


def _computer_words() -> set[tuple[str, Outcome]]:
    """What a key of the computer's half says (on either side): the storms
    seat no computer, since it would play that half."""
    out = set()
    for side in PLAYERS:
        table = Table(Game(seed=1), VirtualClock())
        names = ("YOU", "COMPUTER") if side else ("COMPUTER", "YOU")
        table.seat(Seats.of(names, {side: "hard"}))
        d = table.submit_intent(next(i for i in US.keys.values() if i.player is side))
        out.add((d.message, d.outcome))
    return out


def _seat_words() -> set[tuple[str, Outcome]]:
    """What a seat at a host's game says itself, beside its player (the other
    half's key, a key too soon), what a watcher's key says, and what the host's
    room says beside a player (with the longest name): the storms play a
    table, which says none of these."""
    from spit_tui.names import MAX_CELLS
    from spit_tui.net.host import taken_over_words
    from spit_tui.net.remote import RemoteSeat
    from spit_tui.net.room import late_words, rematch_words
    from spit_tui.net.watchcmd import NO_KEYS

    longest = "W" * MAX_CELLS  # a name as long as a name may be
    out = {(NO_KEYS, Outcome.IGNORED), (taken_over_words(longest), Outcome.IGNORED)}
    out |= {(words, Outcome.IGNORED) for words in rematch_words(longest, longest)}
    out.add((late_words(longest, 60_000), Outcome.IGNORED))  # the most a pong waits
    for me in PLAYERS:
        seat = RemoteSeat(me, lambda row, slot: None, VirtualClock(), 0.2)
        for intent in (US.keys["q"], US.keys["p"]):
            d = seat.submit_intent(intent)
            out.add((d.message, d.outcome))
    # the watcher's, the room's four (a seat taken over, a rematch asked, pings
    # answered late), both halves' "use its keys", "too soon"
    assert len(out) == 8, out
    return out


@cache
def storm_texts() -> tuple[set[tuple[str, Outcome]], set[str]]:
    messages: set[tuple[str, Outcome]] = set()
    banners: set[str] = set()
    for i, (options, names) in enumerate(STORMS):
        m, b = _storm(options, names, seed=i + 1, keys=6000)
        messages |= m
        banners |= b
    return messages | _computer_words() | _seat_words(), banners


def test_the_storms_meet_every_kind_of_message() -> None:
    texts = " | ".join(t for t, _ in storm_texts()[0])
    missing = [m for m in MUST_MEET if m not in texts]
    assert not missing, f"the storms never met {missing}"


def test_no_rule_codes_in_what_players_read() -> None:
    messages, banners = storm_texts()
    for text in [t for t, _ in messages] + sorted(banners):
        assert not RULE_CODE.search(text), f"a rule code in {text!r}"
    for page in PAGES:  # the help's page titles may cite rules; its words may not
        for text in (page.text, page.try_line(US)):
            assert not RULE_CODE.search(text), f"a rule code in help: {text!r}"


def test_plain_words_for_players() -> None:
    """Second person for YOU, neutral words for anyone else (no "his", no "YOU wins")."""
    messages, banners = storm_texts()
    help_text = [p.text for p in PAGES] + [p.try_line(US) for p in PAGES]
    for text in [t for t, _ in messages] + sorted(banners) + help_text:
        assert not re.search(r"\b(his|he|him|himself)\b", text, re.I), text
        assert not re.search(r"\bYOU (wins|has|cleared|took)\b", text), text
    assert any("You win" in b for b in banners) or any("COMPUTER wins" in b for b in banners)


def test_banner_lines_fit_the_banner() -> None:
    _, banners = storm_texts()
    assert len(banners) > 20
    for line in banners:
        assert Text(line).cell_len <= BANNER_W, f"{Text(line).cell_len} cells: {line!r}"


def test_a_viewers_banner_never_asks_for_a_game_key() -> None:
    """A watcher or a replay's viewer has no game keys: every banner the
    storms met, as a viewer sees it, says what the players do instead."""
    storm_texts()
    assert len(VIEWER_BANNERS) > 20
    for line in VIEWER_BANNERS:
        assert not re.search(r"\b(press|your half|rows?|F4)\b", line, re.I), line
        assert Text(line).cell_len <= BANNER_W, line
    assert any("both players spit to begin" in line for line in VIEWER_BANNERS)


def test_feed_lines_fit_by_the_piles() -> None:
    _, lines = storm_texts()
    feed = [t for t in lines if "→" in t or "too late" in t or "slapped" in t or "spit!" in t]
    assert any("COMPUTER too late" in t for t in feed) and any("→ b" in t for t in feed)
    for text in feed:
        assert Text(text).cell_len <= CENTRE_W, text


def test_help_lines_fit_the_help() -> None:
    for page in PAGES:
        for line in page.text.splitlines():
            assert len(line) <= HELP_W, line
        for keys in (KeyMap.of(preset(name)) for name in preset_names()):
            line = page.try_line(keys)  # a label is one character on every layout
            assert len("Try it: " + line) <= HELP_W, line


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
async def test_every_message_fits_one_line_beside_its_player(size: tuple[int, int]) -> None:
    messages, _ = storm_texts()
    assert len(messages) > 15
    app = make_app(seed=1, spat=True)
    async with app.run_test(size=size) as pilot:
        board = app.query_one(BoardView)
        table = app.table
        clock = table.clock
        assert isinstance(clock, VirtualClock)
        for text, kind in sorted(messages):
            for p in PLAYERS:
                clock.advance(MESSAGE_S)  # the last message has run out
                table.messages.say(p, text, kind)
                board.show(table.scene())
                lines = [line.text for line in board._get_strips(board.size.width)]
                half = slice(0, MESSAGE_W) if p is Player.LEFT else slice(MESSAGE_W, None)
                line = lines[-1][half]  # the message line: one line, no wrapping
                assert text in line, f"{text!r} does not fit on one line at {size}: {line!r}"
                assert "…" not in line, f"{text!r} was cut at {size}: {line!r}"
        await pilot.pause()

