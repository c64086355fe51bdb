"""What one key costs the app itself: CPU time and bytes written to the terminal,
measured inside the process, so the figures hold on a loaded machine (wall-clock
latency does not: see latency.py).

    python benchmarks/keycost.py [--json] [--runs N] [--quick] [--against SRC]

spit-tui and the echo app (echo_app.py) run in a real terminal (tmux on a
private socket) with the same keys as latency.py, alternately. Inside each app
the key's arrival (the app's `on_event` for the key) and every frame written
(Textual's `App._display`: the compositor's update encoded and handed to the
driver) are stamped with the main thread's CPU clock (`time.thread_time`). Per key:

  cpu_ms     main-thread CPU from the key's arrival to the end of the first frame
             after it (the frame that shows the key: our handler, the screen's
             sync, Textual's refresh, compositor and encoding);
  bytes      the bytes of that frame (what the terminal must parse and paint);
  bytes_all  every byte written until the next key (the frame, plus any later
             frame the key caused, such as a highlight fading);
  idle_ms    main-thread CPU from the key's arrival until the loop next sleeps.

and per start, the whole process's CPU (`time.process_time`) when its first
frame is written (start-up without the wall clock's waits).

`--against SRC` also measures the spit-tui sources in SRC (a checkout's `src`
folder, e.g. `git archive REV src | tar -x -C DIR`) in the same run, for an A/B
comparison. `--profile FILE` runs one spit-tui start under cProfile, enabled
from each key (after the first) to its frame. Two environment variables help
when looking closer: KEYCOST_RAW=FILE keeps the last start's log with every
frame's text; KEYCOST_PROBE=SCRIPT runs SCRIPT inside each app before it starts
(extra stamps).
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import latency  # noqa: E402

QUIT_WAIT_S = 5.0


# -- inside the app's process ------------------------------------------------------


def _instrument(out: Path) -> None:
    """Stamp key arrivals and frames in this process; write them to `out` at exit.

    Textual is patched as textual.app loads (`_when_loaded`), not imported here:
    the app's own start (its imports, the collector spit-tui holds from its first
    line) runs as it does from the command line."""
    keys: list[float] = []  # main-thread CPU at each key's arrival (s)
    frames: list[tuple[float, int]] = []  # (main-thread CPU at the frame's end, bytes)
    waits: list[float] = []  # main-thread CPU each time the loop goes to sleep
    first: list[float] = []  # the whole process's CPU when its first frame was written
    select = selectors.DefaultSelector.select

    def waiting(self: Any, timeout: float | None = None) -> Any:
        if timeout is None or timeout > 0:
            waits.append(time.thread_time())
        return select(self, timeout)

    selectors.DefaultSelector.select = waiting  # type: ignore[method-assign]
    prof_path = os.environ.get("KEYCOST_PROFILE")
    profiler = None
    prof_keys = int(os.environ.get("KEYCOST_KEYS", "0"))  # how many keys to profile
    raw: list[str] | None = [] if os.environ.get("KEYCOST_RAW") else None
    if prof_path:
        import cProfile

        profiler = cProfile.Profile(time.thread_time)  # CPU: no waits, no other threads

    def patch(app_module: Any) -> None:
        from textual import events

        App = app_module.App
        display = App._display
        run_async = App.run_async

        def _display(self: Any, screen: Any, renderable: Any) -> None:
            driver = self._driver
            if driver is None:
                display(self, screen, renderable)
                return
            written = 0
            write = driver.write

            def counting(data: str) -> None:
                nonlocal written
                written += len(data.encode("utf-8", "replace"))
                if raw is not None:
                    raw.append(data)
                write(data)

            driver.write = counting
            try:
                display(self, screen, renderable)
            finally:
                del driver.write
            if written:
                if not frames:
                    first.append(time.process_time())
                frames.append((time.thread_time(), written))
                if profiler is not None:
                    profiler.disable()

        async def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            cls = type(self)
            on_event = cls.on_event

            async def stamped(app: Any, event: Any) -> None:
                if isinstance(event, events.Key) and not event.is_forwarded:
                    keys.append(time.thread_time())
                    if profiler is not None and 1 < len(keys) <= prof_keys:  # not the first
                        profiler.enable()
                await on_event(app, event)

            cls.on_event = stamped
            try:
                return await run_async(self, *args, **kwargs)
            finally:
                cls.on_event = on_event
                log: dict[str, Any] = {
                    "keys": keys,
                    "frames": frames,
                    "waits": waits,
                    "first": first,
                }
                if raw is not None:
                    log["raw"] = raw
                out.write_text(json.dumps(log))
                if profiler is not None and prof_path:
                    profiler.dump_stats(prof_path)

        App._display = _display
        App.run_async = run

    _when_loaded("textual.app", patch)


def _when_loaded(name: str, then: Any) -> None:
    """Call `then(module)` once the module `name` has loaded (a finder on
    sys.meta_path wraps its loader), without importing it now."""
    import importlib.abc
    import importlib.util

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
            if fullname != name:
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(fullname)
            if spec is None or spec.loader is None:
                return spec
            load = spec.loader.exec_module

            def exec_module(module: Any) -> None:
                load(module)
                then(module)

            spec.loader.exec_module = exec_module  # type: ignore[method-assign]
            return spec

    sys.meta_path.insert(0, Finder())


def inner(argv: list[str]) -> int:
    """`keycost.py inner OUT (spit|echo) [ARGS]`: run one app, instrumented."""
    out, which, rest = Path(argv[0]), argv[1], argv[2:]
    _instrument(out)
    probe = os.environ.get("KEYCOST_PROBE")  # a script of extra stamps (profiling aid)
    if probe:
        exec(compile(Path(probe).read_text(), probe, "exec"), {"__name__": "probe"})
    if which == "echo":
        import echo_app

        echo_app.main()
        return 0
    import runpy  # as `python -m spit_tui` starts (the command's own entry point)

    sys.argv = ["spit-tui", *rest]
    runpy.run_module("spit_tui", run_name="__main__", alter_sys=True)
    return 0


# -- outside: tmux, keys, figures ----------------------------------------------------


def per_key(log: dict[str, Any], sent: int) -> list[dict[str, float]]:
    """Each of the last `sent` keys' CPU to its first frame and bytes (see the doc)."""
    keys: list[float] = log["keys"]  # the sent keys, then the quit keys
    frames: list[tuple[float, int]] = [tuple(f) for f in log["frames"]]
    out = []
    for i, k in enumerate(keys[:sent]):
        nxt = keys[i + 1] if i + 1 < len(keys) else float("inf")
        after = [f for f in frames if k < f[0] <= nxt]
        if not after:
            continue
        done = after[0][0]
        idle = next((w for w in log["waits"] if w >= done), done)
        out.append(
            {
                "cpu_ms": (done - k) * 1000,
                "idle_ms": (idle - k) * 1000,
                "bytes": after[0][1],
                "bytes_all": sum(f[1] for f in after),
            }
        )
    return out


