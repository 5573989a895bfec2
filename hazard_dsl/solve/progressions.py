r"""Betting progressions as exact chains: martingale, paroli, d'Alembert, Labouchère, Fibonacci.

A progression says the next stake from what happened to the last ones. Every game is the same
game (`outcomes`: {r: p_r}, the net of one stake being r stakes; the caster's game at even money
is {+1: win, −1: lose, 0: push}), so the session is a chain over (purse, the progression's
state), solved exactly by `markov.Chain`:

* **martingale**: stake base·2^k after k losses in a row; a win starts again;
* **paroli**: stake base·2^k after k wins in a row; a loss, or `streak` wins, starts again;
* **d'Alembert**: stake base·n; a loss adds one base, a win takes one off (never below one);
* **Fibonacci**: stake base·F(i) (1, 1, 2, 3, 5, …); a loss steps on, a win steps back two;
* **Labouchère**: a line of numbers (base·1, 2, 3); stake the first and last together (the one,
  when one is left); a win strikes them, a loss writes the stake at the end; an empty line
  starts again.

A push (r = 0) leaves the progression where it was. The stake the progression asks for is
laid at most up to the table's `limit` and the purse (what is left is staked); past the `cap`
(the player's own) the progression starts again from its first stake — it gives up the chase.
The session stops when the purse reaches `goal` or is empty.

From the chain: P(goal), P(ruin), the exact distribution of the final net, the expected
games and the expected total staked (coin-in). Each game's stake is decided before the game
and the game is independent of it, so the expected net is exactly edge × coin-in (Wald):
E[net] = (Σ_r r p_r) · E[staked], whatever the progression — none beats the edge; `Run.beats`
checks it on the exact figures.

The chain's states are counted while it is built, and the build stops at MAX_PROGRESSION_STATES
(`ProgressionTooLarge`, pointing to simulate) before any solving. A smaller chain whose stakes go
up and down (d'Alembert, Labouchère) may still come back on itself in too many ways for the exact
elimination, which then stops within about a second (`TooLargeToSolve`) and says so with its size.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from ..errors import Arg, ArgumentError
from ..records import record
from .markov import ONE, ZERO, Chain, TooLargeToSolve

PROGRESSIONS = ("martingale", "paroli", "dalembert", "labouchere", "fibonacci")
WORDS = {"martingale": "martingale", "paroli": "paroli", "dalembert": "d'Alembert", "labouchere": "Labouchère",
         "fibonacci": "Fibonacci"}
# (purse, progression) states of an exact solve, counted as the chain is built. Eliminated in
# least-fill order (`Chain(least_fill=True)`), a d'Alembert of 225 states takes 0.05 s here, of
# 1,172 about 3.5 s and a Fibonacci of 1,274 about 2 s (load under 1); a d'Alembert of 1,532
# is given up by the elimination after about 3 s: past 1,500 it is refused at once (issue 38)
MAX_PROGRESSION_STATES = 1_500
PAROLI_STREAK = 3
LABOUCHERE_LINE = (1, 2, 3)


class ProgressionError(ValueError):
    """A progression that cannot be set up (an unknown name, a goal below the purse)."""


class ProgressionArgumentError(ProgressionError, ArgumentError):
    """A cap, purse or goal given that a progression cannot start from (`Arg('cap')`): each
    front end names it (`cap`, `--cap`)."""


class ProgressionTooLarge(ProgressionError):
    """A progression's chain larger than an exact solve takes (said before solving)."""


def _fibonacci(i: int) -> int:
    a, b = 1, 1
    for _ in range(i):
        a, b = b, a + b
    return a


