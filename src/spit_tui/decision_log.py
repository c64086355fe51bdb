"""An opt-in log of a table's decisions, one JSON object a line, for tools.

    spit-tui --decision-log FILE      (or SPIT_DECISION_LOG=FILE spit-tui)

Every submission to the table (a key press or a bot's move) gets exactly one
Decision (see spit_tui.table); this writes each one as it is made, in order,
and flushes it, so a tool can read the file while the game runs (the burst
benchmark does: it sends 200 keys at once and checks that each has one line,
in the order sent). A line looks like

    {"seq": 7, "t": 1.234, "player": "left", "source": "key", "key": "q",
     "action": "L1a", "outcome": "illegal", "message": "..."}

`key` is the key pressed as in the key table ("q", ";"), "" for a bot's move;
`outcome` is one of applied, illegal, "too late" (a lost race) and ignored.
Nothing is written unless a log is asked for.
"""

from __future__ import annotations

import json
from types import TracebackType
from typing import IO

from spit_tui.table import Decision, Table

ENV = "SPIT_DECISION_LOG"


def decision_record(d: Decision) -> dict[str, object]:
    return {
        "seq": d.seq,
        "t": round(d.time, 6),
        "player": d.player.label,
        "source": d.source,
        "key": d.key,
        "action": d.action,
        "outcome": str(d.outcome),
        "message": d.message,
    }


class DecisionLog:
    """Writes every decision of the tables it is attached to, as it is made."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._file: IO[str] | None = open(path, "w", encoding="utf-8")  # noqa: SIM115

    def attach(self, table: Table) -> None:
        table.decision_listeners.append(self.write)

    def write(self, d: Decision) -> None:
        f = self._file
        if f is None:
            return
        f.write(json.dumps(decision_record(d), ensure_ascii=False) + "\n")
        f.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> DecisionLog:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
