"""Burst: 200 keys from both halves of the keyboard, sent in bursts of 20 (each
ONE tmux send-keys), into a real spit-tui in tmux; every key must come out as
exactly one decision, in the order sent.

    python benchmarks/burst.py [--runs N] [--keys N] [--json]

spit-tui runs with `--decision-log FILE`, which writes one JSON line per
decision (applied, illegal, too late, ignored) with the key that asked for it.
After the burst the log is read back and compared with what was sent:

- keys lost: keys sent that have no decision (and `extra`: decisions for keys
  never sent, counted separately);
- order errors: decisions that are out of send order, i.e. how many of the
  matched decisions fall outside the longest common subsequence of the sent
  keys and the logged keys (0 when the log replays the send exactly).

The keys are drawn so that none recurs within 60 ms of itself (the D13
repeat rule: a key again that soon is a held key's repeat and does nothing):
each burst holds 20 different keys, the next burst the other 20 of the 40,
and the bursts go GAP_S apart, so a key's sends are at least 2 x GAP_S apart.
The repeats to expect are counted from the send times (0 when the sends kept
their spacing) and compared with the repeats logged.

Outcomes are reported by kind: acted, refused (illegal), too late (a lost
race), repeat, too soon (the 0.2 s guard), not now (a key that means nothing
in this phase, the countdown), with the reasons of the ignored ones.

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

from spit_tui.engine import PLAYERS  # noqa: E402
from spit_tui.keys.gate import REPEAT_S  # noqa: E402
from spit_tui.keys.intent import Row  # noqa: E402
from spit_tui.keys.keymap import US  # noqa: E402

N_KEYS = 200
BURST = 20  # keys in one send-keys: all different
GAP_S = 0.1  # between bursts: a key's sends are 2 x GAP_S apart at the least
WAIT_S = 10.0  # for the last decision to be logged


def burst_keys(n: int, seed: int) -> list[str]:
    """`n` keys from both halves (every row), in bursts of BURST different keys,
    halves mixed at random; each burst draws from the keys the one before did
    not use, so no key is in two bursts in a row."""
    rng = random.Random(seed)
    every = [k for p in PLAYERS for row in Row for k in US.row_keys(p, row)]
    bursts: list[str] = []
    rest = list(every)
    while sum(map(len, bursts)) < n:
        rng.shuffle(rest)
        size = min(BURST, n - sum(map(len, bursts)))
        bursts.append("".join(rest[:size]))
        rest = [k for k in every if k not in bursts[-1]]
    return bursts


def expected_repeats(bursts: list[str], sent_at: list[float]) -> int:
    """Keys sent less than REPEAT_S after the same key's last send."""
    last: dict[str, float] = {}
    n = 0
    for keys, t in zip(bursts, sent_at, strict=True):
        for k in keys:
            n += k in last and t - last[k] < REPEAT_S
            last[k] = t
    return n


def kind(rec: dict[str, Any]) -> str:
    """What became of a key, in words: acted, refused, too late, repeat, too soon, not now."""
    outcome = rec.get("outcome")
    if outcome == "applied":
        return "acted"
    if outcome == "illegal":
        return "refused"
    if outcome == "too late":
        return "too late"
    message = str(rec.get("message", ""))
    if message == "repeat":
        return "repeat"
    if message.startswith("too soon"):
        return "too soon"
    return "not now"


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
    bursts = burst_keys(n, seed)
    keys = "".join(bursts)
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
            sends: list[float] = []
            for i, chunk in enumerate(bursts):
                if i:
                    time.sleep(max(0.0, sends[-1] + GAP_S - time.perf_counter()))
                sends.append(time.perf_counter())
                tm.send_text(chunk)
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
    res["kinds"] = dict(Counter(kind(r) for r in key_recs))
    res["not_now"] = dict(Counter(str(r.get("message")) for r in key_recs if kind(r) == "not now"))
    res["repeats"] = res["kinds"].get("repeat", 0)
    res["repeats_expected"] = expected_repeats(bursts, sends)
    res["all_logged_s"] = round(took, 3)
    return res


def run(runs: int = 3, n: int = N_KEYS, seed: int = 1) -> dict[str, Any]:
    if shutil.which("tmux") is None:
        raise RuntimeError("tmux is not installed")
    results = [one_burst(n, seed + i) for i in range(runs)]
    outcomes: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    not_now: Counter[str] = Counter()
    for r in results:
        outcomes.update(r["outcomes"])
        kinds.update(r["kinds"])
        not_now.update(r["not_now"])
    return {
        "runs": runs,
        "keys_per_run": n,
        "keys_lost": sum(r["lost"] for r in results),
        "order_errors": sum(r["order_errors"] for r in results),
        "extra_decisions": sum(r["extra"] for r in results),
        "repeats": sum(r["repeats"] for r in results),
        "repeats_expected": sum(r["repeats_expected"] for r in results),
        "outcomes": dict(outcomes),
        "kinds": dict(kinds),
        "not_now": dict(not_now),
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
            f"{res['runs']} runs of {res['keys_per_run']} keys (bursts of {BURST}, "
            f"{GAP_S * 1000:.0f} ms apart): lost {res['keys_lost']}, "
            f"order errors {res['order_errors']}, extra decisions {res['extra_decisions']}, "
            f"repeats {res['repeats']} (expected from the send times: {res['repeats_expected']})"
        )
        print("by kind:", ", ".join(f"{k} {v}" for k, v in sorted(res["kinds"].items())))
        print("not now:", ", ".join(f"{k!r} {v}" for k, v in sorted(res["not_now"].items())))
    clean = res["keys_lost"] == res["order_errors"] == res["extra_decisions"] == 0
    return 0 if clean and res["repeats"] == res["repeats_expected"] else 1


if __name__ == "__main__":
    from userdirs import temporary_user_dirs

    with temporary_user_dirs():  # never the user's own history or config
        sys.exit(main())
