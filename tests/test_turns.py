"""Turn checking (RULES.md, "A turn" and the locked-joker-sets variant)."""

import random
from collections import Counter

import pytest
from solver_positions import random_position

from py_engine.rules import Rules
from py_engine.solver import solve
from py_engine.tiles import Tile, TileError, assign_ids, parse_tiles
from py_engine.turns import (
    TurnProblem,
    check_codes,
    check_turn,
    describe_play,
    play_steps,
    settle_table,
)

LOCKED = Rules(locked_jokers=True)


def check(before, after, rack, opened=True, **kwargs):
    return check_codes(
        [row.split() for row in before],
        [row.split() for row in after],
        rack.split(),
        opened=opened,
        **kwargs,
    )


def messages(result):
    return [e.message for e in result.errors]


# ----- before opening ----------------------------------------------------------------------


def test_the_10_10_joker_opening_is_worth_exactly_30_and_enough():
    result = check([], ["R10 B10 J"], "R10 B10 J K1", opened=False)
    assert result.ok, messages(result)
    assert result.opening_value == 30
    assert [t.code for t in result.placed] == ["R10", "B10", "J"]


def test_an_opening_below_30_is_refused_with_its_total():
    result = check([], ["R7 R8 R9"], "R7 R8 R9", opened=False)
    assert not result.ok
    assert messages(result) == ["Your opening totals 24 points; 30 are needed"]
    assert result.opening_value == 24


def test_an_opening_may_be_several_new_sets_that_total_30():
    result = check([], ["R1 R2 R3", "B8 Y8 K8"], "R1 R2 R3 B8 Y8 K8", opened=False)
    assert result.ok, messages(result)
    assert result.opening_value == 30


def test_opening_50_variant():
    rules = Rules(opening=50)
    result = check([], ["R10 B10 J"], "R10 B10 J", opened=False, rules=rules)
    assert messages(result) == ["Your opening totals 30 points; 50 are needed"]
    result = check([], ["R10 B10 J", "K11 K12 K13"], "R10 B10 J K11 K12 K13", opened=False)
    assert result.ok and result.opening_value == 66


def test_the_threshold_argument_overrides_the_rules_opening():
    # The easing variant hands the player's current threshold to the check.
    result = check([], ["R7 R8 R9"], "R7 R8 R9", opened=False, threshold=20)
    assert result.ok, messages(result)
    assert result.threshold == 20


def test_before_opening_the_table_sets_do_not_count_towards_the_opening():
    result = check(["K11 K12 K13"], ["K11 K12 K13", "R7 R8 R9"], "R7 R8 R9", opened=False)
    assert messages(result) == ["Your opening totals 24 points; 30 are needed"]


def test_before_opening_the_table_may_not_be_touched():
    result = check(["R3 R4 R5"], ["R3 R4 R5 R6", "B10 Y10 K10"], "R6 B10 Y10 K10", opened=False)
    assert not result.ok
    assert "Before your opening you may not change the sets on the table" in messages(result)
    assert "Set 1: before your opening you may not change the sets on the table" in messages(result)


def test_before_opening_a_valid_table_set_added_to_is_not_called_not_valid():
    # Issue 42: R9 added to a computer's R10 R11 R12 before the opening was refused with
    # "...you may not change the sets on the table; Set 1 is not valid either": R9 to R12
    # is a valid run, and the one problem was said twice.
    result = check(["R10 R11 R12"], ["R9 R10 R11 R12"], "R9 B1", opened=False)
    assert not result.ok
    assert result.refusal == "Before your opening you may not change the sets on the table"
    # A valid new set that borrows a table tile is not named "not valid" either; a set
    # that is no run or group still is.
    result = check(
        ["R2 R3 R4 R5"], ["R2 R3 R4", "R5 B5 Y5 K5", "B10 Y10 K10"], "B5 Y5 K5 B10 Y10 K10", False
    )
    assert result.refusal == "Before your opening you may not change the sets on the table"
    result = check(["R5 J R7"], ["R5 J", "R7 R8 R9", "K10 K11 K12"], "R8 R9 K10 K11 K12", False)
    assert result.refusal == (
        "Before your opening you may not change the sets on the table; Set 1 is not valid either"
    )


def set_messages(result, index):
    return [e.message for e in result.errors if e.set == index]


def test_before_opening_a_changed_table_set_says_so_before_its_own_problem():
    # A second blue 5 given to a table group before opening: the set is marked first for
    # the rule the player met, then for what is wrong with it as a set.
    result = check(["R5 B5 K5"], ["R5 B5 K5 B5", "R10 B10 Y10"], "B5 R10 B10 Y10", opened=False)
    assert set_messages(result, 0) == [
        "Set 1: before your opening you may not change the sets on the table",
        "Set 1: a group cannot repeat a colour",
    ]
    assert messages(result)[0] == "Before your opening you may not change the sets on the table"
    # A table set cut short, down to one tile or two, is a changed set too.
    for left in ("R5 J", "R5"):
        result = check(["R5 J R7"], [left, "R7 R8 R9"], "R8 R9", opened=False)
        assert set_messages(result, 0)[0] == (
            "Set 1: before your opening you may not change the sets on the table"
        )
        assert set_messages(result, 1) == [
            "Set 2: before your opening, new sets come from your rack only"
        ]


