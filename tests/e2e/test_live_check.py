"""The live check of the arrangement: when the engine fails to answer it (a timeout, a
restarted worker), the set just changed is still shown only once; the table used to
keep scrolling back to it on every later redraw."""

from __future__ import annotations

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