class Progression:
    """A progression's rule in whole units of money: `start` (its first state), `asks(state)`
    (the stake it asks for), `after(state, r, staked)` (its next state after a net of r stakes
    with `staked` laid). States are small hashable values."""

    def __init__(self, name: str, base: int, cap: int | None = None):
        if name not in PROGRESSIONS:
            from ..diagnostics import did_you_mean

            raise ProgressionError(f"a progression is one of {', '.join(PROGRESSIONS)}, not {name!r}"
                                   f"{did_you_mean(name, PROGRESSIONS)}")
        if base <= 0:
            raise ProgressionError("a progression's first stake must be more than 0")
        if cap is not None and cap < base:
            raise ProgressionArgumentError(Arg("cap"), f"({cap}) must be at least the first stake ({base})")
        self.name, self.base, self.cap = name, base, cap
        self.start = tuple(base * n for n in LABOUCHERE_LINE) if name == "labouchere" else \
            1 if name == "dalembert" else 0

    def asks(self, state) -> int:
        name, base = self.name, self.base
        if name in ("martingale", "paroli"):
            return base * 2 ** state
        if name == "dalembert":
            return base * state
        if name == "fibonacci":
            return base * _fibonacci(state)
        return state[0] + state[-1] if len(state) > 1 else state[0]

    def after(self, state, r: int, staked: int):
        if r == 0:
            return state
        name = self.name
        if name == "martingale":
            state = 0 if r > 0 else state + 1
        elif name == "paroli":
            state = state + 1 if r > 0 else 0
            state = 0 if state >= PAROLI_STREAK else state
        elif name == "dalembert":
            state = max(1, state - 1) if r > 0 else state + 1
        elif name == "fibonacci":
            state = max(0, state - 2) if r > 0 else state + 1
        else:
            state = (state[1:-1] if r > 0 else state + (staked,)) or self.start
        if self.cap is not None and self.asks(state) > self.cap:
            return self.start  # past the cap: give up the chase, start again
        return state

    def stake(self, state, purse: int, limit: int | None) -> int:
        """What is laid: the stake asked for, at most the table's limit and the purse."""
        asked = self.asks(state)
        return min(asked, purse, limit) if limit is not None else min(asked, purse)


@record(frozen=True)
class Run:
    """A progression's session from `bankroll` until `goal` or an empty purse, exactly."""

    name: str
    bankroll: int
    goal: int
    base: int
    cap: int | None
    limit: int | None
    reach_goal: Fraction
    ruin: Fraction
    nets: dict  # final net -> probability
    games: Fraction  # expected games
    staked: Fraction  # expected total staked (coin-in)
    states: int
    edge: Fraction  # Σ r p_r: the player's expected net per unit staked on one game

    @property
    def net(self) -> Fraction:
        return sum((v * p for v, p in self.nets.items()), ZERO)

    @property
    def per_staked(self) -> Fraction:
        """The expected net per unit of coin-in: exactly the game's edge (`beats` is false)."""
        return self.net / self.staked if self.staked else ZERO

    @property
    def beats(self) -> bool:
        return self.per_staked > self.edge


def _units(*amounts) -> int:
    """One unit in which every amount is whole: 1 / lcm of their denominators."""
    return lcm(*(Fraction(a).denominator for a in amounts if a is not None))


def _session(outcomes: dict, stake, after, first, b: int, g: int, scale: int, what: str) -> tuple:
    """The chain of one purse from `b` until it reaches `g` or is empty (whole minor units, `scale`
    to a unit), a stake rule's state beside it: `stake(state, purse)` what is laid, `after(state,
    r, laid)` the next state, `first` the first. Returns P(goal), the final nets ({net: p}, in
    units), the expected games, the expected total staked and the states built. Shared by the
    progressions and any fixed policy (`policy_run`), so that both are solved by one chain."""
    from .policy import both_ways

    both_ways(outcomes)  # a game of pushes only: a session that never ends
    rows: dict = {}
    stakes: dict = {}
    start = (b, first)
    queue, seen = [start], {start}
    while queue:
        state = queue.pop()
        purse, where = state
        laid = stake(where, purse)
        stakes[state] = laid
        row: dict = {}
        for r, p in outcomes.items():
            after_purse = purse + laid * r
            if after_purse >= g or after_purse <= 0:
                key = ("end", max(after_purse, 0))
            else:
                key = (after_purse, after(where, r, laid))
                if key not in seen:
                    seen.add(key)
                    queue.append(key)
                    if len(seen) > MAX_PROGRESSION_STATES:
                        raise ProgressionTooLarge(
                            f"{what} has more than {MAX_PROGRESSION_STATES:,} (purse, progression) states, more "
                            f"than an exact solve takes; use a smaller goal, a cap or a table limit, or simulate")
            row[key] = row.get(key, ZERO) + p
        rows[state] = row
    try:
        visits = Chain(rows, least_fill=True).forward({start: ONE})
    except TooLargeToSolve:
        # the bound counts states, but the solve's cost is in how often the chain comes back on
        # itself: a d'Alembert's or a Labouchère's stakes go up and down, and meet again
        raise ProgressionTooLarge(f"{what}: its {len(rows):,} (purse, progression) states, though within the "
                                  f"{MAX_PROGRESSION_STATES:,} allowed, come back on one another in too many ways to "
                                  f"solve exactly in reasonable time; use a smaller goal, a cap or a table limit, or "
                                  f"simulate") from None
    nets: dict = {}
    for key in visits:
        if key not in rows and key[0] == "end":
            net = Fraction(key[1] - b, scale)
            nets[net] = nets.get(net, ZERO) + visits[key]
    reach = sum((p for v, p in nets.items() if v + Fraction(b, scale) >= Fraction(g, scale)), ZERO)
    games = visits.total(rows)
    staked = sum((visits[s] * laid for s, laid in stakes.items() if s in visits), ZERO) / scale
    return reach, nets, games, staked, len(rows)


