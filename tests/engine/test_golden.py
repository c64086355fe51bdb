"""Golden playthroughs and legal-action counts.

Each golden file is a seeded game driven by a seeded random agent (its own
random.Random): the start position, then one line per action with the
position after it. Any change in dealing, move generation order or rules
shows up as a diff. Regenerate on purpose with SPIT_UPDATE_GOLDEN=1.

perft.txt lists fixed positions with the number of legal actions of each
player, counted by hand from the rules (the derivation is in the file); the
test checks the engine and the independent oracle against it.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from testkit.engine import L, R, invariants, oracle_legal_count, random_legal

from spit_tui.engine import (
    Game,
    Options,
    Phase,
    Variant,
    format_action,
    format_position,
    parse_action,
    parse_position,
)

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("SPIT_UPDATE_GOLDEN") == "1"

CASES = {
    "standard_seed1.txt": Options(),
    "points_seed1.txt": Options(variant=Variant.POINTS, target=60),
    "manual_flip_seed1.txt": Options(manual_flip=True),
}
SEED = 1
AGENT_SEED = 1001


def playthrough(opts: Options) -> str:
    g = Game(options=opts, seed=SEED)
    agent = random.Random(AGENT_SEED)
    lines = [
        "# golden playthrough: regenerate with SPIT_UPDATE_GOLDEN=1",
        f"# variant={opts.variant} target={opts.target} "
        f"manual_flip={'yes' if opts.manual_flip else 'no'} seed={SEED} agent={AGENT_SEED}",
        f"start {format_position(g.position)}",
    ]
    while not g.over:
        a = random_legal(g, agent)
        g.apply(a)
        invariants(g)
        lines.append(f"{format_action(a)} {format_position(g.position)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / name
    text = playthrough(CASES[name])
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    want = path.read_text()
    if text != want:
        got_lines, want_lines = text.splitlines(), want.splitlines()
        for i, (a, b) in enumerate(zip(got_lines, want_lines, strict=False)):
            assert a == b, f"{name} line {i + 1} differs"
        assert len(got_lines) == len(want_lines), f"{name}: {len(got_lines)} lines"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_file_replays_line_by_line(name: str) -> None:
    """The stored file is itself a consistent game: each action, applied to the
    position on the line before, gives the position on its own line."""
    lines = [s for s in (GOLDEN / name).read_text().splitlines() if not s.startswith("#")]
    first, *rest = lines
    assert first.startswith("start ")
    g = Game(options=CASES[name], seed=SEED)  # deals with the seed, so the Random matches
    assert g.position == parse_position(first[6:])
    for line in rest:
        act, text = line.split(" ", 1)
        g.apply(parse_action(act))
        assert format_position(g.position) == text
    assert g.over and g.position.phase is Phase.OVER


def read_perft() -> list[tuple[str, bool, int, int, str]]:
    out = []
    for line in (GOLDEN / "perft.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, manual, left, right, text = (f.strip() for f in line.split("|"))
        out.append((name, manual == "manual", int(left), int(right), text))
    return out


@pytest.mark.parametrize("case", read_perft(), ids=lambda c: c[0])
def test_perft_legal_action_counts(case: tuple[str, bool, int, int, str]) -> None:
    _, manual, left, right, text = case
    p = parse_position(text)
    assert len(p.all_cards()) == 52 and len(set(p.all_cards())) == 52
    g = Game(position=p, options=Options(manual_flip=manual), seed=0)
    got = (len(g.legal_actions(L)), len(g.legal_actions(R)))
    assert got == (left, right)
    assert (oracle_legal_count(p, L, manual), oracle_legal_count(p, R, manual)) == got
    for player in (L, R):  # every listed action is accepted, and listed once
        acts = g.legal_actions(player)
        assert len(set(map(format_action, acts))) == len(acts)
        assert all(g.problem(a) is None for a in acts)
