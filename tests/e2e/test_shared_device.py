"""Several people at one device, passed round the table beside computers: each person's
rack is on screen only on their own turn, after they tap; between two people's turns the
hand-over hides every rack while the computers play on its table.

A twin of the game in CPython (same engine, seed, seats and moves) knows every rack, so
at each hand-over the test looks for the tiles of the racks not on show everywhere in the
page: an element with their id, their names in the DOM's text, in any aria-label or
title, and in the accessibility snapshot. The page is played by dragging real tiles."""

from __future__ import annotations

import functools
import re
import time

import game_twin as twin
from game_page import GamePage, hold_engine, unhold_engine, watch, watched
from playwright.sync_api import expect
from test_accessibility import violations
from test_clock import seconds_left
from test_computer_turns import LOOK
from test_rendering import RECORD
from test_saved_game import reload

PEOPLE = ["Anna", "Bob"]
COLOUR = {"R": "red", "B": "blue", "Y": "yellow", "K": "black"}

# Every request the page makes of the engine from now on, with whose view the answer is
# (read with page.evaluate("window.__asked")).
RECORD_ASKED_JS = """() => {
  const engine = window.__rummikub.engine;
  if (engine.__recording) return;
  const call = engine.call.bind(engine);
  window.__asked = [];
  engine.__recording = true;
  engine.call = async (request, options) => {
    const answer = await call(request, options);
    const v = answer?.view;
    window.__asked.push({cmd: request.cmd, seat: request.seat ?? null,
      me: v?.me ?? null, current: v?.current ?? null,
      people: (v?.people ?? []).filter((p) => !v.players[p].resigned).length});
    return answer;
  };
}"""

# What the page holds, as text: the DOM's text (How To Play's fixed examples left out),
# every attribute's value but a class or a style (aria-labels, titles, the data the
# scripts keep), and every tile id it names: an element's (a tile, a copy in flight, a
# dragged tile's ghost), or any attribute's "tile-N" (a tile's key, a region's last
# focused item). A tile's id is its face.
PAGE_TEXT_JS = """() => {
  const body = document.body.cloneNode(true);
  body.querySelector('#howto-dialog')?.remove();
  const attrs = [body, ...body.querySelectorAll('*')].flatMap((n) => [...n.attributes])
    .filter((a) => a.name !== 'class' && a.name !== 'style');
  const named = attrs.map((a) => a.value).filter(Boolean);
  const ids = [...body.querySelectorAll('[data-id], [data-flight]')]
    .map((n) => Number(n.dataset.id ?? n.dataset.flight))
    .concat(named.flatMap((v) => [...v.matchAll(/\\btile-(\\d+)\\b/g)].map((m) => Number(m[1]))));
  return {text: body.textContent, named, ids};
}"""


def label(code: str) -> str:
    return f"{COLOUR[code[0]]} {code[1:]}"


def seat_view(seat: int | None) -> dict:
    return twin.call(cmd="view", seat=seat)["view"]


def hidden_tiles(shown: int | None, who_starts: set[str]) -> tuple[set[int], set[str]]:
    """The tiles of every person's rack but ``shown``'s: their ids, and the faces of them
    that nothing public gives away (not on the table nor stood for by a joker there, not
    in the log, not drawn for who starts, not a face the shown rack holds too; jokers are
    named in the rules' words)."""
    table = seat_view(None)
    public = {t["code"] for s in table["table"] for t in s["tiles"]} | who_starts
    # What the jokers on the table stand for ("Y5/K5" for either colour) is the table's.
    public |= {code for s in table["table"] for f in s["stands_for"] if f for code in f.split("/")}
    # The log as anyone may read it (it tells earlier rounds' plays too).
    public |= {m for line in table["log"] for m in re.findall(r"\b[RBYK](?:1[0-3]|[1-9])\b", line)}
    if shown is not None:
        public |= {t["code"] for t in seat_view(shown)["rack"]}
    ids: set[int] = set()
    faces: set[str] = set()
    for seat in table["people"]:
        if seat == shown:
            continue
        rack = seat_view(seat)["rack"]
        ids |= {t["id"] for t in rack}
        faces |= {t["code"] for t in rack if not t["joker"]} - public
    return ids, faces


def assert_private(app: GamePage, shown: int | None, who_starts: set[str]) -> None:
    """Nothing of a rack but ``shown``'s (None: no rack at all) is anywhere in the page."""
    page = app.page
    ids, faces = hidden_tiles(shown, who_starts)
    seen = page.evaluate(PAGE_TEXT_JS)
    assert not ids & set(seen["ids"]), ids & set(seen["ids"])
    snapshot = page.locator("body").aria_snapshot()
    for code in faces:
        words = re.compile(rf"\b({code}|{label(code)})\b")
        assert not words.search(seen["text"]), (code, words.search(seen["text"]))
        assert not [n for n in seen["named"] if words.search(n)], code
        assert not words.search(snapshot), code
    if shown is None:
        expect(app.rack).to_be_hidden()
        assert app.rack_ids() == []
        assert page.evaluate("window.__rummikub.state.view.rack") == []


