"""The figures from where the table stands: the caster's exact chance at any moment of a session.

One object, `Odds`, over a table's compiled machine and its solver (under the table's policy),
answers the exact figures a person asks for while playing: the caster's chance of winning from
the state the game is in (a resumed session's too), from a recast state (a die landed off), at a
choice with each value that may be chosen and whose best it is, a new game's between games, and
a bet's edge if made now. The keyboard prompt (cli.prompt), the web tables (serve) and the log
read the same figures; each says them in its own words (render.chances for people).

Figures only: Fractions and the values chosen, never text.
"""

from __future__ import annotations

from fractions import Fraction

from ..compile.machine import CHOICE, END, maximises
from ..records import record


@record(frozen=True)
class Pick:
    """One value that may be chosen at a choice: the caster's chance of winning with it, what it
    is worth to him (his chance of winning less his chance of losing) and whether it is the
    chooser's best (the caster's side takes the most worth, an adversary the least)."""

    value: object
    win: Fraction
    worth: Fraction
    best: bool


@record(frozen=True)
class Choices:
    """The figures at a choice: the choice's `variable` ("point", or "recast" for a die off),
    who chooses, whether it is a recast's pick (the off die alone, or both) and each value's
    figures in the rule file's order."""

    variable: str
    chooser: str
    recast: bool
    picks: tuple
    dice: int = 2  # how many dice are thrown (a recast's words: "both" of two, "every die" of more)

    @property
    def for_caster(self) -> bool:
        """Whether the chooser is on the caster's side (his best is the most worth)."""
        return maximises(self.chooser)

    @property
    def differ(self) -> bool:
        """Whether the values are not all worth the same (a best to mark)."""
        return len({p.worth for p in self.picks}) > 1


@record(frozen=True)
class Standing:
    """Where the game stands, in figures: the caster's name, whether a new game is next (the
    last ended, or none began), and either his chance of winning from here (`win`) or, at a
    choice, each value's figures (`choices`)."""

    caster: str
    new_game: bool
    win: Fraction | None = None
    choices: Choices | None = None


class Odds:
    """The caster's exact chances on `machine`, solved by `solver` (the table's, under its
    policy), for a session at `table` (play.table.Table; None: no session, "the caster").

    `win[i]`: his chance of winning from state `i` (solved at once); `lose[i]` of losing (solved
    when first wanted: only a choice needs it)."""

    def __init__(self, machine, solver, table=None):
        from ..solve.markov import ONE, ZERO

        self.machine = machine
        self.solver = solver
        self.table = table
        self.win = solver.backward(lambda s: ONE if s.result == "win" else ZERO)
        self._lose = None
        self._edges = None

    @property
    def lose(self) -> dict:
        if self._lose is None:
            from ..solve.markov import ONE, ZERO

            self._lose = self.solver.backward(lambda s: ONE if s.result == "lose" else ZERO)
        return self._lose

    def caster(self) -> str:
        """The caster's name at the table, or "the caster" without a session."""
        session = self.table.session if self.table is not None else None
        return session.seats[session.caster].name if session is not None else "the caster"

    def at(self, state=None, question=None) -> Standing:
        """The figures where the game stands: at `state` if given; else at the question asked
        now (`question`, play.actions.Question: a choice asked, a recast's pick too, or a die
        thrown alone), else at the table's state (a resumed session's too); between games, a new
        game's."""
        caster = self.caster()
        if state is None and question is not None and question.node is not None:
            if question.ask == "choose":  # the choice asked now, a recast's too
                return Standing(caster, False, choices=self.choices(question.node))
            if question.ask == "throw":
                # a die recast alone: the game stands at the recast state the die off (and any
                # pick) led to, not at the throw before the dice landed
                number = question.node.index
                win, _ = self.through_recasts([number])
                return Standing(caster, False, win=win[number])
        if state is None:
            session = self.table.session if self.table is not None else None
            state = session.state if session is not None else None
        if state is None or state.kind == END:
            start = self.machine.states[self.machine.start.target]
            if start.kind == CHOICE:
                return Standing(caster, True, choices=self.choices(start))
            return Standing(caster, True, win=self.win[start.index])
        if state.kind == CHOICE:
            return Standing(caster, False, choices=self.choices(state))
        return Standing(caster, False, win=self.win[state.index])

    def choices(self, state) -> Choices:
        """At a choice state (of the game, or a recast's pick): each value's figures, the
        chooser's best marked."""
        targets = [(value, step.target) for value, step in state.alternatives]
        win, lose = self.through_recasts([t for _, t in targets])
        worth = [win[t] - lose[t] for _, t in targets]
        best = max(worth) if maximises(state.chooser) else min(worth)
        recast = state.index >= len(self.machine.states)  # a die off: recast it alone, or both
        picks = tuple(Pick(value, win[target], w, w == best) for (value, target), w in zip(targets, worth))
        return Choices(state.variable, state.chooser, recast, picks, self.machine.dice.count)

    def through_recasts(self, targets: list) -> tuple[dict, dict]:
        """The caster's chance of winning and of losing from each of `targets`: a state of the
        game (the solver's figures), or a recast state (a die thrown alone, a pick between the
        off die and both, numbered on from the machine's states), whose figures follow from the
        game's: a die thrown alone lands on each face with its chance, or off again (back where
        the rules send it, `off`), and a pick is made as the table's policy makes it
        (solve.markov.Solver.policy): one small absorbing chain, solved exactly."""
        states = len(self.machine.states)
        if all(t < states for t in targets):
            return self.win, self.lose
        from ..compile.recasts import cast
        from ..solve.markov import ONE, ZERO, Chain

        rows, todo = {}, [t for t in targets if t >= states]
        while todo:
            number = todo.pop()
            if number in rows or number < states:
                continue
            node = self.machine.node(number)
            row: dict = {}
            if node.kind == CHOICE:
                for k, p in self.solver.policy.get(number, {0: ONE}).items():
                    target = node.alternatives[k][1].target
                    row[target] = row.get(target, ZERO) + p
            else:  # one cast of the dice off (compile.recasts: any number of dice)
                stands, moves = cast(self.machine, number)
                steps = self.machine.states[node.parent].steps
                for o, p in stands.items():
                    row[steps[o].target] = row.get(steps[o].target, ZERO) + p
                for t, p in moves.items():
                    row[t] = row.get(t, ZERO) + p
            rows[number] = row
            todo.extend(row)
        chain = Chain(rows)
        known = [t for t in targets if t < states]
        lose = self.lose
        return (chain.backward(lambda t: self.win[t], absorbing=known),
                chain.backward(lambda t: lose[t], absorbing=known))

    def edge_here(self, name: str):
        """A bet's exact edge against its backer if made now, where the table stands (solved once
        for each place, when first wanted); None where it cannot be made here."""
        if self._edges is None:
            from ..solve.bets import BetTable

            self._edges = BetTable(self.machine, self.solver)  # the table's solver, under its policy
        cb = self.machine.bets.get(name)
        session = self.table.session if self.table is not None else None
        state = session.state if session is not None else None
        if cb is None or state is None:
            return None
        return self._edges.edge_at(cb, state.index)
