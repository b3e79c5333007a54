"""A play found greedily (rack tiles added to table runs and groups, new sets from the
rack): a quick lower bound, so that ``can_play`` most often answers at once.
"""

from __future__ import annotations

from ..tiles import Tile
from .problem import COLOURS, SCALE, N


def _easy_score(table: list[list[Tile]], rack: list[Tile]) -> int:
    """The score of a play found greedily (rack tiles added to the ends of table runs and
    to groups of three, no jokers, no wrap-around): a lower bound on the best play's score,
    so ``can_play`` answers at once when it places a tile."""
    runs: list[list[int]] = []  # colour, low, high
    groups: list[tuple[int, set[int]]] = []  # number, colours (groups of three)
    for row in table:
        if len(row) < 3 or any(t.id >= 104 for t in row):
            continue
        colours = {t.id % 52 // N for t in row}
        numbers = sorted(t.id % N + 1 for t in row)
        if len(colours) == 1:
            if numbers[-1] - numbers[0] == len(numbers) - 1 and len(set(numbers)) == len(row):
                runs.append([colours.pop(), numbers[0], numbers[-1]])
        elif len(row) == 3 and len(colours) == 3 and numbers[0] == numbers[-1]:
            groups.append((numbers[0], colours))
    left = [(t.id % 52 // N, t.id % N + 1) for t in rack if t.id < 104]
    count = value = 0
    progress = True
    while progress and left:
        progress = False
        # New sets from the rack alone: runs of distinct numbers, then groups.
        for c in range(COLOURS):
            numbers = sorted({n for c2, n in left if c2 == c})
            i = 0
            while i < len(numbers):
                j = i
                while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
                    j += 1
                if j - i >= 2:
                    for n in numbers[i : j + 1]:
                        left.remove((c, n))
                        count += 1
                        value += n
                    runs.append([c, numbers[i], numbers[j]])
                    progress = True
                i = j + 1
        for n in range(1, N + 1):
            colours = {c for c, n2 in left if n2 == n}
            if len(colours) >= 3:
                for c in colours:
                    left.remove((c, n))
                count += len(colours)
                value += n * len(colours)
                if len(colours) == 3:
                    groups.append((n, colours))
                progress = True
        for tile in list(left):
            c, n = tile
            for run in runs:
                if run[0] == c and (run[2] == n - 1 or run[1] == n + 1):
                    if run[2] == n - 1:
                        run[2] = n
                    else:
                        run[1] = n
                    break
            else:
                for number, colours in groups:
                    if number == n and c not in colours and len(colours) == 3:
                        colours.add(c)
                        break
                else:
                    continue
            left.remove(tile)
            count += 1
            value += n
            progress = True
    return count * SCALE + value
