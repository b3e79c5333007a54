"""What a player does on the page, in the page's own words (Playwright, sync API)."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

TURN_TIMEOUT_MS = 60_000

# Each visible turn, top-bar and "Game log" button: its box, and how far up and down from
# its middle a tap still lands on it (its reach, in CSS pixels, up to 30 each way).
TAP_REACH_JS = """() => [...document.querySelectorAll(
    '.controls .buttons button, .topbar button, #log-toggle')]
  .filter((b) => b.checkVisibility())
  .map((b) => {
    const r = b.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hits = (dy) => b.contains(document.elementFromPoint(x, y + dy));
    let up = 0, down = 0;
    while (up < 30 && hits(-(up + 1))) up++;
    while (down < 30 && hits(down + 1)) down++;
    return {name: b.textContent.trim(), height: r.height, width: r.width, reach: up + down + 1};
  })"""


def hold_engine(page: Page, cmd: str) -> None:
    """Hold the page's engine calls of ``cmd`` (a bridge command) until
    ``window.__release()``, so a test can look at the page while they are pending; each
    held call is counted in ``window.__held``. ``unhold_engine`` puts the engine back."""
    page.evaluate(
        """(cmd) => {
  const engine = window.__rummikub.engine;
  const call = engine.call.bind(engine);
  window.__held = 0;
  engine.call = async (request, options) => {
    if (request.cmd === cmd) {
      window.__held += 1;
      await new Promise((resolve) => (window.__release = resolve));
    }
    return call(request, options);
  };
}""",
        cmd,
    )


def unhold_engine(page: Page) -> None:
    page.evaluate("delete window.__rummikub.engine.call")


def watch(page: Page, store: str, look: str) -> None:
    """Run the JS function ``look`` now and after every change to the page (a
    MutationObserver on the whole body) until ``watched``; ``look`` records what it sees
    in ``window[store]``, an array made empty here."""
    page.evaluate(
        f"""() => {{
  window[{store!r}] = [];
  const look = {look};
  const observer = new MutationObserver(look);
  observer.observe(document.body,
    {{subtree: true, childList: true, attributes: true, characterData: true}});
  (window.__watchers ||= []).push(observer);
  look();
}}"""
    )


def watched(page: Page, store: str) -> list:
    """Every watch stopped; what was recorded in ``window[store]``."""
    return page.evaluate(
        f"(window.__watchers || []).splice(0).forEach((o) => o.disconnect()), window[{store!r}]"
    )


# Each tile's flight from now on (render.js flyIn, slideFrom): which tile, where its flight
# starts (the middle of the copy's box moved by the flight's first frame), the box of the
# current player's card, and whether the copy could be taken for a tile (an id, or not
# hidden from screen readers). Read with ``watched(page, "__flights")``.
FLIGHTS_JS = """() => {
  window.__flights = [];
  const observer = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (!n.classList?.contains('flyer')) continue;
      const flight = n.getAnimations().find((a) => a.effect.getKeyframes()[0].transform);
      const m = flight.effect.getKeyframes()[0].transform
        .match(/translate\\(([-\\d.e]+)px, ([-\\d.e]+)px\\)/);
      const box = n.getBoundingClientRect();
      const card = document.querySelector('#players .player.current').getBoundingClientRect();
      window.__flights.push({id: Number(n.dataset.flight),
        x: parseFloat(n.style.left) + parseFloat(n.style.width) / 2 + Number(m[1]),
        y: parseFloat(n.style.top) + parseFloat(n.style.height) / 2 + Number(m[2]),
        card: {left: card.left, right: card.right, top: card.top, bottom: card.bottom},
        named: n.hasAttribute('data-id') || n.getAttribute('aria-hidden') !== 'true'});
    }
  });
  observer.observe(document.body, {childList: true});
  (window.__watchers ||= []).push(observer);
}"""


class GamePage:
    def __init__(self, page: Page):
        self.page = page

    # ----- finding things
    def button(self, name: str) -> Locator:
        return self.page.get_by_role("button", name=name, exact=True)

    def draw_or_pass(self) -> None:
        """Press Draw (named Pass once the pool is empty)."""
        self.page.get_by_role("button", name=re.compile(r"^(Draw|Pass)$")).click()

    @property
    def rack(self) -> Locator:
        return self.page.get_by_role("region", name="Your rack")

    @property
    def table(self) -> Locator:
        return self.page.get_by_role("region", name="Table")

    def tile(self, tile_id: int) -> Locator:
        return self.page.locator(f'.tile[data-id="{tile_id}"]')

    def set_box(self, index: int) -> Locator:
        return self.table.locator(f'.set[data-set="{index}"]')

    # Read in one evaluate: a render replaces set elements (keeping the tiles), so
    # element handles held across two protocol calls could see a detached set.
    def rack_ids(self) -> list[int]:
        return self.page.evaluate(
            "[...document.querySelectorAll('#rack .tile')].map(t => Number(t.dataset.id))"
        )

    def table_ids(self) -> list[list[int]]:
        return self.page.evaluate(
            "[...document.querySelectorAll('#sets .set')].map(s =>"
            " [...s.querySelectorAll('.tile')].map(t => Number(t.dataset.id)))"
        )

    def rack_labels(self) -> list[str]:
        return self.page.evaluate(
            "[...document.querySelectorAll('#rack .tile')].map(t => t.getAttribute('aria-label'))"
        )

    def tap_reach(self) -> list[dict]:
        """Each visible button of the turn, the top bar and "Game log": name, height,
        width and the reach of a tap (TAP_REACH_JS)."""
        return self.page.evaluate(TAP_REACH_JS)

    # ----- starting a game
    def new_game(
        self,
        seed: int,
        levels: list[str],
        target: int = 200,
        clock: int | None = None,
        delay: int = 0,
        wait: bool = True,
        people: list[str] | None = None,
    ) -> None:
        """Start a game from the start screen; `delay` is how long computer turns stay
        on show (0: instant, no animation); `people`, the names of several people
        sharing the device (by default one person, "You", against the computers)."""
        page = self.page
        self.to_start_screen()
        page.get_by_label("People at this device").select_option(str(len(people or [1])))
        for i, name in enumerate(people or []):
            page.get_by_label(f"Person {i + 1}'s name").fill(name)
        page.get_by_label("Computer opponents").select_option(str(len(levels)))
        for i, level in enumerate(levels):
            page.get_by_label(f"Computer {i + 1} level").select_option(level)
        page.get_by_label("Target score").select_option(str(target))
        page.get_by_label("Turn clock").select_option("" if clock is None else str(clock))
        more = page.locator("details.more", has_text="More options")
        if not more.evaluate("el => el.open"):
            more.locator("summary").click()
        page.get_by_label("Deal number").fill(str(seed))
        page.get_by_label("Computer turns stay on show").select_option(str(delay))
        more.locator("summary").click()
        self.button("Start Game").click()
        self.abandon_if_asked()
        if wait:
            self.wait_for_turn()

    def load_saved(self, save: str) -> GamePage:
        """Put ``save`` (a game saved as the page saves it) in the page's storage and
        reload: the page restores it. The page's new GamePage, once it is the player's
        turn (or the round is over)."""
        from conftest import BOOT_TIMEOUT_MS

        page = self.page
        page.evaluate("text => localStorage.setItem('rummikub.savedGame', text)", save)
        page.reload()
        page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
        app = GamePage(page)
        app.wait_for_turn()
        return app

    def to_start_screen(self) -> None:
        page = self.page
        # A saved game being restored shows the game once the engine has loaded it: wait,
        # so the way to the start screen is looked for on the screen that stays.
        expect(page.locator("#start-screen[aria-busy=true]")).to_have_count(0, timeout=60_000)
        dialog = page.locator("#round-dialog[open]")
        if dialog.count():
            dialog.get_by_role("button", name="New Game").click()
        elif page.locator("#menu-new-game").is_visible():
            page.locator("#menu-new-game").click()
        expect(page.get_by_role("heading", name="New Game")).to_be_visible()

    def abandon_if_asked(self) -> None:
        """Starting a game while a match is in progress asks first: abandon it."""
        dialog = self.page.get_by_role("dialog", name="Abandon this game?")
        if dialog.count():
            dialog.get_by_role("button", name="Abandon and Start").click()

    def wait_for_turn(self) -> None:
        """Until it is the player's turn again, or the round is over (on a shared device:
        or the device is handed to the next person and their button is ready)."""
        self.page.wait_for_selector(
            "body[data-turn=mine], #round-dialog[open], body[data-failed],"
            " #hand-over:not([hidden]) #hand-over-ready:not([aria-disabled])",
            timeout=TURN_TIMEOUT_MS,
        )
        failed = self.page.locator("body").get_attribute("data-failed")
        assert failed is None, f"the engine failed: {failed}"

    # ----- the keyboard
    def focused(self, target: Locator) -> bool:
        return target.evaluate("el => el === document.activeElement")

    def tab_to_region(self, target: Locator, back: bool = False, limit: int = 30) -> int:
        """Press Tab (Shift+Tab when `back`) until the focus is in the region holding
        `target` (the rack, the table, a bar of buttons: one Tab stop each); returns the
        number of presses."""
        inside = (
            "el => { const r = el.closest('#rack, #sets, .buttons') ?? el;"
            " return r.contains(document.activeElement); }"
        )
        for presses in range(limit + 1):
            if target.evaluate(inside):
                return presses
            self.page.keyboard.press("Shift+Tab" if back else "Tab")
        raise AssertionError(f"{limit} presses never reached the region of {target}")

    def keyboard_to(self, target: Locator, back: bool = False) -> int:
        """Tab to `target`'s region, then Home and the right arrow to `target` itself, as
        a keyboard player would; returns the number of key presses."""
        presses = self.tab_to_region(target, back)
        if self.focused(target):
            return presses
        self.page.keyboard.press("Home")
        for arrows in range(150):
            if self.focused(target):
                return presses + 1 + arrows
            self.page.keyboard.press("ArrowRight")
        raise AssertionError(f"the arrow keys never reached {target}")

    # ----- moving tiles
    def drag(self, source: Locator, target: Locator, where: str = "center") -> None:
        """Press on `source`, move in steps, release over `target` (left/center/right)."""
        mouse = self.page.mouse
        source.scroll_into_view_if_needed()
        box = source.bounding_box()
        mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        mouse.down()
        mouse.move(box["x"] + box["width"] / 2 + 12, box["y"] + box["height"] / 2 - 12, steps=3)
        tbox = target.bounding_box()
        fx = {"left": 0.1, "center": 0.5, "right": 0.92}[where]
        mouse.move(tbox["x"] + tbox["width"] * fx, tbox["y"] + tbox["height"] / 2, steps=8)
        mouse.up()

    def drag_new_set(self, tile_ids: list[int]) -> int:
        """Drag tiles one by one into a new set on the table; returns the set's index."""
        index = len(self.table_ids())
        self.drag(self.tile(tile_ids[0]), self.button("+ New Set"))
        expect(self.set_box(index).locator(".tile")).to_have_count(1)
        for n, tile_id in enumerate(tile_ids[1:], start=2):
            last = self.set_box(index).locator(".tile").last
            self.drag(self.tile(tile_id), last, "right")
            expect(self.set_box(index).locator(".tile")).to_have_count(n)
        return index

    def tap_new_set(self, tile_ids: list[int]) -> int:
        """Tap-to-place: tap a tile, then "+ New Set" or the gap at the set's end."""
        index = len(self.table_ids())
        self.tile(tile_ids[0]).click()
        self.button("+ New Set").click()
        for n, tile_id in enumerate(tile_ids[1:], start=2):
            self.tile(tile_id).click()
            self.page.get_by_role("button", name=f"Put here: Set {index + 1}, end").click()
            expect(self.set_box(index).locator(".tile")).to_have_count(n)
        return index
