"""Turn checking: is this end-of-turn table a legal play from this start-of-turn table and rack?

>>> from .tiles import parse_tiles
>>> check = check_codes([["R3", "R4", "R5"]], [["R3", "R4", "R5", "R6"]], ["R6", "B1"], opened=True)
>>> check.ok, [t.code for t in check.placed]
(True, ['R6'])
>>> check_codes([], [["R10", "B10", "J"]], ["R10", "B10", "J"], opened=False).opening_value
30
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .rules import Rules
from .sets import SetReading, read_set
from .tiles import FACE_KEY, Face, Tile, TileError, face_signature, parse_face

__all__ = [
    "TurnCheck",
    "TurnProblem",
    "check_codes",
    "check_turn",
    "describe_play",
    "play_steps",
    "settle_table",
]

Table = Sequence[Sequence[Tile]]

# check_codes tries every way round for at most this many codes held twice (2**n checks).
MAX_COPY_SWAPS = 8


@dataclass(frozen=True, slots=True)
class TurnProblem:
    """One reason a proposed play is not legal; ``set`` is the 0-based index in the
    proposed table, or None when the reason concerns the play as a whole."""

    set: int | None
    message: str

    def to_json(self) -> dict:
        return {"set": self.set, "message": self.message}


@dataclass(frozen=True, slots=True)
class TurnCheck:
    placed: tuple[Tile, ...]
    errors: tuple[TurnProblem, ...]
    readings: tuple[SetReading, ...]
    opening_value: int | None = None
    threshold: int | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def table(self) -> list[list[Tile]]:
        """The proposed table as it is stored: each valid set in its normal order."""
        return [list(r.tiles) for r in self.readings]

    @property
    def refusal(self) -> str:
        """Why the play is refused, in one sentence: the first problem in full, then any
        other set that is not valid named after it ("Set 2: a set needs at least 3 tiles;
        Sets 4 and 5 are not valid either"). Each set's own reason is in ``errors``.

        Only a set that is no run or group is called not valid: a valid set marked for a
        rule of the turn (a table set added to before the opening) was named "not valid
        either" after that very rule, the one problem said twice."""
        first = self.errors[0]
        named = {e.set for e in self.errors if e.set is not None}
        others = sorted({i for i in named if not self.readings[i].valid} - {first.set})
        if not others:
            return first.message
        if len(others) == 1:
            return f"{first.message}; {_set_name(others[0])} is not valid either"
        numbers = ", ".join(str(i + 1) for i in others[:-1])
        return f"{first.message}; Sets {numbers} and {others[-1] + 1} are not valid either"

    def to_json(self) -> dict:
        answer: dict = {
            "ok": self.ok,
            "placed": [t.code for t in self.placed],
            "errors": [e.to_json() for e in self.errors],
        }
        if self.opening_value is not None:
            answer["opening_value"] = self.opening_value
        return answer


def _set_name(index: int) -> str:
    return f"Set {index + 1}"


def _join(codes: Iterable[str]) -> str:
    return ", ".join(codes)


FREED_JOKER = "a joker taken from another set must be in a valid set when you confirm"


def _holds_a_freed_joker(before: Sequence[Sequence[Tile]], row: Sequence[Tile]) -> bool:
    """Does ``row`` hold a joker that was on the table at the start of the turn, none of
    whose set-mates then are with it now (taken from its set, not just added to)?"""
    ids = {t.id for t in row}
    for start in before:
        for tile in start:
            mates = {t.id for t in start if t.id != tile.id}
            if tile.is_joker and tile.id in ids and not ids & mates:
                return True
    return False


def check_turn(
    before: Table,
    after: Table,
    rack: Sequence[Tile],
    *,
    opened: bool,
    rules: Rules | None = None,
    threshold: int | None = None,
) -> TurnCheck:
    """Check a proposed end-of-turn table against RULES.md, "A turn".

    ``threshold`` is the opening total this player needs (it differs from
    ``rules.opening`` with the easing variant). Every reason is reported.
    """
    rules = rules or Rules()
    threshold = rules.opening if threshold is None else threshold
    errors: list[TurnProblem] = []
    readings = tuple(read_set(row, rules.wrap_runs) for row in after)
    for index, reading in enumerate(readings):
        if not reading.valid:
            message = f"{_set_name(index)}: {reading.problem}"
            if _holds_a_freed_joker(before, after[index]):
                message += f" ({FREED_JOKER})"
            errors.append(TurnProblem(index, message))

    # Every tile accounted for: nothing lost from the table, nothing from elsewhere.
    before_ids = {t.id for row in before for t in row}
    rack_ids = {t.id for t in rack}
    after_tiles = [t for row in after for t in row]
    seen: Counter[int] = Counter(t.id for t in after_tiles)
    doubled = sorted({t for t in after_tiles if seen[t.id] > 1})
    if doubled:
        errors.append(TurnProblem(None, f"{_join(t.code for t in doubled)} placed twice"))
    missing = sorted({t for row in before for t in row if t.id not in seen})
    for tile in missing:
        errors.append(TurnProblem(None, f"{tile.code} was on the table and is missing"))
    foreign = sorted({t for t in after_tiles if t.id not in before_ids and t.id not in rack_ids})
    for tile in foreign:
        errors.append(TurnProblem(None, f"{tile.code} is not in your rack"))
    placed = tuple(
        t for t in dict.fromkeys(after_tiles) if t.id not in before_ids and t.id in rack_ids
    )
    if not placed:
        errors.append(TurnProblem(None, "Play at least one tile from your rack, or draw"))

    if rules.locked_jokers:
        _check_locked_jokers(before, after, readings, rules, errors)
    opening_value = None
    if not opened:
        opening_value = _check_opening(before, after, readings, rack_ids, errors)
        if opening_value < threshold and placed:
            errors.append(
                TurnProblem(
                    None,
                    f"Your opening totals {opening_value} points; {threshold} are needed",
                )
            )
    return TurnCheck(placed, tuple(errors), readings, opening_value, threshold)


def _check_opening(
    before: Table,
    after: Table,
    readings: Sequence[SetReading],
    rack_ids: set[int],
    errors: list[TurnProblem],
) -> int:
    """Before opening: the table untouched, new sets from the rack only. Returns their value."""
    before_sets = Counter(frozenset(t.id for t in row) for row in before)
    unchanged = Counter(frozenset(t.id for t in row) for row in after) & before_sets
    home = {t.id: k for k, row in enumerate(before) for t in row}
    first: list[TurnProblem] = []
    if unchanged != before_sets:
        # First: it is why the table's sets went wrong ("Set 1: a set needs at least 3
        # tiles" after a tile was taken from it), and what the player is told.
        first.append(
            TurnProblem(None, "Before your opening you may not change the sets on the table")
        )
    value = 0
    spare = unchanged.copy()
    for index, row in enumerate(after):
        key = frozenset(t.id for t in row)
        if spare[key]:
            spare[key] -= 1
            continue
        homes = Counter(home[t.id] for t in row if t.id in home)
        if homes:
            # A table set added to or cut short is said to be changed; a set of rack
            # tiles that borrows one from the table, to be new. Either comes before the
            # set's own problem: a group given a second blue 5 was marked "a group cannot
            # repeat a colour", which hid the rule the player had met.
            changed = max(homes.values()) >= 2 or all(t.id not in rack_ids for t in row)
            name = _set_name(index)
            first.append(
                TurnProblem(
                    index,
                    f"{name}: before your opening you may not change the sets on the table"
                    if changed
                    else f"{name}: before your opening, new sets come from your rack only",
                )
            )
        elif readings[index].valid and all(t.id in rack_ids for t in row):
            value += readings[index].value
    errors[0:0] = first
    return value


def _check_locked_jokers(
    before: Table,
    after: Table,
    readings: Sequence[SetReading],
    rules: Rules,
    errors: list[TurnProblem],
) -> None:
    """Locked joker sets: a set holding a joker ends the turn unchanged, or with jokers
    swapped in place for the tiles they stand for. Its problem comes first (only the
    opening's go before it): a locked run whose joker was taken out was marked "a run
    needs consecutive numbers (11 is missing)", which hid the rule the player had met."""
    where = {t.id: i for i, row in enumerate(after) for t in row}
    first: list[TurnProblem] = []
    for row in before:
        if not any(t.is_joker for t in row):
            continue
        old = read_set(row, rules.wrap_runs)
        reals = [t for t in row if not t.is_joker]
        homes = {where.get(t.id) for t in reals}
        index = next(iter(homes)) if len(homes) == 1 else None
        if index is not None and _swapped_only(old, after[index], readings[index]):
            continue
        if index is None:
            # Its tiles went to several sets: the error is tied to the one holding its
            # joker, so the page marks a set while the player arranges (it marked none).
            jokers = {where.get(t.id) for t in row if t.is_joker} - {None}
            index = jokers.pop() if len(jokers) == 1 else None
        shown = " ".join(t.code for t in old.tiles)
        first.append(
            TurnProblem(
                index,
                f"{_set_name(index) + ': ' if index is not None else ''}the set {shown} holds a "
                "joker and is locked: it may only change by swapping the joker for its tile",
            )
        )
    errors[0:0] = first


def _swapped_only(old: SetReading, new_row: Sequence[Tile], new: SetReading) -> bool:
    if {t.id for t in new_row} == {t.id for t in old.tiles}:
        return True
    if not new.valid or new.kind != old.kind or len(new_row) != len(old.tiles):
        return False
    old_ids = {t.id for t in old.tiles}
    allowed = set().union(*(old.joker_faces(i) for i, t in enumerate(old.tiles) if t.is_joker))
    for tile in new_row:
        if tile.id in old_ids:
            continue
        if tile.is_joker or tile.face not in allowed:
            return False
    if old.kind == "run":
        return new.numbers == old.numbers and new.colour == old.colour
    return new.number == old.number


def check_codes(
    before: Sequence[Sequence[str]],
    after: Sequence[Sequence[str]],
    rack: Sequence[str],
    *,
    opened: bool,
    rules: Rules | None = None,
    threshold: int | None = None,
) -> TurnCheck:
    """:func:`check_turn` for tiles given as codes (``"R5"``, ``"J"``), as the CLI takes them.

    Copies are told apart by where they are: a code in ``after`` is matched first to an
    unused tile of that code from the start-of-turn set its row shares most codes with
    (so a set left as it was keeps its own tiles), then from the rest of the table,
    then from the rack.
    """
    pools: dict[str, list[Tile]] = {}
    used: set[int] = set()
    for row in [*before, rack]:
        for code in row:
            face = parse_face(code)
            tile = _free_copy(face, used)
            used.add(tile.id)
            pools.setdefault(face.code, []).append(tile)
    # Rebuild the rows in the order given, each code's copies in turn.
    cursor: dict[str, int] = {}

    def take(code: str) -> Tile:
        face = parse_face(code)
        i = cursor.get(face.code, 0)
        cursor[face.code] = i + 1
        return pools[face.code][i]

    before_tiles = [[take(c) for c in row] for row in before]
    rack_tiles = [take(c) for c in rack]
    # after: a code takes the copy from the table set its row shares most numbered tiles
    # with (jokers move about; an unchanged set comes first, so it keeps its own tiles
    # wherever it is listed), then any table copy, then the rack's, then an outsider.
    after_faces = [[parse_face(code) for code in row] for row in after]
    table_left = [list(row) for row in before_tiles]
    before_counts = [Counter(t.face for t in row) for row in before_tiles]
    holders: dict[Face, list[int]] = {}
    for b, counts in enumerate(before_counts):
        for face in counts:
            holders.setdefault(face, []).append(b)
    pairs = []
    for i, faces in enumerate(after_faces):
        shared: Counter[int] = Counter()
        numbered: Counter[int] = Counter()
        for face, k in Counter(faces).items():
            for b in holders.get(face, ()):
                n = min(k, before_counts[b][face])
                shared[b] += n
                if not face.is_joker:
                    numbered[b] += n
        for b, n in numbered.items():
            pairs.append((-n, len(faces) + len(before_tiles[b]) - 2 * shared[b], i, b))
    slots: list[list[Tile | None]] = [[None] * len(faces) for faces in after_faces]
    if rules is not None and rules.locked_jokers:
        # A locked set's numbered tiles must stay together: they are the proposed set's
        # that holds them all, the closest in size to the locked set where several could
        # (two runs alike, as when its joker is swapped beside a copy of the same run).
        for b, row in enumerate(before_tiles):
            reals = [t for t in row if not t.is_joker]
            if len(reals) == len(row):
                continue
            need = Counter(t.face for t in reals)
            hosts = [
                i
                for i, faces in enumerate(after_faces)
                if not need - Counter(f for f, t in zip(faces, slots[i], strict=True) if t is None)
            ]
            if hosts:
                host = min(hosts, key=lambda i: (abs(len(after_faces[i]) - len(row)), i))
                for tile in reals:
                    j = next(
                        j
                        for j, face in enumerate(after_faces[host])
                        if face == tile.face and slots[host][j] is None
                    )
                    slots[host][j] = tile
                    table_left[b].remove(tile)
    for _, _, i, b in sorted(pairs):
        for j, face in enumerate(after_faces[i]):
            tile = next((t for t in table_left[b] if t.face == face), None)
            if slots[i][j] is None and tile is not None:
                table_left[b].remove(tile)
                slots[i][j] = tile
    spare_table = [t for row in table_left for t in row]
    rack_left = list(rack_tiles)
    outside: set[int] = set()
    after_tiles = []
    for faces, row_slots in zip(after_faces, slots, strict=True):
        out = []
        for face, tile in zip(faces, row_slots, strict=True):
            if tile is None:
                for source in (spare_table, rack_left):
                    tile = next((t for t in source if t.face == face), None)
                    if tile is not None:
                        source.remove(tile)
                        break
                else:
                    tile = _free_copy(face, used | outside)
                    outside.add(tile.id)
            out.append(tile)
        after_tiles.append(out)
    result = check_turn(
        before_tiles, after_tiles, rack_tiles, opened=opened, rules=rules, threshold=threshold
    )
    if result.ok or rules is None or not rules.locked_jokers:
        return result
    # Which set a copy came from matters for locked sets. Where both copies of a code in
    # a locked set were in play, try the other way round until a reading is legal.
    locked = {t.code for row in before_tiles if any(t.is_joker for t in row) for t in row}
    spots: dict[str, list[tuple[int, int]]] = {}
    for i, row in enumerate(after_tiles):
        for j, tile in enumerate(row):
            if tile.code in locked and len(pools[tile.code]) == 2:
                spots.setdefault(tile.code, []).append((i, j))
    codes = sorted(spots)
    if len(codes) > MAX_COPY_SWAPS:
        return result
    for mask in range(1, 2 ** len(codes)):
        rows = [list(row) for row in after_tiles]
        for bit, code in enumerate(codes):
            if mask >> bit & 1:
                first, second = pools[code]
                for i, j in spots[code]:
                    rows[i][j] = second if rows[i][j] == first else first
        attempt = check_turn(
            before_tiles, rows, rack_tiles, opened=opened, rules=rules, threshold=threshold
        )
        if attempt.ok:
            return attempt
    return result


def _free_copy(face: Face, used: set[int]) -> Tile:
    for copy in (0, 1):
        tile = Tile.of(face, copy)
        if tile.id not in used:
            return tile
    raise TileError(f"there are only two {face.code} tiles in the game")


# ----- describing a play (for the log and for animation) -----


def _settle_home(table: Table, rows: Table, origin: dict[int, int]) -> dict[int, int]:
    """For each row of a play's table that continues a table set, that set: the one with
    the very same tiles first, then the same faces, then the one it shares most faces
    with (at least half of that set's), each set continued by one row at most; between
    sets alike in faces, the one whose very tiles the row holds most of. ``origin``: each
    table tile's set."""
    fkey = FACE_KEY
    home: dict[int, int] = {}
    rest = []
    for i, row in enumerate(rows):
        s = origin.get(row[0].id) if row else None
        if s is not None and len(row) == len(table[s]) and all(origin.get(t.id) == s for t in row):
            home[i] = s
        else:
            rest.append(i)
    if not rest:
        return home
    taken = set(home.values())
    free_sets: dict[tuple[int, ...], list[int]] = {}
    for s, row in enumerate(table):
        if s not in taken:
            free_sets.setdefault(face_signature(row), []).append(s)

    def own(i: int, s: int) -> int:
        """How many of row ``i``'s very tiles come from table set ``s``."""
        return sum(1 for t in rows[i] if origin.get(t.id) == s)

    unmatched = []
    for i in rest:
        same = free_sets.get(face_signature(rows[i]))
        if same:
            s = max(same, key=lambda s: (own(i, s), -s))
            same.remove(s)
            home[i] = s
        else:
            unmatched.append(i)
    left = {s for sets in free_sets.values() for s in sets}
    if unmatched and left:
        # face -> [(set, copies of the face in it)], for the sets not matched yet
        holders: dict[int, list[tuple[int, int]]] = {}
        for s in left:
            for f, n in Counter(fkey[t.id] for t in table[s]).items():
                holders.setdefault(f, []).append((s, n))
        pairs = []
        for i in unmatched:
            shared: dict[int, int] = {}
            for f, n in Counter(fkey[t.id] for t in rows[i]).items():
                for s, m in holders.get(f, ()):
                    shared[s] = shared.get(s, 0) + min(n, m)
            for s, common in shared.items():
                if common * 2 >= len(table[s]):
                    pairs.append((-common, -own(i, s), s, i))
        pairs.sort()
        for _, _, s, i in pairs:
            if s in left and i not in home:
                home[i] = s
                left.discard(s)
    return home


def settle_table(before: Table, after: Table, rules: Rules | None = None) -> list[list[Tile]]:
    """``after`` (a play's table) put the way a player would leave the table: each row
    that continues a table set (``_settle_home``) takes its place, in the table's order,
    and new sets come after; of two copies of a face (or the two jokers) on the table,
    the one that was in a row's set is the one in that row, so a tile does not seem to
    move when only its twin did (with locked jokers, a set holding a joker keeps its very
    tiles, as the turn check reads them); a group keeps its tiles' order, added tiles
    after. The same faces in the same places: the play is unchanged, and a bot's turn
    (``play_steps``) shows only the tiles that really move."""
    table, rows = before, after
    frozen = (
        {t.id for row in table if any(t.is_joker for t in row) for t in row}
        if rules is not None and rules.locked_jokers
        else set()
    )
    fkey = FACE_KEY
    origin = {t.id: s for s, row in enumerate(table) for t in row}
    home = _settle_home(table, rows, origin)
    out = [list(row) for row in rows]
    # Copies: each place takes the copy that was in its row's table set, when one is free.
    # Rows holding only their own set's tiles are right as they are.
    mixed = [
        i for i, row in enumerate(rows) if any(origin.get(t.id, -1) != home.get(i) for t in row)
    ]
    places: dict[int, list[tuple[int, int]]] = {}
    for i in mixed:
        for j, t in enumerate(rows[i]):
            if t.id not in frozen:
                places.setdefault(fkey[t.id], []).append((i, j))
    for spots in places.values():
        if len(spots) < 2:
            continue
        pool = [out[i][j] for i, j in spots]
        chosen: dict[tuple[int, int], Tile] = {}
        for i, j in spots:
            want = home.get(i)
            tile = next((t for t in pool if want is not None and origin.get(t.id) == want), None)
            if tile is not None:
                pool.remove(tile)
                chosen[(i, j)] = tile
        for i, j in spots:
            if (i, j) not in chosen:
                tile = out[i][j] if out[i][j] in pool else pool[0]
                pool.remove(tile)
                chosen[(i, j)] = tile
        for (i, j), tile in chosen.items():
            out[i][j] = tile
    # A group keeps the order its tiles had on the table.
    for i, s in home.items():
        row = out[i]
        if row == table[s]:
            continue
        reals = [t for t in row if not t.is_joker]
        if len(reals) < len(row) - 1 or len({t.number for t in reals}) != 1:
            continue  # a run (or two jokers and a tile): its order is its numbers
        place = {t.id: k for k, t in enumerate(table[s])}
        out[i] = sorted(row, key=lambda t: place.get(t.id, len(place)))
    ordered = sorted(home, key=home.__getitem__)
    return [out[i] for i in ordered] + [out[i] for i in range(len(out)) if i not in home]


def play_steps(before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]]) -> list[dict]:
    """Tile moves that turn ``before`` into ``after``, for animation.

    Each step is ``{"tile": id, "from": "rack" | {"set": i, "index": j},
    "to": {"set": i, "index": j}}`` with indices into the before and after tables.
    Tiles that stay in a set that is otherwise kept are not listed.
    """
    where = {t.id: (i, j) for i, row in enumerate(before) for j, t in enumerate(row)}
    home = _matching_sets(before, after)
    steps = []
    for i, row in enumerate(after):
        for j, tile in enumerate(row):
            origin = where.get(tile.id)
            if origin is not None and home.get(i) == origin[0]:
                continue
            steps.append(
                {
                    "tile": tile.id,
                    "from": "rack" if origin is None else {"set": origin[0], "index": origin[1]},
                    "to": {"set": i, "index": j},
                }
            )
    return steps


