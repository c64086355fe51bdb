"""The edge cases the rules single out, each its own test."""

from __future__ import annotations

import random

import pytest
from testkit.engine import L, R, game, oracle_stuck, play_out, refused

from spit_tui.engine import (
    EndReason,
    Fill,
    Game,
    Options,
    Phase,
    Play,
    Ready,
    RefusalKind,
    Slap,
    Variant,
    card,
    format_action,
    format_position,
)
from spit_tui.engine.deal import deal_round

# D7: the left player holds 16 cards (15 stock + one spit card), the right 36.
# Nothing touches 7 (no 6 or 8 on top anywhere), so after the first spit
# (7s and 7h) both are stuck at once.
SIXTEEN = (
    "spit 2 two - #0:2c/#1:2d/#2:2h/#3:2s/#4:3c 7s -/- "
    ":Kc/#1:Kd/#2:Kh/#3:Ks/#4:Qc *7h 0,0"
)


def test_d07_sixteen_cards_spit_once_then_the_other_spits_alone() -> None:
    g = game(SIXTEEN)
    assert g.position.sides[0].total == 16 and g.position.sides[1].total == 36
    g.ready(L)
    ev = g.ready(R)
    assert ev.spat == ((0, card("7s")), (1, card("7h")))  # both spit: two piles
    assert g.position.sides[0].spit == () and ev.stuck
    assert g.position.phase is Phase.SPIT and g.waiting_for() == (R,)
    nxt = g.position.sides[1].spit[-1]
    n = len(g.position.sides[1].spit)
    ev = g.ready(R)  # the right player spits alone, onto his own pile (D2)
    assert ev.spat == ((1, nxt),)
    assert g.position.piles[0] == (card("7s"),)
    assert g.position.piles[1] == (card("7h"), nxt)
    assert len(g.position.sides[1].spit) == n - 1


def test_r19_long_player_clears_first_after_spitting_all_and_wins() -> None:
    # single-pile round: the right player spits; he has one spit card (Qd) and
    # one stock card (Jh). Nobody can play on 7: the players are stuck.
    g = game("spit 3 one:R - :2c/:3d/:4h/-/- - *7s :Jh/-/-/-/- Qd 0,0")
    assert g.stuck and g.waiting_for() == (R,)
    ev = g.ready(R)
    assert ev.spat == ((0, card("Qd")),) and g.position.sides[1].spit == ()
    ev = g.play(R, 0, 0)  # J on Q: his stockpiles are clear and he has no spit card
    assert ev.round_over is not None and ev.round_over.cleared_by is R
    assert ev.round_over.held == (52, 0)  # left: his 3 stock cards and the pile
    assert ev.winner is R and g.over and g.position.winner is R
    assert g.position.phase is Phase.OVER


def test_r18_a_single_pile_round_ends_with_no_slap() -> None:
    g = game("play 3 one:R - :2c/:3c/#2:4c/-/- - *7s :8h/-/-/-/- 9d9h9s 0,0")
    ev = g.play(R, 0, 0)
    end = ev.round_over
    assert end is not None and end.single_pile and end.reason is EndReason.CLEARED
    assert g.position.phase is not Phase.SLAP
    assert g.position.phase is Phase.SPIT and g.position.round == 4
    r = refused(g, Slap(L, 0))
    assert r.kind in (RefusalKind.WRONG_PHASE, RefusalKind.LOST_RACE)
    assert g.legal_actions(L) == [Ready(L)] and g.legal_actions(R) == [Ready(R)]


# D9: the left player (short) plays 8h; then nothing touches 8, every slot
# holds a single card (no fill, D4) and nobody has a spit card.


def test_d09_deadlock_the_player_with_more_stock_takes_the_pile() -> None:
    g = game("play 2 one:R - 4c:8h/:2c/:3d/-/- - *7s :Jh/:Qd/-/-/- - 0,0")
    ev = g.play(L, 0, 0)
    end = ev.round_over
    assert end is not None and end.reason is EndReason.DEADLOCK and ev.stuck
    # left has 3 stock cards left (4c 2c 3d), right 2: left takes the pile
    assert end.took == (0, None) and end.pile_sizes == (47,)
    assert end.held == (3 + 47, 2)
    assert g.position.phase is Phase.SPIT and g.position.round == 3
    assert g.position.spitter is L  # the right player now holds 2: short


def test_d09_deadlock_tie_goes_to_the_player_who_spat_this_round() -> None:
    g = game("play 2 one:R - 4c:8h/:2c/-/-/- - *7s :Jh/:Qd/-/-/- - 0,0")
    ev = g.play(L, 0, 0)
    end = ev.round_over
    assert end is not None and end.reason is EndReason.DEADLOCK
    # two stock cards each: the right player (the spitter) takes the pile
    assert end.took == (None, 0) and end.held == (2, 2 + 48)
    g = game("play 2 one:L - :Jh/:Qd/-/-/- - *7s 4c:8h/:2c/-/-/- - 0,0")
    end = g.play(R, 0, 0).round_over
    assert end is not None and end.took == (0, None) and end.held == (2 + 48, 2)


RACE = "play 1 two - :8h/:2c/-/-/- - *7s/Kc :8d/:9c/-/-/- - 0,0"


def test_d05_a_lost_race_is_reported_as_too_late_not_as_illegal() -> None:
    g = game(RACE)
    g.play(L, 0, 0)
    r = refused(g, Play(R, 0, 0))
    assert r.kind is RefusalKind.LOST_RACE and r.kind is not RefusalKind.ILLEGAL
    assert str(r.kind) == "too late"
    assert str(r).startswith("too late: the left player was first [R1a @ ")
    # the same move without the race (fresh game, pile already on 8) is illegal
    h = game(RACE.replace("*7s/Kc", "*7s8h/Kc").replace(":8h/", ":Ah/"))
    assert refused(h, Play(R, 0, 0)).kind is RefusalKind.ILLEGAL


