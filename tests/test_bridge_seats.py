"""One device passed round the table: games of several people (and computers) through the
bridge. Each person's view shows their own rack only; the view for nobody in particular
(shown while the device is handed over) shows none; what one person drew is told in their
own log alone; an action is taken for the person whose turn it is."""

import json
import random

import pytest

from py_engine import bridge

ANNA = {"name": "Anna", "kind": "human"}
BOB = {"name": "Bob", "kind": "human"}
BOT = {"name": "Computer 1", "kind": "bot", "level": "hard"}


@pytest.fixture(autouse=True)
def no_game(monkeypatch):
    monkeypatch.setattr(bridge, "_session", None)


def call(cmd, **fields):
    return json.loads(bridge.call(json.dumps({"cmd": cmd, **fields})))


def ok(answer):
    assert "error" not in answer, answer
    return answer


def the_round():
    return bridge._session.round


def tile_ids(data):
    """Every tile id shown anywhere in a JSON answer."""
    found = set()
    if isinstance(data, dict):
        if {"id", "code", "joker"} <= set(data):
            found.add(data["id"])
        for value in data.values():
            found |= tile_ids(value)
    elif isinstance(data, list):
        for value in data:
            found |= tile_ids(value)
    return found


def rack_ids(seat):
    return {t.id for t in the_round().racks[seat]}


def table_ids():
    return {t.id for row in the_round().table for t in row}


def shared_game(players=(ANNA, BOT, BOB), first=0):
    """A new shared game (by trying seeds) in which seat ``first`` moves first."""
    for seed in range(1, 200):
        answer = ok(call("new_game", seed=seed, players=list(players)))
        if answer["view"]["current"] == first:
            return answer
    raise AssertionError("no such seed")


def test_a_game_of_people_and_computers_starts_with_the_view_nobody_owns():
    answer = shared_game(players=(ANNA, BOT, BOB, BOT))
    v = answer["view"]
    assert v["me"] is None
    assert v["people"] == [0, 2]
    assert v["rack"] == [] and v["drawn"] == []
    assert v["threshold"] is None and v["opened"] is None
    assert [p["rack_count"] for p in v["players"]] == [14, 14, 14, 14]
    # Nothing of any rack: the table is empty at the start.
    assert tile_ids(v) == set()


def test_each_person_sees_their_own_rack_and_no_other():
    shared_game()
    for seat, other in ((0, 2), (2, 0)):
        v = ok(call("view", seat=seat))["view"]
        assert v["me"] == seat
        assert {t["id"] for t in v["rack"]} == rack_ids(seat)
        assert tile_ids(v) == rack_ids(seat) | table_ids()
        assert not tile_ids(v) & rack_ids(other)


def test_the_view_says_whom_the_device_goes_to():
    shared_game(first=0)
    assert call("view")["view"]["hand_over"] == 0
    assert call("view", seat=0)["view"]["hand_over"] is None  # Anna holds it on her turn
    assert call("view", seat=2)["view"]["hand_over"] == 0
    # After Anna's turn the computer plays, then Bob: the device goes to Bob meanwhile.
    after = ok(call("draw"))["view"]
    assert after["me"] == 0 and after["current"] == 1
    assert after["hand_over"] == 2


def test_the_device_is_not_handed_over_to_the_one_person_left():
    shared_game(first=0)
    ok(call("resign", seat=2))  # Bob leaves the round; Anna and the computer play on
    after = ok(call("draw"))["view"]
    assert after["current"] == 1
    assert after["hand_over"] is None
    assert call("view")["view"]["hand_over"] == 0


def test_a_game_of_one_person_has_no_hand_over():
    answer = ok(call("new_game", seed=3, players=[ANNA, BOT]))
    assert answer["view"]["me"] == 0
    assert answer["view"]["people"] == [0]
    assert answer["view"]["hand_over"] is None


def test_an_action_is_taken_for_the_person_whose_turn_it_is():
    shared_game(first=0)
    anna_rack = len(the_round().racks[0])
    ok(call("draw"))
    assert len(the_round().racks[0]) == anna_rack + 1


@pytest.mark.parametrize("cmd", ["draw", "play", "hint", "timeout", "check"])
def test_an_action_for_a_person_out_of_turn_is_refused_and_changes_nothing(cmd):
    shared_game(first=0)
    before = bridge._session.save()
    answer = call(cmd, seat=2, table=[[t.id for t in row] for row in the_round().table])
    assert "not your turn" in answer["error"].lower(), answer
    assert bridge._session.save() == before


