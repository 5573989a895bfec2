r"""The best stake for a purse: a decision process over the purse, solved exactly.

One game's outcome, for a player staking s, is a net of s·r with chance p_r (`outcomes`:
{r: p_r}, r a whole multiple of the stake; the caster's game at even money is {+1: win,
−1: lose, 0: push}). Every game is the same game, so the state of the decision process is the
purse x alone (in whole units of money), and the choice is the stake s, 1 ≤ s ≤ min(x, most):
a policy of never betting is not among the choices, so none is ever offered as best.

* **Reaching a goal** G before ruin (the purse below one unit). The value V(x) = P(goal) solves

      V(x) = max_s Σ_r p_r V(x + s r),   V(x) = 1 for x ≥ G,  V(x) = 0 for x < 1,

  found by exact **policy iteration**: start from bold play (s = min(x, G − x, most)), solve
  the chain of that policy exactly (`markov.Chain.backward`), then at every purse take any stake
  that does strictly better on those values; repeat until none does. Every policy ends the
  session with chance 1 (each game can be won, and a stake is at least 1), so the iteration
  ends at the optimum, and any stake that is best on the optimal values is an optimal policy:
  ties are broken towards the largest such stake (the session that moves fastest). The
  improvement step compares Σ_r p_r V(x + s r) for every (x, s) — G²/4 of them — as whole
  numbers over one common denominator (the push, the same for every stake, cancels): integer
  arithmetic, not Fraction arithmetic, which is what makes 200 purses × 100 stakes fast.
* **Log-growth** (Kelly): the fraction f of the purse staked each game that maximises
  g(f) = Σ_r p_r ln(1 + f r). With two outcomes, +a and −c, it is f = (p a − q c)/(a c (p + q)),
  exact; otherwise the root of g′ is found numerically. g itself is a logarithm: a decimal.
  Where no fraction grows the purse (the edge is against the player), the answer says so and
  names the other side of the game, which has the edge.
* **The expected purse after N games**: W_n(x) = max_s Σ_r p_r W_{n−1}(x + s r), W_0(x) = x,
  by dynamic programming over (games left, purse), in whole numbers over D^n.
* **The purse needed** for a risk of ruin R on the way to G: the least x with 1 − V(x) ≤ R,
  read off the same values (at a flat stake, or under the best policy).

Each process's size is checked against a bound before any work (`PolicyTooLarge`).
"""

from __future__ import annotations

from fractions import Fraction
from math import isfinite, lcm, log

from ..errors import Arg, ArgumentError
from ..records import record
from .markov import ONE, ZERO, Chain, TooLargeToSolve

MAX_POLICY_PAIRS = 2_000_000  # purses × stakes of a goal's decision process
# Purses below the goal: each policy's chain has one state a purse, solved exactly; a flat stake
# of 1 over 1,000 purses takes about a second (its chances' digits grow with the purse), and
# the sparse solver refuses 2,000 after several seconds' work. Judged from the goal alone.
MAX_POLICY_PURSES = 1_000
MAX_HORIZON_WORK = 5_000_000  # games × purses × stakes × outcomes of the expected purse after N games


class PolicyError(ValueError):
    """A decision process that cannot be set up (bad purses, outcomes that are not whole stakes)."""


class StakeArgumentError(PolicyError, ArgumentError):
    """A goal, stake or purse given that no decision process can start from (`Arg('goal')`):
    each front end names it (`goal`, `--goal`)."""


class PolicyTooLarge(PolicyError):
    """A decision process too large to solve exactly (said before working)."""


@record(frozen=True)
class BestStake:
    """The best policy from each purse 1..goal−1 towards `goal`: `stakes[x]` the stake,
    `values[x]` P(reach the goal) under it; `flat[x]`, P(goal) staking `flat_stake` every game
    (None when no flat stake was asked for)."""

    goal: int
    most: int
    stakes: dict  # purse -> stake
    values: dict  # purse -> Fraction
    rounds: int  # policy-iteration rounds
    flat_stake: int | None = None
    flat: dict | None = None

    def chance(self, purse: int) -> Fraction:
        return self.values.get(purse, ONE if purse >= self.goal else ZERO)


