"""A small simulation in one call, on the engine of `simulate.engine` (for scripts and tests).

`simulate(machine, games, generator)` plays `games` games on the machine's lane table and
returns the counts of each result and label and the number of games of each length. The
command (`hazard-dsl simulate`) runs the same engine in chunks, in worker processes, with
bets and sessions; see `simulate.simulation`.
"""

from __future__ import annotations

import numpy as np

from ..compile.machine import Machine
from ..records import record
from ..solve.markov import Solver
from .engine import run_chunk
from .tables import game_table


@record
class Simulation:
    games: int
    results: dict  # "win"/"lose"/"push" -> count
    labels: dict  # label -> count
    lengths: np.ndarray  # lengths[n]: games of n throws (the last entry: the cap or more)
    throws: int  # throws made in all

    def rate(self, result: str) -> float:
        return self.results.get(result, 0) / self.games

    def standard_error(self, result: str) -> float:
        p = self.rate(result)
        return float(np.sqrt(p * (1 - p) / self.games))

    @property
    def mean_throws(self) -> float:
        return self.throws / self.games


def simulate(machine: Machine, games: int, generator: np.random.Generator, policy: str = "optimal") -> Simulation:
    solver = Solver(machine)
    solver.set_policy(policy)
    table = game_table(machine, solver, mean_throws=4.0)
    counts, throws = run_chunk(table, games, generator)
    results: dict = {}
    labels: dict = {}
    lengths = np.zeros(table.age_cap + 1, dtype=np.int64)
    for row in np.flatnonzero(counts[table.first_tag:]) + table.first_tag:
        result, label = table.endings[table.ending[row]]
        n = int(counts[row])
        results[result] = results.get(result, 0) + n
        labels[label] = labels.get(label, 0) + n
        lengths[table.age[row]] += n
    return Simulation(games, results, labels, lengths, throws)
