"""One home for each idea: R2 is defined once, each record has one fast
constructor in its own module, and names do not shadow one another."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import spit_tui
from spit_tui.engine import Card, Event, Play, Player, Position, RoundEnd, Side, Slot, card
from spit_tui.engine.cards import ADJACENT, NEAR, RANKS, adjacent, ranks_adjacent
from spit_tui.engine.events import EndReason
from spit_tui.engine.position import Phase

SRC = Path(spit_tui.__file__).parent
ENGINE = SRC / "engine"


def _sources(root: Path) -> dict[str, str]:
    return {str(p.relative_to(SRC)): p.read_text() for p in sorted(root.rglob("*.py"))}


# -- R2, once -----------------------------------------------------------------


def test_r02_lookup_tables_agree_with_the_one_definition() -> None:
    for a in RANKS:
        for b in RANKS:
            assert ADJACENT[a][b] == ranks_adjacent(a, b), (a, b)
            assert bool(NEAR[b] >> a & 1) == ranks_adjacent(a, b), (a, b)
    deck = [Card(r, s) for r in RANKS for s in "shdc"]
    assert all(adjacent(x, y) == ranks_adjacent(x.rank, y.rank) for x in deck for y in deck)
    assert ranks_adjacent(12, 0) and ranks_adjacent(11, 12) and not ranks_adjacent(5, 5)


def test_r02_is_written_once_in_the_sources() -> None:
    """The rank arithmetic of R2 appears in engine/cards.py only, and nothing
    else defines its own adjacency helper."""
    arithmetic = re.compile(r"%\s*13\b")
    found = [name for name, text in _sources(SRC).items() if arithmetic.search(text)]
    assert found == ["engine/cards.py"]
    helpers = []
    for name, text in _sources(SRC).items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and "adj" in node.name.lower():
                helpers.append(f"{name}:{node.name}")
    assert sorted(helpers) == ["engine/cards.py:adjacent", "engine/cards.py:ranks_adjacent"]


# -- fast constructors ----------------------------------------------------------


def test_records_have_the_field_order_their_fast_constructors_assume() -> None:
    assert Slot._fields == ("cards", "up")
    assert Side._fields == ("slots", "spit", "ready")
    assert Position._fields == (
        "phase", "round", "sides", "piles", "spitter", "scores", "winner",
    )
    assert Event._fields == (
        "action", "position", "card", "revealed", "spat", "stuck", "round_over", "winner",
    )


def _position() -> Position:
    slot = Slot((card("2c"), card("3c")), True)
    side = Side(slots=(slot, Slot(), Slot(), Slot(), Slot()), spit=(card("4d"),), ready=True)
    return Position(
        phase=Phase.PLAY, round=3, sides=(side, side._replace(ready=False)),
        piles=((card("5h"),), ()), spitter=None, scores=(4, 9), winner=Player.RIGHT,
    )


def test_fast_constructors_build_what_the_keyword_constructors_build() -> None:
    cards = (card("Ks"), card("Ah"))
    assert Slot.fast(cards, False) == Slot(cards=cards, up=False)
    pos = _position()
    side = pos.sides[0]
    new_slot = Slot(cards=cards, up=True)
    assert side.with_slot(3, new_slot) == side._replace(
        slots=(*side.slots[:3], new_slot, *side.slots[4:])
    )
    other = pos.sides[1]
    piles = ((), (card("9s"),))
    assert pos.with_side(Player.LEFT, other) == pos._replace(sides=(other, other))
    assert pos.with_side(Player.RIGHT, side, piles) == pos._replace(sides=(side, side), piles=piles)
    end = RoundEnd(
        round=3, reason=EndReason.CLEARED, single_pile=False, cleared_by=Player.LEFT,
        took=(None, None), pile_sizes=(1, 0), held=(0, 20), round_points=(0, 0), scores=(0, 0),
    )
    action = Play(Player.LEFT, 0, 0)
    fast = Event.fast(action, pos, card("3c"), card("2c"), True, end)
    assert type(fast) is Event
    assert fast == Event(
        action=action, position=pos, card=card("3c"), revealed=card("2c"), spat=(),
        stuck=True, round_over=end, winner=Player.RIGHT,
    )


def test_positional_record_builds_live_only_in_the_records_own_modules() -> None:
    """`tuple.__new__` (the fast build) is written where the record is defined."""
    found = sorted(
        name for name, text in _sources(SRC).items() if "tuple.__new__" in text
    )
    assert found == ["engine/events.py", "engine/position.py"]


# -- names ------------------------------------------------------------------------


def _imported_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names |= {a.asname or a.name for a in node.names}
    return names


def test_game_imports_no_name_it_also_defines_as_a_method() -> None:
    tree = ast.parse((ENGINE / "game.py").read_text())
    game = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")
    methods = {n.name for n in game.body if isinstance(n, ast.FunctionDef)}
    assert _imported_names(tree) & methods == set()


def test_no_engine_name_reads_as_an_action_class_in_capitals() -> None:
    """PLAY beside Play and PLAYS read as one name: the module-level phase
    aliases are prefixed (PHASE_PLAY); Phase.PLAY itself is fine."""
    shadows = {"PLAY", "FILL", "FLIP", "READY", "SLAP"}
    for name, text in _sources(ENGINE).items():
        tree = ast.parse(text)
        assigned = {
            t.id
            for node in tree.body
            if isinstance(node, ast.Assign)
            for tgt in node.targets
            for t in ([*tgt.elts] if isinstance(tgt, ast.Tuple) else [tgt])
            if isinstance(t, ast.Name)
        }
        assert (assigned | _imported_names(tree)) & shadows == set(), name


# -- exhaustive action dispatch ----------------------------------------------------

DISPATCHERS = {
    "engine/rules.py": ["check", "malformed"],
    "engine/game.py": ["_do"],
    "engine/notation.py": ["format_action"],
    "app/walkthrough.py": ["describe"],
    "players/view.py": ["still_legal"],
    "players/policy.py": ["score"],
}
ACTION_CLASSES = {"Play", "Fill", "Flip", "Ready", "Slap"}


def _functions(tree: ast.AST) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


def test_every_action_dispatch_is_an_exhaustive_match() -> None:
    """`match action: ... case _: not_an_action(action)` (typed like
    assert_never, so mypy flags a missing kind), never an isinstance ladder
    whose last branch takes anything else for a Flip or a Slap."""
    for name, funcs in DISPATCHERS.items():
        defs = _functions(ast.parse((SRC / name).read_text()))
        for fn in funcs:
            body = defs[fn]
            matches = [n for n in ast.walk(body) if isinstance(n, ast.Match)]
            assert matches, f"{name}:{fn} has no match"
            last = matches[0].cases[-1]
            assert isinstance(last.pattern, ast.MatchAs) and last.pattern.name is None
            call = last.body[0]
            assert isinstance(call, ast.Expr) and isinstance(call.value, ast.Call)
            assert isinstance(call.value.func, ast.Name)
            assert call.value.func.id == "not_an_action", f"{name}:{fn}"
            ladders = [
                n for n in ast.walk(body)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and n.func.id == "isinstance" and len(n.args) == 2
                and isinstance(n.args[1], ast.Name) and n.args[1].id in ACTION_CLASSES
            ]
            assert ladders == [], f"{name}:{fn} still branches with isinstance"
