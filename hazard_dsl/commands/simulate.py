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