def assert_asked_only_whose_turn(app: GamePage) -> None:
    """The engine was asked for a person's view only on their own turn (the answer to
    their own action aside): the computers' turns, a deal, a restore are the view for
    nobody, unless one person alone is left in the round (then the device stays with
    them, as with one person)."""
    for asked in app.page.evaluate("window.__asked"):
        if asked["cmd"] in ("bot_turn", "new_game", "next_round", "load"):
            assert asked["me"] is None or asked["people"] == 1, asked
        if asked["cmd"] == "view" and asked["me"] is not None:
            assert asked["seat"] == asked["me"] == asked["current"], asked


def who_starts_faces(answer: dict) -> set[str]:
    return {d["tile"]["code"] for draw in answer.get("who_starts", []) for d in draw}


# ----- a person's turn, chosen from the twin and played by dragging


def choose(view: dict) -> tuple:
    """The turn a person at the page plays (``view`` is theirs): an opening of new sets, a
    set laid or a tile added to a set's end once opened (each checked by the engine),
    else a draw. ("sets", [[ids]]), ("extend", tile id, set index) or ("draw",)."""
    table = [[t["id"] for t in s["tiles"]] for s in view["table"]]
    fits = lambda trial: twin.call(cmd="check", table=trial)["ok"]  # noqa: E731
    if not view["opened"]:
        sets = twin.opening(view["rack"], view["threshold"])
        return ("sets", sets) if sets and fits(table + sets) else ("draw",)
    for found in twin.candidate_sets(view["rack"])[:20]:
        if fits([*table, found]):
            return ("sets", [found])
    for tile in view["rack"]:
        for k, row in enumerate(table):
            trial = [list(r) for r in table]
            trial[k] = [*row, tile["id"]]
            if fits(trial):
                return ("extend", tile["id"], k)
    return ("draw",)


def mirror(move: tuple, table: list[list[int]]) -> dict:
    """The twin takes the turn the page took (``table``: the page's, as confirmed)."""
    if move[0] == "draw":
        return twin.call(cmd="draw")["view"]
    return twin.call(cmd="play", table=table)["view"]


def people_turns(seed: int, levels: tuple[str, ...], target: int = 200, turns: int = 60):
    """The people's turns of a round of Anna, Bob and ``levels`` in the twin, each played
    as ``choose`` says once the caller goes on (the computers' turns between): yields
    (seat, their view) before each. The twin's game is left where the caller stopped."""
    view = twin.computers_shared(twin.new_shared_game(seed, PEOPLE, list(levels), target)["view"])
    for _ in range(turns):
        if view["round_over"]:
            return
        seat = view["current"]
        mine = seat_view(seat)
        yield seat, mine
        move = choose(mine)
        table = [[t["id"] for t in s["tiles"]] for s in mine["table"]]
        if move[0] == "sets":
            table += move[1]
        elif move[0] == "extend":
            table[move[2]].append(move[1])
        view = twin.computers_shared(mirror(move, table))
        view = seat_view(None) if not view["round_over"] else view


@functools.cache
def quick_round(levels: tuple[str, ...], seeds=range(1, 10)) -> tuple[int, int]:
    """The deal (of ``seeds``) whose single round against ``levels`` ends in the fewest of
    the people's turns, each person playing ``choose``: (seed, their turns)."""
    best = None
    for seed in seeds:
        turns = sum(1 for _ in people_turns(seed, levels, target=0))
        if seat_view(None)["round_over"] and (best is None or turns < best[1]):
            best = (seed, turns)
    assert best is not None
    return best


def play_turn(app: GamePage, seat: int) -> tuple:
    """The person in ``seat`` (whose rack is on show) takes their turn on the page by
    dragging tiles, or draws; the twin takes the same turn. Returns the move."""
    view = seat_view(seat)
    assert sorted(app.rack_ids()) == sorted(t["id"] for t in view["rack"])
    move = choose(view)
    if move[0] == "draw":
        app.button("Draw").click()
        mirror(move, [])
        return move
    if move[0] == "sets":
        for tiles in move[1]:
            app.drag_new_set(tiles)
    else:
        _, tile, k = move
        app.drag(app.tile(tile), app.set_box(k).locator(".tile").last, "right")
        expect(app.set_box(k).locator(f'.tile[data-id="{tile}"]')).to_have_count(1)
    expect(app.table.locator(".set.invalid")).to_have_count(0)
    table = app.table_ids()
    app.button("Confirm Play").click()
    mirror(move, table)
    return move


def take_device(app: GamePage, seat: int, who_starts: set[str]) -> None:
    """At the hand-over to the person in ``seat``: nothing of any rack in the page; their
    tap shows their rack, and nothing of the other's."""
    name = seat_view(None)["players"][seat]["name"]
    hand_over = app.page.get_by_role("region", name=f"Pass to {name}")
    expect(hand_over).to_be_visible()
    ready = hand_over.get_by_role("button", name=f"Show {name}'s Rack")
    expect(ready).not_to_have_attribute("aria-disabled", "true")
    assert_private(app, None, who_starts)
    ready.click()
    expect(app.page.locator("body")).to_have_attribute("data-turn", "mine")
    expect(app.page.locator("#turn-info")).to_contain_text(f"Your turn, {name}")
    expect(hand_over).to_be_hidden()
    assert_private(app, seat, who_starts)


