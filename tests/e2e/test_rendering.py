"""A render touches only what changed: the board's tiles stay in place through renders
that do not move them, a computer's reveal changes one tile a step (its card's count of
tiles going down with it), and a highlighted tile's glow runs on through later renders. (Every render used to take every tile out of
the page and put it back: the browser restyled and laid out the whole board each time,
35-90 ms a render on a slow phone, once per tile of a computer's reveal, and each glow
started over.)"""

from __future__ import annotations

from game_page import watch, watched
from playwright.sync_api import expect
from test_play import LEVELS, computer_play_deal

# Every batch of changes under the elements of the given ids: how many lists of
# children changed, which tiles had an attribute changed, and how many tiles were still
# pending.
RECORD = """(ids) => {
  window.__batches = [];
  const handle = (records) => {
    const tiles = new Set();
    let children = 0;
    for (const r of records) {
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


def test_a_render_that_changes_nothing_moves_no_tile(app):
    seed, _, _ = computer_play_deal()
    page = app.page
    app.new_game(seed, LEVELS)
    # A tile picked up: the gaps are on show too.
    app.tile(app.rack_ids()[0]).click()
    expect(page.locator("#rack .gap").first).to_be_visible()
    page.evaluate(RECORD, ["sets", "rack", "players"])
    page.evaluate("() => { for (let i = 0; i < 3; i++) window.__rummikub.render(); }")
    page.evaluate("() => new Promise(requestAnimationFrame)")
    assert page.evaluate("window.__stopRecord()") == []


def test_each_step_of_a_computer_reveal_changes_one_tile(app):
    seed, turn, _ = computer_play_deal()
    page = app.page
    # "Long": each tile is its own step, at least 80 ms after the one before.
    app.new_game(seed, LEVELS, delay=1600)
    # (The players' cards change once, at the last tile: "playing…" becomes "played".)
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
    app.new_game(seed, LEVELS, delay=500)
    app.button("Draw").click()
    app.wait_for_turn()
    # The computer's tiles glow until the player's first move.
    glowing = page.locator("#sets .tile.highlight").first
    expect(glowing).to_be_attached()
    times = glowing.evaluate(
        """async (tile) => {
      const glow = () => tile.getAnimations().find((a) => a.animationName === 'glow');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = glow().currentTime;
      window.__rummikub.render();
      window.__rummikub.render();
      await new Promise(requestAnimationFrame);
      return [before, glow()?.currentTime ?? null];
    }"""
    )
    before, after = times
    assert before >= 300 and after is not None and after >= before, times


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
