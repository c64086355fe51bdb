"""Burst: 200 keys from both halves of the keyboard in ONE tmux send-keys, into
a real spit-tui in tmux; every key must come out as exactly one decision, in
the order sent.

    python benchmarks/burst.py [--runs N] [--keys N] [--json]

spit-tui runs with `--decision-log FILE`, which writes one JSON line per
decision (applied, illegal, too late, ignored) with the key that asked for it.
After the burst the log is read back and compared with what was sent:

- keys lost: keys sent that have no decision (and `extra`: decisions for keys
  never sent, counted separately);
- order errors: decisions that are out of send order, i.e. how many of the
  matched decisions fall outside the longest common subsequence of the sent
  keys and the logged keys (0 when the log replays the send exactly).

The game starts from the latency benchmark's position (play phase, every
stockpile showing a card), so the burst meets plays, refusals (illegal, lost
races), and, once nobody can play, the "spit" phase.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from latency import Tmux, bench_position  # noqa: E402

from spit_tui.players.keymap import KEY_ROWS  # noqa: E402

N_KEYS = 200
WAIT_S = 10.0  # for the last decision to be logged


def burst_keys(n: int, seed: int) -> str:
    """`n` keys drawn from both halves (every row), alternating halves at random."""
    rng = random.Random(seed)
    halves = ["".join(rows.values()) for rows in KEY_ROWS.values()]
    return "".join(rng.choice(halves[rng.random() < 0.5]) for _ in range(n))


def lcs_len(a: str, b: str) -> int:
    prev = [0] * (len(b) + 1)
    for ch in a:
        cur = [0]
        for j, bj in enumerate(b):
            cur.append(prev[j] + 1 if ch == bj else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def compare(sent: str, logged: str) -> dict[str, int]:
    lost = sum((Counter(sent) - Counter(logged)).values())
    extra = sum((Counter(logged) - Counter(sent)).values())
    matched = len(sent) - lost
    return {"lost": lost, "extra": extra, "order_errors": matched - lcs_len(sent, logged)}


def read_log(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            break  # a line being written
    return out


def one_burst(n: int, seed: int) -> dict[str, Any]:
    keys = burst_keys(n, seed)
    with tempfile.TemporaryDirectory(prefix="spit-burst-") as tmp:
        log = Path(tmp) / "decisions.jsonl"
        argv = [sys.executable, "-m", "spit_tui", "--position", bench_position()]
        argv += ["--decision-log", str(log)]
        tm = Tmux(argv)
        try:
            t0 = tm.start()
            while "pile a" not in tm.capture():
                if time.perf_counter() - t0 > 10:
                    raise RuntimeError("spit-tui never showed its board")
                time.sleep(0.01)
            time.sleep(0.3)  # past the D13 guard: the burst meets a settled board
            sent_at = time.perf_counter()
            tm.send_text(keys)
            recs = read_log(log)
            last_change = time.perf_counter()
            while len(recs) < n:
                time.sleep(0.02)
                new = read_log(log)
                if len(new) != len(recs):
                    last_change = time.perf_counter()
                recs = new
                if time.perf_counter() - last_change > WAIT_S:
                    break
            took = time.perf_counter() - sent_at
            time.sleep(0.2)  # anything beyond n would be an extra decision
            recs = read_log(log)
        finally:
            tm.kill()
    key_recs = [r for r in recs if r.get("source") == "key"]
    logged = "".join(r["key"] for r in key_recs)
    res: dict[str, Any] = compare(keys, logged)
    res["keys"] = n
    res["decisions"] = len(key_recs)
    res["outcomes"] = dict(Counter(r["outcome"] for r in key_recs))
    res["all_logged_s"] = round(took, 3)
    return res


def run(runs: int = 3, n: int = N_KEYS, seed: int = 1) -> dict[str, Any]:
    if shutil.which("tmux") is None:
        raise RuntimeError("tmux is not installed")
    results = [one_burst(n, seed + i) for i in range(runs)]
    outcomes: Counter[str] = Counter()
    for r in results:
        outcomes.update(r["outcomes"])
    return {
        "runs": runs,
        "keys_per_run": n,
        "keys_lost": sum(r["lost"] for r in results),
        "order_errors": sum(r["order_errors"] for r in results),
        "extra_decisions": sum(r["extra"] for r in results),
        "outcomes": dict(outcomes),
        "per_run": results,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keys", type=int, default=N_KEYS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    res = run(args.runs, args.keys)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print(
            f"{res['runs']} bursts of {res['keys_per_run']} keys: lost {res['keys_lost']}, "
            f"order errors {res['order_errors']}, extra decisions {res['extra_decisions']}"
        )
        print("outcomes:", ", ".join(f"{k} {v}" for k, v in sorted(res["outcomes"].items())))
    return 0 if res["keys_lost"] == res["order_errors"] == res["extra_decisions"] == 0 else 1


if __name__ == "__main__":
    from userdirs import temporary_user_dirs

    with temporary_user_dirs():  # never the user's own history or config
        sys.exit(main())