def start(
    app: GamePage, seed: int, levels: list[str], target=200, delay=0, clock=None, wait=True
) -> set[str]:
    """A game of Anna, Bob and ``levels`` on the page and in the twin: the who-starts
    draw's faces (shown to all at the start)."""
    answer = twin.new_shared_game(seed, PEOPLE, levels, target, clock)
    app.page.evaluate(RECORD_ASKED_JS)
    app.new_game(seed, levels, target=target, delay=delay, clock=clock, people=PEOPLE, wait=wait)
    twin.computers_shared(answer["view"])
    return who_starts_faces(answer)


# ----- the tests


def test_two_people_and_a_computer_pass_the_device_round(app):
    """Eight turns of the people's, each after a hand-over checked for privacy, tiles
    dragged whenever the engine finds a play (openings, sets, a tile added to a set)."""
    who = start(app, 7, ["easy"])
    moves = []
    for _ in range(8):
        view = seat_view(None)
        if view["round_over"]:
            break
        seat = view["current"]
        take_device(app, seat, who)
        moves.append(play_turn(app, seat))
        app.wait_for_turn()
        twin.computers_shared(seat_view(None))
    assert len(moves) == 8
    assert any(m[0] != "draw" for m in moves), moves  # tiles were laid by dragging
    # A person's view was asked for once for each tap, and for nobody else.
    asked = app.page.evaluate("window.__asked")
    assert len([a for a in asked if a["cmd"] == "view" and a["seat"] is not None]) == 8
    # The page's table is the twin's, tile for tile.
    assert app.table_ids() == [[t["id"] for t in s["tiles"]] for s in seat_view(None)["table"]]
    assert_asked_only_whose_turn(app)


def stats_of(app: GamePage, name: str) -> dict:
    """The statistics this device keeps for ``name`` (read from storage)."""
    kept = app.page.evaluate("JSON.parse(localStorage.getItem('rummikub.stats') || 'null')")
    players = dict(kept["players"]) if kept and isinstance(kept.get("players"), list) else {}
    return players.get(name, {"rounds": 0})


def test_two_people_and_two_computers_play_a_round_to_its_end(app):
    """The issue's done-when: Anna, Computer 1, Bob and Computer 2 play a round to Round
    Complete, every hand-over checked; the score screen shows everyone's round and match
    totals, the next round starts on a hand-over, and each person's statistics count it
    under their own name."""
    levels = ["hard", "hard"]
    seed, turns = quick_round(tuple(levels))
    before = {name: stats_of(app, name)["rounds"] for name in PEOPLE}
    who = start(app, seed, levels)
    for _ in range(turns):
        seat = seat_view(None)["current"]
        take_device(app, seat, who)
        play_turn(app, seat)
        app.wait_for_turn()
        final = twin.computers_shared(seat_view(None))
    assert final["round_over"]
    dialog = app.page.get_by_role("dialog", name="Round Complete")
    expect(dialog).to_be_visible()
    out = final["outcome"]
    winner = final["players"][out["winner"]]["name"]
    expect(dialog.locator("#round-reason")).to_contain_text(winner)
    expect(dialog).not_to_contain_text("You ")
    rows = dialog.locator("tbody tr")
    expect(rows).to_have_count(4)
    minus = lambda n: str(n).replace("-", "\u2212")  # noqa: E731
    for i, player in enumerate(final["players"]):
        row = rows.filter(has=app.page.get_by_role("rowheader", name=player["name"]))
        score = out["scores"][i]
        signed = f"+{score}" if score > 0 else minus(score)
        cells = [str(out["rack_values"][i]), signed, minus(out["totals"][i])]
        expect(row.locator("td")).to_have_text(cells)
    assert_asked_only_whose_turn(app)
    for name in PEOPLE:
        assert stats_of(app, name)["rounds"] == before[name] + 1
    # The next round is dealt to nobody in particular: it starts on a hand-over.
    who = who_starts_faces({"who_starts": twin.call(cmd="next_round")["who_starts"]})
    dialog.get_by_role("button", name="Next Round").click()
    app.wait_for_turn()
    take_device(app, twin.computers_shared(seat_view(None))["current"], who)
    # On the start screen each name's statistics are there to choose.
    app.button("New Game").click()
    app.page.get_by_text("Your statistics").click()
    whose = app.page.get_by_label("Player", exact=True)
    for name in PEOPLE:
        whose.select_option(name)
        rounds = app.page.locator("#stats dt:text-is('Rounds played') + dd")
        expect(rounds).to_have_text(str(before[name] + 1))
    app.page.get_by_text("Your statistics").click()
    app.button("Back to Game").click()


@functools.cache
def anna_starts(levels: tuple[str, ...] = ("easy",)) -> int:
    """A deal where Anna (seat 0) has the first turn, so a computer plays between her
    turn and Bob's."""
    for seed in range(1, 60):
        answer = twin.new_shared_game(seed, PEOPLE, list(levels))
        if twin.computers_shared(answer["view"])["current"] == 0:
            return seed
    raise AssertionError("no deal where Anna starts")


