"""A render touches only what changed: the board's tiles stay in place through renders
that do not move them, a computer's reveal changes one tile a step (its card's count of
tiles going down with it), a highlighted tile's glow runs on through later renders, and
a joker's label is placed where its tile comes to rest. (Every render used to take every
tile out of the page and put it back: the browser restyled and laid out the whole board
each time, 35-90 ms a render on a slow phone, once per tile of a computer's reveal, and
each glow started over.)"""

from __future__ import annotations

import functools

import game_twin as twin
from game_page import watch, watched
from playwright.sync_api import expect
from test_joker_labels import assert_labels_clear, joker_group_deal
from test_play import LEVELS, computer_play_deal

# Every batch of changes under the elements of the given ids: how many lists of
# children changed, which tiles had an attribute changed, and how many tiles were still
# pending. A tile's inline style is left out (a batch of nothing else is not counted): a
# flight's (render.js launch), decoration set and taken off around the render.
RECORD = """(ids) => {
  window.__batches = [];
  const handle = (records) => {
    const tiles = new Set();
    let children = 0;
    const kept = records.filter((r) =>
      !(r.attributeName === 'style' && r.target.classList?.contains('tile')));
    if (!kept.length) return;
    for (const r of kept) {
      if (r.type === 'childList') children += 1;
      else if (r.target.classList?.contains('tile')) tiles.add(r.target.dataset.id);
    }
    window.__batches.push({
      children,
      tiles: [...tiles],
      pending: document.querySelectorAll('#sets .tile.pending').length,
    });
  };
  const observer = new MutationObserver(handle);
  for (const id of ids) {
    observer.observe(document.getElementById(id),
      {subtree: true, childList: true, attributes: true, characterData: true});
  }
  window.__stopRecord = () => {
    const left = observer.takeRecords();
    if (left.length) handle(left);
    observer.disconnect();
    return window.__batches;
  };
}"""


def renders_change_nothing(page) -> None:
    page.evaluate(RECORD, ["sets", "rack", "players"])
    page.evaluate("() => { for (let i = 0; i < 3; i++) window.__rummikub.render(); }")
    page.evaluate("() => new Promise(requestAnimationFrame)")
    assert page.evaluate("window.__stopRecord()") == []


def test_a_render_that_changes_nothing_moves_no_tile(app):
    # A deal with a joker: on the rack (its label hidden), then on the table (shown).
    seed, group, _, _ = joker_group_deal()
    page = app.page
    app.new_game(seed, LEVELS)
    renders_change_nothing(page)
    app.tap_new_set(group)
    expect(app.set_box(0).locator(".stands")).not_to_be_empty()
    renders_change_nothing(page)
    # A tile picked up: the gaps are on show too.
    app.tile(app.rack_ids()[0]).click()
    expect(page.locator("#rack .gap").first).to_be_visible()
    renders_change_nothing(page)


def test_each_step_of_a_computer_reveal_changes_one_tile(app):
    seed, turn, _ = computer_play_deal()
    page = app.page
    # "Long": each tile is its own step, at least 80 ms after the one before.
    app.new_game(seed, LEVELS, delay=1600)
    # (Not the players' cards: the computer's count goes down with each tile.)
    page.evaluate(RECORD, ["sets", "rack"])
    app.button("Draw").click()
    page.wait_for_selector("#sets .tile.pending", state="attached", timeout=30_000)
    app.wait_for_turn()
    batches = page.evaluate("window.__stopRecord()")
    moved = {str(t) for t in turn["placed"]} | {str(s["tile"]) for s in turn["steps"]}
    assert len(moved) >= 3, turn
    # From the first render of the play (every moved tile pending) to the last tile
    # shown, each step shows one more tile, and moves nothing.
    start = next(i for i, b in enumerate(batches) if b["pending"] == len(moved))
    steps = []
    for batch in batches[start + 1 :]:
        if batch["pending"] == 0 and steps and steps[-1]["pending"] == 0:
            break
        steps.append(batch)
    assert [b["pending"] for b in steps] == list(range(len(moved) - 1, -1, -1)), batches
    for batch in steps:
        assert batch["children"] == 0, batch
        assert len(batch["tiles"]) == 1 and batch["tiles"][0] in moved, batch


