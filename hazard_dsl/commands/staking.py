"""`analyse --stake best|kelly`, `--strategy PROGRESSION`, `--risk R`: the best stake for a purse
and betting progressions, on the caster's game at even money (or the setter's: `--side`),
exactly (solve.policy, solve.progressions), with a simulation beside them on request.

With `--players`, `--strategy PROGRESSION|best` is each seat's session at the table instead,
casting and setting as the box passes, the other seats staking `--stake` flat
(solve.table_strategy): exact, and with `--simulate N` the sessions played as `simulate
--players … --goal` plays them (commands.strategy_goal), their figures beside."""

from __future__ import annotations

from fractions import Fraction

from ..errors import Arg, ArgumentError
from .errors import CommandError, SettingError

SIDES = ("caster", "setter")
CHOICES = ("best", "kelly")


class Staking:
    """What was asked and found: `best` (solve.policy.BestStake), `kelly` ({side: Kelly}),
    `horizon` (Horizon), `run` (progressions.Run), `risk_purse` (the purse for --risk), and
    `simulated` (simulate.sessions.purse_walks)."""

    def __init__(self, side: str, outcomes: dict, unit: str, units: str):
        self.side, self.outcomes, self.unit, self.units = side, outcomes, unit, units
        self.bankroll = self.goal = self.stake = self.limit = None
        self.best = self.kelly = self.horizon = self.run = self.simulated = None
        self.risk = self.risk_purse = None
        self.risk_flat = False
        self.table = None  # with --players: {seat: (TableStrategy, None) or (None, why not)}
        self.players = self.strategy = self.cap = None


class Asked:
    """An `AnalyseRequest`'s staking fields as `check` and `figures` read them: `stake` is best
    or kelly, else the exact stake; `bet` one bettor's bets or the seats planned."""

    def __init__(self, request):
        self.stake = request.best if request.best is not None else request.stake
        self.bet = tuple(request.bets) or tuple(request.plans)
        self.players = request.players
        self.policy = getattr(request, "policy", "optimal")
        self.options = getattr(request, "options", None) or {}
        for name in ("strategy", "bankroll", "goal", "cap", "limit", "side", "risk", "simulate", "seed", "games"):
            setattr(self, name, getattr(request, name))


def _choice(stake) -> str:
    """best or kelly, or "" for an amount."""
    return stake if stake in CHOICES else ""


def _money(amount, what: str) -> Fraction | None:
    """An exact amount of money (`what`: its request field), more than 0; None stays None."""
    if amount is None:
        return None
    if not isinstance(amount, (Fraction, int)) or isinstance(amount, bool):
        raise SettingError(what, f"is an amount of money, such as 10 or Fraction(21, 2), not {amount!r:.30}")
    if amount <= 0:
        raise SettingError(what, "must be more than 0")
    return Fraction(amount)


def _count(value, what: str, low: int = 1, high: int = 1_000_000) -> int | None:
    if value is None:
        return None
    if type(value) is not int:
        raise SettingError(what, f"{str(value)[:30]!r} is not a whole number")
    if not low <= value <= high:
        raise SettingError(what, f"must be between {low:,} and {high:,}")
    return value


def wanted(request) -> bool:
    """Whether an `AnalyseRequest` asks for a best stake, Kelly, a progression or a risk of ruin."""
    return request.best is not None or request.strategy is not None or request.risk is not None


