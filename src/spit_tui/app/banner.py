"""The phase banner: what the players should do now, in words, from a Scene."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from spit_tui.app.views import SceneView, player_name, says, subject, verb
from spit_tui.clock import clock_text
from spit_tui.engine import PLAYERS, EndReason, Phase, Player, RoundEnd, Variant
from spit_tui.scene import Scene

LINE_W = 76  # inside the banner's border and padding
BIG = Style(bold=True)
GOOD = Style(color="green", bold=True)
WAIT = Style(color="bright_black")


OVER_KEYS = "Enter: new game  ·  Ctrl+Q: quit"  # at one keyboard; each app may say its own
HELD_KEYS = "Enter: play on (the clocks wait until then)"  # a resumed game, held (app: Enter)


def _ready_line(scene: Scene, who: tuple[Player, ...], viewer: bool = False) -> Text:
    flags = scene.ready
    line = Text()
    for p in PLAYERS:
        if line:
            line.append("     ")
        line.append(subject(p, scene) + " ", BIG)
        if p not in who:
            line.append(verb(p, scene, "have no spit card", "has no spit card"), WAIT)
        elif flags[p]:
            line.append("✓ ready", GOOD)
        else:
            line.append("… not yet" if viewer else "… press any key", WAIT)
    return line


def _pile(i: int) -> str:
    return "ab"[i]


def played_line(scene: Scene) -> Text:
    """How many cards each player has put on the piles since the game began
    (the line says so: a round's summary is not where a reader expects it)."""
    left, right = (player_name(p, scene) for p in PLAYERS)
    n = scene.played
    return Text(f"Cards played this game: {left} {n[0]}, {right} {n[1]}", WAIT)


def out_but_on(scene: Scene) -> Text | None:
    """Why the game goes on when a player with no cards at all is slapping: in
    a two-pile round both take a pile (R15); only going out in a one-pile
    round wins (R19). None when nobody is out of cards."""
    out = [p for p in PLAYERS if not scene.sides[p].stock and not scene.sides[p].spit]
    if scene.phase is not Phase.SLAP or not out:
        return None
    has = says(out[0], scene, "have no cards", "has no cards")
    for line in (
        f"{has}, but the game goes on: going out wins in a one-pile round.",
        f"{has}, but the game goes on: a one-pile round decides.",
        f"{has}, but the game goes on.",
    ):
        if len(line) <= LINE_W:
            break
    return Text(line)


def summary_lines(end: RoundEnd, scene: Scene) -> list[Text]:
    """What the last round came to: who took which pile, what each holds now,
    and how many cards each has played since the game began."""
    points = scene.options.variant is Variant.POINTS
    first = Text(f"Round {end.round} over: ", BIG)
    if end.cleared_by is not None:
        p = end.cleared_by
        first.append(says(p, scene, "cleared your stockpiles", "cleared their stockpiles"))
    elif end.reason is EndReason.DEADLOCK or end.reason is EndReason.STUCK:
        first.append("nobody could play and nobody had a spit card")
    if points:
        second = Text(
            f"Points this round: {player_name(PLAYERS[0], scene)} {end.round_points[0]}, "
            f"{player_name(PLAYERS[1], scene)} {end.round_points[1]}"
            f"  ·  totals {end.scores[0]} : {end.scores[1]}"
        )
        return [first, second, played_line(scene)]
    parts = []
    for p in PLAYERS:
        took = end.took[p]
        if took is None:
            parts.append(f"{subject(p, scene)} took nothing")
        elif end.single_pile:
            parts.append(f"{subject(p, scene)} took the pile ({end.pile_sizes[took]})")
        else:
            name = subject(p, scene)
            parts.append(f"{name} took pile {_pile(took)} ({end.pile_sizes[took]})")
    # One line that never wraps at 80 columns, so the ready line below stays visible.
    left, right = (player_name(p, scene) for p in PLAYERS)
    second = Text(" · ".join(parts) + f" · now {left} {end.held[0]}, {right} {end.held[1]}")
    return [first, second, played_line(scene)]


def cut_name(name: str, cells: int) -> str:
    """A name in at most `cells` cells: cut, with "…", if longer (a name is
    one cell a character: names.name_problem)."""
    return name if len(name) <= cells else name[: cells - 1] + "…"


def banner(
    scene: Scene, names_key: str = "", over_keys: str = OVER_KEYS, viewer: bool = False
) -> tuple[str, list[Text]]:
    """The banner's CSS class and lines for the scene; `names_key` (the key that
    changes the names) is offered on the opening one, `over_keys` on game over.
    `viewer`: someone with no game keys (a watcher, a replay) is told what the
    players do, never to press keys of a half. A line that names both players
    and is too long with their whole names (up to 20 characters each) has
    them cut, so it never wraps over the board."""
    kind, lines = _banner(scene, names_key, over_keys, viewer)
    for cells in (12, 8, 5):
        if all(line.cell_len <= LINE_W for line in lines):
            break
        names = (cut_name(scene.names[0], cells), cut_name(scene.names[1], cells))
        if names == scene.names:
            break
        _, short = _banner(scene._replace(names=names), names_key, over_keys, viewer)
        if len(short) == len(lines):
            lines = [
                s if line.cell_len > LINE_W else line
                for line, s in zip(lines, short, strict=True)
            ]
    return kind, lines


def _banner(
    scene: Scene, names_key: str = "", over_keys: str = OVER_KEYS, viewer: bool = False
) -> tuple[str, list[Text]]:
    if scene.held and scene.phase is not Phase.OVER:
        return "waiting", [Text("Back where you stopped", BIG), Text(HELD_KEYS, WAIT)]
    away = scene.away
    if away is not None and scene.phase is not Phase.OVER:
        return "waiting", [
            Text(away, BIG),
            *(Text(line, WAIT) for line in scene.away_hint.split("\n")),
        ]
    if scene.phase is Phase.OVER:
        winner = scene.winner
        first = Text("GAME OVER · ", BIG)
        won = says(winner, scene, "win", "wins") if winner is not None else "nobody wins"
        first.append(won, GOOD)
        took = clock_text(scene.game_s)  # play only: no pause, no wait for the spit
        rounds = scene.round
        detail = f"after {rounds} round{'s' if rounds != 1 else ''}, {took} of play"
        if scene.options.variant is Variant.POINTS:
            lname, rname = (player_name(p, scene) for p in PLAYERS)
            detail += f"  ·  final score {lname} {scene.scores[0]} : {rname} {scene.scores[1]}"
        else:
            detail += " (no cards left)"
        keys = Text(f"{scene.match}  ·  {over_keys}" if scene.match else over_keys, WAIT)
        figures = [Text(line) for line in scene.figures.split("\n") if line]
        if keys.cell_len > LINE_W:  # (a room's seat: its keys are longer) the match apart
            figures, keys = [*figures[-1:], Text(scene.match, WAIT)], Text(over_keys, WAIT)
        head = [first, Text(detail)]
        if len(figures) > 1:  # the history's two lines: the game's facts share the first
            short = f"{rounds} round{'s' if rounds != 1 else ''}, {took}"
            if scene.options.variant is Variant.POINTS:
                short += f" · {scene.scores[0]} : {scene.scores[1]}"
            if first.cell_len + len(short) + 3 <= LINE_W:
                first.append(f" · {short}")
                head = [first]
            else:
                figures = figures[-1:]  # the rating line stays
        return "over", [*head, *figures, keys]
    if scene.counting_down:
        left = scene.countdown_left()
        bar = "■" * max(1, round(left / max(scene.countdown_s, 0.01) * 6))
        return "countdown", [Text(f"Spit in {bar}", BIG), Text("get ready…", WAIT)]
    if scene.phase is Phase.SLAP:
        # One entry per pile: the engine refuses a slap in a single-pile round,
        # and the banner does not count on that.
        rows = ("top row", "middle row")
        sizes = "   ·   ".join(
            f"pile {_pile(i)}: {n} cards" + ("" if viewer else f" ({rows[i]})")
            for i, n in enumerate(scene.pile_sizes[:2])
        )
        out = out_but_on(scene)
        other = "The other player takes the other pile."
        if out is not None:
            other = "Both take a pile in a two-pile round: the other player, the other one."
        call = "The first to slap the smaller pile takes it." if viewer else (
            "Slap the smaller pile: the first slap takes it."
        )
        return "slap", [
            Text(f"SLAP!  {call}", BIG),
            Text(sizes),
            Text(other, WAIT),
            *([out] if out is not None else []),
        ]
    if scene.phase is Phase.SPIT:
        who = scene.spitters()  # the ones still to say it, and the ones who have
        if not any(scene.pile_sizes):
            lines: list[Text] = []
            if scene.last_round is not None:
                lines += summary_lines(scene.last_round, scene)
            else:
                call = f"Round {scene.round}: " + (
                    "both players spit to begin" if viewer
                    else "both press any key of your half to spit"
                )
                lines.append(Text(call, BIG))
                if scene.match and not (scene.offer and scene.fresh):
                    lines.append(Text(scene.match, WAIT))
                if scene.offer and scene.fresh:
                    lines.append(Text(scene.offer, WAIT))
            if scene.single_pile and scene.spitter is not None:
                short = says(scene.spitter.other, scene, "have", "has")
                if len(lines) == 3:  # after a summary: the note shares the last line
                    note = f" · single pile: {short} no spit cards"
                    if lines[2].cell_len + len(note) > LINE_W:
                        played = lines[2].plain.removeprefix("Cards ")
                        lines[2] = Text(played.replace(" this game", ""), WAIT)
                    lines[2].append(note)
                else:
                    on = "both play on it" if viewer else "both rows play on it"
                    lines.append(Text(f"Single pile: {short} no spit cards; {on}."))
            lines.append(_ready_line(scene, tuple(PLAYERS), viewer))
            if names_key and scene.opening():
                lines.append(Text(f"{names_key}: change the players' names", WAIT))
            return "spit", lines
        if scene.stuck:
            turn = "Each player turns up a spit card." if viewer else "Press any key of your half."
            return "spit", [
                Text("No plays left: spit!", BIG),
                Text(turn, WAIT),
                _ready_line(scene, who, viewer),
            ]
    if viewer:
        hint = ("Single pile: both play onto the centre pile." if scene.single_pile
                else "Both play at once: a card one above or below a pile's top.")
    elif scene.single_pile:
        hint = "Single pile: both rows play onto the centre pile."
    else:
        hint = "Top row plays on pile a, middle row on pile b, bottom row fills a gap."
    first = Text(f"Round {scene.round}: play!", BIG)
    if scene.match:
        first.append(f"  ·  {scene.match}", WAIT)
    return "play", [first, Text(hint, WAIT)]


class Banner(SceneView):
    """The phase banner (a few lines under the header). `names_key`: the key
    the opening banner offers for the players' names ("" for none);
    `over_keys`: the keys the game-over banner offers (the app's own)."""

    names_key = ""
    over_keys = OVER_KEYS
    viewer = False  # no game keys here (a watcher, a replay): banner()

    def __init__(self, scene: Scene, *, id: str | None = None, classes: str | None = None):
        # its kind's class from the start: a class changed once the banner is
        # mounted restyles it, in the start's first frame too (about 2 ms)
        kind = f"-{banner(scene)[0]}"
        super().__init__(scene, id=id, classes=f"{classes} {kind}" if classes else kind)

    def state(self) -> object:
        t = self.scene
        cd = round(t.countdown_left() * 10) if t.counting_down else -1
        return (t.phase, t.round, t.ready, t.stuck, cd, t.last_round, any(t.pile_sizes),
                t.held, t.away, t.away_hint, t.offer, t.names, t.figures)

    def changed(self) -> None:
        kind = banner(self.scene, self.names_key, self.over_keys, self.viewer)[0]
        for k in ("over", "countdown", "slap", "spit", "play", "waiting"):
            self.set_class(k == kind, f"-{k}")
        self.refresh()

    def render(self) -> Text:
        _, lines = banner(self.scene, self.names_key, self.over_keys, self.viewer)
        for line in lines:
            line.justify = "center"
        return Text("\n", justify="center").join(lines)
