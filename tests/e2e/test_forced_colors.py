"""What a player who cannot rely on the page's colours still sees: the state of a turn in
forced colours (Windows High Contrast), the four colours' symbols drawn alike in size, and
finger-sized disclosure rows on a phone's start screen."""

from __future__ import annotations

import base64
import functools
import re

import game_twin as twin
from playwright.sync_api import expect
from test_play import LEVELS

COLOURS = ("red", "blue", "yellow", "black")
ACCENT = "255, 204, 77"  # --accent (its rgb): the picked-up ring and the placed-this-turn dot

# A few computed properties of the first element matching a selector (or its pseudo-element).
STYLE_JS = """([selector, pseudo]) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const c = getComputedStyle(el, pseudo);
  return {borderStyle: c.borderTopStyle, borderWidth: parseFloat(c.borderTopWidth),
          borderColor: c.borderTopColor, outlineStyle: c.outlineStyle,
          outlineWidth: parseFloat(c.outlineWidth), outlineColor: c.outlineColor,
          background: c.backgroundColor, backgroundImage: c.backgroundImage,
          boxShadow: c.boxShadow, colour: c.color};
}"""


def style(page, selector: str, pseudo: str | None = None) -> dict:
    found = page.evaluate(STYLE_JS, [selector, pseudo])
    assert found is not None, f"nothing matches {selector}"
    return found


def opaque(colour: str) -> bool:
    """A computed colour that shows (not transparent, alpha above 0)."""
    parts = re.findall(r"[\d.]+", colour)
    return colour != "transparent" and (len(parts) < 4 or float(parts[3]) > 0)


@functools.cache
def forced_deal() -> int:
    """A seed where the player starts and draws, the computer then lays a set (its tiles
    marked as moved, a valid set from before the turn), and the engine has a hint."""
    for seed in range(1, 100):
        view = twin.new_game(seed, LEVELS)
        if view["current"] != view["me"]:
            continue
        view = twin.computers(twin.call(cmd="draw")["view"])
        if view["round_over"] or not view["table"]:
            continue
        if twin.call(cmd="hint")["table"]:
            return seed
    raise AssertionError("no seed where the computer lays a set and a hint follows")


