"""Sets (RULES.md, "Sets"): groups, runs, jokers, values, the order rows are stored in."""

import random

import pytest

from py_engine.sets import read_set, set_value, valid_ids
from py_engine.tiles import DECK, Colour, Face
from py_engine.tiles import parse_tiles as tiles


def read(text, wrap=False):
    return read_set(tiles(text), wrap)


# ----- groups ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["R5 B5 Y5", "K13 R13 B13 Y13", "B1 R1 K1"])
def test_a_group_is_3_or_4_tiles_of_one_number_in_different_colours(text):
    reading = read(text)
    assert reading.valid, reading.problem
    assert reading.kind == "group"
    assert reading.value == sum(t.number for t in tiles(text))


def test_a_group_cannot_repeat_a_colour():
    assert read("R5 R5 B5").problem == "a group cannot repeat a colour"


def test_a_group_has_at_most_4_tiles():
    assert read("R5 B5 Y5 K5 J").problem == "a group has at most 4 tiles"


def test_a_set_needs_at_least_3_tiles():
    assert read("R5 B5").problem == "a set needs at least 3 tiles"
    assert read("J J").problem == "a set needs at least 3 tiles"
    assert read("").problem == "a set needs at least 3 tiles"


def test_tiles_of_mixed_numbers_and_colours_are_neither_a_group_nor_a_run():
    problem = read("R5 B6 Y7").problem
    assert problem is not None
    assert problem.startswith("this is neither a group")


def test_in_a_group_the_joker_stands_for_the_groups_number():
    reading = read("R7 J B7 Y7")
    assert reading.kind == "group"
    assert reading.numbers == (7, 7, 7, 7)
    assert reading.stands_for == (None, "K7", None, None)
    assert reading.value == 28


def test_in_a_3_tile_group_the_joker_may_be_either_missing_colour():
    reading = read("R5 B5 J")
    assert reading.stands_for == (None, None, "Y5/K5")
    assert reading.joker_faces(2) == {Face(Colour.YELLOW, 5), Face(Colour.BLACK, 5)}


def test_the_10_10_joker_opening_is_worth_exactly_30():
    reading = read("R10 B10 J")
    assert reading.valid
    assert reading.kind == "group"
    assert reading.value == 30
    assert set_value(tiles("R10 B10 J")) == 30


# ----- jokers per set ----------------------------------------------------------------------


def test_a_set_may_hold_two_jokers():
    group = read("R5 J B5 J")
    assert group.kind == "group" and group.valid
    assert sorted(c for c in group.stands_for if c) == ["K5", "Y5"]
    run = read("R5 J J R8")
    assert run.kind == "run" and run.valid
    assert run.stands_for == (None, "R6", "R7", None)


def test_a_set_may_not_hold_three_jokers():
    # Only two jokers exist, so a third can only come from a made-up tile list.
    row = [*tiles("R5 J J"), tiles("J")[0]]
    assert read_set(row).problem == "a set can hold at most two jokers"


def test_a_3_tile_group_may_hold_at_most_one_joker():
    # Two jokers with one tile cannot be a group; read by position the row is a run.
    reading = read("R5 J J")
    assert reading.kind == "run"
    assert reading.stands_for == (None, "R6", "R7")
    # When no run reading exists either, the group rule is the reason given.
    assert read("R5 R5 J").problem == "a group cannot repeat a colour"


def test_the_3_tile_group_joker_limit_is_what_the_group_check_reports():
    from py_engine.sets import _as_group

    row = tiles("R5 J J")
    assert _as_group(row, row[:1]) == "a 3-tile group can hold only one joker"


# ----- runs --------------------------------------------------------------------------------


def test_a_run_is_3_or_more_consecutive_numbers_of_one_colour():
    reading = read("B3 B4 B5")
    assert reading.kind == "run"
    assert reading.colour is Colour.BLUE
    assert reading.numbers == (3, 4, 5)
    assert reading.value == 12


def test_1_to_13_in_one_colour_is_a_legal_run():
    row = " ".join(f"Y{n}" for n in range(1, 14))
    reading = read(row)
    assert reading.valid and reading.kind == "run"
    assert reading.value == 91


def test_1_to_13_with_a_joker_in_place_of_a_tile_is_legal():
    row = " ".join("J" if n == 7 else f"Y{n}" for n in range(1, 14))
    reading = read(row)
    assert reading.valid
    assert reading.stands_for[6] == "Y7"


def test_a_run_has_at_most_13_tiles():
    row = " ".join(f"Y{n}" for n in range(1, 14)) + " J"
    assert read(row).problem == "a run has at most 13 tiles"


def test_a_run_cannot_repeat_a_number():
    assert read("R3 R3 R4").problem == "a run cannot repeat a number"


def test_a_run_must_be_one_colour():
    assert not read("R3 R4 B5").valid


def test_a_run_cannot_have_a_gap_no_joker_fills():
    assert read("R3 R5 R7").problem == "a run needs consecutive numbers (4 and 6 are missing)"
    assert read("R3 R6 J").problem is not None


def test_1_is_always_low_and_13_does_not_wrap_by_default():
    assert read("R12 R13 R1").problem == "a run cannot go past 13 (1 is always low)"
    assert read("R13 R1 R2").problem == "a run cannot go past 13 (1 is always low)"
    assert read("R12 R13 R1 R2").problem == "a run cannot go past 13 (1 is always low)"
    assert read("R1 R2 R3").value == 6