def test_a_reload_lands_on_the_hand_over_and_the_turn_comes_back_after_the_tap(app):
    page = app.page
    who = start(app, 7, ["easy"])
    seat = seat_view(None)["current"]
    take_device(app, seat, who)
    rack = app.rack_ids()
    app.drag_new_set(rack[:2])  # an arrangement in progress
    page.reload()
    page.wait_for_selector("body[data-engine=ready]", timeout=90_000)
    app = GamePage(page)
    app.wait_for_turn()
    expect(page.locator("#message")).to_contain_text("restored")
    # Back on the hand-over to the same person, nothing of a rack in the page, and
    # nothing asked of the engine for anyone in particular.
    page.evaluate(RECORD_ASKED_JS)
    name = seat_view(None)["players"][seat]["name"]
    take_device(app, seat, who)
    # Their arrangement, which only they may see, comes back with their rack.
    assert app.table_ids() == [rack[:2]]
    expect(page.locator("#message")).to_contain_text(
        f"Your turn, {name}: the tiles you had arranged"
    )
    app.button("Reset Turn").click()
    app.button("Draw").click()
    twin.call(cmd="draw")
    app.wait_for_turn()
    take_device(app, twin.computers_shared(seat_view(None))["current"], who)
    assert_asked_only_whose_turn(app)
    # The start screen shows the game's people again, by name.
    page.locator("#menu-new-game").click()
    expect(page.get_by_label("People at this device")).to_have_value("2")
    for i, name in enumerate(PEOPLE):
        expect(page.get_by_label(f"Person {i + 1}'s name")).to_have_value(name)
    page.get_by_role("button", name="Back to Game").click()
    expect(page.locator("body")).to_have_attribute("data-turn", "mine")


def test_the_hand_over_by_keyboard_alone(app):
    page = app.page
    who = start(app, anna_starts(), ["easy"])
    ready = page.get_by_role("button", name="Show Anna's Rack")
    # From wherever the focus is, Tab reaches the button; Enter shows the rack, and the
    # focus goes to its first tile.
    for _ in range(40):
        if app.focused(ready):
            break
        page.keyboard.press("Tab")
    assert app.focused(ready)
    page.keyboard.press("Enter")
    expect(app.rack.locator(".tile").first).to_be_focused()
    assert_private(app, 0, who)
    # Anna draws from the keyboard; the device goes to Bob and the focus to his button.
    app.keyboard_to(app.button("Draw"))
    page.keyboard.press("Enter")
    twin.call(cmd="draw")
    twin.computers_shared(seat_view(None))
    bob = page.get_by_role("button", name="Show Bob's Rack")
    expect(bob).to_be_focused()
    expect(bob).not_to_have_attribute("aria-disabled", "true")
    assert_private(app, None, who)
    page.keyboard.press("Space")
    expect(app.rack.locator(".tile").first).to_be_focused()
    expect(page.locator("#turn-info")).to_contain_text("Your turn, Bob")
    assert_private(app, 2, who)


def test_a_computers_turn_plays_out_on_the_hand_overs_table(app):
    page = app.page
    who = start(app, anna_starts(), ["easy"], delay=500)
    take_device(app, 0, who)
    hold_engine(page, "bot_turn")
    try:
        app.button("Draw").click()
        hand_over = page.get_by_role("region", name="Pass to Bob")
        expect(hand_over).to_be_visible()
        expect(hand_over).to_contain_text("Computer 1 is playing; then it is Bob's turn.")
        ready = hand_over.get_by_role("button", name="Show Bob's Rack")
        expect(ready).to_have_attribute("aria-disabled", "true")
        expect(page.locator("#players .player.thinking")).to_contain_text("Computer 1")
        ready.click(force=True)  # not Bob's turn yet: nothing shown
        assert_private(app, None, who)
        page.wait_for_function("window.__held === 1")
        twin.call(cmd="draw")
        turn = twin.call(cmd="bot_turn")
        page.evaluate("window.__release()")
        # The computer's turn is told on the hand-over's table, then Bob may take it.
        expect(ready).not_to_have_attribute("aria-disabled", "true")
        expect(page.locator("#log")).to_contain_text(turn["turn"]["narration"])
        expect(page.locator("#message")).to_contain_text("Anna drew a tile.")
        assert app.table_ids() == [[t["id"] for t in s["tiles"]] for s in seat_view(None)["table"]]
        assert_private(app, None, who)
        assert_asked_only_whose_turn(app)
    finally:
        page.evaluate("window.__release?.()")
        unhold_engine(page)
    take_device(app, 2, who)


def test_people_and_computers_on_the_start_screen(app):
    page = app.page
    app.to_start_screen()
    people = page.get_by_label("People at this device")
    computers = page.get_by_label("Computer opponents")
    option = lambda n: computers.locator(f'option[value="{n}"]')  # noqa: E731
    people.select_option("1")
    expect(option(0)).to_be_disabled()  # one person plays one to three computers
    people.select_option("2")
    expect(page.get_by_label("Person 1's name")).to_be_visible()
    expect(page.get_by_label("Person 2's name")).to_be_visible()
    expect(option(0)).to_be_enabled()
    expect(option(3)).to_be_disabled()  # four players at most
    computers.select_option("2")
    people.select_option("4")
    expect(computers).to_have_value("0")
    expect(page.get_by_label("Computer 1 level")).to_have_count(0)
    # Two people of one name (or of a computer's) cannot be told apart: not started.
    people.select_option("2")
    for i, name in enumerate(["Anna", "anna"]):
        page.get_by_label(f"Person {i + 1}'s name").fill(name)
    app.button("Start Game").click()
    second = page.get_by_label("Person 2's name")
    message = second.evaluate("input => input.validationMessage")
    assert message == "Another player is called anna: give each person a name of their own."
    expect(page.get_by_role("heading", name="New Game")).to_be_visible()
    expect(page.get_by_role("dialog", name="Abandon this game?")).to_be_hidden()
    second.fill("Bob")
    assert second.evaluate("input => input.validationMessage") == ""
    people.select_option("1")
    expect(computers).to_have_value("1")
    expect(page.get_by_label("Person 1's name")).to_have_count(0)


