"""The compiled kernel's walk of a lane table, held to a plain loop written here, and its seeded
figures to those it gave before its walk was reworked for speed (issue 39).

The kernel plays eight lanes in registers, a counted run of rounds at a time, notes the rows it
reaches and tallies the tagged ones later; none of that may change what it counts. The loop
below is the specification in plain Python: rounds of every lane in turn, each taking the next
throw of the batched draw's stream (`compiled.draws`, itself held to the arithmetic in
tests/simulate/test_batched_draw.py) until the N-th game has started, then each lane finishing
its game on the `finish` table. Its counts and throws must be the kernel's, row for row."""

from __future__ import annotations

import hashlib
from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("numba", reason="the compiled kernel needs Numba (pip install 'hazard-dsl[fast]')")

from hazard_dsl.commands.requests import BetOrder
from hazard_dsl.simulate import compiled
from hazard_dsl.simulate.engine import not_thrown
from hazard_dsl.simulate.simulation import prepare_games
from tests.conftest import machine

LANES = 8


def walked(table, games: int, seed: np.random.SeedSequence) -> tuple[np.ndarray, int]:
    """(counts, throws) of `games` games by the rules of a chunk, one throw at a time."""
    assert table.start_digits == 1  # the start takes no draw: the stream is the throws alone
    cols = table.columns
    tag, done = table.first_tag * cols, table.first_done * cols
    low, high = table.redraws[0] * cols, table.redraws[1] * cols
    want = int(games * table.mean_throws * 2) + 1000
    stream = compiled.draws(cols, want, seed)
    at = 0

    def throw() -> int:
        nonlocal stream, at
        if at == len(stream):  # a longer stream from the same seed begins with this one
            stream = compiled.draws(cols, 2 * len(stream), seed)
        at += 1
        return int(stream[at - 1])

    counts = np.zeros(table.rows, dtype=np.int64)
    lanes = min(LANES, games)
    state = [int(table.start[0])] * lanes
    started = lanes
    while started < games:
        for j in range(lanes):
            x = int(table.step[state[j] + throw()])
            if x >= tag:
                counts[x // cols] += 1
                if started < games:
                    started += 1
                else:  # a game started after the N-th, in lane order: not among them
                    x = int(table.excluded[x // cols])
            elif low <= x < high:
                counts[x // cols] += 1
            state[j] = x
    for j in range(lanes):
        x = state[j]
        while 0 <= x < done:
            x = int(table.finish[x + throw()])
            if x >= tag or low <= x < high:
                counts[x // cols] += 1
    return counts, at - not_thrown(table, counts)


def _table(name: str, bets=()):
    orders = [BetOrder(bet, amount) for bet, amount in bets]
    return prepare_games(machine(name), 10, 1, bets=orders).tables[0]


@pytest.mark.parametrize("name, games", [
    ("craps", 1), ("craps", 7), ("craps", 8), ("craps", 9), ("craps", 17), ("craps", 3001),
    ("cotton", 4001),  # games of five throws, 36 columns
    ("raffle", 5003),  # one throw a game, 216 columns: every throw a tagged row
    ("passage", 4001),  # three dice until doublets, 72 columns
])
def test_the_kernel_counts_what_a_plain_walk_counts(name, games):
    table = _table(name)
    seed = np.random.SeedSequence(20 + games)
    counts, throws = compiled.run_chunk(table, games, seed)
    expected_counts, expected_throws = walked(table, games, np.random.SeedSequence(20 + games))
    assert throws == expected_throws
    assert np.array_equal(counts, expected_counts)
    assert int(counts[table.first_tag:].sum()) == games


def test_a_game_with_its_bets_walks_the_same():
    """The pass line with odds rides on the game's table (pairs of rows, cycles closed beyond
    the N-th game): the same walk."""
    table = _table("craps", [("pass", Fraction(1)), ("odds", "3-4-5x")])
    counts, throws = compiled.run_chunk(table, 2001, np.random.SeedSequence(5))
    expected_counts, expected_throws = walked(table, 2001, np.random.SeedSequence(5))
    assert (throws, counts.tolist()) == (expected_throws, expected_counts.tolist())


def test_rows_of_draws_thrown_away_are_counted_as_the_plain_walk_counts_them():
    """Dice whose chances share no small denominator throw some draws away (`tables.throws_of`):
    the lane goes to a twin of its row, rows [low, high), counted so that the throws made are the
    draws less those visits. No built-in needs it; the walk must still count those rows and no
    other plain row. Here craps' table with rows 161-260 (a point's first hundred throws) declared
    such rows: any rows will do for the count, the games walked are the same."""
    from hazard_dsl.records import replace

    table = replace(_table("craps"), redraws=(161, 261))
    counts, throws = compiled.run_chunk(table, 3001, np.random.SeedSequence(8))
    expected_counts, expected_throws = walked(table, 3001, np.random.SeedSequence(8))
    assert int(counts[161:261].sum()) > 0
    assert int(counts[:161].sum()) == int(counts[261:table.first_tag].sum()) == 0
    assert (throws, counts.tolist()) == (expected_throws, expected_counts.tolist())


def test_tallies_emptied_along_the_way_count_the_same():
    """The lanes' tallies are int32s, emptied into the counts every 2**30 rounds so that none can
    overflow; here every 3 rounds (a chunk reaches 2**30 only after billions of throws)."""
    from hazard_dsl.simulate import _kernel

    table = _table("craps")
    seed = np.random.SeedSequence(31)
    counts = np.zeros(table.rows, dtype=np.int64)
    draws = _kernel.play(table.step, table.finish, table.start, table.start_digits, table.excluded,
                         table.columns, table.first_tag, table.first_done, table.redraws[0], table.redraws[1],
                         3001, 8, seed.generate_state(4, np.uint64), counts, *compiled._drawing(table.columns), 3)
    expected_counts, expected_throws = walked(table, 3001, np.random.SeedSequence(31))
    assert int(draws) - not_thrown(table, counts) == expected_throws
    assert counts.tolist() == expected_counts.tolist()


# Pinned from the kernel of commit a57f543, before the walk ran counted rounds and tallied the
# tagged rows apart (chunk k of each case seeded SeedSequence(seed, spawn_key=(k,))): throws made,
# the games by ending index, and a digest of every row's count. A change here is a change of the
# seeded figures, which the README promises stay as they are.
PINNED = [
    ("cotton", (), 100_003, 11, 523987, {0: 16207, 1: 14086, 2: 33000, 3: 36710}, "128a2e6a9eb1df2f"),
    ("craps", (), 100_003, 12, 337815, {0: 22158, 1: 11207, 2: 27078, 3: 39560}, "4ff848c7244475c6"),
    ("raffle", (), 50_001, 13, 50001, {0: 1331, 1: 20878, 2: 27792}, "8a0e9abb34b91905"),
    ("passage", (), 50_001, 14, 123405, {0: 27769, 1: 22232}, "ed458a98ed879737"),
    ("craps", (("pass", Fraction(1)), ("odds", "3-4-5x")), 30_001, 15, 100242,
     {0: 6725, 1: 3322, 2: 8152, 3: 11802}, "ba884155da8cd465"),
]


@pytest.mark.parametrize("name, bets, games, seed, throws, by_ending, digest", PINNED)
def test_the_same_seed_gives_the_figures_it_gave_before(name, bets, games, seed, throws, by_ending, digest):
    table = _table(name, bets)
    counts, made = compiled.run_chunk(table, games, np.random.SeedSequence(seed, spawn_key=(0,)))
    ended: dict = {}
    for row in np.flatnonzero(counts):
        ended[int(table.ending[row])] = ended.get(int(table.ending[row]), 0) + int(counts[row])
    assert (made, ended) == (throws, by_ending)
    assert hashlib.sha256(counts.tobytes()).hexdigest()[:16] == digest
