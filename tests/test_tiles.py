"""Tiles: the 106-tile deck, identities, the R5/K13/J notation both ways, seeded shuffling."""

import random
from collections import Counter

import pytest

from py_engine.tiles import (
    DECK,
    JOKER,
    JOKER_IDS,
    Colour,
    Face,
    Tile,
    TileError,
    assign_ids,
    parse_face,
    parse_tiles,
    shuffled_deck,
)


def test_the_deck_has_106_tiles_two_of_each_number_and_colour_and_two_jokers():
    assert len(DECK) == 106
    assert len({t.id for t in DECK}) == 106
    faces = Counter(t.face for t in DECK)
    assert faces[JOKER] == 2
    numbered = {f: n for f, n in faces.items() if not f.is_joker}
    assert len(numbered) == 4 * 13
    assert set(numbered.values()) == {2}
    assert {f.number for f in numbered} == set(range(1, 14))
    assert {f.colour for f in numbered} == set(Colour)


def test_every_physical_tile_has_its_own_identity():
    first, second = Tile.parse("R5", 0), Tile.parse("R5", 1)
    assert first != second
    assert first.face == second.face
    assert first.code == second.code == "R5"


def test_tile_ids_follow_the_documented_layout():
    assert Tile.parse("R1").id == 0
    assert Tile.parse("B1").id == 13
    assert Tile.parse("Y13").id == 38
    assert Tile.parse("K13").id == 51
    assert Tile.parse("R1", copy=1).id == 52
    assert Tile.parse("K13", copy=1).id == 103
    assert [Tile.parse("J", copy).id for copy in (0, 1)] == list(JOKER_IDS) == [104, 105]


@pytest.mark.parametrize("tile", DECK, ids=lambda t: f"{t.id}")
def test_every_tile_prints_a_code_that_parses_back_to_it(tile):
    assert parse_face(tile.code) == tile.face
    copy = 0 if tile.id in (*range(52), 104) else 1
    assert Tile.parse(tile.code, copy) == tile


def test_notation_letters_and_numbers():
    assert parse_face("R5") == Face(Colour.RED, 5)
    assert parse_face("B1") == Face(Colour.BLUE, 1)
    assert parse_face("Y12") == Face(Colour.YELLOW, 12)
    assert parse_face("K13") == Face(Colour.BLACK, 13)
    assert parse_face("J") == JOKER
    assert parse_face("J").is_joker


def test_lower_case_and_spaces_are_accepted():
    assert parse_face("k13").code == "K13"
    assert parse_face(" r5 ").code == "R5"
    assert parse_face("j").is_joker
    assert parse_face("joker").is_joker


@pytest.mark.parametrize(
    "code",
    ["", "R", "R0", "R14", "R-1", "X5", "5R", "RR", "J2", "R5.0", "R 5", "RB5", "K13K", "R²", "R٥"],
)
def test_unknown_tile_codes_are_refused(code):
    with pytest.raises(TileError, match="unknown"):
        parse_face(code)


@pytest.mark.parametrize("value", [None, 5, ["R5"], b"R5"])
def test_a_tile_code_must_be_text(value):
    with pytest.raises(TileError, match="must be text"):
        parse_face(value)


def test_the_message_for_a_number_out_of_range_says_the_range():
    with pytest.raises(TileError, match="numbers run from 1 to 13"):
        parse_face("B14")


@pytest.mark.parametrize("bad_id", [-1, 106, 1000, True, False, 5.0, "5", None])
def test_tile_ids_outside_0_to_105_are_refused(bad_id):
    with pytest.raises(TileError, match="unknown tile id"):
        Tile(bad_id)


def test_there_is_no_third_copy():
    with pytest.raises(TileError, match="only two copies of R5"):
        Tile.parse("R5", copy=2)


def test_parse_tiles_gives_repeated_codes_the_second_copy():
    row = parse_tiles("R5 R5 J J")
    assert [t.id for t in row] == [4, 56, 104, 105]
    assert parse_tiles(["K13", "J"]) == [Tile.parse("K13"), Tile(104)]


@pytest.mark.parametrize("text", ["R5 R5 R5", "J J J", "k7 K7 k7"])
def test_a_third_copy_of_a_tile_is_an_error(text):
    with pytest.raises(TileError, match="there are only two"):
        parse_tiles(text)


def test_assign_ids_keeps_copies_apart_across_rows_and_records_what_is_taken():
    taken = {Tile.parse("R5").id}
    rows = assign_ids([["R5", "B5"], ["B5"]], taken)
    assert rows == [[Tile.parse("R5", 1), Tile.parse("B5", 0)], [Tile.parse("B5", 1)]]
    assert taken == {4, 56, 17, 69}
    with pytest.raises(TileError, match="only two R5"):
        assign_ids([["R5"]], taken)


def test_tile_text_and_json_form():
    tile = Tile.parse("Y12", copy=1)
    assert str(tile) == "Y12"
    assert repr(tile) == "Tile(89:Y12)"
    assert tile.label == "yellow 12"
    assert tile.to_json() == {
        "id": 89,
        "code": "Y12",
        "color": "yellow",
        "number": 12,
        "joker": False,
        "label": "yellow 12",
    }
    assert Tile(105).to_json() == {
        "id": 105,
        "code": "J",
        "color": None,
        "number": None,
        "joker": True,
        "label": "joker",
    }


def test_rack_value_is_the_face_value_and_a_joker_has_none_of_its_own():
    assert Tile.parse("K13").rack_value == 13
    assert Tile.parse("R1").rack_value == 1
    assert Tile(104).rack_value == 0  # the rules' joker penalty applies instead


def test_colour_letters():
    assert [c.letter for c in Colour] == ["R", "B", "Y", "K"]
    assert Colour.from_letter("k") is Colour.BLACK
    with pytest.raises(TileError, match="unknown colour"):
        Colour.from_letter("G")


def test_seeded_shuffles_repeat_and_hold_every_tile_once():
    one = shuffled_deck(random.Random(42))
    assert one == shuffled_deck(random.Random(42))
    assert sorted(one) == list(DECK)
    assert one != shuffled_deck(random.Random(43))
    assert one != list(DECK)
