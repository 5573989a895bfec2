"""`simulate --players … --strategy S --goal G`: a seat staking by a progression or by the
computed best policy, beside the exact chain (issue 38).

At a table with a bank every game of a seat is the stake bet's, on the caster's side, so its
sessions are walked in NumPy lanes (`walked_sessions`: each lane a session, each step one game
drawn from the stake bet's exact chances, the stake looked up per lane from the policy or the
progression's state): 1,000 sessions in well under a second. Where the caster is answered by
setters a seat casts some games and sets others: those sessions are played in lanes too
(simulate.sessions.play_to_goal: each game drawn whole from its exact categories, who casts
and the fees followed by the passing and fee tables), the seat's stake set per lane as
play.strategies sets it at the table. `on_table=True` plays them one by one on the table
(play.table) instead, with the same code `run` and `play` use for a seat the computer plays:
the tests hold the lanes to it.

Each seat in turn plays from the settings' purse until its purse reaches the goal or is
empty, the other seats staking `stake` flat from purses that never run short (as
commands.simulate.sessions_to_goal does for flat stakes). The seat's strategy is shown its
own purse, so a progression lays at most what is left and the best policy reads its purse.

**The exact figure beside it.** The chains of solve.progressions and solve.policy follow one
purse staking on the same side of the same game every game. That is what a seat does at a
table with a bank (every player backs the caster's side of the stake bet, whoever casts), so
there the figure is exact: the stake bet's net per game is read from the categories of a game
(simulate.categories), not assumed to be even money. Where the caster is answered by setters,
a seat casts some games (and answers the others' stakes) and sets others, so no chain of one
side applies: there each seat's chain over who casts, its purse and its strategy
(solve.table_strategy.exact_at_table) is printed beside the sessions, or why it is not.
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import Arg, ArgumentError
from .errors import CommandError, SettingError

STRATEGY_GOAL = ("best", "martingale", "paroli", "dalembert", "labouchere", "fibonacci")
# the bounds of sessions to a goal, played on the table: commands.simulate's too (it imports them)
MAX_PLANNED_SESSIONS = 100_000  # sessions played one by one on the table
MAX_GAMES_TO_GOAL = 1_000_000  # games of one session, at most (then it is counted unfinished)
DEEP_PURSE = 10 ** 12  # the table's purses: never short; the seat's own is its offset from this


def goal_settings(settings: dict, count: int, goal, played: str = "") -> tuple:
    """The players, each seat's purse at the start and the setters' stake of sessions to `goal`,
    `count` of them, each checked (`played`: how they are played, said with the bound on them).
    Shared by the strategies' sessions and the seats' plans (commands.simulate)."""
    if not 1 <= count <= MAX_PLANNED_SESSIONS:
        raise SettingError("games", f"must be between 1 and {MAX_PLANNED_SESSIONS:,} sessions to the goal{played}")
    if not isinstance(goal, Fraction) or goal <= 0:
        raise SettingError("goal", ": the amount must be more than 0")
    bankroll, stake = Fraction(settings["purse"]), Fraction(settings["stake"])
    if not bankroll < goal:
        raise SettingError("goal", "must be more than ", Arg("purse"), f" ({bankroll}), where each seat starts")
    return settings["players"], bankroll, stake


def played_to_goal(at_table, seat: str, bankroll, goal, ruined, decide) -> tuple:
    """One seat's session on `at_table` from `bankroll`, the table's other purses never short:
    (True, games) once its purse reaches `goal`; (False, games) once `ruined(purse, event)` says
    it cannot play the game `event` opens; ("unfinished", games) past MAX_GAMES_TO_GOAL games or
    when the table's rounds run out first. `decide` answers the table's questions. Shared by the
    progressions' and the best stake's sessions and by the seats' plans (commands.simulate)."""
    pending = [e for e in at_table.opening if e["event"] == "game"]  # kept without a history
    played = 0
    while True:
        for event in pending:
            purse = bankroll + at_table.purses[seat] - DEEP_PURSE
            if purse >= goal:
                return True, played
            if ruined(purse, event):
                return False, played
            if played >= MAX_GAMES_TO_GOAL:
                return "unfinished", played
            played += 1
        if at_table.waiting is None:  # the table's rounds ran out first
            return "unfinished", played
        pending = [e for e in at_table.apply(decide(at_table.waiting)) if e["event"] == "game"]