def test_a_glow_runs_on_through_later_renders(app):
    seed, _, _ = computer_play_deal()
    page = app.page
    app.new_game(seed, LEVELS, delay=1600)
    app.button("Draw").click()
    # The computer's tiles glow from the start of their reveal (2.4 s), through its steps.
    page.wait_for_selector("#sets .tile.pending", state="attached", timeout=30_000)
    glowing = page.locator("#sets .tile.highlight").first
    # The same animation runs on (a tile put back into the page starts a new one).
    same = glowing.evaluate(
        """async (tile) => {
      const glow = () => tile.getAnimations().find((a) => a.animationName === 'glow');
      const before = glow();
      window.__rummikub.render();
      window.__rummikub.render();
      await new Promise(requestAnimationFrame);
      return !!before && glow() === before;
    }"""
    )
    assert same
    app.wait_for_turn()


def test_a_computers_rack_goes_down_as_its_tiles_appear(app):
    # Its card said the rack after the play as soon as the reveal began, with no tile yet
    # shown (QA pass 17).
    seed, turn, after = computer_play_deal()
    page = app.page
    app.new_game(seed, LEVELS, delay=1600)
    watch(
        page,
        "__counts",
        """() => {
      const text = document.querySelector('#players [data-player="1"] .player-tiles')?.textContent;
      if (text && window.__counts.at(-1) !== text) window.__counts.push(text);
    }""",
    )
    app.button("Draw").click()
    page.wait_for_selector("#sets .tile.pending", state="attached", timeout=30_000)
    app.wait_for_turn()
    counts = [int(text.split()[0]) for text in watched(page, "__counts")]
    placed = len(turn["placed"])
    assert counts == list(range(after + placed, after - 1, -1)), (counts, turn)


@functools.cache
def computer_joker_group_deal() -> int:
    """A seed where the player starts and draws, and the computer then lays a 3-tile
    group ending in a joker (its label, "= B8/K8", wider than a tile, kept inside the
    set by sliding it left)."""
    for seed, answer in twin.answers_to_a_draw(LEVELS):
        for row in answer["view"]["table"]:
            codes = [t["code"] for t in row["tiles"]]
            if len(codes) == 3 and codes[-1] == "J" and "/" in (row["stands_for"][-1] or ""):
                return seed
    raise AssertionError("no seed where the computer lays a group ending in a joker")


LABEL_BOX_JS = """() => [...document.querySelectorAll('#sets .stands:not([hidden])')].map((l) => {
  const r = l.getBoundingClientRect(); return [r.left, r.right, r.top]; })"""


def test_a_joker_label_laid_by_a_computer_is_placed_where_it_comes_to_rest(phone):
    # Its label was measured in the reveal's first render, while the joker was still
    # moved up and scaled down, and was not placed again (the review of session 16). On
    # a phone the label is wider than its joker's share of the set, so it is slid left.
    app = phone
    page = app.page
    app.new_game(computer_joker_group_deal(), LEVELS, delay=1600)
    app.button("Draw").click()
    # The play shown, and the pause after it (1.6 s) still on.
    expect(page.locator("#turn-info")).to_have_text("Computer 1 played", timeout=30_000)
    page.wait_for_timeout(300)  # every transition of the reveal over
    placed = page.evaluate(LABEL_BOX_JS)
    assert len(placed) == 1
    assert_labels_clear(page, 1)
    # Placed again from scratch (the table changes size): nowhere else.
    page.set_viewport_size({"width": 391, "height": 844})
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(100)
    again = page.evaluate(LABEL_BOX_JS)
    assert all(abs(a - b) < 0.6 for a, b in zip(placed[0], again[0], strict=True)), (placed, again)
    app.wait_for_turn()


def test_a_glow_once_over_stays_over_when_a_tile_is_picked_up(app):
    # Picking up a tile puts gaps in every row: the rows' tiles were put back into the
    # page with them, and every computer's tile glowed again (QA pass 18).
    seed, _, _ = computer_play_deal()
    page = app.page
    app.new_game(seed, LEVELS, delay=500)
    app.button("Draw").click()
    app.wait_for_turn()
    glows = """() => document.getAnimations().filter((a) => a.animationName === 'glow'
        && a.playState === 'running').length"""
    assert page.locator("#sets .tile.highlight").count() >= 3
    page.wait_for_function(f"({glows})() === 0", timeout=5_000)
    app.tile(app.rack_ids()[0]).click()
    expect(page.locator("#sets .gap").first).to_be_visible()
    assert page.evaluate(glows) == 0
    page.keyboard.press("Escape")