def check(args) -> None:
    """Refuse, before any work, what does not go together (`args`: an `Asked`)."""
    from ..solve.progressions import PROGRESSIONS

    choice = _choice(args.stake)
    if args.players and not args.bet and args.strategy is not None and args.risk is None:
        return _check_at_table(args, choice)
    if args.players and not args.bet and args.strategy is not None:  # --risk: the one thing not taken
        raise SettingError("risk", "is not for ", Arg("players"), ": it is the least purse of one bettor at even "
                                   "money; with seats, ", Arg("strategy"), " gives each seat's chance of ruin")
    if args.bet or args.players:
        raise SettingError("stake", "best, kelly, ", Arg("strategy"), " and ", Arg("risk"), " take the caster's "
                                    "game at even money, not ", Arg("bets"), " or ", Arg("players"))
    if args.strategy is not None and args.strategy not in PROGRESSIONS:
        from ..diagnostics import did_you_mean

        raise SettingError("strategy", f"is one of {', '.join(PROGRESSIONS)}, not {args.strategy[:30]!r}"
                                       f"{did_you_mean(args.strategy, PROGRESSIONS)}")
    if args.strategy is not None and choice in CHOICES:
        raise SettingError("strategy", "sets its own stakes: give ", Arg("stake"), f" the first stake, not {choice}")
    if args.strategy is not None and (args.bankroll is None or args.goal is None):
        raise SettingError("strategy", "needs ", Arg("bankroll"), " and ", Arg("goal"), ": the session runs until "
                                       "one or ruin")
    if args.cap is not None and args.strategy is None:
        raise SettingError("cap", "goes with ", Arg("strategy"), " (the progression's largest stake)")
    if choice == "best" and args.bankroll is None and args.goal is None:
        raise SettingError("stake", "best needs ", Arg("goal"), " (the chance of reaching it; with ", Arg("bankroll"),
                           ", from there) or ", Arg("bankroll"), " and ", Arg("games"), " (the expected purse after N "
                           "games)")
    if choice == "best" and args.goal is None and args.games is None:
        raise SettingError("stake", "best with ", Arg("bankroll"), " needs ", Arg("goal"), " or ",
                           Arg("games", value="N"))
    if args.risk is not None and args.goal is None:
        raise SettingError("risk", "needs ", Arg("goal"), ": the chance of ruin on the way to it")
    if args.risk is not None and choice != "best" and args.stake is None:
        raise SettingError("risk", "needs ", Arg("stake"), " (a flat stake, or best)")
    if args.side not in SIDES:
        raise SettingError("side", f"is caster or setter, not {args.side[:30]!r}")
    _count(args.simulate, "simulate", 2, 1_000_000)


def _check_at_table(args, choice: str) -> None:
    """`check` of --players with --strategy: each seat's session at the table."""
    from ..solve.progressions import PROGRESSIONS

    strategies = (*PROGRESSIONS, "best")
    if args.strategy not in strategies:
        from ..diagnostics import did_you_mean

        raise SettingError("strategy", f"is one of {', '.join(strategies)}, not {args.strategy[:30]!r}"
                                       f"{did_you_mean(args.strategy, strategies)}")
    if choice in CHOICES:
        raise SettingError("strategy", "sets its own stakes: give ", Arg("stake"), f" the first stake, not {choice}")
    if args.bankroll is None or args.goal is None:
        raise SettingError("strategy", "needs ", Arg("bankroll"), " and ", Arg("goal"), ": the session runs until "
                                       "one or ruin")
    if args.cap is not None and args.strategy == "best":
        raise SettingError("cap", "goes with a progression (its largest stake), not ", Arg("strategy", value="best"))
    if args.side != "caster":
        raise SettingError("side", "is not for ", Arg("players"), ": each seat casts and sets as the box passes")
    if args.limit is not None:
        raise SettingError("limit", "is not for ", Arg("players"), ": the table's seats stake by ", Arg("strategy"))
    if args.games is not None:  # refused, never ignored: the session runs to the goal or ruin
        raise SettingError("games", "is not for ", Arg("strategy"), " with ", Arg("players"), ": each seat's "
                                    "session runs until its purse reaches ", Arg("goal"), " or it is ruined")
    _count(args.simulate, "simulate", 2, 100_000)