def measure(
    app: str, src: str | None, keys: list[str], profile: str | None = None
) -> tuple[list[dict[str, float]], float]:
    """One start of `app` ("spit" or "echo") in tmux: its per-key figures, and
    the process's CPU time (ms) when its first frame was written (start-up:
    the interpreter, imports, the app's set-up and first frame)."""
    with tempfile.TemporaryDirectory(prefix="spit-keycost-") as tmp:
        out = Path(tmp) / "log.json"
        argv = [sys.executable, str(HERE / "keycost.py"), "inner", str(out), app]
        if app == "spit":
            argv += ["--position", latency.bench_position()]
        env = [f"PYTHONPATH={src}"] if src is not None else []
        if profile is not None and app == "spit":
            env += [f"KEYCOST_PROFILE={profile}", f"KEYCOST_KEYS={len(keys)}"]
        if env:
            argv = ["env", *env, *argv]
        tm = latency.Tmux(argv, method="control")
        marker = "pile a" if app == "spit" else "echo ready"
        skip = app == "spit"
        try:
            t0 = tm.start()
            while marker not in tm.capture():
                if time.perf_counter() > t0 + 10:
                    raise RuntimeError(f"{app} never showed {marker!r}")
            time.sleep(0.3)
            for k in keys:
                before = latency._body(tm.capture(), skip)
                t = time.perf_counter()
                tm.send(k)
                while latency._body(tm.capture(), skip) == before:
                    if time.perf_counter() - t > latency.TIMEOUT_S:
                        raise RuntimeError(f"no visible change after key {k!r}")
                time.sleep(latency.SETTLE_S)
            time.sleep(0.3)  # the last key's later frames (a highlight fading)
            tm._command("send-keys -t bench C-q")
            if app == "spit":
                time.sleep(0.2)
                tm._command("send-keys -t bench Enter")
            deadline = time.perf_counter() + QUIT_WAIT_S
            while not out.exists() and time.perf_counter() < deadline:
                time.sleep(0.05)
            if not out.exists():
                raise RuntimeError(f"{app} wrote no figures (did it quit?)")
            time.sleep(0.05)
            log = json.loads(out.read_text())
            if os.environ.get("KEYCOST_RAW"):  # keep the frames written
                Path(os.environ["KEYCOST_RAW"]).write_text(out.read_text())
        finally:
            tm.kill()
    return per_key(log, len(keys)), log["first"][0] * 1000


