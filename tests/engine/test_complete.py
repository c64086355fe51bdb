"""complete_position: a short position spelled in notation, filled up to the
52 cards (help pages, tests and benchmarks write only the cards that matter)."""

from __future__ import annotations

import random
from collections import Counter

from testkit.engine import L, R, invariants, play_out

from spit_tui.engine import (
    Game,
    Player,
    complete_position,
    full_deck,
    missing_cards,
    parse_position,
)

SHORT_TWO = "play 1 two - :7h/4c:Kc/-/-/- TcTd 8s/3c :9d/5s:Kd/-/-/- 2h2d 0,0"
SHORT_ONE = "play 3 one:R - :7h/:6c/:Qs/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh 6d6h 0,0"


def test_missing_cards_are_the_rest_of_the_deck_in_deck_order() -> None:
    deck = full_deck()
    assert missing_cards([]) == deck
    assert missing_cards(deck) == []
    assert missing_cards(deck[::2]) == deck[1::2]


def test_a_two_pile_position_gets_the_missing_cards_under_both_spit_piles() -> None:
    short = parse_position(SHORT_TWO, check=False)
    full = complete_position(short)
    assert Counter(full.all_cards()) == Counter(full_deck())
    missing = missing_cards(short.all_cards())
    for p, side in zip((L, R), full.sides, strict=True):
        spit = short.sides[p].spit
        assert side.spit[len(side.spit) - len(spit):] == spit  # the spelled cards stay on top
        assert side.slots == short.sides[p].slots
    assert full.sides[0].spit[: len(missing[0::2])] == tuple(missing[0::2])
    assert full.sides[1].spit[: len(missing[1::2])] == tuple(missing[1::2])
    assert full.piles == short.piles and full.phase is short.phase


def test_a_one_pile_position_gives_every_missing_card_to_the_spitter() -> None:
    short = parse_position(SHORT_ONE, check=False)
    full = complete_position(short)
    assert Counter(full.all_cards()) == Counter(full_deck())
    assert full.sides[0] == short.sides[0]
    assert full.spitter is Player.RIGHT
    assert len(full.sides[1].spit) == 52 - len(short.all_cards()) + len(short.sides[1].spit)


def test_a_complete_position_is_returned_as_it_is() -> None:
    full = complete_position(parse_position(SHORT_TWO, check=False))
    assert complete_position(full) is full


def test_a_completed_position_plays_on_to_the_end_of_the_game() -> None:
    for seed in range(3):
        g = Game(position=complete_position(parse_position(SHORT_TWO, check=False)), seed=seed)
        assert play_out(g, random.Random(seed), check=True)
        invariants(g)