def whole(value, what: str | Arg) -> int:
    """An amount of money as a whole number of units (the decision process steps by one unit);
    `what` the argument that gave it (an `Arg`, worded by each front end) or what it is."""
    value = Fraction(value)
    if value.denominator != 1:
        problem = f"must be a whole number of units for the best stake, not {value}"
        if isinstance(what, Arg):
            raise StakeArgumentError(what, problem)
        raise PolicyError(f"{what} {problem}")
    return int(value)


def checked_outcomes(outcomes: dict) -> dict:
    """{r: p} with every r a whole multiple of the stake, chances summing to 1, and a chance
    both to win and to lose."""
    out = {}
    for r, p in outcomes.items():
        r, p = Fraction(r), Fraction(p)
        if r.denominator != 1:
            raise PolicyError(f"a game's net of {r} stakes is not a whole number of stakes; the best stake needs "
                              f"whole-number payouts (use simulate)")
        if p:
            out[int(r)] = out.get(int(r), ZERO) + p
    if sum(out.values()) != ONE:
        raise PolicyError("the chances of one game's outcomes do not sum to 1")
    return both_ways(out)


def both_ways(outcomes: dict) -> dict:
    """`outcomes` ({r: p}) if the game can be both won and lost, else the refusal every stake rule
    gives (the best stake, Kelly, --risk, each progression): a game of pushes only (a bets-only
    game's caster) would leave a session that never ends, and nothing to choose."""
    if not any(r > 0 and p for r, p in outcomes.items()) or not any(r < 0 and p for r, p in outcomes.items()):
        raise PolicyError("a game that cannot be both won and lost leaves no choice of stake")
    return outcomes


def caster_outcomes(win: Fraction, lose: Fraction) -> dict:
    """The caster's game at even money: {+1: win, −1: lose, 0: push}."""
    return {r: p for r, p in ((1, win), (-1, lose), (0, ONE - win - lose)) if p}


def other_side(outcomes: dict) -> dict:
    """The same game from the other side of the stake (the setter's, the layer's)."""
    return {-r: p for r, p in outcomes.items()}


def _weights(outcomes: dict) -> tuple[list, int]:
    """[(r, w_r)] for r ≠ 0 with p_r = w_r / d over one denominator d, and d."""
    d = lcm(*(p.denominator for p in outcomes.values()))
    return [(r, int(p * d)) for r, p in sorted(outcomes.items()) if r], d


def _evaluate(outcomes: dict, goal: int, stakes: dict) -> dict:
    """P(goal) from every purse under the policy `stakes` ({purse: stake}), exactly."""
    rows: dict = {}
    for x, s in stakes.items():
        row: dict = {}
        for r, p in outcomes.items():
            y = x + s * r
            key = "goal" if y >= goal else "ruin" if y < 1 else y
            row[key] = row.get(key, ZERO) + p
        rows[x] = row
    try:
        values = Chain(rows, least_fill=True).backward(lambda t: ONE if t == "goal" else ZERO)
    except TooLargeToSolve:
        raise PolicyTooLarge(f"the chain of one policy ({len(rows):,} purses) is too large to solve exactly; use a "
                             f"smaller goal, or simulate") from None
    return {x: values[x] for x in stakes}


def policy_size(goal: int, most: int) -> int:
    """The (purse, stake) pairs of the decision process towards `goal`, stakes up to `most`:
    Σ_{x<goal} min(x, most), in closed form (a goal of 10⁹ is judged at once, not counted)."""
    n = goal - 1
    if n <= 0:
        return 0
    m = min(most, n)
    return m * (m + 1) // 2 + (n - m) * m


def judge_purses(purses: int, what: str) -> None:
    """Refuse, before any work, a chain of more purses than an exact solve takes."""
    if purses > MAX_POLICY_PURSES:
        raise PolicyTooLarge(f"{what} has {purses:,} purses below the goal, more than the {MAX_POLICY_PURSES:,} an "
                             f"exact solve takes; use a smaller goal, or simulate")


