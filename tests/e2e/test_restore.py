"""Coming back to a saved game: while it is being restored the start form is put away
(starting a game then would replace it), and the player's own rack order and the
arrangement in progress come back with it only when they fit the engine's game."""

from __future__ import annotations

import functools
import itertools
import json
import re

import game_twin as twin
from conftest import BOOT_TIMEOUT_MS
from game_page import GamePage, hold_engine, unhold_engine, watch, watched
from playwright.sync_api import BrowserContext, expect
from test_play import LEVELS, computer_play_deal, opening_deal

ARRANGEMENT = "rummikub.savedGame.arrangement"


def reload(page) -> GamePage:
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    app = GamePage(page)
    app.wait_for_turn()
    expect(page.locator("#message")).to_contain_text("restored")
    return app


def engine_rack(page) -> list[int]:
    return page.evaluate("window.__rummikub.state.view.rack.map(t => t.id)")


def engine_table(page) -> list[list[int]]:
    return page.evaluate("window.__rummikub.state.view.table.map(s => s.tiles.map(t => t.id))")


def context_with_a_saved_game(app, browser, script: str = "") -> tuple[str, BrowserContext]:
    """A game started on ``app``'s page and its save: (the save, a new browser context
    whose pages find it in their storage, with ``script`` run first in each page too)."""
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    saved = app.page.evaluate("localStorage.getItem('rummikub.savedGame')")
    assert saved
    context = browser.new_context(service_workers="block")
    context.add_init_script(
        "if (typeof localStorage !== 'undefined'"
        " && !localStorage.getItem('rummikub.savedGame'))"
        f" localStorage.setItem('rummikub.savedGame', {json.dumps(saved)});" + script
    )
    return saved, context


def test_while_a_saved_game_is_restored_the_start_form_is_put_away(app, browser, site):
    _saved, context = context_with_a_saved_game(app, browser)
    try:
        # The engine worker is held back: the page stays in its restoring state.
        held = []
        context.route("**/web/worker.js", lambda route: held.append(route))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(site)
        expect(page.get_by_role("heading", name="Restoring your saved game…")).to_be_visible()
        page.wait_for_timeout(300)
        assert held, "the engine worker was not requested"
        expect(page.get_by_role("button", name="Start Game")).to_be_hidden()
        expect(page.get_by_label("Computer opponents")).to_be_hidden()
        assert page.locator("body").get_attribute("data-engine") == "booting"
        # The engine boots: the game is back, and starting another one asks first.
        for route in held:
            route.continue_()
        context.unroute("**/web/worker.js")
        restored = GamePage(page)
        page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
        restored.wait_for_turn()
        expect(page.locator("#message")).to_contain_text("restored")
        rack = restored.rack_ids()
        restored.to_start_screen()
        restored.button("Start Game").click()
        dialog = page.get_by_role("dialog", name="Abandon this game?")
        expect(dialog).to_be_visible()
        dialog.get_by_role("button", name="Keep Playing").click()
        expect(dialog).to_be_hidden()
        assert restored.rack_ids() == rack
        assert errors == []
    finally:
        context.close()


# The page's first "load" request to the engine worker fails as when the engine did not
# start; every other request goes through (the engine works again for a new game).
FAIL_THE_FIRST_LOAD = """
if (typeof window !== 'undefined' && typeof Worker !== 'undefined') {
  const Real = Worker;
  let failed = false;
  window.Worker = class extends Real {
    postMessage(message, ...rest) {
      let cmd = null;
      try { cmd = JSON.parse(message.request).cmd; } catch {}
      if (cmd === 'load' && !failed) {
        failed = true;
        const data = {id: message.id, failure: 'The engine did not start: made to fail'};
        setTimeout(() => this.onmessage?.({data}));
        return;
      }
      return super.postMessage(message, ...rest);
    }
  };
}
"""