def _summary(rows: list[dict[str, float]]) -> dict[str, float]:
    return {
        "n": len(rows),
        "cpu_ms_p50": round(statistics.median(r["cpu_ms"] for r in rows), 3),
        "cpu_ms_p90": round(latency.percentile([r["cpu_ms"] for r in rows], 0.9), 3),
        "cpu_ms_mean": round(statistics.mean(r["cpu_ms"] for r in rows), 3),
        "idle_ms_p50": round(statistics.median(r["idle_ms"] for r in rows), 3),
        "bytes_p50": statistics.median(r["bytes"] for r in rows),
        "bytes_all_p50": statistics.median(r["bytes_all"] for r in rows),
        "bytes_mean": round(statistics.mean(r["bytes"] for r in rows), 1),
    }


def run(runs: int = 3, against: str | None = None) -> dict[str, Any]:
    """Echo, spit-tui (and `against`'s spit-tui) `runs` times each, interleaved."""
    latency.compile_like_an_install()
    if against is not None:
        import compileall

        compileall.compile_dir(Path(against), quiet=1)
    keys = latency.spit_keys()
    apps = [("echo", "echo", None), ("spit-tui", "spit", None)]
    if against is not None:
        apps.append(("against", "spit", against))
    rows: dict[str, list[dict[str, float]]] = {name: [] for name, _, _ in apps}
    starts: dict[str, list[float]] = {name: [] for name, _, _ in apps}
    for _ in range(runs):
        for name, app, src in apps:
            got, start = measure(app, src, keys)
            rows[name] += got
            starts[name].append(start)
    res: dict[str, Any] = {"runs": runs, "keys": len(keys)}
    for name in rows:
        res[name] = _summary(rows[name])
        res[name]["startup_cpu_ms_p50"] = round(statistics.median(starts[name]), 1)
    res["cpu_ratio_p50"] = round(res["spit-tui"]["cpu_ms_p50"] / res["echo"]["cpu_ms_p50"], 3)
    res["startup_cpu_ratio"] = round(
        res["spit-tui"]["startup_cpu_ms_p50"] / res["echo"]["startup_cpu_ms_p50"], 3
    )
    if against is not None:
        res["against_src"] = against
    return res


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["inner"]:
        return inner(args_in[1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--runs", type=int, default=3, help="app starts per app (default 3)")
    ap.add_argument("--quick", action="store_true", help="one run each")
    ap.add_argument("--against", metavar="SRC", help="also measure the spit-tui sources in SRC")
    ap.add_argument(
        "--profile",
        metavar="FILE",
        help="instead: one spit-tui start under cProfile from each key to its frame "
        "(keys after the first), stats written to FILE (read with pstats)",
    )
    args = ap.parse_args(args_in)
    if args.profile:
        latency.compile_like_an_install()
        where = str(Path(args.profile).resolve())
        rows, _ = measure("spit", args.against, latency.spit_keys(), where)
        print(json.dumps(_summary(rows), indent=2))
        return 0
    res = run(1 if args.quick else args.runs, args.against)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        names = ["echo", "spit-tui"] + (["against"] if args.against else [])
        for name in names:
            r = res[name]
            print(
                f"{name:9} CPU key->frame p50 {r['cpu_ms_p50']:6.3f} ms  p90 {r['cpu_ms_p90']:6.3f}"
                f"  mean {r['cpu_ms_mean']:6.3f}  ->idle {r['idle_ms_p50']:6.3f}"
                f"  bytes p50 {r['bytes_p50']:7.0f}  (all frames {r['bytes_all_p50']:7.0f})"
                f"  n={r['n']}"
            )
            print(f"{'':9} start-up CPU to the first frame {r['startup_cpu_ms_p50']:7.1f} ms")
        print(f"CPU ratio {res['cpu_ratio_p50']}  start-up CPU ratio {res['startup_cpu_ratio']}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["inner"]:
        sys.exit(main())
    from userdirs import temporary_user_dirs

    with temporary_user_dirs():  # never the user's own history or config
        sys.exit(main())
