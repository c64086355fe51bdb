"""The one key path: arrival order (D5), both halves, Caps Lock, auto-repeat,
stale keys (D13), lost races, the single pile, manual flip."""

from __future__ import annotations

from testkit.app import advance, make_app, post_keys, press, screen_text, settle

from spit_tui.app.board import BoardView
from spit_tui.engine import Options, Phase, Player, format_action
from spit_tui.keys.intent import Row
from spit_tui.keys.keymap import US
from spit_tui.table import Outcome

PLAY = "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0"
RACE = "play 1 two - :7h/4c:Kc/-/-/- TcTd 8s/3c :9d/5s:Kd/-/-/- 2h2d 0,0"
SLAP = "slap 1 two - -/-/-/-/- - 2s3s4s/9d8d7d6d5d4d3d :Kh/:Kc/-/-/- 5c6c 0,0"
SINGLE = "play 3 one:R - :7h/:6c/:Qs/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh 6d6h 0,0"


def test_halves_never_share_a_key_and_cover_every_row() -> None:
    left = set("".join(US.row_keys(Player.LEFT, row) for row in Row))
    right = set("".join(US.row_keys(Player.RIGHT, row) for row in Row))
    assert not left & right
    assert len(US.keys) == 40
    # help keys are outside both halves
    for key, ch in [("f1", None), ("backspace", "\x7f"), ("escape", "\x1b"), ("enter", "\r")]:
        assert US.intent_for(key, ch) is None


def test_caps_lock_and_textual_key_names() -> None:
    assert US.intent_for("Q", "Q") == US.intent_for("q", "q")
    assert US.intent_for("shift+q", "Q") == US.intent_for("q", "q")
    assert US.intent_for("semicolon", ";") == US.intent_for("semicolon", None)
    assert US.intent_for("semicolon", None) is not None


async def test_a_burst_of_interleaved_keys_is_applied_in_arrival_order() -> None:
    """Both players' keys posted in one burst (no await between them) are decided
    strictly in the order they arrived, whatever they are."""
    app = make_app(PLAY)
    burst = list("qyQsYkhaWzn;pHt/")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.table
        start = len(table.decisions)
        post_keys(app, burst)
        await settle(pilot)
        decided = list(table.decisions)[start:]
        assert len(decided) == len(burst)
        for ch, d in zip(burst, decided, strict=True):
            intent = US.intent_for(ch, ch)
            assert intent is not None
            assert d.player is intent.player
            if d.message == "repeat":  # D13: q then Q in one burst is one key held
                assert d.key == ch.lower() and d.outcome is Outcome.IGNORED
                continue
            assert d.action.startswith(intent.player.letter + str(intent.slot + 1))
        repeats = [d.key for d in decided if d.message == "repeat"]
        assert repeats == ["q", "y", "h"]  # Q, Y and H repeat q, y and h: one burst, no time
        assert [d.seq for d in decided] == sorted(d.seq for d in decided)
        # the first two keys were both legal plays: both applied, left first
        assert [d.action for d in decided[:2]] == ["L1a", "R1a"]
        assert decided[0].outcome is Outcome.APPLIED
        # replaying the applied actions in the decided order reproduces the position
        from spit_tui.engine import Game, complete_position, parse_action, parse_position

        g = Game(position=complete_position(parse_position(PLAY, check=False)))
        for d in decided:
            if d.outcome is Outcome.APPLIED:
                g.apply(parse_action(d.action))
        assert g.position == table.position


async def test_a_held_key_repeats_harmlessly() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        cards = sorted(map(str, app.table.position.all_cards()))
        await press(pilot, "q" * 40 + "y" * 40)
        t = app.table
        assert sorted(map(str, t.position.all_cards())) == cards
        applied = [d for d in t.decisions if d.outcome is Outcome.APPLIED]
        assert [d.action for d in applied] == ["L1a"]  # 7♥ on 8♠; then nothing fits
        # D13: 40 of one key at once is a held key: each acts once, the rest are
        # repeats (before the repeat rule: 79 refusals)
        assert t.counts[Outcome.ILLEGAL] + t.counts[Outcome.LOST_RACE] == 1
        assert sum(d.message == "repeat" for d in t.decisions) == 78
        assert len(t.decisions) == 80