def test_a_saved_game_that_failed_to_load_is_not_replaced_without_asking(app, browser, site):
    """The saved game is kept when the engine fails to load it; Start Game then asks
    before a new game replaces it (it used to replace it at once)."""
    saved, context = context_with_a_saved_game(app, browser, FAIL_THE_FIRST_LOAD)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(site)
        page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
        expect(page.locator("#start-notice")).to_contain_text("could not be restored now")

        def kept() -> str | None:
            return page.evaluate("localStorage.getItem('rummikub.savedGame')")

        assert kept() == saved
        start = page.get_by_role("button", name="Start Game")
        dialog = page.get_by_role("dialog", name="Abandon this game?")
        start.click()
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("could not be restored")
        dialog.get_by_role("button", name="Keep the Saved Game").click()
        expect(page.locator("#start-notice")).to_contain_text("still kept")
        expect(dialog).to_be_hidden()
        page.wait_for_timeout(300)
        assert kept() == saved
        # Replacing it is the player's choice.
        start.click()
        dialog.get_by_role("button", name="Abandon and Start").click()
        page.wait_for_selector("body[data-turn=mine]", timeout=60_000)
        assert kept() != saved
        assert errors == []
    finally:
        context.close()


def test_reload_keeps_the_rack_order_and_the_arrangement_in_progress(app):
    page = app.page
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    app.button("Sort by Number").click()
    app.button("Sort by Colour").click()
    by_colour = app.rack_ids()
    assert by_colour != engine_rack(page)  # the deal order is not sorted
    app.tap_new_set(sets[0][:2])  # half a set: not legal yet, kept all the same
    rack, table = app.rack_ids(), app.table_ids()
    app = reload(page)
    expect(page.locator("#message")).to_contain_text("with the tiles you had arranged")
    assert app.rack_ids() == rack
    assert app.table_ids() == table
    expect(app.set_box(len(table) - 1)).to_have_class("set invalid new")  # checked again
    # Reset Turn goes back to the engine's table, and the rack to the order the turn
    # began with, as sorted (kept across the reload).
    app.button("Reset Turn").click()
    assert app.table_ids() == engine_table(page)
    assert app.rack_ids() == by_colour
    # A sorted rack alone survives a reload too, after the turn has moved on.
    app.button("Draw").click()
    app.wait_for_turn()
    app.button("Sort by Number").click()
    by_number = app.rack_ids()
    app = reload(page)
    assert app.rack_ids() == by_number
    assert app.table_ids() == engine_table(page)


def test_undo_goes_back_move_by_move_after_a_reload(app):
    """Undo's history is kept with the arrangement: after a reload it still takes the
    turn back one move at a time (it used to be forgotten, Reset Turn the only way back).
    A history that does not fit the turn is dropped whole, the arrangement kept."""
    page = app.page
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    steps = [(app.rack_ids(), app.table_ids())]
    index = app.tap_new_set(sets[0][:1])
    steps.append((app.rack_ids(), app.table_ids()))
    for tile in sets[0][1:]:
        app.tile(tile).click()
        page.get_by_role("button", name=f"Put here: Set {index + 1}, end").click()
        steps.append((app.rack_ids(), app.table_ids()))
    app = reload(page)
    expect(page.locator("#message")).to_contain_text("with the tiles you had arranged")
    assert (app.rack_ids(), app.table_ids()) == steps[-1]
    undo = app.button("Undo")
    news = page.locator("#move-news")
    for (rack, table), (_, later) in reversed(list(itertools.pairwise(steps))):
        expect(undo).to_be_enabled()
        undo.click()
        assert app.rack_ids() == rack
        assert app.table_ids() == table
        # Told as the tile that went back, though the history kept does not say which.
        (back,) = {t for row in later for t in row} - {t for row in table for t in row}
        name = page.evaluate(f"window.__rummikub.state.tiles.get({back}).label")
        expect(news).to_contain_text(f"Undone: {name} back to your rack, place ")
    expect(undo).to_be_disabled()
    # A history with a tile in it the turn does not have: Undo starts afresh, the
    # arrangement itself comes back.
    app.tap_new_set(sets[0])
    kept = json.loads(page.evaluate(f"localStorage.getItem('{ARRANGEMENT}')"))
    assert len(kept["undo"]) == len(sets[0])
    kept["undo"][0]["rack"] = [*kept["undo"][0]["rack"], 9999]
    page.evaluate(f"localStorage.setItem('{ARRANGEMENT}', {json.dumps(json.dumps(kept))})")
    table = app.table_ids()
    app = reload(page)
    assert app.table_ids() == table
    expect(app.button("Undo")).to_be_disabled()
    app.button("Reset Turn").click()
    assert app.table_ids() == engine_table(page)