def best_stake(outcomes: dict, goal, most=None, flat=None) -> BestStake:
    """The policy of greatest chance to reach `goal` before ruin from every purse below it,
    staking 1..`most` (default: the whole purse) whole units; with `flat`, the chances staking
    `flat` every game beside it."""
    outcomes = checked_outcomes(outcomes)
    goal = whole(goal, Arg("goal"))
    most = goal if most is None else whole(most, "the largest stake")
    if goal < 2:
        raise StakeArgumentError(Arg("goal"), "must be at least 2 units: there is no purse to play from below it")
    if most < 1:
        raise PolicyError("the largest stake must be at least 1 unit")
    judge_purses(goal - 1, "the best stake")
    size = policy_size(goal, most)
    if size > MAX_POLICY_PAIRS:
        raise PolicyTooLarge(f"the best stake weighs {size:,} (purse, stake) pairs, more than the {MAX_POLICY_PAIRS:,} "
                             f"an exact solve takes; use a smaller goal or largest stake, or simulate")
    purses = range(1, goal)
    stakes = {x: max(1, min(x, goal - x, most)) for x in purses}  # bold play to start
    weights, _ = _weights(outcomes)
    rounds = 0
    while True:
        rounds += 1
        values = _evaluate(outcomes, goal, stakes)
        denominator = lcm(*(v.denominator for v in values.values()))
        scaled = [0] * (goal + 1)  # D·V(x) for 0 ≤ x ≤ goal, and D for the goal itself
        for x, v in values.items():
            scaled[x] = v.numerator * (denominator // v.denominator)
        scaled[goal] = denominator

        def score(x: int, s: int) -> int:
            total = 0
            for r, w in weights:
                y = x + s * r
                total += w * (scaled[goal] if y >= goal else scaled[y] if y >= 1 else 0)
            return total

        changed = False
        for x in purses:
            now = score(x, stakes[x])
            best, chosen = now, stakes[x]
            for s in range(1, min(x, most) + 1):
                got = score(x, s)
                if got > best:
                    best, chosen = got, s
            if chosen != stakes[x]:
                stakes[x], changed = chosen, True
        if not changed:
            break
    # the optimum reached: among the stakes best on its values, the largest
    for x in purses:
        top = max(score(x, s) for s in range(1, min(x, most) + 1))
        stakes[x] = max(s for s in range(1, min(x, most) + 1) if score(x, s) == top)
    flat_values = None
    if flat is not None:
        flat = whole(flat, Arg("stake"))
        flat_values = _evaluate(outcomes, goal, {x: min(x, flat) for x in purses if x >= flat})
        flat_values.update({x: ZERO for x in purses if x < flat})
    return BestStake(goal, most, dict(stakes), values, rounds, flat, flat_values)


def flat_chances(outcomes: dict, goal, stake) -> dict:
    """P(goal) from every purse from `stake` to goal−1, staking `stake` every game."""
    outcomes = checked_outcomes(outcomes)
    goal, stake = whole(goal, Arg("goal")), whole(stake, Arg("stake"))
    if not 1 <= stake < goal:
        raise StakeArgumentError(Arg("stake"), "must be at least 1 and below ", Arg("goal"))
    judge_purses(goal - stake, f"a flat stake of {stake}")
    return _evaluate(outcomes, goal, {x: stake for x in range(stake, goal)})


def purse_for_risk(values: dict, risk: Fraction) -> int | None:
    """The least purse whose chance of ruin (1 − P(goal), from `values`) is at most `risk`,
    or None when no purse below the goal is that safe."""
    risk = Fraction(risk)
    for x in sorted(values):
        if ONE - values[x] <= risk:
            return x
    return None


@record(frozen=True)
class Kelly:
    """The log-optimal fraction of the purse to stake each game, and the growth it gives."""

    fraction: Fraction | None  # exact where rational; None: no fraction grows the purse
    approximate: float  # the fraction as a decimal (the numerical root where not exact)
    growth: float  # expected log-growth per game, natural log
    exact: bool
    edge: Fraction  # Σ r p_r: the player's expected net per unit staked


def kelly(outcomes: dict) -> Kelly:
    """The Kelly fraction of `outcomes` ({r: p}), and its growth per game."""
    outcomes = checked_outcomes(outcomes)
    edge = sum((r * p for r, p in outcomes.items()), ZERO)
    if edge <= 0:
        return Kelly(None, 0.0, 0.0, True, edge)
    moves = [(r, p) for r, p in outcomes.items() if r]
    top = Fraction(1, -min(r for r, _ in moves))  # f < 1/c, or the worst loss takes the whole purse

    def growth(f: float) -> float:
        return sum(float(p) * log(1 + f * r) for r, p in outcomes.items())

    if len(moves) == 2:
        (c, q), (a, p) = sorted(moves)
        c = -c
        f = (p * a - q * c) / (a * c * (p + q))
        return Kelly(f, float(f), growth(float(f)), True, edge)
    lo, hi = 0.0, float(top)
    for _ in range(200):  # g′ falls from Σ r p_r > 0 at 0 to −∞ at 1/c: bisect its root
        mid = (lo + hi) / 2
        slope = sum(float(p) * r / (1 + mid * r) for r, p in outcomes.items())
        lo, hi = (mid, hi) if slope > 0 else (lo, mid)
    f = (lo + hi) / 2
    g = growth(f)
    return Kelly(None, f, g if isfinite(g) else 0.0, False, edge)


@record(frozen=True)
class Horizon:
    """The policy of greatest expected purse after `games` games from `bankroll`."""

    bankroll: int
    games: int
    most: int
    expected: Fraction  # the expected purse after the games, under the best policy
    first: int  # the best first stake
    stakes: dict  # purse -> the best stake with `games` games to go


def horizon_size(bankroll: int, games: int, most: int, outcomes: dict) -> int:
    reach = max(abs(r) for r in outcomes) * most * games
    return games * (bankroll + reach + 1) * most * len(outcomes)


def best_after(outcomes: dict, bankroll, games: int, most=None) -> Horizon:
    """The stake policy of greatest expected purse after `games` games (stakes 1..most whole
    units, the purse allowing: a purse below 1 unit stops)."""
    outcomes = checked_outcomes(outcomes)
    bankroll = whole(bankroll, Arg("bankroll"))
    most = bankroll if most is None else whole(most, "the largest stake")
    if games < 1 or most < 1 or bankroll < 1:
        raise PolicyError("the expected purse needs a purse, a stake and games of at least 1")
    size = horizon_size(bankroll, games, most, outcomes)
    if size > MAX_HORIZON_WORK:
        raise PolicyTooLarge(f"the expected purse after {games} games weighs {size:,} steps, more than the "
                             f"{MAX_HORIZON_WORK:,} an exact solve takes; use fewer games or a smaller stake, or "
                             f"simulate")
    weights = [(r, int(p * lcm(*(q.denominator for q in outcomes.values())))) for r, p in outcomes.items()]
    d = lcm(*(q.denominator for q in outcomes.values()))
    top = bankroll + max(r for r in outcomes) * most * games
    worst = -min(r for r in outcomes)  # a stake may lose `worst` times itself: never more than the purse
    # W_n(x) = d^n · (the best expected purse from x with n games to go), whole numbers
    w = list(range(top + 1))
    scale = 1
    stakes: dict = {}
    for n in range(1, games + 1):
        new = [0] * (top + 1)
        scale *= d
        for x in range(top + 1):
            if x < worst:  # no stake the purse can answer: it stays
                new[x] = x * scale
                continue
            best, chosen = None, 0
            for s in range(1, min(x // worst, most) + 1):
                total = 0
                for r, wr in weights:
                    y = min(x + s * r, top)
                    total += wr * w[y]
                if best is None or total > best:
                    best, chosen = total, s
            new[x] = best
            if n == games:
                stakes[x] = chosen
        w = new
    return Horizon(bankroll, games, most, Fraction(w[bankroll], scale), stakes.get(bankroll, 0),
                   {x: s for x, s in stakes.items() if x <= bankroll + most * games})


__all__ = ["BestStake", "Horizon", "Kelly", "PolicyError", "PolicyTooLarge", "best_after", "best_stake",
           "both_ways", "caster_outcomes", "checked_outcomes", "flat_chances", "kelly", "other_side",
           "purse_for_risk"]
