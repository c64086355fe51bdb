"""One or more tests per R-rule of spit-rules.md (R1-R20).

Positions are notation strings; `*` is "the rest of the deck" and `#N` "the
next N unused cards" (see testkit/engine.py), so each test spells only what matters.
"""

from __future__ import annotations

from collections import Counter

import pytest
from testkit.engine import L, R, game, oracle_stuck, ranks_touch, refused

from spit_tui.engine import (
    EndReason,
    Fill,
    Game,
    Phase,
    Play,
    Ready,
    RefusalKind,
    adjacent,
    card,
    full_deck,
)
from spit_tui.engine.deal import deal_round


def cards(text: str) -> list:
    return [card(text[i : i + 2]) for i in range(0, len(text), 2)]


# -- R1 deck ------------------------------------------------------------------


def test_r01_deck_is_52_distinct_cards_four_of_each_rank() -> None:
    deck = full_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    assert Counter(c.rank for c in deck) == {r: 4 for r in range(13)}
    assert Counter(c.suit for c in deck) == {s: 13 for s in "shdc"}


def test_r01_new_game_holds_every_card_exactly_once() -> None:
    for seed in range(10):
        assert Counter(Game(seed=seed).position.all_cards()) == Counter(full_deck())


def test_r01_suit_and_colour_never_matter_for_play() -> None:
    # pile top K of spades: a red ace and a black queen of the same suit both go
    g = game("play 1 two - :Ah/:Qs/-/-/- - *Ks/2d :5c/-/-/-/- - 0,0")
    assert g.problem(Play(L, 0, 0)) is None
    assert g.problem(Play(L, 1, 0)) is None


# -- R2 adjacency -------------------------------------------------------------


def test_r02_ace_takes_king_and_two() -> None:
    g = game("play 1 two - :Kh/:2d/:Ac/:As/- - *Ad/2s :Kc/-/-/-/- - 0,0")
    assert g.problem(Play(L, 0, 0)) is None  # K on A
    assert g.problem(Play(L, 1, 0)) is None  # 2 on A
    assert g.problem(Play(L, 2, 1)) is None  # A on 2
    assert g.problem(Play(R, 0, 0)) is None  # K on A, other player
    ev = g.play(L, 3, 1)  # A on 2
    assert ev.position.piles[1][-1] == card("As")


def test_r02_equal_ranks_never_play() -> None:
    g = game("play 1 two - :7h/:Kd/-/-/- - *7s/Kc :5c/:6c/-/-/- - 0,0")
    r = refused(g, Play(L, 0, 0))
    assert r.kind is RefusalKind.ILLEGAL and r.reason == "7 does not go on 7"
    r = refused(g, Play(L, 1, 1))
    assert r.reason == "K does not go on K"


def test_r02_adjacency_table_matches_the_rule_for_every_pair() -> None:
    deck = full_deck()
    for a in deck:
        for b in deck:
            assert adjacent(a, b) == ranks_touch(str(a), str(b)), (a, b)
        # two neighbouring ranks, four suits each
        assert sum(adjacent(a, b) for b in deck) == 8


# -- R3 deal ------------------------------------------------------------------


def test_r03_shuffle_splits_the_deck_26_26() -> None:
    for seed in range(10):
        p = Game(seed=seed).position
        assert (p.sides[0].total, p.sides[1].total) == (26, 26)
        assert p.phase is Phase.SPIT and p.round == 1 and p.piles == ((), ())


def test_r03_the_deal_depends_only_on_the_seed() -> None:
    assert Game(seed=7).position == Game(seed=7).position
    deals = {Game(seed=s).position for s in range(10)}
    assert len(deals) == 10


# -- R4 stockpiles ------------------------------------------------------------


def test_r04_five_stockpiles_of_one_to_five_cards_tops_face_up() -> None:
    p = Game(seed=3).position
    for side in p.sides:
        assert [len(s) for s in side.slots] == [1, 2, 3, 4, 5]
        assert all(s.up for s in side.slots)
        assert side.stock_count == 15


# -- R5 spit cards ------------------------------------------------------------


def test_r05_cards_left_after_the_stockpiles_are_spit_cards() -> None:
    left, right = full_deck()[:26], full_deck()[26:]
    p = deal_round((list(left), list(right)), round_no=1)
    assert p.sides[0].spit == tuple(left[15:]) and len(p.sides[0].spit) == 11
    assert p.sides[1].spit == tuple(right[15:])
    stock = {c for s in p.sides[0].slots for c in s.cards}
    assert stock == set(left[:15])


# -- R6 spit ------------------------------------------------------------------


