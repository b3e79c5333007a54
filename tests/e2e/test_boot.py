"""The page loads under a sub-path, the start screen works while the engine boots in
its worker, and the boot completes."""

import json
import re

from conftest import BOOT_TIMEOUT_MS, DIST
from playwright.sync_api import expect


def test_start_screen_is_usable_while_the_engine_boots(browser, site, requests_seen):
    context = browser.new_context()
    requests_seen.watch(context)
    page = context.new_page()
    page.goto(site, wait_until="domcontentloaded")
    # Before the engine is ready: the settings respond and the progress is shown.
    expect(page.get_by_role("heading", name="New Game")).to_be_visible()
    expect(page.get_by_role("progressbar", name="Engine loading")).to_be_attached()
    assert page.locator("body").get_attribute("data-engine") in ("booting", None)
    page.get_by_label("Computer opponents").select_option("3")
    expect(page.get_by_label("Computer 3 level")).to_be_visible()
    page.get_by_label("Computer 3 level").select_option("hard")
    # The boot completes and says so.
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    expect(page.get_by_role("status").first).to_contain_text("Engine ready")
    ready = page.locator("#boot")
    expect(ready).to_be_visible()
    page.get_by_role("button", name="Start Game").click()
    page.wait_for_selector("body[data-turn=mine]", timeout=60_000)
    expect(page.get_by_role("list", name="Players").locator("li")).to_have_count(4)
    # In the game the top bar is for the game: "Engine ready (2.7 s)" is put away, and
    # the buttons stay at the right (it was the boot line that held them there).
    expect(ready).to_be_hidden()
    width = page.viewport_size["width"]
    howto = page.get_by_role("button", name="How To Play").bounding_box()
    resign = page.get_by_role("button", name="Resign").bounding_box()
    assert width - (howto["x"] + howto["width"]) < 24, howto
    assert resign["x"] > width / 2, resign
    context.close()


# Every change to the boot line, the bar and the start button, from the page's first
# script on: [text, bar value, button text, the short figure].
RECORD_BOOT_JS = """() => {
  window.__boot = [];
  const look = () => {
    const text = document.getElementById("boot-text")?.textContent;
    const bar = document.getElementById("boot-progress")?.value;
    const start = document.getElementById("start-game")?.textContent;
    const short = document.getElementById("boot-short")?.textContent;
    const last = window.__boot.at(-1);
    const now = [text, bar, start, short];
    if (!last || now.some((v, i) => v !== last[i])) window.__boot.push(now);
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true,
    characterData: true, attributes: true});
}"""


def build_info() -> dict:
    """The build's BUILD (dist/web/build-info.js)."""
    source = (DIST / "web" / "build-info.js").read_text()
    return json.loads(source[source.index("{") : source.rindex("}") + 1])


def boot_bytes() -> int:
    """What a boot from the engine's snapshot downloads: the runtime's .wasm and standard
    library, and the snapshot."""
    info = build_info()
    files = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", info["snapshot"]["path"]]
    return sum(info["sizes"][path] for path in files)


def test_the_download_shows_how_far_it_is_on_a_slow_link(browser, site):
    """On a first visit over a slow link the bar stood at nothing for the whole download
    (over a minute at 1.6 Mbit/s): it counted the boot's stages, the first of which is
    the 12 MB download. Now it counts bytes (the runtime's and the engine's snapshot's,
    17.6 MB), the line says how many, a phone shows the figure, and Start Game pressed
    meanwhile says how far the engine is."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    # About 8 MB/s: the download takes a second or two, long enough to be seen in steps.
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": 8e6, "uploadThroughput": 1e6},
    )
    page.add_init_script(f"({RECORD_BOOT_JS})()")
    page.goto(site, wait_until="domcontentloaded")
    page.get_by_role("button", name="Start Game").click()
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    page.wait_for_selector("body[data-turn=mine], body[data-turn=theirs]", timeout=60_000)
    seen = page.evaluate("window.__boot")
    context.close()
    bars = [bar for _, bar, _, _ in seen if bar is not None]
    assert bars == sorted(bars), bars  # never back
    downloading = [text for text, bar, _, _ in seen if text and " MB)" in text]
    assert len(downloading) >= 5, seen  # the count went up in steps
    total = f"{boot_bytes() / 1e6:.1f}"
    assert re.fullmatch(
        rf"Loading the game engine… \d+% \(\d+\.\d of {total} MB\)", downloading[-1]
    )
    assert len({bar for bar in bars if 0 < bar < 85}) >= 5, bars
    assert any(short and short.endswith("%") for _, _, _, short in seen), seen
    waiting = [start for _, _, start, _ in seen if start and start.startswith("Waiting")]
    assert any(re.fullmatch(r"Waiting for the engine… \d+%", w) for w in waiting), waiting
    assert seen[-1][0].startswith("Engine ready"), seen[-1]
