"""A simulation of games, bets or sessions: prepared (the compiled tables it runs on, and the
exact figures its report sets beside the estimates), then executed in chunks (simulate.run).

`commands.simulate` checks a command's settings and calls these; so does the Python API.
"""

from __future__ import annotations

import time
from fractions import Fraction

from ..records import field, record


@record
class Context:
    """A simulation ready to run: the plan, and what its report needs."""

    machine: object
    policy: str
    plan: object  # run.Plan
    analysis: object = None  # solve.analysis.Analysis (games)
    tables: tuple = ()
    groups: list = field(default_factory=list)
    bet_table: object = None
    setup: object = None  # sessions.Setup
    players: tuple = ()
    purse: Fraction = Fraction(0)
    stake: Fraction = Fraction(0)
    workers: int = 1
    group_at: tuple = ()  # the table (and counts) each group's cycles are read from


def prepare_games(machine, games: int, seed: int, policy: str = "optimal", bets=(), lanes: int | None = None,
                  per_chunk: int | None = None, engine: str = "numpy") -> Context:
    """The tables of the game (and of each group of bets) and their exact figures; `engine`:
    "numpy" (the reference) or "compiled" (the `fast` extra's kernel, `simulate.compiled`)."""
    from ..solve.analysis import analyse
    from ..solve.bets import BetTable
    from ..solve.markov import Solver
    from .bets import group_table, groups_of, together
    from .engine import LANES
    from .chunks import Plan
    from .tables import game_table, throws_of

    analysis = analyse(machine, policy)
    solver = Solver(machine)
    solver.set_policy(policy)
    mean = float(analysis.figures.expected_throws)
    throws = throws_of(machine, solver, by_outcome=bool(bets))  # (the game alone reads no throw's faces)
    tables = [game_table(machine, solver, mean, throws=throws)]
    groups, bet_table, group_at = [], None, ()
    if bets:
        bet_table = analysis.bet_table or BetTable(machine, solver)
        groups = groups_of(bet_table, list(bets))
        own = [group_table(machine, throws, group, mean) for group in groups]
        # the first group rides with the game (one draw and one lookup a throw for both); the
        # others on tables of their own, so that the groups stay independent samples
        both = together(tables[0], own[0])
        if both is not None:
            tables, group_at = [both] + own[1:], (0,) + tuple(range(1, len(own)))
        else:
            tables, group_at = tables + own, tuple(range(1, len(own) + 1))
    plan = Plan("games", games, seed, tuple(tables), per_chunk=per_chunk or 0, lanes=lanes or LANES, engine=engine)
    return Context(machine, policy, plan, analysis, tuple(tables), groups, bet_table, group_at=group_at)


def prepare_sessions(machine, sessions: int, seed: int, players, purse=20, stake=1, strategy: str = "flat",
                     rounds: int = 1, policy: str = "optimal", per_chunk: int | None = None,
                     engine: str = "numpy") -> Context:
    """The session's arrays (`sessions.setup`); `engine`: "numpy" (`sessions.play_sessions`, the
    reference) or "compiled" (`compiled.play_sessions`: the same rules, its own random numbers)."""
    from ..solve.markov import Solver
    from .chunks import Plan
    from .sessions import setup

    solver = Solver(machine)
    solver.set_policy(policy)
    s = setup(machine, solver, len(players), Fraction(purse), Fraction(stake), strategy, rounds)
    plan = Plan("sessions", sessions, seed, setup=s, per_chunk=per_chunk or 0, engine=engine)
    return Context(machine, policy, plan, setup=s, players=tuple(players), purse=Fraction(purse),
                   stake=Fraction(stake))


def execute(context: Context, workers: int = 1, scheduler=None, progress=None) -> tuple[dict, bool]:
    """Run every chunk; returns (the report, whether it ran to the end). Ctrl-C stops it with
    the chunks done so far."""
    from .report import games_report, sessions_report
    from .chunks import Interrupted
    from .run import play

    context.workers = workers
    begun = time.perf_counter()
    complete = True
    try:
        results = play(context.plan, workers, scheduler, progress)
    except Interrupted as stop:
        results, complete = stop.results, False
    if scheduler is not None:  # the cluster's workers, counted there (`workers` is for here)
        context.workers = max(1, results.workers)
    seconds = time.perf_counter() - begun
    make = sessions_report if context.plan.kind == "sessions" else games_report
    return make(context, results, seconds, complete), complete
