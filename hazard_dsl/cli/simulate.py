"""`hazard-dsl simulate RULESET`: Monte Carlo of games, bets and sessions (commands.simulate),
with a progress bar on a terminal, as tables, JSON or a chart."""

from __future__ import annotations

import json
from fractions import Fraction
import sys

from ..commands import loading, simulate as simulating
from ..commands.charts import check_chart_file
from ..commands.dice import checked_seed
from ..commands.notes import said
from .output import colour, output_format, say_error
from .parser import UsageError
from .requests import simulate_request
from .wording import FLAGS, worded


def command(args) -> int:
    """`hazard-dsl simulate …`: the flags read into a `SimulateRequest` (cli.requests), run by
    commands.simulate.simulate_request, its result printed."""
    from ..render.terminal import fit, printable
    from ..simulate.chunks import ClusterError
    from ..simulate.tables import SimulationError

    fmt = output_format(args)
    # the settings read before the rule file, as ever: a wrong one is told before any loading
    checked_seed(args.seed)
    simulating.checked_workers(args.workers)
    if getattr(args, "log", None) is not None:
        raise UsageError("--log writes the events of one session (run or play); simulate reports figures")
    try:  # before any work: a wrong address is told at once
        simulating.check_scheduler(args.scheduler)
    except ClusterError as exc:
        say_error(printable(worded(exc)))
        return 1
    ruleset = loading.load(args.ruleset)
    at_table = args.players is not None
    simulating.checked_engine(args.engine, at_table)
    if not at_table:
        for flag in ("rounds", "purse", "strategy", "stake", "refuse", "goal"):
            if getattr(args, flag) not in (None, []):
                raise UsageError(f"--{flag} is for sessions at the table: give --players Ann,Ben,Cat too")
    elif args.goal is not None or args.bet:
        # played one by one on the table itself, here: a flag for the other runs is refused, never ignored
        for flag, given in (("scheduler", args.scheduler), ("workers", args.workers),
                            ("engine", args.engine if args.engine == "compiled" else None)):
            if given is not None:
                raise UsageError(f"--{flag}: sessions with --goal or with seats' bets (--bet SEAT:NAME=AMOUNT) are "
                                 f"played in this process alone; leave --{flag} out")
        if args.goal is not None and args.rounds is not None:
            raise UsageError("--rounds: with --goal a session ends at the goal or at ruin, not after a number of "
                             "rounds")
    plot = getattr(args, "plot", None)
    if plot is not None:
        if args.goal is not None or (at_table and args.bet):
            raise UsageError("--plot draws games, not sessions at the table")
        if at_table:
            raise UsageError("--plot draws the simulated throws per game over the exact ones: for games, not "
                             "sessions at the table (whose purses have no exact figures to draw against)")
        # the file's type, matplotlib, and a new file (or --force), checked before any work
        check_chart_file(plot, args.force, [args.ruleset])
    request = simulate_request(args, ruleset)
    try:
        result = simulating.simulate_request(request, ruleset, None if fmt == "json" else _bar)
    except SimulationError as exc:
        say_error(worded(exc))
        return 1
    except ClusterError as exc:  # the address, the scheduler or the workers: one line, no traceback
        say_error(printable(worded(exc)))
        return 1
    if result.kind == "rounds":
        return _planned(result, ruleset, fmt, args.seed is None)
    if result.kind == "goal":
        return _to_goal(result, ruleset, fmt, args.seed is None)
    report, context, seed = result.report, result.context, result.seed
    _print(report, fmt, context)
    if plot is not None and report.get("games"):
        _chart(report, context, plot)
    if not result.complete:
        print("hazard-dsl: interrupted: these are the results of the chunks finished before Ctrl-C.", file=sys.stderr)
        return 130
    if args.seed is None and fmt == "text":
        print(fit(f"Seed {seed}: the same command with --seed {seed} gives the same numbers, whatever --workers."))
    return 0


def _planned(result, ruleset, fmt: str, seed_chosen: bool) -> int:
    """`simulate --players … --bet SEAT:NAME=AMOUNT`: rounds of the table played on the table
    itself, bets and all (commands.simulate.planned_rounds), each seat's net per round beside
    its exact figure."""
    from ..render.tables import Table

    report = result.report
    if fmt == "json":
        print(json.dumps({**report, "seats": {p: {k: (str(v) if k == "exact" and v is not None else v)
                                                   for k, v in row.items()} for p, row in report["seats"].items()},
                          "why_no_exact": said(report["why_no_exact"], FLAGS), "seed": result.seed}, indent=2))
        return 0
    unit = ruleset.money_units
    t = Table(f"Each seat's net over one round of the table, in {unit}: {report['sessions']:,} rounds played, "
              f"bets and all, beside the exact figure",
              ["seat", "simulated", "± s.e.", "exact", "z"], align=["left", "right", "right", "right", "right"])
    for p, row in report["seats"].items():
        exact = row["exact"]
        t.add(p, f"{row['mean']:+.4f}", f"{row['stderr']:.4f}",
              "—" if exact is None else f"{float(exact):+.4f}", "—" if row["z"] is None else f"{row['z']:+.2f}")
    notes = []
    if report["why_no_exact"]:
        notes.append(f"No exact figure: {said(report['why_no_exact'], FLAGS)}.")
    if report["purses_ran_low"]:
        notes.append(f"In {report['purses_ran_low']:,} rounds a purse fell below a tenth of its start: the exact "
                     f"figure assumes no purse runs short (a larger --purse brings them together).")
    if report["never_made"]:
        notes.append(f"Never made in {report['sessions']:,} rounds: {', '.join(report['never_made'])} (nobody "
                     f"could take it, or it was never open to that seat); the exact figure assumes every bet "
                     f"planned is made and taken whenever it may be (a larger --purse lets others cover it).")
    return _shown(t, notes, fmt, seed_chosen, result.seed)