def test_before_opening_a_changed_table_is_the_reason_given_first():
    # R7 taken out of a table set before opening: the set left is too short, but what
    # the player is told (the first reason) is the rule they broke.
    result = check(["R5 J R7"], ["R5 J", "R7 R8 R9", "K10 K11 K12"], "R8 R9 K10 K11 K12", False)
    assert not result.ok
    assert messages(result)[0] == "Before your opening you may not change the sets on the table"
    assert "Set 1: a set needs at least 3 tiles" in messages(result)


def test_before_opening_new_sets_come_from_the_rack_only():
    # Taking R5 off a long table run leaves the table valid, but the new set uses it.
    result = check(
        ["R2 R3 R4 R5"], ["R2 R3 R4", "R5 B5 Y5 K5", "B10 Y10 K10"], "B5 Y5 K5 B10 Y10 K10", False
    )
    assert not result.ok
    assert "Set 2: before your opening, new sets come from your rack only" in messages(result)
    assert "Before your opening you may not change the sets on the table" in messages(result)


def test_before_opening_the_table_may_be_listed_in_any_order():
    result = check(
        ["R3 R4 R5", "B7 Y7 K7"],
        ["K7 B7 Y7", "K11 K12 K13", "R3 R4 R5"],
        "K11 K12 K13",
        opened=False,
    )
    assert result.ok, messages(result)
    assert result.opening_value == 36


def test_before_opening_a_new_set_may_repeat_a_table_sets_codes():
    # The rack holds the second R10, B10 and Y10; which copy is meant must not matter.
    table = ["R10 B10 Y10"]
    rack = "R10 B10 Y10 K1"
    for after in (["R10 B10 Y10", "R10 B10 Y10"], ["Y10 R10 B10", "R10 B10 Y10"]):
        result = check(table, after, rack, opened=False)
        assert result.ok, (after, messages(result))
        assert result.opening_value == 30


def test_before_opening_a_new_set_listed_before_a_table_set_sharing_a_code():
    # Copies are told apart by position in the JSON; the R10 of the new group is the
    # rack's, whichever row comes first.
    result = check(["R10 R11 R12"], ["R10 B10 Y10", "R10 R11 R12"], "R10 B10 Y10", opened=False)
    assert result.ok, messages(result)
    assert result.opening_value == 30


# ----- after opening -----------------------------------------------------------------------


def test_after_opening_a_tile_may_be_added_to_any_set():
    result = check(["R3 R4 R5"], ["R3 R4 R5 R6"], "R6 B1")
    assert result.ok
    assert [t.code for t in result.placed] == ["R6"]
    assert result.opening_value is None


def test_after_opening_the_table_may_be_rearranged():
    # R5 from the rack splits the run R3..R7 into two runs.
    result = check(["R3 R4 R5 R6 R7"], ["R3 R4 R5", "R5 R6 R7"], "R5")
    assert result.ok, messages(result)


def test_after_opening_sets_may_be_broken_up_and_recombined():
    before = ["R7 B7 Y7 K7", "B3 B4 B5 B6"]
    after = ["R7 B7 Y7", "K7 K8 K9", "B3 B4 B5 B6"]
    assert check(before, after, "K8 K9").ok


def test_after_opening_every_table_tile_must_stay_on_the_table():
    result = check(["K7 K8 K9 K10"], ["K8 K9 K10 K11"], "K11")
    assert messages(result) == ["K7 was on the table and is missing"]


def test_no_tile_goes_back_to_the_rack_jokers_included():
    result = check(["R5 B5 Y5 J"], ["R5 B5 Y5 K5"], "K5")
    assert messages(result) == ["J was on the table and is missing"]


def test_at_least_one_tile_must_come_from_the_rack():
    result = check(["R3 R4 R5 R6 R7 R8"], ["R3 R4 R5", "R6 R7 R8"], "B1")
    assert messages(result) == ["Play at least one tile from your rack, or draw"]


def test_an_empty_proposal_on_an_empty_table_plays_nothing():
    result = check([], [], "B1")
    assert messages(result) == ["Play at least one tile from your rack, or draw"]


def test_a_joker_may_be_retrieved_and_used_elsewhere():
    result = check(["R5 B5 J"], ["R5 B5 Y5", "J K8 K9"], "Y5 K8 K9")
    assert result.ok, messages(result)
    assert sorted(t.code for t in result.placed) == ["K8", "K9", "Y5"]


def test_a_retrieved_joker_must_end_in_a_valid_set():
    # The refusal says why the joker cannot simply stay out (QA pass 31: it read only
    # "a set needs at least 3 tiles").
    result = check(["R5 B5 J"], ["R5 B5 Y5", "J K8"], "Y5 K8")
    assert messages(result) == [
        "Set 2: a set needs at least 3 tiles (a joker taken from another set must be in a"
        " valid set when you confirm)"
    ]
    result = check(["R5 B5 J"], ["R5 B5 Y5", "J"], "Y5")
    assert messages(result)[0].endswith(
        "(a joker taken from another set must be in a valid set when you confirm)"
    )