def _matching_sets(
    before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]]
) -> dict[int, int]:
    """For each after set, the before set it continues (the one it shares most tiles with)."""
    owner = {t.id: i for i, row in enumerate(before) for t in row}
    home: dict[int, int] = {}
    claimed: set[int] = set()
    for i, row in enumerate(after):
        counts: dict[int, int] = {}
        for t in row:
            if t.id in owner:
                counts[owner[t.id]] = counts.get(owner[t.id], 0) + 1
        if counts:
            best = max(counts, key=lambda k: (counts[k], -k))
            if best not in claimed and counts[best] * 2 >= len(before[best]):
                home[i] = best
                claimed.add(best)
    return home


def _joker_swaps(
    before: Sequence[Sequence[Tile]], home: int | None, row: Sequence[Tile], new: Sequence[Tile]
) -> tuple[list[Tile], list[Tile]]:
    """The rack tiles of ``new`` that took the place of a joker set ``home`` of ``before``
    gave up (each the tile that joker stood for), and those jokers."""
    if home is None:
        return [], []
    kept = {t.id for t in row}
    gone = [t for t in before[home] if t.is_joker and t.id not in kept]
    if not gone:
        return [], []
    reading = read_set(before[home])
    if reading.kind is None:  # a run that wraps from 13 to 1 (the variant)
        reading = read_set(before[home], wrap=True)
    stood = {t.id: code for t, code in zip(reading.tiles, reading.stands_for, strict=True)}
    ins: list[Tile] = []
    jokers: list[Tile] = []
    for joker in gone:
        options = (stood.get(joker.id) or "").split("/")
        taken = {t.id for t in ins}
        tile = next((t for t in new if t.code in options and t.id not in taken), None)
        if tile is not None:
            ins.append(tile)
            jokers.append(joker)
    return ins, jokers


