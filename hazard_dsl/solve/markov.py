r"""Exact solution of a compiled machine: an absorbing Markov chain with decision states.

Fix a policy π (at each choice state, a probability for each alternative). The game is then
an absorbing chain over the transient states T (throw and choice states) and the end states E:

    P = | Q  R |      Q[s, t] = P(s → t), s, t ∈ T;  R[s, e] = P(s → e), e ∈ E
        | 0  I |

with N = (I − Q)⁻¹ the fundamental matrix. We never form N. Two linear solves suffice:

* **forward** (expected visits from the start): x = e_start N, i.e. x (I − Q) = e_start.
  Then P(the game ends in e) = x R[:, e], and the expected number of throws is Σ x_s over
  throw states (a choice takes no throw).
* **backward** (a value per state): v = Q v + c + R r, for a terminal reward r and a cost c
  per visit; v(s) is the expected reward from s (with r = 1 on wins: P(win | at s)).

Both are solved one strongly connected component at a time, in topological order (Tarjan):
most states of a dice game are a component of one with a self-loop ("throw again"), solved
by a single division, v = (c + Σ_{t≠s} p_t v_t) / (1 − p_self). Larger components fall back to
Gaussian elimination over `Fraction`s. Everything is exact rational arithmetic.

The optimal policy is found component by component, sinks first: at a choice state the caster
picks the alternative of greatest expectation (+1 win, −1 lose, 0 push), any other chooser the
least. Where choices sit inside a cycle, policy iteration runs within the component.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd

from ..compile.machine import CHOICE, END, THROW, Machine, maximises
from ..diagnostics import Diagnostic, RulesetError

ZERO, ONE = Fraction(0), Fraction(1)
MAX_POLICY_ROUNDS = 200


class PolicyError(ValueError):
    pass


# n throws of the 36: the chance of every row entry of a throw state, made once
THROWS_OF_36 = tuple(Fraction(n, 36) for n in range(37))


def _throw_transitions(state) -> dict:
    counts: dict[int, int] = {}
    for step in state.steps:
        counts[step.target] = counts.get(step.target, 0) + 1
    return {t: THROWS_OF_36[n] for t, n in counts.items()}


def strongly_connected(nodes, successors) -> list[list]:
    """Tarjan's algorithm, iterative; components come out sinks first. `successors(n)` may name
    nodes outside `nodes` (absorbing ones): they are skipped."""
    members = set(nodes)
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    out: list[list] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(successors(root)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in members:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(successors(nxt))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                out.append(component)
    return out


def solve_component(component, row, value: dict, cost: dict) -> None:
    """Fill value[s] for s in the component: v = Q v + c, the values outside already known."""
    if len(component) == 1:
        s = component[0]
        out = row(s)
        p_self = out.get(s, ZERO)
        rest = sum((p * value[t] for t, p in out.items() if t != s), ZERO) + cost.get(s, ZERO)
        value[s] = rest / (ONE - p_self)
        return
    members = {s: k for k, s in enumerate(component)}
    rows: list[dict] = []
    rhs: list[Fraction] = []
    for s in component:
        a = {members[s]: ONE}
        b = cost.get(s, ZERO)
        for t, p in row(s).items():
            k = members.get(t)
            if k is None:
                b += p * value[t]
            else:
                a[k] = a.get(k, ZERO) - p
        rows.append(a)
        rhs.append(b)
    for s, x in zip(component, sparse_solve(rows, rhs)):
        value[s] = x


class TooLargeToSolve(RulesetError):
    """A cycle of the game too large to solve exactly in reasonable time: the rule file's
    problem (reported like any other), not an internal error."""

    def __init__(self, message: str):
        super().__init__([Diagnostic(message, None, hint="give the variables that go round the cycle smaller "
                                                          "ranges, or end the game sooner")])


# Exact elimination costs grow with the fill-in and with the digits of the fractions; beyond
# this many multiply-adds a solve would take minutes, so it is refused with a clear message.
MAX_ELIMINATION_WORK = 300_000  # about 2 s: a cycle of 100 states that fills in completely


def sparse_solve(rows: list[dict], rhs: list) -> list[Fraction]:
    """Solve A x = b exactly, A given by sparse rows ({column: coefficient}).

    A here is always I − Q (or its transpose) for the transient states of one strongly
    connected component of an absorbing chain: a nonsingular M-matrix, whose leading principal
    minors are all positive, so Gaussian elimination in the given order needs no pivoting.
    Rows stay sparse: a dice game's states have few successors, and a cycle fills in little."""
    n = len(rows)
    rows = [dict(r) for r in rows]
    rhs = list(rhs)
    below: list[set] = [set() for _ in range(n)]  # column -> rows below the diagonal using it
    for r, a in enumerate(rows):
        for c in a:
            if c < r:
                below[c].add(r)
    work = 0
    for k in range(n):
        pivot_row = rows[k]
        lead = pivot_row.pop(k, ZERO)
        if not lead:
            raise ArithmeticError("singular system: some states never reach an end")
        for c in pivot_row:
            pivot_row[c] /= lead
        rhs[k] /= lead
        pivot_row[k] = ONE
        for r in sorted(below[k]):
            a = rows[r]
            factor = a.pop(k, ZERO)
            if not factor:
                continue
            for c, x in pivot_row.items():
                if c == k:
                    continue
                a[c] = a.get(c, ZERO) - factor * x
                if c < r:
                    below[c].add(r)
            rhs[r] -= factor * rhs[k]
            # cost ~ entries touched × the size of the numbers (digits grow as a cycle fills in)
            work += len(pivot_row) * (1 + (rhs[k].denominator.bit_length() >> 6))
        if work > MAX_ELIMINATION_WORK:
            raise TooLargeToSolve(f"the game has a cycle of {n} states, too large to solve exactly in reasonable "
                                  f"time (the game can go round it in too many ways)")
    sparse_solve.last_work = work
    x = [ZERO] * n
    for k in range(n - 1, -1, -1):
        total = rhs[k]
        for c, a in rows[k].items():
            if c > k:
                total -= a * x[c]
        x[k] = total
    return x


