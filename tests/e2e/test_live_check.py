"""The live check of the arrangement: when the engine fails to answer it (a timeout, a
restarted worker), the set just changed is still shown only once; the table used to
keep scrolling back to it on every later redraw. And an Undo back to the turn's start
drops the last check at once."""

from __future__ import annotations

import functools

import game_twin as twin
from game_page import GamePage
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal

# Every "check" request is answered as a restarted worker answers it: with a failure.
FAIL_CHECKS_JS = """() => {
  const post = Worker.prototype.postMessage;
  window.__realPostMessage = post;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message?.request && JSON.parse(message.request).cmd === "check") {
      setTimeout(() => this.onmessage({ data: { id: message.id, failure: "restarted" } }));
      return;
    }
    return post.call(this, message, ...rest);
  };
}"""

RESTORE_JS = """() => {
  Worker.prototype.postMessage = window.__realPostMessage;
  delete document.body.dataset.failed;
}"""


def test_a_failed_check_stops_revealing_the_set(app: GamePage):
    page = app.page
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    page.evaluate(FAIL_CHECKS_JS)
    try:
        app.tile(sets[0][0]).click()
        app.button("+ New Set").click()
        expect(page.locator("#message")).to_have_text("The engine failed: restarted")
        assert page.evaluate("window.__rummikub.state.reveal") is None
    finally:
        page.evaluate(RESTORE_JS)
    app.button("Reset Turn").click()


@functools.cache
def undo_deal() -> tuple[int, int]:
    """A seed where the player starts, draws, and the computer lays sets; then a rack
    tile that spoils the first of them when added at its end: (seed, tile id)."""
    for seed, answer in twin.answers_to_a_draw(LEVELS):
        view = twin.computers(answer["view"])
        if view["round_over"] or not view["table"]:
            continue
        table = [[t["id"] for t in s["tiles"]] for s in view["table"]]
        for tile in view["rack"]:
            sets = twin.call(cmd="check", table=[table[0] + [tile["id"]], *table[1:]])["sets"]
            if not sets[0]["valid"]:
                return seed, tile["id"]
    raise AssertionError("no deal found")


def test_undo_back_to_the_turn_start_shows_the_table_as_it_began(app: GamePage):
    # The last arrangement's check used to stay on show after an Undo that brought the
    # table back as the turn began: a legal set marked "not valid", its note and its
    # joker's label gone, until some later render.
    seed, tile = undo_deal()
    page = app.page
    app.new_game(seed, LEVELS)
    app.button("Draw").click()
    app.wait_for_turn()
    first = app.set_box(0)
    name, note = first.get_attribute("aria-label"), first.locator(".set-note").text_content()
    assert "not valid" not in name
    app.tile(tile).click()
    first.get_by_role("button", name="Put here: Set 1, end").click()
    expect(first).to_have_attribute("aria-label", "Set 1, not valid")
    app.button("Undo").click()
    expect(first).to_have_attribute("aria-label", name)
    expect(first.locator(".set-note")).to_have_text(note)
    assert page.evaluate("window.__rummikub.state.check") is None
