"""The input bounds (py_engine/limits.py): exact at their edges, and the depth measured on
the text agreeing with the depth of what it parses to."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py_engine.limits import (
    MAX_DEPTH,
    MAX_SAFE_INT,
    JSONLimitError,
    nesting_depth,
    quote,
    read_json,
    write_json,
)


def depth(value):
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


# Strings full of what could fool a scan of brackets: brackets, quotes, backslashes.
TRICKY = st.text(alphabet="[]{}\"\\'ab,:\n\u00e9\U0001f600", max_size=8)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | TRICKY,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TRICKY, inner, max_size=3),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(VALUES, st.booleans())
def test_the_depth_of_the_text_is_the_depth_of_the_value(value, ascii_only):
    assert nesting_depth(json.dumps(value, ensure_ascii=ascii_only)) == depth(value)


def _depth_bracket_by_bracket(text: str) -> int:
    """The depth as the general path counts it: strings cut out, then every bracket."""
    from itertools import accumulate

    from py_engine.limits import _NOT_BRACKET, _STEP, _STRING

    return max(
        accumulate(map(_STEP.__getitem__, _NOT_BRACKET.sub("", _STRING.sub("", text)))), default=0
    )


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet='[]{}"\\a', max_size=40) | st.text(alphabet="[]{}", max_size=60))
def test_the_quick_depth_of_any_text_is_the_depth_counted_bracket_by_bracket(text):
    """Unbalanced, mismatched, unclosed strings, deeper than the passes of the quick count
    (``_PASSES``): the quick count agrees with the general one on every text."""
    assert nesting_depth(text) == _depth_bracket_by_bracket(text)


@pytest.mark.parametrize("levels", [0, 1, 3, 7, 8, 9, 20, 21, 500])
def test_the_quick_depth_at_and_past_its_passes(levels):
    for text in ("[" * levels + "]" * levels, '{"a": ' * levels + "1" + "}" * levels):
        assert nesting_depth(text) == levels
    unbalanced = "[" * levels + "]" * (levels + 1)  # (one closer too many)
    assert nesting_depth(unbalanced) == _depth_bracket_by_bracket(unbalanced)


def test_nesting_is_refused_past_20_levels_and_taken_at_20():
    assert read_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(JSONLimitError, match="nested too deeply"):
        read_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(JSONLimitError, match="nested too deeply"):
        read_json("[" * 100_000)  # never closed: json.loads would recurse all the same
    # Brackets inside strings are text, however many.
    assert read_json(json.dumps({"name": "[" * 1_000 + '\\"' + "{" * 1_000})) is not None


def test_text_that_is_not_json_is_refused_as_not_json_whatever_lies_outside_strings():
    # Characters outside strings that are neither brackets nor ASCII (a byte-order mark,
    # stray letters) are no brackets: the depth ignores them and json.loads refuses them.
    assert nesting_depth("\ufeff[[\u00e9]]") == 2
    for text in ("\ufeff{}", "[\u00e9]", '{"a": [1]}\u00e9'):
        with pytest.raises(JSONLimitError, match="not valid JSON"):
            read_json(text)


def test_length_is_bounded_at_the_given_number_of_characters():
    assert read_json('"' + "x" * 98 + '"', max_chars=100) == "x" * 98
    with pytest.raises(JSONLimitError, match=r"too long \(101 characters; at most 100\)"):
        read_json('"' + "x" * 99 + '"', max_chars=100)


@pytest.mark.parametrize(
    ("text", "value"),
    [(str(MAX_SAFE_INT), MAX_SAFE_INT), (str(-MAX_SAFE_INT), -MAX_SAFE_INT), ("1.5e300", 1.5e300)],
)
def test_numbers_within_range_are_read(text, value):
    assert read_json(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (str(MAX_SAFE_INT + 1), "out of range: the number 9007199254740992 is beyond"),
        (str(-MAX_SAFE_INT - 1), "out of range"),
        ("1" * 4_400, "out of range: the number 111111111111111111111111111111…"),
        ("1e400", "out of range: the number 1e400 is not finite"),
        ("-1e400", "out of range: the number -1e400 is not finite"),
        ("NaN", "not valid JSON: NaN is not a JSON number"),
        ("[Infinity]", "not valid JSON: Infinity is not a JSON number"),
        ('{"a": -Infinity}', "not valid JSON: -Infinity is not a JSON number"),
        (b"[]", "not valid JSON: text is needed, not bytes"),
        (None, "not valid JSON: text is needed, not NoneType"),
    ],
)
def test_numbers_out_of_range_and_non_text_are_refused(text, message):
    with pytest.raises(JSONLimitError) as refused:
        read_json(text)
    assert str(refused.value).startswith(message)


def test_nothing_written_holds_nan():
    assert write_json({"a": 1.5}) == '{"a": 1.5}'
    for bad in (float("nan"), float("inf"), -float("inf")):
        with pytest.raises(ValueError):
            write_json({"a": [bad]})


def test_a_bad_value_is_quoted_by_a_short_prefix():
    assert quote("R5") == "'R5'"
    assert quote("R" * 31) == "'" + "R" * 30 + "'…"
    assert quote(7) == "7"
    assert len(quote([["x" * 10**6] * 100] * 100)) < 200
    assert len(quote({"k" * 10**6: "v" * 10**6})) < 200