def test_forced_colours_show_every_state_of_the_turn(app):
    page = app.page
    app.new_game(forced_deal(), LEVELS)
    page.emulate_media(forced_colors="active")
    try:
        app.button("Draw").click()
        # The tile drawn (on the rack) and the computer's set (on the table) are marked.
        expect(app.table.locator(".tile.highlight").first).to_be_visible()
        app.wait_for_turn()
        expect(app.button("Draw")).to_be_enabled()
        expect(app.rack.locator(".tile.highlight")).to_have_count(1)
        moved = style(page, "#sets .tile.highlight")
        drawn = style(page, "#rack .tile.highlight")
        valid_old = style(page, "#sets .set:not(.new, .invalid)")
        # The tile just drawn, picked up, shows that it is picked up.
        app.rack.locator(".tile.highlight").click()
        expect(app.rack.locator(".tile.highlight.selected")).to_have_count(1)
        held_drawn = style(page, "#rack .tile.highlight.selected")
        app.rack.locator(".tile.highlight.selected").click()
        expect(app.rack.locator(".tile.selected")).to_have_count(0)

        app.button("Hint").click()
        expect(app.rack.locator(".tile.hinted").first).to_be_visible()
        hinted = style(page, "#rack .tile.hinted")

        # The hint's first set (valid, laid this turn), one more tile alone in a set of its
        # own (invalid), and a rack tile picked up: the gaps show where it can go.
        app.button("Next Step").click()
        expect(app.table.locator(".set.new .tile.placed").first).to_be_visible()
        app.tap_new_set([app.rack_ids()[0]])
        expect(app.table.locator(".set.invalid")).to_have_count(1)
        app.tile(app.rack_ids()[0]).click()
        expect(app.rack.locator(".tile.selected")).to_have_count(1)
        expect(app.rack.locator(".gap").first).to_be_visible()

        tile = style(page, "#rack .tile:not(.selected)")
        table_tile = style(page, "#sets .tile")
        selected = style(page, "#rack .tile.selected")
        valid_new = style(page, "#sets .set.new:not(.invalid)")
        invalid = style(page, "#sets .set.invalid")
        gap = style(page, "#rack .gap", "::before")
        table_gap = style(page, "#sets .gap", "::before")
        placed = style(page, "#sets .tile.placed", "::after")
        rack = style(page, "#rack")
        symbols = [
            style(page, f"#rack .tile.{c} .sym")
            for c in COLOURS
            if app.rack.locator(f".tile.{c}").count()
        ]

        # Every tile has its edge; the rack too.
        for t in (tile, table_tile):
            assert t["borderStyle"] == "solid" and t["borderWidth"] >= 1, t
            assert opaque(t["borderColor"]), t
        assert rack["outlineStyle"] != "none" and rack["outlineWidth"] >= 1, rack
        assert opaque(rack["outlineColor"]), rack
        # A picked-up, a moved (or drawn) and a hinted tile each have a ring of their own.
        assert selected["outlineStyle"] == "solid" and selected["outlineWidth"] >= 3, selected
        assert opaque(selected["outlineColor"]), selected
        for t in (moved, drawn):
            assert t["outlineStyle"] == "dashed" and t["outlineWidth"] >= 2, t
            assert opaque(t["outlineColor"]), t
        assert hinted["outlineStyle"] == "double" and hinted["outlineWidth"] >= 3, hinted
        assert opaque(hinted["outlineColor"]), hinted
        assert held_drawn["outlineStyle"] == "solid", held_drawn
        # An invalid set's border is unlike a valid one's, old or laid this turn.
        mark = (invalid["borderStyle"], invalid["borderWidth"])
        for valid in (valid_old, valid_new):
            assert mark != (valid["borderStyle"], valid["borderWidth"]), (invalid, valid)
        assert opaque(invalid["borderColor"]), invalid
        # The gaps and the placed-this-turn dot are drawn in a colour that shows.
        for g in (gap, table_gap):
            assert opaque(g["background"]), g
        assert opaque(placed["background"]), placed
        # The colour symbols (drawn shapes) are drawn in the text's system colour.
        assert symbols, "no colour tile on the rack"
        for sym in symbols:
            assert opaque(sym["background"]) and sym["background"] == tile["colour"], sym
    finally:
        page.emulate_media(forced_colors="none")

    # Without forced colours, the page's own look (once the tiles' transitions back to it
    # have run): the rules above are for that mode only.
    page.evaluate("Promise.allSettled(document.getAnimations().map((a) => a.finished))")
    tile = style(page, "#rack .tile:not(.selected)")
    selected = style(page, "#rack .tile.selected")
    valid_new = style(page, "#sets .set.new:not(.invalid)")
    invalid = style(page, "#sets .set.invalid")
    gap = style(page, "#rack .gap", "::before")
    placed = style(page, "#sets .tile.placed", "::after")
    rack = style(page, "#rack")
    assert tile["borderStyle"] == "none", tile
    assert ACCENT in selected["boxShadow"], selected
    assert invalid["borderStyle"] == "solid", invalid
    assert invalid["borderWidth"] == valid_new["borderWidth"] == 2, (invalid, valid_new)
    assert "linear-gradient" in gap["backgroundImage"], gap
    assert placed["background"] == f"rgb({ACCENT})", placed
    assert rack["outlineStyle"] == "none" and "linear-gradient" in rack["backgroundImage"], rack
    app.button("Reset Turn").click()


# The ink box of what differs between two screenshots of one element: rows and columns
# where a pixel changed by at least half the largest change (half-covered edge pixels).
INK_JS = """async ([shown, hidden]) => {
  const load = (b64) => {
    const bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return createImageBitmap(new Blob([bytes], {type: 'image/png'}));
  };
  const [a, b] = await Promise.all([load(shown), load(hidden)]);
  const canvas = new OffscreenCanvas(a.width, a.height), x = canvas.getContext('2d');
  x.drawImage(a, 0, 0);
  const pa = x.getImageData(0, 0, a.width, a.height).data;
  x.clearRect(0, 0, a.width, a.height);
  x.drawImage(b, 0, 0);
  const pb = x.getImageData(0, 0, a.width, a.height).data;
  const diff = new Float32Array(a.width * a.height);
  let max = 0;
  for (let i = 0; i < diff.length; i++) {
    diff[i] = Math.abs(pa[4*i] - pb[4*i]) + Math.abs(pa[4*i+1] - pb[4*i+1])
      + Math.abs(pa[4*i+2] - pb[4*i+2]);
    max = Math.max(max, diff[i]);
  }
  let top = Infinity, bottom = -1, left = Infinity, right = -1;
  for (let y = 0; y < a.height; y++) for (let i = 0; i < a.width; i++) {
    if (max && diff[y * a.width + i] >= max / 2) {
      top = Math.min(top, y); bottom = Math.max(bottom, y);
      left = Math.min(left, i); right = Math.max(right, i);
    }
  }
  return {height: bottom - top + 1, width: right - left + 1};
}"""