def test_an_action_on_a_computers_turn_is_refused():
    shared_game(first=1)
    before = bridge._session.save()
    assert call("draw")["error"] == "It is not a person's turn"
    assert bridge._session.save() == before


@pytest.mark.parametrize("seat", [1, 5, -1, "0", True, 0.0])
def test_a_seat_that_is_not_a_persons_is_refused(seat):
    shared_game(first=0)
    before = bridge._session.save()
    assert call("view", seat=seat)["error"] == "seat must be a person's seat: 0, 2"
    assert call("draw", seat=seat)["error"] == "seat must be a person's seat: 0, 2"
    assert bridge._session.save() == before


def test_a_draw_is_told_to_the_one_who_drew_and_to_the_others_as_a_tile():
    shared_game(first=0)
    answer = ok(call("draw"))
    drawn = answer["events"][0]["tiles"][0]
    assert answer["view"]["drawn"] == [drawn]
    own = answer["view"]["log"][-1]
    assert own == f"Anna drew {'a joker' if drawn['joker'] else drawn['code']}"
    for viewer in ({}, {"seat": 2}):
        v = call("view", **viewer)["view"]
        assert v["log"][-1] == "Anna drew a tile"
        assert drawn["id"] not in tile_ids(v)
        assert v["drawn"] == []


def test_the_log_names_everyone_when_people_share_the_device():
    shared_game(players=(BOT, ANNA, BOB), first=1)
    assert call("view")["view"]["log"][0].startswith("Round 1: ")
    assert "You" not in call("view")["view"]["log"][0]
    ok(call("draw"))  # Anna
    ok(call("draw"))  # Bob
    ok(call("resign", seat=1))
    log = call("view")["view"]["log"]
    assert log[-3:] == ["Anna drew a tile", "Bob drew a tile", "Anna resigned"]


def test_resigning_on_a_shared_device_says_who_resigns():
    shared_game(first=1)  # a computer's turn: the resignation is not the current player's
    before = bridge._session.save()
    assert "needs the 'seat'" in call("resign")["error"]
    assert bridge._session.save() == before
    ok(call("resign", seat=2))
    assert the_round().resigned[2] is True


def test_a_hint_is_for_the_person_whose_turn_it_is():
    shared_game(first=2)
    hint = ok(call("hint"))
    assert set(hint["placed"]) <= rack_ids(2)
    assert ok(call("hint", seat=2)) == hint


def test_a_time_out_tells_its_penalty_tiles_to_the_player_alone(by_hand):
    shared_game(first=0)
    by_hand.rig(the_round(), ["R1 R2 R3 K9", "K5", "B1 B2"], current=0, opened=[True] * 3)
    answer = ok(call("timeout", table=[[t.id for t in the_round().racks[0][:3]]], touched=True))
    assert answer["events"][0]["outcome"] == "play"
    assert answer["view"]["log"][-1] == "Time ran out: Anna laid R1 R2 R3"
    by_hand.rig(the_round(), ["R1 R2 R4", "K5", "B1 B2"], current=0, opened=[True] * 3)
    answer = ok(call("timeout", table=[[t.id for t in the_round().racks[0]]], touched=True))
    drawn = answer["events"][0]["tiles"]
    assert answer["events"][0]["outcome"] == "penalty" and len(drawn) == 3
    own = answer["view"]["log"][-1]
    assert own.startswith("Time ran out: the table snapped back and Anna drew 3 penalty tiles: ")
    public = call("view", seat=2)["view"]["log"][-1]
    assert public == "Time ran out: the table snapped back and Anna drew 3 penalty tiles"


def test_a_shared_game_saves_and_loads_with_its_private_lines():
    shared_game(first=0)
    ok(call("draw"))
    text = ok(call("save"))["save"]
    saved_log = json.loads(text)["log"]
    assert saved_log[-1]["seat"] == 0 and saved_log[-1]["all"] == "Anna drew a tile"
    anna = call("view", seat=0)["view"]
    loaded = ok(call("load", save=text))["view"]
    assert loaded["me"] is None and loaded["rack"] == []
    assert loaded["log"][-1] == "Anna drew a tile"
    assert call("view", seat=0)["view"] == anna
    assert ok(call("load", save=text, seat=2))["view"]["me"] == 2