def test_statistics_kept_before_names_are_the_one_persons(app):
    # The statistics of one person kept before they were per name are "You"'s.
    page = app.page
    old = {"games": 3, "gamesWon": 2, "rounds": 7, "roundsWon": 5, "best": 40, "leftTotal": 21}
    page.evaluate("old => localStorage.setItem('rummikub.stats', JSON.stringify(old))", old)
    app.new_game(5, ["easy"])
    app.to_start_screen()
    page.get_by_text("Your statistics").click()
    expect(page.locator("#stats dt:text-is('Rounds played') + dd")).to_have_text("7")
    expect(page.locator("#stats dt:text-is('Average points left') + dd")).to_have_text("3")
    page.get_by_text("Your statistics").click()
    page.get_by_role("button", name="Back to Game").click()


def test_the_hand_over_on_a_phone(phone):
    page = phone.page
    who = start(phone, anna_starts(), ["easy"])
    hand_over = page.get_by_role("region", name="Pass to Anna")
    ready = hand_over.get_by_role("button", name="Show Anna's Rack")
    expect(ready).to_be_in_viewport()
    box = ready.bounding_box()
    assert box["height"] >= 44 and box["y"] + box["height"] <= 844, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    expect(phone.table).to_be_in_viewport()
    assert_private(phone, None, who)
    ready.tap()
    expect(phone.rack).to_be_in_viewport()
    assert_private(phone, 0, who)
    phone.button("Draw").tap()
    twin.call(cmd="draw")
    twin.computers_shared(seat_view(None))
    expect(page.get_by_role("button", name="Show Bob's Rack")).to_be_in_viewport()
    assert_private(phone, None, who)


def test_each_persons_hint_and_undo_are_their_own(app):
    page = app.page
    who = start(app, anna_starts(), ["easy"])
    take_device(app, 0, who)
    app.button("Hint").click()
    expect(page.locator("#message")).to_contain_text(re.compile(r"^(Hint: |No play found)"))
    hinted = page.locator("#rack .tile.hinted, #sets .tile.hinted")
    app.tile(app.rack_ids()[0]).click()
    app.button("+ New Set").click()
    expect(app.button("Undo")).to_be_enabled()
    app.button("Draw").click()  # her arrangement put back, her hint and Undo gone with it
    twin.call(cmd="draw")
    twin.computers_shared(seat_view(None))
    app.wait_for_turn()
    expect(page.locator("#message")).not_to_contain_text("Hint")
    assert_private(app, None, who)
    take_device(app, 2, who)
    expect(app.button("Undo")).to_be_disabled()
    expect(app.button("Hint")).to_be_visible()
    expect(hinted).to_have_count(0)
    # Bob's hint is for his rack.
    app.button("Hint").click()
    expect(page.locator("#message")).to_contain_text(re.compile(r"^(Hint: |No play found)"))
    bob = {t["id"] for t in seat_view(2)["rack"]}
    assert (
        set(
            page.evaluate(
                "window.__rummikub.state.hintIds.size ? [...window.__rummikub.state.hintIds] : []"
            )
        )
        <= bob
    )


def test_each_persons_clock_starts_at_their_tap(app, site):
    """With a turn clock, nobody's runs while the device is handed over; a person's
    starts in full when they tap. Anna's runs out: the engine draws for her, and the
    hand-over says so without the tile."""
    page = app.page
    if "clock=5" not in page.url:
        page.goto(f"{site}?clock=5")
        page.wait_for_selector("body[data-engine=ready]", timeout=90_000)
    who = start(app, anna_starts(), ["easy"], clock=5)
    timer = page.get_by_role("timer")
    expect(page.get_by_role("region", name="Pass to Anna")).to_be_visible()
    expect(timer).to_be_hidden()
    take_device(app, 0, who)
    expect(timer).to_have_text(re.compile(r"^0:0[1-5]$"))
    expect(page.locator("#message")).to_contain_text(
        "Time ran out: Anna drew a tile", timeout=15_000
    )
    twin.call(cmd="timeout", table=None)
    twin.computers_shared(seat_view(None))
    app.wait_for_turn()
    expect(timer).to_be_hidden()
    assert_private(app, None, who)
    take_device(app, 2, who)
    expect(timer).to_have_text(re.compile(r"^0:0[1-5]$"))


def test_the_hand_over_passes_axe_and_a_render_leaves_it_be(app):
    page = app.page
    who = start(app, anna_starts(), ["easy"])
    expect(page.get_by_role("region", name="Pass to Anna")).to_be_visible()
    found = violations(page)
    assert found == [], found
    assert_private(app, None, who)
    # A render that changes nothing writes nothing there, nor on the board.
    page.evaluate(RECORD, ["sets", "rack", "players", "hand-over"])
    page.evaluate("() => { for (let i = 0; i < 3; i++) window.__rummikub.render(); }")
    page.evaluate("() => new Promise(requestAnimationFrame)")
    assert page.evaluate("window.__stopRecord()") == []