def test_a_joker_left_with_its_set_mates_is_not_called_taken():
    # An invalid set the joker never left, or a set it joined a tile of its old set in.
    result = check(["R5 B5 J"], ["R5 B5 J R6"], "R6")
    assert len(messages(result)) == 1
    assert "taken from another set" not in messages(result)[0]
    result = check(["R5 B5 J", "K1 K2 K3"], ["R5 J K1", "B5 K2 K3"], "")
    assert all("taken from another set" not in m for m in messages(result))


def test_each_invalid_set_is_named_by_its_position():
    result = check(["R1 R2 R3", "B9 Y9 K9"], ["R1 R2 R3", "B9 Y9 K9", "R7 R7 R8"], "R7 R7 R8")
    assert messages(result) == ["Set 3: a run cannot repeat a number"]
    assert result.errors[0] == TurnProblem(2, "Set 3: a run cannot repeat a number")


def test_every_reason_is_reported():
    result = check(["K7 K8 K9", "R1 R2 R3"], ["R1 R2 R3 R4", "B5 B5 Y5"], "R4 B5 B5 Y5")
    assert messages(result) == [
        "Set 2: a group cannot repeat a colour",
        "K7 was on the table and is missing",
        "K8 was on the table and is missing",
        "K9 was on the table and is missing",
    ]
    assert [e.set for e in result.errors] == [1, None, None, None]


def test_a_tile_not_in_the_rack_is_named():
    result = check(["R3 R4 R5"], ["R3 R4 R5 R6"], "B1")
    assert "R6 is not in your rack" in messages(result)


def test_a_tile_placed_twice_is_named():
    r3, r4, r5 = parse_tiles("R3 R4 R5")
    result = check_turn([], [[r3, r4, r5], [r3, r4, r5]], [r3, r4, r5], opened=True)
    assert f"{r3}, {r4}, {r5} placed twice" in messages(result)


def test_check_turn_tells_copies_apart_by_id():
    second_r6 = Tile.parse("R6", copy=1)
    table = [parse_tiles("R3 R4 R5")]
    result = check_turn(table, [[*table[0], second_r6]], [Tile.parse("R6")], opened=True)
    assert messages(result) == [
        "R6 is not in your rack",
        "Play at least one tile from your rack, or draw",
    ]


def test_the_checked_table_is_stored_in_normal_order():
    result = check(["R5 B5 Y5"], ["R5 B5 Y5", "K13 J J"], "K13 J J")
    assert [[t.code for t in row] for row in result.table] == [
        ["R5", "B5", "Y5"],
        ["J", "J", "K13"],
    ]


def test_wrap_around_runs_in_a_turn():
    assert not check([], ["R12 R13 R1 R2"], "R12 R13 R1 R2").ok
    assert check([], ["R12 R13 R1 R2"], "R12 R13 R1 R2", rules=Rules(wrap_runs=True)).ok


def test_check_codes_refuses_a_third_copy_and_unknown_codes():
    with pytest.raises(TileError, match="only two R5"):
        check(["R5 R6 R7", "R5 B5 Y5"], ["R5 R6 R7", "R5 B5 Y5"], "R5")
    with pytest.raises(TileError, match="unknown tile"):
        check([], ["R5 R6 R77"], "R5 R6")


def test_to_json_shape():
    assert check(["R3 R4 R5"], ["R3 R4 R5 R6"], "R6 B1").to_json() == {
        "ok": True,
        "placed": ["R6"],
        "errors": [],
    }
    assert check([], ["R7 R8 R9"], "R7 R8 R9", opened=False).to_json() == {
        "ok": False,
        "placed": ["R7", "R8", "R9"],
        "errors": [{"set": None, "message": "Your opening totals 24 points; 30 are needed"}],
        "opening_value": 24,
    }


# ----- locked joker sets -------------------------------------------------------------------


def test_locked_joker_set_may_stay_unchanged():
    result = check(["R9 R10 J"], ["R9 R10 J", "B1 B2 B3"], "B1 B2 B3", rules=LOCKED)
    assert result.ok, messages(result)


def test_locked_joker_set_may_swap_the_joker_for_the_tile_it_stands_for():
    result = check(["R9 R10 J"], ["R9 R10 R11", "J B2 B3"], "R11 B2 B3", rules=LOCKED)
    assert result.ok, messages(result)


def test_locked_joker_set_may_not_swap_for_a_different_tile():
    # J R9 R10: the joker is R8, so R11 cannot take its place.
    result = check(["J R9 R10"], ["R9 R10 R11", "J B2 B3"], "R11 B2 B3", rules=LOCKED)
    assert not result.ok
    assert messages(result) == [
        "Set 1: the set J R9 R10 holds a joker and is locked: "
        "it may only change by swapping the joker for its tile"
    ]
    # Without the variant the same rearrangement is fine.
    assert check(["J R9 R10"], ["R9 R10 R11", "J B2 B3"], "R11 B2 B3").ok


