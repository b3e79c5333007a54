"""The whole game log, opened over the table, is shut again by a new game and by a new
round (it used to stay open, spread over the new table); and Escape, with the log
hidden, lets go of a held tile instead of shutting a log nobody sees."""

from __future__ import annotations

import re

import game_twin as twin
from game_page import GamePage
from playwright.sync_api import expect
from test_play import LEVELS, computer_play_deal, opening_deal


def saved_game(*, empty_pool: bool, keep_log: bool = True) -> str:
    """A two-player game to 100000 with last call, the human's turn next; with
    `empty_pool`, the pool drawn dry (so the human's pass ends the round); without
    `keep_log`, no log lines (as a save from before the log was kept)."""
    rules = {"last_call": True, "target": 100000}
    return twin.saved_game(rules, empty_pool=empty_pool, keep_log=keep_log)


def held(app: GamePage) -> list[str]:
    return app.page.locator('.tile[aria-pressed="true"]').evaluate_all(
        "ts => ts.map(t => t.dataset.id)"
    )


def test_a_new_game_and_a_new_round_start_with_the_log_shut(app):
    page = app.page
    toggle = app.button("Game log")
    app = app.load_saved(saved_game(empty_pool=True))
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    app.button("Pass").click()  # the last call's last turn: the round ends
    app.wait_for_turn()
    dialog = page.locator("#round-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Next Round").click()
    app.wait_for_turn()
    expect(page.locator("#log")).to_contain_text("Round 2")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#log")).not_to_have_class(re.compile(r"\bopen\b"))
    # Open again, then a new game: shut.
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    # Escape, the log shut, lets go of a held tile.
    tile = app.rack_ids()[0]
    app.tile(tile).click()
    assert held(app) == [str(tile)]
    page.keyboard.press("Escape")
    expect(app.tile(tile)).to_have_attribute("aria-pressed", "false")


def test_escape_lets_go_of_a_tile_while_the_log_is_hidden(app):
    """A game with no log lines hides the log (and its toggle): asked to be open, it is
    still not on show, so Escape is not used up shutting it."""
    page = app.page
    app = app.load_saved(saved_game(empty_pool=False, keep_log=False))
    expect(page.locator("#log-box")).to_be_hidden()
    page.evaluate("window.__rummikub.showLog(true)")  # as a log left open by a game before
    tile = app.rack_ids()[0]
    app.tile(tile).click()
    assert held(app) == [str(tile)]
    page.keyboard.press("Escape")
    expect(app.tile(tile)).to_have_attribute("aria-pressed", "false")
    page.evaluate("window.__rummikub.showLog(false)")


def test_game_log_takes_a_finger_sized_tap_with_or_without_a_message(phone):
    """On a touch phone "Game log" takes a 40 px tap whether or not a message is shown
    above it, and open: with no message it took 25 px (its reach stopped at the table).
    It stays as small to the eye."""
    app, page = phone, phone.page
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    toggle = app.button("Game log")
    message = page.get_by_role("status").filter(has_text="Who starts")
    expect(message).to_be_visible()
    said = log_reach(app)
    # A move clears the message.
    app.tile(sets[0][0]).tap()
    app.button("+ New Set").tap()
    expect(app.set_box(0).locator(".tile")).to_have_count(1)
    expect(page.locator("#message")).to_be_empty()
    quiet = log_reach(app)
    toggle.tap()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    opened = log_reach(app)
    toggle.tap()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    for state, m in {"message": said, "no message": quiet, "open": opened}.items():
        assert m["reach"] >= 40 and m["width"] >= 40, (state, m)
        assert m["height"] <= 20, (state, m)  # the look unchanged: a 17 px pill
    app.button("Reset Turn").tap()
    assert app.table_ids() == []


def log_reach(app: GamePage) -> dict:
    """The reach of a tap on "Game log" and its box (GamePage.tap_reach)."""
    (reach,) = [b for b in app.tap_reach() if b["name"].startswith("Game log")]
    return reach


def test_a_shut_log_is_left_alone_by_renders_that_do_not_change_it(app):
    """Every render rebuilt the log's lines and read its scroll position (a layout in the
    middle of the render), each tile of a computer's reveal included: on a slow phone a
    large part of each frame (QA pass 16)."""
    page = app.page
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS, delay=500)  # computer turns revealed tile by tile
    page.evaluate(
        """() => {
          window.__logChanges = 0;
          window.__logStates = new Set([document.getElementById("log").textContent]);
          window.__logWatch = new MutationObserver((records) => {
            window.__logChanges += records.length;
            window.__logStates.add(document.getElementById("log").textContent);
          });
          window.__logWatch.observe(document.getElementById("log"), {childList: true});
        }"""
    )
    for tiles in sets:
        app.tap_new_set(tiles)
    app.button("Confirm Play").click()
    app.wait_for_turn()
    changes, states = page.evaluate(
        "window.__logWatch.disconnect(), [window.__logChanges, window.__logStates.size]"
    )
    # One rebuild per change of its lines (the player's play, each computer turn), not one
    # per render (a reveal alone is a render per tile).
    assert changes <= states, (changes, states)


