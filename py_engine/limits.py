"""The bounds on what the engine reads, and JSON read and written within them.

Input is bounded before it is parsed or walked: its length, its nesting depth (measured on
the text, before ``json.loads``, whose recursion kills Pyodide at a depth CPython survives),
its numbers (whole numbers JavaScript holds exactly, finite floats: no ``NaN``, no
``Infinity``). Nothing written can hold ``NaN`` either, which ``JSON.parse`` refuses.

>>> read_json('{"cmd": "view", "seed": 7}')
{'cmd': 'view', 'seed': 7}
>>> read_json("[" * 25 + "]" * 25)
Traceback (most recent call last):
...
py_engine.limits.JSONLimitError: nested too deeply (more than 20 levels)
>>> read_json('{"level": NaN}')
Traceback (most recent call last):
...
py_engine.limits.JSONLimitError: not valid JSON: NaN is not a JSON number
>>> quote("R" * 1000)
"'RRRRRRRRRRRRRRRRRRRRRRRRRRRRRR'…"
"""

from __future__ import annotations

import json
import math
import re
import reprlib
from itertools import accumulate
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "MAX_NAME",
    "MAX_REQUEST_CHARS",
    "MAX_SAFE_INT",
    "MAX_SAVE_CHARS",
    "JSONLimitError",
    "quote",
    "read_json",
    "write_json",
]

# A save, the deepest input the engine takes, nests 6 levels (rounds, a round, its
# actions, an action, its table, a set). Pyodide's stack gives out between 5,000 and
# 8,000 levels in json.loads, and near 5,000 in repr of what it read.
MAX_DEPTH = 20
# A save, in characters: a match to 300 points is about 25 kB; the page keeps its save in
# localStorage, which holds about 5 MB in all. A request carries a save as a JSON string,
# whose escapes may lengthen it: up to twice as long.
MAX_SAVE_CHARS = 2_000_000
MAX_REQUEST_CHARS = 2 * MAX_SAVE_CHARS
MAX_NAME = 24  # a player's name, as a new game cuts it
MAX_SAFE_INT = 2**53 - 1  # JavaScript's Number.MAX_SAFE_INTEGER: the page holds no more
_QUOTE = 30  # characters of a bad value that an error message shows


class JSONLimitError(ValueError):
    """Text that is not JSON, or is JSON beyond the bounds. The message reads after
    "The request is" or "the saved game is": ``not valid JSON: ...``, ``too long ...``."""


class _Refused(Exception):
    """Raised from json.loads's number hooks; carries the message."""


def read_json(text: Any, max_chars: int = MAX_REQUEST_CHARS) -> Any:
    """Parse ``text``, refusing it before parsing when it is too long or nests too deep,
    and refusing ``NaN``, ``Infinity``, numbers out of range and integer literals too long
    for ``int`` (CPython's 4,300 digits)."""
    if not isinstance(text, str):
        raise JSONLimitError(f"not valid JSON: text is needed, not {type(text).__name__}")
    if len(text) > max_chars:
        raise JSONLimitError(f"too long ({len(text):,} characters; at most {max_chars:,})")
    if nesting_depth(text) > MAX_DEPTH:
        raise JSONLimitError(f"nested too deeply (more than {MAX_DEPTH} levels)")
    try:
        if text.startswith("\ufeff"):  # refused as json.loads refuses it
            return json.loads(text)
        return _DECODER.decode(text)
    except _Refused as refused:
        raise JSONLimitError(str(refused)) from None
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise JSONLimitError(f"not valid JSON: {error}") from None


# A JSON string, up to its closing quote or the end of the text (then the text is not
# JSON, and json.loads stops at the same place): no backtracking, linear time.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
# For ASCII text: braces read as brackets (only the depth counts), quotes kept, all else
# dropped, in one pass over the text's bytes.
_AS_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKET_BYTES = bytes(c for c in range(128) if chr(c) not in '[]{}"')
_BYTE_STEP = {ord("["): 1, ord("]"): -1}
_PASSES = 8  # levels taken off a pair at a time before the depth is counted bracket by bracket


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text, by its brackets outside
    strings (every pass in C: a 4 MB text takes tens of milliseconds).

    >>> nesting_depth('{"a": [[1], "]]]"], "b": {}}')
    3
    """
    # Quickly, for ASCII text without escapes (a line of tile codes): only the brackets and
    # quotes kept, then every pair of quotes with nothing between them (a string holding
    # no bracket) dropped, left to right. When no quote is left, what is left is the
    # brackets outside strings (a string holding a bracket leaves a quote: read as below).
    if "\\" not in text and text.isascii():
        brackets = text.encode("ascii").translate(_AS_BRACKETS, _NOT_BRACKET_BYTES)
        brackets = brackets.replace(b'""', b"")
        if b'"' not in brackets:
            # Every innermost pair taken off at once, a level a pass: when nothing is left
            # the brackets were balanced and the passes are the depth (a line of tile
            # codes: 3). Otherwise, or deeper, counted bracket by bracket.
            left, depth = brackets, 0
            while left and depth < _PASSES:
                shorter = left.replace(b"[]", b"")
                if len(shorter) == len(left):
                    break
                left, depth = shorter, depth + 1
            if not left:
                return depth
            return max(accumulate(map(_BYTE_STEP.__getitem__, brackets)), default=0)
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _constant(name: str) -> Any:
    raise _Refused(f"not valid JSON: {name} is not a JSON number")


def _whole_number(text: str) -> int:
    # The length first: int() of over 4,300 digits raises a plain ValueError.
    if len(text.lstrip("-")) > 16 or abs(number := int(text)) > MAX_SAFE_INT:
        raise _Refused(f"out of range: the number {quote_text(text)} is beyond ±{MAX_SAFE_INT:,}")
    return number


def _number(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _Refused(f"out of range: the number {quote_text(text)} is not finite")
    return number


# One decoder with the number hooks, made once (``json.loads`` with hooks makes a decoder,
# and its scanner, at every call).
_DECODER = json.JSONDecoder(parse_constant=_constant, parse_int=_whole_number, parse_float=_number)


def write_json(data: Any, **options: Any) -> str:
    """``json.dumps`` that refuses ``NaN`` and ``Infinity`` (a ValueError) rather than
    write what ``JSON.parse`` cannot read."""
    if options:
        return json.dumps(data, allow_nan=False, **options)
    return _ENCODER.encode(data)


# One encoder, made once (``json.dumps`` with an option makes one at every call).
_ENCODER = json.JSONEncoder(allow_nan=False)


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _QUOTE + 10
_REPR.maxlist = _REPR.maxdict = _REPR.maxtuple = 4
_REPR.maxlevel = 2


def quote(value: Any) -> str:
    """A bad value as an error message shows it: its repr, cut to a short prefix."""
    if isinstance(value, str):
        return quote_text(value, quoted=True)
    shown = _REPR.repr(value)  # bounded in depth and breadth, then cut
    return shown if len(shown) <= 2 * _QUOTE else shown[: 2 * _QUOTE] + "…"


def quote_text(text: str, quoted: bool = False) -> str:
    shown = repr(text[:_QUOTE]) if quoted else text[:_QUOTE]
    return shown + ("…" if len(text) > _QUOTE else "")