def mean_and_error(values: list) -> tuple[float | None, float | None]:
    """The mean of the sessions' figures and its standard error (None for no session)."""
    import math

    if not values:
        return None, None
    mean = math.fsum(values) / len(values)
    spread = math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1) if len(values) > 1 else 0.0
    return mean, math.sqrt(spread / len(values))


def z_score(mean, stderr, exact) -> float | None:
    """(simulated − exact) / standard error; None where there is no error to divide by."""
    return (mean - float(exact)) / stderr if mean is not None and stderr else None


def checked_cap(request) -> None:
    """A cap is a progression's, played to a goal: given elsewhere it is refused, never ignored."""
    from ..solve.progressions import PROGRESSIONS

    cap = getattr(request, "cap", None)
    if cap is None:
        return
    if request.strategy not in PROGRESSIONS or request.goal is None or request.players is None:
        raise SettingError("cap", "is a progression's largest stake, for sessions to a goal: give it with ",
                           Arg("players", value=["Ann", "Ben", "Cat"]), ", ", Arg("goal"), " and ",
                           Arg("strategy", value="martingale"), f" (or {', '.join(PROGRESSIONS[1:])})")
    if cap <= 0:
        raise SettingError("cap", f"must be more than 0, not {cap}")


def exact_outcomes(machine, solver, ruleset) -> tuple[dict | None, str | None]:
    """One game's net for a backer of the caster's side of the table's stake bet, {r: p} in
    stakes, or None and why no exact chain applies at this table. A game whose stake can never be
    both won and lost (crown and anchor's caster) is refused: no strategy has a stake to choose,
    and a session would never reach the goal nor ruin."""
    from ..simulate.categories import game_categories
    from ..solve.policy import PolicyError, both_ways

    table = ruleset.table
    bet = machine.bets.get(table.stake) if table.stake else None
    outcomes: dict = {}
    for category, p in game_categories(machine, solver, bet).items():
        r = category.stake_net if category.stake_result == "win" else -1 if category.stake_result == "lose" else 0
        outcomes[r] = outcomes.get(r, Fraction(0)) + p
    try:  # the refusal analyse --strategy gives (solve.policy): at any table, before a session is played
        both_ways(outcomes)
    except PolicyError as exc:
        raise SettingError("strategy", f": {exc}") from None
    if table.against != "bank":
        return None, ("a seat casts some games (answering the others' stakes) and sets others, and the exact "
                      "chain follows one side of every game; at a table with a bank it is exact")
    if any(Fraction(r).denominator != 1 for r in outcomes):
        return None, "the stake bet pays a fraction of a stake, and the exact chain steps by whole stakes"
    return {int(r): p for r, p in outcomes.items() if p}, None


def exact_run(outcomes: dict, name: str, bankroll: Fraction, goal: Fraction, stake: Fraction, cap):
    """The exact chain of `name` (a progression, or the best policy by purse with stakes 1 to
    `stake`), from `bankroll` to `goal`: a solve.progressions.Run."""
    from ..solve.policy import best_stake
    from ..solve.progressions import policy_run, progression_run

    if name == "best":
        policy = best_stake(outcomes, goal, stake)
        return policy_run(outcomes, policy.stakes, int(bankroll), int(goal))
    return progression_run(outcomes, name, bankroll, goal, stake, cap)


def _units(*amounts) -> int:
    """The least scale that makes every amount given (None: none) a whole number of units."""
    import math

    return math.lcm(*(Fraction(a).denominator for a in amounts if a is not None))


