"""Whatever is kept in localStorage, the page comes up: a saved game it cannot bring back
(refused by the engine, answered unreadably, or the engine dying on it) is set aside
under its own key, the start screen says so, and a new game is dealt and played. Each
save is planted before the page boots, in a browser context of its own.

These are the defects they pin: a save nested 100,000 deep killed Pyodide, and the page
kept the save, to die on it again at every visit; a save holding a bare NaN made every
answer hold one, which the page's JSON.parse threw on, so the load never settled and the
page said "Restoring your saved game…" for good; a save with an unknown player kind
loaded as a game no one could move in."""

from __future__ import annotations

import functools
import json

import game_twin as twin
import pytest
from conftest import BOOT_TIMEOUT_MS
from game_page import GamePage
from playwright.sync_api import expect
from test_play import LEVELS, opening_deal

SAVE_KEY = "rummikub.savedGame"
ASIDE_KEY = f"{SAVE_KEY}.setAside"
SET_ASIDE = "Your saved game could not be restored, so it was set aside"


@functools.cache
def good_save() -> str:
    """A save as the page writes it: the opening deal, just dealt (the CPython twin's
    save, which is the same text the page's engine writes)."""
    seed, _ = opening_deal()
    twin.new_game(seed, LEVELS)
    return twin.call(cmd="save")["save"]


def edited(old: str, new: str) -> str:
    save = good_save()
    assert old in save, old
    return save.replace(old, new, 1)


def deep_log() -> str:
    """The save with its log a list nested 100,000 deep."""
    save = json.loads(good_save())
    save["log"] = "@"
    return json.dumps(save).replace('"@"', "[" * 100_000 + "]" * 100_000)


# Each: the text planted as the saved game, and words the engine's reason holds.
BAD_SAVES = {
    "nested 100,000 deep": (deep_log, "nested too deeply"),
    "a bare NaN": (lambda: edited('"level":"easy"', '"level":NaN'), "NaN"),
    "an unknown player kind": (lambda: edited('"kind":"bot"', '"kind":"alien"'), "alien"),
    "a player with no kind": (lambda: edited('"kind":"bot",', ""), "player 2"),
    "a player's kind misspelt": (lambda: edited('"kind":"bot"', '"kInd":"bot"'), "players"),
    "a 1 MB name": (lambda: edited('"name":"You"', f'"name":"{"x" * 1_000_000}"'), "players"),
    "not JSON": (lambda: "this is not a saved game {", "not valid JSON"),
    "an empty object": (lambda: "{}", "not a saved Rummikub game"),
    "a list": (lambda: "[1, 2, 3]", "not a saved Rummikub game"),
}


def plant(browser, records: dict[str, str], script: str = ""):
    """A browser context whose first page finds ``records`` in its localStorage before
    any of the page's own scripts run (planted once: a reload finds what the page left),
    with ``script`` run first in each page too."""
    context = browser.new_context(viewport={"width": 1280, "height": 860}, service_workers="block")
    context.add_init_script(
        "if (typeof localStorage !== 'undefined' && !sessionStorage.getItem('planted')) {"
        f" for (const [k, v] of Object.entries({json.dumps(records)})) localStorage.setItem(k, v);"
        " sessionStorage.setItem('planted', 'yes'); }" + script
    )
    return context


def open_page(context, site: str):
    page = context.new_page()
    page.page_errors = []
    page.on("pageerror", lambda e: page.page_errors.append(str(e)))
    page.goto(site)
    return page


def stored(page, key: str) -> str | None:
    return page.evaluate("(key) => localStorage.getItem(key)", key)


def expect_set_aside(page, planted: str, reason: str) -> None:
    """The start screen says the save was set aside, and why; the start form is back
    (not "Restoring…"); the save is under its own key, word for word, and not where the
    page would restore it from."""
    notice = page.locator("#start-notice")
    expect(notice).to_contain_text(SET_ASIDE, timeout=BOOT_TIMEOUT_MS)
    expect(notice).to_contain_text(reason)
    expect(page.get_by_role("heading", name="New Game")).to_be_visible()
    expect(page.get_by_role("button", name="Start Game")).to_be_visible()
    assert page.locator("#start-screen").get_attribute("aria-busy") == "false"
    assert stored(page, SAVE_KEY) is None
    assert kept_aside(page, planted)


def kept_aside(page, planted: str) -> bool:
    """Is ``planted`` kept under the set-aside key, word for word? (Compared in the page:
    a 1 MB save need not come back.)"""
    return page.evaluate(f"(t) => localStorage.getItem({ASIDE_KEY!r}) === t", planted)


def play_a_fresh_game(page, planted: str) -> None:
    """A new game, dealt at once (nothing to abandon), and a real turn played in it: a
    draw, then the computers' turn, and the player's turn again with one more tile. The
    save set aside is still kept."""
    app = GamePage(page)
    page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    expect(page.get_by_role("dialog", name="Abandon this game?")).to_be_hidden()
    rack = app.rack_ids()
    app.button("Draw").click()
    app.wait_for_turn()
    assert len(app.rack_ids()) == len(rack) + 1
    assert stored(page, SAVE_KEY) not in (None, planted)  # the new game, saved
    assert kept_aside(page, planted)
    expect(page.locator("#start-notice")).to_be_hidden()
    assert page.page_errors == []


