"""The table tells the story: whose card is on each pile (their colour, or ◂ ▸
under NO_COLOR), the feed by the piles, and the tug-of-war bar with its trend."""

from __future__ import annotations

import pytest
from testkit.app import advance, make_app, press

from spit_tui.app.board import BoardView
from spit_tui.app.storylines import TREND_W
from spit_tui.app.views import PLAYER_STYLES
from spit_tui.clock import VirtualClock
from spit_tui.engine import (
    Game,
    Options,
    Phase,
    Play,
    Player,
    Ready,
    Slap,
    Variant,
    complete_position,
    parse_position,
)
from spit_tui.story import Story
from spit_tui.table import Table

# LEFT's 7♥ (key q) and RIGHT's 9♦ (key y) both fit pile a's 8♠: a race.
RACE = "play 1 two - :7h/4c:Kc/-/-/- TcTd 8s/3c :9d/5s:Kd/-/-/- 2h2d 0,0"
SLAP = "slap 1 two - -/-/-/-/- - 2s3s4s/9d8d7d6d5d4d3d :Kh/:Kc/-/-/- 5c6c 0,0"


def board_lines(app: object) -> list[str]:
    board = app.game_screen.query_one("#board", BoardView)  # type: ignore[attr-defined]
    return [s.text for s in board._get_strips(board.size.width)]


def pile_edge_colour(app: object, pile: int) -> str | None:
    """The colour of the frame of a pile's top card, as drawn."""
    return frame_colour(app, 30 + 10 * pile + 2)  # the centre, the pile's half, its lead


def frame_colour(app: object, x: int) -> str | None:
    """The colour of the cards' top frame line at column `x` of the board."""
    board = app.game_screen.query_one("#board", BoardView)  # type: ignore[attr-defined]
    strips = board._get_strips(board.size.width)
    top = next(y for y, s in enumerate(strips) if "╭" in s.text)
    cells = 0
    for seg in strips[top]:
        if cells <= x < cells + seg.cell_length:
            return seg.style.color.name if seg.style and seg.style.color else None
        cells += seg.cell_length
    return None


def test_story_keeps_owners_feed_and_counts() -> None:
    game = Game(position=complete_position(parse_position(RACE, check=False)))
    story = Story(game.position)
    assert story.held == []  # a game started mid-round: the rope starts at its first round end
    assert Story(Game(seed=1).position).held == [(26, 26)]
    story.on_event(game.apply(Play(Player.RIGHT, 0, 0)))
    assert story.owner(0) is Player.RIGHT and story.owner(1) is None
    assert story.played == [0, 1]
    story.lost_race(Player.LEFT)
    kinds = [(e.kind, e.player) for e in story.feed]
    assert kinds == [("late", Player.LEFT), ("play", Player.RIGHT)]


def test_trend_says_who_pulled_the_rope_in_the_last_rounds() -> None:
    story = Story(Game(seed=1).position)
    story.held += [(22, 30), (25, 27), (20, 32)]
    story.scores += [(0, 0)] * 3
    assert story.trend() == ((Player.LEFT, 4), (Player.RIGHT, 3), (Player.LEFT, 5))
    points = Story(Game(seed=1).position)
    points.held += [(26, 26)]
    points.scores += [(3, 7)]
    assert points.trend() == ((Player.LEFT, 4),)


async def test_a_play_shows_in_its_players_colour_and_in_the_feed() -> None:
    app = make_app(RACE)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "yq")  # RIGHT's 9♦ lands first; LEFT's 7♥ is too late
        lines = board_lines(app)
        feed = [ln.strip() for ln in lines[6:8]]
        assert feed == ["LEFT too late", "RIGHT 9♦ → a"]
        orange = PLAYER_STYLES[Player.RIGHT].color
        assert orange is not None and pile_edge_colour(app, 0) == orange.name
        await advance(pilot, 2.0)  # the highlight ends; the colour stays
        assert pile_edge_colour(app, 0) == orange.name


async def test_the_stockpile_a_card_left_is_marked_while_its_pile_is_lit() -> None:
    from spit_tui.showing import HIGHLIGHT_S

    app = make_app(RACE)
    async with app.run_test(size=(80, 24)) as pilot:
        plain = frame_colour(app, 2)  # LEFT's first stockpile, 7♥: a plain frame
        await press(pilot, "q")  # LEFT plays 7♥ from it onto pile a
        blue = PLAYER_STYLES[Player.LEFT].color
        assert blue is not None
        assert frame_colour(app, 2) == blue.name  # the empty place, in LEFT's colour
        assert pile_edge_colour(app, 0) == blue.name
        assert frame_colour(app, 6 + 2) == plain  # the other stockpiles: as they were
        assert app.table.scene().left_slot == (Player.LEFT, 0)
        await advance(pilot, HIGHLIGHT_S + 0.1)  # the same time as the pile's highlight
        assert frame_colour(app, 2) == plain and app.table.scene().left_slot is None


async def test_no_color_marks_whose_card_is_on_top(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(RACE)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "y")
        middle = next(ln for ln in board_lines(app) if "9♦" in ln)
        assert "│ 9♦│▸" in middle  # RIGHT's card: the marker on RIGHT's side
        bar = board_lines(app)[0]
        assert "▒" in bar and "█" in bar  # the halves of the bar differ without colour
    app = make_app(RACE)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "q")  # LEFT's 7♥ on pile a
        middle = next(ln for ln in board_lines(app) if "7♥" in ln and "3♣" in ln)
        assert "◂│ 7♥│" in middle


