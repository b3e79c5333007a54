"""Split: with a tile of a set held (a tap, a click or Enter), "Split" (or the S key) makes
that tile and the tiles after it a set of their own, just after the first part, in one
move. Splitting a run took a drag or two taps for every tile moved (QA pass 31: 5-6 drags
on a desktop, 8 taps on a phone). Undo takes a split back in one step, and the button is
disabled where there is nothing to split."""

from __future__ import annotations

import functools
import re

import game_twin as twin
import pytest
from game_page import GamePage
from playwright.sync_api import expect


@functools.cache
def long_run() -> tuple[str, int, list[int]]:
    """A saved game at the player's turn, opened, with a run of 6 tiles or more and no
    joker on the table, and a play to hint at (the player played hints against a medium
    computer): the save, the run's set index and its tile ids."""
    for view, hint in twin.turns_on_hints(["medium"]):
        for i, set_ in enumerate(view["table"]):
            tiles = set_["tiles"]
            long = len(tiles) >= 6 and not any(t["joker"] for t in tiles)
            if view["opened"] and long and hint()["table"]:
                return twin.call(cmd="save")["save"], i, [t["id"] for t in tiles]
    raise AssertionError("no game with a run of 6 tiles found")


@functools.cache
def joker_run() -> tuple[str, int, list[int]]:
    """A saved game at the player's turn, opened, with a run of 6 tiles or more holding
    one joker, its 4th tile (split before it, the joker starts the second half): the
    save, the run's set index and its tile ids."""
    for view, _ in twin.turns_on_hints(["medium"]):
        for i, set_ in enumerate(view["table"]):
            tiles = set_["tiles"]
            jokers = [k for k, t in enumerate(tiles) if t["joker"]]
            run = view["opened"] and set_["kind"] == "run" and len(tiles) >= 6
            if run and jokers == [3]:
                return twin.call(cmd="save")["save"], i, [t["id"] for t in tiles]
    raise AssertionError("no game with a run of 6 tiles and a joker found")


def labels(app: GamePage, set_index: int) -> list[str]:
    return (
        app.set_box(set_index)
        .locator(".tile")
        .evaluate_all("ts => ts.map(t => t.getAttribute('aria-label'))")
    )


def half(k: int, tiles: list[str], verdict: str) -> str:
    """How the split's news names set ``k`` (0-based): a run of 4 tiles or more from its
    first tile to its last, fewer tiles (or a group) each."""
    named = (
        f"{tiles[0]} to {tiles[-1]}" if len(tiles) > 3 and "run" in verdict else ", ".join(tiles)
    )
    return f"Set {k + 1}, {named}: {verdict}"


def split_news(k: int, tiles: list[str], at: int, verdicts: tuple[str, str]) -> str:
    """What a screen reader hears once set ``k`` (0-based) of ``tiles`` is split before
    its tile ``at``, its halves' verdicts ``verdicts``."""
    first, second = tiles[:at], tiles[at:]
    return (
        f"Set {k + 1} split before {second[0]}: {half(k, first, verdicts[0])}; "
        f"{half(k + 1, second, verdicts[1])}."
    )


def test_split_makes_two_sets_of_one_in_one_move_and_undo_takes_it_back(app):
    save, k, run = long_run()
    app = app.load_saved(save)
    before = app.table_ids()
    tiles = labels(app, k)
    split = app.button("Split")
    # Nothing held, a rack tile held, the first tile of a set held: nothing to split.
    expect(split).to_be_disabled()
    app.tile(app.rack_ids()[0]).click()
    expect(split).to_be_disabled()
    app.tile(run[0]).click()
    expect(app.tile(run[0])).to_have_attribute("aria-pressed", "true")
    expect(split).to_be_disabled()
    # The run's 4th tile held: Split makes two runs of it, the second just after the first.
    app.tile(run[3]).click()
    expect(split).to_be_enabled()
    split.click()
    assert app.table_ids() == [*before[:k], run[:3], run[3:], *before[k + 1 :]]
    expect(app.tile(run[3])).to_have_attribute("aria-pressed", "false")
    expect(split).to_be_disabled()
    # The engine's verdict on both parts, shown under each and read out in one sentence.
    first, second = (sum(int(t.split()[-1]) for t in part) for part in (tiles[:3], tiles[3:]))
    expect(app.set_box(k).locator(".set-note")).to_have_text(f"run · {first}")
    expect(app.set_box(k + 1).locator(".set-note")).to_have_text(f"run · {second}")
    runs = (f"run, {first} points", f"run, {second} points")
    expect(app.page.locator("#move-news")).to_have_text(split_news(k, tiles, 3, runs))
    expect(app.tile(run[3])).to_be_focused()
    # One move: one Undo brings the run back whole, and says so.
    app.button("Undo").click()
    assert app.table_ids() == before
    expect(app.page.locator("#move-news")).to_have_text(
        f"Undone: Set {k + 1} whole again, {tiles[0]} to {tiles[-1]}: run, {first + second} points."
    )
    expect(app.button("Undo")).to_be_disabled()


