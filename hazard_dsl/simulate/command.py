"""`hazard-dsl simulate`: Monte Carlo of games, bets and sessions, beside the exact figures.

`games(...)` and `sessions(...)` are the Python API (what the command runs); `main(args)` is the
command's body, called by `cli.cmd_simulate`.
"""

from __future__ import annotations

import json
import sys
import time
from fractions import Fraction

from ..records import field, record

DEFAULT_GAMES = 1_000_000
DEFAULT_SESSIONS = 1_000
MAX_GAMES = 10 ** 13


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


def prepare_games(machine, games: int, seed: int, policy: str = "optimal", bets=(), lanes: int | None = None,
                  per_chunk: int | None = None) -> Context:
    """The tables of the game (and of each group of bets) and their exact figures."""
    from ..solve.analysis import analyse
    from ..solve.bets import BetTable
    from ..solve.markov import Solver
    from .bets import group_table, groups_of
    from .engine import LANES
    from .run import Plan
    from .tables import game_table, throws_of

    analysis = analyse(machine, policy)
    solver = Solver(machine)
    solver.set_policy(policy)
    mean = float(analysis.figures.expected_throws)
    throws = throws_of(machine, solver)
    tables = [game_table(machine, solver, mean, throws=throws)]
    groups, bet_table = [], None
    if bets:
        bet_table = analysis.bet_table or BetTable(machine, solver)
        groups = groups_of(bet_table, list(bets))
        tables += [group_table(machine, throws, group, mean) for group in groups]
    plan = Plan("games", games, seed, tuple(tables), per_chunk=per_chunk or 0, lanes=lanes or LANES)
    return Context(machine, policy, plan, analysis, tuple(tables), groups, bet_table)


def prepare_sessions(machine, sessions: int, seed: int, players, purse=20, stake=1, strategy: str = "flat",
                     rounds: int = 1, policy: str = "optimal", per_chunk: int | None = None) -> Context:
    from ..solve.markov import Solver
    from .run import Plan
    from .sessions import setup

    solver = Solver(machine)
    solver.set_policy(policy)
    s = setup(machine, solver, len(players), Fraction(purse), Fraction(stake), strategy, rounds)
    plan = Plan("sessions", sessions, seed, setup=s, per_chunk=per_chunk or 0)
    return Context(machine, policy, plan, setup=s, players=tuple(players), purse=Fraction(purse),
                   stake=Fraction(stake))


def execute(context: Context, workers: int = 1, scheduler=None, progress=None) -> tuple[dict, bool]:
    """Run every chunk; returns (the report, whether it ran to the end). Ctrl-C stops it with
    the chunks done so far."""
    from .report import games_report, sessions_report
    from .run import Interrupted, play

    context.workers = 1 if scheduler is not None else workers
    begun = time.perf_counter()
    complete = True
    try:
        results = play(context.plan, workers, scheduler, progress)
    except Interrupted as stop:
        results, complete = stop.results, False
    seconds = time.perf_counter() - begun
    make = sessions_report if context.plan.kind == "sessions" else games_report
    return make(context, results, seconds, complete), complete


def games(machine, games: int = DEFAULT_GAMES, seed: int = 0, policy: str = "optimal", bets=(), workers: int = 1,
          scheduler=None) -> dict:
    """Simulate games (and bets: `["pass=10", "odds=3-4-5x"]`); the report `simulate --json` prints."""
    return execute(prepare_games(machine, games, seed, policy, bets), workers, scheduler)[0]


def sessions(machine, players, sessions: int = DEFAULT_SESSIONS, seed: int = 0, purse=20, stake=1,
             strategy: str = "flat", rounds: int = 1, policy: str = "optimal", workers: int = 1, scheduler=None) -> dict:
    """Simulate sessions at the table; the report `simulate --players … --json` prints."""
    context = prepare_sessions(machine, sessions, seed, players, purse, stake, strategy, rounds, policy)
    return execute(context, workers, scheduler)[0]


# --------------------------------------------------------------------------- the command