# Each tile code shown in an element: its letter, its text, its colour class, whether the
# letter takes any room, and the symbol after it.
CHIPS_JS = """(el) => [...el.querySelectorAll('.code')].map(c => {
  const letter = c.querySelector('.code-letter');
  return {text: c.textContent, kind: c.classList[1],
          letterWidth: letter.getBoundingClientRect().width,
          symbol: getComputedStyle(c, '::after').content,
          shape: getComputedStyle(c, '::after').clipPath};
})"""
# Each colour's symbol is drawn as the tiles draw theirs (a shape cut from a box).
SHAPES = {"red": "circle(", "blue": "inset(", "yellow": "polygon(", "black": "polygon("}
WORDS = {"R": "red", "B": "blue", "Y": "yellow", "K": "black", "J": "joker"}


def test_tile_codes_in_the_news_and_the_log_show_as_small_tiles(app: GamePage):
    # "Computer 1 laid Y4 Y5 Y6" told a new player nothing until How To Play's key: each
    # code is now a small tile, its number in its colour with its symbol. The letter is
    # still in the words (a screen reader reads them as before), unseen.
    seed, turn, _ = computer_play_deal()
    page = app.page
    app.new_game(seed, LEVELS)
    app.button("Draw").click()
    app.wait_for_turn()
    narration = turn["narration"]
    codes = re.findall(r"\b(?:[RBYK](?:1[0-3]|[1-9])|J)\b", narration)
    assert codes, narration
    message = page.locator("#message")
    expect(message).to_contain_text(narration)  # the words are as the engine wrote them
    line = page.locator("#log li").last
    expect(line).to_have_text(narration)
    for where in (message, line):
        chips = where.evaluate(CHIPS_JS)
        assert [c["text"] for c in chips][-len(codes) :] == codes, chips
        for code, chip in zip(codes, chips[-len(codes) :], strict=True):
            kind = WORDS[code[0]]
            assert chip["kind"] == kind
            assert chip["letterWidth"] <= 1, chip  # unseen
            if kind == "joker":
                assert "☺" in chip["symbol"], chip
            else:
                assert chip["shape"].startswith(SHAPES[kind]), chip
    # In forced colours a code's colour is gone, and its letter shows instead.
    page.emulate_media(forced_colors="active")
    try:
        assert all(c["letterWidth"] > 3 for c in message.evaluate(CHIPS_JS))
    finally:
        page.emulate_media(forced_colors="none")


# For each line of the log with a code chip: whether it is the last line, the alpha of
# its text's colour, and the lowest opacity its chips are drawn with (all their
# ancestors' opacities multiplied).
DIMMED_JS = """(log) => [...log.querySelectorAll('li')].filter(li => li.querySelector('.code'))
  .map(li => {
    const seen = (el) => {
      let o = 1;
      for (; el; el = el.parentElement) o *= +getComputedStyle(el).opacity;
      return o;
    };
    const rgba = getComputedStyle(li).color.match(/rgba\\([^)]*,\\s*([\\d.]+)\\)/);
    const alpha = rgba ? rgba[1] : '1';
    return {last: li === log.lastElementChild, alpha: +alpha,
            chips: Math.min(...[...li.querySelectorAll('.code')].map(seen))};
  })"""


def older_lines_dimmed_chips_not(app: GamePage) -> None:
    seed, _, _ = computer_play_deal()
    app.new_game(seed, LEVELS)
    app.button("Draw").click()  # "You drew ..." (a chip), then the computer's turn
    app.wait_for_turn()
    lines = app.page.locator("#log").evaluate(DIMMED_JS)
    older = [line for line in lines if not line["last"]]
    assert older, lines
    for line in older:
        assert line["alpha"] < 0.95, line  # the words are dimmed
        assert line["chips"] == 1, line  # the chips are not
    for line in lines:
        if line["last"]:
            assert line["alpha"] == 1 and line["chips"] == 1, line  # the newest: neither


def test_older_log_lines_are_dimmed_but_their_code_chips_are_not(app: GamePage):
    # Older lines were dimmed with opacity, which dimmed their chips too: the yellow
    # fell to about 4:1. Now only the words are dimmed, and the newest line not at all.
    older_lines_dimmed_chips_not(app)


def test_on_a_phone_too_only_older_lines_words_are_dimmed(phone: GamePage):
    # A phone dims the older lines less (0.9), and its one line shown while the log is
    # shut is the newest: at full strength, chips and words.
    older_lines_dimmed_chips_not(phone)


def test_on_a_phone_the_news_is_not_shown_twice(phone: GamePage):
    # Shut, a phone's log shows one line, its newest, right under the message: after a
    # computer's move both said "Computer 1 laid ...". That line is not shown while the
    # message says it (it keeps its room, so nothing moves), and is shown again once the
    # message says something else.
    seed, turn, _ = computer_play_deal()
    page = phone.page
    phone.new_game(seed, LEVELS)
    phone.draw_or_pass()
    phone.wait_for_turn()
    expect(page.locator("#message")).to_contain_text(turn["narration"])
    newest = page.locator("#log li").last
    expect(newest).to_have_text(turn["narration"])
    expect(newest).to_have_css("visibility", "hidden")
    phone.tap_new_set(phone.rack_ids()[:1])  # a move: the news is over
    expect(page.locator("#message")).to_be_empty()
    expect(newest).to_have_css("visibility", "visible")
    phone.button("Reset Turn").click()
