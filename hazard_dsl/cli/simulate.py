"""`hazard-dsl simulate RULESET`: Monte Carlo of games, bets and sessions (commands.simulate),
with a progress bar on a terminal, as tables, JSON or a chart."""

from __future__ import annotations

import json
import sys

from ..commands import loading, simulate as simulating
from ..commands.charts import check_chart_file
from ..commands.dice import checked_seed, new_seed
from .output import colour, output_format
from .parser import UsageError
from .run import table_settings


def command(args) -> int:
    """`hazard-dsl simulate RULESET …`"""
    from ..render.terminal import fit, printable
    from ..simulate.chunks import ClusterError
    from ..simulate.simulation import execute
    from ..simulate.tables import SimulationError

    fmt = output_format(args)
    seed = checked_seed(args.seed)
    seed = new_seed() if seed is None else seed
    workers = simulating.checked_workers(args.workers)
    if getattr(args, "log", None) is not None:
        raise UsageError("--log writes the events of one session (run or play); simulate reports figures")
    try:  # before any work: a wrong address is told at once
        simulating.check_scheduler(args.scheduler)
    except ClusterError as exc:
        print(f"hazard-dsl: error: {printable(exc)}", file=sys.stderr)
        return 1
    ruleset = loading.load(args.ruleset)
    at_table = args.players is not None
    if not at_table:
        for flag in ("rounds", "purse", "strategy", "stake"):
            if getattr(args, flag) is not None:
                raise UsageError(f"--{flag} is for sessions at the table: give --players Ann,Ben,Cat too")
    elif args.bet:
        raise UsageError(_bets_at_table(args))
    plot = getattr(args, "plot", None)
    if plot is not None:
        if at_table:
            raise UsageError("--plot draws the simulated throws per game over the exact ones: for games, not "
                             "sessions at the table (whose purses have no exact figures to draw against)")
        check_chart_file(plot)  # the file's type and matplotlib, checked before any work
    count = simulating.checked_count(args.games, at_table)
    try:
        if at_table:
            context = simulating.session_simulation(ruleset, count, seed, table_settings(args, ruleset), args.option)
        else:
            context = simulating.game_simulation(ruleset, count, seed, args.option, args.policy, args.bet)
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


def _bets_at_table(args) -> str:
    """Why `simulate --players` takes no --bet, and the commands that do: the vectorised sessions
    draw each game whole from the exact chances of how it ends for the stakes, so they play the
    stakes alone; the table's bets are played by `run --players` and solved by `analyse`."""
    import shlex

    bets = " ".join(f"--bet {shlex.quote(text)}" for text in args.bet)
    seated = all(":" in text.partition("=")[0] for text in args.bet)
    example = bets if seated else "--bet SEAT:NAME=AMOUNT"
    return (f"simulate --players plays the stakes alone (each game drawn whole for the purses); bets at the "
            f"table are played by `hazard-dsl run {shlex.quote(args.ruleset)} --players {shlex.quote(args.players)} "
            f"{example}`, and each seat's exact figures are `hazard-dsl analyse {shlex.quote(args.ruleset)} --hand "
            f"--players {shlex.quote(args.players)} "
            f"{example}`")


def _chart(report: dict, context, path: str) -> None:
    """The simulated throws per game over the exact distribution (render.plot)."""
    from ..render.plot import simulation_chart, sources_line

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
    from ..render.tables import render
    from ..simulate.report import games_tables, sessions_tables

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
    print(render(tables, fmt, header, colour() if fmt == "text" else False), end="")