class Chain:
    """An absorbing chain given by its rows: node → {next node: probability}. Nodes without a
    row are absorbing. Solved one strongly connected component at a time (see above)."""

    def __init__(self, rows: dict):
        self.rows = rows
        self.components = strongly_connected(list(rows), lambda n: rows[n].keys())  # sinks first

    def row(self, node) -> dict:
        return self.rows[node]

    def backward(self, reward, cost: dict | None = None, absorbing=()) -> dict:
        """Expected reward(absorbing node) at the end plus cost(node) per visit, from every node
        (and the reward itself for the absorbing nodes named in `absorbing`)."""
        value: dict = {t: Fraction(reward(t)) for t in absorbing}
        for targets in self.rows.values():
            for t in targets:
                if t not in self.rows and t not in value:
                    value[t] = Fraction(reward(t))
        for component in self.components:
            solve_component(component, self.row, value, cost or {})
        return value

    def forward(self, start: dict) -> dict:
        """Expected visits to each transient node, and the probability of ending in each
        absorbing node, from a starting distribution."""
        # What flows into a node is summed once, when the node is reached: adding Fractions one
        # by one takes a gcd of their huge denominators each time (a long game's chances have
        # thousands of digits), and that gcd was most of the solve (see exact_sum).
        inflows: dict = {}
        for s, p in start.items():
            inflows.setdefault(s, []).append(p)
        visits: dict = {}
        for component in reversed(self.components):  # sources first
            if len(component) == 1:
                s = component[0]
                parts = inflows.pop(s, None)
                if parts is None:
                    continue
                inflow = exact_sum(parts)
                if not inflow:
                    visits[s] = inflow
                    continue
                out = self.rows[s]
                x = inflow / (ONE - out.get(s, ZERO))
                visits[s] = x
                for t, p in out.items():
                    if t != s:
                        inflows.setdefault(t, []).append(x * p)
                continue
            members = {s: k for k, s in enumerate(component)}
            # x (I − Q_CC) = inflow  ⇔  (I − Q_CC)ᵀ xᵀ = inflowᵀ
            rows: list[dict] = [{k: ONE} for k in range(len(component))]
            for s, k in members.items():
                for t, p in self.rows[s].items():
                    j = members.get(t)
                    if j is not None:
                        rows[j][k] = rows[j].get(k, ZERO) - p
            xs = sparse_solve(rows, [exact_sum(inflows.pop(s, ())) for s in component])
            for s, x in zip(component, xs):
                visits[s] = x
            for s, x in zip(component, xs):
                for t, p in self.rows[s].items():
                    if t not in members:
                        inflows.setdefault(t, []).append(x * p)
        for t, parts in inflows.items():  # the absorbing nodes
            visits[t] = exact_sum(parts)
        return visits


