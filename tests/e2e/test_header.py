"""The header (the players, the turn line, the variants and the clock) keeps its height
from turn to turn, on a desktop and on a phone, so the table never jumps: the variants
button used to drop under a longer turn line and come back up on a computer's turn."""

from __future__ import annotations

from game_page import watch, watched
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal

# Every (header height, table top) seen from now on, with the turn line at the time.
LOOK_HEIGHTS = """() => {
    const head = document.querySelector('.scoreboard').getBoundingClientRect();
    const table = document.querySelector('#table').getBoundingClientRect();
    const row = [Math.round(head.height), Math.round(table.top),
      document.querySelector('#turn-info').textContent];
    const last = window.__heights.at(-1);
    if (!last || last[0] !== row[0] || last[1] !== row[1]) window.__heights.push(row);
}"""


def heights(page) -> list[list]:
    return watched(page, "__heights")


def start_with_variants(app, seed: int, levels: list[str]) -> None:
    page = app.page
    app.to_start_screen()
    page.get_by_label("Runs may wrap from 13 to 1").check()
    page.get_by_label("Sets with a joker are locked").check()
    app.new_game(seed, levels, clock=60, delay=500)


def clear_variants(app) -> None:
    page = app.page
    app.to_start_screen()
    page.get_by_label("Runs may wrap from 13 to 1").uncheck()
    page.get_by_label("Sets with a joker are locked").uncheck()
    page.get_by_label("Turn clock").select_option("")
    if app.button("Back to Game").is_visible():
        app.button("Back to Game").click()


def lay(app, sets: list[list[int]]) -> None:
    """Arrange the opening (not confirmed): the turn line says its total."""
    for tiles in sets:
        app.tap_new_set(tiles)
    expect(app.page.locator("#turn-info")).not_to_contain_text("Opening: 0 ")


def test_the_header_keeps_its_height_on_a_desktop(app):
    page = app.page
    levels = ("easy", "easy")
    seed, sets = opening_deal(levels)
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        start_with_variants(app, seed, list(levels))
        expect(page.locator("#rules-info")).to_be_visible()
        watch(page, "__heights", LOOK_HEIGHTS)
        # The computers' turns ("Computer 1 is thinking…"), the player's ("Your turn ·
        # Opening: 0 of 30"), and an opening arranged.
        for _ in range(2):
            app.button("Draw").click()
            app.wait_for_turn()
        lay(app, sets)
        seen = heights(page)
        assert len(seen) == 1, seen
        app.button("Reset Turn").click()
    finally:
        page.set_viewport_size({"width": 1280, "height": 860})
        clear_variants(app)


def test_the_header_keeps_its_height_on_a_phone(phone):
    """On a phone, with the variants button and the clock beside the turn line: the
    opening total ("39 of 30") is never split, and the line may take two lines without
    moving the table."""
    page = phone.page
    seed, sets = opening_deal()
    try:
        start_with_variants(phone, seed, LEVELS)
        expect(page.locator("#rules-count")).to_have_text("2 variants")
        watch(page, "__heights", LOOK_HEIGHTS)
        phone.button("Draw").click()
        phone.wait_for_turn()
        lay(phone, sets)
        assert "\u00a0of\u00a030" in page.locator("#turn-info").text_content()
        seen = heights(page)
        assert len(seen) == 1, seen
        phone.button("Reset Turn").click()
    finally:
        clear_variants(phone)


# Every moment the turn line is cut short (wider than its box: the ellipsis), with what
# it said then.
LOOK_CUT = """() => {
    const line = document.querySelector('#turn-info');
    if (line.checkVisibility() && line.scrollWidth > line.clientWidth)
      window.__cut.push([line.textContent, line.scrollWidth, line.clientWidth]);
}"""


def cut_short(page) -> list[list]:
    return watched(page, "__cut")


EASED = [
    "Runs may wrap from 13 to 1",
    "Sets with a joker are locked",
    "Opening gets easier while you wait",
]


def test_the_turn_line_is_never_cut_short_on_a_620_px_tablet(app):
    """Two variants and a clock beside "Your turn · Opening: 30 of 30": the variants
    button gives way (its own ellipsis), the turn line is read whole, and the header
    keeps its height."""
    page = app.page
    levels = ("easy", "easy", "easy")
    seed, sets = opening_deal(levels)
    page.set_viewport_size({"width": 620, "height": 900})
    try:
        start_with_variants(app, seed, list(levels))
        watch(page, "__heights", LOOK_HEIGHTS)
        watch(page, "__cut", LOOK_CUT)
        lay(app, sets)
        line = page.locator("#turn-info")
        expect(line).to_contain_text("\u00a0of\u00a030")
        assert cut_short(page) == []
        assert len(heights(page)) == 1
        size = line.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert size[0] <= size[1], size
        rules = page.locator("#rules-info").evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert rules[0] > rules[1], "the variants button gives way first"
        app.button("Reset Turn").click()
    finally:
        page.set_viewport_size({"width": 1280, "height": 860})
        clear_variants(app)


