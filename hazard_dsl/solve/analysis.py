"""Every figure `hazard-dsl analyse` prints, exactly, from the compiled machine.

All probabilities and expectations are `Fraction`s. The caster's side is the reference: the
*edge* is the caster's expected loss per unit staked at even money, P(lose) − P(win).
"""

from __future__ import annotations

from fractions import Fraction

from ..compile.machine import CHOICE, END, THROW, Machine, maximises
from ..errors import PYTHON, Arg, ArgumentError
from ..records import field, record
from .markov import ONE, ZERO, Solver, policy_for

HIGH_PERCENTILE = Fraction(99, 100)
MAX_DISTRIBUTION_THROWS = 2000
MAX_DISTRIBUTION_WORK = 400_000_000  # states with mass × bits of the common denominator, summed over the throws
DISTRIBUTION_MASS = Fraction(999, 1000)  # tabulate P(T = n) until this much is covered


class VariableError(ArgumentError, KeyError):
    """A variable to split the figures by that the ruleset does not have (`Arg('by', value=…)`):
    each front end names it (`by='nope'`, `--by nope`). A KeyError too, as it was."""

    def __str__(self) -> str:  # a KeyError's own would quote the message
        return self.said(PYTHON)


@record
class Figures:
    """Outcome figures for the whole game or for one value of a `--by` variable."""

    win: Fraction
    lose: Fraction
    push: Fraction
    labels: dict  # label -> probability
    expected_throws: Fraction

    @property
    def edge(self) -> Fraction:
        return self.lose - self.win


@record(repr=False)
class Analysis:
    ruleset: str
    file: str
    options: dict
    policy: str
    figures: Figures
    label_results: dict  # label -> "win" | "lose" | "push"
    throws: list  # P(the game takes n throws), n = 0, 1, …
    throws_tail: Fraction  # probability beyond the tabulated n
    median_throws: int | None  # None: beyond the tabulated throws (len(throws) - 1)
    high_percentile_throws: int | None
    by_variable: str | None = None
    by: dict = field(default_factory=dict)  # value -> (probability, Figures, joint labels)
    choices: dict = field(default_factory=dict)  # variable -> {"values": {v: (win, edge)}, "best": v, "chooser": role}
    bets: dict = field(default_factory=dict)  # name -> BetFigures
    fees: dict = field(default_factory=dict)  # name -> FeeFigures
    combination: object | None = None  # Combination, for --bet orders
    by_option: dict = field(default_factory=dict)  # option -> value -> {bet: edge}
    by_option_skipped: list = field(default_factory=list)  # options whose table was too much work
    never_made: list = field(default_factory=list)  # bets whose made: never holds under these options
    bet_table: object | None = field(default=None, repr=False)
    hand: object | None = None  # solve.session.Hand, for analyse --hand
    dice: object | None = field(default=None, repr=False)  # the machine's Dice (loaded or fair)
    game_by_option: dict = field(default_factory=dict)  # option -> value -> the game's figures (api)
    ruin: object | None = None  # solve.session.Ruin, for analyse --bankroll --goal --stake
    seats: object | None = None  # solve.seats.Seats, for analyse --bet SEAT:NAME=AMOUNT (or --players)
    table_ruin: object | None = None  # solve.seats.TableRuin, for analyse --bankroll … --bet SEAT:NAME=AMOUNT
    recast: dict | None = None  # dice that land off: the recasts chosen and what they are worth (_recast)
    # the table's stake bet (`money: stake`) when some games end before it can be laid (a turn
    # lost on the first throw): {"bet", "made_per_game", "unmade": {label: chance per game}}.
    # Its edge, per stake laid, is then the headline; the game's edge counts the others too.
    stake: dict | None = None

    def __repr__(self) -> str:
        f = self.figures
        bets = f", {len(self.bets)} bets" if self.bets else ""
        # where some games lay no stake, the edge money meets is the stake bet's, per stake laid
        stake = self.stake and self.bets.get(self.stake["bet"])
        edge = (f"edge {float(stake.edge):.3%} per stake laid" if stake is not None and stake.edge is not None
                else f"edge {float(f.edge):.3%}")
        return (f"<Analysis {self.ruleset!r}: win {f.win} ({float(f.win):.2%}), {edge}, "
                f"{float(f.expected_throws):.2f} throws{bets}>")

    @property
    def win(self) -> Fraction:
        return self.figures.win

    @property
    def edge(self) -> Fraction:
        return self.figures.edge