def policy_run(outcomes: dict, stakes: dict, bankroll: int, goal: int) -> Run:
    """The exact session of a fixed policy (`stakes`: {purse: stake}, whole units, as
    solve.policy.best_stake gives it) from `bankroll` until `goal` or an empty purse: the same
    figures as a progression's, so that a policy played at the table can be set beside them."""
    outcomes = {int(r): Fraction(p) for r, p in outcomes.items() if p}
    bankroll, goal = int(bankroll), int(goal)
    if not 0 < bankroll < goal:
        raise ProgressionArgumentError(Arg("bankroll"), "must be more than 0 and less than ", Arg("goal"),
                                       f" ({goal})")
    reach, nets, games, staked, states = _session(
        outcomes, lambda where, purse: min(stakes.get(purse, 1), purse), lambda where, r, laid: where, 0,
        bankroll, goal, 1, f"the best stake from {bankroll} to {goal}")
    edge = sum((r * p for r, p in outcomes.items()), ZERO)
    return Run("best", Fraction(bankroll), Fraction(goal), Fraction(1), None, None, reach, ONE - reach, nets,
               games, staked, states, edge)


def progression_run(outcomes: dict, name: str, bankroll, goal, base=1, cap=None, limit=None) -> Run:
    """The exact session of progression `name` staking from `base`, from `bankroll` until the purse
    reaches `goal` or is empty; amounts of money as Fractions (in the ruleset's unit)."""
    outcomes = {int(r): Fraction(p) for r, p in outcomes.items() if p}
    if any(Fraction(r).denominator != 1 for r in outcomes):
        raise ProgressionError("a progression's chain needs whole-number payouts (use simulate)")
    bankroll, goal, base = Fraction(bankroll), Fraction(goal), Fraction(base)
    if not 0 < bankroll < goal:
        raise ProgressionArgumentError(Arg("bankroll"), "must be more than 0 and less than ", Arg("goal"),
                                       f" ({goal})")
    if cap is not None and Fraction(cap) < base:  # said in the amounts given, before they are scaled to whole units
        raise ProgressionArgumentError(Arg("cap"), f"({Fraction(cap)}) must be at least the first stake ({base})")
    scale = _units(bankroll, goal, base, cap, limit)
    b, g, s0 = int(bankroll * scale), int(goal * scale), int(base * scale)
    c = int(Fraction(cap) * scale) if cap is not None else None
    lim = int(Fraction(limit) * scale) if limit is not None else None
    if lim is not None and lim < 1:
        raise ProgressionError("the table limit must be more than 0")
    rule = Progression(name, s0, c)
    reach, nets, games, staked, states = _session(
        outcomes, lambda where, purse: rule.stake(where, purse, lim), rule.after, rule.start, b, g, scale,
        f"the {WORDS[name]} from {bankroll} to {goal}")
    edge = sum((r * p for r, p in outcomes.items()), ZERO)
    return Run(name, bankroll, goal, base, cap, limit, reach, ONE - reach, nets, games, staked, states, edge)


__all__ = ["MAX_PROGRESSION_STATES", "PROGRESSIONS", "Progression", "ProgressionError", "ProgressionTooLarge",
           "Run", "WORDS", "policy_run", "progression_run"]
