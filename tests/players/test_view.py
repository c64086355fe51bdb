"""The view a bot decides from holds only what a person at the table can see."""

from __future__ import annotations

from testkit.bots import L, R

from spit_tui.engine import Fill, Phase, Play, parse_position
from spit_tui.players.view import must_say_spit, play_actions, still_legal, view_of

POS = "play 1 two - 2c3c:5d/:9h/-/-/- 4s4h Qs/7c 6d:Td/-/-/-/- 8c2d 0,0"


def test_view_hides_face_down_cards_and_pile_depths() -> None:
    v = view_of(parse_position(POS, check=False), L)
    assert v.mine.tops[0] is not None and str(v.mine.tops[0]) == "5d"
    assert v.mine.sizes == (3, 1, 0, 0, 0)
    assert v.mine.down(0) == 2
    assert v.mine.spit == 2
    assert [str(t) for t in v.pile_tops] == ["Qs", "7c"]
    assert v.pile_sizes == (1, 1)
    assert v.theirs.spit == 2
    hidden = {"2c", "3c", "4s", "4h", "6d", "8c", "2d"}
    assert not hidden & {str(c) for c in _cards_in(v)}


def _cards_in(obj: object) -> list[object]:
    from spit_tui.engine import Card

    if isinstance(obj, Card):
        return [obj]
    if isinstance(obj, tuple):
        return [c for x in obj for c in _cards_in(x)]
    return []


def test_play_actions_from_the_view() -> None:
    v = view_of(parse_position(POS, check=False), L)
    acts = play_actions(v)
    # 5d plays on nothing (Qs, 7c); 9h plays on nothing; fills from slot 1 only (D4).
    assert acts == [Fill(L, 0, 2)]
    v2 = view_of(parse_position(POS.replace("Qs/7c", "Qs/6c"), check=False), L)
    assert Play(L, 0, 1) in play_actions(v2)


def test_still_legal_follows_the_pile_top() -> None:
    pos = parse_position(POS.replace("Qs/7c", "Qs/6c"), check=False)
    assert still_legal(view_of(pos, L), Play(L, 0, 1))
    moved = parse_position(POS.replace("Qs/7c", "Qs/6c7h"), check=False)
    assert not still_legal(view_of(moved, L), Play(L, 0, 1))


def test_must_say_spit() -> None:
    start = parse_position("spit 1 two - :5d/-/-/-/- 4s -/- :6d/-/-/-/- 8c 0,0", check=False)
    assert must_say_spit(view_of(start, R))
    stuck = parse_position("spit 1 two - :5d/-/-/-/- 4s Qs/Ks :6d/-/-/-/- - 0,0", check=False)
    assert not must_say_spit(view_of(stuck, L))  # the banner is not up yet
    assert must_say_spit(view_of(stuck, L, stuck_banner=True))
    assert not must_say_spit(view_of(stuck, R, stuck_banner=True))  # no spit card (D7)
    assert view_of(stuck, R).phase is Phase.SPIT