def test_a_person_resigns_and_the_others_play_on(app):
    """Anna resigns on her turn: the device goes to Bob, told so and nothing of her rack;
    with Bob the only person left, it stays with him from turn to turn."""
    page = app.page
    who = start(app, anna_starts(), ["easy"])
    take_device(app, 0, who)
    app.button("Resign").click()
    dialog = page.get_by_role("dialog", name="Resign this round?")
    expect(dialog).to_contain_text("The others play the round on.")
    dialog.get_by_role("button", name="Resign").click()
    twin.call(cmd="resign", seat=0)
    twin.computers_shared(seat_view(None))
    app.wait_for_turn()
    expect(page.locator("#message")).to_contain_text(re.compile(r"^Anna resigned\."))
    expect(page.locator('#players [data-player="0"]')).to_contain_text("resigned")
    assert_private(app, None, who)
    take_device(app, 2, who)
    app.button("Draw").click()
    twin.call(cmd="draw")
    view = twin.computers_shared(seat_view(2))
    app.wait_for_turn()
    if not view["round_over"]:
        # Bob's again, with no hand-over: nobody else is left to hand it to.
        expect(page.locator("body")).to_have_attribute("data-turn", "mine")
        expect(page.locator("#hand-over")).to_be_hidden()
        assert sorted(app.rack_ids()) == sorted(t["id"] for t in seat_view(2)["rack"])
    assert_asked_only_whose_turn(app)


# ----- several people with the rest of the page: tiles chosen together, a set's handle,
# the hint, the clock standing still, who starts, a computer's play told once shown


def no_trace_of_a_turn(app: GamePage) -> None:
    """Nothing a turn left on show: no tile chosen, picked up, outlined by a hint or lit
    by its steps, no copy of one dragged, and nothing in the move's read-out."""
    page = app.page
    expect(page.locator(".tile.chosen, .tile.selected, .tile.hinted")).to_have_count(0)
    expect(page.locator("#drag-layer *")).to_have_count(0)
    expect(page.locator("#move-news")).to_have_text("")


def test_nothing_of_a_persons_turn_goes_on_to_the_next(app):
    """Anna lays a tile out of the middle of her rack (Undo has it), chooses two more with
    Ctrl (read out), asks for a hint (outlined), and draws: on the hand-over and on Bob's
    turn nothing of it is left, in the page, its live regions or its accessibility tree.
    Her rack comes back in her order, the tile she laid out back at its place."""
    page = app.page
    who = start(app, anna_starts(), ["easy"])
    take_device(app, 0, who)
    rack = app.rack_ids()
    app.drag_new_set([rack[3]])
    app.tile(rack[0]).click(modifiers=["Control"])
    app.tile(rack[1]).click(modifiers=["Control"])
    names = ", ".join(app.tile(i).get_attribute("aria-label") for i in rack[:2])
    expect(page.locator("#move-news")).to_have_text(f"2 tiles selected: {names}.")
    app.button("Hint").click()
    expect(page.locator("#message")).to_contain_text(re.compile(r"^(Hint: |No play found)"))
    expect(app.button("Undo")).to_be_enabled()
    app.button("Draw").click()
    twin.call(cmd="draw")
    twin.computers_shared(seat_view(None))
    app.wait_for_turn()
    expect(page.get_by_role("region", name="Pass to Bob")).to_be_visible()
    expect(page.locator("#message")).to_contain_text("Anna drew a tile.")
    expect(page.locator("#message")).not_to_contain_text(re.compile(r"\b(you|your|Hint)\b", re.I))
    no_trace_of_a_turn(app)
    assert_private(app, None, who)
    take_device(app, 2, who)
    no_trace_of_a_turn(app)
    expect(app.button("Undo")).to_be_disabled()
    expect(app.button("Reset Turn")).to_be_disabled()
    app.button("Draw").click()
    twin.call(cmd="draw")
    twin.computers_shared(seat_view(None))  # Anna's turn next: no computer between
    app.wait_for_turn()
    no_trace_of_a_turn(app)
    assert_private(app, None, who)
    take_device(app, 0, who)
    drawn = sorted({t["id"] for t in seat_view(0)["rack"]} - set(rack))
    assert app.rack_ids() == [*rack, *drawn]


@functools.cache
def anna_opens() -> int:
    """A deal where Anna has the first turn and opens with sets of her rack."""
    for seed in range(1, 80):
        view = twin.computers_shared(twin.new_shared_game(seed, PEOPLE, ["easy"])["view"])
        if view["current"] == 0 and choose(seat_view(0))[0] == "sets":
            return seed
    raise AssertionError("no deal where Anna starts with an opening")


