"""The opt-in decision log (--decision-log / SPIT_DECISION_LOG): one JSON line
per submission, in order, with the key that asked for it."""

from __future__ import annotations

import json
from pathlib import Path

from spit_tui.cli import build_parser
from spit_tui.clock import VirtualClock
from spit_tui.decision_log import DecisionLog
from spit_tui.engine import Game, Player, Ready
from spit_tui.keys.keymap import US
from spit_tui.table import Outcome, Table


def test_each_key_gets_one_line_in_order_with_its_key(tmp_path: Path) -> None:
    table = Table(Game(seed=3), VirtualClock())
    path = tmp_path / "decisions.jsonl"
    keys = list("qyq;/zp1")
    with DecisionLog(str(path)) as log:
        log.attach(table)
        for k in keys:
            table.submit_intent(US.keys[k])
        table.submit(Ready(Player.LEFT), "bot")
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [r["key"] for r in lines] == [*keys, ""]
    assert [r["seq"] for r in lines] == list(range(1, len(keys) + 2))
    assert lines[-1]["source"] == "bot"
    assert {r["outcome"] for r in lines} <= {str(o) for o in Outcome}
    assert [d.key for d in table.decisions] == [*keys, ""]


def test_the_option_is_on_the_command_line() -> None:
    args = build_parser().parse_args(["--decision-log", "x.jsonl"])
    assert args.decision_log == "x.jsonl"