def walked_sessions(outcomes: dict, name: str, bankroll: Fraction, goal: Fraction, stake: Fraction, cap, count: int,
                    rng, advance=None) -> tuple[list, list, list, int]:
    """`count` sessions of one seat at a table with a bank, each a lane of NumPy arrays walked
    one game a step: the game's net in stakes drawn from `outcomes` (the stake bet's exact
    distribution over one game, exact_outcomes: counted on the compiled machine), the stake
    laid looked up per lane (the best policy's stake by purse, or the progression's rule
    solve.progressions.Progression, at most the purse, as play.strategies lays it at the table).
    Python work per step is one lookup per distinct (progression state, win or loss, stake), not
    per session. Returns (reached 1.0/0.0, games, purse at the end) of the finished sessions and
    how many ran past MAX_GAMES_TO_GOAL games."""
    import numpy as np

    from ..solve.progressions import Progression

    values = sorted(outcomes)
    nets = np.array(values, dtype=np.int64)
    cut = np.cumsum([float(outcomes[v]) for v in values])
    scale = _units(bankroll, goal, stake, cap)
    b, g = int(bankroll * scale), int(goal * scale)
    purse = np.full(count, b, dtype=np.int64)
    played = np.zeros(count, dtype=np.int64)
    state = np.zeros(count, dtype=np.int64)  # the progression's state, as its number in `states`
    if name == "best":
        from ..solve.policy import best_stake

        policy = best_stake(outcomes, goal, stake)  # whole units: goal and stake are whole (BestPolicies)
        by_purse = np.array([policy.stakes.get(x, 1) for x in range(g + 1)], dtype=np.int64)
    else:
        rule = Progression(name, int(stake * scale), None if cap is None else int(Fraction(cap) * scale))
        states, asks, known, moves = [rule.start], [min(rule.asks(rule.start), g)], {rule.start: 0}, {}

        def moved(at: int, sign: int, laid: int) -> int:
            if (at, sign, laid) not in moves:
                after = rule.after(states[at], sign, laid)
                if after not in known:
                    known[after] = len(states)
                    states.append(after)
                    asks.append(min(rule.asks(after), g))  # a stake is never more than the purse, below g
                moves[at, sign, laid] = known[after]
            return moves[at, sign, laid]
    live = np.arange(count)
    while len(live):
        held = purse[live]
        asked = by_purse[held] if name == "best" else np.asarray(asks, dtype=np.int64)[state[live]]
        laid = np.minimum(asked, held)
        r = nets[np.minimum(np.searchsorted(cut, rng.random(len(live)), side="right"), len(values) - 1)]
        purse[live] = held + r * laid
        played[live] += 1
        if name != "best":
            keys, back = np.unique(np.stack([state[live], np.sign(r), laid]), axis=1, return_inverse=True)
            state[live] = np.array([moved(int(a), int(s), int(x)) for a, s, x in keys.T],
                                   dtype=np.int64)[back.ravel()]
        over = (purse[live] >= g) | (purse[live] <= 0) | (played[live] >= MAX_GAMES_TO_GOAL)
        if advance is not None and over.any():
            advance(int(over.sum()))
        live = live[~over]
    finished = (purse >= g) | (purse <= 0)
    reached = [1.0 if x >= g else 0.0 for x in purse[finished]]
    return reached, [float(n) for n in played[finished]], [float(Fraction(int(x), scale)) for x in purse[finished]], \
        int((~finished).sum())


def _here(refusal: str) -> str:
    """The exact solve's refusal as simulate shows it: its advice to simulate instead is what
    is being done here, so it is left out (the rest of its advice stands)."""
    for advice in (", or simulate the sessions", ", or simulate"):
        if refusal.endswith(advice):
            return refusal[: -len(advice)]
    return refusal


def _seat_view(question, purse: Fraction):
    """The stake question as the seat's own purse shows it (the table's purse is deep)."""
    from ..play.actions import Question

    facts = dict(question.facts, purse=str(purse), most=str(min(Fraction(question.facts["most"]), purse)))
    return Question(question.ask, question.player, facts, question.node)


