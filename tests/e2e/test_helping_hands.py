"""Undo, the hint laid out step by step, and the shown (not just applied) game: the
who-starts draw and computer plays revealed tile by tile."""

import re

import game_twin as twin
from game_page import FLIGHTS_JS, hold_engine, unhold_engine, watched
from playwright.sync_api import expect
from test_play import LEVELS, computer_play_deal, opening_deal


def test_undo_takes_back_one_move_at_a_time(app):
    seed, sets = opening_deal()
    app.new_game(seed, LEVELS)
    expect(app.button("Undo")).to_be_disabled()
    rack = app.rack_ids()
    app.tap_new_set(sets[0][:2])
    app.button("Undo").click()
    assert app.table_ids() == [sets[0][:1]]
    app.page.keyboard.press("u")
    assert app.table_ids() == []
    assert sorted(app.rack_ids()) == sorted(rack)
    expect(app.button("Undo")).to_be_disabled()


def test_hint_is_laid_out_step_by_step_and_played(app):
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    labels = {t["id"]: t["label"] for t in twin.new_game(seed, LEVELS)["rack"]}
    hint = twin.call(cmd="hint")
    assert hint["table"]
    app.button("Hint").click()
    # The play in words, as the engine tells it ("lay R10 B10 Y10 and add K7 to ..."),
    # its codes shown as small tiles; then what to do next; then the tiles' names, in the
    # order the words name them (the engine's "placed"), read out but not shown: on the
    # screen they repeated what the small tiles show (and a long list ran past the
    # message's two lines).
    names = ", ".join(labels[i] for i in hint["placed"])
    expect(app.page.locator("#message")).to_have_text(
        f"Hint: {hint['said']}. Use Next Step to lay it out. ({names})"
    )
    unseen = app.page.locator("#message > .sr-only")
    expect(unseen).to_have_text(f" ({names})")
    step = app.button("Next Step")
    for n in range(1, len(hint["table"]) + 1):
        step.click()
        assert len(app.table_ids()) == n
    expect(step).to_be_hidden()
    assert app.table_ids() == hint["table"]
    expect(app.table.locator(".set.invalid")).to_have_count(0)
    app.button("Confirm Play").click()
    app.wait_for_turn()
    assert not set(hint["placed"]) & set(app.rack_ids())


def test_a_move_of_the_players_own_takes_the_hints_outlines_off(app):
    """Issue 42: the hint's outlines stayed on its rack tiles after the player dragged a
    tile of their own (a tap took them off)."""
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    app.button("Hint").click()
    outlined = app.rack.locator(".tile.hinted")
    expect(outlined.first).to_be_visible()
    app.drag(app.tile(app.rack_ids()[0]), app.button("+ New Set"))
    expect(app.set_box(0).locator(".tile")).to_have_count(1)
    expect(outlined).to_have_count(0)
    expect(app.button("Next Step")).to_be_hidden()


def test_who_starts_and_computer_play_are_shown(app):
    seed, turn, _ = computer_play_deal()
    page = app.page
    app.new_game(seed, LEVELS, delay=900, wait=False)
    overlay = page.locator("#who-starts")
    expect(overlay).to_contain_text("Highest tile starts")
    expect(
        overlay.get_by_role("img", name="joker").or_(overlay.locator(".tile")).first
    ).to_be_attached()
    expect(overlay.locator(".flip.flipped")).to_have_count(2)
    # The deal's player starts (``computer_play_deal``): said once the tiles are turned.
    expect(overlay.locator(".who-outcome")).to_have_text("You start")
    expect(overlay).to_be_hidden(timeout=10_000)
    app.wait_for_turn()
    # While a set still has tiles to come, its note (the play's final kind and sum) is
    # not shown: watched on every change of the table.
    page.evaluate(
        """() => { window.__laying = 0; window.__noteEarly = [];
            new MutationObserver(() => {
                for (const set of document.querySelectorAll('#sets .set')) {
                    if (!set.querySelector('.tile.pending')) continue;
                    window.__laying += 1;
                    const note = set.querySelector('.set-note');
                    if (note.textContent && getComputedStyle(note).visibility !== 'hidden')
                        window.__noteEarly.push(note.textContent);
                }
            }).observe(document.querySelector('#sets'),
                {subtree: true, childList: true, attributes: true}); }"""
    )
    app.button("Draw").click()
    # The computer's tiles appear one by one, then stay highlighted.
    page.wait_for_selector("#sets .tile.pending", state="attached", timeout=30_000)
    app.wait_for_turn()
    assert page.locator("#sets .tile.pending").count() == 0
    assert page.evaluate("window.__laying") > 0
    assert page.evaluate("window.__noteEarly") == []
    for tile_id in turn["placed"]:
        expect(app.tile(tile_id)).to_have_class(re.compile(r"\bhighlight\b"))
    expect(page.locator("#log")).to_contain_text(turn["narration"])