def at_table(args, machine) -> Staking:
    """Each seat's session staking by `args.strategy` from --bankroll to --goal at the table
    of `args.players`, the others staking --stake flat (solve.table_strategy.exact_at_table)."""
    from ..solve.table_strategy import exact_at_table

    ruleset = machine.ruleset
    out = Staking("caster", {}, ruleset.money_unit, ruleset.money_units)
    out.bankroll, out.goal = _money(args.bankroll, "bankroll"), _money(args.goal, "goal")
    out.stake = _money(args.stake, "stake") if args.stake is not None else Fraction(1)
    out.cap = _money(args.cap, "cap")
    if not out.bankroll < out.goal:
        raise SettingError("bankroll", "must be less than ", Arg("goal"), f" ({out.goal})")
    if out.cap is not None and out.cap < out.stake:
        raise SettingError("cap", f"({out.cap}) must be at least the first stake ({out.stake})")
    out.players, out.strategy = tuple(args.players), args.strategy
    out.table = exact_at_table(machine, None, list(args.players), args.strategy, out.bankroll, out.goal,
                               out.stake, out.cap, args.policy)
    whys = {why for run, why in out.table.values()}
    if None not in whys and len(whys) == 1:  # refused for every seat alike: said once, as an error
        raise CommandError(whys.pop())
    if args.simulate is not None:
        out.simulated = simulated_at_table(out, args, machine.ruleset)
    return out


def simulated_at_table(out: Staking, args, ruleset) -> dict:
    """`--simulate N` with --players: each seat's N sessions to the goal played as `simulate
    --players … --goal --strategy` plays them (commands.strategy_goal.strategy_to_goal, seeded
    by --seed, default 0): {"sessions": N, SEAT: {reach_goal, games, net: (mean, SE), z}}, z
    against the exact figure (simulate.risk.Beside)."""
    from ..simulate.risk import Beside
    from .strategy_goal import strategy_to_goal

    count = _count(args.simulate, "simulate", 2, 100_000)
    settings = dict(players=list(out.players), purse=out.bankroll, stake=out.stake, strategy=out.strategy,
                    rounds=1, policy=args.policy, ruleset=ruleset.name)
    report = strategy_to_goal(ruleset, settings, count, args.seed if args.seed is not None else 0, out.goal,
                              args.options, cap=out.cap)
    found: dict = {"sessions": count}
    for seat, row in report["seats"].items():
        run = out.table.get(seat, (None, None))[0]
        mine = {"reach_goal": (row["reached"], row["reached_stderr"]), "games": (row["games"], row["games_stderr"]),
                "net": (None if row["purse"] is None else row["purse"] - float(out.bankroll), row["purse_stderr"]),
                "unfinished": row["unfinished"]}
        if run is not None:
            exact = {"reach_goal": run.reach_goal, "games": run.games, "net": run.net}
            mine["z"] = {key: Beside(Fraction(value), *mine[key]).z for key, value in exact.items()
                         if mine[key][0] is not None}
        found[seat] = mine
    return found


