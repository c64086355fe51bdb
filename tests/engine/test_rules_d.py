"""Tests per D-decision of spit-rules.md (D1-D12; D13 belongs to the app).

D7, D9 and part of D5/D12 are in test_edge_cases.py, next to the edge cases
the brief lists.
"""

from __future__ import annotations

from testkit.engine import L, R, game, oracle_stuck, refused

from spit_tui.engine import (
    EndReason,
    Fill,
    Flip,
    Game,
    Phase,
    Play,
    Ready,
    RefusalKind,
    Slap,
    card,
    full_deck,
)
from spit_tui.engine.deal import deal_round

# -- D1 dealing order ---------------------------------------------------------


def test_d01_stockpiles_are_dealt_in_rows_like_a_solitaire_tableau() -> None:
    hand = full_deck()[:26]
    p = deal_round((list(hand), full_deck()[26:]), round_no=1)
    # row 1 puts cards 0-4 on slots 1-5, row 2 cards 5-8 on slots 2-5,
    # row 3 cards 9-11 on slots 3-5, row 4 cards 12-13 on 4-5, row 5 card 14 on 5
    want = [[0], [1, 5], [2, 6, 9], [3, 7, 10, 12], [4, 8, 11, 13, 14]]
    for slot, idx in zip(p.sides[0].slots, want, strict=True):
        assert slot.cards == tuple(hand[i] for i in idx)
        assert slot.up and slot.face_up == hand[idx[-1]]  # last to land is face up


def test_d01_a_short_hand_stops_dealing_when_the_cards_run_out() -> None:
    deck = full_deck()
    p = deal_round((deck[:12], deck[12:]), round_no=2)
    assert [len(s) for s in p.sides[0].slots] == [1, 2, 3, 3, 3]
    p = deal_round((deck[:4], deck[4:]), round_no=2)
    slots = p.sides[0].slots
    assert [len(s) for s in slots] == [1, 1, 1, 1, 0]
    assert not slots[4].up and slots[4].face_up is None


# -- D2 whose pile ------------------------------------------------------------


def test_d02_each_player_spits_onto_the_pile_on_his_own_side() -> None:
    g = game("spit 1 two - :2c/:2d/:2h/:2s/:3c 4c9c 7s/Kc :5c/:5d/:5h/:5s/:Jh * 0,0")
    assert g.stuck
    rtop = g.position.sides[1].spit[-1]
    g.ready(R)
    ev = g.ready(L)
    assert ev.spat == ((0, card("9c")), (1, rtop))
    assert g.position.piles[0][-2:] == (card("7s"), card("9c"))
    assert g.position.piles[1][-2:] == (card("Kc"), rtop)


def test_d02_with_one_pile_the_spitter_spits_onto_it() -> None:
    deck = full_deck()
    p = deal_round((deck[40:], deck[:40]), round_no=3)  # left holds 12: right spits
    g = Game(position=p, seed=0)
    g.ready(L)
    ev = g.ready(R)
    assert ev.spat == ((0, deck[39]),) and g.position.piles == ((deck[39],),)


# -- D3 auto-reveal -----------------------------------------------------------


REVEAL = "play 1 two - 4d3c:8h/:Kc/-/-/- - *7s/2d :Qd/:Jd/-/-/- - 0,0"


def test_d03_by_default_the_card_beneath_turns_up_as_part_of_the_move() -> None:
    g = game(REVEAL)
    ev = g.play(L, 0, 0)
    assert ev.revealed == card("3c") and g.position.sides[0].slots[0].up
    assert refused(g, Flip(L, 0)).reason == "cards turn up by themselves"


def test_d03_manual_flip_keeps_it_face_down_until_flipped() -> None:
    g = game(REVEAL, manual_flip=True)
    ev = g.play(L, 0, 0)
    slot = g.position.sides[0].slots[0]
    assert ev.revealed is None and not slot.up and slot.face_up is None
    assert refused(g, Play(L, 0, 1)).reason == "stockpile 1 is face down: flip first"
    assert refused(g, Fill(L, 0, 2)).reason == "stockpile 1 is face down: flip first"
    assert refused(g, Flip(L, 1)).reason == "stockpile 2 is already face up"
    assert refused(g, Flip(L, 2)).reason == "stockpile 3 is empty: nothing to flip"
    ev = g.flip(L, 0)
    assert ev.card == card("3c") and g.position.sides[0].slots[0].up
    assert len(g.log) == 2
    # the flipped card is now playable: 3 on 2
    assert g.problem(Play(L, 0, 1)) is None


# -- D4 pointless fills -------------------------------------------------------