@pytest.mark.parametrize("colour", ["Y", "K"])
def test_locked_3_tile_group_joker_may_be_swapped_for_either_missing_colour(colour):
    result = check(["R5 B5 J"], [f"R5 B5 {colour}5", "J K8 K9"], f"{colour}5 K8 K9", rules=LOCKED)
    assert result.ok, messages(result)


def test_locked_joker_set_may_not_grow():
    result = check(["R9 R10 J"], ["R9 R10 J R12"], "R12", rules=LOCKED)
    assert len(result.errors) == 1
    assert "is locked" in result.errors[0].message
    assert check(["R9 R10 J"], ["R9 R10 J R12"], "R12").ok


def test_locked_joker_set_may_not_be_split():
    # Its tiles went to two sets: the error is tied to the set holding the joker.
    before = ["R3 R4 J R6 R7 R8"]
    after = ["R6 R7 R8", "R3 R4 J R6"]
    assert check(before, after, "R6").ok
    result = check(before, after, "R6", rules=LOCKED)
    assert messages(result) == [
        "Set 2: the set R3 R4 J R6 R7 R8 holds a joker and is locked: "
        "it may only change by swapping the joker for its tile"
    ]
    assert [e.set for e in result.errors] == [1]


def test_locked_joker_set_may_not_lose_a_tile_to_another_set():
    before = ["R5 B5 Y5 J", "K6 K7 K8"]
    after = ["Y5 Y6 Y7", "R5 B5 J", "K6 K7 K8"]
    assert check(before, after, "Y6 Y7").ok
    result = check(before, after, "Y6 Y7", rules=LOCKED)
    assert [(e.set, e.message) for e in result.errors] == [
        (
            1,
            "Set 2: the set R5 B5 Y5 J holds a joker and is locked: "
            "it may only change by swapping the joker for its tile",
        )
    ]


def test_a_locked_set_split_with_its_two_jokers_apart_is_tied_to_no_one_set():
    before = ["R3 R4 J J R7"]
    after = ["R3 R4 J", "J R7 R8"]
    assert check(before, after, "R8").ok
    result = check(before, after, "R8", rules=LOCKED)
    assert [(e.set, e.message) for e in result.errors] == [
        (
            None,
            "the set R3 R4 J J R7 holds a joker and is locked: "
            "it may only change by swapping the joker for its tile",
        )
    ]


def test_locked_four_tile_group_with_two_jokers_may_swap_one():
    result = check(["R5 B5 J J"], ["R5 B5 Y5 J", "J K8 K9"], "Y5 K8 K9", rules=LOCKED)
    assert result.ok, messages(result)


def test_locked_sets_whose_tiles_two_proposed_sets_could_hold_are_read_legally():
    # R5 R6 J stays as it was, though R4 R5 R6 R7 (split from R1..R7) holds its R5 R6 too;
    # K6..K11 J (the J a K12) has its J swapped for the rack's K12 and K6 goes on K7..K12,
    # so two K6..K12 runs. Read by codes, each locked set's tiles are those of one proposed
    # set (found by the property test on a random round, seed 6971; the reading refused it).
    before = [
        "R1 R2 R3 R4 R5 R6 R7", "K6 K7 K8 K9 K10 K11 J", "K7 K8 K9 K10 K11 K12", "R5 R6 J",
        "B10 B11 B12 B13",
    ]  # fmt: skip
    after = [
        "R1 R2 R3 R4", "K6 K7 K8 K9 K10 K11 K12", "K6 K7 K8 K9 K10 K11 K12", "R5 R6 J",
        "B10 B11 B12 B13 J", "R4 R5 R6 R7",
    ]  # fmt: skip
    result = check(before, after, "K6 K12 R4", rules=LOCKED)
    assert result.ok, messages(result)
    assert sorted(t.code for t in result.placed) == ["K12", "K6", "R4"]


def test_a_locked_sets_joker_taken_out_is_refused_for_the_lock_first():
    # The run left behind is broken too, and the joker alone is no set: the lock is why.
    result = check(["Y10 J Y12 Y13"], ["Y10 Y12 Y13", "J"], "", rules=LOCKED)
    assert [(e.set, e.message) for e in result.errors[:3]] == [
        (
            0,
            "Set 1: the set Y10 J Y12 Y13 holds a joker and is locked: "
            "it may only change by swapping the joker for its tile",
        ),
        (0, "Set 1: a run needs consecutive numbers (11 is missing)"),
        (
            1,
            "Set 2: a set needs at least 3 tiles (a joker taken from another set must be"
            " in a valid set when you confirm)",
        ),
    ]


def test_locked_joker_swap_must_keep_the_joker_on_the_table():
    result = check(["R9 R10 J"], ["R9 R10 R11"], "R11", rules=LOCKED)
    assert messages(result) == ["J was on the table and is missing"]


