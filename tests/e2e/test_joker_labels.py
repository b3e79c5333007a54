"""What a joker on the table stands for ("= Y10/K10", over the joker) stays inside its
own set's box and covers nothing else: not another set, not a set's number, not another
tile. On a phone the label of a joker at the end of a 3-tile group ran over the next
set's number; on a desktop every label stood out above its set's box."""

from __future__ import annotations

import functools
import re

import game_twin as twin
import pytest
from conftest import open_booted_page
from game_page import GamePage
from playwright.sync_api import expect
from test_play import LEVELS

SIZES = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
    "small phone": {
        "viewport": {"width": 360, "height": 560},
        "is_mobile": True,
        "has_touch": True,
    },
    "sideways": {
        "viewport": {"width": 844, "height": 390},
        "is_mobile": True,
        "has_touch": True,
    },
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}

# Every shown joker label with its own set's box, and every box it must stay clear of.
LABELS_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const sets = [...document.querySelectorAll('#sets .set')];
  return [...document.querySelectorAll('#sets .stands:not([hidden])')].map((label) => {
    const own = label.closest('.set');
    const joker = label.closest('.tile');
    return {
      text: label.textContent, label: box(label), set: box(own),
      others: [
        ...sets.filter((s) => s !== own).map((s) => ({what: s.ariaLabel, ...box(s)})),
        ...[...document.querySelectorAll('#sets .set-number')]
          .map((b) => ({what: `badge ${b.textContent}`, ...box(b)})),
        ...[...document.querySelectorAll('#sets .tile')].filter((t) => t !== joker)
          .map((t) => ({what: t.ariaLabel, ...box(t)})),
        ...[...document.querySelectorAll('#sets .stands:not([hidden])')]
          .filter((l) => l !== label).map((l) => ({what: l.textContent, ...box(l)})),
      ],
    };
  });
}"""


def overlap(a: dict, b: dict) -> bool:
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5
    )


def assert_labels_clear(page, count: int) -> list[dict]:
    labels = page.evaluate(LABELS_JS)
    assert len(labels) == count, labels
    for item in labels:
        lab, own = item["label"], item["set"]
        where = f"{item['text']} at {lab}, its set at {own}"
        assert own["left"] - 0.5 <= lab["left"] and lab["right"] <= own["right"] + 0.5, where
        assert own["top"] - 0.5 <= lab["top"] and lab["bottom"] <= own["bottom"] + 0.5, where
        hit = [o for o in item["others"] if overlap(lab, o)]
        assert not hit, f"{where} covers {hit}"
    return labels


@functools.cache
def joker_group_deal() -> tuple[int, list[int], list[int], list[int]]:
    """A seed where the player starts holding a joker, a joker-free pair of one number in
    two colours (with the joker, a 3-tile group: the joker stands for either missing
    colour, the widest label) and, for a run with a joker at its start, two consecutive
    tiles of one colour: (seed, pair + joker, joker + run pair, another tile)."""
    for seed in range(1, 600):
        view = twin.new_game(seed, LEVELS)
        if view["current"] != view["me"]:
            continue
        rack = view["rack"]
        jokers = [t["id"] for t in rack if t["joker"]]
        if not jokers:
            continue
        plain = [t for t in rack if not t["joker"]]
        pair = next(
            (
                [a["id"], b["id"]]
                for a in plain
                for b in plain
                if a["number"] == b["number"] and a["color"] < b["color"]
            ),
            None,
        )
        if not pair:
            continue
        run = next(
            (
                [a["id"], b["id"]]
                for a in plain
                for b in plain
                if a["color"] == b["color"]
                and b["number"] == a["number"] + 1
                and a["number"] >= 2
                and not {a["id"], b["id"]} & set(pair)
            ),
            None,
        )
        if not run:
            continue
        spare = [t["id"] for t in plain if t["id"] not in pair + run]
        group = [*pair, jokers[0]]
        if twin.call(cmd="check", table=[group])["ok"]:
            return seed, group, run, spare
    raise AssertionError("no seed with a joker and a pair")


@pytest.fixture(params=list(SIZES), scope="module")
def sized(request, browser, site, requests_seen):
    context = browser.new_context(**SIZES[request.param])
    page = open_booted_page(context, site, requests_seen)
    yield GamePage(page)
    assert page.page_errors == [], page.page_errors
    context.close()


def test_joker_labels_stay_inside_their_sets(sized, tmp_path):
    app, page = sized, sized.page
    seed, group, run, spare = joker_group_deal()
    app.new_game(seed, LEVELS)
    joker = group[-1]
    # Set 1: the pair, then the joker at its end (its label the widest: "= Y10/K10").
    app.tap_new_set(group)
    label = app.set_box(0).locator(".stands")
    expect(label).to_have_text(re.compile(r"^= \w+/\w+$"))
    # Set 2 right after it, so its number sits just beside the joker's label.
    app.tap_new_set(spare[:2])
    assert_labels_clear(page, 1)
    page.screenshot(path=str(tmp_path / "joker_last.png"))
    # The joker first in its set, beside the set's own number.
    app.tile(joker).click()
    page.get_by_role("button", name=re.compile(r"^Put here: Set 1, before ")).click()
    expect(app.set_box(0).locator(".tile").first).to_have_attribute("data-id", str(joker))
    expect(label).not_to_be_empty()
    assert_labels_clear(page, 1)
    # The joker at the start of a run: a one-colour label ("= R4").
    app.tap_new_set(run)  # set 3: the run pair; the joker goes in front of it
    app.tile(joker).click()
    page.get_by_role("button", name=re.compile(r"^Put here: Set 3, before ")).click()
    expect(app.set_box(2).locator(".stands")).not_to_be_empty()
    assert_labels_clear(page, 1)
    page.screenshot(path=str(tmp_path / "joker_first.png"))


@functools.cache
def one_joker_save() -> str:
    """A saved game at the player's turn, 12 sets or more on the table and one of them
    holding a joker (the player played hints against hard and expert)."""
    for view, _ in twin.turns_on_hints(["hard", "expert"]):
        jokers = [s for s in view["table"] if any(t["joker"] for t in s["tiles"])]
        if len(view["table"]) >= 12 and len(jokers) == 1:
            return twin.call(cmd="save")["save"]
    raise AssertionError("no game with 12 sets and one joker on the table")


# Each set's row (its top in the view), whether it holds a joker, its top padding and
# the top of its tiles, in CSS pixels; the label's room (style.css's 0.66rem + 8px).
ROWS_JS = """() => {
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  return {room: 0.66 * rem + 8, sets: [...document.querySelectorAll('#sets .set')].map((s) => ({
    row: Math.round(s.offsetTop), joker: !!s.querySelector('.set-tiles > .tile.joker'),
    pad: parseFloat(getComputedStyle(s).paddingTop),
    tiles: s.querySelector('.set-tiles > .tile').getBoundingClientRect().top}))};
}"""


def assert_room_in_the_joker_row_only(page) -> None:
    m = page.evaluate(ROWS_JS)
    rows: dict[int, list[dict]] = {}
    for s in m["sets"]:
        rows.setdefault(s["row"], []).append(s)
    with_joker = [r for r in rows.values() if any(s["joker"] for s in r)]
    assert len(rows) >= 2 and len(with_joker) == 1, rows
    for sets in rows.values():
        joker_row = sets in with_joker
        for s in sets:
            assert (s["pad"] == pytest.approx(m["room"], abs=0.5)) == joker_row, (joker_row, sets)
            assert s["tiles"] == pytest.approx(sets[0]["tiles"], abs=0.5), sets  # in line


@pytest.mark.parametrize("size, narrower", [((1280, 800), 1100), ((390, 844), 360)])
def test_only_the_row_holding_a_joker_keeps_room_for_its_label(app, size, narrower):
    """Room above the tiles for a joker's label ("= R5") is kept by the sets of the
    joker's row, all of them (their tiles in line), and by no other row: every set kept it
    while a joker was anywhere on the table, 13 px more in every row. So it stays as a
    tile picked up opens gaps in the sets (the rows wrap anew) and as the window narrows."""
    page = app.page
    before = page.viewport_size
    try:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        app = app.load_saved(one_joker_save())
        expect(page.locator("#sets .stands:not([hidden])")).to_have_count(1)
        assert_room_in_the_joker_row_only(page)
        assert_labels_clear(page, 1)
        app.tile(app.rack_ids()[0]).click()
        expect(page.locator("#sets .gap").first).to_be_attached()
        assert_room_in_the_joker_row_only(page)
        assert_labels_clear(page, 1)
        page.keyboard.press("Escape")
        expect(page.locator("#sets .gap")).to_have_count(0)
        page.set_viewport_size({"width": narrower, "height": size[1]})
        page.wait_for_timeout(200)  # the resize observer's turn
        assert_room_in_the_joker_row_only(page)
        assert_labels_clear(page, 1)
    finally:
        page.set_viewport_size(before)