def test_d04_moving_a_lone_card_into_an_empty_slot_is_refused() -> None:
    g = game("play 1 two - :Jh/-/:Kc/:Kd/5d:Ks - *7s/2d :Qd/-/-/-/- - 0,0")
    r = refused(g, Fill(L, 0, 1))
    assert r.kind is RefusalKind.ILLEGAL
    assert r.reason == "moving a lone card changes nothing"
    assert g.problem(Fill(L, 4, 1)) is None  # a card beneath: accepted
    assert Fill(L, 0, 1) not in g.legal_actions(L)


# -- D5 arrival order ---------------------------------------------------------


RACE = "play 1 two - :8h/:2c/-/-/- - *7s/Kc :8d/:9c/-/-/- - 0,0"


def test_d05_late_card_is_refused_with_no_penalty() -> None:
    g = game(RACE)
    g.play(L, 0, 0)
    r = refused(g, Play(R, 0, 0))  # pressed when 8 went on 7; lands on the 8
    assert r.kind is RefusalKind.LOST_RACE and r.is_error
    assert r.reason == "too late: the left player was first"
    # no penalty: the right player plays on at once (9 on the new 8)
    g.play(R, 1, 0)
    assert g.position.piles[0][-1] == card("9c")


def test_d05_a_move_that_was_never_legal_is_an_illegal_move() -> None:
    g = game(RACE)
    g.play(L, 0, 0)
    r = refused(g, Play(R, 1, 1))  # 9 on K: illegal before and after
    assert r.kind is RefusalKind.ILLEGAL and r.reason == "9 does not go on K"


def test_d05_actions_apply_strictly_in_call_order() -> None:
    g1, g2 = game(RACE), game(RACE)
    g1.apply(Play(L, 0, 0))
    g1.try_apply(Play(R, 0, 0))
    g2.apply(Play(R, 0, 0))
    g2.try_apply(Play(L, 0, 0))
    assert g1.position.piles[0][-1] == card("8h")
    assert g2.position.piles[0][-1] == card("8d")


# -- D6 stuck means no productive action --------------------------------------


def test_d06_a_fill_keeps_the_players_from_being_stuck() -> None:
    # nobody can play on 7/K, but the left player can fill slot 2 from slot 1
    g = game("play 1 two - 4c:2c/-/:2d/:2h/:2s - *7s/Kc :5c/:5d/:5h/:5s/:Jh 3d 0,0")
    assert not g.stuck and not oracle_stuck(g.position, False)
    r = refused(g, Ready(L))
    assert r.reason == "no spit yet: left can still play"
    g.fill(L, 0, 1)  # 4c is revealed: still no play, no fill left
    assert g.stuck and g.position.phase is Phase.SPIT


def test_d06_a_card_to_reveal_keeps_the_players_from_being_stuck() -> None:
    text = "play 1 two - 4c3c/:2d/:2h/:2s/:9h - *7s/Kc :5c/:5d/:5h/:5s/:Jh 3d 0,0"
    g = game(text, manual_flip=True)
    assert not g.stuck
    assert refused(g, Ready(R)).reason == "no spit yet: left can still play"
    g.flip(L, 0)  # 3c: no play on 7 or K
    assert g.stuck and g.position.phase is Phase.SPIT
    # without manual_flip the face-down card would not count
    assert oracle_stuck(game(text.replace("4c3c/", "4c:3c/")).position, False)


def test_d06_spit_refusal_names_every_player_who_can_act() -> None:
    g = game("play 1 two - :8h/:2c/-/-/- - *7s/Kc :8d/:Qd/-/-/- 3d 0,0")
    r = refused(g, Ready(R))
    assert r.reason == "no spit yet: both can still play"
    g = game("play 1 two - :3h/:2c/-/-/- - *7s/Kc :8d/:Qd/-/-/- 3d 0,0")
    assert refused(g, Ready(L)).reason == "no spit yet: right can still play"


# -- D8 the first slap decides ------------------------------------------------


SLAP = "play 1 two - :8h/-/-/-/- 4c 2s3s7s/* :5c/:Jh/-/-/- 2d 0,0"


def test_d08_the_first_slap_takes_that_pile_and_the_other_gets_the_rest() -> None:
    g = game(SLAP)
    ev = g.play(L, 0, 0)  # left clears: pile a has 4 cards, b the rest
    assert ev.round_over is not None and ev.round_over.took == (None, None)
    small, big = ev.round_over.pile_sizes  # shown during the slap
    assert (small, big) == (4, 52 - 4 - 1 - 2 - 1)
    ev = g.slap(R, 0)  # the right player is first, on the small pile
    assert ev.round_over is not None and ev.round_over.took == (1, 0)
    assert ev.round_over.held == (big + 1, small + 2 + 1)
    # the later slap lost the race (D5); the new round is already dealt
    assert refused(g, Slap(L, 0)).kind is RefusalKind.LOST_RACE
    assert refused(g, Slap(L, 1)).kind is RefusalKind.LOST_RACE
    assert g.position.phase is Phase.SPIT and g.position.round == 2