def test_locked_rules_apply_with_codes_whichever_joker_copy_is_listed_first():
    # The rack's joker is listed first in the new table; the table's joker stays put.
    result = check(["R5 B5 J"], ["J R8 R9", "R5 B5 J"], "J R8 R9", rules=LOCKED)
    assert result.ok, messages(result)


def test_sets_without_jokers_are_not_locked():
    result = check(["R3 R4 R5 R6"], ["R3 R4 R5", "R6 B6 Y6"], "B6 Y6", rules=LOCKED)
    assert result.ok, messages(result)


def test_before_opening_a_bigger_new_set_listed_before_the_table_set_it_contains():
    result = check(
        ["R10 B10 Y10"], ["R10 B10 Y10 K10", "R10 B10 Y10"], "R10 B10 Y10 K10", opened=False
    )
    assert result.ok, messages(result)
    assert result.opening_value == 40


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_locked_joker_swap_beside_a_run_with_the_same_numbers_in_either_order(order):
    # Two R10 R11 R12 on the table; the joker of the locked set goes onto the other run.
    before = ["J R10 R11 R12 R13", "R9 R10 R11 R12"]
    rows = ["R9 R10 R11 R12 R13", "R9 R10 R11 R12 J"]
    after = [rows[k] for k in order]
    result = check(before, after, "R9 B1", rules=LOCKED)
    assert result.ok, messages(result)


def test_locked_joker_swap_that_reads_like_another_unchanged_set():
    # R13 B13 K13 is both the locked set with its joker swapped and a copy of the other
    # set; the play is legal when read the first way.
    before = ["R13 B13 J", "K3 K4 K5 K6", "K13 R13 B13"]
    after = ["R13 B13 K13", "K3 K4 K5 K6 J", "K13 R13 B13 Y13"]
    result = check(before, after, "K13 Y13 B1", rules=LOCKED)
    assert result.ok, messages(result)


def test_an_illegal_play_by_codes_stays_illegal_whichever_way_round():
    # Both R13s are on the table, but either way round the locked set is changed.
    before = ["R13 B13 J", "R11 R12 R13"]
    after = ["R13 B13 J K13", "R11 R12 R13"]
    result = check(before, after, "K13", rules=LOCKED)
    assert not result.ok
    assert "is locked" in messages(result)[0]


# ----- describing a play ------------------------------------------------------------------


def test_describe_play_names_new_sets_and_additions():
    taken: set[int] = set()
    before = assign_ids([["R3", "R4", "R5"], ["K7", "K8", "K9"]], taken)
    new = assign_ids([["R10", "B10", "Y10"], ["K10"]], taken)
    after = [before[0], [*before[1], new[1][0]], new[0]]
    assert describe_play("Computer 1", before, after) == (
        "Computer 1 laid R10 B10 Y10 and added K10 to K7 K8 K9"
    )
    steps = play_steps(before, after)
    # Only the rack tiles move; the tiles of kept sets stay where they are.
    assert [s["from"] for s in steps] == ["rack"] * 4
    assert [s["to"] for s in steps] == [
        {"set": 1, "index": 3},
        {"set": 2, "index": 0},
        {"set": 2, "index": 1},
        {"set": 2, "index": 2},
    ]


def test_describe_play_says_when_the_table_was_rearranged():
    taken: set[int] = set()
    (run,) = assign_ids([["R3", "R4", "R5", "R6", "R7", "R8"]], taken)
    (rack,) = assign_ids([["R9"]], taken)
    after = [run[:3], [*run[3:], rack[0]]]
    assert describe_play("You", [run], after) == (
        "You added R9 to R6 R7 R8 and rearranged the table"
    )
    moved = {s["tile"]: s for s in play_steps([run], after)}
    assert moved[rack[0].id]["from"] == "rack"
    assert moved[run[3].id]["from"] == {"set": 0, "index": 3}


def test_describe_play_names_a_set_by_its_tiles_not_by_its_number():
    # The line is read after later plays renumbered the sets: it names each set added to
    # by the other tiles it holds, wherever it sits on the table.
    taken: set[int] = set()
    run, group, low = assign_ids(
        [["K8", "K9", "K10"], ["R7", "J", "R9"], ["B1", "B2", "B3"]], taken
    )
    (k11, r6, r10) = assign_ids([["K11", "R6", "R10"]], taken)[0]
    after = [low, [*run, k11], [r6, *group, r10]]
    line = describe_play("Computer 1", [low, run, group], after)
    assert line == "Computer 1 added K11 to K8 K9 K10, R6 R10 to R7 J R9"
    shuffled = describe_play("Computer 1", [group, low, run], [after[1], after[0], after[2]])
    assert shuffled == line
    assert "Set" not in line


def test_describe_play_names_a_set_added_to_in_its_order_on_the_table():
    # Y11 taken from Y11 Y12 J for a group, Y10 added: the joker moves from 13 to 11, and
    # the set is named by what stays of it, as it lay on the table ("Y12 J", not "J Y12").
    taken: set[int] = set()
    (run,) = assign_ids([["Y11", "Y12", "J"]], taken)
    (y10, b11, k11) = assign_ids([["Y10", "B11", "K11"]], taken)[0]
    after = [[y10, run[2], run[1]], [b11, run[0], k11]]
    assert check_turn([run], after, [y10, b11, k11], opened=True).ok
    assert describe_play(None, [run], after) == (
        "add Y10 to Y12 J and make B11 Y11 K11 (Y11 from the table)"
    )


