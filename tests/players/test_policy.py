"""The policy on positions built from notation: what it prefers, and why."""

from __future__ import annotations

import random

import pytest
from testkit.bots import L, R

from spit_tui.engine import Fill, Play, Slap, parse_position
from spit_tui.players.bot import make_policy
from spit_tui.players.policy import RandomPolicy, SmartPolicy
from spit_tui.players.view import play_actions, view_of


def choose(text: str, kind: str = "full", seed: int = 0) -> object:
    view = view_of(parse_position(text, check=False), L)
    return make_policy(kind).choose(view, play_actions(view), random.Random(seed))


@pytest.mark.parametrize("kind", ["easy", "normal", "full"])
def test_takes_the_revealing_play(kind: str) -> None:
    # 5h (a lone card) and 5d (two face-down cards beneath) both fit on the 4s.
    text = "play 1 two - :5h/2c3c:5d/:9c/:Jd/:Kh - 4s/7s :2h/-/-/-/- - 0,0"
    for seed in range(5):
        assert choose(text, kind, seed) == Play(L, 1, 0)


def test_keeps_the_chain_going() -> None:
    # 5h on the 4s lets the 6d follow it (and the Kd still fits the Ac); Kd on the
    # Ac instead leaves only the 5h playable. Both reveal one card.
    text = "play 1 two - 2c:5h/3d:Kd/:6d/-/- - 4s/Ac :9h/-/-/-/- - 0,0"
    for seed in range(5):
        assert choose(text, "full", seed) == Play(L, 0, 0)


def test_does_not_hand_the_opponent_a_play() -> None:
    # The 5h fits both piles. On the 4s it would give the opponent's 4d a play;
    # on the 6c it takes away his 7h's play and gives the 4d one: no gift.
    text = "play 1 two - 2c:5h/-/-/-/- - 4s/6c :4d/:7h/-/-/- - 0,0"
    for seed in range(5):
        assert choose(text, "full", seed) == Play(L, 0, 1)


def test_plays_before_filling_and_fills_when_nothing_plays() -> None:
    text = "play 1 two - 2c3c:5d/:9h/-/-/- - 4s/Qs :2h/-/-/-/- - 0,0"
    assert choose(text) == Play(L, 0, 0)
    nothing_plays = text.replace("4s/Qs", "7s/Qs")
    assert choose(nothing_plays) == Fill(L, 0, 2)


def test_slaps_the_smaller_pile() -> None:
    text = "slap 1 two - -/-/-/-/- - 4s5s6s/7c8c :2h/-/-/-/- - 0,0"
    view = view_of(parse_position(text, check=False), R)
    for seed in range(5):
        assert SmartPolicy().slap(view, random.Random(seed)) == Slap(R, 1)


def test_random_policy_uses_every_candidate() -> None:
    text = "play 1 two - 2c:5h/3d:Kd/:6d/-/- - 4s/Ac :9h/-/-/-/- - 0,0"
    view = view_of(parse_position(text, check=False), L)
    cands = play_actions(view)
    rng = random.Random(3)
    seen = {RandomPolicy().choose(view, cands, rng) for _ in range(200)}
    assert seen == set(cands)


def test_face_down_cards_change_nothing_the_policy_sees() -> None:
    # The same table twice; only the face-down cards (stockpiles and spit cards) differ.
    a = "play 1 two - 2c3c:5h/4d:Kd/:6d/-/- 9s8s 4s/Ac :9h/Jc:2h/-/-/- 7d7h 0,0"
    b = "play 1 two - 7d7h:5h/3c:Kd/:6d/-/- Jc4d 4s/Ac :9h/8s:2h/-/-/- 2c9s 0,0"
    va, vb = view_of(parse_position(a, check=False), L), view_of(parse_position(b, check=False), L)
    assert va == vb
    for kind in ("easy", "normal", "full", "random"):
        for seed in range(10):
            assert choose(a, kind, seed) == choose(b, kind, seed)