async def test_the_bar_starts_at_26_26_and_tracks_the_cards() -> None:
    app = make_app(seed=1)  # before the first spit: 26 cards each
    async with app.run_test(size=(80, 24)) as pilot:
        bar = board_lines(app)[0]
        assert "LEFT 26 " in bar and " 26 RIGHT" in bar
        # every card has its place, in the room the names and the trend's field leave
        assert bar.count("█") == 80 - len("LEFT 26 ") - len(" 26 RIGHT") - TREND_W
        await advance(pilot, 0.5)
        await press(pilot, "qp")
        await advance(pilot, 1.0)  # the spit: a card each on the piles
        bar = board_lines(app)[0]
        assert "LEFT 25 " in bar and " 25 RIGHT" in bar and bar.count("·") == 2


async def test_round_summary_counts_cards_played_and_the_trend_shows() -> None:
    app = make_app(SLAP)
    async with app.run_test(size=(80, 24)) as pilot:
        story = app.table.shown.story  # as if the round had started 26:26, dealt from the seed
        story.held.insert(0, (26, 26))
        story.scores.insert(0, (0, 0))
        await advance(pilot, 0.31)
        await press(pilot, "q")  # LEFT slaps pile a (3 cards), RIGHT gets pile b (7)
        text = app.game_screen.query_one("#banner").render().plain  # type: ignore[union-attr]
        assert "Cards played this game: LEFT 0, RIGHT 0" in text
        bar = board_lines(app)[0]
        assert "LEFT 22 " in bar and " 30 RIGHT" in bar
        assert bar.rstrip().endswith("last rounds: ◂+4")  # LEFT shed 4 more cards


def test_the_trend_has_a_fixed_width_and_words() -> None:
    from spit_tui.app.storylines import TREND_SHOWN, trend_text

    L, R = Player.LEFT, Player.RIGHT
    assert trend_text(()).plain == " " * (TREND_W - 1)  # room kept before any round ends
    two = trend_text(((L, 20), (R, 25)))
    assert two.plain.rstrip() == "last rounds: ◂+20 ▸+25" and two.cell_len == TREND_W - 1
    three = trend_text(((R, 3), (L, 26), (R, 26)))
    assert three.cell_len == TREND_W - 1 and TREND_SHOWN == 2
    assert three.plain.rstrip() == "last rounds: ◂+26 ▸+26"  # the newest rounds


async def test_points_bar_shows_scores_against_the_target() -> None:
    app = make_app(seed=2, spat=True, options=Options(variant=Variant.POINTS, target=40))
    async with app.run_test(size=(80, 24)):
        bar = board_lines(app)[0]
        assert "LEFT 0/40 " in bar and " 0/40 RIGHT" in bar and "│" in bar


def test_a_new_game_starts_a_new_story() -> None:
    table = Table(Game(seed=1), VirtualClock())
    table.clock.advance(0.5)
    for p in Player:
        table.submit(Ready(p))
    table.clock.advance(1.0)
    assert table.shown.story.feed
    table.new_game(Game(seed=2))
    assert not table.shown.story.feed and table.shown.story.played == [0, 0]


def test_slap_goes_in_the_feed() -> None:
    start = complete_position(parse_position(SLAP, check=False))
    table = Table(Game(position=start), VirtualClock())
    table.clock.advance(1.0)
    table.submit(Slap(Player.RIGHT, 1))
    assert table.shown.story.feed[0].kind == "slap"




async def test_a_player_out_of_cards_in_a_two_pile_round_is_told_why_the_game_goes_on() -> None:
    out = (  # LEFT has cleared the stockpiles and has no spit card: 0 cards, all 52 here
        "slap 1 two - -/-/-/-/- - 2s3s4s5s6s7s8s9sTs9d/JsQsKsAs3h4h5h6h7h8h9hThJhQhKhAh2d3d4d5d9c"
        " :2h/-/-/-/- 6d7d8dTdJdQdKdAd2c3c4c5c6c7c8cTcJcQcKcAc 0,0"
    )
    app = make_app(out)
    async with app.run_test(size=(80, 24)):
        text = app.game_screen.query_one("#banner").render().plain  # type: ignore[union-attr]
        assert "LEFT has no cards, but the game goes on: going out wins in a one-pile round" in text
        assert "Both take a pile in a two-pile round" in text
        assert all(len(line.strip()) <= 76 for line in text.splitlines())
    app = make_app(SLAP)  # both still hold cards: the usual slap banner
    async with app.run_test(size=(80, 24)):
        text = app.game_screen.query_one("#banner").render().plain  # type: ignore[union-attr]
        assert "no cards" not in text and "two-pile round" not in text


def test_a_seat_the_game_waits_for_shows_away_not_a_ping_and_no_row_plays() -> None:

    from spit_tui.app.board import ping_words, row_legend
    from spit_tui.keys.intent import Row

    scene = Table(Game(seed=1), VirtualClock()).scene()
    both = scene._replace(pings=(3, 42))
    assert ping_words(both) == ("LEFT ping 3 ms", "RIGHT ping 42 ms")
    assert ping_words(both._replace(waiting="RIGHT")) == ("LEFT ping 3 ms", "RIGHT away")
    assert row_legend(Phase.SPIT, False, Row.PILE_A) == "any key: spit!"
    assert row_legend(Phase.SPIT, False, Row.PILE_A, waiting=True) == "(waiting)"
    assert row_legend(Phase.OVER, False, Row.PILE_A, waiting=True) == "game over"