def test_r06_spit_turns_each_top_spit_card_when_both_are_ready() -> None:
    g = Game(seed=5)
    lt, rt = g.position.sides[0].spit[-1], g.position.sides[1].spit[-1]
    ev = g.ready(L)
    assert ev.spat == () and g.position.phase is Phase.SPIT and g.position.piles == ((), ())
    ev = g.ready(R)
    assert ev.spat == ((0, lt), (1, rt))
    assert g.position.piles == ((lt,), (rt,))
    assert len(g.position.sides[0].spit) == 10 and len(g.position.sides[1].spit) == 10
    expect = Phase.SPIT if oracle_stuck(g.position, False) else Phase.PLAY
    assert g.position.phase is expect


def test_r06_no_play_before_the_first_spit() -> None:
    g = Game(seed=5)
    r = refused(g, Play(L, 0, 0))
    assert r.kind is RefusalKind.WRONG_PHASE


# -- R7 playing a card --------------------------------------------------------


def test_r07_play_moves_the_top_card_onto_either_pile() -> None:
    text = "play 1 two - 3c:8h/:Kc/-/-/- - *7s/9d :Qd/:2c/-/-/- - 0,0"
    for pile in (0, 1):
        g = game(text)
        ev = g.play(L, 0, pile)
        assert ev.card == card("8h")
        assert g.position.piles[pile][-1] == card("8h")
        assert g.position.piles[1 - pile][-1] == card("9d" if pile == 0 else "7s")
        assert g.position.sides[0].slots[0].cards == (card("3c"),)


def test_r07_a_card_that_does_not_touch_the_top_is_refused() -> None:
    g = game("play 1 two - :7h/-/-/-/- - *Qs/Qd :8c/:Kh/-/-/- - 0,0")
    for pile in (0, 1):
        r = refused(g, Play(L, 0, pile))
        assert r.kind is RefusalKind.ILLEGAL and r.reason == "7 does not go on Q"


def test_r07_nothing_to_play_from_an_empty_or_missing_stockpile() -> None:
    g = game("play 1 two - :7h/-/-/-/- - *6s/Qd :8c/-/-/-/- - 0,0")
    assert refused(g, Play(L, 2, 0)).reason == "stockpile 3 is empty: nothing to play"
    assert refused(g, Play(L, 5, 0)).reason == "there is no stockpile 6"


# -- R8 revealing -------------------------------------------------------------


def test_r08_the_next_card_is_revealed_when_the_top_leaves() -> None:
    g = game("play 1 two - 4d3c:8h/:Kc/-/-/- - *7s/2d :Qd/-/-/-/- - 0,0")
    ev = g.play(L, 0, 0)
    assert ev.revealed == card("3c")
    slot = g.position.sides[0].slots[0]
    assert slot.cards == (card("4d"), card("3c")) and slot.up


def test_r08_playing_a_lone_card_leaves_the_slot_empty() -> None:
    g = game("play 1 two - :8h/:Kc/-/-/- - *7s/2d :Qd/-/-/-/- - 0,0")
    ev = g.play(L, 0, 0)
    assert ev.revealed is None
    assert g.position.sides[0].slots[0].cards == ()


# -- R9 filling a gap ---------------------------------------------------------


def test_r09_fill_moves_a_top_card_into_the_empty_slot_and_reveals() -> None:
    g = game("play 1 two - 5d:Jh/-/:Kc/:Kd/:Ks - *7s/2d :Qd/-/-/-/- - 0,0")
    ev = g.fill(L, 0, 1)
    slots = g.position.sides[0].slots
    assert slots[1].cards == (card("Jh"),) and slots[1].up
    assert slots[0].cards == (card("5d"),) and slots[0].up
    assert ev.card == card("Jh") and ev.revealed == card("5d")


# -- R10 at most five ---------------------------------------------------------


def test_r10_no_fill_without_an_empty_slot_and_no_sixth_slot() -> None:
    g = game("play 1 two - 5d:Jh/:2c/:Kc/:Kd/:Ks - *7s/2d :Qd/:8h/-/-/- - 0,0")
    assert refused(g, Fill(L, 0, 1)).reason == "no empty slot to fill"
    g = game("play 1 two - 5d:Jh/-/:Kc/:Kd/:Ks - *7s/2d :Qd/-/-/-/- - 0,0")
    assert refused(g, Fill(L, 0, 2)).reason == "slot 3 is not empty"
    assert refused(g, Fill(L, 0, 5)).kind is RefusalKind.ILLEGAL
    assert refused(g, Play(L, 5, 0)).reason == "there is no stockpile 6"
    assert all(len(side.slots) == 5 for side in g.position.sides)


# -- R11 first touch wins -----------------------------------------------------


