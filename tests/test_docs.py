"""docs/rules.md is a tested artefact: its examples and claims are checked here.

Every ```position block holds one position, written canonically
(format_position(parse_position(text)) == text), with all 52 cards exactly
once. Every ```record block round-trips through parse_record/format_record
and replays without a refusal. Every rule R1-R20 and D1-D13 has at least one
position block under its bold label (**R7 ...**).

Claims are the lines starting with "> " right after a block (blank lines
between them are allowed). Each claim starts a fresh Game on the block's
position (for a record block: the game once the record is replayed):

    > [OPTIONS] ACTIONS → RESULT

    OPTIONS  optional, in square brackets: manual_flip, points, target=N
             (e.g. [points target=50]); the default is a standard game
    ACTIONS  actions in notation (L2a R1b L2>4 L3^ L! R*a), applied in
             order; all but the last must be accepted. "here" means none.
    RESULT   KIND: TEXT   the last action is refused; KIND is the refusal
                          kind (illegal, wrong phase, too late, notice),
                          TEXT a part of the reason; nothing has changed
             FACT; ...    the last action is accepted and each fact holds:
               ok               nothing more to check
               stuck            it left the players stuck (D6)
               revealed = 9d    the card it turned face up (D3)
               held = 12,40     the cards each player holds once the round
                                it ended is collected (R16, R18, D9)
               cards = 26,26    the cards each player holds now (stock + spit)
               stock = 15,12    the stock cards each player has now
               tops = 8h/Kd     the top card of each spit pile now (- if empty)
               L3 = 4c:9d       one stockpile now, written as in a position
               FIELD = TEXT     a whole position field, named as in the
                                notation (phase, round, kind, ready, left
                                stockpiles, left spit cards, spit piles,
                                right stockpiles, right spit cards, scores)

    > legal L → L2a L5>3     exactly these are the left player's legal
                             actions here, in any order ("none" for none)

Facts must not depend on the shuffle: every claim is checked with two seeds.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest

from spit_tui.engine import (
    Event,
    Game,
    Options,
    Phase,
    Player,
    Refusal,
    Variant,
    format_action,
    format_position,
    format_record,
    full_deck,
    parse_action,
    parse_position,
    parse_record,
    replay,
)
from spit_tui.engine.notation import FIELDS, format_slot

DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
RULES = [f"R{i}" for i in range(1, 21)] + [f"D{i}" for i in range(1, 14)]
ARROW = "→"
SEEDS = (0, 1)


class Block(NamedTuple):
    kind: str  # "position" or "record"
    text: str
    line: int  # where the block's text starts (1-based)
    claims: tuple[str, ...]


def read_blocks(doc: str) -> list[Block]:
    lines = doc.splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = re.fullmatch(r"```(position|record)", lines[i])
        if not m:
            i += 1
            continue
        start = i + 1
        end = lines.index("```", start)
        body = "\n".join(lines[start:end])
        i = end + 1
        claims: list[str] = []
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith("> ")):
            if lines[i].strip():
                claims.append(lines[i][2:].strip())
            i += 1
        blocks.append(Block(m[1], body, start + 1, tuple(claims)))
    return blocks


DOC_TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = read_blocks(DOC_TEXT)
CLAIMS = [(b, c) for b in BLOCKS for c in b.claims]


def block_id(b: Block) -> str:
    return f"{b.kind}@{b.line}"


# -- checking a claim ------------------------------------------------------------


def parse_options(text: str) -> Options:
    opts = Options()
    for word in text.split():
        if word == "manual_flip":
            opts = opts._replace(manual_flip=True)
        elif word == "points":
            opts = opts._replace(variant=Variant.POINTS)
        elif word.startswith("target="):
            opts = opts._replace(target=int(word.removeprefix("target=")))
        else:
            raise AssertionError(f"unknown option {word!r}")
    return opts


def start_game(block: Block, opts: Options | None, seed: int) -> Game:
    if block.kind == "position":
        return Game(position=parse_position(block.text), options=opts or Options(), seed=seed)
    rec = parse_record(block.text)
    assert opts is None, "a record carries its own options"
    game = Game(position=rec.start, options=rec.options, seed=rec.seed)
    replay(game, rec.actions)
    return game


def pair(text: str) -> tuple[int, int]:
    a, b = text.split(",")
    return int(a), int(b)


def check_fact(fact: str, game: Game, event: Event | None) -> None:
    pos = game.position
    if fact == "ok":
        return
    if fact == "stuck":
        assert event is not None and event.stuck, "the players are not stuck"
        return
    name, sep, want = (s.strip() for s in fact.partition("="))
    assert sep, f"a fact is 'ok', 'stuck' or 'name = value': {fact!r}"
    if name == "revealed":
        assert event is not None, "'revealed' needs an action"
        got = str(event.revealed)
    elif name == "held":
        assert event is not None and event.round_over is not None, "no round ended"
        got = "{},{}".format(*event.round_over.held)
    elif name == "cards":
        got = "{},{}".format(*(s.total for s in pos.sides))
    elif name == "stock":
        got = "{},{}".format(*(s.stock_count for s in pos.sides))
    elif name == "tops":
        got = "/".join(str(p[-1]) if p else "-" for p in pos.piles)
    elif re.fullmatch(r"[LR][1-5]", name):
        got = format_slot(pos.sides["LR".index(name[0])].slots[int(name[1]) - 1])
    elif name in FIELDS:
        got = format_position(pos).split(" ")[FIELDS.index(name)]
    else:
        raise AssertionError(f"unknown fact {name!r}")
    assert got == want, f"{name}: the engine says {got!r}, the doc says {want!r}"


def check_claim(block: Block, claim: str, seed: int) -> None:
    left, sep, result = claim.partition(ARROW)
    assert sep, f"a claim needs {ARROW}: {claim!r}"
    left, result = left.strip(), result.strip()
    opts = None
    m = re.fullmatch(r"\[([^\]]*)\]\s*(.*)", left)
    if m:
        opts, left = parse_options(m[1]), m[2]
    game = start_game(block, opts, seed)

    if left.startswith("legal "):
        who = Player("LR".index(left.removeprefix("legal ").strip()))
        got = sorted(format_action(a) for a in game.legal_actions(who))
        want = [] if result == "none" else sorted(result.split())
        assert got == want, f"legal actions: the engine says {got}, the doc says {want}"
        return

    actions = [] if left == "here" else [parse_action(t) for t in left.split()]
    for a in actions[:-1]:
        outcome = game.try_apply(a)
        assert not isinstance(outcome, Refusal), f"{format_action(a)} refused: {outcome}"
    kind, colon, reason = result.partition(":")
    if colon and kind.strip() in ("illegal", "wrong phase", "too late", "notice"):
        assert actions, "a refusal needs an action"
        before = game.position
        outcome = game.try_apply(actions[-1])
        assert isinstance(outcome, Refusal), f"{left} was accepted, the doc says refused"
        assert str(outcome.kind) == kind.strip(), f"refused as {outcome.kind}: {outcome.reason}"
        assert reason.strip() in outcome.reason, f"the engine's reason is {outcome.reason!r}"
        assert game.position == before, "a refused action changed the position"
        return
    event: Event | None = None
    if actions:
        outcome = game.try_apply(actions[-1])
        assert not isinstance(outcome, Refusal), f"{left} refused: {outcome}"
        event = outcome
    for fact in result.split(";"):
        check_fact(fact.strip(), game, event)


# -- the tests -----------------------------------------------------------------------


def test_the_doc_has_examples_and_claims() -> None:
    assert sum(b.kind == "position" for b in BLOCKS) >= len(RULES)
    assert len(CLAIMS) >= len(RULES)


def test_every_claim_line_follows_a_block() -> None:
    attached = sum(len(b.claims) for b in BLOCKS)
    arrows = [ln for ln in DOC_TEXT.splitlines() if ln.startswith("> ") and ARROW in ln]
    assert len(arrows) == attached, "a claim line that is not right after a block"


@pytest.mark.parametrize("rule", RULES)
def test_every_rule_has_an_example(rule: str) -> None:
    m = re.search(rf"^\*\*{rule} .*?(?=^\*\*[RD]\d+ |^#|\Z)", DOC_TEXT, re.M | re.S)
    assert m, f"no **{rule} ...** paragraph"
    assert "```position\n" in m[0], f"{rule} has no example position"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.kind == "position"], ids=block_id)
def test_position_is_complete_and_canonical(block: Block) -> None:
    assert "\n" not in block.text, "a position is one line"
    pos = parse_position(block.text)
    assert sorted(pos.all_cards()) == sorted(full_deck()), "not all 52 cards exactly once"
    assert format_position(pos) == block.text, "not canonical notation"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.kind == "position"], ids=block_id)
def test_position_fits_its_phase(block: Block) -> None:
    """An example must be a situation the game can be in, not just well-formed text."""
    pos = parse_position(block.text)
    flip = any(s.cards and not s.up for side in pos.sides for s in side.slots)
    game = Game(position=pos, options=Options(manual_flip=flip))
    acting = [p for p in Player if game.can_act(p)]
    spit_left = [p for p in Player if pos.sides[p].spit]
    started = any(pos.piles)
    if pos.spitter is not None:
        assert not pos.sides[pos.spitter.other].spit, "the short player has spit cards"
    if pos.phase is not Phase.SPIT:
        assert not any(s.ready for s in pos.sides), "ready outside the spit phase"
    if pos.phase is Phase.PLAY:
        assert started and acting, "phase play, but nobody can act"
    elif pos.phase is Phase.SPIT and started:
        assert not acting and spit_left, "phase spit, but the players are not stuck (D6)"
    elif pos.phase is Phase.SPIT:
        assert all(p in spit_left for p in Player if pos.spitter in (None, p)), "who spits?"
    elif pos.phase is Phase.SLAP:
        assert not pos.single_pile, "only two-pile rounds end in a slap (D8)"
        cleared = any(side.cleared for side in pos.sides)
        assert cleared or not (acting or spit_left), "phase slap, but the round is on (R14)"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.kind == "record"], ids=block_id)
def test_record_round_trips_and_replays(block: Block) -> None:
    text = block.text + "\n"
    rec = parse_record(text)
    assert format_record(rec) == text, "not canonical record format"
    game = start_game(block, None, 0)
    assert len(game.log) == len(rec.actions)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("block", "claim"), CLAIMS, ids=[f"{block_id(b)}:{c}" for b, c in CLAIMS])
def test_claim(block: Block, claim: str, seed: int) -> None:
    check_claim(block, claim, seed)