def _shown(table, notes: list, fmt: str, seed_chosen: bool, seed: int) -> int:
    """A report's table, its notes and (where the seed was drawn) how to play it again."""
    from ..render.tables import render
    from ..render.terminal import fit

    print(render([table], fmt, None, colour()), end="")
    for note in notes:
        print(fit(note))
    if seed_chosen:
        print(fit(f"Seed {seed}: the same command with --seed {seed} gives the same numbers."))
    return 0


def _to_goal(result, ruleset, fmt: str, seed_chosen: bool) -> int:
    """`simulate --players … --goal G [--bet SEAT:NAME=AMOUNT]`: each seat's sessions from
    --purse to the goal or ruin, played on the table itself (commands.simulate.sessions_to_goal),
    beside the exact figures of `analyse --bankroll`."""
    from ..render.tables import Table

    report = result.report
    if fmt == "json":
        def plain(v):
            return str(v) if isinstance(v, Fraction) else said(v, FLAGS)
        staking = {"strategy": report["strategy"], "cap": plain(report["cap"])} if "strategy" in report else {}
        # the seed too, as plain `simulate --json` gives it: drawn when not given, so the JSON replays
        print(json.dumps({"sessions": report["sessions"], "bankroll": str(report["bankroll"]),
                          "goal": str(report["goal"]), **staking, "seed": result.seed,
                          "seats": {p: {k: plain(v) for k, v in row.items()} for p, row in report["seats"].items()}},
                         indent=2))
        return 0
    if "strategy" in report:  # a progression or the best stake, beside its exact chain (render.policy)
        from ..render.policy import strategy_goal_table

        return _shown(*strategy_goal_table(report, ruleset.money_units, stake="--stake", exact="--format json"),
                      fmt, seed_chosen, result.seed)
    unit = ruleset.money_units
    t = Table(f"Each seat from {report['bankroll']} to {report['goal']} {unit}: {report['sessions']:,} sessions "
              f"each, played on the table, beside the exact figures",
              ["seat", "reaches the goal", "exact", "z", "games", "exact", "z"],
              align=["left", "right", "right", "right", "right", "right", "right"])
    notes = []
    for p, row in report["seats"].items():
        def num(x, fmt_):
            return "—" if x is None else format(float(x), fmt_)
        t.add(p, f"{row['reached']:.2%} ± {row['reached_stderr']:.2%}", num(row["exact_reach"], ".2%"),
              num(row["z_reach"], "+.2f"), f"{row['games']:.2f} ± {row['games_stderr']:.2f}",
              num(row["exact_games"], ".2f"), num(row["z_games"], "+.2f"))
        if row["why_no_exact"]:
            notes.append(f"{p}: no exact figure: {said(row['why_no_exact'], FLAGS)}.")
        if row["unfinished"]:
            notes.append(f"{p}: {row['unfinished']:,} sessions had not ended after {simulating.MAX_GAMES_TO_GOAL:,} "
                         f"games and are left out.")
    t.caption = ("± one standard error. A session ends, at the start of a game, when the seat's purse reaches the "
                 "goal or holds less than that game could cost it as planned; the other seats' purses never run "
                 "short, and every setter stakes --stake.")
    return _shown(t, notes, fmt, seed_chosen, result.seed)


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
    """rich's progress bar on standard error, advanced by each number of games (or sessions)
    done: the value of `with _Bar(total, what) as advance`."""

    def __init__(self, total: int, what: str):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.progress = Progress(TextColumn(f"simulating {what}"), BarColumn(), MofNCompleteColumn(),
                                 TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        self.task = self.progress.add_task(what, total=total)

    def advance(self, done: int) -> None:
        self.progress.advance(self.task, done)

    def __enter__(self):
        self.progress.__enter__()
        return self.advance

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)


class _NoBar:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _bar(total: int, what: str):
    """A bar only on a terminal."""
    return _Bar(total, what) if sys.stderr.isatty() else _NoBar()


def _print(report: dict, fmt: str, context) -> None:
    if fmt == "json":
        print(json.dumps(report, indent=2))
        return
    from ..render.tables import render
    from ..render.simulation import games_tables, sessions_tables

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