def test_r11_the_card_that_lands_first_is_played() -> None:
    text = "play 1 two - :8h/:2c/-/-/- - *7s/Kc :8d/:2d/-/-/- - 0,0"
    g = game(text)
    g.play(L, 0, 0)
    r = refused(g, Play(R, 0, 0))
    assert r.kind is RefusalKind.LOST_RACE
    assert g.position.piles[0][-1] == card("8h")
    g = game(text)  # the other arrival order: the right player's card lands
    g.play(R, 0, 0)
    assert refused(g, Play(L, 0, 0)).kind is RefusalKind.LOST_RACE
    assert g.position.piles[0][-1] == card("8d")


# -- R12 no take-backs --------------------------------------------------------


def test_r12_a_played_card_never_comes_back() -> None:
    g = game("play 1 two - 3c:8h/:9c/-/-/- - *7s/Kc :Qd/:2d/-/-/- - 0,0")
    g.play(L, 0, 0)
    after = g.position
    moved = card("8h")
    for player in (L, R):
        for a in Game(position=after, seed=0).legal_actions(player):
            h = Game(position=after, seed=0)
            h.apply(a)
            for side in h.position.sides:
                assert moved not in {c for s in side.slots for c in s.cards}
                assert moved not in side.spit


# -- R13 spit again -----------------------------------------------------------


STUCK_AFTER_L1A = "play 1 two - 3c:8h/:2c/:2d/:2h/:2s 4c9c 7s/Kc :5c/:5d/:5h/:5s/:Jh * 0,0"


def test_r13_when_nobody_can_play_both_spit_again() -> None:
    g = game(STUCK_AFTER_L1A)
    ev = g.play(L, 0, 0)  # 8h on 7: no card touches 8 or K any more
    assert ev.stuck and g.stuck and g.position.phase is Phase.SPIT
    assert refused(g, Play(R, 0, 0)).kind is RefusalKind.WRONG_PHASE
    rtop = g.position.sides[1].spit[-1]
    rcount = len(g.position.sides[1].spit)
    assert g.ready(L).spat == ()
    ev = g.ready(R)
    assert ev.spat == ((0, card("9c")), (1, rtop))
    assert g.position.sides[0].spit == (card("4c"),)
    assert len(g.position.sides[1].spit) == rcount - 1


# -- R14 round ends -----------------------------------------------------------


def test_r14_round_ends_when_a_player_clears_his_stockpiles() -> None:
    g = game("play 1 two - :8h/-/-/-/- 4c 7s/Kc :5c/:Jh/-/-/- * 0,0")
    ev = g.play(L, 0, 0)
    assert ev.round_over is not None
    assert ev.round_over.reason is EndReason.CLEARED and ev.round_over.cleared_by is L
    assert g.position.phase is Phase.SLAP


def test_r14_round_ends_when_stuck_and_nobody_has_a_spit_card() -> None:
    g = game("play 1 two - 3c:8h/:2c/-/-/- - *7s/Kc :5c/:Jh/-/-/- - 0,0")
    ev = g.play(L, 0, 0)
    assert ev.stuck and ev.round_over is not None
    assert ev.round_over.reason is EndReason.STUCK and ev.round_over.cleared_by is None
    assert g.position.phase is Phase.SLAP


def test_r14_stuck_with_spit_cards_left_does_not_end_the_round() -> None:
    g = game(STUCK_AFTER_L1A)
    ev = g.play(L, 0, 0)
    assert ev.round_over is None and g.position.round == 1


# -- R15 slap -----------------------------------------------------------------


# pile a: 3 cards; the left player cleared (2 spit cards
# left), the right player has 2 stock and 3 spit cards; pile b: the other 42.
SLAP_POS = "slap 1 two - -/-/-/-/- 4c9c 2s3s4s/* :5c/:Jh/-/-/- 2d3d4d 0,0"


def test_r15_each_player_takes_a_pile_and_every_card_is_dealt_again() -> None:
    g = game(SLAP_POS)
    sizes = tuple(len(p) for p in g.position.piles)
    assert sizes == (3, 42)
    ev = g.slap(L, 0)
    assert ev.round_over is not None and ev.round_over.took == (0, 1)
    assert ev.round_over.held == (3 + 2, 42 + 2 + 3)
    assert ev.round_over.pile_sizes == (3, 42)
    p = g.position
    assert (p.sides[0].total, p.sides[1].total) == (5, 47)
    assert p.round == 2 and p.phase is Phase.SPIT


# -- R16 collect --------------------------------------------------------------


