"""`simulate`: Monte Carlo of games, bets and sessions, beside the exact figures.

`simulate_request(request, ruleset)` is the command: it takes a `SimulateRequest`
(commands.requests: option values, bets and plans as values, counts as ints; the command line
reads its flags into one in `cli.requests`), checks each field (an `ArgumentError` naming it),
and runs one of four simulations — games (and one bettor's bets), sessions at the table
(purses only), rounds of the table with seats' bets, or each seat's sessions to a goal — and
returns a `SimulateResult`. The Python API (`Variant.simulate`) builds the same request from
its keywords and calls the same function, on the variant's own compiled machine.
"""

from __future__ import annotations

from contextlib import ExitStack, contextmanager
from fractions import Fraction

from ..errors import Arg, ArgumentError
from ..records import record
from .errors import CommandError, SettingError
from .notes import Entry, Note
from .strategy_goal import (  # noqa: F401 (MAX_GAMES_TO_GOAL: read by cli.simulate)
    DEEP_PURSE,
    MAX_GAMES_TO_GOAL,
    MAX_PLANNED_SESSIONS,
    goal_settings,
    played_to_goal,
)

DEFAULT_GAMES = 1_000_000
DEFAULT_SESSIONS = 1_000
MAX_GAMES = 10 ** 13
MAX_WORKERS = 1024
ENGINES = ("numpy", "compiled")


def checked_engine(engine: str | None, at_table: bool = False) -> str:
    """The engine that plays the games (or sessions at the table): "numpy" (the default, the
    reference) or "compiled" (the kernels of the `fast` extra, which need Numba)."""
    engine = engine or "numpy"
    if engine not in ENGINES:
        raise SettingError("engine", f"must be one of {', '.join(ENGINES)}")
    if engine == "compiled":
        from ..simulate.compiled import available

        if not available():
            raise SettingError("engine", "compiled needs Numba: pip install 'hazard-dsl[fast]'")
    return engine


def checked_workers(workers: int | None) -> int:
    """The worker processes to run the chunks in: as many as asked, or the cores available."""
    from ..simulate.run import available_cores

    workers = workers if workers is not None else available_cores()
    if not 1 <= workers <= MAX_WORKERS:
        raise SettingError("workers", f"must be between 1 and {MAX_WORKERS:,}")
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


def simulation_request(request, ruleset, count: int, seed: int, engine: str = "numpy", compiled=None):
    """A simulation of `count` games of `ruleset` for a `SimulateRequest` without players
    (commands.requests): its option values, its policy and one bettor's BetOrders (each bet
    once), ready to execute; `engine` as for `checked_engine`, `compiled` as for
    `simulate_request`. `simulate.tables.SimulationError` (a game too large to simulate) is
    left to the caller."""
    from ..simulate.simulation import prepare_games
    from ..solve.bets import BetError
    from ..solve.markov import PolicyError
    from .analyse import order_texts
    from .loading import machine_for

    orders = order_texts(request.bets, at_throw=False)  # (each bet once, none at a throw: checked there)
    try:
        bets = [n for n, _ in orders if n in ruleset.bets]
        machine = machine_for(ruleset, request.options, bets) if compiled is None else compiled(bets)
        return prepare_games(machine, count, seed, request.policy, list(request.bets), engine=engine)
    except ArgumentError:  # a bet ordered, named (play.wagers.OrderError): each front end words it
        raise
    except (PolicyError, BetError) as exc:
        if isinstance(exc, ArgumentError):  # names its argument: each front end words it
            raise
        raise CommandError(str(exc)) from None


