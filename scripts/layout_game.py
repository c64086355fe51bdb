"""Play one whole game in tmux as two players on a given keyboard layout would:
the first-run check answered with that layout's keys, then only that layout's
characters sent (both halves, at random, in quick bursts) until the game is
over. Prints a transcript from the decision log (key, action, outcome).

    python scripts/layout_game.py fr [--seed N] [--target N] [--out FILE]

Uses its own tmux socket and a temporary folder for the user directories, so
the first-run check is really shown and nothing of the user's is touched.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from spit_tui.keys.detect import describe_ask
from spit_tui.keys.layout import preset


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("layout")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", type=int, default=25, help="points variant target")
    ap.add_argument("--out", help="write the transcript here")
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args(argv)
    layout = preset(args.layout)
    rng = random.Random(args.seed)
    keys = [k[0] for row in layout.keys[1:] for k in row]  # the three letter rows
    tmp = Path(tempfile.mkdtemp(prefix="spit-layout-"))
    log = tmp / "decisions.jsonl"
    sock = f"spit-layout-{uuid.uuid4().hex[:6]}"
    env = {k: v for k, v in os.environ.items() if k != "SPIT_LAYOUT"}
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[var] = str(tmp / var.lower())
    cmd = (
        f"{sys.executable} -m spit_tui --seed {args.seed} --variant points "
        f"--target {args.target} --decision-log {log} --no-history"
    )

    def tmux(*a: str) -> str:
        return subprocess.run(
            ["tmux", "-L", sock, "-f", os.devnull, *a],
            capture_output=True, text=True, check=False, env=env,
        ).stdout  # fmt: skip

    def screen() -> str:
        return tmux("capture-pane", "-p")

    def send(text: str) -> None:
        tmux("send-keys", "-l", text.replace(";", "\\;") if text == ";" else text)

    tmux("new-session", "-d", "-x", "100", "-y", "30", cmd)
    transcript: list[str] = []
    try:
        deadline = time.monotonic() + 20
        while "Which keyboard" not in screen():
            if time.monotonic() > deadline:
                print("the first-run check never showed:\n" + screen(), file=sys.stderr)
                return 1
            time.sleep(0.1)
        asked = []
        while "Your keyboard:" not in (s := screen()):
            m = re.search(r"press (the \w+ key of the [\w ]+ row)", s)
            if m is None:
                time.sleep(0.1)
                continue
            pos = next(p for p in layout.positions() if describe_ask(p) == m.group(1))
            asked.append(f"{m.group(1)}: {layout.key(pos)[0]}")
            send(layout.key(pos)[0])
            time.sleep(0.4)
        found = re.search(r"Your keyboard: (\w+)", screen())
        transcript.append(f"first-run check: {'; '.join(asked)} -> {found and found.group(1)}")
        tmux("send-keys", "Enter")
        time.sleep(0.5)
        end = time.monotonic() + args.timeout
        while time.monotonic() < end:
            if "GAME OVER" in screen():
                break
            burst = "".join(rng.choice(keys) for _ in range(6))
            for ch in burst:
                send(ch)
            time.sleep(0.12)
        final = screen()
    finally:
        tmux("kill-server")
    decisions = [json.loads(x) for x in log.read_text().splitlines() if x] if log.exists() else []
    applied = [d for d in decisions if d["outcome"] == "applied"]
    transcript.append(
        f"{len(decisions)} keys decided, {len(applied)} applied; keys used: "
        f"{''.join(sorted({d['key'] for d in decisions}))}"
    )
    for d in decisions:
        if d["outcome"] == "applied":
            transcript.append(f"{d['t']:8.2f}s  {d['key']}  {d['action']}")
    transcript.append("final screen:")
    transcript += [line.rstrip() for line in final.splitlines() if line.strip()]
    text = "\n".join(transcript) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        print(text)
    over = "GAME OVER" in final
    print(f"{args.layout}: game over: {over}; {len(applied)} plays", file=sys.stderr)
    return 0 if over else 1


if __name__ == "__main__":
    sys.exit(main())