def test_r16_each_collects_his_pile_stock_and_spit_and_deals_a_new_round() -> None:
    g = game(SLAP_POS)
    before = g.position
    g.slap(R, 1)  # right takes b; left gets a
    p = g.position
    left_new = {c for s in p.sides[0].slots for c in s.cards} | set(p.sides[0].spit)
    right_new = {c for s in p.sides[1].slots for c in s.cards} | set(p.sides[1].spit)
    assert left_new == set(before.piles[0]) | set(before.sides[0].spit)
    right_old = {c for s in before.sides[1].slots for c in s.cards}
    assert right_new == set(before.piles[1]) | right_old | set(before.sides[1].spit)
    # dealt again by R4/D1/R5/R17: left has 5 cards (short), right 47
    assert [len(s) for s in p.sides[0].slots] == [1, 1, 1, 1, 1]
    assert p.sides[0].spit == ()
    assert [len(s) for s in p.sides[1].slots] == [1, 2, 3, 4, 5]
    assert len(p.sides[1].spit) == 32
    assert p.spitter is R and p.piles == ((),)


# -- R17 short hand -----------------------------------------------------------


def test_r17_a_short_hand_has_no_spit_cards_and_one_pile_is_used() -> None:
    deck = full_deck()
    p = deal_round((deck[:10], deck[10:]), round_no=4)
    assert [len(s) for s in p.sides[0].slots] == [1, 2, 3, 2, 2]  # rows 5 + 4 + 1
    assert p.sides[0].spit == () and len(p.sides[1].spit) == 42 - 15
    assert p.single_pile and p.spitter is R
    g = Game(position=p, seed=0)
    g.ready(L)
    ev = g.ready(R)
    assert ev.spat == ((0, deck[-1]),)


def test_r17_both_players_play_onto_the_single_pile() -> None:
    g = game("play 3 one:R - :8h/:2c/-/-/- - *7s :6d/:Jh/-/-/- 4c 0,0")
    assert g.problem(Play(L, 0, 0)) is None and g.problem(Play(R, 0, 0)) is None
    r = refused(g, Play(L, 0, 1))
    assert r.reason == "only one spit pile this round"


# -- R18 single-pile round end ------------------------------------------------


def test_r18_first_to_clear_takes_nothing_opponent_takes_pile_and_stock() -> None:
    # the right player (spitter) clears while he still has 3 spit cards
    g = game("play 3 one:R - :2c/:3c/#2:4c/-/- - *7s :8h/-/-/-/- 9d9h9s 0,0")
    ev = g.play(R, 0, 0)
    end = ev.round_over
    assert end is not None and end.single_pile and end.cleared_by is R
    assert end.took == (0, None)
    assert end.held == (52 - 3, 3)  # left: pile (43 + 8h) and 5 stock; right: spit cards
    p = g.position
    assert p.round == 4 and p.phase is Phase.SPIT
    assert set(p.sides[1].slots[i].cards[0] for i in range(3)) == set(cards("9d9h9s"))
    assert p.spitter is L  # the right player is now the short one


# -- R19 standard win ---------------------------------------------------------


def test_r19_short_player_who_clears_first_wins() -> None:
    g = game("play 3 one:R - :8h/-/-/-/- - *7s :5c/:Jh/-/-/- 9d 0,0")
    ev = g.play(L, 0, 0)
    assert ev.winner is L and g.over and g.position.winner is L
    assert refused(g, Ready(R)).kind is RefusalKind.WRONG_PHASE
    assert g.legal_actions(L) == [] and g.legal_actions(R) == []


def test_r19_clearing_a_two_pile_round_does_not_win() -> None:
    g = game("play 1 two - :8h/-/-/-/- - *7s/Kc :5c/:Jh/-/-/- - 0,0")
    g.play(L, 0, 0)
    assert g.position.phase is Phase.SLAP and not g.over
    g.slap(R, 0)  # left takes pile b: holds cards again
    assert not g.over and g.position.sides[0].total == 1


# -- R20 points variant -------------------------------------------------------


def test_r20_points_one_per_card_still_held_and_lowest_wins_at_target() -> None:
    g = game(
        "play 5 two - :8h/-/-/-/- - *7s/Kc :5c/:Jh/-/-/- 2d3d4d 60,95",
        points=True,
    )
    ev = g.play(L, 0, 0)
    end = ev.round_over
    assert end is not None and end.round_points == (0, 5)
    assert end.scores == (60, 100)
    assert g.over and g.position.winner is L and g.position.scores == (60, 100)


@pytest.mark.parametrize("target", [100, 30])
def test_r20_below_the_target_the_game_goes_on(target: int) -> None:
    g = game(
        "play 2 two - :8h/-/-/-/- - *7s/Kc :5c/:Jh/-/-/- 2d3d4d 10,20",
        points=True, target=target,
    )
    g.play(L, 0, 0)
    assert g.position.scores == (10, 25)
    assert not g.over and g.position.round == 3