def test_describe_play_names_a_new_set_made_with_table_tiles_whole():
    # K7 leaves the group R7 Y7 K7 (B7 takes its place) for a new run with K6 and K8 from
    # the rack: the run is named whole, with the tile it took from the table.
    taken: set[int] = set()
    (group,) = assign_ids([["R7", "Y7", "K7"]], taken)
    b7, k6, k8 = assign_ids([["B7", "K6", "K8"]], taken)[0]
    after = [[group[0], group[1], b7], [k6, group[2], k8]]
    assert describe_play("Computer 1", [group], after) == (
        "Computer 1 added B7 to R7 Y7 and made K6 K7 K8 (K7 from the table)"
    )
    # B7 comes from a run instead: that move is not a new set's, so it is said too.
    (run,) = assign_ids([["B4", "B5", "B6", "B7"]], taken - {b7.id})
    after = [[group[0], group[1], run[3]], run[:3], [k6, group[2], k8]]
    assert describe_play("Computer 1", [group, run], after) == (
        "Computer 1 made K6 K7 K8 (K7 from the table) and rearranged the table"
    )
    # For a hint (no name): what to do.
    assert describe_play(None, [group, run], after) == (
        "make K6 K7 K8 (K7 from the table) and rearrange the table"
    )


def test_describe_play_names_a_set_made_of_tiles_from_several_sets_whole():
    # K9, K10 and K11 each leave a 4-tile group for a run with K8 from the rack: the run
    # is a new set, named whole ("K9 K11 K10", the taken tiles in the order of the sets
    # they came from, was named as a set added to, and the table never held it).
    taken: set[int] = set()
    groups = assign_ids(
        [["R9", "Y9", "B9", "K9"], ["R11", "Y11", "B11", "K11"], ["R10", "Y10", "B10", "K10"]],
        taken,
    )
    ((k8,),) = assign_ids([["K8"]], taken)
    k9, k11, k10 = groups[0][3], groups[1][3], groups[2][3]
    after = [row[:3] for row in groups] + [[k8, k9, k10, k11]]
    assert check_turn(groups, after, [k8], opened=True).ok
    assert describe_play("Computer 1", groups, after) == (
        "Computer 1 made K8 K9 K10 K11 (K9 K10 K11 from the table)"
    )
    assert describe_play(None, groups, after) == "make K8 K9 K10 K11 (K9 K10 K11 from the table)"
    # A joker among the tiles taken is named by its code.
    taken = set()
    groups = assign_ids([["R5", "Y5", "B5", "K5"], ["R7", "Y7", "B7", "J"]], taken)
    (k6, k7) = assign_ids([["K6", "K7"]], taken)[0]
    joker = groups[1][3]
    after = [groups[0][:3], groups[1][:3], [groups[0][3], k6, k7, joker]]
    assert check_turn(groups, after, [k6, k7], opened=True).ok
    assert describe_play("Computer 1", groups, after) == (
        "Computer 1 made K5 K6 K7 J (K5 J from the table)"
    )
    # A set that keeps most of its own tiles is added to, whatever else it took: the
    # other tile is named with it, taken from the table ("added B12 to B8 B9 B10" alone
    # named no set the table could hold).
    taken = set()
    run, group = assign_ids([["B8", "B9", "B10"], ["R11", "Y11", "B11", "K11"]], taken)
    ((b12,),) = assign_ids([["B12"]], taken)
    after = [[*run, group[2], b12], [group[0], group[1], group[3]]]
    assert check_turn([run, group], after, [b12], opened=True).ok
    assert describe_play("You", [run, group], after) == (
        "You added B12 to B8 B9 B10 (with B11 from the table)"
    )
    # Three tiles of one set, split off and added to, are still that set's part.
    taken = set()
    (run,) = assign_ids([["B4", "B5", "B6", "B7", "B8", "B9"]], taken)
    ((b10,),) = assign_ids([["B10"]], taken)
    after = [run[:3], [*run[3:], b10]]
    assert describe_play("You", [run], after) == (
        "You added B10 to B7 B8 B9 and rearranged the table"
    )


def test_describe_play_names_a_set_added_to_by_its_own_tiles():
    # K1 and K6 go round K3 K4 K5, and the joker joins them from another set: the set is
    # named by the tiles it had, with the joker it took.
    taken: set[int] = set()
    run, other = assign_ids([["K3", "K4", "K5"], ["R1", "R2", "R3", "J"]], taken)
    k1, k6 = assign_ids([["K1", "K6"]], taken)[0]
    after = [[k1, other[3], *run, k6], other[:3]]
    assert describe_play("Computer 1", [run, other], after) == (
        "Computer 1 added K1 K6 to K3 K4 K5 (with J from the table)"
    )


