"""`spit-tui --position` with hostile positions (issue "Hostile input, round
two", items 1, 5 and 6): one line naming the field and exit 2, never a
traceback; a position that is accepted starts in the state the rules say."""

from __future__ import annotations

import subprocess
import sys

import pytest
from testkit.app import make_app, screen_text, settle

from spit_tui import cli
from spit_tui.engine import full_deck

USED = "3s4s5s6s9s9hKh3h4h5h6h7hAs2sQs"
REST = "".join(str(c) for c in full_deck() if str(c) not in USED)


# The first position: the other 48 cards are the right player's spit cards.
SLAP_ONE_PILE = f"slap 1 one:L - :3s/-/-/-/- - As2s :4s/-/-/-/- {REST}5s6s9s9hKh3h4h5h6h7hQs 0,0"
STUCK = f"play 1 two - :3s/-/-/-/- Kh 9s/9h :3h/-/-/-/- {REST}4s5s6s4h5h6h7hAs2sQs 0,0"


def good_with(i: int, value: str) -> str:
    f = STUCK.split(" ")
    f[i] = value
    return " ".join(f)


BAD = [
    (SLAP_ONE_PILE, [], "phase: a slap only ends a two-pile round"),
    (good_with(1, "²"), [], "plain ASCII"),
    (good_with(1, "①"), [], "plain ASCII"),
    (good_with(1, "9" * 5000), [], "round: "),
    (good_with(9, "0," + "9" * 5000), [], "scores: "),
    (good_with(6, "5s/5h/6h"), [], "spit piles: kind two needs 2 piles"),
    (good_with(6, "5s//5h"), [], "spit piles: kind two needs 2 piles"),
    (STUCK.replace(" ", "\u00a0", 1), [], "plain ASCII"),
    (STUCK.replace(" ", "\u3000", 2), [], "plain ASCII"),
    (STUCK.replace(" ", "\t", 1), [], "a tab"),
    (good_with(6, "-/-").replace("Qs 0,0", "Qs9s9h 0,0"), [], "play needs cards on the spit"),
    (good_with(4, "4s3s/-/-/-/-").replace("4s5s6s", "5s6s"), [], "face-down top card"),
    (good_with(0, "slap"), ["--variant", "points"], "no slap in the points variant"),
]


@pytest.mark.parametrize(("position", "more", "reason"), BAD)
def test_bad_position_is_one_line_and_exit_2(
    position: str, more: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--position", position, *more]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("spit-tui: --position: "), err
    assert reason in err and len(err) < 200, err


def test_single_pile_slap_position_exits_2_as_a_real_process() -> None:
    """The issue's first crash exited 0 from an IndexError in the banner."""
    r = subprocess.run(
        [sys.executable, "-m", "spit_tui", "--position", SLAP_ONE_PILE],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    err = r.stderr.decode()
    assert r.returncode == 2 and r.stdout == b"", err
    assert err.count("\n") == 1 and "two-pile" in err and "Traceback" not in err


async def test_a_stuck_play_position_starts_on_no_plays_left() -> None:
    """It said "Round 1: play!" for ever; now it is the stuck spit it is."""
    app = make_app(STUCK)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = await screen_text(pilot)
        assert "No plays left" in text and "play!" not in text
