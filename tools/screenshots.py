"""The screenshots in docs/screenshots/ (shown in the README), taken from the real page
mid-game, the same on every run.

    .venv/bin/python tools/screenshots.py [--dist DIR] [--out docs/screenshots]

Builds dist/ (unless --dist names a built one), serves it on loopback and, in Debian's
Chromium, plays one seeded deal through the page at three sizes: desktop 1280x800,
tablet 820x1180 and phone 390x844 (CSS pixels, one device pixel each). The player
draws until the computers have laid a few sets, lays one set of their own (found by
the engine in CPython playing the same deal: tests/e2e/game_twin.py), and picks up a
rack tile, so the gaps it can go to are shown. Computer turns are instant and motion is
reduced, so nothing is caught half-way; the engine's boot time (which differs from run
to run) is hidden.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

import game_twin as twin  # noqa: E402
from game_page import GamePage  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

LEVELS = ["medium", "medium"]
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "tablet": {"viewport": {"width": 820, "height": 1180}, "has_touch": True},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


def load_build():
    spec = importlib.util.spec_from_file_location("rummikub_build", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def table_ids(view: dict) -> list[list[int]]:
    return [[t["id"] for t in s["tiles"]] for s in view["table"]]


def deal() -> tuple[int, int, list[int]]:
    """The first seed where, after a few draws, the computers have laid at least four
    sets (one with a joker) and the player holds a set to lay: (seed, draws, set)."""
    for seed in range(1, 500):
        view = twin.computers(twin.new_game(seed, LEVELS))
        for draws in range(1, 5):
            if view["round_over"]:
                break
            view = twin.computers(twin.call(cmd="draw")["view"])
            sets = view["table"]
            joker = any(t["joker"] for s in sets for t in s["tiles"])
            if view["round_over"] or len(sets) < 4 or not joker:
                continue
            for ids in twin.candidate_sets(view["rack"]):
                if twin.call(cmd="check", table=[*table_ids(view), ids])["ok"]:
                    return seed, draws, ids
    raise SystemExit("no deal found")


def shoot(browser, site: str, name: str, options: dict, plan, out: Path) -> None:
    seed, draws, ids = plan
    context = browser.new_context(device_scale_factor=1, reduced_motion="reduce", **options)
    page = context.new_page()
    page.goto(site)
    page.wait_for_selector("body[data-engine=ready]", timeout=90_000)
    app = GamePage(page)
    app.new_game(seed, LEVELS)
    for _ in range(draws):
        app.button("Draw").click()
        app.wait_for_turn()
        expect(app.button("Draw")).to_be_enabled()
    app.tap_new_set(ids)
    expect(app.set_box(len(app.table_ids()) - 1).locator(".set-note")).not_to_be_empty()
    app.tile(app.rack_ids()[0]).click()
    expect(app.rack.get_by_role("button", name="Put here: rack, end")).to_have_count(1)
    page.add_style_tag(content="#boot { visibility: hidden; }")
    page.evaluate("document.activeElement?.blur()")  # no focus ring from the last click
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / f"{name}.png"))
    context.close()
    print(f"{out / f'{name}.png'}: {options['viewport']['width']}x{options['viewport']['height']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, help="a built dist/ (default: build one)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    build = load_build()
    dist = args.dist or build.DIST
    if not args.dist:
        build.build(dist)
    plan = deal()
    print(f"seed {plan[0]}, {plan[1]} draws, then lays tiles {plan[2]}")
    args.out.mkdir(parents=True, exist_ok=True)
    server = build.serve_in_thread(dist, "/rummikub/")
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=list(build.CHROMIUM_ARGS))
            for name, options in SIZES.items():
                shoot(browser, build.site_url(server), name, options, plan, args.out)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