def session_simulation(ruleset, count: int, seed: int, settings: dict, options=None, engine: str = "numpy",
                       compiled=None):
    """A simulation of `count` sessions at the table with these settings
    (`commands.sessions.request_settings`) and option values ({name: value}), ready to
    execute; `engine` as for games, `compiled` as for `simulate_request`."""
    from ..simulate.sessions import VECTORISED
    from ..simulate.simulation import prepare_sessions
    from ..solve.bets import BetError
    from ..solve.markov import PolicyError
    from .loading import machine_for

    if settings["strategy"] not in VECTORISED:  # a progression: each seat's history, not arrays of purses
        chosen = settings["strategy"]
        raise ArgumentError(Arg("strategy", value=chosen), f": simulate plays {chosen} on the table itself, each "
                                                           f"seat to a goal beside the exact chain: give ",
                            Arg("goal", value="AMOUNT"), f" too (the sessions in lanes play {', '.join(VECTORISED)})")
    try:
        table = ruleset.table
        bets = [table.stake] if table.stake else []
        machine = machine_for(ruleset, options or {}, bets) if compiled is None else compiled(bets)
        if machine.passing is None or not machine.passing.ever_passes:
            raise CommandError(f"{ruleset.name}: the dice never pass (no passing: rule that can apply), so a round "
                               f"of the table never ends; add passing: to the rule file")
        return prepare_sessions(machine, count, seed, settings["players"], Fraction(settings["purse"]),
                                Fraction(settings["stake"]), settings["strategy"], settings["rounds"],
                                settings["policy"], engine=engine)
    except (PolicyError, BetError) as exc:
        if isinstance(exc, ArgumentError):  # names its argument: each front end words it
            raise
        raise CommandError(str(exc)) from None


@record
class SimulateResult:
    """What `simulate_request` ran: `kind` "games" (and one bettor's bets), "sessions" (at the
    table, purses only), "rounds" (a round of the table played one by one, seats' bets and all)
    or "goal" (each seat's sessions to the goal); its `report` (what `simulate --json` prints,
    before the command line's JSON writes exact figures as text); the `seed` its dice were drawn
    from (the request's, or a new one); `complete` false where Ctrl-C stopped it; `context` the
    prepared simulation (games and sessions: its machine and exact figures)."""

    kind: str
    report: dict
    seed: int
    complete: bool = True
    context: object = None


DEFAULT_ROUNDS = 1_000  # rounds of the table (or sessions to the goal) played one by one, by default


