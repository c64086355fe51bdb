"""The phase banner: what the players should do now, in words, from the Table."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from spit_tui.app.views import TableView, player_name, says, subject, verb
from spit_tui.clock import clock_text
from spit_tui.engine import PLAYERS, EndReason, Phase, Player, RoundEnd, Variant
from spit_tui.table import Table

LINE_W = 76  # inside the banner's border and padding
BIG = Style(bold=True)
GOOD = Style(color="green", bold=True)
WAIT = Style(color="bright_black")


def _ready_line(table: Table, who: tuple[Player, ...]) -> Text:
    flags = table.ready_flags()
    line = Text()
    for p in PLAYERS:
        if line:
            line.append("     ")
        line.append(subject(p, table) + " ", BIG)
        if p not in who:
            line.append(verb(p, table, "have no spit card", "has no spit card"), WAIT)
        elif flags[p]:
            line.append("✓ ready", GOOD)
        else:
            line.append("… press any key", WAIT)
    return line


def _pile(i: int) -> str:
    return "ab"[i]


def played_line(table: Table) -> Text:
    """How many cards each player has put on the piles since the game began."""
    left, right = (player_name(p, table) for p in PLAYERS)
    n = table.story.played
    return Text(f"Cards played: {left} {n[0]}, {right} {n[1]}", WAIT)


def summary_lines(end: RoundEnd, table: Table) -> list[Text]:
    """What the last round came to: who took which pile, what each holds now,
    and how many cards each has played since the game began."""
    points = table.game.options.variant is Variant.POINTS
    first = Text(f"Round {end.round} over: ", BIG)
    if end.cleared_by is not None:
        p = end.cleared_by
        first.append(says(p, table, "cleared your stockpiles", "cleared their stockpiles"))
    elif end.reason is EndReason.DEADLOCK or end.reason is EndReason.STUCK:
        first.append("nobody could play and nobody had a spit card")
    if points:
        second = Text(
            f"Points this round: {player_name(PLAYERS[0], table)} {end.round_points[0]}, "
            f"{player_name(PLAYERS[1], table)} {end.round_points[1]}"
            f"  ·  totals {end.scores[0]} : {end.scores[1]}"
        )
        return [first, second, played_line(table)]
    parts = []
    for p in PLAYERS:
        took = end.took[p]
        if took is None:
            parts.append(f"{subject(p, table)} took nothing")
        elif end.single_pile:
            parts.append(f"{subject(p, table)} took the pile ({end.pile_sizes[took]})")
        else:
            name = subject(p, table)
            parts.append(f"{name} took pile {_pile(took)} ({end.pile_sizes[took]})")
    # One line that never wraps at 80 columns, so the ready line below stays visible.
    left, right = (player_name(p, table) for p in PLAYERS)
    second = Text(" · ".join(parts) + f" · now {left} {end.held[0]}, {right} {end.held[1]}")
    return [first, second, played_line(table)]


def opening(table: Table) -> bool:
    """The game's first banner: round 1, nobody has spat yet."""
    pos = table.position
    return (
        pos.round == 1 and pos.phase is Phase.SPIT and not any(pos.piles)
        and table.last_round is None and not table.counting_down
    )


