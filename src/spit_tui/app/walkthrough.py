"""The help screen's pages: the key map, then one short page per rule group,
each with a small live position (in the engine's notation) where the reader
tries the move with the real keys, and last what each computer level is like."""

from __future__ import annotations

import re
from typing import NamedTuple

from rich.style import Style
from rich.text import Text

from spit_tui.app.cards import card_face
from spit_tui.engine import (
    PLAYERS,
    Card,
    Event,
    Fill,
    Flip,
    Play,
    Position,
    Ready,
    Slap,
    complete_position,
    not_an_action,
    parse_position,
)
from spit_tui.keys.intent import Intent, Row
from spit_tui.keys.keymap import KeyMap
from spit_tui.keys.reserved import RESERVED
from spit_tui.players.ladder import LADDER, NAMED, PLACEMENT
from spit_tui.players.ladder import describe as describe_level


class Page(NamedTuple):
    title: str
    text: str
    position: str | None = None  # engine notation; None: a page without a live board
    try_it: str = ""  # names keys as {La1}: see `try_keys`

    def start(self) -> Position | None:
        if not self.position:
            return None
        return complete_position(parse_position(self.position, check=False))

    def try_line(self, keys: KeyMap) -> str:
        """The "Try it" line with the keys of `keys`: each {La1} becomes "[Q]"."""
        return _KEY_FIELD.sub(lambda m: f"[{keys.label(keys.key(_field(m)))}]", self.try_it)

    def try_keys(self) -> list[Intent]:
        """The keys the "Try it" line names, in order. A field is {La1}: the
        player (L or R), the row (a, b, f for fill, n for the number row) and the
        stockpile (1-5), so the line names the same key on every layout."""
        return [_field(m) for m in _KEY_FIELD.finditer(self.try_it)]


_KEY_FIELD = re.compile(r"\{([LR])([abfn])([1-5])\}")
_FIELD_ROWS = {"a": Row.PILE_A, "b": Row.PILE_B, "f": Row.FILL, "n": Row.FLIP}


def _field(m: re.Match[str]) -> Intent:
    player = PLAYERS["LR".index(m.group(1))]
    return Intent(player, _FIELD_ROWS[m.group(2)], int(m.group(3)) - 1)


_ROW_NAMES = {
    Row.FLIP: "flip (manual flip only)",
    Row.PILE_A: "play on pile a / slap a",
    Row.PILE_B: "play on pile b / slap b",
    Row.FILL: "fill a gap",
}


def key_map_text(keys: KeyMap, idle: frozenset[str] = frozenset()) -> Text:
    """The keyboard picture, drawn from the players' key map; the app's own
    keys listed under it, but those `idle` here (a seat cannot pause)."""
    out = Text()
    out.append("Keyboard layout: ", Style(dim=True))
    out.append(f"{keys.name}, {keys.description}", Style(bold=True))
    out.append("   (--layout NAME, or F3 here: your own keys)\n\n", Style(dim=True))
    out.append(f"{'':26}{'LEFT player':<20}RIGHT player\n", Style(bold=True))
    for row in (Row.FLIP, Row.PILE_A, Row.PILE_B, Row.FILL):
        out.append(f"{_ROW_NAMES[row]:<26}", Style(dim=True))
        for chars in (keys.row_keys(p, row) for p in PLAYERS):
            out.append(" ".join(keys.label(c) for c in chars), Style(color="cyan", bold=True))
            out.append(" " * 11)
        out.append("\n")
    out.append(f"{'stockpile':<26}1 2 3 4 5{' ' * 11}1 2 3 4 5\n\n", Style(dim=True))
    out.append(
        "The key under a stockpile acts on it. In a \"press spit\" phase any key of your\n"
        "half means ready. Shift and Caps Lock do not matter. Not game keys:\n"
    )
    shown = [  # not the ones kept free, nor those that do nothing here
        r for r in RESERVED if not r.does.startswith("(") and not idle.intersection(r.names)
    ]
    width = 0
    for r in shown:
        item = len(r.label) + 1 + len(r.does)
        if width and width + 3 + item > 76:  # wrap before 80 columns
            out.append("\n")
            width = 0
        out.append("  " if width == 0 else "   ")
        width += (2 if width == 0 else 3) + item
        out.append(r.label, Style(bold=True))
        out.append(f" {r.does}")
    return out


def computer_text() -> str:
    """The computer page: one line per level of the ladder (players/ladder.py)."""
    easy, pro = PLACEMENT["new"], PLACEMENT["practised"]
    lines = [
        "Each level wins about 7 games in 10 against the one below it. A new player",
        f"is about level {easy}, a practised one about level {pro}. --level auto starts",
        "at a new player's level (or where your history puts you), moves half way to",
        "where your pace puts you after each round, then one level a round at most.",
        "",
    ]
    names = {rung: name for name, rung in NAMED.items()}
    for level in LADDER:
        lines.append(f"{level.rung:>3} {names.get(level.rung, ''):7} {describe_level(level)}")
    return "\n".join(lines)


