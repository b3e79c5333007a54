"""Property tests (hypothesis) across random complete rounds played by random legal actions:
every tile is always in exactly one place, every rejected action leaves the state byte for
byte unchanged, save -> load -> save is identical, and a replay from the seed and the
action log gives the same state. Plus properties of set reading."""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from py_engine.rounds import IllegalAction, Match, Round
from py_engine.rules import Rules
from py_engine.sets import read_set
from py_engine.tiles import Colour, Face, Tile, parse_tiles
from py_engine.turns import check_codes

# The random player's choices come from a seeded Random: hypothesis's own randoms lean
# towards 0.0, which would make every round end in a resignation on the first turn.
CHOICES = st.integers(0, 2**32)

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

RULES = st.builds(
    Rules,
    players=st.integers(2, 4),
    opening=st.sampled_from([30, 30, 50]),
    joker_penalty=st.sampled_from([30, 25]),
    wrap_runs=st.booleans(),
    locked_jokers=st.booleans(),
    easing_opening=st.booleans(),
    last_call=st.booleans(),
    no_winner_when_blocked=st.booleans(),
    target=st.sampled_from([0, 200]),
)


# What the random player has done, to check that it does exercise every kind of move.
MOVES: Counter[str] = Counter()


def snapshot(game: Round) -> str:
    return json.dumps(game.state(), sort_keys=True)


# ----- a random legal player -----------------------------------------------------------------


def rack_sets(rack: list[Tile], rng: random.Random) -> list[list[Tile]]:
    """Candidate sets from a rack: groups, runs, and either with one joker added."""
    reals = [t for t in rack if not t.is_joker]
    jokers = [t for t in rack if t.is_joker]
    rng.shuffle(reals)
    found: list[list[Tile]] = []
    by_number: dict[int, dict[Colour, Tile]] = defaultdict(dict)
    by_colour: dict[Colour, dict[int, Tile]] = defaultdict(dict)
    for t in reals:
        by_number[t.number].setdefault(t.colour, t)
        by_colour[t.colour].setdefault(t.number, t)
    for tiles in by_number.values():
        group = list(tiles.values())
        if len(group) >= 3:
            found.append(group[: rng.choice([3, len(group)])])
        elif len(group) == 2 and jokers:
            found.append([*group, jokers[0]])
    for tiles in by_colour.values():
        numbers = sorted(tiles)
        streak: list[int] = []
        for n in [*numbers, None]:
            if n is not None and streak and n == streak[-1] + 1:
                streak.append(n)
                continue
            if len(streak) >= 3:
                start = rng.randrange(len(streak) - 2)
                end = rng.randrange(start + 3, len(streak) + 1)
                found.append([tiles[k] for k in streak[start:end]])
            elif len(streak) == 2 and jokers:
                found.append([tiles[k] for k in streak] + [jokers[-1]])
            streak = [n] if n is not None else []
    rng.shuffle(found)
    return found


