"""Key latency with the kitty keyboard protocol active, against plain bytes, in
one pseudo-terminal that answers the protocol query (tests/testkit/kittypty.py).

spit-tui starts from latency.py's position, where every key plays a card. Each
key is sent either as its plain character or as a kitty sequence (press with
its text field, as kitty sends it with flags 31), alternating key by key; the
time from writing the key to the first bytes of the redraw is one sample.
Both kinds meet the same machine load, so their ratio is the parser's cost.

    python benchmarks/kitty_latency.py [--json] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from latency import bench_position, percentile, spit_keys  # noqa: E402
from testkit.kittypty import KittyPty  # noqa: E402

SETTLE_S = 0.06


def kitty(ch: str) -> str:
    return f"\x1b[{ord(ch)};1;{ord(ch)}u"


def one_run() -> dict[str, list[float]]:
    env = {**os.environ, "TERM": "xterm-kitty", "SPIT_LAYOUT": "us", "LC_ALL": "C.UTF-8"}
    term = KittyPty(["--position", bench_position(), "--no-history"], env, flags=25)
    out: dict[str, list[float]] = {"plain": [], "kitty": []}
    try:
        term.wait_for(b"pile a")
        term.pump(0.5)
        for i, ch in enumerate(spit_keys()):
            kind = "kitty" if i % 2 else "plain"
            data = kitty(ch) if kind == "kitty" else ch
            t0 = time.perf_counter()
            term.send(data)
            r, _, _ = select.select([term.fd], [], [], 2.0)
            if r:
                out[kind].append((time.perf_counter() - t0) * 1000)
            term.pump(SETTLE_S)
    finally:
        term.close()
    return out


def stats(xs: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(xs), 2), "p95": round(percentile(xs, 0.95), 2)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    got: dict[str, list[float]] = {"plain": [], "kitty": []}
    for _ in range(args.runs):
        for k, v in one_run().items():
            got[k] += v
    res: dict[str, Any] = {k: stats(v) | {"n": len(v)} for k, v in got.items()}
    res["kitty_over_plain_p50"] = round(res["kitty"]["p50"] / res["plain"]["p50"], 3)
    print(json.dumps(res) if args.json else res)
    return 0


if __name__ == "__main__":
    from userdirs import temporary_user_dirs

    with temporary_user_dirs():  # never the user's own history or config
        sys.exit(main())