PAGES: tuple[Page, ...] = (
    Page(
        "The keys",
        "Left player: left half of the keyboard. Right player: right half.",
    ),
    Page(
        "Playing a card",  # R2, R7, R8
        "A card goes on a spit pile one rank above or below its top card; ranks wrap,\n"
        "so an Ace sits next to both King and 2. There are no turns. The top key row\n"
        "plays a stockpile's card onto pile a, the middle row onto pile b, and the\n"
        "card beneath turns up by itself.",
        "play 1 two - 9c:7h/:Ks/2d3d:5c/-/:Jd 4h6h 8s/Ac :9h/4s:Qd/:2c/:6d/:Tc 5d5s 0,0",
        "LEFT: {La1} plays 7♥, {Lb2} K♠ on A♣.  RIGHT: {Ra1} plays 9♥, {Rb3} 2♣ on A♣.",
    ),
    Page(
        "Filling a gap",  # R9, R10, D4
        "When one of your five places is empty, the bottom-row key under another\n"
        "stockpile moves that stockpile's top card into the leftmost gap, and the card\n"
        "beneath it turns up. Moving a lone card changes nothing, so it is refused.\n"
        "There are never more than five stockpiles.",
        "play 1 two - :3h/4c5c:Jd/-/:Ks/7d:8d 9h 2s/9s :Qh/:Qc/-/Ah2h:3c/:7c Th 0,0",
        "LEFT: {Lf2} moves J♦ to the gap, {Lf1} (a lone 3♥) is refused. RIGHT: {Rf4}",
    ),
    Page(
        "Spit!",  # R6, R13, D6, D7, D12
        "When nobody can play, the game calls \"No plays left: spit!\". Each player\n"
        "presses any key of their half; when everyone with a spit card is ready, each\n"
        "turns one onto the pile on their side. A round starts the same way. A player\n"
        "with no spit card left just watches while the other spits alone.",
        "spit 1 two - :Ks/-/-/-/:Kh 5hQh 9s/9d :Kc/-/-/-/:Kd 3cAs 0,0",
        "Both press any key of your half. Then K♠ fits on Q♥, K♣ on A♠.",
    ),
    Page(
        "First touch wins",  # R11, D5
        "Keys are applied in the order they arrive. If the other player's card landed\n"
        "first and yours no longer fits, nothing moves and you are told \"too late\".\n"
        "There is no penalty for that, or for a wrong key.",
        "play 1 two - :7h/4c:Kc/-/-/- TcTd 8s/3c :9d/5s:Kd/-/-/- 2h2d 0,0",
        "Both press the top row at once: LEFT {La1} (7♥), RIGHT {Ra1} (9♦).",
    ),
    Page(
        "The slap",  # R14, R15, D8, D13
        "A round ends when a player clears their stockpiles, or nobody can play and\n"
        "nobody has a spit card. Then both slap a pile, aiming for the smaller one:\n"
        "the first slap takes the pile slapped, the other player gets the other pile.\n"
        "Top row slaps pile a, middle row b. A slap in the first 0.2 s does not count.",
        "slap 1 two - -/-/-/-/- - 2s3s4s/9d8d7d6d5d4d3d :Kh/:Kc/-/-/- 5c6c 0,0",
        "Slap pile a (3 cards): LEFT {La1}, RIGHT {Ra1}.  Pile b: {Lb1} or {Rb1}.",
    ),
    Page(
        "One pile",  # R16, R17, R18, D9, D11
        "The cards you take are shuffled into a new round. A player with 15 cards or\n"
        "fewer has no spit cards: then only one pile is used, in the centre, and both\n"
        "key rows play onto it. The first to clear their stockpiles takes nothing; the\n"
        "other player takes the pile.",
        "play 3 one:R - :7h/:6c/:Qs/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh 6d6h 0,0",
        "LEFT: {La1} or {Lb1} plays 7♥ (either row), then {La2} or {Lb2} plays 6♣.",
    ),
    Page(
        "Winning",  # R19, R20, D10
        "Standard game: get rid of all your cards, by clearing your stockpiles in a\n"
        "one-pile round with no spit card left. The bar counts each player's cards;\n"
        "\"last rounds: ◂+4 ▸+2\": LEFT shed 4 more cards than RIGHT, then RIGHT 2 more.\n"
        "Points (--variant points): a held card scores 1, lowest at 100 wins (--target)",
        "play 4 one:R - :7h/:6c/-/-/- - 8s :Kd/2c:Qd/:4h/:5s/Ac:Jh 6d6h 0,0",
        "LEFT: {La1} then {La2}: play your last two cards and win the game.",
    ),
    Page("The computer  (--vs-computer --level LEVEL)", computer_text()),
)


def describe(event: Event) -> str:
    """One line about what just happened, for the help page's feedback."""
    a = event.action
    who = a.player.label.upper()
    match a:
        case Play() | Fill() if event.card is None:
            return "✓ done"  # not reached: a play or a fill always moves a card
        case Play():
            where = "the pile" if event.position.single_pile else f"pile {'ab'[a.pile]}"
            return f"✓ {who} played {_face(event.card)} on {where}"
        case Fill():
            return f"✓ {who} moved {_face(event.card)} into slot {a.dst + 1}"
        case Flip():
            return f"✓ {who} turned up stockpile {a.slot + 1}"
        case Ready():
            if event.spat:
                return "✓ spit! " + ", ".join(_face(c) for _, c in event.spat)
            return f"✓ {who} is ready"
        case Slap():
            return f"✓ {who} slapped pile {'ab'[a.pile]} first"
        case _:
            not_an_action(a)


def _face(c: Card | None) -> str:
    return card_face(c).plain if c is not None else "?"