def test_d05_own_move_in_between_makes_it_illegal_not_a_race() -> None:
    # Right plays on pile b; left then plays 8h from stockpile 1 onto pile a,
    # which turns up the 3c beneath it. Left pressing stockpile 1 again is a
    # plain mistake: his own move changed the slot, not the opponent's card.
    g = game("play 1 two - 3c:8h/:2c/-/-/- - *7s/Kc :Qd/:9c/-/-/- - 0,0")
    g.play(R, 0, 1)  # Qd on Kc
    g.play(L, 0, 0)  # 8h on 7s, 3c turns up
    r = refused(g, Play(L, 0, 0))
    assert r.kind is RefusalKind.ILLEGAL and r.reason == "3 does not go on 8"


def test_d12_ready_with_nothing_to_spit_while_stuck_changes_nothing() -> None:
    g = game(SIXTEEN)
    g.ready(L)
    g.ready(R)
    assert g.stuck and g.position.sides[0].spit == ()
    before, n = g.position, len(g.log)
    r = refused(g, Ready(L))
    assert r.kind is RefusalKind.NOTICE and not r.is_error
    assert r.reason == "no spit card: the other spits alone"
    assert g.position is before and len(g.log) == n
    assert not g.position.sides[0].ready and g.waiting_for() == (R,)


def test_r09_fill_with_two_empty_slots_either_may_be_filled() -> None:
    text = "play 1 two - 5d:Jh/-/:Kc/-/:Ks - *7s/2d :Qd/-/-/-/- - 0,0"
    g = game(text)
    fills = [a for a in g.legal_actions(L) if isinstance(a, Fill)]
    assert set(fills) == {Fill(L, 0, 1), Fill(L, 0, 3)} and len(fills) == 2
    g.fill(L, 0, 3)
    slots = g.position.sides[0].slots
    assert slots[3].cards == (card("Jh"),) and slots[1].cards == ()
    assert slots[0].cards == (card("5d"),)
    # the last card of stockpile 1 is now alone: no further fill (D4)
    assert not any(isinstance(a, Fill) for a in g.legal_actions(L))
    g = game(text)
    g.fill(L, 0, 1)
    assert g.position.sides[0].slots[1].cards == (card("Jh"),)


def test_r19_no_round_ever_starts_with_a_player_holding_no_cards() -> None:
    deck = [card(c) for c in ("2s", "3s")]
    with pytest.raises(ValueError, match="no cards"):
        deal_round((deck, []), round_no=2)
    # a two-pile round: the player who cleared with no spit card takes a pile
    g = game("play 1 two - :8h/-/-/-/- - *7s/Kc :5c/:Jh/-/-/- - 0,0")
    g.play(L, 0, 0)
    assert g.position.sides[0].total == 0 and g.position.phase is Phase.SLAP
    g.slap(L, 0)  # left slaps the big pile a
    assert g.position.sides[0].total == 52 - 1 - 2 and g.position.sides[1].total == 3
    # whole random games: every round starts with cards on both sides
    for seed in range(12):
        for variant in Variant:
            h = Game(seed=seed, options=Options(variant=variant))
            rng = random.Random(seed)
            starts = 0
            while not h.over and h.position.round <= 1000:
                p = h.position
                if p.phase is Phase.SPIT and not any(p.piles):
                    starts += 1
                    assert p.sides[0].total > 0 and p.sides[1].total > 0
                acts = h.legal_actions(L) + h.legal_actions(R)
                h.apply(rng.choice(acts))
            assert starts >= 1


@pytest.mark.parametrize(
    ("text", "action", "reason"),
    [
        (
            "play 1 two - :7h/-/-/-/- - *Qs/Qd :8c/:Kh/-/-/- - 0,0",
            Play(L, 0, 0),
            "7 does not go on Q",
        ),
        (
            "play 1 two - 5d:Jh/:2c/:Kc/:Kd/:Ks - *7s/2d :Qd/:8h/-/-/- - 0,0",
            Fill(L, 0, 1),
            "no empty slot to fill",
        ),
        (
            "play 1 two - :8h/:2c/-/-/- - *7s/Kc :8d/:Qd/-/-/- 3d 0,0",
            Ready(R),
            "no spit yet: both can still play",
        ),
    ],
)
def test_d05_refusals_carry_the_position_and_a_readable_reason(
    text: str, action: Play | Fill | Ready, reason: str
) -> None:
    g = game(text)
    r = refused(g, action)
    assert r.reason == reason and r.is_error
    assert r.action == format_action(action)
    assert r.position == format_position(g.position)
    assert r.position in str(r) and reason in str(r) and r.action in str(r)


def test_d05_refused_out_of_range_actions_are_refusals_not_crashes() -> None:
    g = game(RACE)
    for a in (Play(L, 0, 2), Play(R, 7, 0), Play(L, -1, 0), Slap(R, 5), Fill(L, 0, 9)):
        r = refused(g, a)
        assert r.is_error and r.reason


def test_random_games_end_and_stuck_matches_d6() -> None:
    for seed in range(4):
        g = Game(seed=seed, options=Options(manual_flip=bool(seed % 2)))
        rng = random.Random(100 + seed)
        while not g.over and g.position.round <= 1000:
            assert g.stuck == oracle_stuck(g.position, g.options.manual_flip)
            g.apply(rng.choice(g.legal_actions(L) + g.legal_actions(R)))
        assert play_out(g, rng)