def analyse(machine: Machine, policy: str = "optimal", by: str | None = None) -> Analysis:
    solver = Solver(machine)
    solver.set_policy(policy)
    visits = solver.forward()
    ends = list(machine.end_states())
    throws_expected = visits.total(s for s in visits if machine.states[s].kind == THROW)
    labels = machine.labels()
    figures = _figures(ends, visits, labels, throws_expected)
    label_results = {}
    for s in ends:
        label_results.setdefault(s.label, s.result)
    distribution, tail = throw_distribution(machine, solver)
    analysis = Analysis(
        ruleset=machine.ruleset.name, file=machine.ruleset.file, options=dict(machine.options),
        policy=policy, figures=figures, label_results=label_results,
        throws=distribution, throws_tail=tail,
        median_throws=_percentile(distribution, Fraction(1, 2)),
        high_percentile_throws=_percentile(distribution, HIGH_PERCENTILE),
    )
    analysis.dice = machine.dice
    if by is not None:
        analysis.by_variable = by
        analysis.by = _by(machine, solver, visits, ends, labels, by)
    analysis.choices = _choices(machine, solver)
    if machine.recast is not None:
        analysis.recast = _recast(machine, solver, visits, policy)
    if machine.bets or machine.fees:
        from .bets import BetTable

        table = analysis.bet_table = BetTable(machine, solver)
        for name in machine.bets:
            if table.can_be_made(name):
                analysis.bets[name] = table.figures(name)
            else:  # not offered under these options (its made: never holds): no figures, not an error
                analysis.never_made.append(name)
        analysis.fees = {name: table.fee(name, figures.labels, label_results) for name in machine.fees}
        stake = machine.ruleset.table.stake
        if stake in analysis.bets and analysis.bets[stake].made_per_game < 1:
            analysis.stake = {"bet": stake, "made_per_game": analysis.bets[stake].made_per_game,
                              "unmade": table.unmade_endings(table.bet(stake))}
    return analysis


def bet_edges(machine: Machine, policy: str) -> dict:
    """The edge of each bet compiled with the machine (None where it can never be made)."""
    from .bets import BetTable

    solver = Solver(machine)
    solver.set_policy(policy_for(machine, policy))
    return edges_on(BetTable(machine, solver), machine.bets)


def edges_on(table, compiled: dict) -> dict:
    """The edge of each compiled bet ({name: CompiledBet}) solved on a BetTable of its game
    (None where it can never be made)."""
    return {name: (table.figures_of(cb).edge if cb.made else None) for name, cb in compiled.items()}


def _figures(ends, visits, labels, expected_throws) -> Figures:
    """The chance of each result and label: sums over end states, each normalised once."""
    total: dict = {"win": [], "lose": [], "push": []}
    by_label: dict = {label: [] for label in labels}
    for s in ends:
        total[s.result].append(s.index)
        by_label.setdefault(s.label, []).append(s.index)
    return Figures(visits.total(total["win"]), visits.total(total["lose"]), visits.total(total["push"]),
                   {label: visits.total(nodes) for label, nodes in by_label.items()}, expected_throws)


def _by(machine, solver, visits, ends, labels, variable) -> dict:
    if variable not in machine.variables:
        known = ", ".join(machine.variables) or "none"
        from ..diagnostics import did_you_mean

        raise VariableError(Arg("by", value=variable), f"the ruleset has no variable {variable!r}"
                            f"{did_you_mean(variable, machine.variables)} (variables: {known})")
    position = machine.variables.index(variable)
    groups: dict = {}
    for s in ends:
        groups.setdefault(s.values[position], []).append(s)
    out = {}
    for value in sorted(groups):
        members = groups[value]
        probability = visits.total(s.index for s in members)
        if not probability:
            continue
        ids = {s.index for s in members}
        # E[T · 1{ends with VAR = value}] = Σ over throw states of visits × P(end with VAR = value | here)
        h = solver.backward(lambda s: ONE if s.index in ids else ZERO)
        joint_throws = sum((x * h[s] for s, x in visits.items() if machine.states[s].kind == THROW), ZERO)
        joint = _figures(members, visits, labels, joint_throws)
        conditional = Figures(joint.win / probability, joint.lose / probability, joint.push / probability,
                              {k: v / probability for k, v in joint.labels.items()}, joint_throws / probability)
        out[value] = (probability, conditional, joint.labels)
    return out


def _choices(machine, solver) -> dict:
    """For the first choice of each variable: the caster's figures after each alternative."""
    firsts = {}
    for state in machine.states:  # states are numbered in the order play reaches them
        if state.kind == CHOICE and state.variable not in firsts:
            firsts[state.variable] = state
    if not firsts:
        return {}
    win = solver.backward(lambda s: ONE if s.result == "win" else ZERO)
    lose = solver.backward(lambda s: ONE if s.result == "lose" else ZERO)
    out = {}
    for variable, state in firsts.items():
        values = {}
        for value, step in state.alternatives:
            values[value] = (win[step.target], lose[step.target] - win[step.target])
        pick = max if maximises(state.chooser) else min
        best = pick(values, key=lambda v: -values[v][1])  # the caster's expectation is −edge
        out[variable] = {"chooser": state.chooser, "values": values, "best": best}
    return out