def figures(args, analysis, ruleset, machine=None) -> Staking:
    """The figures asked for (`args`: an `Asked`), on the caster's (or setter's) game of
    `analysis` (of `ruleset`); with --players and --strategy each seat's session at the table
    of `machine` (`at_table`)."""
    if args.players and args.strategy is not None:
        if machine is None:
            from .loading import machine_for

            machine = machine_for(ruleset, getattr(analysis, "options", None) or {})
        return at_table(args, machine)
    from ..solve.policy import (best_after, best_stake, caster_outcomes, flat_chances, kelly, other_side,
                                purse_for_risk, whole)
    from ..solve.progressions import progression_run

    f = analysis.figures
    caster = caster_outcomes(f.win, f.lose)
    outcomes = caster if args.side == "caster" else other_side(caster)
    out = Staking(args.side, outcomes, ruleset.money_unit, ruleset.money_units)
    choice = _choice(args.stake)
    out.bankroll, out.goal = _money(args.bankroll, "bankroll"), _money(args.goal, "goal")
    out.limit = _money(args.limit, "limit")
    try:
        if choice == "kelly":
            out.kelly = {side: kelly(o) for side, o in (("caster", caster), ("setter", other_side(caster)))}
        if choice == "best" and out.goal is not None:
            if out.bankroll is not None and not out.bankroll < out.goal:
                raise SettingError("bankroll", "must be less than ", Arg("goal"), f" ({out.goal})")
            if out.bankroll is not None:
                whole(out.bankroll, Arg("bankroll"))
            out.best = best_stake(outcomes, out.goal, out.limit, flat=1)
        if choice == "best" and out.goal is None:
            games = _count(args.games, "games", 1, 10_000)
            out.horizon = best_after(outcomes, out.bankroll, games, out.limit)
        if args.risk is not None:
            out.risk = args.risk
            if not isinstance(out.risk, (Fraction, int)) or isinstance(out.risk, bool) or not 0 < out.risk < 1:
                raise SettingError("risk", "must be a chance between 0 and 1 (0.01, or 1/100)")
            if out.best is not None:
                out.risk_purse = purse_for_risk(out.best.values, out.risk)
            else:
                out.stake = _money(args.stake, "stake")
                out.risk_flat = True
                out.risk_purse = purse_for_risk(flat_chances(outcomes, out.goal, out.stake), out.risk)
        if args.strategy is not None:
            out.stake = _money(args.stake, "stake") if args.stake is not None else Fraction(1)
            out.run = progression_run(outcomes, args.strategy, out.bankroll, out.goal, out.stake,
                                      _money(args.cap, "cap"), out.limit)
    except ValueError as exc:
        if isinstance(exc, ArgumentError):  # SettingError among them: each front end words it
            raise
        raise CommandError(str(exc)) from None
    if args.simulate is not None and (out.run is not None or (out.best is not None and out.bankroll is not None)):
        out.simulated = simulated(out, args, _count(args.simulate, "simulate", 2, 1_000_000))
        out.simulated["z"] = beside_z(out)
    return out


def beside_z(out: Staking) -> dict:
    """z = (simulated − exact) / SE of each simulated figure that has an exact one: the chance
    of the goal (and, for a progression, the games, the coin-in and the net)."""
    from ..simulate.risk import Beside

    if out.run is not None:
        r = out.run
        exact = {"reach_goal": r.reach_goal, "games": r.games, "staked": r.staked, "net": r.net}
    else:
        exact = {"reach_goal": out.best.chance(int(out.bankroll))}
    return {key: Beside(Fraction(value), *out.simulated[key]).z for key, value in exact.items()
            if key in out.simulated}


def simulated(out: Staking, args, sessions: int) -> dict:
    """`purse_walks` of the progression or the best policy, seeded by --seed (default 0)."""
    import numpy as np

    from ..simulate.sessions import purse_walks
    from ..solve.progressions import Progression

    rng = np.random.default_rng(args.seed if args.seed is not None else 0)
    if out.run is not None:
        run = out.run
        if any(Fraction(a).denominator != 1 for a in (run.bankroll, run.goal, run.base, run.cap or 1, run.limit or 1)):
            raise SettingError("simulate", "takes whole amounts of money")
        rule = Progression(run.name, int(run.base), int(run.cap) if run.cap is not None else None)
        limit = int(run.limit) if run.limit is not None else None
        return purse_walks(out.outcomes, lambda purse, state: rule.stake(state, purse, limit), rule.after,
                           rule.start, int(run.bankroll), int(run.goal), sessions, rng)
    stakes = out.best.stakes
    return purse_walks(out.outcomes, lambda purse, state: stakes[purse], lambda state, r, s: state, None,
                       int(out.bankroll), int(out.best.goal), sessions, rng)


__all__ = ["CHOICES", "SIDES", "Asked", "Staking", "at_table", "beside_z", "check", "figures", "simulated", "wanted"]