def banner(table: Table, names_key: str = "") -> tuple[str, list[Text]]:
    """The banner's CSS class and lines for the table's current state;
    `names_key` (the key that changes the names) is offered on the opening one."""
    pos = table.position
    game = table.game
    away = table.away
    if away is not None and pos.phase is not Phase.OVER:
        return "waiting", [
            Text(away, BIG),
            Text(table.away_hint, WAIT),
        ]
    if pos.phase is Phase.OVER:
        winner = pos.winner
        first = Text("GAME OVER · ", BIG)
        won = says(winner, table, "win", "wins") if winner is not None else "nobody wins"
        first.append(won, GOOD)
        took = clock_text(table.play_seconds())  # play only: no pause, no wait for the spit
        rounds = pos.round
        detail = f"after {rounds} round{'s' if rounds != 1 else ''}, {took} of play"
        if game.options.variant is Variant.POINTS:
            lname, rname = (player_name(p, table) for p in PLAYERS)
            detail += f"  ·  final score {lname} {pos.scores[0]} : {rname} {pos.scores[1]}"
        else:
            detail += " (no cards left)"
        keys = Text(table.over_keys, WAIT)
        figures = [Text(table.shown.figures)] if table.shown.figures else []
        return "over", [first, Text(detail), *figures, keys]
    if table.counting_down:
        left = table.countdown_left()
        bar = "■" * max(1, round(left / max(table.countdown_s, 0.01) * 6))
        return "countdown", [Text(f"Spit in {bar}", BIG), Text("get ready…", WAIT)]
    if pos.phase is Phase.SLAP:
        # One entry per pile: the engine refuses a slap in a single-pile round,
        # and the banner does not count on that.
        rows = ("top row", "middle row")
        sizes = "   ·   ".join(
            f"pile {_pile(i)}: {len(p)} cards ({rows[i]})" for i, p in enumerate(pos.piles[:2])
        )
        return "slap", [
            Text("SLAP!  Slap the smaller pile: the first slap takes it.", BIG),
            Text(sizes),
            Text("The other player takes the other pile.", WAIT),
        ]
    if pos.phase is Phase.SPIT:
        who = game.waiting_for() + tuple(p for p in PLAYERS if pos.sides[p].ready)
        if not any(pos.piles):
            lines: list[Text] = []
            if table.last_round is not None:
                lines += summary_lines(table.last_round, table)
            else:
                call = f"Round {pos.round}: both press any key of your half to spit"
                lines.append(Text(call, BIG))
                if table.shown.offer and not game.log:
                    lines.append(Text(table.shown.offer, WAIT))
            if pos.single_pile and pos.spitter is not None:
                short = says(pos.spitter.other, table, "have", "has")
                if len(lines) == 3:  # after a summary: the note shares the last line
                    note = f" · single pile: {short} no spit cards"
                    if lines[2].cell_len + len(note) > LINE_W:
                        lines[2] = Text(lines[2].plain.removeprefix("Cards "), WAIT)
                    lines[2].append(note)
                else:
                    lines.append(Text(f"Single pile: {short} no spit cards; both rows play on it."))
            lines.append(_ready_line(table, tuple(PLAYERS)))
            if names_key and opening(table):
                lines.append(Text(f"{names_key}: change the players' names", WAIT))
            return "spit", lines
        if table.stuck_shown:
            return "spit", [
                Text("No plays left: spit!", BIG),
                Text("Press any key of your half.", WAIT),
                _ready_line(table, tuple(sorted(set(who)))),
            ]
    if pos.single_pile:
        hint = "Single pile: both rows play onto the centre pile."
    else:
        hint = "Top row plays on pile a, middle row on pile b, bottom row fills a gap."
    return "play", [Text(f"Round {pos.round}: play!", BIG), Text(hint, WAIT)]


class Banner(TableView):
    """The phase banner (a few lines under the header). `names_key`: the key
    the opening banner offers for the players' names ("" for none)."""

    names_key = ""

    def state(self) -> object:
        t = self.table
        cd = round(t.countdown_left() * 10) if t.counting_down else -1
        return (t.position.phase, t.position.round, t.ready_flags(), t.stuck_shown, cd,
                t.last_round, bool(any(t.position.piles)), t.away, t.away_hint, t.shown.offer,
                t.names)

    def sync(self) -> None:
        s = self.state()
        if s != self._state:
            self._state = s
            kind = banner(self.table, self.names_key)[0]
            for k in ("over", "countdown", "slap", "spit", "play", "waiting"):
                self.set_class(k == kind, f"-{k}")
            self.refresh()

    def render(self) -> Text:
        _, lines = banner(self.table, self.names_key)
        for line in lines:
            line.justify = "center"
        return Text("\n", justify="center").join(lines)
