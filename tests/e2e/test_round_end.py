"""A round won by going out, played through the page on a touch phone (the player plays
the engine's hint each turn, else draws): the score screen agrees with the engine's
outcome, shows the tiles each player had left (a joker among them), says where the
match stands, fits a phone held upright or sideways, and the statistics count it."""

from __future__ import annotations

import functools
import re

import game_twin as twin
from game_page import GamePage
from playwright.sync_api import expect

LEVELS = ["easy", "easy"]


@functools.cache
def won_with_a_joker_left() -> tuple[int, dict]:
    """A seed where the player, playing each hint, goes out and a computer is left
    holding a joker (worth 30): (seed, the twin's final view)."""
    for seed in range(1, 200):
        view = twin.play_hints_out(twin.new_game(seed, LEVELS))
        out = view["outcome"]
        if (
            out
            and out["reason"] == "went_out"
            and out["winner"] == view["me"]
            and any(t["joker"] for rack in out["racks"] for t in rack)
        ):
            return seed, view
    raise AssertionError("no such round")


def play_hints_to_the_end(app: GamePage) -> set[int]:
    """Play each hint (else draw) until the round is over; the ids of the tiles on the
    table as the player's last turn began."""
    page = app.page
    dialog = page.locator("#round-dialog")
    message = page.locator("#message")
    had: set[int] = set()
    for _ in range(200):
        if dialog.is_visible():
            return had
        had = {tile for row in app.table_ids() for tile in row}
        app.button("Hint").tap()
        expect(message).to_have_text(re.compile(r"^(Hint: (lay|add|make|swap) |No play found)"))
        if message.text_content().startswith("No play found"):
            app.button("Draw").tap()
        else:
            step = app.button("Next Step")
            while step.is_visible():
                step.tap()
            app.button("Confirm Play").tap()
        app.wait_for_turn()
    raise AssertionError("the round did not end")


# The dialog's own box against the viewport, and whether anything inside it is cut off.
FIT_JS = """() => {
  const d = document.getElementById('round-dialog');
  const r = d.getBoundingClientRect();
  const heads = [...d.querySelectorAll('thead th')].map((th) => {
    const cs = getComputedStyle(th);
    const pad = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);
    return th.getBoundingClientRect().height - pad;
  });
  const line = parseFloat(getComputedStyle(d.querySelector('thead th')).fontSize) * 1.6;
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          vw: innerWidth, vh: innerHeight, scrolls: d.scrollHeight > d.clientHeight + 1,
          wide: d.scrollWidth > d.clientWidth + 1, heads, line};
}"""


def assert_dialog_fits(page) -> None:
    m = page.evaluate(FIT_JS)
    assert m["top"] >= 0 and m["bottom"] <= m["vh"], m
    assert m["left"] >= 0 and m["right"] <= m["vw"], m
    assert not m["scrolls"] and not m["wide"], m
    assert max(m["heads"]) <= m["line"], m  # every column header on one line


# The table view's box, how far it is scrolled, and the boxes of the sets holding any of
# the given tiles.
PLACED_SETS_JS = """(v, placed) => {
  const r = v.getBoundingClientRect();
  const sets = [...v.querySelectorAll('.set')].filter((s) =>
    [...s.querySelectorAll('.tile')].some((t) => placed.includes(Number(t.dataset.id))));
  return {top: r.top, bottom: r.bottom, scrolled: v.scrollTop,
          sets: sets.map((s) => [s.getBoundingClientRect().top, s.getBoundingClientRect().bottom])};
}"""


BUTTONS_JS = """() => [...document.querySelectorAll('#round-dialog .dialog-buttons button')]
  .filter((b) => b.checkVisibility()).map((b) => {
    const r = b.getBoundingClientRect();
    return {name: b.textContent, left: r.left, top: r.top, width: r.width}; })"""


def assert_buttons_in_two_even_columns(page) -> None:
    """On a phone the round's four buttons stand two by two in columns of one width,
    Next Round last (they fell two and two, each pair pushed to a side, How To Play
    alone on the left)."""
    buttons = page.evaluate(BUTTONS_JS)
    assert [b["name"] for b in buttons] == ["How To Play", "See Table", "New Game", "Next Round"]
    rows = sorted({round(b["top"]) for b in buttons})
    assert len(rows) == 2, buttons
    lefts = sorted({round(b["left"]) for b in buttons})
    assert len(lefts) == 2, buttons
    widths = [b["width"] for b in buttons]
    assert max(widths) - min(widths) <= 1, buttons