def random_play(game: Round, rng: random.Random) -> list[list[Tile]] | None:
    """A random legal end-of-turn table for the current player, or None."""
    p = game.current
    rules = game.rules
    rack = list(game.racks[p])
    table = [list(row) for row in game.table]
    used: set[int] = set()
    new_sets = []
    for candidate in rack_sets(rack, rng):
        if any(t.id in used for t in candidate) or rng.random() < 0.2:
            continue
        if read_set(candidate, rules.wrap_runs).valid:
            new_sets.append(candidate)
            MOVES["new set"] += 1
            used |= {t.id for t in candidate}
    if not game.opened[p]:
        value = sum(read_set(s, rules.wrap_runs).value for s in new_sets)
        if not new_sets or value < game.threshold(p):
            return None
        return table + new_sets
    # After opening: also add rack tiles to table sets, split runs, swap jokers out.
    for index in rng.sample(range(len(table)), len(table)):
        row = table[index]
        reading = read_set(row, rules.wrap_runs)
        locked = rules.locked_jokers and any(t.is_joker for t in row)
        spare = [t for t in rack if t.id not in used and not t.is_joker]
        if locked:
            continue
        if reading.kind == "run":
            low, high = reading.numbers[0], reading.numbers[-1]
            for t in spare:
                if len(row) >= 13 or t.colour != reading.colour:
                    continue
                if t.number == high + 1 and high < 13:
                    row.append(t)
                elif t.number == low - 1 and low > 1:
                    row.insert(0, t)
                else:
                    continue
                used.add(t.id)
                MOVES["run extended"] += 1
                low, high = read_set(row, rules.wrap_runs).numbers[:: len(row) - 1]
            # Split: a rack tile repeating a middle number starts a second run.
            for t in [t for t in rack if t.id not in used and not t.is_joker]:
                if t.colour != reading.colour or t.number not in reading.numbers:
                    continue
                i = list(read_set(row, rules.wrap_runs).numbers).index(t.number)
                if i >= 2 and len(row) - i >= 3 and rng.random() < 0.7:
                    table[index], rest = row[: i + 1], row[i + 1 :]
                    table.append([t, *rest])
                    used.add(t.id)
                    MOVES["run split"] += 1
                    break
        elif reading.kind == "group" and len(row) < 4:
            for t in spare:
                if t.number == reading.number and t.colour not in {r.colour for r in row}:
                    row.append(t)
                    used.add(t.id)
                    MOVES["group extended"] += 1
                    break
    # Joker retrieval: put the tile it stands for in its place, the joker onto a run.
    if rng.random() < 0.5:
        swap_a_joker(table, rack, used, rules, rng)
    after = table + new_sets
    return after if used else None


def swap_a_joker(table, rack, used, rules, rng):
    for index, row in enumerate(table):
        reading = read_set(row, rules.wrap_runs)
        for pos, t in enumerate(row):
            if not t.is_joker or not reading.valid:
                continue
            faces = reading.joker_faces(pos)
            real = next((r for r in rack if r.id not in used and r.face in faces), None)
            if real is None:
                continue
            homes = [
                k
                for k, other in enumerate(table)
                if k != index
                and read_set(other, rules.wrap_runs).kind == "run"
                and len(other) < 13
                and sum(o.is_joker for o in other) < 2
                and not (rules.locked_jokers and any(o.is_joker for o in other))
            ]
            if not homes:
                return
            row[pos] = real
            used.add(real.id)
            MOVES["joker retrieved"] += 1
            table[rng.choice(homes)].append(t)
            return


def illegal_attempts(game: Round, rng: random.Random):
    """Actions that must be refused now, each as a zero-argument callable."""
    p = game.current
    n = game.players
    table = [list(row) for row in game.table]
    rack = list(game.racks[p])
    others = [q for q in range(n) if q != p]
    other = rng.choice(others)
    attempts = [
        lambda: game.draw(player=other),
        lambda: game.pass_(player=other),
        lambda: game.timeout(None, player=other),
        lambda: game.play(table, player=other),
        lambda: game.play(table),  # no rack tile
        lambda: game.play([*table, [rack[0]]]),  # a one-tile set
        lambda: game.play([*table, [rack[0]] * 3]),  # one tile three times
        lambda: game.play([*table, list(game.racks[other][:3])]),  # someone else's tiles
        lambda: game.apply({"action": "play", "player": p, "table": [[999]]}),
        lambda: game.apply({"action": "play", "player": p, "table": "R1 R2 R3"}),
        lambda: game.apply({"action": "play", "player": p, "table": [["R1"]]}),
        lambda: game.apply({"action": "jump", "player": p}),
        lambda: game.apply({"action": "draw", "player": other}),
        lambda: game.apply(["draw"]),
        lambda: game.resign(n),
        lambda: game.resign(-1),
    ]
    if game.pool:
        attempts.append(game.pass_)
    else:
        attempts.append(game.draw)
    if table:
        # Lose a table tile, putting a rack tile in its place.
        short = [list(row) for row in table]
        short[rng.randrange(len(short))].pop()
        attempts.append(lambda: game.play([*short, [rack[0]]]))
        if not game.opened[p]:
            grown = [list(row) for row in table]
            grown[0].append(rack[0])
            attempts.append(lambda: game.play(grown))
    resigned = [q for q in range(n) if game.resigned[q]]
    if resigned:
        attempts.append(lambda: game.resign(resigned[0]))
    return attempts