def _redraw_deal() -> tuple[int, list, dict]:
    """A seed whose who-starts draw is made again (a tie or a joker), with its draws and
    the twin's first view."""
    for seed in range(1, 200):
        answer = twin.call(
            cmd="new_game",
            seed=seed,
            rules=twin.rules_for(LEVELS),
            players=twin.players(LEVELS),
        )
        if len(answer["who_starts"]) > 1:
            return seed, answer["who_starts"], answer["view"]
    raise AssertionError("no seed with a second who-starts draw")


def test_who_starts_says_why_it_draws_again_and_then_who_starts(app):
    seed, draws, view = _redraw_deal()
    page = app.page
    # Every title and outcome the panel shows, in order (the panel is on show briefly).
    page.evaluate(
        """() => { window.__whoSaid = []; window.__logSaid = new Set();
            const box = document.querySelector('#who-starts');
            new MutationObserver(() => {
                const said = [...box.querySelectorAll('.who-title, .who-outcome')]
                    .map((p) => p.textContent).filter(Boolean).join(' | ');
                if (said && window.__whoSaid.at(-1) !== said) window.__whoSaid.push(said);
                // The log's newest line while the draw is on show.
                const last = [...document.querySelectorAll('#log li')].at(-1);
                if (!box.hidden && last) window.__logSaid.add(last.textContent);
            }).observe(box, {subtree: true, childList: true, characterData: true}); }"""
    )
    app.new_game(seed, LEVELS, delay=900)
    expected = []
    for k, draw in enumerate(draws):
        title = "Drawing again" if k else "Highest tile starts"
        if k == len(draws) - 1:
            outcome = "You start" if view["current"] == view["me"] else "Computer 1 starts"
        elif any(d["tile"]["joker"] for d in draw):
            outcome = "A joker: draw again"
        else:
            outcome = "A tie: draw again"
        expected += [title, f"{title} | {outcome}"]
    assert page.evaluate("window.__whoSaid") == expected
    # Meanwhile the log did not tell who starts either.
    assert page.evaluate("[...window.__logSaid]") == ["Round 1: who starts?"]
    expect(page.locator("#log")).to_contain_text(
        "Round 1: You start" if view["current"] == view["me"] else "Round 1: Computer 1 starts"
    )


def test_who_starts_message_tells_every_draw(app):
    """Issue 42: deal 4242's round 2 said "Who starts: Computer 1 yellow 2. You start.":
    the player had drawn black 8 and the computer a joker, and only the last draw (the
    computer's alone) was told. A deal like it: each draw is told, the player's own tile
    included."""
    for seed in range(1, 400):
        answer = twin.call(
            cmd="new_game", seed=seed, rules=twin.rules_for(LEVELS), players=twin.players(LEVELS)
        )
        first, *again = answer["who_starts"]
        view = answer["view"]
        if again and view["current"] == view["me"] and first[1]["tile"]["joker"]:
            break
    assert [len(draw) for draw in [first, *again]] == [2, 1], "a joker drawn again alone"
    mine, again = first[0]["tile"]["label"], again[0][0]["tile"]["label"]
    app.new_game(seed, LEVELS)
    expect(app.page.locator("#message")).to_have_text(
        f"Who starts: you {mine}, Computer 1 a joker; Computer 1 drew again: {again}. You start."
    )


def test_reduced_motion_skips_the_motion(app):
    seed, turn, _ = computer_play_deal()
    page = app.page
    page.emulate_media(reduced_motion="reduce")
    try:
        app.new_game(seed, LEVELS, delay=900)
        assert page.locator("#who-starts").is_hidden()
        page.evaluate(
            """() => { window.__pendingSeen = false;
                new MutationObserver(() => { if (document.querySelector('#sets .tile.pending'))
                    window.__pendingSeen = true; }).observe(document.body,
                    {subtree: true, attributes: true, childList: true}); }"""
        )
        app.button("Draw").click()
        app.wait_for_turn()
        pending = page.evaluate("window.__pendingSeen")
        assert pending is False
        for tile_id in turn["placed"]:
            expect(app.tile(tile_id)).to_have_class(re.compile(r"\bhighlight\b"))
    finally:
        page.emulate_media(reduced_motion="no-preference")


