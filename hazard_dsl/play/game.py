"""Playing games on the compiled machine, throw by throw.

`play` follows the machine: at a choice state it asks the policy, at a throw state it asks
the dice, and it yields one `ChoiceMade` or `Thrown` record per event. It knows nothing of any
particular variant; narration and JSON are rendered from the records elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterator

import numpy as np

from ..compile.machine import CHOICE, END, Machine, State, Step, outcome_index
from ..solve.markov import Solver
from .dice import TapeEnded


@dataclass(frozen=True)
class ChoiceMade:
    game: int
    state: State
    value: object
    step: Step


@dataclass(frozen=True)
class Thrown:
    game: int
    number: int  # the throw's number within its game, from 1
    dice: tuple
    state: State  # where the throw was made
    step: Step  # what it did
    after: State  # where it led
    made: tuple = ()  # bets made (or refused) before the throw
    settled: tuple = ()  # bets decided on it, and fees that fell due

    @property
    def total(self) -> int:
        return self.dice[0] + self.dice[1]

    @property
    def ends_game(self) -> bool:
        return self.after.kind == END


@dataclass(frozen=True)
class TapeRanOut:
    game: int
    throws: int  # throws made in the unfinished game
    state: State


@dataclass
class Chooser:
    """Makes the machine's choices under a solved policy; draws only where the policy is mixed."""

    solver: Solver
    generator: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))

    def pick(self, state: State) -> int:
        distribution = self.solver.policy[state.index]
        if len(distribution) == 1:
            return next(iter(distribution))
        alternatives = sorted(distribution)
        u = Fraction(int(self.generator.integers(0, 2**53)), 2**53)
        cumulative = Fraction(0)
        for k in alternatives:
            cumulative += distribution[k]
            if u < cumulative:
                return k
        return alternatives[-1]


def play(machine: Machine, dice, chooser: Chooser, games: int | None, wagers=None) -> Iterator:
    """Records of `games` games (or, with games=None, as many as the dice allow); `wagers`
    (play.wagers.Wagers), if given, makes and settles bets around each throw."""
    states = machine.states
    game = 0
    while games is None or game < games:
        if games is None and getattr(dice, "exhausted", False):
            return
        game += 1
        state = states[machine.start.target]
        throws = 0
        while True:
            while state.kind == CHOICE:
                k = chooser.pick(state)
                value, step = state.alternatives[k]
                yield ChoiceMade(game, state, value, step)
                state = states[step.target]
            if state.kind == END:
                break
            try:
                d1, d2 = dice.throw()
            except TapeEnded:
                yield TapeRanOut(game, throws, state)
                return
            made = tuple(wagers.before_throw(state)) if wagers is not None else ()
            throws += 1
            step = state.steps[outcome_index(d1, d2)]
            after = states[step.target]
            settled = tuple(wagers.after_throw(state, (d1, d2), after)) if wagers is not None else ()
            yield Thrown(game, throws, (d1, d2), state, step, after, made, settled)
            state = after