def refused_without_change(game: Round, attempt) -> None:
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        attempt()
    assert snapshot(game) == before


def check_places(game: Round) -> None:
    places = game.tile_places()  # raises when a tile is in two places
    assert sorted(places) == list(range(106))
    for row in game.table:
        assert read_set(row, game.rules.wrap_runs).valid


def take_turn(game: Round, rng: random.Random, cross_check: bool = True) -> str:
    """One random legal action by the current player (or a resignation)."""
    roll = rng.random()
    if roll < 0.004:
        active = game.active_players()
        game.resign(rng.choice(active))
        return "resign"
    table = random_play(game, rng)
    if table is not None:
        check = game.check(table)
        assert check.ok, [e.message for e in check.errors]
        if cross_check:
            # The code-only checker (the CLI's) agrees with the id checker.
            by_codes = check_codes(
                [[t.code for t in row] for row in game.table],
                [[t.code for t in row] for row in table],
                [t.code for t in game.racks[game.current]],
                opened=game.opened[game.current],
                rules=game.rules,
                threshold=game.threshold(game.current),
            )
            assert by_codes.ok, [e.message for e in by_codes.errors]
    if roll < 0.10:
        what, _ = game.timeout(None if table is None or roll < 0.04 else table)
        return what
    if roll < 0.15:
        rack = game.racks[game.current]
        what, _ = game.timeout([*game.table, [rack[0]]])
        assert what == "penalty"
        return what
    if table is not None and rng.random() < 0.9:
        game.play(table)
        return "play"
    return "draw" if game.draw_or_pass() is not None else "pass"


def play_round(game: Round, rng: random.Random, each_step=None, max_turns: int = 1000) -> None:
    for _ in range(max_turns):
        if game.is_over:
            return
        take_turn(game, rng)
        if each_step is not None:
            each_step(game)
    raise AssertionError("the round did not end")


# ----- the properties ---------------------------------------------------------------------------


@SETTINGS
@given(rules=RULES, seed=st.integers(0, 10**6), choices=CHOICES)
def test_every_tile_is_always_in_exactly_one_place(rules, seed, choices):
    rng = random.Random(choices)
    game = Round(rules, seed)
    check_places(game)
    play_round(game, rng, check_places)
    assert game.outcome is not None
    assert len(game.outcome.scores) == rules.players


@SETTINGS
@given(rules=RULES, seed=st.integers(0, 10**6), choices=CHOICES)
def test_every_rejected_action_leaves_the_state_unchanged(rules, seed, choices):
    rng = random.Random(choices)
    game = Round(rules, seed)

    def try_illegal(game):
        if game.is_over:
            return
        refused_without_change(game, rng.choice(illegal_attempts(game, rng)))

    play_round(game, rng, try_illegal)
    # After the end, every verb is refused.
    p = game.current
    for attempt in [
        game.draw,
        game.pass_,
        game.draw_or_pass,
        lambda: game.play([list(row) for row in game.table]),
        lambda: game.timeout(None),
        lambda: game.resign(p),
        lambda: game.apply({"action": "draw", "player": p}),
    ]:
        refused_without_change(game, attempt)


@SETTINGS
@given(rules=RULES, seed=st.integers(0, 10**6), choices=CHOICES)
def test_save_load_save_is_identical_at_every_point(rules, seed, choices):
    rng = random.Random(choices)
    match = Match(rules, seed)

    def round_trip(game):
        if rng.random() < 0.05 or game.is_over:
            text = match.dumps()
            assert Match.loads(text).dumps() == text

    for _ in range(2):
        play_round(match.round, rng, round_trip)
        if match.is_over:
            break
        match.next_round()
    text = match.dumps()
    loaded = Match.loads(text)
    assert loaded.dumps() == text
    assert loaded.totals == match.totals
    assert loaded.is_over == match.is_over


