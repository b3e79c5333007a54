"""Benchmark: the built page in headless Chromium on loopback.

    .venv/bin/python benchmarks/web.py [--starts 5] [--games 2] [--turns 12]

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
import importlib.util
import itertools
import json
import shutil
import statistics
import sys
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--turns", type=int, default=12, help="computer turns per game")
    parser.add_argument("--table", type=int, default=40, help="table tiles for the main-thread run")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args(argv)

    build = load_build()
    dist = build.build()
    server = build.serve_in_thread(dist, "/rummikub/")
    url = build.site_url(server)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=list(build.CHROMIUM_ARGS))
        starts = []
        for _ in range(args.starts):
            context = browser.new_context()
            page = context.new_page()
            page.goto(url + "?delay=0", wait_until="commit")
            page.wait_for_function("performance.getEntriesByName('ui-ready').length > 0")
            page.get_by_role("button", name="Start Game").click()
            page.wait_for_selector("body[data-turn=mine], body[data-failed]", timeout=120_000)
            starts.append(
                page.evaluate(
                    """() => ({
                    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
                    ui: performance.getEntriesByName('ui-ready')[0].startTime,
                    playable: performance.getEntriesByName('first-turn-playable')[0]?.startTime,
                })"""
                )
            )
            context.close()
        print(f"cold starts (median of {args.starts}), ms since navigation:")
        for key, name in [
            ("paint", "first contentful paint"),
            ("ui", "start screen answers"),
            ("playable", "first deal playable"),
        ]:
            values = [s[key] for s in starts if s[key] is not None]
            print(f"  {name:<26} {statistics.median(values):8.0f}")

        context = browser.new_context()
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-engine=ready]", timeout=120_000)
        print("\ncomputer think time per move, ms (Pyodide in the page vs CPython):")
        print(
            f"  {'level':<8} {'moves':>5} {'page med':>9} {'page p95':>9} "
            f"{'cpy med':>8} {'cpy p95':>8} {'ratio':>6}"
        )
        for level in LEVELS:
            saves = positions(level, args.games, args.turns)
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
                f"{pct(browser_ms, 0.95):9.1f} {statistics.median(native):8.1f} "
                f"{pct(native, 0.95):8.1f} {ratio:6.2f}"
            )
        context.close()
        main_thread(browser, url, args.table)
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
