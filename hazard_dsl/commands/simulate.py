"""`simulate`: Monte Carlo of games, bets and sessions, beside the exact figures.

`games(...)` and `sessions(...)` run a whole simulation of a compiled machine and return its
report (what `simulate --json` prints); the command checks its settings with the `checked_*`
functions, prepares a simulation with `game_simulation` or `session_simulation`, and runs it
with `simulate.simulation.execute`, showing its progress.
"""

from __future__ import annotations

from fractions import Fraction

from .errors import CommandError, SettingError
from .loading import build_machine

DEFAULT_GAMES = 1_000_000
DEFAULT_SESSIONS = 1_000
MAX_GAMES = 10 ** 13
MAX_WORKERS = 1024


def games(machine, games: int = DEFAULT_GAMES, seed: int = 0, policy: str = "optimal", bets=(), workers: int = 1,
          scheduler=None) -> dict:
    """Simulate games (and bets: `["pass=10", "odds=3-4-5x"]`); the report `simulate --json` prints."""
    from ..simulate.simulation import execute, prepare_games

    return execute(prepare_games(machine, games, seed, policy, bets), workers, scheduler)[0]


def sessions(machine, players, sessions: int = DEFAULT_SESSIONS, seed: int = 0, purse=20, stake=1,
             strategy: str = "flat", rounds: int = 1, policy: str = "optimal", workers: int = 1, scheduler=None) -> dict:
    """Simulate sessions at the table; the report `simulate --players … --json` prints."""
    from ..simulate.simulation import execute, prepare_sessions

    context = prepare_sessions(machine, sessions, seed, players, purse, stake, strategy, rounds, policy)
    return execute(context, workers, scheduler)[0]


def checked_workers(workers: int | None) -> int:
    """The worker processes to run the chunks in: as many as asked, or the cores available."""
    from ..simulate.run import available_cores

    workers = workers if workers is not None else available_cores()
    if not 1 <= workers <= MAX_WORKERS:
        raise SettingError("workers", f"must be between 1 and {MAX_WORKERS}")
    return workers


def check_scheduler(address: str | None) -> None:
    """A Dask scheduler's address checked before any work, so that a wrong one is told at once
    (`simulate.run.ClusterError`, left to the caller)."""
    if address is not None:
        from ..simulate.cluster import scheduler_address

        scheduler_address(address)


def checked_count(count: int | None, at_table: bool) -> int:
    """How many games (or, at the table, sessions) to simulate: as many as asked, or the default."""
    count = count if count is not None else (DEFAULT_SESSIONS if at_table else DEFAULT_GAMES)
    if not 1 <= count <= MAX_GAMES:
        raise SettingError("games", f"must be between 1 and {MAX_GAMES:,}")
    return count


def game_simulation(ruleset, count: int, seed: int, option_texts=(), policy: str = "optimal", bets=()):
    """A simulation of `count` games of `ruleset` with these options and bets (texts
    NAME=AMOUNT), ready to execute. `simulate.tables.SimulationError` (a game too large to
    simulate) is left to the caller."""
    from ..simulate.simulation import prepare_games
    from ..solve.bets import BetError
    from ..solve.markov import PolicyError

    try:
        ordered = [t.partition("=")[0].strip() for t in bets]
        machine = build_machine(ruleset, list(option_texts), [n for n in ordered if n in ruleset.bets])
        return prepare_games(machine, count, seed, policy, list(bets))
    except (PolicyError, BetError) as exc:
        raise CommandError(str(exc)) from None


def session_simulation(ruleset, count: int, seed: int, settings: dict, option_texts=()):
    """A simulation of `count` sessions at the table with these settings
    (`commands.sessions.table_settings`), ready to execute."""
    from ..simulate.simulation import prepare_sessions
    from ..solve.bets import BetError
    from ..solve.markov import PolicyError

    try:
        table = ruleset.table
        machine = build_machine(ruleset, list(option_texts), [table.stake] if table.stake else [])
        if machine.passing is None or not machine.passing.ever_passes:
            raise CommandError(f"{ruleset.name}: the dice never pass (no passing: rule that can apply), so a round "
                               f"of the table never ends; add passing: to the rule file")
        return prepare_sessions(machine, count, seed, settings["players"], Fraction(settings["purse"]),
                                Fraction(settings["stake"]), settings["strategy"], settings["rounds"],
                                settings["policy"])
    except (PolicyError, BetError) as exc:
        raise CommandError(str(exc)) from None


MAX_PLANNED_SESSIONS = 100_000  # rounds of the table played one by one, bets and all


def planned_rounds(ruleset, settings: dict, plans: dict, refused: set, count: int, seed: int, option_texts=(),
                   advance=None) -> dict:
    """Each seat's net over one round of the table, in `count` sessions played on the table
    itself (play.table: the vectorised sessions play the stakes alone, and bets need the whole
    table), each seat betting as `plans` say; beside it each seat's exact expected net per
    round (solve.seats), which assumes every bet proposed is taken and no purse runs short — so
    with refusals there is none. The same seed gives the same figures. Returns a report:
    {seat: {"mean", "stderr", "exact", "z"}}, sessions, and what the exact figures assume."""
    import math

    import numpy as np

    from ..play.dice import RandomDice
    from ..solve.seats import SeatError, seats
    from .sessions import strategy, table

    if not 1 <= count <= MAX_PLANNED_SESSIONS:
        raise SettingError("games", f"must be between 1 and {MAX_PLANNED_SESSIONS:,} with bets at the table (the "
                                    f"rounds are played one by one)")
    one_round = dict(settings, rounds=1, bets=sorted({bet for plan in plans.values() for bet in plan}))
    players = settings["players"]
    start = Fraction(settings["purse"])
    nets = {p: [] for p in players}
    short = 0
    for k in range(count):
        dice_k = RandomDice(generator=np.random.default_rng([seed, k, 2]))
        at_table = table(ruleset, option_texts, one_round, seed * MAX_PLANNED_SESSIONS + k, dice_k)
        at_table.play(strategy(at_table, one_round, plans, refused))
        short += any(p < start / 10 for p in at_table.purses.values())
        for p, purse in at_table.purses.items():
            nets[p].append(purse - start)
        if advance is not None:
            advance(1)
    exact, why = None, None
    if refused:
        why = "it assumes every bet proposed is taken, and --refuse refuses some"
    else:
        try:
            machine = table(ruleset, option_texts, one_round, seed, None).machine
            figures = seats(machine, {p: plans.get(p, {}) for p in players}, Fraction(settings["stake"]), players,
                            settings["policy"])
            exact, why = figures.per_round, figures.why_no_round
        except SeatError as exc:
            why = str(exc)
    out = {}
    for p in players:
        values = [float(v) for v in nets[p]]
        mean = sum(values) / count
        var = sum((v - mean) ** 2 for v in values) / (count - 1) if count > 1 else 0.0
        stderr = math.sqrt(var / count)
        row = {"mean": mean, "stderr": stderr, "exact": None, "z": None}
        if exact is not None and p in exact:
            row["exact"] = exact[p]
            row["z"] = (mean - float(exact[p])) / stderr if stderr > 0 else None
        out[p] = row
    return {"sessions": count, "seats": out, "why_no_exact": why if exact is None else None,
            "purses_ran_low": short}