def test_d08_the_game_waits_for_a_slap_and_nothing_else() -> None:
    g = game(SLAP)
    g.play(L, 0, 0)
    assert g.position.phase is Phase.SLAP and not g.stuck
    assert refused(g, Play(R, 0, 0)).reason == "the round is over: slap a spit pile"
    assert refused(g, Ready(L)).kind is RefusalKind.WRONG_PHASE
    assert refused(g, Slap(L, 2)).reason == "there is no such spit pile"
    assert sorted(map(str, g.legal_actions(L) + g.legal_actions(R))) == sorted(
        map(str, [Slap(L, 0), Slap(L, 1), Slap(R, 0), Slap(R, 1)])
    )


# -- D10 points rounds --------------------------------------------------------


def test_d10_points_round_ends_without_slap_and_redeals_26_26() -> None:
    g = game("play 1 two - :8h/-/-/-/- 4c 7s/* :5c/:Jh/-/-/- 2d 0,0", points=True, seed=9)
    ev = g.play(L, 0, 0)
    end = ev.round_over
    assert end is not None and end.took == (None, None)
    # cards still held: left 1 spit card; right 2 stock and 1 spit card
    assert end.round_points == (1, 3) and end.scores == (1, 3)
    p = g.position
    assert p.phase is Phase.SPIT and p.round == 2 and p.scores == (1, 3)
    assert (p.sides[0].total, p.sides[1].total) == (26, 26) and p.spitter is None


def test_d10_points_round_that_gets_stuck_is_scored_without_slap() -> None:
    g = game("play 1 two - 3c:8h/:2c/-/-/- - *7s/Kc :5c/:Jh/-/-/- - 7,9", points=True)
    ev = g.play(L, 0, 0)
    assert ev.round_over is not None and ev.round_over.reason is EndReason.STUCK
    assert ev.round_over.round_points == (2, 2)
    assert g.position.scores == (9, 11) and g.position.phase is Phase.SPIT


def test_d10_a_shared_lowest_total_plays_another_round() -> None:
    # left clears (0 points) at 100; right has 5 cards: 95 + 5 = 100, a tie
    text = "play 4 two - :8h/-/-/-/- - *7s/Kc :5c/:Jh/-/-/- 2d3d4d 100,95"
    g = game(text, points=True)
    g.play(L, 0, 0)
    assert not g.over and g.position.scores == (100, 100) and g.position.round == 5
    # one more card for the right player and the left one wins
    g = game(text.replace("2d3d4d", "2d3d4d5d"), points=True)
    g.play(L, 0, 0)
    assert g.over and g.position.winner is L and g.position.scores == (100, 101)


def test_d10_the_target_is_a_setting() -> None:
    text = "play 2 two - :8h/-/-/-/- - *7s/Kc :5c/:Jh/-/-/- 2d3d4d 10,20"
    g = game(text, points=True, target=25)
    g.play(L, 0, 0)
    assert g.over and g.position.winner is L


# -- D11 exactly 15 -----------------------------------------------------------


def test_d11_exactly_15_cards_fill_five_stockpiles_and_no_spit_card() -> None:
    deck = full_deck()
    p = deal_round((deck[:15], deck[15:]), round_no=2)
    assert [len(s) for s in p.sides[0].slots] == [1, 2, 3, 4, 5]
    assert p.sides[0].spit == () and p.single_pile and p.spitter is R
    p = deal_round((deck[:37], deck[37:]), round_no=2)
    assert p.sides[1].spit == () and p.single_pile and p.spitter is L
    p = deal_round((deck[:16], deck[16:]), round_no=2)  # 16: one spit card, two piles
    assert len(p.sides[0].spit) == 1 and not p.single_pile and p.spitter is None


# -- D12 saying "spit" --------------------------------------------------------


def test_d12_at_round_start_the_spit_waits_for_both_signals() -> None:
    deck = full_deck()
    g = Game(position=deal_round((deck[:10], deck[10:]), round_no=2), seed=0)
    assert g.waiting_for() == (L, R)
    ev = g.ready(R)  # the spitter alone is not enough at the start of a round
    assert ev.spat == () and g.waiting_for() == (L,)
    assert refused(g, Ready(R)).kind is RefusalKind.NOTICE  # already ready
    ev = g.ready(L)
    assert ev.spat == ((0, deck[-1]),)


def test_d12_when_stuck_only_players_with_spit_cards_must_signal() -> None:
    g = game("spit 1 two - :2c/:2d/:2h/:2s/:3c - 7s/Kc :5c/:5d/:5h/:5s/:Jh * 0,0")
    assert g.stuck and g.waiting_for() == (R,)
    assert g.legal_actions(L) == [] and g.legal_actions(R) == [Ready(R)]
    top = g.position.sides[1].spit[-1]
    ev = g.ready(R)
    assert ev.spat == ((1, top),)