def test_no_tile_nor_set_moves_on_the_hand_over(app):
    """On the hand-over a set's handle is no handle (disabled, no grip): a Ctrl-click, a
    drag of the handle, Space and Shift+Space on a tile choose and move nothing. On
    Bob's own turn the handle takes his set whole."""
    page = app.page
    who = start(app, anna_opens(), ["easy"])
    take_device(app, 0, who)
    assert play_turn(app, 0)[0] == "sets"
    twin.computers_shared(seat_view(None))
    app.wait_for_turn()
    expect(page.get_by_role("region", name="Pass to Bob")).to_be_visible()
    table = app.table_ids()
    handle = app.set_box(0).get_by_role("button", name="Set 1: move whole set")
    expect(handle).to_be_disabled()
    expect(handle.locator(".grip")).to_be_hidden()
    tile = app.set_box(0).locator(".tile").first
    tile.click(modifiers=["Control"], force=True)  # aria-disabled: clicked all the same
    app.drag(handle, page.locator("#hand-over"))
    app.drag(tile, page.locator("#hand-over"))
    tile.focus()
    page.keyboard.press("Shift+Space")
    page.keyboard.press("Space")
    no_trace_of_a_turn(app)
    assert app.table_ids() == table
    assert_private(app, None, who)
    take_device(app, 2, who)
    expect(handle).to_be_enabled()
    expect(handle.locator(".grip")).to_be_visible()
    handle.click()
    expect(app.set_box(0).locator(".tile.chosen")).to_have_count(len(table[0]))
    page.keyboard.press("Escape")
    expect(page.locator(".tile.chosen")).to_have_count(0)


@functools.cache
def bobs_hint_takes_from_the_table() -> str:
    """A game of Anna, Computer 1 and Bob saved at a turn of Bob's once he has opened,
    where his hint's first step takes a tile of a set on the table (the step lights it
    up): the save."""
    for seed in range(1, 20):
        for seat, mine in people_turns(seed, ("easy",)):
            if seat != 2 or not mine["opened"]:
                continue
            hint = twin.call(cmd="hint", seat=2)
            table = [[t["id"] for t in s["tiles"]] for s in mine["table"]]
            first = next((s for s in hint["table"] or [] if s not in table), [])
            if set(first) & {i for row in table for i in row}:
                return twin.call(cmd="save")["save"]
    raise AssertionError("no turn of Bob's whose hint takes from the table")


def test_a_hints_lit_tiles_are_not_the_next_persons_news(app):
    """Bob lays out his hint's first step, which lights up tiles of the table, then
    draws: the device goes straight to Anna (no computer between), and nothing on the
    table is lit up for her (what the hint would do with the table is Bob's)."""
    page = app.page
    save = bobs_hint_takes_from_the_table()
    twin.call(cmd="load", save=save)
    app = app.load_saved(save)
    take_device(app, 2, set())
    public = {i for row in app.table_ids() for i in row}
    app.button("Hint").click()
    expect(page.locator("#message")).to_contain_text("Hint: ")
    app.button("Next Step").click()
    lit = page.locator("#sets .tile.highlight")
    expect(lit.first).to_be_visible()
    assert public & {int(i) for i in lit.evaluate_all("ts => ts.map((t) => t.dataset.id)")}
    app.button("Draw").click()
    twin.call(cmd="draw")
    assert twin.computers_shared(seat_view(None))["current"] == 0
    app.wait_for_turn()
    expect(page.get_by_role("region", name="Pass to Anna")).to_be_visible()
    expect(lit).to_have_count(0)
    no_trace_of_a_turn(app)
    assert_private(app, None, set())
    take_device(app, 0, set())
    expect(lit).to_have_count(0)


def with_clock(app: GamePage, site: str, seconds: int) -> set[str]:
    """A game of Anna, Computer 1 and Bob with a turn clock of ``seconds``, Anna first: the
    who-starts draw's faces. (Clocks long enough to choose and drag tiles, or for a
    reload, on a loaded machine.)"""
    page = app.page
    if f"clock={seconds}" not in page.url:
        page.goto(f"{site}?clock={seconds}")
        page.wait_for_selector("body[data-engine=ready]", timeout=90_000)
    return start(app, anna_starts(), ["easy"], clock=seconds)


def test_the_hand_over_runs_no_clock_a_reload_included(app, site):
    """How To Play opened on the hand-over starts no clock; Anna's stands still under How
    To Play opened on her turn; after a reload the device is back on her hand-over,
    where her clock waits with the time it had, for longer than that, and runs on from
    there at her tap."""
    page = app.page
    who = with_clock(app, site, 45)
    timer = page.get_by_role("timer")
    howto = page.get_by_role("dialog", name="How To Play")
    app.button("How To Play").click()
    howto.get_by_role("button", name="Close").click()
    expect(timer).to_be_hidden()
    take_device(app, 0, who)
    expect(timer).to_be_visible()
    app.button("How To Play").click()
    expect(howto).to_be_visible()
    before = seconds_left(page)
    page.wait_for_timeout(3000)
    assert seconds_left(page) == before
    howto.get_by_role("button", name="Close").click()
    left = seconds_left(page)
    reloaded = time.monotonic()
    reload(page)
    app = GamePage(page)
    app.wait_for_turn()
    expect(page.get_by_role("region", name="Pass to Anna")).to_be_visible()
    expect(timer).to_be_hidden()
    # The clock counts the reload (as with one person), not the hand-over: on it longer
    # than the time she had left, had it run there she would be out of time.
    remaining = left - (time.monotonic() - reloaded)
    assert remaining > 2, "the reload took about the whole clock"
    page.wait_for_timeout((remaining + 2) * 1000)
    page.get_by_role("button", name="Show Anna's Rack").click()
    expect(page.locator("body")).to_have_attribute("data-turn", "mine")
    shown = timer.text_content()
    assert 0 < seconds_left(page) <= left
    expect(timer).not_to_have_text(shown)  # running on
    expect(page.locator("#message")).not_to_contain_text("Time ran out")