def _lanes_at_setters(machine, chooser, name: str, players: list, bankroll: Fraction, goal: Fraction,
                      stake: Fraction, cap, need: Fraction):
    """The arrays (simulate.sessions.Setup) and the stake rule in lanes for sessions to the goal
    at a table where the caster is answered by setters, checked as play.strategies checks the
    same strategy at the table (so its refusals are the same words)."""
    import math

    import numpy as np

    from ..play.strategies import BestPolicies, Progressions
    from ..simulate.sessions import PolicyLanes, ProgressionLanes, setup
    from ..solve.progressions import Progression

    s = setup(machine, chooser.solver, len(players), bankroll, stake, "flat", 10_000, also=(goal, cap, need))
    g = int(goal * s.scale)
    if name == "best":
        from ..solve.policy import PolicyTooLarge, best_stake, caster_outcomes, other_side
        from ..solve.session import game_endings

        policies = BestPolicies(stake, chooser, goal)  # its checks: whole stakes and goal
        game = game_endings(machine, solver=chooser.solver)
        try:  # a setter's side at even money, as BestPolicies stakes at a table without a bank
            policy = best_stake(other_side(caster_outcomes(game.chance("win"), game.chance("lose"))),
                                policies.goal, policies.most)
        except PolicyTooLarge as exc:
            raise CommandError(_here(str(exc))) from None
        by_unit = np.array([policy.stakes.get(u, 1) * s.scale for u in range(policies.goal + 1)], dtype=np.int64)
        rule = PolicyLanes(by_unit, s.scale)
    else:
        Progressions(name, stake, cap)  # its checks, in the amounts given (a cap below the first stake)
        rule = ProgressionLanes(Progression(name, int(stake * s.scale), None if cap is None else int(cap * s.scale)),
                                g)
    return s, rule, int(bankroll * s.scale), g, math.ceil(need * s.scale)


def rounds_to_goal(ruleset, options, bets=()) -> int | None:
    """The rounds of the deep table that plays sessions to a goal: more than any session takes
    (10,000), or none where the dice never pass — a round would never end, and a session to a
    goal ends at the goal or at ruin, as the exact chain (analyse) follows it."""
    from .loading import machine_for

    stake = ruleset.table.stake
    machine = machine_for(ruleset, options, ([stake] if stake else []) + list(bets))
    return 10_000 if machine.passing is not None and machine.passing.ever_passes else None