def exact_sum(values) -> Fraction:
    """The exact sum of Fractions, normalised once at the end. The chances of a dice game have
    denominators that divide one another (powers of 36, mostly), so the running sum is kept
    over the larger denominator with a division, not a gcd per addition — the difference
    between seconds and milliseconds when the denominators have thousands of digits."""
    if values.__class__ is list and len(values) == 1 and values[0].__class__ is Fraction:
        return values[0]  # already in lowest terms: no gcd at all
    numerator, denominator = 0, 1
    for value in values:
        n, d = value.numerator, value.denominator
        if d == denominator:
            numerator += n
        elif denominator % d == 0:
            numerator += n * (denominator // d)
        elif d % denominator == 0:
            numerator = numerator * (d // denominator) + n
            denominator = d
        else:
            g = gcd(denominator, d)
            numerator = numerator * (d // g) + n * (denominator // g)
            denominator = denominator // g * d
    return Fraction(numerator, denominator)


class Solver:
    """A machine under a policy: chooses the policy, then solves the chain it makes."""

    def __init__(self, machine: Machine):
        self.machine = machine
        states = machine.states
        self.transient = [s.index for s in states if s.kind != END]
        self.throw_rows = {s.index: _throw_transitions(s) for s in states if s.kind == THROW}
        self.successors = {s.index: (list(self.throw_rows[s.index]) if s.kind == THROW
                                     else [step.target for _, step in s.alternatives])
                           for s in states if s.kind != END}
        self.components = strongly_connected(self.transient, lambda n: self.successors[n])
        self.policy: dict[int, dict[int, Fraction]] = {}  # choice state -> {alternative index: p}
        self._chain: Chain | None = None

    def row(self, number: int) -> dict:
        """Transition probabilities out of a transient state under the current policy."""
        if number in self.throw_rows:
            return self.throw_rows[number]
        state = self.machine.states[number]
        row: dict[int, Fraction] = {}
        for alt, p in self.policy[number].items():
            target = state.alternatives[alt][1].target
            row[target] = row.get(target, ZERO) + p
        return row

    @property
    def chain(self) -> Chain:
        if self._chain is None:
            self._chain = Chain({s: self.row(s) for s in self.transient})
        return self._chain

    # ------------------------------------------------------------------ policies

    def set_policy(self, policy: str = "optimal") -> None:
        """`optimal`, `uniform`, or a value to choose wherever it is offered (`7` or `main=7`)."""
        choice_states = [s for s in self.machine.states if s.kind == CHOICE]
        self.policy = {}
        self._chain = None
        if policy == "optimal":
            self._optimal()
            return
        if policy != "uniform" and not choice_states:
            raise PolicyError(f"--policy {policy}: {self.machine.ruleset.name} has no choices to make "
                              f"(use optimal or uniform)")
        for state in choice_states:
            n = len(state.alternatives)
            if policy == "uniform":
                self.policy[state.index] = {k: Fraction(1, n) for k in range(n)}
                continue
            variable, _, wanted = policy.rpartition("=")
            if variable and variable != state.variable:
                raise PolicyError(f"--policy {policy}: the choice here is of {state.variable!r}, not {variable!r}")
            matches = [k for k, (value, _) in enumerate(state.alternatives) if str(value) == wanted.strip()]
            if not matches:
                offered = ", ".join(str(v) for v, _ in state.alternatives)
                raise PolicyError(f"--policy {policy}: use optimal, uniform, or a value the {state.chooser} "
                                  f"can choose for {state.variable}: {offered}")
            self.policy[state.index] = {matches[0]: ONE}

    def _optimal(self) -> None:
        """Each chooser's best reply, solved sinks first (policy iteration inside cycles)."""
        if not any(s.kind == CHOICE for s in self.machine.states):
            return  # nothing to choose: no values to weigh
        value: dict[int, Fraction] = {}
        for s in self.machine.end_states():
            value[s.index] = ONE if s.result == "win" else (-ONE if s.result == "lose" else ZERO)
        for component in self.components:
            choices = [n for n in component if self.machine.states[n].kind == CHOICE]
            for n in choices:
                self.policy[n] = {0: ONE}
            for _ in range(MAX_POLICY_ROUNDS):
                solve_component(component, self.row, value, {})
                changed = False
                for n in choices:
                    state = self.machine.states[n]
                    current = next(iter(self.policy[n]))
                    scores = [value[step.target] for _, step in state.alternatives]
                    pick = max if maximises(state.chooser) else min
                    best = pick(scores)
                    if scores[current] != best:
                        self.policy[n] = {scores.index(best): ONE}
                        changed = True
                if not changed:
                    break
            else:  # pragma: no cover - policy iteration on a finite game ends
                raise PolicyError("the choices of this game do not settle on an optimal policy")

    # ------------------------------------------------------------------ solving

    def backward(self, reward, cost=None) -> dict[int, Fraction]:
        """Expected reward(end state) at the end plus cost(state) per visit, from every state."""
        return self.chain.backward(lambda n: reward(self.machine.states[n]), cost,
                                   [s.index for s in self.machine.end_states()])

    def forward(self) -> dict[int, Fraction]:
        """Expected visits to each transient state, and the probability of each end state, from the start."""
        return self.chain.forward({self.machine.start.target: ONE})


def _gauss(matrix: list[list[Fraction]]) -> list[Fraction]:
    """Solve an augmented square system exactly (Gauss-Jordan with pivot search)."""
    size = len(matrix)
    for col in range(size):
        pivot = next((r for r in range(col, size) if matrix[r][col] != 0), None)
        if pivot is None:  # pragma: no cover - the checker refuses games that may never end
            raise ArithmeticError("singular system: some states never reach an end")
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        lead = matrix[col][col]
        pivot_row = [x / lead for x in matrix[col]]
        matrix[col] = pivot_row
        for r in range(size):
            if r != col and matrix[r][col] != 0:
                factor = matrix[r][col]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], pivot_row)]
    return [matrix[r][size] for r in range(size)]