def simulate_request(request, ruleset, bar=None, compiled=None) -> SimulateResult:
    """`simulate`: `request` a `SimulateRequest` (commands.requests) of `ruleset`, each field
    checked (an `ArgumentError` naming it), then games, sessions at the table, rounds with the
    seats' plans or sessions to the goal simulated (see `SimulateResult`). `bar(total, what)`,
    if given, is a context manager whose value is called with each number of games (or
    sessions) done, or None: a front end's progress bar. A field given for another kind of run
    is refused, never ignored. `simulate.tables.SimulationError` (a game too large to simulate)
    and `simulate.chunks.ClusterError` (a scheduler's address, or a cluster lost) are left to
    the caller. `compiled(bets)`, if given, is the machine of `ruleset` under the request's
    options with those bets compiled: how the caller compiles (the Python API's `Variant` with
    the explorations it holds); by default `commands.loading.machine_for`. The games and the
    sessions in lanes use it; the rounds played on the table build their own."""
    from ..simulate.simulation import execute
    from .dice import checked_seed, new_seed
    from .sessions import checked_plans, request_settings
    from .strategy_goal import STRATEGY_GOAL, checked_cap, strategy_to_goal

    checked_cap(request)
    seed = checked_seed(request.seed)
    seed = new_seed() if seed is None else seed
    workers = checked_workers(request.workers)
    check_scheduler(request.scheduler)
    at_table = request.players is not None
    engine = checked_engine(request.engine, at_table)
    if not at_table:
        for name in ("rounds", "purse", "strategy", "stake", "refusals", "goal"):
            if getattr(request, name) not in (None, (), []):
                raise SettingError(name, "is for sessions at the table: give ", Arg("players", value=["Ann", "Ben",
                                                                                                   "Cat"]), " too")
    elif request.goal is not None or request.plans:
        # played in this process alone (on the table, or in lanes): a field for the other runs is refused
        for name, given in (("scheduler", request.scheduler), ("workers", request.workers),
                            ("engine", request.engine if request.engine == "compiled" else None)):
            if given is not None:
                raise SettingError(name, ": sessions with ", Arg("goal"), " or with seats' bets (",
                                   Arg("plans", "NAME", "AMOUNT", seat="SEAT"), ") are played in this process "
                                   "alone; leave ", Arg(name), " out")
        if request.goal is not None and request.rounds is not None:
            raise SettingError("rounds", ": with ", Arg("goal"), " a session ends at the goal or at ruin, not after "
                                         "a number of rounds")
        settings = request_settings(ruleset, request.ruleset, request)
        plans, refused, stakes = checked_plans(ruleset, settings["players"], request.plans, request.refusals)
        count = request.games if request.games is not None else DEFAULT_ROUNDS
        per_session = 1 if request.goal is None else len(settings["players"])
        # the bar opens at the first session done, so that a refusal found on the way (a strategy
        # with no stake to choose, a goal too far for the best stake) is said without one
        with _lazy_bar(bar, count * per_session, "rounds" if request.goal is None else "sessions") as advance:
            if request.goal is None:
                report = planned_rounds(ruleset, settings, plans, refused, count, seed, request.options, advance,
                                        stakes)
            elif settings["strategy"] in STRATEGY_GOAL:  # a progression or the best stake: commands.strategy_goal
                report = strategy_to_goal(ruleset, settings, count, seed, request.goal, request.options, advance,
                                          request.cap, plans, refused, stakes)
            else:
                report = sessions_to_goal(ruleset, settings, plans, refused, count, seed, request.goal,
                                          request.options, advance, stakes)
        return SimulateResult("rounds" if request.goal is None else "goal", report, seed)
    count = checked_count(request.games, at_table)
    if at_table and request.refusals:  # the sessions in lanes put no bet to anyone: never ignored
        raise SettingError("refusals", "is for the bets the seats plan (", Arg("plans", "NAME", "AMOUNT", seat="SEAT"),
                           "), put to the others: without them no bet is put to anyone; give them too, or leave ",
                           Arg("refusals"), " out")
    if at_table:
        settings = request_settings(ruleset, request.ruleset, request)
        context = session_simulation(ruleset, count, seed, settings, request.options, engine, compiled)
    else:
        context = simulation_request(request, ruleset, count, seed, engine, compiled)
    what = "sessions" if context.plan.kind == "sessions" else "games"
    with _bar(bar, context.plan.total, what) as advance:
        report, complete = execute(context, workers, request.scheduler,
                                   None if advance is None else (lambda result: advance(result.count)))
    return SimulateResult(context.plan.kind, report, seed, complete, context)


class _NoBar:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _bar(bar, total: int, what: str):
    return _NoBar() if bar is None else bar(total, what)


@contextmanager
def _lazy_bar(bar, total: int, what: str):
    """As `_bar`, its value an `advance` (None without a bar), but the bar itself opened only
    when something is first done."""
    if bar is None:
        yield None
        return
    with ExitStack() as stack:
        opened: list = []

        def advance(done: int) -> None:
            if not opened:
                opened.append(stack.enter_context(bar(total, what)))
            if opened[0] is not None:
                opened[0](done)

        yield advance


# why a report has no exact figure, where the reason is a setting the reader gave: a Note
# (commands.notes), worded by each front end (the command line: --refuse, --stake)
REFUSED = Note("refusals", "it assumes every bet proposed is taken, and ", Arg("refusals"), " refuses some")
OWN_STAKE = Note("plans", "it assumes every setter stakes ", Arg("stake"), ", and a seat's own stake (",
                 Entry(Arg("plans", "stake", "AMOUNT", seat="SEAT")), ") differs")


