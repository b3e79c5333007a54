"""Benchmark: the built page in headless Chromium on loopback.

    .venv/bin/python benchmarks/web.py [--sections boot,starts,think,main] [--runs 3]
        [--starts 5] [--games 2] [--turns 12] [--dist DIR]

The boot (``boot``), medians of --runs, each visit in a fresh browser context with reduced
motion: a bare Pyodide boot of the build's own runtime (a module worker that imports
pyodide.mjs, awaits loadPyodide() and runs 1+1), the game's first visit (navigation to
the dealt rack on screen, Start Game pressed as soon as the start screen answers) and
its return visit (the same context, the service worker and the saved game in place:
navigation to the restored rack), each also as a ratio to the bare boot of the same
run; then the same with the engine's snapshot withheld (a plain boot), and under two
slowed profiles (see ``Slowed``). Then the first visit's transfer and the engine
worker's memory, from the snapshot and plain. --dist serves a dist/ built elsewhere
(another commit's) instead of building.

Cold starts (a fresh browser context each, so nothing is cached): time to first
contentful paint, time until the start screen answers (its module has wired the
controls), and time until the first deal is playable when Start Game is pressed as soon
as the screen answers (the engine boots behind it; computer turns set to instant, so no
animation is counted). Medians of --starts.

Computer think time: positions met by each level in a few seeded games (against a
player who plays the engine's hint every turn, so tables fill up) are replayed in
the page (load the saved game, time one ``bot_turn`` through the worker) and in CPython
(the same call on the same saved game). Prints median and 95th percentile per level and
the ratio Pyodide / CPython measured in the same run.

The main thread while the computers play: a 4-player game (three Experts, the person's
seat playing the hint each turn) saved once the table holds --table tiles, restored in
the page, then at 1x and at 4x CPU (a slow phone; the worker is not slowed): the median
of 12 renders of the page as it stands (each with the layout it causes) that change
nothing, the median and maximum of 12 that change one tile as a step of a computer's
reveal does, and over the computers' three turns after Draw at the Normal pace, the
frames over 50 ms, the longest frame and the long tasks (over 50 ms each).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import itertools
import json
import os
import shutil
import signal
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from py_engine import bridge  # noqa: E402

LEVELS = ["easy", "medium", "hard", "expert"]


def load_build():
    spec = importlib.util.spec_from_file_location("rummikub_build", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def call(**request) -> dict:
    answer = json.loads(bridge.call(json.dumps(request)))
    assert "error" not in answer, answer
    return answer


def positions(level: str, games: int, turns: int) -> list[str]:
    """Saved games at moments a `level` computer is to play, `turns` per game spread from
    the start of the round to its end."""
    saves = []
    for seed in range(1, games + 1):
        # The person's seat plays the engine's hint every turn, so the table fills up.
        players = [{"name": "You", "kind": "human"}, {"name": "C", "kind": "bot", "level": level}]
        view = call(cmd="new_game", seed=seed, players=players, rules={"target": 0})["view"]
        found = []
        for _ in range(300):
            if view["round_over"]:
                break
            if view["current"] == view["me"]:
                hint = call(cmd="hint")
                view = (
                    call(cmd="play", table=hint["table"])["view"]
                    if hint["table"]
                    else (call(cmd="draw")["view"])
                )
            else:
                found.append(call(cmd="save")["save"])
                view = call(cmd="bot_turn")["view"]
        step = max(1, len(found) // turns)
        saves += found[::step][:turns]
    return saves


def late_position(min_tiles: int) -> tuple[int, str]:
    """A 4-player game against three Experts (seeds from 1), the person's seat playing
    the hint each turn, saved at the person's first turn with ``min_tiles`` on the table."""
    players = [{"name": "You", "kind": "human"}]
    players += [{"name": f"Computer {i}", "kind": "bot", "level": "expert"} for i in (1, 2, 3)]
    for seed in range(1, 40):
        view = call(cmd="new_game", seed=seed, players=players, rules={"target": 0})["view"]
        for _ in range(400):
            if view["round_over"]:
                break
            if view["current"] != view["me"]:
                view = call(cmd="bot_turn")["view"]
                continue
            if sum(len(s["tiles"]) for s in view["table"]) >= min_tiles:
                return seed, call(cmd="save")["save"]
            hint = call(cmd="hint")
            view = (
                call(cmd="play", table=hint["table"])["view"]
                if hint["table"]
                else call(cmd="draw")["view"]
            )
    raise SystemExit(f"no game reached {min_tiles} table tiles")


