"""Fair races across the wire (issue 14 item 4): how often the earlier press wins.

    python benchmarks/fairness.py [--races 1000] [--reactions 300] [--parallel 10]
                                  [--netns] [--json] [--seed N]

Two bot clients at one host race for the same pile from the contested
position (spit_tui.net.race: both have a card for the 9s). LEFT is 5 ms from
the host and RIGHT 80 ms (one way, each direction), and every message is
jittered uniformly by up to +/-10 ms. The delay is injected by our delay proxy
(spit_tui.net.delay) on 127.0.0.1, or, with --netns, by tc netem on the
loopback of a fresh network namespace (root only; the seats are told apart
by their source ports), where the whole run then happens.

Two kinds of race, each in three modes (the host's equalisation: `off`;
`actions`, presses held; `both`, presses and views held):
- press races: the two press at moments a known gap apart (0-50 ms, the
  earlier chosen at random), as in the issue;
- reaction races: each presses a fixed reaction time after its *own* screen
  showed the race position, plus the gap for the later one: the race a
  person runs, which decides whether the views must be held too.
It reports, per gap bucket, how often the earlier press won, and each seat's
key-to-screen time (press to its own card showing) per mode. Bounded: each
race has a timeout, and the run a total bound.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass

from spit_tui.engine import Player
from spit_tui.net.client import Client
from spit_tui.net.delay import DelayProxy
from spit_tui.net.host import Host
from spit_tui.net.limits import Limits
from spit_tui.net.race import RACE_CARDS, RACE_KEYS, RACE_TOP, race_game, race_winner

NEAR_S, FAR_S, JITTER_S = 0.005, 0.080, 0.010
BUCKETS = ((0, 5), (5, 10), (10, 20), (20, 30), (30, 50))  # ms
MODES = {"off": (False, False), "actions": (True, False), "both": (True, True)}
WARM_S = 3.0  # pings measure both seats before the first race
SETTLE_S = 0.4  # after the reset both screens show the race (90 ms + a held view)
REACT_S = 0.150  # a reaction race's base reaction time
RACE_S = 2.0  # one race's bound
RUN_S = 1800.0  # the whole run's bound
NETNS = "spitfair"
HOST_PORT = 7878
PORT_BASE = {Player.LEFT: 40960, Player.RIGHT: 41024}  # 64 ports each: u32 mask 0xffc0


class Watch:
    """A seat's screen as the benchmark sees it: when pile a's top changed, and to what."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.tops: list[tuple[float, str | None]] = []
        self.event = asyncio.Event()
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self.client.ended is None:
            await self.client.changed()
            rv = self.client.latest
            if rv is None or not rv.pile_tops:
                continue
            top = rv.pile_tops[0]
            text = None if top is None else str(top)
            if not self.tops or self.tops[-1][1] != text:
                self.tops.append((loop.time(), text))
                self.event.set()

    async def seen(self, mark: int, card: str, timeout: float = RACE_S) -> float | None:
        """When this screen first showed `card` on pile a after entry `mark`."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            for t, top in self.tops[mark:]:
                if top == card:
                    return t
            self.event.clear()
            try:
                async with asyncio.timeout(max(0.0, end - loop.time())):
                    await self.event.wait()
            except TimeoutError:
                return None


@dataclass
class Race:
    kind: str  # "press" or "reaction"
    mode: str
    gap_ms: float
    first: Player
    winner: Player | None
    screen_ms: float | None  # the winner's press to its own card on its screen


class Arena:
    """One room, its two seats and what their screens showed."""

    def __init__(self, host: Host, code: str, clients: dict[Player, Client]) -> None:
        self.room = host.lobby.rooms[code]
        self.clients = clients
        self.watches = {p: Watch(c) for p, c in clients.items()}

    def reset(self) -> tuple[dict[Player, int], int]:
        table = self.room.table
        seq = table.decisions[-1].seq if table.decisions else -1
        table.clock.update()
        table.new_game(race_game())
        self.room.poke()
        return {p: len(w.tops) for p, w in self.watches.items()}, seq

    async def decided(self, seq: int) -> Player | None:
        """Wait until both presses are decided; whose card landed."""
        loop = asyncio.get_running_loop()
        end = loop.time() + RACE_S
        table = self.room.table
        while loop.time() < end:
            done = {d.player for d in table.decisions if d.seq > seq}
            if len(done) == 2:
                break
            await asyncio.sleep(0.005)
        return race_winner(table)

    async def race(self, kind: str, mode: str, first: Player, gap: float) -> Race:
        loop = asyncio.get_running_loop()
        marks, seq = self.reset()
        pressed: dict[Player, float] = {}

        def press(p: Player) -> None:
            pressed[p] = loop.time()
            self.clients[p].press(*RACE_KEYS[p])

        if kind == "press":
            await asyncio.sleep(SETTLE_S)
            t0 = loop.time() + 0.005
            for p in Player:
                loop.call_at(t0 + (0.0 if p is first else gap), press, p)
        else:

            async def react(p: Player) -> None:
                seen = await self.watches[p].seen(marks[p], RACE_TOP)
                if seen is not None:
                    loop.call_at(seen + REACT_S + (0.0 if p is first else gap), press, p)

            await asyncio.gather(*(react(p) for p in Player))
        winner = await self.decided(seq)
        screen = None
        if winner is not None and winner in pressed:
            shown = await self.watches[winner].seen(marks[winner], RACE_CARDS[winner])
            screen = None if shown is None else (shown - pressed[winner]) * 1000
        return Race(kind, mode, gap * 1000, first, winner, screen)


async def run_mode(mode: str, plan: list[tuple[str, Player, float]], parallel: int,
                   netns: bool, seed: int) -> tuple[list[Race], dict[str, object]]:
    # Behind the delay proxy the host's TCP sees every seat 0 ms away, so it
    # would prove no distance and hold nothing (net.latency): the proxy runs
    # trust the pings, as a host would if every client were honest. Under
    # tc netem the kernel sees the delay, and the host runs as it ships.
    # Every seat comes from 127.0.0.1: no per-address limit (net.limits).
    host = Host(port=HOST_PORT if netns else 0, seed=seed, equalise=MODES[mode],
                trust_pongs=not netns, limits=Limits.open())
    await host.start()
    proxies: list[DelayProxy] = []
    arenas: list[Arena] = []
    try:
        for i in range(parallel):
            code = host.new_room().code
            clients = {}
            for p, name, delay in ((Player.LEFT, "left", NEAR_S), (Player.RIGHT, "right", FAR_S)):
                if netns:
                    clients[p] = await Client.join("127.0.0.1", host.port, code, name,
                                                   local_addr=("127.0.0.1", PORT_BASE[p] + i))
                else:
                    proxy = DelayProxy(("127.0.0.1", host.port), delay, JITTER_S, seed=seed + i)
                    await proxy.start()
                    proxies.append(proxy)
                    clients[p] = await Client.join("127.0.0.1", proxy.port, code, name)
            arenas.append(Arena(host, code, clients))
        await asyncio.sleep(WARM_S)
        measured = {
            name: [a.room.seats[p].rtt.ms() for a in arenas]
            for p, name in ((Player.LEFT, "left_rtt_ms"), (Player.RIGHT, "right_rtt_ms"))
        }

        async def lane(k: int) -> list[Race]:
            return [await arenas[k].race(kind, mode, first, gap)
                    for kind, first, gap in plan[k::parallel]]

        lanes = await asyncio.gather(*(lane(k) for k in range(parallel)))
        for a in arenas:
            for c in a.clients.values():
                await c.close()
            for w in a.watches.values():
                w.task.cancel()
        return [r for rs in lanes for r in rs], measured
    finally:
        for proxy in proxies:
            await proxy.close()
        await host.close()
        await asyncio.sleep(0.7)  # the host's connections finish their goodbyes


def make_plan(kind: str, n: int, rng: random.Random) -> list[tuple[str, Player, float]]:
    return [(kind, rng.choice(list(Player)), rng.uniform(0, 0.050)) for _ in range(n)]


async def run_all(args: argparse.Namespace) -> dict[str, object]:
    rng = random.Random(args.seed)
    plan = make_plan("press", args.races, rng) + make_plan("reaction", args.reactions, rng)
    races: list[Race] = []
    measured = {}
    async with asyncio.timeout(RUN_S):
        for mode in MODES:
            got, measured[mode] = await run_mode(mode, plan, args.parallel, args.inside_netns,
                                                 args.seed)
            races += got
            print(f"  {mode}: {len(got)} races", file=sys.stderr, flush=True)
    return {"races": [r.__dict__ | {"first": r.first.name,
                                    "winner": None if r.winner is None else r.winner.name}
                      for r in races], "measured_rtt": measured}


def tally(rows: list[dict[str, object]]) -> dict[str, dict[str, dict[str, object]]]:
    """kind -> mode -> bucket -> {n, earlier (wins), pct}; plus '>=20'."""
    out: dict[str, dict[str, dict[str, object]]] = {}
    for kind in ("press", "reaction"):
        for mode in MODES:
            cell: dict[str, object] = {}
            sel = [r for r in rows if r["kind"] == kind and r["mode"] == mode]
            ranges = [(f"{lo}-{hi}", lo, hi) for lo, hi in BUCKETS] + [(">=20", 20, 50)]
            for label, lo, hi in ranges:
                rs = [r for r in sel if lo <= float(r["gap_ms"]) < hi or float(r["gap_ms"]) == hi]  # type: ignore[arg-type]
                won = sum(1 for r in rs if r["winner"] == r["first"])
                cell[label] = {"n": len(rs), "earlier": won,
                               "pct": round(100 * won / len(rs), 1) if rs else None}
            screens: dict[str, list[float]] = {"LEFT": [], "RIGHT": []}
            for r in sel:
                if r["screen_ms"] is not None and r["winner"] in screens:
                    screens[str(r["winner"])].append(float(r["screen_ms"]))  # type: ignore[arg-type]
            far = [r for r in sel if r["first"] == "RIGHT"]
            cell["far_first_pct"] = (
                round(100 * sum(1 for r in far if r["winner"] == "RIGHT") / len(far), 1)
                if far else None)
            cell["screen_ms"] = {
                who: (round(statistics.median(v), 1) if v else None) for who, v in screens.items()
            }
            out.setdefault(kind, {})[mode] = cell
    return out


def table_text(t: dict[str, dict[str, dict[str, object]]], how: str) -> str:
    lines = []
    for kind in t:
        lines.append(f"\n{kind} races ({how}): % won by the earlier press (n per mode)")
        lines.append("| gap (ms) | n | off | actions held | actions + views held |")
        lines.append("| --- | --- | --- | --- | --- |")
        for label in [f"{lo}-{hi}" for lo, hi in BUCKETS] + [">=20"]:
            cells = [t[kind][m][label] for m in MODES]
            pcts = " | ".join(f"{c['pct']}%" for c in cells)  # type: ignore[index]
            lines.append(f"| {label} | {cells[0]['n']} | {pcts} |")  # type: ignore[index]
        shows = "; ".join(f"{m}: near {t[kind][m]['screen_ms']['LEFT']} ms, "  # type: ignore[index]
                          f"far {t[kind][m]['screen_ms']['RIGHT']} ms" for m in MODES)  # type: ignore[index]
        lines.append(f"key to own screen, median: {shows}")
        far = ", ".join(f"{m} {t[kind][m]['far_first_pct']}%" for m in MODES)
        lines.append(f"won by the far seat when it pressed first (all gaps): {far}")
    return "\n".join(lines)


def netns_reason() -> str | None:
    """Why tc netem in a namespace cannot be used here, or None if it can (it tries)."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in ("ip", "tc"):
        if shutil.which(tool) is None:
            return f"no `{tool}` command"
    probe = f"{NETNS}-probe"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"`ip netns add` failed: {made.stderr.strip()[:200]}"
    try:
        cmd = ["tc", "-n", probe, "qdisc", "add", "dev", "lo", "root", "netem", "delay", "10ms"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            return (f"network namespaces work, but this kernel ({os.uname().release}) has no "
                    f"netem: `{' '.join(cmd[3:])}` says {done.stderr.strip()[:120]!r}"
                    + ("" if os.path.isdir("/lib/modules") else
                       " (and there is no /lib/modules to load sch_netem from)"))
        return None
    finally:
        subprocess.run(["ip", "netns", "del", probe], capture_output=True)


def netns_run(args: argparse.Namespace) -> dict[str, object] | str:
    """The whole run inside a fresh namespace whose loopback tc netem delays; or why not."""
    reason = netns_reason()
    if reason:
        return reason
    ns = ["ip", "netns"]
    subprocess.run([*ns, "del", NETNS], capture_output=True)
    cmds = [[*ns, "add", NETNS], ["ip", "-n", NETNS, "link", "set", "lo", "up"],
            ["tc", "-n", NETNS, "qdisc", "add", "dev", "lo", "root", "handle", "1:", "prio",
             "bands", "3", "priomap", *["2"] * 16]]
    for band, (p, delay) in enumerate(((Player.LEFT, NEAR_S), (Player.RIGHT, FAR_S)), start=1):
        cmds.append(["tc", "-n", NETNS, "qdisc", "add", "dev", "lo", "parent", f"1:{band}",
                     "handle", f"{band}0:", "netem", "delay", f"{delay * 1000:g}ms",
                     f"{JITTER_S * 1000:g}ms", "limit", "100000"])
        for way in ("sport", "dport"):
            cmds.append(["tc", "-n", NETNS, "filter", "add", "dev", "lo", "parent", "1:",
                         "protocol", "ip", "prio", "1", "u32", "match", "ip", way,
                         str(PORT_BASE[p]), "0xffc0", "flowid", f"1:{band}"])
    try:
        for cmd in cmds:
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                return f"`{' '.join(cmd[:6])} ...` failed: {done.stderr.strip()[:200]}"
        inner = [*ns, "exec", NETNS, sys.executable, __file__, "--inside-netns", "--json",
                 "--races", str(args.races), "--reactions", str(args.reactions),
                 "--parallel", str(args.parallel), "--seed", str(args.seed)]
        done = subprocess.run(inner, capture_output=True, text=True, timeout=RUN_S + 60)
        if done.returncode != 0:
            return f"the run in the namespace failed: {done.stderr.strip()[-300:]}"
        result: dict[str, object] = json.loads(done.stdout)
        return result
    finally:
        subprocess.run([*ns, "del", NETNS], capture_output=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--races", type=int, default=1000)
    ap.add_argument("--reactions", type=int, default=300)
    ap.add_argument("--parallel", type=int, default=10, help="rooms racing at once (<= 64)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--netns", action="store_true", help="also measure with tc netem (root)")
    ap.add_argument("--inside-netns", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not 1 <= args.parallel <= 64:
        ap.error("--parallel: 1 to 64")
    if args.inside_netns:
        print(json.dumps(asyncio.run(run_all(args))))
        return 0
    how = "delay proxy on 127.0.0.1"
    print(f"{how}: ...", file=sys.stderr)
    proxy = asyncio.run(run_all(args))
    report: dict[str, object] = {"proxy": {"tally": tally(proxy["races"]),  # type: ignore[arg-type]
                                           "measured_rtt": proxy["measured_rtt"]}}
    netem: dict[str, object] | str | None = None
    if args.netns:
        print("tc netem in a network namespace: ...", file=sys.stderr)
        netem = netns_run(args)
        report["netem"] = netem if isinstance(netem, str) else {
            "tally": tally(netem["races"]), "measured_rtt": netem["measured_rtt"]}  # type: ignore[arg-type]
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(table_text(report["proxy"]["tally"], how))  # type: ignore[index]
    print("host's measured round trips (ms):", report["proxy"]["measured_rtt"])  # type: ignore[index]
    if isinstance(netem, str):
        print(f"\ntc netem: skipped: {netem}")
    elif netem is not None:
        print(table_text(report["netem"]["tally"], "tc netem in a namespace"))  # type: ignore[index]
        print("host's measured round trips (ms):", report["netem"]["measured_rtt"])  # type: ignore[index]
    return 0


if __name__ == "__main__":
    sys.exit(main())