def test_hint_over_a_partly_arranged_table_ends_in_a_legal_play(app):
    # A rack tile the hint does not use, already laid alone on a new set, goes back to
    # its own place on the rack as the hint's first step (it used to go to the rack's
    # end); the laid-out hint is the engine's own table.
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    twin.new_game(seed, LEVELS)
    hint = twin.call(cmd="hint")
    rack = app.rack_ids()
    stray = next(i for i in rack[:-2] if i not in hint["placed"])
    used = hint["placed"][0]
    app.tap_new_set([stray])
    app.tile(used).click()
    app.page.get_by_role("button", name="Put here: Set 1, end").click()
    assert app.table_ids() == [[stray, used]]
    app.button("Hint").click()
    message = app.page.locator("#message")
    expect(message).to_contain_text("the first step puts it back on your rack")
    step = app.button("Next Step")
    step.click()
    assert app.rack_ids() == [i for i in rack if i != used]
    expect(message).to_contain_text("went back to your rack")
    # A step that lays a set reads it out with its verdict, as a move is.
    step.click()
    said = re.compile(r"^Hint step: Set \d+, .+: (run|group), \d+ points\. Opening: \d+ of 30\.$")
    expect(app.page.locator("#move-news")).to_have_text(said)
    for _ in range(len(hint["table"]) + 1):
        if step.is_hidden():
            break
        step.click()
    expect(step).to_be_hidden()
    expect(message).to_have_text("The hint is laid out: Confirm Play to play it.")
    assert sorted(map(sorted, app.table_ids())) == sorted(map(sorted, hint["table"]))
    expect(app.table.locator(".set.invalid")).to_have_count(0)
    # Undo takes the hint back a step at a time, down to the player's own arrangement,
    # and says so each time.
    news = app.page.locator("#move-news")
    for _ in range(len(hint["table"]) + 1):
        app.button("Undo").click()
        expect(news).to_contain_text("Undone: the hint's last step.")
    assert app.table_ids() == [[stray, used]]
    app.button("Reset Turn").click()
    app.button("Hint").click()
    for _ in range(len(hint["table"])):
        step.click()
    app.button("Confirm Play").click()
    app.wait_for_turn()
    assert not set(hint["placed"]) & set(app.rack_ids())
    assert stray in app.rack_ids()


def test_a_slow_hint_says_it_is_looking_and_a_second_press_asks_nothing_more(app):
    """A hint with wrap-around runs can take a second (several on a slow phone): nothing
    showed that it was coming, and a second press sent a second search."""
    page = app.page
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    try:
        hold_engine(page, "hint")
        hint = app.button("Hint")
        hint.click()
        expect(hint).to_have_attribute("aria-busy", "true")
        expect(page.locator("#message")).to_have_text("Looking for the best play…")
        hint.click()
        page.wait_for_timeout(200)
        assert page.evaluate("window.__held") == 1
        page.evaluate("window.__release()")
        expect(page.locator("#message")).to_contain_text("Hint:")
        # Done looking; Next Step stands in its place while the hint is laid out.
        expect(page.locator("#hint")).to_have_attribute("aria-busy", "false")
        expect(hint).to_be_hidden()
        expect(app.button("Next Step")).to_be_visible()
        assert page.evaluate("window.__held") == 1
    finally:
        unhold_engine(page)


TILE_SPOTS_JS = """() => Object.fromEntries(
  [...document.querySelectorAll('#rack .tile, #sets .tile')].map((t) => {
    const r = t.getBoundingClientRect();
    return [t.dataset.id, [r.left + r.width / 2, r.top + r.height / 2]];
  }))"""


def assert_flights_from(flights: list[dict], spots: dict, ids: list[int]) -> None:
    """Exactly ``ids`` flew, each from its spot before the change."""
    assert sorted(f["id"] for f in flights) == sorted(ids), (flights, ids)
    for f in flights:
        x, y = spots[str(f["id"])]
        assert abs(f["x"] - x) <= 1 and abs(f["y"] - y) <= 1, (f, x, y)


def test_a_hint_step_flies_its_tiles_from_the_rack(app):
    """ "Next Step" shows its set being made: each of its tiles flies from its place on
    the rack to the table (they used to jump there), the rack tiles after them slide along
    to close up, and then every tile shows in its place."""
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    page = app.page
    app.button("Hint").click()
    step = app.button("Next Step")
    expect(step).to_be_visible()
    spots = page.evaluate(TILE_SPOTS_JS)
    page.evaluate(FLIGHTS_JS)
    step.click()
    built = app.table_ids()[0]
    after = page.evaluate(TILE_SPOTS_JS)
    moved = [int(i) for i in spots if after[i] != spots[i]]
    assert set(built) <= set(moved), (built, moved)
    assert_flights_from(watched(page, "__flights"), spots, moved)
    expect(page.locator(".flyer")).to_have_count(0)
    for tile_id in moved:
        expect(app.tile(tile_id)).to_have_css("opacity", "1")


