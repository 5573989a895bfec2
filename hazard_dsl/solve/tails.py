r"""How many throws a game and a hand take, exactly, and their tails P(length ≥ n).

A **hand** is the caster's time with the box: games one after another until the ruleset's
`passing:` rule passes the dice. Its chain is the game machine under its policy, with the
count that `passing` keeps (`compile.passing.CompiledPassing`) beside the game state:

    node = (game state, passing count)

Each throw moves the game; a game that ends moves the count (`after_game`) and either passes
the dice — the hand ends, after that many throws — or starts the next game. A **game** is the
same walk that ends at the first game's end.

The mass on each node after n throws is a whole number over one common denominator (the
dice's total weight to the n-th power, times the choices' denominators), so the walk is carried
in integers and P(length = n) is exact for every n; P(length ≥ n) = 1 − Σ_{m<n} P(length = m).
A long tail means huge numbers (36ⁿ for n throws): the work — nodes × the bits of the
denominator, summed over the throws — is estimated before any of it is done (`tail_size`) and
refused beyond MAX_TAIL_WORK, pointing to `simulate`.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm, log2, log10

from ..compile.machine import END, THROW, Machine
from ..records import field, record
from .markov import ONE, ZERO, Solver

MAX_TAIL_WORK = 2_000_000_000  # nodes × bits of the denominator, summed over the throws walked


class TailTooLarge(ValueError):
    """A tail too long to compute exactly (said before working)."""


TAIL_MARKS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)  # lengths shown beside the one asked
KEEP_EXACTLY = 200  # P(length = m) kept as fractions for m below this (their digits grow with m)


@record(frozen=True)
class Lengths:
    """How long a hand or a game lasts, walked to `throws`: P(length ≥ m) exactly at the
    lengths asked for (`marks`) and for every m ≤ KEEP_EXACTLY, as its log10 for every m ≤
    throws (for a chart), and P(length = m) exactly for m < KEEP_EXACTLY."""

    what: str  # "hand" or "game"
    throws: int  # walked to P(length ≥ throws)
    exactly: list  # P(length = m), exact, m < min(throws, KEEP_EXACTLY)
    marks: dict  # m -> P(length ≥ m), exact
    logs: list  # log10 P(length ≥ m) for m = 0 … throws (−inf where 0): a chart's, past a float's range
    rule: str | None = None  # when the dice pass, in words (a hand)
    # the same lengths simulated beside them (simulate.risk.Simulated), when asked for
    simulated: object = field(default=None, repr=False, compare=False)

    def at_least(self, n: int) -> Fraction:
        """P(length ≥ n), exactly, for n among the marks or n ≤ len(exactly)."""
        found = self.marks.get(n)
        if found is not None:
            return found
        if n > len(self.exactly):
            raise ValueError(f"P(length ≥ {n}) was not asked for (known exactly: {sorted(self.marks)} and "
                             f"every length up to {len(self.exactly)})")
        return ONE - sum(self.exactly[:n], ZERO)


def whole_rows(machine: Machine, solver: Solver):
    """Each throw state's throws as whole weights over one total (36 for fair dice; where dice
    are recast, which throws stand differs from state to state, so the total is the lcm), each
    choice state's row as whole weights over one scale (1 for a pure policy): the chain in
    integers, as `analysis.throw_distribution` and the tails push mass through it."""
    states = machine.states
    dice = {s: solver.throw_dice(s) for s in solver.transient if states[s].kind == THROW}
    total = lcm(*(d.total for d in dice.values())) if dice else machine.dice.total
    throws: dict = {}
    choices: dict = {}
    scale = 1
    for s in solver.transient:
        if states[s].kind == THROW:
            counts: dict = {}
            up = total // dice[s].total
            for step, w in zip(states[s].steps, dice[s].weights):
                if w:
                    counts[step.target] = counts.get(step.target, 0) + w * up
            throws[s] = tuple(counts.items())
        else:
            choices[s] = tuple(solver.row(s).items())
            scale = lcm(scale, *(p.denominator for _, p in choices[s]))
    choices = {s: tuple((t, int(p * scale)) for t, p in row) for s, row in choices.items()}
    return throws, choices, total, scale


def tail_size(machine: Machine, n: int, hand: bool) -> tuple[int, int]:
    """(the work of P(length ≥ n), its bound), from the size of the chain alone: nodes × the
    bits of the denominator after m throws, summed over m < n."""
    states = sum(1 for s in machine.states if s.kind != END)
    counts = 1
    if hand and machine.passing is not None:
        counts = max(1, machine.passing.losses_in_a_row)  # the losses in a row it counts
    bits = log2(machine.dice.total) + 1
    work = int(states * counts * bits * n * (n + 1) / 2)
    return work, MAX_TAIL_WORK


def lengths(machine: Machine, n: int, hand: bool = True, policy: str = "optimal",
            solver: Solver | None = None, marks=()) -> Lengths:
    """P(length ≥ n) of the caster's hand (`hand`) or of one game, and at the lengths `marks`
    (each at most n), exactly; P(length = m) for m < KEEP_EXACTLY. Raises
    TailTooLarge before working where the work passes MAX_TAIL_WORK, and ValueError where the
    dice never pass."""
    if n < 0:
        raise ValueError("the number of throws is 0 or more")
    passing = machine.passing if hand else None
    if hand and (passing is None or not passing.ever_passes):
        raise ValueError(f"{machine.ruleset.name}: the dice never pass (the ruleset has no passing: rule that can "
                         f"apply), so a hand never ends; add passing: to the rule file")
    work, bound = tail_size(machine, n, hand)
    if work > bound:
        raise TailTooLarge(f"P({'hand' if hand else 'game'} ≥ {n} throws) is about {work:,} steps of work (nodes × "
                           f"bits of the exact numbers, summed over the throws), more than the {bound:,} it is "
                           f"computed for; ask for fewer throws, or use `hazard-dsl simulate`")
    if solver is None:
        solver = Solver(machine)
        solver.set_policy(policy)
    states = machine.states
    throws, choices, total, scale = whole_rows(machine, solver)
    start = machine.start.target
    den = 1
    ended_now = 0

    def settle(mass: dict) -> None:
        """Through choices (no throw) and game ends: a game that ends passes the dice (the hand
        is over: counted in ended_now) or starts the next game with the count moved."""
        nonlocal den, ended_now
        for _ in range(4 * len(states) + 4):
            pending = [node for node in mass if node[0] in choices or states[node[0]].kind == END]
            if not pending:
                return
            if scale != 1 and any(node[0] in choices for node in pending):
                den *= scale
                for node in mass:
                    mass[node] *= scale
                ended_now *= scale
                mul = True
            else:
                mul = False
            for node in pending:
                m = mass.pop(node)
                s, count = node
                if s in choices:
                    for t, w in choices[s]:
                        key = (t, count)
                        mass[key] = mass.get(key, 0) + (m * w // scale if mul else m)
                    continue
                state = states[s]
                if passing is None:
                    ended_now += m
                    continue
                after, passes = passing.after_game(count, state.result, state.label)
                if passes:
                    ended_now += m
                else:
                    key = (start, after)
                    mass[key] = mass.get(key, 0) + m
        raise ValueError("the game can start and end without a throw, for ever")

    start_count = passing.start if passing is not None else 0
    wanted = set(marks or ()) | {n}
    mass = {(start, start_count): 1}
    settle(mass)
    exactly = [Fraction(ended_now, den)]
    ended_now = 0
    found: dict = {0: ONE}
    logs = [0.0]
    k = 0  # throws walked: the mass still live is of lengths ≥ k + 1
    while k + 1 <= n:
        live = sum(mass.values())
        logs.append(log10(live) - log10(den) if live else float("-inf"))  # log10 takes integers of any size
        if k + 1 in wanted:
            found[k + 1] = Fraction(live, den)
        if k + 1 == n or not mass:
            break
        nxt: dict = {}
        for (s, count), m in mass.items():
            for t, w in throws[s]:
                key = (t, count)
                nxt[key] = nxt.get(key, 0) + m * w
        den *= total
        ended_now = 0
        mass = {key: m for key, m in nxt.items() if m}
        settle(mass)
        if len(exactly) < KEEP_EXACTLY:
            exactly.append(Fraction(ended_now, den))
        k += 1
    for m in wanted:  # beyond the last live mass, nothing is left
        found.setdefault(m, ZERO)
    logs += [float("-inf")] * (n + 1 - len(logs))
    rule = passing.says() if passing is not None else None
    return Lengths("hand" if hand else "game", n, exactly[:min(n, KEEP_EXACTLY)], found, logs, rule)


def one_in(p: Fraction) -> str:
    """"1 in N" for a small chance, N rounded to a whole number with thousands separated."""
    if not p:
        return "never"
    if p > Fraction(1, 10):  # "1 in 1" says nothing: a chance this large reads as a percentage
        return ""
    exponent = log10(p.denominator) - log10(p.numerator)  # log10 takes integers of any size
    if exponent < 15:
        return f"1 in {round(1 / p):,}"
    whole = int(exponent)  # beyond a readable number: 1 in 1.378e548
    return f"1 in {10 ** (exponent - whole):.3f}e{whole}"


__all__ = ["KEEP_EXACTLY", "Lengths", "MAX_TAIL_WORK", "TailTooLarge", "lengths", "one_in", "tail_size"]
