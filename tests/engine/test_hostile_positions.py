"""Hostile positions (issue "Hostile input, round two", items 1, 5 and 6).

Each regression test is named after the problem it reproduces. Then the
fuzz: the parser returns a position or raises NotationError for any text and
any mutation of a real position, and from every position it accepts random
play reaches a round end or the game's end (no position leaves every key
refused for ever). Long runs: HYPOTHESIS_PROFILE=long, or --run-slow.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testkit.engine import L, R, fill_text, game, pos
from testkit.positions import (
    STATE_EDITS,
    accepted,
    mutated,
    notation_like,
    options,
    reached,
    round_end_reached,
)

from spit_tui.clock import VirtualClock
from spit_tui.engine import (
    Game,
    NotationError,
    Options,
    Phase,
    PositionError,
    Ready,
    Slap,
    Variant,
    format_position,
    parse_action,
    parse_position,
    parse_record,
)
from spit_tui.keys.intent import Intent, Row
from spit_tui.table import Outcome, Table

# -- item 1: impossible positions ---------------------------------------------------

SLAP_ONE_PILE = "slap 1 one:L - :3s/-/-/-/- - As2s :4s/-/-/-/- * 0,0"


def test_slap_phase_in_a_single_pile_round_is_refused() -> None:
    with pytest.raises(PositionError, match="phase: a slap only ends a two-pile round"):
        parse_position(fill_text(SLAP_ONE_PILE))


def test_slap_phase_in_a_single_pile_round_is_refused_by_game_too() -> None:
    """A Position built in code, not from text, is checked when a game starts from it."""
    p = parse_position(fill_text(SLAP_ONE_PILE), check=False)
    with pytest.raises(PositionError, match="two-pile"):
        Game(position=p)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("play 1 two - :3s/-/-/-/- - 9s/- :3h/-/-/-/- * 0,0", "pile b is empty"),
        ("slap 1 two - :3s/-/-/-/- - -/- :3h/-/-/-/- * 0,0", "slap needs cards"),
        ("play 1 two L :3s/-/-/-/- Kh 9s/9h :3h/-/-/-/- * 0,0", "ready: only the spit phase"),
        ("spit 1 two L :3s/-/-/-/- - 9s/9h :3h/-/-/-/- * 0,0", "left player has no spit card"),
        ("spit 1 one:L - :3s/-/-/-/- * - :4s/-/-/-/- #20 0,0", "right spit cards: in a single"),
        ("spit 1 two - :3s/-/-/-/- - -/- :3h/-/-/-/- * 0,0", "left spit cards: a new round"),
        ("spit 1 two - -/-/-/-/- Kh -/- :3h/-/-/-/- * 0,0", "left stockpiles: a new round"),
        ("spit 1 two - 4s:3s/#1/-/-/- Kh -/- :3h/-/-/-/- * 0,0", "slot 2: a new round deals"),
        ("play 1 two - -/-/-/-/- Kh 9s/9h -/-/-/-/- * 0,0", "both players' are empty"),
        ("play 1 two - :3s/-/-/-/- - 9s/9h :3h/-/-/-/- - 0,0", "52 cards"),
    ],
)
def test_impossible_positions_are_refused_with_the_field_at_fault(text: str, why: str) -> None:
    with pytest.raises(PositionError, match=why):
        parse_position(fill_text(text))


@pytest.mark.parametrize(
    ("text", "opts", "why"),
    [
        ("slap 1 two - :3s/-/-/-/- - 9s/9h :3h/-/-/-/- * 0,0", Options(), "round is not over"),
        (
            "slap 1 two - -/-/-/-/- - 9s/9h :3h/-/-/-/- * 0,0",
            Options(variant=Variant.POINTS),
            "no slap in the points variant",
        ),
        ("over:L 2 two - :3s/-/-/-/- - 9s/9h :3h/-/-/-/- * 0,0", Options(), "still holds"),
        (
            "over:L 2 two - :3s/-/-/-/- - 9s/9h :3h/-/-/-/- * 50,30",
            Options(variant=Variant.POINTS, target=40),
            "not the lower",
        ),
        (
            "over:L 2 two - :3s/-/-/-/- - 9s/9h :3h/-/-/-/- * 10,30",
            Options(variant=Variant.POINTS, target=40),
            "target of 40",
        ),
    ],
)
def test_positions_impossible_in_this_game_are_refused_when_it_starts(
    text: str, opts: Options, why: str
) -> None:
    p = parse_position(fill_text(text))  # possible in some game, not in this one
    with pytest.raises(PositionError, match=why):
        Game(position=p, options=opts)


# -- item 5: the parser's tracebacks --------------------------------------------------

GOOD = fill_text("play 1 two - :3s/-/-/-/- Kh 9s/4h :5h/-/-/-/- * 0,0")


def field(i: int, value: str, text: str = GOOD) -> str:
    f = text.split(" ")
    f[i] = value
    return " ".join(f)


@pytest.mark.parametrize("digit", ["²", "①", "\uff11", "٣", "߁"])
def test_unicode_digits_are_refused_not_a_traceback(digit: str) -> None:
    for text in (field(1, digit), field(1, "1" + digit), field(9, f"{digit},0")):
        with pytest.raises(NotationError, match="plain ASCII"):
            parse_position(text)
    with pytest.raises(NotationError, match=r"line 1: .*plain ASCII"):
        parse_record(f'[Target "{digit}"]\n')


def test_five_thousand_digit_round_and_scores_are_refused() -> None:
    huge = "9" * 5000
    for i, value, name in ((1, huge, "round"), (9, huge + ",0", "scores"), (9, "0," + huge, "")):
        with pytest.raises(NotationError, match=f"{name}.*too large") as e:
            parse_position(field(i, value))
        assert len(str(e.value)) < 120, "the message echoes the whole field"
    with pytest.raises(NotationError, match="Target"):
        parse_record(f'[Target "{huge}"]\n')
    with pytest.raises(NotationError, match="Seed") as e:
        parse_record(f'[Seed "{huge}"]\n')
    assert len(str(e.value)) < 120


@pytest.mark.parametrize("piles", ["5s/5h/6h", "5s//5h", "5s/", "/5s", "/", "5s/5h/"])
def test_malformed_pile_lists_are_refused_not_an_index_error(piles: str) -> None:
    text = fill_text(f"play 1 two - :3s/-/-/-/- Kh {piles} :7h/-/-/-/- * 0,0")
    with pytest.raises(NotationError, match="spit piles"):
        parse_position(text)


@pytest.mark.parametrize("slots", [":3s//-/-/-", ":3s/-/-/-/", "-:3s/-/-/-/-", "3s:/-/-/-/-"])
def test_malformed_slots_are_refused(slots: str) -> None:
    with pytest.raises(NotationError, match="left stockpiles"):
        parse_position(field(4, slots))


@pytest.mark.parametrize(
    "space", ["\t", "\u00a0", "\u3000", "\u2028", "\u2003", "\x0b", "\x1c", "\x85"]
)
def test_non_ascii_whitespace_between_fields_is_refused(space: str) -> None:
    with pytest.raises(NotationError, match="plain ASCII") as e:
        parse_position(GOOD.replace(" ", space, 1))
    assert "\n" not in str(e.value)
    with pytest.raises(NotationError, match="plain ASCII"):
        parse_action(f"L1a{space}R1a")
    if space != "\t":  # a record may separate its actions with tabs
        with pytest.raises(NotationError, match=r"line 2: .*plain ASCII"):
            parse_record(f'[Seed "1"]\nL!{space}R!\n')


def test_ascii_spaces_around_a_position_are_still_accepted() -> None:
    assert parse_position(f"  {GOOD}\n") == parse_position(GOOD)
    assert parse_action(" L1a\n") == parse_action("L1a")


def test_control_characters_are_shown_escaped_in_the_message() -> None:
    with pytest.raises(NotationError) as e:
        parse_position(field(0, "\x1b[2Jplay"))
    assert "\x1b" not in str(e.value) and "U+001B" in str(e.value)


# -- item 6: accepted, but it could never go on ----------------------------------------

STUCK = "play 1 two - :3s/-/-/-/- Kh 9s/9h :3h/-/-/-/- * 0,0"


def test_stuck_play_phase_with_spit_cards_settles_into_the_spit_on_load() -> None:
    g = game(STUCK)
    assert g.position.phase is Phase.SPIT and g.stuck
    assert g.start == pos(STUCK)  # the record keeps the position as given
    table = Table(g, VirtualClock())
    assert table.shown.stuck_shown, "the banner must say 'No plays left: spit!'"
    table.clock.advance(1.0)
    assert table.submit_intent(Intent(L, Row.PILE_A, 0)).outcome is Outcome.APPLIED
    table.submit_intent(Intent(R, Row.PILE_A, 0))
    table.clock.advance(1.0)
    assert table.position.pile_top(0) == pos(STUCK).sides[0].spit[-1]


def test_play_phase_with_both_piles_empty_is_refused() -> None:
    with pytest.raises(PositionError, match="play needs cards on the spit piles"):
        pos("play 1 two - :3s/-/-/-/- Kh -/- :3h/-/-/-/- * 0,0")


def test_face_down_tops_without_manual_flip_are_refused() -> None:
    text = "play 1 two - 5c3s/-/-/-/- Kh 9s/9h 4d3h/-/-/-/- * 0,0"
    with pytest.raises(PositionError, match="left stockpiles slot 1: a face-down top"):
        game(text)
    g = game(text, manual_flip=True)  # with manual flip they are there to be turned
    assert g.position.phase is Phase.PLAY and g.legal_actions(L)


def test_both_ready_spit_happens_on_load() -> None:
    text = "spit 1 two LR :3s/:4s/:5s/:6s/:7s Kh -/- :3h/:4h/:5h/:6h/:7h * 0,0"
    g = game(text)
    assert all(g.position.piles), "the spit both players were ready for has happened"
    assert not any(side.ready for side in g.position.sides)
    table = Table(g, VirtualClock())
    table.clock.advance(1.0)
    rows = (Row.PILE_A, Row.PILE_B, Row.FILL)
    outcomes = {
        table.submit_intent(Intent(p, row, slot)).outcome
        for p in (L, R)
        for row in rows
        for slot in range(5)
    }
    assert Outcome.APPLIED in outcomes


def test_stuck_spit_phase_without_spit_cards_ends_the_round_on_load() -> None:
    g = game("spit 1 two - :3s/-/-/-/- - *9s/9h :3h/-/-/-/- - 0,0")
    assert g.position.phase is Phase.SLAP  # nobody can act and nobody can spit: slap
    assert g.apply(Slap(L, 0)).round_over is not None


def test_spit_phase_with_a_play_left_goes_on_as_play() -> None:
    g = game("spit 1 two - :8s/-/-/-/- Kh 9s/9h :3h/-/-/-/- * 0,0")
    assert g.position.phase is Phase.PLAY and g.legal_actions(L)


def test_cleared_stockpiles_on_load_end_the_round() -> None:
    g = game("play 1 two - -/-/-/-/- Kh 9s/9h :3h/-/-/-/- * 0,0")
    assert g.position.phase is Phase.SLAP


def test_spit_refusal_never_names_nobody() -> None:
    """'there is still a play: spit refused ( can play)' needed a play phase nobody
    could play in; on load that is now a spit phase."""
    g = game(STUCK)
    assert g.problem(Ready(L)) is None


# -- the fuzz --------------------------------------------------------------------------

SLOW = settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))


def _parses_or_refuses(text: str) -> None:
    try:
        p = parse_position(text)
    except NotationError as e:
        assert "\n" not in str(e) and len(str(e)) < 300, repr(str(e))
    else:
        assert format_position(p).count(" ") == 9


FUZZ = settings(max_examples=max(200, settings.default.max_examples))


@FUZZ
@given(st.one_of(st.text(), notation_like()))
def test_fuzz_arbitrary_text_gives_a_position_or_notation_error(text: str) -> None:
    _parses_or_refuses(text)
    for parse in (parse_action, parse_record):
        with contextlib.suppress(NotationError):
            parse(text)


@FUZZ
@given(mutated())
def test_fuzz_mutated_positions_give_a_position_or_notation_error(text: str) -> None:
    _parses_or_refuses(text)


def _goes_on(text: str, opts: Options, seed: int) -> bool | None:
    p = accepted(text)
    if p is None:
        return None
    try:
        g = Game(position=p, options=opts, seed=seed)
    except PositionError:
        return None
    return round_end_reached(g, random.Random(seed))


@given(mutated(STATE_EDITS), options, st.integers(0, 2**16))
def test_from_any_accepted_position_random_play_reaches_a_round_end(
    text: str, opts: Options, seed: int
) -> None:
    assert _goes_on(text, opts, seed) is not False, text


@given(reached(), st.integers(0, 2**16))
def test_from_any_reached_position_random_play_reaches_a_round_end(
    reached_pos: tuple[Options, object], seed: int
) -> None:
    opts, p = reached_pos
    assert _goes_on(format_position(p), opts, seed) is True  # type: ignore[arg-type]


@pytest.mark.slow
@SLOW
@given(st.text(alphabet=st.characters(codec="utf-8")))
def test_fuzz_arbitrary_text_long(text: str) -> None:
    _parses_or_refuses(text)


@pytest.mark.slow
@SLOW
@given(mutated(STATE_EDITS), options, st.integers(0, 2**16))
def test_fuzz_mutated_positions_and_play_long(text: str, opts: Options, seed: int) -> None:
    _parses_or_refuses(text)
    assert _goes_on(text, opts, seed) is not False, text