def planned_rounds(ruleset, settings: dict, plans: dict, refused: set, count: int, seed: int, options=None,
                   advance=None, stakes=None) -> dict:
    """Each seat's net over one round of the table, in `count` sessions played on the table
    itself (play.table: the vectorised sessions play the stakes alone, and bets need the whole
    table), each seat betting as `plans` say; beside it each seat's exact expected net per
    round (solve.seats), which assumes every bet proposed is taken and no purse runs short — so
    with refusals there is none. The same seed gives the same figures. Returns a report:
    {seat: {"mean", "stderr", "exact", "z"}}, sessions, and what the exact figures assume
    (`why_no_exact`: text, or a `notes.Note` naming the setting, for the front end to word).
    `stakes` ({seat: amount}, sessions.checked_plans): a seat's own stake in place of the table's."""

    options = {} if options is None else options
    import numpy as np

    from ..play.dice import RandomDice
    from ..solve.seats import SeatError, seats
    from .sessions import stakes_alike, strategy, table

    if not 1 <= count <= MAX_PLANNED_SESSIONS:
        raise SettingError("games", f"must be between 1 and {MAX_PLANNED_SESSIONS:,} with bets at the table (the "
                                    f"rounds are played one by one)")
    one_round = dict(settings, rounds=1, bets=sorted({bet for plan in plans.values() for bet in plan}))
    players = settings["players"]
    start = Fraction(settings["purse"])
    nets = {p: [] for p in players}
    short = 0
    made: set = set()  # (seat, bet) of the plans made at least once: a plan never made is said
    for k in range(count):
        dice_k = RandomDice(generator=np.random.default_rng([seed, k, 2]))
        at_table = table(ruleset, options, one_round, seed * MAX_PLANNED_SESSIONS + k, dice_k)
        for event in at_table.play(strategy(at_table, one_round, plans, refused, stakes)):
            if event["event"] == "bet":
                made.add((event["who"], event["bet"]))
        short += any(p < start / 10 for p in at_table.purses.values())
        for p, purse in at_table.purses.items():
            nets[p].append(purse - start)
        if advance is not None:
            advance(1)
    exact, why = None, None
    if refused:
        why = REFUSED
    elif stakes and not stakes_alike(stakes, Fraction(settings["stake"])):
        why = OWN_STAKE
    else:
        try:
            machine = table(ruleset, options, one_round, seed, None).machine
            figures = seats(machine, {p: plans.get(p, {}) for p in players}, Fraction(settings["stake"]), players,
                            settings["policy"])
            exact, why = figures.per_round, figures.why_no_round
        except SeatError as exc:
            why = str(exc)
    out = {}
    for p in players:
        mean, stderr = mean_and_error([float(v) for v in nets[p]])
        row = {"mean": mean, "stderr": stderr, "exact": None, "z": None}
        if exact is not None and p in exact:
            row["exact"] = exact[p]
            row["z"] = z_score(mean, stderr, exact[p])
        out[p] = row
    never = sorted((seat, bet) for seat, plan in plans.items() for bet in plan if (seat, bet) not in made)
    return {"sessions": count, "seats": out, "why_no_exact": why if exact is None else None,
            "purses_ran_low": short, "never_made": [f"{seat}:{bet}" for seat, bet in never]}


def mean_and_error(values: list) -> tuple[float, float]:
    """The mean of the sessions' figures and its standard error (NaN for none)."""
    import math

    m = len(values)
    if not m:
        return float("nan"), float("nan")
    mean = sum(values) / m
    var = sum((v - mean) ** 2 for v in values) / (m - 1) if m > 1 else 0.0
    return mean, math.sqrt(var / m)


def z_score(mean: float, stderr: float, exact) -> float | None:
    """(simulated − exact) / standard error; None where the error is 0 (every session alike)."""
    return (mean - float(exact)) / stderr if stderr and stderr > 0 else None