def main(args, load, build_machine, UsageError) -> int:
    """`hazard-dsl simulate RULESET …` (the CLI's helpers are passed in: no import cycle)."""
    from ..render.terminal import fit, printable
    from ..solve.bets import BetError
    from ..solve.markov import PolicyError
    from .run import ClusterError, available_cores
    from .tables import SimulationError

    fmt = "json" if args.json else args.format
    if args.seed is not None and not 0 <= args.seed < 2 ** 64:
        raise UsageError("--seed takes a whole number from 0 to 2**64 - 1")
    if args.seed is None:
        import secrets

        seed = secrets.randbelow(2 ** 32)
    else:
        seed = args.seed
    workers = args.workers if args.workers is not None else available_cores()
    if not 1 <= workers <= 1024:
        raise UsageError("--workers must be between 1 and 1024")
    if getattr(args, "log", None) is not None:
        raise UsageError("--log writes the events of one session (run or play); simulate reports figures")
    if args.scheduler is not None:  # before any work: a wrong address is told at once
        from .cluster import scheduler_address

        try:
            scheduler_address(args.scheduler)
        except ClusterError as exc:
            print(f"hazard-dsl: error: {printable(exc)}", file=sys.stderr)
            return 1
    ruleset = load(args.ruleset)
    table_mode = args.players is not None
    if not table_mode:
        for flag in ("rounds", "purse", "strategy", "stake"):
            if getattr(args, flag) is not None:
                raise UsageError(f"--{flag} is for sessions at the table: give --players Ann,Ben,Cat too")
    elif args.bet:
        raise UsageError("sessions at the table stake by --strategy and --stake; --bet is for games without players")
    plot = getattr(args, "plot", None)
    if plot is not None:
        if table_mode:
            raise UsageError("--plot draws the simulated throws per game over the exact ones: for games, not "
                             "sessions at the table (whose purses have no exact figures to draw against)")
        from ..cli import _plot_target  # the file's type and matplotlib, checked before any work

        _plot_target(plot)
    count = args.games if args.games is not None else (DEFAULT_SESSIONS if table_mode else DEFAULT_GAMES)
    if not 1 <= count <= MAX_GAMES:
        raise UsageError(f"--games must be between 1 and {MAX_GAMES:,}")
    try:
        if table_mode:
            context = _sessions_context(args, ruleset, count, seed, build_machine, UsageError)
        else:
            ordered = [t.partition("=")[0].strip() for t in args.bet]
            machine = build_machine(ruleset, args.option, [n for n in ordered if n in ruleset.bets])
            context = prepare_games(machine, count, seed, args.policy, args.bet)
    except (PolicyError, BetError) as exc:
        raise UsageError(str(exc)) from None
    except SimulationError as exc:
        print(f"hazard-dsl: error: {exc}", file=sys.stderr)
        return 1
    bar = _progress(fmt, context)
    try:
        with bar:
            report, complete = execute(context, workers, args.scheduler, bar.advance if bar else None)
    except ClusterError as exc:  # the address, the scheduler or the workers: one line, no traceback
        print(f"hazard-dsl: error: {printable(exc)}", file=sys.stderr)
        return 1
    _print(report, fmt, context)
    if plot is not None and report.get("games"):
        _chart(report, context, plot)
    if not complete:
        print("hazard-dsl: interrupted: these are the results of the chunks finished before Ctrl-C.", file=sys.stderr)
        return 130
    if args.seed is None and fmt == "text":
        print(fit(f"Seed {seed}: the same command with --seed {seed} gives the same numbers, whatever --workers."))
    return 0


def _chart(report: dict, context, path: str) -> None:
    """The simulated throws per game over the exact distribution (render.plot)."""
    from ..render.plot import sources_line, simulation_chart

    games = report["games"]
    counts = {row["throws"]: round(row["rate"] * games) for row in report["throws"]["distribution"]}
    ruleset = context.machine.ruleset
    options = ", ".join(f"{k}={v}" for k, v in context.machine.options.items())
    cited = sources_line([ruleset])
    simulation_chart(counts, context.analysis.throws, path,
                     title=f"{ruleset.name}: throws per game, {games:,} games simulated (seed {report['seed']})",
                     source=(f"{cited + '. ' if cited else ''}Simulated by hazard-dsl from {ruleset.file} ({options}); "
                             f"exact: the absorbing-chain solution."), games=games)
    print(f"hazard-dsl: wrote {path}", file=sys.stderr)


def _sessions_context(args, ruleset, count, seed, build_machine, UsageError):
    from ..cli import _table_settings  # the same checks as `run --players`

    settings = _table_settings(args, ruleset)
    table = ruleset.table
    machine = build_machine(ruleset, args.option, [table.stake] if table.stake else [])
    if machine.passing is None or not machine.passing.ever_passes:
        raise UsageError(f"{ruleset.name}: the dice never pass (no passing: rule that can apply), so a round of "
                         f"the table never ends; add passing: to the rule file")
    return prepare_sessions(machine, count, seed, settings["players"], Fraction(settings["purse"]),
                            Fraction(settings["stake"]), settings["strategy"], settings["rounds"], args.policy)


class _Bar:
    """rich's progress bar on standard error, advanced as chunks finish."""

    def __init__(self, total: int, what: str):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.progress = Progress(TextColumn(f"simulating {what}"), BarColumn(), MofNCompleteColumn(),
                                 TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        self.task = self.progress.add_task(what, total=total)

    def advance(self, result) -> None:
        self.progress.advance(self.task, result.count)

    def __enter__(self):
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)


class _NoBar:
    advance = None

    def __bool__(self):
        return False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _progress(fmt: str, context):
    if fmt == "json" or not sys.stderr.isatty():  # a bar only on a terminal
        return _NoBar()
    return _Bar(context.plan.total, "sessions" if context.plan.kind == "sessions" else "games")


def _print(report: dict, fmt: str, context) -> None:
    if fmt == "json":
        print(json.dumps(report, indent=2))
        return
    from ..cli import _colour
    from ..render.tables import render
    from .report import games_tables, sessions_tables

    if context.plan.kind == "sessions":
        header, tables = sessions_tables(report)
        if fmt != "text":  # the purse distributions in full, for a spreadsheet or a page
            from ..render.tables import Table

            for name, seat in report["seats"].items():
                t = Table(f"{name}'s purse at the end", ["purse", "sessions"])
                for row in seat["distribution"]:
                    t.add(row["purse"], row["sessions"])
                tables.append(t)
    else:
        header, tables = games_tables(report)
    print(render(tables, fmt, header, _colour() if fmt == "text" else False), end="")
