"""Start-up and key latency with and without a config.toml read at start.

    python benchmarks/config_start.py [--runs N] [--source DIR ...] [--json]

Each variant starts the game in its own tmux terminal (latency.measure, the
function benchmarks/run.py's start-up figure comes from) on the same position
with the same keys, the variants interleaved run by run so a busy machine
weighs on each alike. Variants: no config.toml; a config.toml with every
setting at its default; one with the bell on for every event and reduced
motion. `--source DIR` adds the game from another source tree (e.g. an older
commit's `src`, from `git archive COMMIT src | tar -x -C DIR`), started with
no config.toml, to compare before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import latency

XDG_VARS = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")
DEFAULTS = "defaults"
CUES = 'bell = ["lost-race", "spit", "slap"]\nreduced_motion = true\n'


def _home(root: Path, name: str, config: str | None) -> list[str]:
    """`env` words for a fresh set of user folders, with `config` as config.toml."""
    home = root / name
    words = []
    for var in XDG_VARS:
        folder = home / var.lower()
        folder.mkdir(parents=True)
        words.append(f"{var}={folder}")
    if config is not None:
        (home / "xdg_config_home" / "spit-tui").mkdir(mode=0o700)
        path = home / "xdg_config_home" / "spit-tui" / "config.toml"
        if config == DEFAULTS:
            import tomli_w

            from spit_tui.settings import SETTINGS
            from spit_tui.settings.fields import toml_value

            config = tomli_w.dumps({s.key: toml_value(s.default) for s in SETTINGS})
        path.write_text(config, encoding="utf-8")
    return words


def variants(root: Path, sources: list[str]) -> dict[str, list[str]]:
    py = sys.executable
    game = [py, "-m", "spit_tui", "--no-history", "--position", latency.bench_position()]
    us = ["env", "SPIT_LAYOUT=us"]
    out = {
        "no config.toml": [*us, *_home(root, "none", None), *game],
        "config.toml, defaults": [*us, *_home(root, "defaults", DEFAULTS), *game],
        "config.toml, bell + reduced motion": [*us, *_home(root, "cues", CUES), *game],
    }
    for i, source in enumerate(sources):
        env = ["env", f"PYTHONPATH={source}", "SPIT_LAYOUT=us", *_home(root, f"src{i}", None)]
        out[f"{source} (no config.toml)"] = [*env, *game]
    return out


def run(runs: int, sources: list[str]) -> dict[str, Any]:
    keys = latency.spit_keys()
    with tempfile.TemporaryDirectory(prefix="spit-bench-config-") as tmp:
        argvs = variants(Path(tmp), sources)
        figures: dict[str, dict[str, list[float]]] = {
            name: {"startup_ms": [], "p50_ms": [], "p95_ms": []} for name in argvs
        }
        for _ in range(runs):
            for name, argv in argvs.items():
                start, lat = latency.measure(argv, keys, "pile a", skip_header=True)
                stats = latency._stats(lat)
                figures[name]["startup_ms"].append(round(start * 1000, 1))
                figures[name]["p50_ms"].append(stats["median_ms"])
                figures[name]["p95_ms"].append(stats["p95_ms"])
    return {
        name: {**{k: round(statistics.median(v), 2) for k, v in f.items()}, "runs": f}
        for name, f in figures.items()
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="starts per variant (default 5)")
    ap.add_argument("--source", action="append", default=[], metavar="DIR",
                    help="also the game from this source tree (its src folder)")  # fmt: skip
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    res = run(args.runs, [os.path.abspath(s) for s in args.source])
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    for name, r in res.items():
        print(
            f"{name:40s} start-up {r['startup_ms']:7.1f} ms   "
            f"key p50 {r['p50_ms']:6.2f} ms  p95 {r['p95_ms']:6.2f} ms   (medians of {args.runs})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