def describe_play(
    name: str | None, before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]]
) -> str:
    """A short log line: ``Computer 1 laid R10 B10 Y10 and added K7 to K4 K5 K6``
    (:func:`narrate_play`'s line)."""
    return narrate_play(name, before, after)[0]


def narrate_play(
    name: str | None, before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]]
) -> tuple[str, list[Tile]]:
    """A short log line, and the tiles it lays in the order it names them (a hint lists
    them so): ``Computer 1 laid R10 B10 Y10 and added K7 to K4 K5 K6``.

    A set added to is named by the tiles it had and still has, and a new set that
    takes a tile or two from the table, or tiles from more than one table set, is named
    whole, with the tiles it took (``made K6 K7 K8 (K7 from the table)``), and a set
    added to with tiles from other table sets names them (``added B8 to B11 B12 (with B9
    J from the table)``); "rearranged the table" says that other table tiles moved. A set
    that gave up a joker for the tile it stood for is named whole, as it was (``swapped
    Y12 for the J in Y11 J Y13``).
    Never a set's number: a later play that rearranges the table renumbers the sets, and
    the line is read after that (in the log, and in the summary when the player's turn
    comes round). With ``name`` None the line tells a player what to do, for a hint:
    ``lay R10 B10 Y10 and add K7 to K4 K5 K6``.
    """
    origin = {t.id: s for s, row in enumerate(before) for t in row}
    place = {t.id: k for row in before for k, t in enumerate(row)}
    home = _matching_sets(before, after)
    laid, added, swapped, made = [], [], [], []
    # The new tiles each part names, in its order.
    laid_new: list[Tile] = []
    added_new: list[Tile] = []
    swapped_new: list[Tile] = []
    made_new: list[Tile] = []
    moved: set[int] = set()  # table tiles that changed sets
    explained: set[int] = set()  # of those, the ones a new set took (said with it)
    for i, row in enumerate(after):
        new = [t for t in row if t.id not in origin]
        old = [t for t in row if t.id in origin]
        strays = [t for t in old if origin[t.id] != home.get(i)]  # from other table sets
        moved.update(t.id for t in strays)
        # A new set: rack tiles alone, or with a tile or two taken from the table, or with
        # tiles taken from several table sets (K9, K10 and K11 out of three groups, with
        # K8: "made K8 K9 K10 K11 (K9 K10 K11 from the table)"; it was named as a set
        # "K9 K11 K10" added to, which the table never held).
        sources = {origin[t.id] for t in old}
        if i not in home and new and (len(old) < 3 or len(sources) > 1):
            if old:
                taken = " ".join(t.code for t in old)
                made.append(f"{' '.join(t.code for t in row)} ({taken} from the table)")
                made_new.extend(new)
                explained.update(t.id for t in old)
            else:
                laid.append(" ".join(t.code for t in row))
                laid_new.extend(new)
        elif (new or strays) and (won := _joker_swaps(before, home.get(i), row, new + strays))[0]:
            # A joker won back by the tile it stood for: the set is named as it was, joker
            # and all ("Y11 Y13", what it kept, reads as no set at all); tiles added to it
            # besides, to the set it then is. The tile may come from another table set
            # (``swapped R13 for the J in Y13 K13 J (R13 from the table)``): told only as
            # "rearranged the table", a joker taken from a locked set went unsaid.
            ins, jokers = won
            whole = " ".join(t.code for t in before[home[i]])
            them = "the J" if len(jokers) == 1 else "the jokers"
            line = f"{' '.join(t.code for t in ins)} for {them} in {whole}"
            taken = [t for t in ins if t.id in origin]
            if taken:
                line += f" ({' '.join(t.code for t in taken)} from the table)"
                explained.update(t.id for t in taken)
            swapped.append(line)
            swapped_new.extend(t for t in ins if t.id not in origin)
            swapped_in = {t.id for t in ins}
            rest = [t for t in new if t.id not in swapped_in]
            if rest:
                others = {t.id for t in rest}
                named = " ".join(t.code for t in row if t.id not in others)
                added.append(f"{' '.join(t.code for t in rest)} to {named}")
                added_new.extend(rest)
        elif new:  # added to a set, or to a part of one split up: named by its own tiles,
            # in their order on the table before the play (as the player sees them)
            own = [t for t in old if origin[t.id] == home.get(i)] or old
            own.sort(key=lambda t: (origin[t.id], place[t.id]))
            line = f"{' '.join(t.code for t in new)} to {' '.join(t.code for t in own)}"
            # Tiles it took from other table sets are named with it ("B8 to B11 B12" read
            # as a set that cannot be, when B9 and a joker came along to fill the gap).
            if i in home and strays:
                line += f" (with {' '.join(t.code for t in strays)} from the table)"
                explained.update(t.id for t in strays)
            added.append(line)
            added_new.extend(new)
    rearranged = bool(moved - explained)
    told = name is None  # a hint: what to do, not what was done
    parts = []
    if laid:
        parts.append(("lay " if told else "laid ") + ", ".join(laid))
    if swapped:
        parts.append(("swap " if told else "swapped ") + ", ".join(swapped))
    if added:
        parts.append(("add " if told else "added ") + ", ".join(added))
    if made:
        parts.append(("make " if told else "made ") + ", ".join(made))
    if rearranged:
        parts.append(("rearrange" if told else "rearranged") + " the table")
    if not parts:  # pragma: no cover - a legal play always places a tile
        parts.append("play" if told else "played")
    line = " and ".join(parts)
    order = laid_new + swapped_new + added_new + made_new
    return (line if told else f"{name} {line}"), order