@pytest.mark.parametrize(
    "line",
    [
        {"seat": 0, "own": "x"},
        {"seat": 9, "own": "x", "all": "y"},
        {"seat": True, "own": "x", "all": "y"},
        {"seat": 0, "own": 1, "all": "y"},
        {"seat": 0, "own": "x", "all": "y", "more": 1},
        ["Anna drew B5"],
    ],
)
def test_a_save_with_a_malformed_private_line_is_refused(line):
    shared_game(first=0)
    data = json.loads(ok(call("save"))["save"])
    before = bridge._session.save()
    data["log"].append(line)
    assert "corrupt (its log)" in call("load", save=json.dumps(data))["error"]
    assert bridge._session.save() == before


def test_a_round_of_two_people_and_two_computers_never_shows_a_rack_to_another():
    """Played to its end through the bridge: each person takes the hint's play or draws,
    each computer plays its own turn. At every step no view shows a tile of a rack not the
    viewer's, and the view for nobody shows no rack."""
    ok(call("new_game", seed=5, players=[ANNA, BOT, BOB, BOT], rules={"target": 0}))
    rng = random.Random(5)
    for _ in range(400):
        game = the_round()
        if game.is_over:
            break
        for viewer in (None, 0, 2):
            v = call("view", seat=viewer)["view"]
            mine = set() if viewer is None else rack_ids(viewer)
            assert tile_ids(v) == mine | table_ids()
        if game.current in (0, 2):
            hint = ok(call("hint"))
            if hint["table"] is not None and rng.random() < 0.8:
                ok(call("play", table=hint["table"]))
            else:
                ok(call("draw"))
        else:
            ok(call("bot_turn"))
    assert the_round().is_over
    final = call("view")["view"]
    assert final["hand_over"] is None
    assert final["outcome"] is not None and len(final["outcome"]["racks"]) == 4


def test_an_answer_to_a_turn_tells_what_everyone_may_read_of_it():
    # The page shows these words while the device is handed over: the drawn tile is
    # not among them, but it is in the drawer's own log.
    shared_game(first=0)
    answer = ok(call("draw"))
    drawn = answer["events"][0]["tiles"][0]
    assert answer["told"] == ["Anna drew a tile"]
    assert answer["view"]["log"][-1].endswith(drawn["code"] if not drawn["joker"] else "a joker")
    turn = ok(call("bot_turn"))
    assert turn["told"] == [turn["turn"]["narration"]]
    assert ok(call("resign", seat=2))["told"] == ["Bob resigned"]


def test_a_turn_that_ends_the_round_tells_the_end_too():
    ok(call("new_game", seed=3, players=[ANNA, BOB], rules={"target": 0}))
    answer = ok(call("resign", seat=0))
    assert answer["told"] == ["Anna resigned", "Bob won the round"]


def test_people_left_unnamed_are_told_apart_when_they_share_the_device():
    answer = ok(call("new_game", seed=3, players=[{"kind": "human"}, BOT, {"kind": "human"}]))
    assert [p["name"] for p in answer["view"]["players"]] == ["Player 1", "Computer 1", "Player 3"]
    alone = ok(call("new_game", seed=3, players=[{"kind": "human"}, BOT]))
    assert [p["name"] for p in alone["view"]["players"]] == ["You", "Computer 1"]


@pytest.mark.parametrize(
    "players",
    [
        [ANNA, BOT, {"name": "anna", "kind": "human"}],
        [ANNA, {"name": "Anna", "kind": "bot", "level": "easy"}],
        [{"name": "Computer 1", "kind": "human"}, BOB, BOT],
    ],
)
def test_two_players_of_one_name_are_refused_and_no_game_starts(players):
    # The log, the scores, the hand-over and the statistics name everyone (the start
    # screen asks for names of their own too: the engine refuses whatever sends them).
    answer = call("new_game", seed=3, players=players)
    assert "two players are called" in answer["error"], answer
    assert "each person needs a name of their own" in answer["error"]
    assert bridge._session is None


def test_computers_may_share_a_name():
    # One entry given for every computer seat: a request's own shorthand.
    answer = ok(call("new_game", seed=3, players=[ANNA, BOT, BOT]))
    assert [p["name"] for p in answer["view"]["players"]] == ["Anna", "Computer 1", "Computer 1"]
