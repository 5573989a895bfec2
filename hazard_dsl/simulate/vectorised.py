"""Monte Carlo on the compiled machine, all games advancing together in NumPy arrays.

The machine becomes two tables: `after_throw[state, outcome]` (the next state for each of the
36 throws) and, for choice states, the alternative the policy picks. Each round, every game
still running throws once. Estimates are floats (they are estimates); the exact answers come
from `hazard_dsl.solve`.
"""

from __future__ import annotations


import numpy as np

from ..compile.machine import CHOICE, END, THROW, Machine
from ..records import record
from ..solve.markov import Solver

MAX_ROUNDS = 100_000


@record
class Simulation:
    games: int
    results: dict  # "win"/"lose"/"push" -> count
    labels: dict  # label -> count
    throws: np.ndarray  # throws per game

    def rate(self, result: str) -> float:
        return self.results.get(result, 0) / self.games

    def standard_error(self, result: str) -> float:
        p = self.rate(result)
        return float(np.sqrt(p * (1 - p) / self.games))


def simulate(machine: Machine, games: int, generator: np.random.Generator, policy: str = "optimal") -> Simulation:
    solver = Solver(machine)
    solver.set_policy(policy)
    n = len(machine.states)
    kind = np.array([{THROW: 0, CHOICE: 1, END: 2}[s.kind] for s in machine.states], dtype=np.int8)
    after_throw = np.zeros((n, 36), dtype=np.int64)
    for s in machine.states:
        if s.kind == THROW:
            after_throw[s.index] = [step.target for step in s.steps]
        else:
            after_throw[s.index] = s.index
    choice_states = [s for s in machine.states if s.kind == CHOICE]

    cumulative = np.cumsum(np.array(machine.dice.weights, dtype=np.int64))
    state = np.full(games, machine.start.target, dtype=np.int64)
    throws = np.zeros(games, dtype=np.int64)
    for _ in range(MAX_ROUNDS):
        state = _settle_choices(state, kind, choice_states, solver, generator)
        running = kind[state] == 0
        if not running.any():
            break
        if machine.dice.fair:
            outcome = generator.integers(0, 36, size=int(running.sum()))
        else:  # loaded dice: an exact draw below the total weight, read off the cumulative weights
            outcome = np.searchsorted(cumulative, generator.integers(0, machine.dice.total, size=int(running.sum())),
                                      side="right")
        state[running] = after_throw[state[running], outcome]
        throws[running] += 1
    ended = machine.states
    results: dict = {}
    labels: dict = {}
    counts = np.bincount(state, minlength=n)
    for index in np.nonzero(counts)[0]:
        s = ended[int(index)]
        if s.kind != END:
            continue
        results[s.result] = results.get(s.result, 0) + int(counts[index])
        labels[s.label] = labels.get(s.label, 0) + int(counts[index])
    return Simulation(games, results, labels, throws)


def _settle_choices(state, kind, choice_states, solver, generator):
    """Move every game sitting at a choice state to the alternative its chooser takes."""
    for _ in range(len(choice_states) + 1):
        at_choice = kind[state] == 1
        if not at_choice.any():
            return state
        for s in choice_states:
            here = np.nonzero(state == s.index)[0]
            if not len(here):
                continue
            policy = solver.policy[s.index]
            picks = sorted(policy)
            weights = np.array([float(policy[k]) for k in picks])
            chosen = generator.choice(len(picks), size=len(here), p=weights / weights.sum())
            targets = np.array([s.alternatives[k][1].target for k in picks])
            state[here] = targets[chosen]
    return state