@SETTINGS
@given(rules=RULES, seed=st.integers(0, 10**6), choices=CHOICES)
def test_replay_from_seed_and_actions_gives_the_same_state(rules, seed, choices):
    rng = random.Random(choices)
    game = Round(rules, seed)
    stop = rng.randrange(5, 400)
    for _ in range(stop):
        if game.is_over:
            break
        take_turn(game, rng, cross_check=False)
    again = Round(rules, seed)
    for action in json.loads(json.dumps(game.actions)):
        again.apply(action)
    assert snapshot(again) == snapshot(game)


def test_the_random_player_exercises_every_kind_of_move_and_ending():
    MOVES.clear()
    endings: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    for seed in range(40):
        rules = Rules(players=2 + seed % 3, locked_jokers=seed % 4 == 0, last_call=seed % 5 == 0)
        game = Round(rules, seed)
        rng = random.Random(seed)
        while not game.is_over:
            actions[take_turn(game, rng, cross_check=False)] += 1
        endings[game.outcome.reason.value] += 1
    assert set(endings) == {"went_out", "blocked", "resigned"}, endings
    assert set(actions) == {"play", "draw", "pass", "penalty", "resign"}, actions
    kinds = {"new set", "run extended", "group extended", "run split", "joker retrieved"}
    assert set(MOVES) == kinds, MOVES


# ----- set reading ------------------------------------------------------------------------------


@st.composite
def runs(draw, wrap=False):
    colour = draw(st.sampled_from(list(Colour)))
    length = draw(st.integers(3, 13))
    start = draw(st.integers(1, 13 if wrap else 14 - length))
    numbers = [(start + i - 1) % 13 + 1 for i in range(length)]
    jokers = draw(st.sets(st.integers(0, length - 1), max_size=min(2, length - 1)))
    codes = ["J" if i in jokers else f"{colour.letter}{n}" for i, n in enumerate(numbers)]
    return codes, numbers


@st.composite
def groups(draw):
    number = draw(st.integers(1, 13))
    colours = draw(st.permutations(list(Colour)))
    size = draw(st.sampled_from([3, 4]))
    jokers = draw(st.sets(st.integers(0, size - 1), max_size=1 if size == 3 else 2))
    codes = ["J" if i in jokers else Face(c, number).code for i, c in enumerate(colours[:size])]
    return codes, number


@settings(max_examples=300, deadline=None)
@given(runs())
def test_a_run_in_order_is_read_by_position(run):
    codes, numbers = run
    reading = read_set(parse_tiles(codes))
    assert reading.valid, (codes, reading.problem)
    assert reading.kind == "run"
    assert list(reading.numbers) == numbers
    assert reading.value == sum(numbers)
    assert reading.codes() == codes


@settings(max_examples=300, deadline=None)
@given(runs(wrap=True))
def test_a_wrap_around_run_in_order_is_read_by_position(run):
    codes, numbers = run
    reading = read_set(parse_tiles(codes), wrap=True)
    assert reading.valid, (codes, reading.problem)
    assert list(reading.numbers) == numbers
    assert reading.value == sum(numbers)  # 1 after 13 still counts 1


@settings(max_examples=300, deadline=None)
@given(groups())
def test_a_group_is_valid_in_any_order(group):
    codes, number = group
    reading = read_set(parse_tiles(codes))
    assert reading.valid, (codes, reading.problem)
    assert reading.kind == "group"
    assert reading.value == number * len(codes)


@settings(max_examples=300, deadline=None)
@given(runs(), st.randoms(use_true_random=False))
def test_a_shuffled_run_is_still_valid_and_put_back_in_order(run, rng):
    codes, _ = run
    tiles = parse_tiles(codes)
    shuffled = list(tiles)
    rng.shuffle(shuffled)
    reading = read_set(shuffled)
    assert reading.valid, ([t.code for t in shuffled], reading.problem)
    assert reading.kind == "run"
    assert sorted(t.id for t in reading.tiles) == sorted(t.id for t in tiles)
    first = reading.numbers[0]
    assert list(reading.numbers) == list(range(first, first + len(codes)))
    if "J" not in codes:
        assert reading.codes() == codes
    # Reading the stored row again changes nothing.
    again = read_set(reading.tiles)
    assert again.tiles == reading.tiles
    assert again.value == reading.value