def test_undo_after_a_reload_tells_every_tile_moved_together(app):
    """Tiles chosen together and laid down in one drag: after a reload, Undo puts them
    all back and says so by name (it named the first alone: the history kept did not say
    what each move moved). A kept record naming a tile the turn lacks is not believed."""
    page = app.page
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    rack = app.rack_ids()
    tiles = [t for t in rack if t in sets[0]]  # in rack order, as they go down
    for tile in tiles:
        app.tile(tile).click(modifiers=["Control"])
    app.drag(app.tile(tiles[-1]), app.button("+ New Set"))
    assert app.table_ids() == [tiles]
    said = [page.evaluate(f"window.__rummikub.state.tiles.get({t}).label") for t in tiles]
    app = reload(page)
    news = page.locator("#move-news")
    app.button("Undo").click()
    assert app.rack_ids() == rack and app.table_ids() == []
    expect(news).to_contain_text(f"Undone: {', '.join(said)} back to your rack, places ")
    # The same move again, its record then made to name a tile that is not in the turn.
    for tile in tiles:
        app.tile(tile).click(modifiers=["Control"])
    app.drag(app.tile(tiles[-1]), app.button("+ New Set"))
    kept = json.loads(page.evaluate(f"localStorage.getItem('{ARRANGEMENT}')"))
    assert kept["undo"][0]["told"] == {"id": tiles[0], "kind": "group", "ids": tiles}
    kept["undo"][0]["told"]["ids"] = [*tiles, 9999]
    page.evaluate(f"localStorage.setItem('{ARRANGEMENT}', {json.dumps(json.dumps(kept))})")
    app = reload(page)
    app.button("Undo").click()
    assert app.rack_ids() == rack and app.table_ids() == []
    expect(news).to_contain_text(f"Undone: {said[0]} back to your rack, place ")


def test_a_stale_or_corrupt_arrangement_is_ignored(app):
    page = app.page
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    app.button("Sort by Number").click()
    app.tap_new_set(sets[0][:2])
    kept = json.loads(page.evaluate(f"localStorage.getItem('{ARRANGEMENT}')"))
    dealt = engine_rack(page)

    def keep(value: str) -> None:
        page.evaluate(f"localStorage.setItem('{ARRANGEMENT}', {json.dumps(value)})")

    # Unreadable: the rack comes back in the engine's order, the table as the engine has it.
    keep("{not json")
    app = reload(page)
    assert app.rack_ids() == dealt
    assert app.table_ids() == engine_table(page)
    # A tile the engine does not know of: the table is not trusted (the rack order is:
    # it is the same turn, and its tiles are the engine's).
    forged = {**kept, "table": [[*kept["table"][0], 9999]]}
    keep(json.dumps(forged))
    app = reload(page)
    assert app.table_ids() == engine_table(page)
    assert sorted(app.rack_ids()) == sorted(dealt)
    assert app.rack_ids()[: len(kept["rack"])] == kept["rack"]
    # A tile in two places at once: refused.
    on_rack = {**kept, "rack": [*kept["rack"], *kept["table"][0]], "table": [[dealt[0]]]}
    keep(json.dumps(on_rack))
    app = reload(page)
    assert app.table_ids() == engine_table(page)
    assert sorted(app.rack_ids()) == sorted(dealt)
    # Another turn's arrangement: ignored altogether.
    keep(json.dumps({**kept, "turn": "another turn", "rack": dealt[::-1]}))
    app = reload(page)
    assert app.rack_ids() == dealt
    assert app.table_ids() == engine_table(page)
    app.button("Draw").click()  # and the game plays on
    app.wait_for_turn()


def test_a_reload_while_the_computers_play_still_names_the_tile_drawn(app):
    # The tile the player drew used to be named only once the computers had played: a
    # reload in between lost it for good ("Welcome back…" and the computers' turns).
    page = app.page
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS, delay=1600)  # "Long": the computer is still on show
    app.button("Draw").click()
    page.wait_for_function("window.__rummikub.state.drawn.size === 1")
    drawn = page.evaluate("[...window.__rummikub.state.drawn][0]")
    label, code = page.evaluate(
        f"[window.__rummikub.state.tiles.get({drawn}).label,"
        f" window.__rummikub.state.tiles.get({drawn}).code]"
    )
    expect(app.button("Draw")).to_be_disabled()  # the computer's turn is still on show
    app = reload(page)
    expect(page.locator("#message")).to_contain_text(f"restored. You drew {label}.")
    expect(app.tile(drawn)).to_have_class(re.compile(r"\bhighlight\b"))
    expect(page.locator("#log")).to_contain_text(f"You drew {code}")  # the log names it too
    # The mark goes at the player's first move, as it does without a reload.
    app.tile(drawn).click()
    app.button("+ New Set").click()
    expect(app.tile(drawn)).not_to_have_class(re.compile(r"\bhighlight\b"))