# ---------------------------------------------------------------- the boot

# A bare Pyodide boot of the build's runtime, as the issue that asked for the snapshot
# measured it: a module worker importing pyodide.mjs, loadPyodide() (the build's slim
# lock file, the default beside it), 1+1. Served at <site>/bare.html by a route.
BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module">
const runtime = new URL("pyodide/", location.href).href;
const source = `import { loadPyodide } from "${runtime}pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: "${runtime}" });
postMessage(pyodide.runPython("1+1"));`;
const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
const worker = new Worker(url, { type: "module" });
worker.onmessage = (e) => (window.__bare = [e.data, performance.now()]);
</script>"""

# The dealt (or restored) rack on screen: the page's clock then, checked every frame.
RACK_JS = "() => document.querySelectorAll('#rack .tile').length > 0 && performance.now()"
SNAPSHOTS = "**/engine/snapshot-*"
DROP_SNAPSHOT_JS = """async () => {
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys())
      if (request.url.includes("/engine/snapshot-")) await cache.delete(request);
  }
}"""


class Slowed:
    """A slow phone's CPU, two ways. ``page``: DevTools' Emulation.setCPUThrottlingRate
    at 4x, which slows the page's main thread only (DevTools refuses it for a worker:
    "Operation is only supported for pages, not workers"), so the engine's boot is not
    slowed. ``renderer``: every renderer process this benchmark's browser runs (the page,
    its workers, the service worker) stopped 15 ms of every 20 (SIGSTOP / SIGCONT), about
    4x slower throughout, the network and the disk as they are."""

    def __init__(self, how: str):
        self.how = how
        self.stop = threading.Event()
        self.thread = None

    def page(self, context, page) -> None:
        if self.how == "page":
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})

    def __enter__(self):
        if self.how == "renderer":
            self.thread = threading.Thread(target=self._cycle, daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        if self.thread:
            self.thread.join()

    def _cycle(self) -> None:
        for cycle in itertools.count():
            if self.stop.is_set():
                break
            if cycle % 10 == 0:  # new pages' processes join (a scan of /proc takes a while)
                pids = _our_renderers()
            _signal(pids, signal.SIGSTOP)
            time.sleep(0.015)
            _signal(pids, signal.SIGCONT)
            time.sleep(0.005)
        _signal(_our_renderers(), signal.SIGCONT)


def _our_renderers() -> list[int]:
    """The renderer processes descended from this one (this benchmark's browser only)."""
    children: dict[int, list[int]] = {}
    kinds: dict[int, bytes] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            kinds[int(entry)] = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), []):
            todo.append(child)
            if b"--type=renderer" in kinds.get(child, b""):
                found.append(child)
    return found