def test_a_round_won_by_going_out_on_a_phone(phone, tmp_path):
    app, page = phone, phone.page
    seed, final = won_with_a_joker_left()
    app.new_game(seed, LEVELS)
    had = play_hints_to_the_end(app)
    dialog = page.get_by_role("dialog", name="Round Complete")
    expect(dialog).to_be_visible()
    out = final["outcome"]
    expect(dialog).to_contain_text("You went out and won the round!")
    expect(dialog).to_contain_text("Round 1 of a game to 200 points")
    # The rack's value, in points ("Left on rack: 2" read as two tiles).
    expect(dialog.get_by_role("columnheader")).to_have_text(
        ["Player", "Rack value", "Round", "Total"]
    )
    rows = dialog.locator("tbody tr")
    expect(rows).to_have_count(len(final["players"]))
    for i, player in enumerate(final["players"]):
        cells = rows.nth(i).locator("th, td")
        score = out["scores"][i]
        expect(cells).to_have_text(
            [
                player["name"],
                str(out["rack_values"][i]),
                f"+{score}" if score > 0 else str(score).replace("-", "\u2212"),
                str(out["totals"][i]).replace("-", "\u2212"),  # a true minus sign
            ]
        )
    # The tiles each loser had left, as the engine shows them (the joker included).
    left = dialog.locator("#round-left-list li")
    losers = [i for i, rack in enumerate(out["racks"]) if rack]
    expect(left).to_have_count(len(losers))
    for n, i in enumerate(losers):
        expect(left.nth(n)).to_contain_text(final["players"][i]["name"])
        tiles = left.nth(n).get_by_role("img").first
        labels = tiles.get_attribute("aria-label").split(", ")
        assert sorted(labels) == sorted(t["label"] for t in out["racks"][i])
    expect(left.get_by_role("img", name="joker", exact=False)).not_to_have_count(0)
    assert_dialog_fits(page)
    assert_buttons_in_two_even_columns(page)
    page.screenshot(path=str(tmp_path / "round_end_phone.png"))
    page.set_viewport_size({"width": 844, "height": 390})
    try:
        page.wait_for_timeout(100)
        assert_dialog_fits(page)
        page.screenshot(path=str(tmp_path / "round_end_sideways.png"))
    finally:
        page.set_viewport_size({"width": 390, "height": 844})
    # See Table: no room is kept for "+ New Set" at the view's foot (52 px of empty felt
    # under the last set at 390x664, where the button is pinned over the view's corner).
    # The set the winning play went to is brought into view: the view had stayed where it
    # was, here at the top, and that set out of sight below.
    page.set_viewport_size({"width": 390, "height": 664})
    try:
        placed = [t["id"] for s in final["table"] for t in s["tiles"] if t["id"] not in had]
        assert placed
        view = page.locator("#table-view")
        view.evaluate("v => { v.scrollTop = 0; }")
        dialog.get_by_role("button", name="See Table").tap()
        expect(page.get_by_role("button", name="+ New Set")).to_be_hidden()
        foot = view.evaluate("v => parseFloat(getComputedStyle(v).paddingBottom)")
        assert foot <= 10, foot
        shown = view.evaluate(PLACED_SETS_JS, placed)
        assert shown["sets"], shown
        for top, bottom in shown["sets"]:
            assert shown["top"] - 0.5 <= top and bottom <= shown["bottom"] + 0.5, shown
        assert shown["scrolled"] > 0, shown  # it was out of sight at the top
        page.get_by_role("button", name="Show Scores").tap()
    finally:
        page.set_viewport_size({"width": 390, "height": 844})
    # The statistics count the round (a fresh browser: this is its first).
    dialog.get_by_role("button", name="New Game").tap()
    page.get_by_text("Your statistics").tap()
    stats = page.locator("#stats")
    for name, value in {
        "Rounds played": "1",
        "Rounds won": "1",
        "Best round score": str(out["scores"][0]),
        "Average points left": "0",  # not "0.0"
        "Games played": "0",
    }.items():
        expect(stats.locator(f"dt:text-is('{name}') + dd")).to_have_text(value)


@functools.cache
def match_won_in_one_round() -> dict:
    """A game to 100 that the player wins in its first round by going out (each hint
    played), as the twin's final view."""
    return twin.match_won_on_hints(["easy", "easy", "easy"], target=100)


def test_the_game_over_screen_says_how_the_match_was_won(app):
    page = app.page
    view = match_won_in_one_round()
    app.new_game(1, ["easy", "easy", "easy"], target=100)
    page.evaluate(
        """(view) => { const game = window.__rummikub;
            game.state.view = view; game.state.dialog = "round"; game.render(); }""",
        view,
    )
    dialog = page.get_by_role("dialog", name="Game Over")
    points = view["outcome"]["totals"][view["me"]]
    expect(dialog.locator("#round-reason")).to_have_text(
        f"You went out and won the round! You win the game with {points} points"
        " (first to 100), after 1 round."
    )
    # Final standings: highest total first.
    names = dialog.locator("tbody th").all_text_contents()
    totals = [
        view["outcome"]["totals"][[p["name"] for p in view["players"]].index(n)] for n in names
    ]
    assert totals == sorted(totals, reverse=True)
    dialog.get_by_role("button", name="New Game").click()
