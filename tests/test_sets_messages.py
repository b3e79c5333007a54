"""The reason a row is not a run names the numbers missing, and mentions jokers only
when the row holds some (it said "there are gaps no joker fills" for a row without one)."""

import pytest

from py_engine.sets import read_set
from py_engine.tiles import parse_tiles as tiles


def problem(text: str, wrap: bool = False) -> str | None:
    return read_set(tiles(text), wrap).problem


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("R5 R7 R8", "6 is missing"),
        ("R8 R5 R7", "6 is missing"),  # laid out of order: the same numbers are missing
        ("R3 R5 R7", "4 and 6 are missing"),
        ("B1 B2 B8", "3 to 7 are missing"),
        ("Y1 Y5 Y13", "2 to 4 and 6 to 12 are missing"),
        ("K3 K4 K7 K8 K9", "5 and 6 are missing"),
    ],
)
def test_without_a_joker_the_missing_numbers_are_named(text, missing):
    assert problem(text) == f"a run needs consecutive numbers ({missing})"
    assert "joker" not in problem(text)


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("R5 J R9", "6 to 8 are missing, more than the joker can fill"),
        ("R3 R6 J", "4 and 5 are missing, more than the joker can fill"),
        ("B1 J J B8", "2 to 7 are missing, more than the two jokers can fill"),
        ("J Y2 Y6 J", "3 to 5 are missing, more than the two jokers can fill"),
    ],
)
def test_with_jokers_the_message_says_there_are_too_few(text, missing):
    assert problem(text) == f"a run needs consecutive numbers ({missing})"


def test_a_gap_the_jokers_do_fill_is_no_problem():
    assert problem("R5 J R7") is None
    assert problem("R5 J J R8") is None


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("R11 R12 R2 R3", "13 and 1 are missing"),
        ("R10 R11 R3", "12, 13, 1 and 2 are missing"),
        ("B12 J B3", "13, 1 and 2 are missing, more than the joker can fill"),
        ("Y1 Y5 Y9", "2 to 4 and 6 to 8 are missing"),  # fewer than going round by 13
        # Two equally short ways (3 to 7, or 9 to 13): the one not crossing from 13 to 1.
        ("K1 K2 K8", "3 to 7 are missing"),
    ],
)
def test_with_wrap_around_runs_the_fewest_missing_numbers_are_named(text, missing):
    assert problem(text, wrap=True) == f"a run needs consecutive numbers ({missing})"


def test_the_other_run_messages_are_unchanged():
    assert problem("R12 R13 R1") == "a run cannot go past 13 (1 is always low)"
    assert problem("R12 J R1") == "a run cannot go past 13 (1 is always low)"
    assert problem("R12 R13 R1", wrap=True) is None
    assert problem("R3 R3 R4") == "a run cannot repeat a number"
    assert problem("R5 B6 Y7") == (
        "this is neither a group (one number, different colours) "
        "nor a run (consecutive numbers, one colour)"
    )