def _signal(pids: list[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


def withhold_snapshot(context) -> None:
    """The engine's worker finds no snapshot (404); the service worker still caches it."""
    context.route(
        SNAPSHOTS,
        lambda route: (
            route.continue_() if route.request.service_worker else route.fulfill(status=404)
        ),
    )


def bare_boot(browser, url: str, slowed: Slowed) -> float:
    context = browser.new_context()
    context.route(
        url + "bare.html", lambda route: route.fulfill(body=BARE_PAGE, content_type="text/html")
    )
    page = context.new_page()
    slowed.page(context, page)
    page.goto(url + "bare.html")
    page.wait_for_function("window.__bare", timeout=300_000)
    answer, ms = page.evaluate("window.__bare")
    assert answer == 2, answer
    context.close()
    return ms


def game_visits(browser, url: str, slowed: Slowed, snapshot: bool) -> tuple[float, float, str]:
    """Navigation to the dealt rack on a first visit, then to the restored rack on a
    return visit (the service worker and the saved game in place), ms; how the engine
    booted on each ("snapshot/snapshot")."""
    context = browser.new_context(reduced_motion="reduce")
    if not snapshot:
        withhold_snapshot(context)
    page = context.new_page()
    slowed.page(context, page)
    page.goto(url, wait_until="commit")
    page.wait_for_function("performance.getEntriesByName('ui-ready').length > 0", timeout=300_000)
    page.get_by_role("button", name="Start Game").click()
    first = page.wait_for_function(RACK_JS, polling="raf", timeout=300_000).json_value()
    boot = page.evaluate("window.__rummikub.engine.bootInfo.boot ?? 'plain'")
    page.wait_for_function(
        "navigator.serviceWorker.controller && localStorage.getItem('rummikub.savedGame')",
        timeout=300_000,
    )
    if not snapshot:  # installed: now the service worker has none either
        context.unroute(SNAPSHOTS)
        context.route(SNAPSHOTS, lambda route: route.fulfill(status=404))
        page.evaluate(DROP_SNAPSHOT_JS)
    page.close()
    page = context.new_page()
    slowed.page(context, page)
    page.goto(url, wait_until="commit")
    back = page.wait_for_function(RACK_JS, polling="raf", timeout=300_000).json_value()
    boot += "/" + page.evaluate("window.__rummikub.engine.bootInfo.boot ?? 'plain'")
    context.close()
    return first, back, boot


def boot_figures(browser, url: str, runs: int, profiles: list[str]) -> None:
    print(f"boot, medians of {runs} runs, ms since navigation (ratio: to the bare boot):")
    if not profiles or profiles == [""]:
        return
    heads = ("bare", "first", "ratio", "return", "ratio")
    print(f"  {'profile':<24} " + " ".join(f"{h:>6}" for h in heads) + "  engine")
    for how in profiles:
        for snapshot in (True, False):
            if how != "1x" and not snapshot:
                continue  # the slowed profiles with the snapshot only: each run is long
            bare, first, back, boots = [], [], [], set()
            with Slowed(how) as slowed:
                for _ in range(runs):
                    bare.append(bare_boot(browser, url, slowed))
                    f, b, boot = game_visits(browser, url, slowed, snapshot)
                    first.append(f)
                    back.append(b)
                    boots.add(boot)
            b, f, r = (statistics.median(v) for v in (bare, first, back))
            name = {"1x": "1x", "page": "4x page (DevTools)", "renderer": "4x renderer"}[how]
            name += "" if snapshot else ", snapshot withheld"
            engine = ",".join(sorted(boots))
            print(f"  {name:<24} {b:6.0f} {f:6.0f} {f / b:6.2f} {r:6.0f} {r / b:6.2f}  {engine}")


def first_visit_transfer(browser, build, dist: Path) -> None:
    """Bytes served on a first visit (the page's boot, then the service worker's install),
    with the snapshot and with it withheld."""
    server = build.make_server(dist, 0, "/rummikub/")
    handler = server.RequestHandlerClass.func
    sent: list[tuple[str, int]] = []
    plain_send_header = handler.send_header

    def send_header(self, keyword, value):
        if keyword == "Content-Length":
            sent.append((self.path.split("?")[0], int(value)))
        plain_send_header(self, keyword, value)

    handler.send_header = send_header
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = build.site_url(server)
    print("\nfirst visit, fresh context: bytes served (MB), requests for the .wasm, the worker's")
    print("memory after the boot: the runtime's (MB) and the JavaScript heap's (MB, DevTools):")
    print(f"  {'':<18} {'served':>8} {'.wasm':>6}  {'runtime':>8}  heap")
    for snapshot in (True, False):
        sent.clear()
        context = browser.new_context(reduced_motion="reduce")
        if not snapshot:
            withhold_snapshot(context)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-engine=ready]", timeout=300_000)
        page.wait_for_function("navigator.serviceWorker.controller", timeout=300_000)
        heap = worker_heap(context, page)
        info = page.evaluate("window.__rummikub.engine.bootInfo")
        context.close()
        wasm = sum(path.endswith(".wasm") for path, _ in sent)
        name = "snapshot" if snapshot else "snapshot withheld"
        memory = f"{info.get('memory', 0) / 1e6:.1f}" if info.get("memory") else "?"
        print(
            f"  {name:<18} {sum(n for _, n in sent) / 1e6:8.1f} {wasm:>6}  {memory:>8}  {heap}"
            f"  ({info.get('boot', 'plain')} boot)"
        )
    server.shutdown()
    server.server_close()


def worker_heap(context, page) -> str:
    """The engine worker's JavaScript heap, used and its ArrayBuffers' (not the runtime's
    WebAssembly memory), MB, as DevTools reads them after a garbage collection."""
    cdp = context.new_cdp_session(page)
    found = {}

    def attached(event):
        found["session"] = event["sessionId"]

    def message(event):
        found.update(json.loads(event["message"]).get("result", {}))

    cdp.on("Target.attachedToTarget", attached)
    cdp.on("Target.receivedMessageFromTarget", message)
    cdp.send(
        "Target.setAutoAttach",
        {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": False},
    )
    page.wait_for_timeout(200)
    if "session" not in found:
        return "?"
    for i, method in enumerate(("HeapProfiler.collectGarbage", "Runtime.getHeapUsage")):
        message_ = json.dumps({"id": i + 1, "method": method, "params": {}})
        cdp.send("Target.sendMessageToTarget", {"sessionId": found["session"], "message": message_})
        page.wait_for_timeout(300)
    keys = {"usedSize": "used", "backingStorageSize": "buffers"}
    return ", ".join(f"{name} {found[k] / 1e6:.1f}" for k, name in keys.items() if k in found)


FRAMES_JS = """() => {
  window.__frames = []; window.__long = []; let on = true;
  window.__stopFrames = () => (on = false);
  const longTasks = (list) => list.getEntries().forEach((e) => window.__long.push(e.duration));
  new PerformanceObserver(longTasks).observe({entryTypes: ['longtask']});
  const tick = (t) => { if (on) { window.__frames.push(t); requestAnimationFrame(tick); } };
  requestAnimationFrame(tick);
}"""

# Renders of the page as it stands, each with the layout it causes: one that changes
# nothing, and one that changes what a step of a computer's reveal changes (one tile
# shown or hidden).
RENDERS_JS = """() => {
  const game = window.__rummikub;
  const id = game.state.table[0][0];
  const out = {same: [], step: []};
  const time = (list) => {
    const t = performance.now();
    game.render();
    document.body.offsetHeight;
    list.push(performance.now() - t);
  };
  for (let i = 0; i < 12; i++) {
    time(out.same);
    game.state.pending = new Set(i % 2 ? [] : [id]);
    time(out.step);
  }
  game.state.pending = new Set();
  game.render();
  return out;
}"""


def main_thread(browser, url: str, min_tiles: int) -> None:
    seed, save = late_position(min_tiles)
    print(f"\nmain thread while the computers play (4 players, seed {seed}, Normal pace):")
    print(
        f"  {'CPU':<4} {'table':>5} {'same med':>8} {'step med':>8} {'max':>6} {'turns s':>7} "
        f"{'frames':>6} {'>50ms':>5} {'longest':>7} {'long tasks':>10} {'their ms':>8}"
    )
    for rate in (1, 4):
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
        page.evaluate("(save) => localStorage.setItem('rummikub.savedGame', save)", save)
        page.reload()
        page.wait_for_selector("body[data-turn=mine]", timeout=120_000)
        tiles = page.locator("#sets .tile").count()
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        renders = page.evaluate(RENDERS_JS)
        page.evaluate(FRAMES_JS)
        start = time.perf_counter()
        page.get_by_role("button", name="Draw", exact=True).click()
        page.wait_for_selector("body[data-turn=mine], body[data-turn=over]", timeout=120_000)
        wall = time.perf_counter() - start
        page.evaluate("window.__stopFrames()")
        frames = page.evaluate("window.__frames")
        long_tasks = page.evaluate("window.__long")
        gaps = [b - a for a, b in itertools.pairwise(frames)]
        print(
            f"  {rate}x{'':<2} {tiles:>5} {statistics.median(renders['same']):8.1f} "
            f"{statistics.median(renders['step']):8.1f} {max(renders['step']):6.1f} "
            f"{wall:7.1f} {len(gaps):>6} {sum(g > 50 for g in gaps):>5} {max(gaps):7.0f} "
            f"{len(long_tasks):>10} {sum(long_tasks):8.0f}"
        )
        context.close()


def cpython_ms(save: str) -> float:
    call(cmd="load", save=save)
    start = time.perf_counter()
    call(cmd="bot_turn")
    return (time.perf_counter() - start) * 1000


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def cold_starts(browser, url: str, starts: int) -> None:
    results = []
    for _ in range(starts):
        context = browser.new_context()
        page = context.new_page()
        page.goto(url + "?delay=0", wait_until="commit")
        page.wait_for_function("performance.getEntriesByName('ui-ready').length > 0")
        page.get_by_role("button", name="Start Game").click()
        page.wait_for_selector("body[data-turn=mine], body[data-failed]", timeout=120_000)
        results.append(
            page.evaluate(
                """() => ({
                paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
                ui: performance.getEntriesByName('ui-ready')[0].startTime,
                playable: performance.getEntriesByName('first-turn-playable')[0]?.startTime,
            })"""
            )
        )
        context.close()
    print(f"\ncold starts (median of {starts}), ms since navigation:")
    for key, name in [
        ("paint", "first contentful paint"),
        ("ui", "start screen answers"),
        ("playable", "first deal playable"),
    ]:
        values = [s[key] for s in results if s[key] is not None]
        print(f"  {name:<26} {statistics.median(values):8.0f}")


def think_times(browser, url: str, games: int, turns: int, levels: list[str]) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
    print("\ncomputer think time per move, ms (Pyodide in the page vs CPython):")
    print(
        f"  {'level':<8} {'moves':>5} {'page med':>9} {'page p95':>9} {'page p99':>9} "
        f"{'page max':>9} {'cpy med':>8} {'cpy p95':>8} {'cpy p99':>8} {'ratio':>6}"
    )
    for level in levels:
        saves = positions(level, games, turns)
        native = [cpython_ms(s) for s in saves]
        browser_ms = page.evaluate(
            """async (saves) => {
                const engine = window.__rummikub.engine;
                const times = [];
                for (const save of saves) {
                    await engine.call({cmd: "load", save});
                    const t0 = performance.now();
                    await engine.call({cmd: "bot_turn"});
                    times.push(performance.now() - t0);
                }
                return times;
            }""",
            saves,
        )
        ratio = statistics.median(browser_ms) / max(statistics.median(native), 1e-3)
        print(
            f"  {level:<8} {len(saves):>5} {statistics.median(browser_ms):9.1f} "
            f"{pct(browser_ms, 0.95):9.1f} {pct(browser_ms, 0.99):9.1f} {max(browser_ms):9.1f} "
            f"{statistics.median(native):8.1f} {pct(native, 0.95):8.1f} {pct(native, 0.99):8.1f} "
            f"{ratio:6.2f}"
        )
    context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", default="boot,starts,think,main")
    parser.add_argument("--runs", type=int, default=3, help="runs of each boot figure")
    parser.add_argument("--profiles", default="1x,page,renderer", help="the boot's CPU profiles")
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--turns", type=int, default=12, help="computer turns per game")
    parser.add_argument("--levels", default=",".join(LEVELS), help="levels timed by think")
    parser.add_argument("--table", type=int, default=40, help="table tiles for the main-thread run")
    parser.add_argument("--dist", type=Path, help="serve this dist/ instead of building one")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args(argv)
    sections = set(args.sections.split(","))

    build = load_build()
    dist = args.dist or build.build()
    server = build.serve_in_thread(dist, "/rummikub/")
    url = build.site_url(server)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=list(build.CHROMIUM_ARGS))
        if "boot" in sections:
            boot_figures(browser, url, args.runs, args.profiles.split(","))
            first_visit_transfer(browser, build, dist)
        if "starts" in sections:
            cold_starts(browser, url, args.starts)
        if "think" in sections:
            think_times(browser, url, args.games, args.turns, args.levels.split(","))
        if "main" in sections:
            main_thread(browser, url, args.table)
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
