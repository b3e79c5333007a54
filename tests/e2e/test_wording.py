"""The page's words: counts of one in the singular ("1 tile", "1 pt"), the pool's
name said in one clean phrase, "a joker" drawn, and a refusal's reason going on in lower
case after "Not played:"."""

from __future__ import annotations

import functools
import re

import game_twin as twin
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal

# Show the engine's view as if one computer had one tile left, the player one point and
# the pool one tile (the page only words what the view says).
ONE_OF_EACH = """() => { const game = window.__rummikub; const v = game.state.view;
  game.state.view = {...v, pool: 1, players: v.players.map((p, i) =>
    i === v.me ? {...p, score: 1} : {...p, rack_count: 1, score: -1})};
  game.render(); }"""


def test_the_pool_is_named_in_one_clean_phrase(app):
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    page = app.page
    pool = page.locator("#pool-button")
    count = int(page.locator("#pool-count").text_content())
    expect(pool).to_have_accessible_name(f"Pool: {count} tiles, tap to draw")
    expect(
        page.get_by_role("button", name=re.compile(r"^Pool: \d+ tiles, tap to draw$"))
    ).to_have_count(1)


def test_a_count_of_one_is_singular(app):
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    page = app.page
    page.evaluate(ONE_OF_EACH)
    players = page.get_by_role("list", name="Players")
    expect(players.locator("li").nth(0).locator(".player-score")).to_have_text("1 pt")
    expect(players.locator("li").nth(1).locator(".player-tiles")).to_have_text("1 tile")
    # With a true minus sign, as the score table writes it.
    expect(players.locator("li").nth(1).locator(".player-score")).to_have_text("\u22121 pt")
    expect(page.get_by_role("region", name="Pool")).to_contain_text("1 tile tap to draw")
    expect(page.locator("#pool-button")).to_have_accessible_name("Pool: 1 tile, tap to draw")
    # So does the question before a new game abandons this one.
    page.locator("#menu-new-game").click()
    app.button("Start Game").click()
    dialog = page.get_by_role("dialog", name="Abandon this game?")
    expect(dialog).to_contain_text("It is round 1, and you have 1 point.")
    dialog.get_by_role("button", name="Keep Playing").click()
    expect(page.locator("body")).to_have_attribute("data-turn", "mine")


# The pool button's visible words and its accessible name, each as lower-case words.
POOL_WORDS = """() => { const b = document.querySelector('#pool-button');
  const words = (s) => (s.toLowerCase().match(/[a-z0-9]+/g) ?? []).join(' ');
  return [words(b.innerText), words(b.getAttribute('aria-label'))]; }"""


def test_the_pool_button_is_named_with_its_visible_words(app):
    """WCAG 2.5.3 (Label in Name): the pool button's name holds its visible words, in
    their order, on the player's turn and not, with tiles left and with none."""
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    page = app.page
    pool = page.locator("#pool-button")
    count = int(page.locator("#pool-count").text_content())
    states = {
        "mine": "() => {}",
        "theirs": "() => { window.__rummikub.state.busy = true; }",
        "empty, theirs": "() => { const s = window.__rummikub.state;"
        " s.view = {...s.view, pool: 0}; }",
        "empty, mine": "() => { window.__rummikub.state.busy = false; }",
    }
    names = {}
    try:
        for what, change in states.items():
            page.evaluate(change)
            page.evaluate("window.__rummikub.render()")
            shown, name = page.evaluate(POOL_WORDS)
            assert shown in name, (what, shown, name)
            names[what] = pool.get_attribute("aria-label")
    finally:
        page.evaluate("window.__rummikub.state.busy = false")
        app.new_game(seed, LEVELS)
    assert names == {
        "mine": f"Pool: {count} tiles, tap to draw",
        "theirs": f"{count} tiles in the pool",
        "empty, theirs": "Pool: 0 tiles, empty",
        "empty, mine": "Pool: 0 tiles, empty: tap to pass",
    }


@functools.cache
def joker_draw_deal() -> int:
    """A seed where the player starts and draws a joker at once."""
    for seed in range(1, 400):
        view = twin.new_game(seed, LEVELS)
        if view["current"] != view["me"]:
            continue
        before = {t["id"] for t in view["rack"]}
        drawn = [t for t in twin.call(cmd="draw")["view"]["rack"] if t["id"] not in before]
        if drawn and drawn[0]["joker"]:
            return seed
    raise AssertionError("no seed where the first draw is a joker")


def test_a_joker_drawn_is_a_joker(app):
    app.new_game(joker_draw_deal(), LEVELS)
    app.button("Draw").click()
    expect(app.page.locator("#message")).to_contain_text("You drew a joker.")


@functools.cache
def short_opening_deal() -> tuple[int, list[int], int]:
    """A seed where the player starts holding a plain set worth less than 30: (seed,
    its tile ids, its value)."""
    for seed in range(1, 400):
        view = twin.new_game(seed, LEVELS)
        if view["current"] != view["me"]:
            continue
        for ids in twin.candidate_sets(view["rack"]):
            value = twin.value(view["rack"], ids)
            if value < 30 and twin.call(cmd="check", table=[ids])["sets"][0]["valid"]:
                return seed, ids, value
    raise AssertionError("no seed with a set worth less than 30")


def test_a_refusal_goes_on_in_lower_case(app):
    seed, ids, value = short_opening_deal()
    app.new_game(seed, LEVELS)
    app.tap_new_set(ids)
    app.button("Confirm Play").click()
    expect(app.page.locator("#message")).to_have_text(
        f"Not played: your opening totals {value} points; 30 are needed"
    )
    # A set is named as everywhere on the page: "Set 2".
    rack = app.rack_ids()
    app.tap_new_set(rack[:2])
    app.button("Confirm Play").click()
    expect(app.page.locator("#message")).to_contain_text("Not played: Set 2: ")