def start_eased(app, seed: int) -> None:
    page = app.page
    app.to_start_screen()
    for label in EASED:
        page.get_by_label(label).check()
    page.get_by_label("Opening meld").select_option("50")
    app.new_game(seed, ["easy"], clock=60, delay=500)


def clear_eased(app) -> None:
    page = app.page
    app.to_start_screen()
    for label in EASED:
        page.get_by_label(label).uncheck()
    page.get_by_label("Opening meld").select_option("30")
    page.get_by_label("Turn clock").select_option("")
    if app.button("Back to Game").is_visible():
        app.button("Back to Game").click()


def test_an_eased_opening_is_never_cut_short_on_a_tablet(app):
    """Opening 50, three variants (one the easing) and a clock: "Your turn · Opening: 0
    of 45 (eased from 50)" is read whole at 768 px (an iPad upright) and at 601 px (the
    narrowest tablet width, where it takes two lines), and the header never changes
    height from turn to turn."""
    page = app.page
    try:
        for width in (768, 601):
            page.set_viewport_size({"width": width, "height": 1024})
            start_eased(app, 5)
            watch(page, "__heights", LOOK_HEIGHTS)
            watch(page, "__cut", LOOK_CUT)
            line = page.locator("#turn-info")
            for _ in range(4):
                if "eased" in (line.text_content() or ""):
                    break
                app.button("Draw").click()
                app.wait_for_turn()
            expect(line).to_contain_text("(eased\u00a0from\u00a050)")
            assert cut_short(page) == [], width
            seen = heights(page)
            assert len(seen) == 1, (width, seen)
    finally:
        page.set_viewport_size({"width": 1280, "height": 860})
        clear_eased(app)


# The top bar: its height, the page's scroll width, and its items in view (each one's
# name, box and text).
TOP_BAR_JS = """() => {
  const bar = document.querySelector('.topbar').getBoundingClientRect();
  const items = [...document.querySelectorAll('.topbar > *')].filter((e) => e.checkVisibility())
    .map((e) => { const r = e.getBoundingClientRect();
      return {id: e.id || e.className, left: r.left, right: r.right, text: e.innerText}; });
  return {height: bar.height, scroll: document.scrollingElement.scrollWidth, items};
}"""


def test_the_top_bar_says_which_round_of_how_long_a_game(app):
    """In a game of several rounds the top bar says which round it is and the target,
    beside the brand: on one line over 800 px ("Round 1 · first to 300"), below that in
    two short lines in the brand name's place, without "first" at 380 px and less, and
    not at all at 350 px and less. At every width it costs the bar no height and moves
    no button: on one line beside the name it pushed How To Play off a 430 px screen, and
    onto a row of its own at 601-759 px (QA pass 28)."""
    page = app.page
    before = page.viewport_size
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS, target=300)
    expected = {
        (1280, 800): "Round 1 · first to 300",
        (801, 900): "Round 1 · first to 300",
        (744, 1133): "Round 1\nfirst to 300",
        (601, 900): "Round 1\nfirst to 300",
        (430, 932): "Round 1\nfirst to 300",
        (390, 844): "Round 1\nfirst to 300",
        (360, 640): "Round 1\nto 300",
        (320, 568): None,
        (568, 320): "Round 1\nfirst to 300",  # a small phone held sideways
        (844, 390): "Round 1 · first to 300",
    }
    line = page.locator("#round-line")
    try:
        for (width, height), text in expected.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(100)
            bar = page.evaluate(TOP_BAR_JS)
            names = [item["id"] for item in bar["items"]]
            shown = ["round-line"] if text else []
            assert names == ["brand", *shown, "menu-resign", "menu-new-game", "howto-open"]
            if text:
                assert bar["items"][1]["text"] == text, (width, bar["items"][1])
            assert bar["scroll"] <= width, (width, bar)  # nothing runs off the screen
            # The same bar and buttons as without the line.
            line.evaluate("e => { e.hidden = true; }")
            bare = page.evaluate(TOP_BAR_JS)
            line.evaluate("e => { e.hidden = false; }")
            assert bar["height"] == bare["height"], (width, bar, bare)
            assert bar["items"][-3:] == bare["items"][-3:], (width, bar, bare)
            assert bar["items"][-1]["right"] <= width - 4, (width, bar)
    finally:
        page.set_viewport_size(before)