async def test_lost_race_is_told_to_the_slower_player() -> None:
    app = make_app(RACE)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "yq")
        t = app.table
        first, second = list(t.decisions)[-2:]
        assert (first.action, first.outcome) == ("R1a", Outcome.APPLIED)
        assert (second.action, second.outcome) == ("L1a", Outcome.LOST_RACE)
        msg = t.messages.message(Player.LEFT)
        assert msg is not None and "too late" in msg.text
        text = await screen_text(pilot)
        assert "too late: RIGHT played 9♦ first" in " ".join(text.split())  # whose card won
        # the message goes away after a moment
        await advance(pilot, 2.0)
        assert t.messages.message(Player.LEFT) is None
        board = app.game_screen.query_one("#board", BoardView).render().plain
        assert "too late" not in board.splitlines()[-1]  # the message line
        assert "LEFT too late" in board  # the feed by the piles keeps the story


async def test_refused_move_reason_shows_beside_its_player() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "w")  # K♠ on 8♠: no
        text = await screen_text(pilot)
        line = next(ln for ln in text.splitlines() if "does not go on" in ln)
        assert line.index("K does not go on 8") < 40  # left half of the screen
        await press(pilot, "u")  # right: Q♦ on 8♠: no
        text = await screen_text(pilot)
        line = next(ln for ln in text.splitlines() if "Q does not go on 8" in ln)
        assert line.index("Q does not go on 8") >= 40


async def test_slap_rows_are_pile_rows_and_stale_slaps_are_ignored() -> None:
    app = make_app(SLAP)
    async with app.run_test(size=(80, 24)) as pilot:
        t = app.table
        await press(pilot, "a")  # at once: D13
        assert t.decisions[-1].outcome is Outcome.IGNORED
        assert "too soon" in t.decisions[-1].message
        assert t.position.phase is Phase.SLAP
        await advance(pilot, 0.31)
        await press(pilot, "h")  # right slaps pile b (the middle row) first
        assert t.decisions[-1].action == "R*b"
        end = t.shown.last_round
        assert end is not None and end.took == (0, 1)
        assert t.position.phase is Phase.SPIT
        text = await screen_text(pilot)
        assert "LEFT took pile a (3)" in text and "RIGHT took pile b (7)" in text


async def test_any_key_of_a_half_means_ready_and_the_countdown_precedes_the_spit() -> None:
    app = make_app(seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        t = app.table
        await advance(pilot, 0.31)
        await press(pilot, "b")  # left: bottom row, still "ready"
        assert t.ready_flags() == (True, False)
        assert "LEFT ✓ ready" in await screen_text(pilot)
        await press(pilot, "8")  # right: number row
        assert t.counting_down
        assert "Spit in" in await screen_text(pilot)
        await press(pilot, "q")  # a play during the countdown does nothing
        assert t.decisions[-1].outcome is Outcome.IGNORED
        await advance(pilot, 0.7)
        assert t.position.phase is Phase.PLAY
        assert all(len(p) == 1 for p in t.position.piles)


async def test_single_pile_both_rows_play_on_the_one_pile() -> None:
    app = make_app(SINGLE)
    async with app.run_test(size=(80, 24)) as pilot:
        t = app.table
        await press(pilot, "a")  # middle row: still the one pile
        assert t.decisions[-1].action == "L1a" and t.decisions[-1].outcome is Outcome.APPLIED
        await press(pilot, "w")  # top row
        assert t.decisions[-1].outcome is Outcome.APPLIED
        assert [str(c) for c in t.position.piles[0]] == ["8s", "7h", "6c"]
        text = await screen_text(pilot)
        assert "on the pile" in text and "spit pile" in text


async def test_manual_flip_uses_the_number_row() -> None:
    pos = "play 1 two - 9c/:Ks/-/-/- 4h6h 8s/Ac :9h/-/-/-/- 5d5s 0,0"
    app = make_app(pos, options=Options(manual_flip=True))
    async with app.run_test(size=(80, 24)) as pilot:
        t = app.table
        await press(pilot, "1")
        assert t.decisions[-1].action == "L1^"
        assert t.decisions[-1].outcome is Outcome.APPLIED
        assert t.position.sides[0].slots[0].up
        assert "[1]" in await screen_text(pilot)


async def test_board_labels_come_from_the_key_table() -> None:
    app = make_app(PLAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for p in (Player.LEFT, Player.RIGHT):
            side = app.game_screen.query_one("#board", BoardView).render().plain
            for row in (Row.PILE_A, Row.PILE_B, Row.FILL):
                for slot in range(5):
                    assert f"[{US.key_for(p, row, slot).upper()}]" in side
        assert format_action  # (imported for readers: decisions carry notation)