def test_settling_keeps_twin_sets_apart_and_tolerates_an_empty_row():
    # Two table sets with the same faces, their copies crossed in the answer: each set
    # gets its own tiles back in its own place, and K5 stays with the set it joined.
    a, b = assign_ids([["R5", "B5", "Y5"], ["R5", "B5", "Y5"]])
    k5 = assign_ids([["K5"]], {t.id for t in [*a, *b]})[0][0]
    after = [[b[0], a[1], b[2], k5], [a[0], b[1], a[2]], []]
    settled = settle_table([a, b], after)
    assert [[t.id for t in row] for row in settled[:2]] == [
        [t.id for t in a],
        [*(t.id for t in b), k5.id],
    ]
    assert settled[2] == []


def _faces_at(row) -> tuple[str, ...]:
    """A row's faces (jokers alike), in their places; a group's sorted, since a settled
    group may put its tiles back in the order they had."""
    faces = tuple("J" if t.is_joker else t.code for t in row)
    group = (
        len({t.number for t in row if not t.is_joker}) == 1 and len(faces) - faces.count("J") > 1
    )
    return tuple(sorted(faces)) if group else faces


def test_the_table_keeps_its_order_and_each_set_its_own_tiles():
    # A play that extends two sets: the table's sets stay in their places (the answer
    # once put the blue run first), the group keeps its order, and of the two K10s each
    # stays in its own set, so only the two placed tiles move.
    *table, rack = assign_ids(
        [
            ["R3", "R4", "R5"],
            ["B1", "B2", "B3"],
            ["K10", "Y10", "R10"],
            ["K8", "K9", "K10", "K11"],
            ["B4", "K12"],
        ]
    )
    assert table[2][0].id != table[3][2].id
    play = solve(table, rack, opened=True, rules=Rules())
    assert play.count == 2
    settled = settle_table(table, play.table)
    assert [[t.id for t in r] for r in settled] == [
        [t.id for t in table[0]],
        [*(t.id for t in table[1]), rack[0].id],
        [t.id for t in table[2]],
        [*(t.id for t in table[3]), rack[1].id],
    ]
    assert [s["tile"] for s in play_steps(table, settled)] == [rack[0].id, rack[1].id]


@pytest.mark.parametrize("rules", [Rules(), Rules(locked_jokers=True), Rules(wrap_runs=True)])
def test_a_settled_table_moves_only_tiles_that_change_sets(rules):
    # Copies of a face are alike: of two on the table, the settled answer leaves each in
    # the set it was in whenever that set goes on, and sets keep their places. Random
    # positions: the settled answer has the same rows of faces, passes the turn check,
    # the table sets kept whole come in the table's order, and no two twins each sit
    # among the other's old set-mates (a swap would keep both).
    rng = random.Random(31)
    checked = 0
    for _ in range(80):
        p = random_position(rng, rules=rules, jokers=True, opened=True)
        play = solve(p.table, p.rack, opened=True, rules=rules)
        if not play.found:
            continue
        checked += 1
        settled = settle_table(p.table, play.table, rules)
        assert check_turn(p.table, settled, p.rack, opened=True, rules=rules).ok
        assert sorted(map(_faces_at, settled)) == sorted(map(_faces_at, play.table))
        origin = {t.id: s for s, row in enumerate(p.table) for t in row}
        row_of = {t.id: i for i, row in enumerate(settled) for t in row}
        whole = [row_of[r[0].id] for r in p.table if len({row_of[t.id] for t in r}) == 1]
        assert whole == sorted(whole)
        mates = {
            t.id: Counter(origin[x.id] for x in row if x.id != t.id and x.id in origin)
            for row in settled
            for t in row
        }
        for t in (t for row in settled for t in row if t.id < 52 and t.id in origin):
            twin = Tile(t.id + 52)
            if twin.id not in origin or origin[t.id] == origin[twin.id]:
                continue
            mine, its = mates[t.id], mates[twin.id]
            swap = mine[origin[twin.id]] > mine[origin[t.id]] and (
                its[origin[t.id]] > its[origin[twin.id]]
            )
            assert not swap or rules.locked_jokers, (t, [[x.code for x in r] for r in settled])
    assert checked > 20


def test_describe_play_names_a_set_that_gave_up_its_joker_whole():
    # Y12 takes the joker's place in Y11 J Y13 and the joker makes a group: the set is
    # named as it was, joker and all ("added Y12 to Y11 Y13" named a set of two tiles).
    taken: set[int] = set()
    (run,) = assign_ids([["Y11", "J", "Y13"]], taken)
    y12, b12, k12 = assign_ids([["Y12", "B12", "K12"]], taken)[0]
    after = [[run[0], y12, run[2]], [run[1], b12, k12]]
    assert check_turn([run], after, [y12, b12, k12], opened=True).ok
    assert describe_play("You", [run], after) == (
        "You swapped Y12 for the J in Y11 J Y13 and made J B12 K12 (J from the table)"
    )
    assert describe_play(None, [run], after) == (
        "swap Y12 for the J in Y11 J Y13 and make J B12 K12 (J from the table)"
    )
    # From a group, the joker going on to a run: said with the rearrangement.
    taken = set()
    group, low = assign_ids([["R5", "J", "K5"], ["B6", "B7", "B8"]], taken)
    ((y5,),) = assign_ids([["Y5"]], taken)
    after = [[group[0], y5, group[2]], [*low, group[1]]]
    assert check_turn([group, low], after, [y5], opened=True).ok
    assert describe_play("Computer 1", [group, low], after) == (
        "Computer 1 swapped Y5 for the J in R5 J K5 and rearranged the table"
    )


