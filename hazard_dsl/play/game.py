"""Playing games on the compiled machine, throw by throw.

`play` follows the machine: at a choice state it asks the policy, at a throw state it asks
the dice, and it yields one `ChoiceMade` or `Thrown` record per event. It knows nothing of any
particular variant; narration and JSON are rendered from the records elsewhere.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterator

import numpy as np

from ..compile.machine import CHOICE, END, Machine, State, Step, index_of
from ..records import field, record
from ..solve.markov import Solver
from .casting import throw_at
from .dice import TapeEnded


@record(frozen=True, repr=False)
class ChoiceMade:
    """A choice made by the policy: before a game's first throw, or after a throw (then it
    rides inside that throw's `Thrown.choices`, with the throw's dice)."""

    game: int
    state: State
    value: object
    step: Step
    dice: tuple | None = None  # the throw this choice follows, if any
    after: State | None = None  # where the choice led

    def __repr__(self) -> str:
        return f"<ChoiceMade game {self.game}: the {self.state.chooser} chooses {self.state.variable} = {self.value}>"


@record(frozen=True, repr=False)
class Thrown:
    game: int
    number: int  # the throw's number within its game, from 1
    dice: tuple
    state: State  # where the throw was made
    step: Step  # what it did
    after: State  # where it led (may be a choice state)
    made: tuple = ()  # bets made (or refused) before the throw
    settled: tuple = ()  # bets decided on it, and fees that fell due
    choices: tuple = ()  # ChoiceMade records the throw led to, before the next throw
    final: State | None = None  # where the throw and those choices left the game
    casts: tuple = ()  # where dice landed off: the casts and recasts before the throw stood (play.casting)

    def __repr__(self) -> str:
        end = self.outcome
        where = f"{end.result} {end.label}" if end.kind == END else end.phase
        return f"<Thrown game {self.game} throw {self.number}: {'-'.join(map(str, self.dice))} in {self.state.phase} → {where}>"

    @property
    def total(self) -> int:
        return sum(self.dice)

    @property
    def outcome(self) -> State:
        """The state the game is in once the throw and the choices it led to are done."""
        return self.final if self.final is not None else self.after

    @property
    def ends_game(self) -> bool:
        return self.outcome.kind == END


@record(frozen=True)
class EndedAtOnce:
    """A game that ended without a throw (its rules decided it from the start, or at a choice)."""

    game: int
    state: State  # the end state
    after_choice: bool = False  # a choice led here (and its record said how the game ended)


@record(frozen=True)
class TapeRanOut:
    game: int
    throws: int  # throws made in the unfinished game
    state: State


@record
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


# With a tape and no game count, play goes on while there are throws; a game that takes none
# would repeat for ever, so play stops after it.
MAX_GAMES_WITHOUT_A_THROW = 1


def play(machine: Machine, dice, chooser: Chooser, games: int | None, wagers=None) -> Iterator:
    """Records of `games` games (or, with games=None, as many as the dice allow); `wagers`
    (play.wagers.Wagers), if given, makes and settles bets around each throw.

    Choices made before a game's first throw are yielded as `ChoiceMade`; choices a throw
    leads to are made at once (they need no dice) and ride in that throw's `Thrown`, so the
    bets are settled against where the throw really left the game — a game can end at a
    choice."""
    states = machine.states
    game = 0
    idle = 0  # games in a row that took no throw
    while games is None or game < games:
        if games is None and (getattr(dice, "exhausted", False) or idle >= MAX_GAMES_WITHOUT_A_THROW):
            return
        game += 1
        state = states[machine.start.target]
        throws = 0
        chose = state.kind == CHOICE
        while state.kind == CHOICE:
            k = chooser.pick(state)
            value, step = state.alternatives[k]
            yield ChoiceMade(game, state, value, step, None, states[step.target])
            state = states[step.target]
        if state.kind == END:
            yield EndedAtOnce(game, state, chose)
        while state.kind != END:
            try:
                thrown, casts = throw_at(machine, state, dice, chooser.pick)
            except TapeEnded:
                yield TapeRanOut(game, throws, state)
                return
            made = tuple(wagers.before_throw(state)) if wagers is not None else ()
            throws += 1
            step = state.steps[index_of(thrown, machine.dice.sides)]
            after = final = states[step.target]
            choices = []
            while final.kind == CHOICE:
                k = chooser.pick(final)
                value, chosen = final.alternatives[k]
                choices.append(ChoiceMade(game, final, value, chosen, thrown, states[chosen.target]))
                final = states[chosen.target]
            settled = tuple(wagers.after_throw(state, thrown, final)) if wagers is not None else ()
            yield Thrown(game, throws, thrown, state, step, after, made, settled, tuple(choices), final, casts)
            state = final
        idle = idle + 1 if throws == 0 else 0
