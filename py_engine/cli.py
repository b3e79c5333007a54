"""Command-line tools, JSON lines in and out: one answer line per input line.

    python -m py_engine validate  < turns.jsonl
    python -m py_engine solve     < positions.jsonl
    python -m py_engine solve --budget 50000 < positions.jsonl
    python -m py_engine arena --players hard,expert --games 1000 --seed 1

``solve`` is exact by default, however long a position takes (a few need minutes). With
``--budget N`` each line's searches give up after closing the groups of N states in all
(a count of work, not the clock: the same answer on every machine; 50,000, the hint's
budget, took at most about 1.6 s in CPython on the slowest positions known) and answer
the best play found by then. Every answer says ``"proven"``: true when the play is the
best, false when a search gave up first (then "no opening" means none was found).

A line that cannot be answered gets ``{"error": "..."}`` and the tool goes on: a line
that is not UTF-8, not JSON, longer than 1,000,000 characters, nested deeper than 20
levels, or with a number beyond JavaScript's safe integers, NaN or Infinity, is answered
so too. Exit status: 0 when every line was answered, 1 when any line got an error, 2 for
a command line the tool does not know.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

from .limits import JSONLimitError, read_json, write_json
from .rounds import IllegalAction
from .rules import Rules, RulesError
from .sets import read_set, valid_ids
from .tiles import Tile, TileError, assign_ids
from .turns import check_codes

__all__ = ["json_lines", "main", "solve_json", "solve_main", "validate"]


class InputError(ValueError):
    """A JSON line that does not have the shape a tool needs."""


def _rows(data: dict[str, Any], key: str, required: bool = True) -> list[list[str]]:
    rows = data.get(key, None if required else [])
    if not _all_rows(rows):
        raise InputError(f"{key!r} must be a list of sets, each a list of tile codes")
    return rows


def _all_rows(rows: Any) -> bool:
    """Whether ``rows`` is a list of lists of strings (as plain loops: read on every
    line of a long-running tool)."""
    if not isinstance(rows, list):
        return False
    for row in rows:
        if not isinstance(row, list):
            return False
        for code in row:
            if not isinstance(code, str):
                return False
    return True


def _codes(data: dict[str, Any], key: str) -> list[str]:
    codes = data.get(key)
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        raise InputError(f"{key!r} must be a list of tile codes")
    return codes


def read_position(data: Any) -> tuple[dict[str, Any], Rules, bool]:
    """The common fields of a position line: the object itself, its rules, ``opened``."""
    if not isinstance(data, dict):
        raise InputError("each line must be a JSON object")
    opened = data.get("opened", False)
    if not isinstance(opened, bool):
        raise InputError("'opened' must be true or false")
    return data, _read_rules(data.get("rules")), opened


# The rules read so far, by their fields as written (each value with its type: 1 is not
# true): a long-running process meets the same few on every line. A Rules is frozen, so
# one serves them all. At most RULES_KEPT kept.
RULES_KEPT = 64
_RULES_READ: dict[tuple[tuple[str, type, Any], ...], Rules] = {}


_DEFAULT_RULES = Rules()


def _read_rules(given: Any) -> Rules:
    if given is None:
        return _DEFAULT_RULES
    if not isinstance(given, dict):
        return Rules.from_json(given)
    try:
        key = tuple((name, type(value), value) for name, value in given.items())
        rules = _RULES_READ.get(key)
    except TypeError:  # a value that is a list or an object: read, and refused, as usual
        return Rules.from_json(given)
    if rules is None:
        rules = Rules.from_json(given)
        if len(_RULES_READ) < RULES_KEPT:
            _RULES_READ[key] = rules
    return rules


def _threshold(data: dict[str, Any]) -> int | None:
    threshold = data.get("threshold")
    if threshold is not None and (
        not isinstance(threshold, int) or isinstance(threshold, bool) or not 0 <= threshold <= 200
    ):
        raise InputError("'threshold' must be a whole number from 0 to 200")
    return threshold


def validate(data: Any) -> dict[str, Any]:
    """Answer one ``validate`` line."""
    data, rules, opened = read_position(data)
    threshold = _threshold(data)
    check = check_codes(
        _rows(data, "before", required=False),
        _rows(data, "after"),
        _codes(data, "rack"),
        opened=opened,
        rules=rules,
        threshold=threshold,
    )
    return check.to_json()


MAX_LINE = 1_000_000  # characters; a position is a few hundred


def json_lines(
    answer: Callable[[Any], dict[str, Any]], lines: Iterable[str | bytes], out: IO[str]
) -> int:
    """Answer each non-blank JSON line with one JSON line; returns the number of errors.

    Lines may be bytes (standard input's, decoded here as UTF-8, each on its own)."""
    errors = 0
    for line in lines:
        try:
            text = line.decode("utf-8") if isinstance(line, bytes) else line
            if not text.strip():
                continue  # blank lines separate nothing; they get no answer
            result = answer(read_json(text, MAX_LINE))
        except UnicodeDecodeError as error:
            result = {"error": f"not valid UTF-8: {error.reason} at byte {error.start}"}
        except (JSONLimitError, InputError, RulesError, TileError, IllegalAction) as error:
            result = {"error": str(error)[:500]}
        except Exception as error:  # a bug: an answer line still, and the next line
            result = {"error": f"internal error: {type(error).__name__}: {error}"[:500]}
        if "error" in result:
            errors += 1
        out.write(write_json(result) + "\n")
        out.flush()
    return errors


def solve_json(data: Any, budget: int | None = None) -> dict[str, Any]:
    """Answer one ``solve`` line: ``{"table", "rack", "opened", "rules", "threshold"}``,
    exactly, or with a ``budget`` of states to close (see the module docstring)."""
    # (Imported here: the solver builds tables on import that ``validate`` need not wait for.)
    from .solver import SolverInputError, solve

    try:
        if not isinstance(data, dict):
            raise InputError("each line must be a JSON object")
        table_codes = _rows(data, "table", required=False)
        rack_codes = _codes(data, "rack")
        data, rules, opened = read_position(data)
        threshold = _threshold(data)
        rows = assign_ids([*table_codes, rack_codes])
        table, rack = rows[:-1], rows[-1]
        bad = _bad_set(table_codes, table, rules.wrap_runs)
        if bad is not None:
            raise InputError(f"Set {bad[0] + 1} on the table is not valid: {bad[1]}")
        play = solve(table, rack, opened=opened, rules=rules, threshold=threshold, effort=budget)
    except (InputError, SolverInputError, RulesError, TileError) as error:
        return {"error": str(error)}
    answer = play.to_json()
    if not opened and not play.found:
        answer["note"] = "no opening"
    return answer


# Whether a table set as written is valid, by its codes: "" when it is, else its problem
# (per wrap-around rule). A long-running solve process meets the same sets again and again,
# and reading one is most of what it does besides the search on a position where nothing
# can be played. At most SETS_KEPT kept per rule.
SETS_KEPT = 4096
_SET_PROBLEMS: tuple[dict[tuple[str, ...], str], dict[tuple[str, ...], str]] = ({}, {})


def _bad_set(
    table_codes: list[list[str]], table: list[list[Tile]], wrap: bool
) -> tuple[int, str] | None:
    """The first table set that is not valid (its index and problem), or None."""
    kept = _SET_PROBLEMS[wrap]
    keys = list(map(tuple, table_codes))
    known = list(map(kept.get, keys))
    if known.count("") == len(keys):
        return None  # (every set valid and met before: most lines, looked up in C)
    for i, (key, problem) in enumerate(zip(keys, known, strict=True)):
        if problem is None:
            if len(kept) >= SETS_KEPT:
                kept.clear()
            # Valid sets (all but the odd bad line) are told quickly; a bad one is read for why.
            row = table[i]
            valid = valid_ids([t.id for t in row], wrap)
            problem = kept[key] = "" if valid else read_set(row, wrap).problem or ""
        if problem:
            return i, problem
    return None


def solve_main(lines: Iterable[str], out: IO[str], budget: int | None = None) -> int:
    """``python -m py_engine solve``: one JSON answer line per input line."""
    return json_lines(lambda data: solve_json(data, budget), lines, out)


def _budget(args: list[str]) -> int | None:
    """The ``--budget N`` of ``solve``'s command line (None without one); raises
    InputError for anything else."""
    if not args:
        return None
    if len(args) != 2 or args[0] != "--budget" or not re.fullmatch("[0-9]{1,12}", args[1]):
        raise InputError("solve takes only --budget N, N a whole number of states from 1")
    if int(args[1]) < 1:
        raise InputError("solve takes only --budget N, N a whole number of states from 1")
    return int(args[1])


TOOLS: dict[str, Callable[[Any], dict[str, Any]]] = {"validate": validate, "solve": solve_json}


def _with_room(function: Callable[..., int], *args: Any) -> int:
    """``function(*args)``, called from a frame that holds CPython's frame stack open
    (``_ROOMY_STACK``)."""
    return function(*args)


# CPython (3.11 on) keeps Python frames on a stack of chunks of 16 KiB, takes a new chunk
# when a call does not fit in the current one and gives it back as soon as that call
# returns; on Linux each is an mmap and a munmap. The solver's search recurses up to about
# 50 calls of about 540 bytes, so in a long-running ``solve`` the edge of a chunk falls
# inside the search, and every call across it maps and unmaps memory: 8.5 times a solve on
# the benchmark's game positions, each time 7 to 13 us with the page faults. A frame whose
# claim does not fit a chunk gets one of its own, sized up in powers of two past the claim
# and 1,000 slots more: with 8,192 slots of 8 bytes, 128 KiB, about 64 KiB of it free
# above the frame, kept while the frame runs. Everything a tool does runs there, and the
# search never crosses an edge (pages never touched cost nothing). Only the claim grows:
# the frame uses one slot, as before. (Slots are pointers: under Pyodide's 32-bit
# WebAssembly the same claim gets 64 KiB; Pyodide takes chunks from malloc, where a
# crossing costs little.)
_ROOMY_STACK = 8192  # slots
_with_room.__code__ = _with_room.__code__.replace(co_stacksize=_ROOMY_STACK)


def main(argv: list[str] | None = None) -> int:
    """``python -m py_engine TOOL ...`` (the module docstring); returns the exit status."""
    return _with_room(_main, argv)


def _main(argv: list[str] | None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if args else 2
    tool, rest = args[0], args[1:]
    if tool == "arena":
        from .arena import main as arena_main

        return arena_main(rest)
    if tool not in TOOLS:
        print(f"unknown tool {tool!r}; tools: {', '.join([*TOOLS, 'arena'])}", file=sys.stderr)
        return 2
    if tool == "solve":
        try:
            budget = _budget(rest)
        except InputError as error:
            print(error, file=sys.stderr)
            return 2
        errors = solve_main(sys.stdin.buffer, sys.stdout, budget)  # type: ignore[arg-type]
    else:
        errors = json_lines(TOOLS[tool], sys.stdin.buffer, sys.stdout)
    return 1 if errors else 0