def strategy_to_goal(ruleset, settings: dict, count: int, seed: int, goal: Fraction, options=None, advance=None,
                     cap=None, plans=None, refused=(), stakes=None, on_table: bool = False) -> dict:
    """Each seat in turn, `count` sessions from the settings' purse to `goal` or an empty purse,
    staking by `settings["strategy"]` (a progression from a first stake of `settings["stake"]`,
    capped at `cap`, or the best stake 1 to `settings["stake"]`), played on the table. Returns
    the report of commands.simulate.sessions_to_goal, each seat's row with the final purse
    ("purse", "purse_stderr", "exact_purse", "z_purse") and the strategy's name added."""
    import numpy as np

    from ..play.dice import RandomDice
    from ..play.strategies import strategy
    from ..solve.policy import PolicyError, PolicyTooLarge
    from ..solve.progressions import ProgressionError
    from ..solve.seats import SeatError, SeatSolver
    from .sessions import table

    name = settings["strategy"]
    if plans or refused or stakes:  # a seat's own stake too: every seat in turn stakes by the strategy
        given = "plans" if plans or stakes else "refusals"  # the one given, by its name
        raise SettingError(given, ": every seat in turn stakes by ", Arg("strategy", value=name), " alone, as "
                                  "its exact chain does; leave ", Arg(given), " out")
    players, bankroll, stake = goal_settings(settings, count, goal)
    if name == "best":  # the seats play the exact policy: judged before any table is laid
        from ..solve.policy import judge_purses

        try:
            judge_purses(int(goal) - 1, "the best stake")
        except PolicyTooLarge as exc:  # its advice to simulate instead: this is simulate, playing that policy
            raise CommandError(_here(str(exc))) from None
    deep = dict(settings, purse=DEEP_PURSE, rounds=rounds_to_goal(ruleset, options or {}), bets=[])
    machine_table = table(ruleset, options or {}, deep, seed, None)
    machine, chooser = machine_table.machine, machine_table.chooser
    outcomes, why = exact_outcomes(machine, chooser.solver, ruleset)
    run = None
    if outcomes is not None:
        try:
            run = exact_run(outcomes, name, bankroll, goal, stake, cap)
        except (ProgressionError, PolicyError) as exc:
            if isinstance(exc, ArgumentError):  # names its argument (cap, goal): each front end words it
                raise
            if name == "best" and isinstance(exc, PolicyTooLarge):  # the seats cannot play a policy not found
                raise CommandError(_here(str(exc))) from None
            why = _here(str(exc))
    n = len(players)
    against_bank = ruleset.table.against == "bank"
    need = None
    if not against_bank:  # what the seat must answer when it casts, the others staking flat
        try:
            need = SeatSolver(machine, settings["policy"]).outcomes({}, players, players[0], 0, stake).need
        except SeatError as exc:
            raise CommandError(f"a session to the goal cannot be followed game by game: {exc}") from None
    lanes = None
    if need is not None and not on_table:  # setters: each game drawn whole, in lanes (sessions.play_to_goal)
        lanes = _lanes_at_setters(machine, chooser, name, players, bankroll, goal, stake, cap, need)
    out = {}
    for i, seat in enumerate(players):
        reached, games, purses, unfinished = [], [], [], 0
        if outcomes is not None:  # at a table with a bank each game is the stake bet's: walked in lanes
            reached, games, purses, unfinished = walked_sessions(
                outcomes, name, bankroll, goal, stake, cap, count, np.random.default_rng([seed, i, 6]), advance)
        elif lanes is not None:
            from ..simulate.sessions import play_to_goal

            s, rule, b, g, needed = lanes
            ended = play_to_goal(s, i, b, g, needed, rule, count, np.random.default_rng([seed, i, 7]), advance,
                                 most_games=MAX_GAMES_TO_GOAL)
            finished = ended.ended >= 0
            unfinished = int((~finished).sum())
            reached = [float(x) for x in ended.ended[finished]]
            games = [float(x) for x in ended.games[finished]]
            purses = [float(Fraction(int(x), s.scale)) for x in ended.purses[finished]]
        for k in range(count if outcomes is None and lanes is None else 0):
            dice = RandomDice(generator=np.random.default_rng([seed, i, k, 5]))
            at_table = table(ruleset, options or {}, deep, (seed * n + i) * MAX_PLANNED_SESSIONS + k, dice)
            mine = strategy(name, stake, at_table.chooser, goal=goal if name == "best" else None, cap=cap)
            others = strategy("flat", stake, at_table.chooser)

            def decide(question, seat=seat, at_table=at_table, mine=mine, others=others):
                if question.ask == "stake" and question.player == seat:
                    return mine(_seat_view(question, bankroll + at_table.purses[seat] - DEEP_PURSE))
                return others(question)

            result, played = played_to_goal(
                at_table, seat, bankroll, goal,
                lambda purse, event, need=need, seat=seat: purse <= 0 or (need is not None and event["caster"] == seat and purse < need),
                decide)
            if result == "unfinished":
                unfinished += 1
            else:
                reached.append(1.0 if result else 0.0)
                games.append(float(played))
                purses.append(float(bankroll + at_table.purses[seat] - DEEP_PURSE))
            if advance is not None:
                advance(1)
        if outcomes is None:  # who casts, the seat's purse and its strategy as one chain (solve.table_strategy)
            from ..solve.table_strategy import exact_at_table

            if not i:  # every seat's at once: they share the game's outcomes, and a refusal
                chained = exact_at_table(machine, chooser.solver, players, name, bankroll, goal, stake, cap,
                                         settings["policy"])
            run, why = chained[seat][0], chained[seat][1] and _here(chained[seat][1])
        row = {"unfinished": unfinished, "why_no_exact": why if run is None else None, "exact_reach": None,
               "exact_games": None, "exact_purse": None, "z_reach": None, "z_games": None, "z_purse": None}
        row["reached"], row["reached_stderr"] = mean_and_error(reached)
        row["games"], row["games_stderr"] = mean_and_error(games)
        row["purse"], row["purse_stderr"] = mean_and_error(purses)
        if run is not None:
            row["exact_reach"], row["exact_games"] = run.reach_goal, run.games
            row["exact_purse"] = run.bankroll + run.net
            row["z_reach"] = z_score(row["reached"], row["reached_stderr"], run.reach_goal)
            row["z_games"] = z_score(row["games"], row["games_stderr"], run.games)
            row["z_purse"] = z_score(row["purse"], row["purse_stderr"], row["exact_purse"])
        out[seat] = row
    played = "each game drawn from one game's exact chances" if outcomes is not None else \
        "each game drawn whole from its exact chances" if lanes is not None else "played on the table"
    return {"sessions": count, "bankroll": bankroll, "goal": goal, "strategy": name, "cap": cap, "seats": out,
            "played": played}