def test_a_drawn_tile_flies_from_the_pool_to_the_rack(app):
    """The tile the player draws flies from the pool to its place on the rack (it just
    appeared there)."""
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS, delay=0)
    page = app.page
    pool = page.locator("#pool-button .pool-stack").bounding_box()
    before = set(app.rack_ids())
    page.evaluate(FLIGHTS_JS)
    app.button("Draw").click()
    app.wait_for_turn()
    drawn = [i for i in app.rack_ids() if i not in before]
    flights = [f for f in watched(page, "__flights") if f["id"] in drawn]
    assert len(drawn) == 1 and len(flights) == 1, (drawn, flights)
    assert abs(flights[0]["x"] - (pool["x"] + pool["width"] / 2)) <= 1, (flights, pool)
    assert abs(flights[0]["y"] - (pool["y"] + pool["height"] / 2)) <= 1, (flights, pool)
    expect(page.locator(".flyer")).to_have_count(0)
    expect(app.tile(drawn[0])).to_have_css("opacity", "1")


def test_tiles_moved_by_a_tap_a_sort_or_undo_slide_there_and_a_dragged_one_does_not(app):
    """A tile put down by a tap slides from the rack to its set and the rack tiles after
    it slide along to close the gap; a sort slides every tile that changes place; Undo
    slides them back. A dragged tile is already where it was let go: only the tiles it
    pushes aside slide. (Every tile jumped: the eye lost which went where.)"""
    seed, _ = opening_deal()
    app.new_game(seed, LEVELS)
    page = app.page
    rack = app.rack_ids()
    # Tap a tile, then "+ New Set".
    app.tile(rack[2]).click()
    page.wait_for_timeout(300)  # the picked-up tile rises to stand proud of its row
    spots = page.evaluate(TILE_SPOTS_JS)
    page.evaluate(FLIGHTS_JS)
    app.button("+ New Set").click()
    # While their copies fly the tiles stay unseen in their places, not fading out and in
    # again (the tiles that closed up blinked as their copies landed).
    unseen = page.evaluate(
        """() => [...document.querySelectorAll('#rack .tile, #sets .tile')]
        .filter((t) => t.style.opacity === '0').map((t) => getComputedStyle(t).opacity)"""
    )
    assert unseen and set(unseen) == {"0"}, unseen
    after = page.evaluate(TILE_SPOTS_JS)
    moved = [i for i in rack if i == rack[2] or after[str(i)] != spots[str(i)]]
    assert rack[2] in moved and len(moved) > 2, moved
    assert_flights_from(watched(page, "__flights"), spots, moved)
    expect(page.locator(".flyer")).to_have_count(0)
    # Undo: back the other way.
    spots = page.evaluate(TILE_SPOTS_JS)
    page.evaluate(FLIGHTS_JS)
    app.button("Undo").click()
    assert app.rack_ids() == rack
    assert_flights_from(watched(page, "__flights"), spots, moved)
    expect(page.locator(".flyer")).to_have_count(0)
    # A sort: every tile whose place changes.
    spots = page.evaluate(TILE_SPOTS_JS)
    page.evaluate(FLIGHTS_JS)
    app.button("Sort by Number").click()
    after = page.evaluate(TILE_SPOTS_JS)
    moved = [i for i in rack if after[str(i)] != spots[str(i)]]
    assert moved, "the sort changed nothing"
    assert_flights_from(watched(page, "__flights"), spots, moved)
    expect(page.locator(".flyer")).to_have_count(0)
    # A drag to the table: the dragged tile does not fly; the rack closes up behind it.
    first = app.rack_ids()[0]
    spots = page.evaluate(TILE_SPOTS_JS)
    page.evaluate(FLIGHTS_JS)
    app.drag(app.tile(first), app.button("+ New Set"))
    assert app.table_ids() == [[first]]
    flights = watched(page, "__flights")
    assert flights and first not in [f["id"] for f in flights], flights
    after = page.evaluate(TILE_SPOTS_JS)
    closed = [i for i in app.rack_ids() if after[str(i)] != spots[str(i)]]
    assert_flights_from(flights, spots, closed)