# A tile drawn at 150 px wide (its own --tile-w, so everything in it scales as on a
# phone or a desktop), its number hidden: the symbol's ink is measured to within 1%.
BIG_TILE = "--tile-w: 150px; --tile-h: 204px"
BIG_SYMBOL_FONT = 150 * 0.3  # .tile .sym's font-size: 0.3 of the tile's width


def symbol_ink(tile) -> dict:
    tile.evaluate(
        f"t => {{ t.style.cssText = {BIG_TILE!r};"
        " t.querySelector('.num').style.visibility = 'hidden'; }"
    )
    try:
        shown = tile.screenshot(animations="disabled")
        tile.evaluate("t => t.querySelector('.sym').style.visibility = 'hidden'")
        hidden = tile.screenshot(animations="disabled")
    finally:
        tile.evaluate(
            "t => { t.style.cssText = ''; t.querySelector('.num').style.visibility = '';"
            " t.querySelector('.sym').style.visibility = ''; }"
        )
    return tile.page.evaluate(
        INK_JS, [base64.b64encode(shown).decode(), base64.b64encode(hidden).decode()]
    )


@functools.cache
def four_colour_deal() -> int:
    """A seed where the player starts with a tile of each colour."""
    for seed in range(1, 100):
        view = twin.new_game(seed, LEVELS)
        if view["current"] == view["me"] and {t["color"] for t in view["rack"]} >= set(COLOURS):
            return seed
    raise AssertionError("no seed with all four colours on the rack")


def test_the_four_colour_symbols_are_inked_alike(app):
    """A colour-blind player tells the colours apart by their symbols: typed as glyphs,
    the red ● (the one a red-blind player needs most) was 44% of the font size high, the
    black ◆ 82%, and other fonts ink them otherwise again; they are drawn shapes now."""
    app.new_game(four_colour_deal(), LEVELS)
    tiles = {c: app.rack.locator(f".tile.{c}").first for c in COLOURS}
    # Nothing in a tile moves with its colour: each colour's tile, number and symbol
    # boxes are where they are for the others.
    boxes = {
        c: t.evaluate(
            "t => [t.offsetHeight, t.querySelector('.num').offsetTop,"
            " t.querySelector('.sym').offsetTop, t.querySelector('.sym').offsetHeight]"
        )
        for c, t in tiles.items()
    }
    assert len(set(map(tuple, boxes.values()))) == 1, boxes
    ink = {c: symbol_ink(t) for c, t in tiles.items()}
    for side in ("height", "width"):
        sizes = [i[side] for i in ink.values()]
        assert min(sizes) >= 0.85 * max(sizes), (side, ink)
    # And no longer small: the ● is at least 70% of the font size high (it was 44%).
    assert ink["red"]["height"] >= 0.7 * BIG_SYMBOL_FONT, ink


def test_start_screen_disclosures_are_finger_sized_on_a_phone(phone, app):
    """ "More options" and "Your statistics" were 19 px tall rows on a phone."""
    heights = (
        "[...document.querySelectorAll('.start-form details > summary')]"
        ".map((s) => s.getBoundingClientRect().height)"
    )
    phone.to_start_screen()
    on_phone = phone.page.evaluate(heights)
    assert len(on_phone) == 2 and min(on_phone) >= 44, on_phone
    app.to_start_screen()
    on_desktop = app.page.evaluate(heights)
    assert len(on_desktop) == 2 and max(on_desktop) < 26, on_desktop
    more = phone.page.locator("details.more", has_text="More options")
    more.locator("summary").tap()
    expect(more.get_by_label("Deal number")).to_be_visible()
    more.locator("summary").tap()