def test_the_s_key_splits_the_set_of_the_tile_picked_up(app):
    save, k, run = long_run()
    app = app.load_saved(save)
    before = app.table_ids()
    tiles = labels(app, k)
    app.tile(run[3]).focus()
    app.page.keyboard.press("Enter")
    expect(app.tile(run[3])).to_have_attribute("aria-pressed", "true")
    app.page.keyboard.press("s")
    assert app.table_ids() == [*before[:k], run[:3], run[3:], *before[k + 1 :]]
    expect(app.tile(run[3])).to_be_focused()
    # Split again, the second part before its second tile: three sets, then back by Reset.
    app.page.keyboard.press("Enter")
    app.page.keyboard.press("ArrowRight")  # the held tile moves one place along
    app.page.keyboard.press("Enter")  # put down: it is let go where it now is
    assert app.table_ids()[k + 1] == [run[4], run[3], *run[5:]]
    # Told as a move of the tile, not as the split before it.
    moved = f"{tiles[3]} to Set {k + 2}, place 2 of {len(run) - 3}:"
    expect(app.page.locator("#move-news")).to_contain_text(moved)
    app.tile(run[3]).focus()
    app.page.keyboard.press("Enter")
    app.page.keyboard.press("s")
    assert app.table_ids()[k + 1 : k + 3] == [[run[4]], [run[3], *run[5:]]]
    app.button("Reset Turn").click()
    assert app.table_ids() == before


def test_split_news_names_a_joker_by_the_tile_it_stands_for(app):
    # A joker at the end of a half was read as "joker" ("Set 3, joker, yellow 12, yellow
    # 13"), not as what it stood for, which its label shows to the eye.
    save, k, run = joker_run()
    app = app.load_saved(save)
    shown = labels(app, k)
    tiles = [re.sub(r"^joker, standing for ", "joker as ", t) for t in shown]
    assert tiles[3].startswith("joker as "), shown
    app.tile(run[3]).click()
    app.button("Split").click()
    points = [sum(int(t.split()[-1]) for t in part) for part in (tiles[:3], tiles[3:])]
    runs = (f"run, {points[0]} points", f"run, {points[1]} points")
    news = app.page.locator("#move-news")
    expect(news).to_have_text(split_news(k, tiles, 3, runs))
    # Moved, the joker is named as what it stands for where it went: back on the end of
    # the first half, it stands for the same tile.
    app.tile(run[3]).click()
    app.page.get_by_role("button", name=f"Put here: Set {k + 1}, end").click()
    value = points[0] + int(tiles[3].split()[-1])
    moved = f"{tiles[3]} to Set {k + 1}, place 4 of 4: run, {value} points."
    if len(run) == 6:  # the two tiles it left behind are no set
        moved += f" Set {k + 2} is left not valid: a set needs at least 3 tiles."
    expect(news).to_have_text(moved)
    app.button("Undo").click()
    back = f"Undone: {tiles[3]} back to Set {k + 2}, place 1 of {len(run) - 3}"
    expect(news).to_have_text(f"{back}: run, {points[1]} points.")
    app.button("Undo").click()
    whole = f"{tiles[0]} to {tiles[-1]}: run, {sum(points)} points"  # 6 tiles or more
    expect(news).to_have_text(f"Undone: Set {k + 1} whole again, {whole}.")


@pytest.fixture(scope="module")
def phone_viewport():
    """A narrow phone's screen, 360x740 (most Android phones are 360 px wide)."""
    return {"width": 360, "height": 740}


# Each turn button in view: its name and the top of its row.
ROWS_JS = """() => [...document.querySelectorAll('[role=toolbar][aria-label=Turn] button')]
  .filter(b => b.getClientRects().length)
  .map(b => [b.textContent.trim(), Math.round(b.getBoundingClientRect().top)])"""


def test_split_by_taps_on_a_narrow_phone_with_the_turn_buttons_in_two_rows(phone):
    """At 360 px "Split" shares a row with "Draw", "Hint" and "Return to rack": the turn's
    buttons take two rows, as before it was added, and so they do while a hint is laid
    out ("Next Step" in place of "Hint", "Split" out of the way)."""
    save, k, run = long_run()
    app = phone.load_saved(save)
    before = app.table_ids()
    rows = app.page.evaluate(ROWS_JS)
    assert [name for name, _ in rows][-1] == "Split", rows
    assert len({top for _, top in rows}) == 2, rows
    app.tile(run[-2]).tap()
    app.button("Split").tap()
    assert app.table_ids() == [*before[:k], run[:-2], run[-2:], *before[k + 1 :]]
    expect(app.set_box(k + 1).locator(".set-note")).to_have_text("a set needs at least 3 tiles")
    tiles = [*labels(app, k), *labels(app, k + 1)]
    points = sum(int(t.split()[-1]) for t in tiles[:-2])
    verdicts = (f"run, {points} points", "not valid, a set needs at least 3 tiles")
    expect(app.page.locator("#move-news")).to_have_text(
        split_news(k, tiles, len(run) - 2, verdicts)
    )
    app.button("Undo").tap()
    assert app.table_ids() == before
    app.button("Hint").tap()
    expect(app.button("Next Step")).to_be_visible()
    expect(app.button("Split")).to_be_hidden()
    rows = app.page.evaluate(ROWS_JS)
    assert len({top for _, top in rows}) == 2, rows