def test_time_running_out_under_a_drag_gives_nothing_of_hers_away(app, site):
    """Anna has laid a tile out (no set), chosen two more and is dragging them when her
    time (30 s) runs out: the drag is dropped, the table snaps back with penalty tiles, and the
    hand-over says so by name, with no tile of hers. On her next turn her rack is in her
    order, the penalty tiles after it."""
    page = app.page
    who = with_clock(app, site, 30)
    take_device(app, 0, who)
    rack = app.rack_ids()
    app.drag_new_set([rack[2]])
    app.tile(rack[4]).click(modifiers=["Control"])
    app.tile(rack[5]).click(modifiers=["Control"])
    box = app.tile(rack[4]).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 40, box["y"] - 120, steps=6)
    expect(page.locator("#drag-layer .drag-group .tile")).to_have_count(2)
    message = page.locator("#message")
    expect(message).to_contain_text("Time ran out", timeout=40_000)
    page.mouse.up()
    penalty = twin.call(cmd="timeout", table=[[rack[2]]], touched=True)["events"][0]["tiles"]
    twin.computers_shared(seat_view(None))
    app.wait_for_turn()
    expect(page.get_by_role("region", name="Pass to Bob")).to_be_visible()
    expect(message).to_contain_text(
        f"Time ran out: the table snapped back and Anna drew {len(penalty)} penalty tiles"
    )
    expect(message).not_to_contain_text(re.compile(r"\byou\b", re.I))
    no_trace_of_a_turn(app)
    assert app.table_ids() == [[t["id"] for t in s["tiles"]] for s in seat_view(None)["table"]]
    assert_private(app, None, who)
    take_device(app, 2, who)
    app.button("Draw").click()
    twin.call(cmd="draw")
    twin.computers_shared(seat_view(None))
    app.wait_for_turn()
    take_device(app, 0, who)
    assert app.rack_ids()[: len(rack)] == rack
    assert sorted(app.rack_ids()[len(rack) :]) == sorted(t["id"] for t in penalty)


def test_who_starts_names_everyone(app):
    """The who-starts draw, shown and said, names each person (no "you": the device is
    nobody's yet), and the person who starts is greeted with it."""
    page = app.page
    seed = anna_starts()
    draws = twin.new_shared_game(seed, PEOPLE, ["easy"])["who_starts"]
    who = start(app, seed, ["easy"], delay=900, wait=False)
    names = seat_view(None)["players"]
    panel = page.locator("#who-starts")
    expect(panel.locator(".who-name")).to_have_text([names[d["player"]]["name"] for d in draws[0]])
    app.wait_for_turn()
    tile = lambda d: "a joker" if d["tile"]["joker"] else label(d["tile"]["code"])  # noqa: E731
    first = ", ".join(f"{names[d['player']]['name']} {tile(d)}" for d in draws[0])
    message = page.locator("#message")
    expect(message).to_contain_text(f"Who starts: {first}")
    expect(message).to_contain_text("Anna starts.")
    expect(message).not_to_contain_text(re.compile(r"\byou\b", re.I))
    take_device(app, 0, who)
    expect(message).to_contain_text(f"Who starts: {first}")
    expect(message).to_contain_text("Anna starts. Your turn, Anna.")


@functools.cache
def a_computer_plays_after_anna() -> tuple[int, dict]:
    """A deal where Anna has the first turn and draws, and Computer 1 (hard) then lays
    tiles before Bob's turn: the seed and its turn."""
    for seed in range(1, 200):
        view = twin.computers_shared(twin.new_shared_game(seed, PEOPLE, ["hard"])["view"])
        if view["current"] != 0:
            continue
        twin.call(cmd="draw")
        turn = twin.call(cmd="bot_turn")["turn"]
        if turn["action"] == "play":
            return seed, turn
    raise AssertionError("no deal where a computer plays after Anna's first turn")


def test_a_computers_play_on_the_hand_over_is_told_once_shown(app):
    """While Computer 1's play is revealed tile by tile on the hand-over's table, neither
    the message nor the log tells it; once its last tile is down, both do."""
    page = app.page
    seed, turn = a_computer_plays_after_anna()
    who = start(app, seed, ["hard"], delay=900)
    take_device(app, 0, who)
    watch(page, "__seen", LOOK)
    app.button("Draw").click()
    twin.call(cmd="draw")
    twin.call(cmd="bot_turn")
    page.wait_for_selector("#sets .tile.pending", state="attached", timeout=30_000)
    app.wait_for_turn()
    rows = [r for r in watched(page, "__seen") if r["body"] is not None]
    reveal = [r for r in rows if r["pending"]]
    assert reveal
    for row in reveal:
        assert row["turn"] == "Computer 1 is playing…", row
        assert turn["narration"] not in row["message"], row
        assert turn["narration"] not in row["log"], row
    said = next(r for r in rows[rows.index(reveal[-1]) :] if r["message"] != reveal[-1]["message"])
    assert not said["pending"] and said["turn"] == "Computer 1 played", said
    assert turn["narration"] in said["message"] and turn["narration"] in said["log"], said
    expect(page.get_by_role("region", name="Pass to Bob")).to_be_visible()
    expect(page.locator("#message")).to_contain_text(f"Anna drew a tile. {turn['narration']}")
    assert_private(app, None, who)