def test_a_reload_keeps_the_games_pace_and_its_start_screen_choices(app):
    # A reload used to fall back to computer turns on show for 900 ms whatever the game
    # was started with, and the start screen to its defaults (1 opponent, Medium).
    page = app.page
    seed, turn, _ = computer_play_deal()
    app.new_game(seed, LEVELS, delay=0)  # Instant
    app = reload(page)
    watch(
        page,
        "__pending",
        "() => window.__pending.push(document.querySelectorAll('#sets .tile.pending').length)",
    )
    app.button("Draw").click()
    app.wait_for_turn()
    expect(page.locator("#log")).to_contain_text(turn["narration"])  # the computer played
    assert max(watched(page, "__pending")) == 0  # and no tile was revealed one by one
    # The start screen shows the game's own choices.
    page.locator("#menu-new-game").click()
    expect(page.get_by_label("Computer opponents")).to_have_value(str(len(LEVELS)))
    for i, level in enumerate(LEVELS):
        expect(page.get_by_label(f"Computer {i + 1} level")).to_have_value(level)
    expect(page.get_by_label("Computer turns stay on show")).to_have_value("0")
    expect(page.get_by_label("Deal number")).to_have_value("")  # not dealt again unasked
    page.get_by_role("button", name="Back to Game").click()


@functools.cache
def first_computer_plays(levels: tuple[str, ...]) -> tuple[int, dict]:
    """A seed where the player starts against ``levels`` and, after the player's draw,
    the first computer lays tiles: (seed, its turn)."""
    for seed, answer in twin.answers_to_a_draw(list(levels)):
        if answer["turn"]["action"] == "play":
            return seed, answer["turn"]
    raise AssertionError("no seed where the first computer plays at once")


def test_a_reload_while_the_computers_play_still_sums_up_all_their_turns(app):
    # Reloaded while Computer 2's turn was on show, the summary told only the turns after
    # the reload, and Computer 1's tiles were no longer highlighted: what happened before
    # it was only in the log's dim lines.
    levels = ("hard", "hard", "hard")
    seed, turn = first_computer_plays(levels)
    page = app.page
    app.new_game(seed, list(levels), delay=900)
    app.button("Draw").click()
    expect(page.locator("#turn-info")).to_contain_text("Computer 2", timeout=30_000)
    app = reload(page)
    message = page.locator("#message")
    said = turn["narration"][0].upper() + turn["narration"][1:]
    expect(message).to_contain_text(said)
    expect(message).to_contain_text("Welcome back: your game was restored. You drew")
    moved = {s["tile"] for s in turn["steps"]} | set(turn["placed"])
    table = {i for row in app.table_ids() for i in row}
    for tile in moved & table:
        expect(app.tile(tile)).to_have_class(re.compile(r"\bhighlight\b"))
    # Reloaded again on the player's turn, before a move: the same summary, the same
    # highlights.
    summary = message.text_content()
    app = reload(page)
    expect(message).to_contain_text(said)
    assert summary.split("restored.", 1)[1].strip() in message.text_content()
    for tile in moved & table:
        expect(app.tile(tile)).to_have_class(re.compile(r"\bhighlight\b"))


def test_a_new_games_settings_are_kept_only_with_its_first_save(app):
    # They were kept as soon as the engine dealt it, while the saved game was still the
    # old one (until the new one's first save, after "Who starts"): a reload then brought
    # the old game back under the new one's name and pace.
    page = app.page
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS, delay=0)
    settings = "() => JSON.parse(localStorage.getItem('rummikub.savedGame.settings'))"
    first = page.evaluate(settings)
    assert first["delay"] == 0
    hold_engine(page, "save")
    try:
        app.new_game(seed + 1, LEVELS, delay=900, wait=False)
        page.wait_for_function("window.__held >= 1")  # the new game's first save, held
        assert page.evaluate(settings) == first
        page.evaluate("window.__release()")
    finally:
        unhold_engine(page)
    app.wait_for_turn()
    kept = page.evaluate(settings)
    assert kept["game"] != first["game"] and kept["delay"] == 900