def test_a_joker_cannot_stand_for_14_or_0():
    # Read by position these would be R12 R13 R14 and R0 R1 R2; the engine puts the
    # joker where a real tile exists instead.
    assert read("R12 R13 J").codes() == ["J", "R12", "R13"]
    assert read("R12 R13 J").stands_for == ("R11", None, None)
    assert read("J R1 R2").codes() == ["R1", "R2", "J"]
    assert read("J R1 R2").stands_for == (None, None, "R3")


def test_wrap_around_runs_are_legal_with_the_variant():
    reading = read("R12 R13 R1 R2", wrap=True)
    assert reading.valid and reading.kind == "run"
    assert reading.numbers == (12, 13, 1, 2)
    assert reading.value == 28  # 1 after 13 still counts 1


def test_wrap_around_run_from_13_to_1():
    reading = read("K13 K1 K2", wrap=True)
    assert reading.valid
    assert reading.value == 16


def test_a_wrap_around_run_out_of_order_is_put_in_order():
    reading = read("B1 B13 B12", wrap=True)
    assert reading.valid
    assert reading.codes() == ["B12", "B13", "B1"]


def test_a_wrap_around_run_with_a_joker_across_the_top():
    reading = read("R12 J R1", wrap=True)
    assert reading.valid
    assert reading.stands_for == (None, "R13", None)


def test_wrap_around_runs_still_have_at_most_13_tiles():
    row = " ".join(f"Y{n}" for n in [*range(5, 14), 1, 2, 3, 4, 5])
    assert not read(row, wrap=True).valid


# ----- jokers in runs, rows in order and out of order ---------------------------------------


def test_r9_r10_joker_makes_the_joker_r11():
    reading = read("R9 R10 J")
    assert reading.stands_for == (None, None, "R11")
    assert reading.value == 30


def test_joker_r9_r10_makes_the_joker_r8():
    reading = read("J R9 R10")
    assert reading.stands_for == ("R8", None, None)
    assert reading.value == 27


def test_a_joker_inside_a_run_stands_for_the_number_its_position_calls_for():
    reading = read("K4 J K6 K7")
    assert reading.stands_for == (None, "K5", None, None)


def test_a_row_in_order_is_stored_as_given():
    row = tiles("J R9 R10")
    assert list(read_set(row).tiles) == row


def test_k13_joker_joker_is_the_run_k11_k12_k13_worth_36():
    reading = read("K13 J J")
    assert reading.valid
    assert reading.kind == "run"
    assert reading.codes() == ["J", "J", "K13"]
    assert reading.numbers == (11, 12, 13)
    assert reading.stands_for == ("K11", "K12", None)
    assert reading.value == 36


def test_a_row_out_of_order_is_stored_ascending():
    reading = read("R7 R5 R6")
    assert reading.codes() == ["R5", "R6", "R7"]
    assert reading.value == 18


def test_out_of_order_jokers_go_where_they_are_worth_most():
    reading = read("R6 R5 J J")
    assert reading.codes() == ["R5", "R6", "J", "J"]
    assert reading.stands_for == (None, None, "R7", "R8")
    assert reading.value == 26


def test_out_of_order_joker_fills_the_gap():
    reading = read("R5 R3 J")
    assert reading.codes() == ["R3", "J", "R5"]
    assert reading.stands_for == (None, "R4", None)


def test_reading_a_stored_row_again_gives_the_same_row():
    for text in ["K13 J J", "R7 R5 R6", "R6 R5 J J", "J R9 R10", "R5 B5 J"]:
        first = read(text)
        again = read_set(first.tiles)
        assert again.tiles == first.tiles
        assert again.stands_for == first.stands_for
        assert again.value == first.value


def test_set_value_refuses_an_invalid_set():
    with pytest.raises(ValueError, match="a run cannot repeat a number"):
        set_value(tiles("R3 R3 R4"))


@pytest.mark.parametrize("wrap", [False, True])
def test_valid_ids_says_what_read_set_says(wrap):
    """The quick check (the solve tool's, and the solver's when it keeps sets whole) on
    rows near runs, near groups and at random, with up to two jokers and a third."""
    rng = random.Random(7 + wrap)
    checked = valid = 0
    while checked < 20_000:
        size, colour, start = rng.randint(1, 14), rng.randrange(4), rng.randrange(13)
        kind = rng.random()
        if kind < 0.4:
            ids = [
                colour * 13 + (start + k + rng.choice([0, 0, 0, 1, -1])) % 13 for k in range(size)
            ]
        elif kind < 0.7:
            ids = [rng.randrange(4) * 13 + start for _ in range(min(size, 6))]
        else:
            ids = [rng.randrange(52) for _ in range(size)]
        ids = [i + 52 * rng.randint(0, 1) for i in ids]
        for _ in range(rng.choice([0, 0, 1, 2, 3])):
            ids[rng.randrange(len(ids))] = 104 + rng.randint(0, 1)
        if len(set(ids)) != len(ids):
            continue
        checked += 1
        expected = read_set([DECK[i] for i in ids], wrap).valid
        valid += expected
        assert valid_ids(ids, wrap) == expected, [DECK[i].code for i in ids]
    assert valid > 2_000
