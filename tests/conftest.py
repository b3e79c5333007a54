"""Shared helpers for the engine tests, as fixtures (a plain import of this module would
clash with tests/e2e/conftest.py): rounds laid out by hand, tiles by code, snapshots."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from py_engine.rounds import Round
from py_engine.rules import Rules
from py_engine.tiles import DECK, Tile, assign_ids

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def build_module():
    """build.py, loaded from its file (it is a script at the top of the checkout, not a
    package, and a plain ``import build`` would find PyPI's ``build`` first if installed)."""
    spec = importlib.util.spec_from_file_location("rummikub_build", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def snapshot(game: Round) -> str:
    """The whole state of a round as text, to compare byte for byte."""
    return json.dumps(game.state(), sort_keys=True)


def rig(
    game: Round,
    racks: Sequence[str],
    table: Sequence[str] = (),
    pool: str | None = None,
    current: int = 0,
    opened: Sequence[bool] | None = None,
) -> Round:
    """Lay out a round by hand: racks and table sets given as code strings.

    The tiles get distinct ids (table first, then racks, then the pool). ``pool=None``
    puts every other tile of the game in the pool, so all 106 tiles have a place; the
    pool's last tile is drawn first.
    """
    taken: set[int] = set()
    game.table = assign_ids([row.split() for row in table], taken)
    game.racks = assign_ids([rack.split() for rack in racks], taken)
    if pool is None:
        game.pool = [t for t in DECK if t.id not in taken]
    else:
        game.pool = assign_ids([pool.split()], taken)[0]
    game.current = current
    if opened is not None:
        game.opened = list(opened)
    return game


def rigged(
    racks: Sequence[str],
    table: Sequence[str] = (),
    pool: str | None = None,
    current: int = 0,
    opened: Sequence[bool] | None = None,
    **rules: object,
) -> Round:
    """A new round with ``len(racks)`` players, laid out by :func:`rig`."""
    game = Round(Rules(players=len(racks), **rules), seed=0)  # type: ignore[arg-type]
    return rig(game, racks, table, pool, current, opened)


def lay(game: Round, rows: Sequence[str], player: int | None = None) -> list[list[Tile]]:
    """A proposed table given by codes, using the round's actual tiles.

    Each code takes the first unused tile with that code from the table, then from the
    player's rack (the current player by default).
    """
    p = game.current if player is None else player
    sources = [t for row in game.table for t in row] + list(game.racks[p])
    used: set[int] = set()
    result = []
    for row in rows:
        out = []
        for code in row.split():
            wanted = Tile.parse(code).face
            tile = next(t for t in sources if t.face == wanted and t.id not in used)
            used.add(tile.id)
            out.append(tile)
        result.append(out)
    return result


class Helpers:
    snapshot = staticmethod(snapshot)
    rig = staticmethod(rig)
    rigged = staticmethod(rigged)
    lay = staticmethod(lay)


@pytest.fixture(scope="session")
def by_hand() -> type[Helpers]:
    """``by_hand.rigged([...])``, ``by_hand.lay(game, [...])``, ``by_hand.snapshot(game)``."""
    return Helpers