def _recast(machine: Machine, solver: Solver, visits, policy: str) -> dict:
    """Dice that land off: where the caster (or whoever the rules name) recasts the off die
    alone rather than both, state by state and face by face, and what that is worth — his
    chance from each state against taking the dice up together every time (the other choices
    at their best), which is what the game would be without the choice."""
    recast = machine.recast
    states = machine.states
    win = solver.backward(lambda s: ONE if s.result == "win" else ZERO)
    if_both = None
    choosers = {n.chooser for n in recast.nodes if n.kind == CHOICE}
    if choosers and policy == "optimal":
        other = Solver(machine)
        other.set_policy("recast=both")
        if_both = other.backward(lambda s: ONE if s.result == "win" else ZERO)
    rows = []
    for s, targets in recast.landed.items():
        alone: dict = {}  # the dice off -> {the faces kept: chance the dice off are recast alone}
        chosen = False
        for target in dict.fromkeys(targets):
            node = machine.node(target)
            if node.kind != CHOICE:
                continue
            chosen = True
            p = solver.alone(node.index)
            if p:
                kept = tuple(f for d, f in enumerate(node.kept, 1) if d not in node.dice)
                alone.setdefault(node.dice, {})[kept] = p
        if chosen:
            rows.append({"state": states[s], "win": win[s], "win_if_both": None if if_both is None else if_both[s],
                         "alone": alone})
    # a visit to a throw state is a throw that stands there; each took `casts` casts of the dice
    casts = sum((x * solver.casts.get(s, ONE) for s, x in visits.items() if states[s].kind == THROW), ZERO)
    return {"chance": recast.chance, "choosers": sorted(choosers), "states": rows, "casts_per_game": casts,
            "win_if_both": None if if_both is None else if_both[machine.start.target],
            "variables": {name: machine.ruleset.variables[name].initial for name in machine.variables},
            "faces": machine.ruleset.words.faces, "dice": machine.dice.count}


def throw_distribution(machine: Machine, solver: Solver) -> tuple[list, Fraction]:
    """P(the game takes exactly n throws) for n = 0, 1, … until 99.9% is covered.

    Exact, in integers: the mass on each state is a numerator over one common denominator,
    which a throw multiplies by the dice's total weight (36 for fair dice: each throw state's row
    is a count of the 36 outcomes) and a
    mixed choice by its probabilities' common denominator; only the mass that ends at each
    throw becomes a Fraction."""
    from .tails import whole_rows

    states = machine.states
    # throw state -> ((target, outcomes of the total), …); choice state -> ((target, weight of scale), …)
    throws, choices, total, scale = whole_rows(machine, solver)
    den = 1

    def settle(mass: dict) -> int:
        """Pass the mass through choice states (they take no throw); return what ended."""
        nonlocal den
        for _ in range(len(states) + 1):
            pending = [s for s in mass if s in choices]
            if not pending:
                break
            if scale != 1:
                den *= scale
                for s in mass:
                    mass[s] *= scale
            for s in pending:
                m = mass.pop(s)
                for t, w in choices[s]:
                    mass[t] = mass.get(t, 0) + (m if scale == 1 else m * w // scale)
        return sum(mass.pop(s) for s in [s for s in mass if states[s].kind == END])

    mass = {machine.start.target: 1}
    ended = Fraction(settle(mass), den)
    distribution = [ended]
    covered = ended
    work = 0  # the size of the numbers worked so far: states with mass × bits of the denominator
    while covered < DISTRIBUTION_MASS and mass and len(distribution) <= MAX_DISTRIBUTION_THROWS:
        # exact masses after n throws are over 36**n: a long game's numbers grow with every
        # throw, so the table stops at a bound on that size, not only on the throws (the rest
        # is the tail, and a percentile there is "more than n")
        work += len(mass) * den.bit_length()
        if work > MAX_DISTRIBUTION_WORK:
            break
        nxt: dict = {}
        for s, m in mass.items():
            for t, n in throws[s]:
                nxt[t] = nxt.get(t, 0) + m * n
        den *= total
        mass = nxt
        ended = Fraction(settle(mass), den)
        distribution.append(ended)
        covered += ended
    return distribution, ONE - covered


def _percentile(distribution: list, q: Fraction) -> int | None:
    """The least n with P(T ≤ n) ≥ q, or None when it lies beyond the tabulated throws."""
    cumulative = ZERO
    for n, p in enumerate(distribution):
        cumulative += p
        if cumulative >= q:
            return n
    return None