def sessions_to_goal(ruleset, settings: dict, plans: dict, refused: set, count: int, seed: int, goal: Fraction,
                     options=None, advance=None, stakes=None) -> dict:
    """Each seat in turn, in `count` sessions played on the table itself: from the settings'
    purse until its purse reaches `goal` or holds less than the next game needs as its plan says
    (solve.seats.game_outcomes: the same rule as the exact figures), the other seats' purses
    never short. Beside it the exact figures (solve.seats.seat_ruin), where they can be solved.
    The same seed gives the same figures. Returns {"sessions", "bankroll", "goal", "seats":
    {seat: {"reached", "reached_stderr", "games", "games_stderr", "unfinished", "exact_reach",
    "exact_games", "z_reach", "z_games", "why_no_exact"}}} (`why_no_exact` as for
    `planned_rounds`)."""

    options = {} if options is None else options
    import numpy as np

    from ..play.dice import RandomDice
    from ..solve.seat_ruin import NEVER_ENDS
    from ..solve.seats import SeatError, SeatSolver, seat_ruin
    from .sessions import stakes_alike, strategy, table

    players, bankroll, stake = goal_settings(settings, count, goal, " (they are played one by one)")
    if stakes and not stakes_alike(stakes, stake):
        raise SettingError("plans", "with ", Arg("goal"), " every setter stakes ", Arg("stake"), ", as the exact "
                                    "figures do: a seat's own stake (", Arg("plans", "stake", "AMOUNT", seat="SEAT"),
                           ") is for rounds of the table (without ", Arg("goal"), ")")
    if settings.get("strategy", "flat") != "flat":
        raise SettingError("strategy", "with ", Arg("goal"), " is flat, best or a progression (martingale, paroli, "
                                       "dalembert, labouchere, fibonacci), each beside its exact figures; ",
                           Arg("strategy", value=settings["strategy"]), " has none")
    from .strategy_goal import rounds_to_goal

    bets = sorted({bet for plan in plans.values() for bet in plan})
    deep = dict(settings, purse=DEEP_PURSE, rounds=rounds_to_goal(ruleset, options, bets), bets=bets)
    machine = table(ruleset, options, deep, seed, None).machine
    chains = SeatSolver(machine, settings["policy"])
    n = len(players)
    out = {}
    for i, seat in enumerate(players):
        try:
            need_at = [chains.outcomes(plans, players, seat, pos, stake).need for pos in range(n)]
        except SeatError as exc:
            raise CommandError(f"{seat}'s session to the goal cannot be followed game by game: {exc}") from None
        exact, why = None, None
        if refused:
            why = REFUSED
        else:
            try:
                exact = seat_ruin(machine, plans, players, seat, bankroll, goal, stake, settings["policy"],
                                  chains=chains)
            except SeatError as exc:
                why = str(exc)
        if why == NEVER_ENDS:  # judged before the work: each session would play out the games' bound
            raise CommandError(f"{seat}'s sessions to the goal: {why}")
        if exact is None and min(need_at) > bankroll:
            raise SettingError("purse", f"must be at least what {seat} needs to play a game as planned "
                                        f"({min(need_at)})")
        reached, games, unfinished = [], [], 0
        for k in range(count):
            dice = RandomDice(generator=np.random.default_rng([seed, i, k, 3]))
            at_table = table(ruleset, options, deep, (seed * n + i) * MAX_PLANNED_SESSIONS + k, dice)
            play = strategy(at_table, deep, plans, refused, stakes)
            result, played = played_to_goal(
                at_table, seat, bankroll, goal,
                lambda purse, event, need_at=need_at, i=i: purse < need_at[(players.index(event["caster"]) - i) % n],
                play)
            if result == "unfinished":
                unfinished += 1
            else:
                reached.append(1.0 if result else 0.0)
                games.append(float(played))
            if advance is not None:
                advance(1)
        row = {"unfinished": unfinished, "why_no_exact": why, "exact_reach": None, "exact_games": None,
               "z_reach": None, "z_games": None}
        row["reached"], row["reached_stderr"] = mean_and_error(reached)
        row["games"], row["games_stderr"] = mean_and_error(games)
        if exact is not None:
            row["exact_reach"], row["exact_games"] = exact.reach_goal, exact.games
            row["z_reach"] = z_score(row["reached"], row["reached_stderr"], exact.reach_goal)
            row["z_games"] = z_score(row["games"], row["games_stderr"], exact.games)
        out[seat] = row
    return {"sessions": count, "bankroll": bankroll, "goal": goal, "seats": out}