@pytest.mark.parametrize("case", list(BAD_SAVES))
def test_a_save_the_engine_refuses_is_set_aside_and_a_new_game_plays(browser, site, case):
    make, reason = BAD_SAVES[case]
    planted = make()
    context = plant(browser, {SAVE_KEY: planted})
    try:
        page = open_page(context, site)
        expect_set_aside(page, planted, reason)
        play_a_fresh_game(page, planted)
    finally:
        context.close()


# The engine refuses NaN now, in and out (py_engine/limits.py), so no save makes it write
# one, and no input reaches the page's path for an answer it cannot read, nor, since the
# engine bounds its input's nesting, Pyodide's fatal error. These hooks, for the tests
# below only, stand in for an engine without those bounds: they wrap the page's Worker
# and change what the real engine's worker says about the first "load" (the first save
# the page restores, which the real engine loads). window.__workers counts the workers
# started, so a test sees a fresh engine boot.
HOOK = """
if (typeof window !== 'undefined' && typeof Worker !== 'undefined') {
  const Real = Worker;
  window.__workers = 0;
  let hooked = false;
  const isLoad = (message) => {
    try { return JSON.parse(message.request).cmd === 'load'; } catch { return false; }
  };
  window.Worker = class extends Real {
    constructor(...args) { super(...args); window.__workers++; }
    postMessage(message, ...rest) {
      if (!hooked && isLoad(message)) { hooked = true; if (ON_LOAD(this, message)) return; }
      return super.postMessage(message, ...rest);
    }
    set onmessage(handler) { super.onmessage = (event) => handler(ON_ANSWER(event)); }
    get onmessage() { return super.onmessage; }
  };
}
"""

# The real engine's answer to the load, with a bare NaN in it, as the engine once wrote
# into every answer of a game loaded from a save with "level": NaN.
NAN_IN_THE_ANSWER = """
let loadId = null;
const ON_LOAD = (worker, message) => { loadId = message.id; return false; };
const ON_ANSWER = (event) => event.data.id === loadId && event.data.response
  ? { data: { ...event.data, response: event.data.response.replace('{', '{"level": NaN, ') } }
  : event;
"""

# The engine dies on the load: its worker is terminated, and the page is told as
# worker.js tells it when Pyodide's call threw (the fatal error a 100,000-deep save gave).
FATAL_ERROR_ON_LOAD = """
const ON_ANSWER = (event) => event;
const ON_LOAD = (worker, message) => {
  worker.terminate();
  const data = { id: message.id, failure: 'Maximum call stack size exceeded', fatal: true };
  setTimeout(() => worker.onmessage({ data }));
  return true;
};
"""

# The engine's worker dies on the load of an uncaught error: terminated, and its error
# event fired at the page.
WORKER_ERROR_ON_LOAD = """
const ON_ANSWER = (event) => event;
const ON_LOAD = (worker, message) => {
  worker.terminate();
  const message_ = 'Uncaught RangeError: Maximum call stack size exceeded';
  setTimeout(() => worker.dispatchEvent(new ErrorEvent('error', { message: message_ })));
  return true;
};
"""

ENGINE_FAILURES = {
    "an answer that is not JSON": (NAN_IN_THE_ANSWER, "answer could not be read", 1),
    "Pyodide's fatal error": (FATAL_ERROR_ON_LOAD, "Maximum call stack size exceeded", 2),
    "the worker's error": (WORKER_ERROR_ON_LOAD, "Maximum call stack size exceeded", 2),
}


@pytest.mark.parametrize("case", list(ENGINE_FAILURES))
def test_a_save_the_engine_fails_on_is_set_aside_and_a_new_game_plays(browser, site, case):
    """The load settles (no "Restoring…" for good), the save is set aside, and when the
    engine died, a new one boots (a second worker, the whole boot again) and deals the
    new game."""
    hook, reason, workers = ENGINE_FAILURES[case]
    planted = good_save()
    context = plant(browser, {SAVE_KEY: planted}, hook + HOOK)
    try:
        page = open_page(context, site)
        expect_set_aside(page, planted, reason)
        if workers == 2:
            expect(page.locator("#start-notice")).to_contain_text("stopped while loading it")
        play_a_fresh_game(page, planted)
        assert page.evaluate("window.__workers") == workers
    finally:
        context.close()


def test_unreadable_records_beside_a_good_save_are_ignored(browser, site):
    """The page's own records beside the save (settings, clock, arrangement, the
    computers' turns since, statistics), each unreadable or of the wrong shape: the save
    comes back all the same, and the game plays on."""
    records = {
        SAVE_KEY: good_save(),
        f"{SAVE_KEY}.settings": '{"game": 7, "delay": NaN, "form": [1]}',
        f"{SAVE_KEY}.clock": "not JSON",
        f"{SAVE_KEY}.arrangement": '{"turn": [], "rack": "R5", "table": {"x": 1}}',
        f"{SAVE_KEY}.since": "[" * 100_000,
        "rummikub.stats": '{"rounds": "many"}',
    }
    context = plant(browser, records)
    try:
        page = open_page(context, site)
        page.wait_for_selector("body[data-engine=ready]", timeout=BOOT_TIMEOUT_MS)
        app = GamePage(page)
        app.wait_for_turn()
        expect(page.locator("#message")).to_contain_text("Welcome back: your game was restored")
        dealt = json.loads(good_save())["rounds"][-1]["racks"][0]
        assert sorted(app.rack_ids()) == sorted(dealt)
        rack = app.rack_ids()
        app.button("Draw").click()
        app.wait_for_turn()
        assert len(app.rack_ids()) == len(rack) + 1
        assert stored(page, ASIDE_KEY) is None
        assert page.page_errors == []
    finally:
        context.close()