def test_describe_play_names_a_joker_won_back_by_a_tile_from_the_table():
    # Issue 42: under locked joker sets a computer took R13 from a run to win the joker
    # of Y13 K13 J, and the news said only "...and rearranged the table".
    taken: set[int] = set()
    group, run = assign_ids([["Y13", "K13", "J"], ["R10", "R11", "R12", "R13"]], taken)
    b11, b12 = assign_ids([["B11", "B12"]], taken)[0]
    after = [[group[0], group[1], run[3]], run[:3], [b11, b12, group[2]]]
    assert check_turn([group, run], after, [b11, b12], opened=True, rules=LOCKED).ok
    assert describe_play("Computer 1", [group, run], after) == (
        "Computer 1 swapped R13 for the J in Y13 K13 J (R13 from the table)"
        " and made B11 B12 J (J from the table)"
    )
    assert describe_play(None, [group, run], after) == (
        "swap R13 for the J in Y13 K13 J (R13 from the table) and make B11 B12 J (J from the table)"
    )


def test_describe_play_swaps_only_the_tile_the_joker_stood_for():
    # Y10 and Y12 go into Y11 J Y13 and the joker makes a group of 12s: Y12 took its
    # place, Y10 was added (it used to read "swapped Y10 Y12 for the J").
    taken: set[int] = set()
    (run,) = assign_ids([["Y11", "J", "Y13"]], taken)
    y10, y12, b12, k12 = assign_ids([["Y10", "Y12", "B12", "K12"]], taken)[0]
    after = [[y10, run[0], y12, run[2]], [run[1], b12, k12]]
    assert check_turn([run], after, [y10, y12, b12, k12], opened=True).ok
    assert describe_play("You", [run], after) == (
        "You swapped Y12 for the J in Y11 J Y13 and added Y10 to Y11 Y12 Y13"
        " and made J B12 K12 (J from the table)"
    )
    # R3 goes below R4 R5 R6 J (the joker was R7) as the joker leaves for K7 K8 K9: no
    # tile took the joker's place, so it is an addition and a rearrangement.
    taken = set()
    run, low = assign_ids([["R4", "R5", "R6", "J"], ["K8", "K9", "K10"]], taken)
    ((r3,),) = assign_ids([["R3"]], taken)
    after = [[r3, *run[:3]], [run[3], *low]]
    assert check_turn([run, low], after, [r3], opened=True).ok
    assert describe_play("Computer 1", [run, low], after) == (
        "Computer 1 added R3 to R4 R5 R6 and rearranged the table"
    )
    # Both jokers won back, each by its own tile.
    taken = set()
    run, low = assign_ids([["R5", "J", "J", "R8"], ["B1", "B2", "B3"]], taken)
    r6, r7, k3, y3 = assign_ids([["R6", "R7", "K3", "Y3"]], taken)[0]
    after = [[run[0], r6, r7, run[3]], [*low, run[1]], [run[2], k3, y3]]
    assert check_turn([run, low], after, [r6, r7, k3, y3], opened=True).ok
    assert describe_play("Computer 1", [run, low], after) == (
        "Computer 1 swapped R6 R7 for the jokers in R5 J J R8 and made J K3 Y3"
        " (J from the table) and rearranged the table"
    )


def test_describe_play_names_tiles_a_set_added_to_took_from_other_sets():
    # QA pass 33: B11 B12 B13 gives B13 to a group, takes B9 from a group and a joker won
    # back from a run, and B8 from the rack: it was told "add B8 to B11 B12 ... and
    # rearrange the table", a set that cannot be; the tiles that fill its gap are named.
    taken: set[int] = set()
    run, nines, black = assign_ids(
        [["B11", "B12", "B13"], ["R9", "Y9", "B9", "K9"], ["K8", "J", "K10", "K11"]], taken
    )
    b8, k9, r13, k13 = assign_ids([["B8", "K9", "R13", "K13"]], taken)[0]
    joker = black[1]
    after = [
        [b8, nines[2], joker, run[0], run[1]],
        [nines[0], nines[1], nines[3]],
        [black[0], k9, black[2], black[3]],
        [r13, run[2], k13],
    ]
    before = [run, nines, black]
    assert check_turn(before, after, [b8, k9, r13, k13], opened=True).ok
    assert describe_play(None, before, after) == (
        "swap K9 for the J in K8 J K10 K11 and add B8 to B11 B12 (with B9 J from the table)"
        " and make R13 B13 K13 (B13 from the table)"
    )
