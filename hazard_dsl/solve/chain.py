r"""The chain solver: an absorbing Markov chain, solved exactly one component at a time.

(The policy solver over a compiled machine is `solve.solver`; the arithmetic the forward pass
runs in is `solve.exact`; `solve.markov` gathers the names callers import.)

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

import heapq
from fractions import Fraction

from ..diagnostics import Diagnostic, RulesetError
from .exact import FRACTIONS, ONE, SMOOTH, SMOOTH_FROM, ZERO, Rough, Visits


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
# The same work weighed by the size of the numbers multiplied, in 64-bit words: a chain whose
# chances have long denominators (a seat's session to a goal, each game's outcomes over 4032ⁿ)
# stays sparse while its digits grow, and the count above, which weighs only the right-hand
# side, let such a solve run 80 s before refusing it. The largest the tests, the README and
# the docs solve is under 100,000; two million is reached in one to two seconds.
MAX_DIGIT_WORK = 2_000_000


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
    digits = 0  # the same, weighed by the size of the numbers multiplied (MAX_DIGIT_WORK)
    for k in range(n):
        pivot_row = rows[k]
        lead = pivot_row.pop(k, ZERO)
        if not lead:
            raise ArithmeticError("singular system: some states never reach an end")
        for c in pivot_row:
            pivot_row[c] /= lead
        rhs[k] /= lead
        pivot_row[k] = ONE
        size = max(x.numerator.bit_length() + x.denominator.bit_length() for x in pivot_row.values())
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
            digits += len(pivot_row) * (1 + ((size + factor.numerator.bit_length()
                                              + factor.denominator.bit_length()) >> 6))
        if work > MAX_ELIMINATION_WORK or digits > MAX_DIGIT_WORK:
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


def _least_fill(component: list, rows: dict) -> list:
    """The states of one cycle in an order to eliminate them with little fill-in: minimum degree
    (each time the state with the fewest neighbours left, its neighbours then joined), worked
    out on the pattern alone, before any number. Any order may be eliminated without pivots (a
    principal permutation of an M-matrix is one). Tarjan's order follows the search, and a
    purse's chain eliminated in it fills in almost completely: a d'Alembert of 225 states took
    0.74 s, in this order 0.04 s, the same exact figures."""
    members = set(component)
    near: dict = {s: set() for s in component}
    for s in component:
        for t in rows[s]:
            if t in members and t != s:
                near[s].add(t)
                near[t].add(s)
    place = {s: k for k, s in enumerate(component)}  # ties broken by the given order: deterministic
    heap = [(len(near[s]), place[s], s) for s in component]
    heapq.heapify(heap)
    order: list = []
    while heap:
        degree, _, s = heapq.heappop(heap)
        if s not in near or degree != len(near[s]):
            continue  # eliminated already, or an entry made stale by a join
        order.append(s)
        around = near.pop(s)
        for u in around:
            joined = near[u]
            joined.discard(s)
            joined |= around
            joined.discard(u)
            heapq.heappush(heap, (len(joined), place[u], u))
    return order


class Chain:
    """An absorbing chain given by its rows: node → {next node: probability}. Nodes without a
    row are absorbing. Solved one strongly connected component at a time (see above); with
    `least_fill=True`, each cycle's states are eliminated in a minimum-degree order (`_least_fill`:
    a purse's chain, whose cycles are large and loosely knit)."""

    def __init__(self, rows: dict, least_fill: bool = False):
        self.rows = rows
        self.components = strongly_connected(list(rows), lambda n: rows[n].keys())  # sinks first
        if least_fill:
            self.components = [_least_fill(c, rows) if len(c) > 2 else c for c in self.components]

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

    def forward(self, start: dict, smooth: bool | None = None) -> Visits:
        """Expected visits to each transient node, and the probability of ending in each
        absorbing node, from a starting distribution. `smooth`: over Smooth numbers where they
        can be (None: for chains of SMOOTH_FROM nodes or more), else over Fractions."""
        if smooth if smooth is not None else len(self.rows) >= SMOOTH_FROM:
            try:
                return Visits(self._forward(start, SMOOTH), SMOOTH)
            except Rough:
                pass
        return Visits(self._forward(start, FRACTIONS), FRACTIONS)

    def _forward(self, start: dict, number) -> dict:
        """The forward pass, sources first, in the arithmetic `number` (FRACTIONS or SMOOTH).
        What flows into a node is summed once, when the node is reached (see exact_sum)."""
        inflows: dict = {}
        for s, p in start.items():
            inflows.setdefault(s, []).append(number.of(p))
        visits: dict = {}
        for component in reversed(self.components):
            if len(component) == 1:
                s = component[0]
                parts = inflows.pop(s, None)
                if parts is None:
                    continue
                x = number.total(parts)
                if number.nonzero(x):
                    out = self.rows[s]
                    p_self = out.get(s)
                    if p_self:
                        x = number.leave(x, p_self)
                    for t, p in out.items():
                        if t != s:
                            inflows.setdefault(t, []).append(number.times(x, p))
                visits[s] = x
                continue
            # a cycle: solved in Fractions (the Smooth results are Smooth again where they can be)
            xs = self._solve_cycle(component, {s: number.fraction(number.total(inflows.pop(s, ())))
                                               for s in component})
            members = set(component)
            for s, x in zip(component, xs):
                x = visits[s] = number.of(x)
                for t, p in self.rows[s].items():
                    if t not in members:
                        inflows.setdefault(t, []).append(number.times(x, p))
        for t, parts in inflows.items():  # the absorbing nodes
            visits[t] = number.total(parts)
        return visits

    def _solve_cycle(self, component, inflow: dict) -> list:
        """Visits to the states of one cycle (`visit_equations`)."""
        return sparse_solve(visit_equations(component, self.rows), [inflow[s] for s in component])


def visit_equations(component: list, rows: dict) -> list[dict]:
    """The equations of the visits x to the states of one cycle of an absorbing chain, given
    what flows in from outside it: x (I − Q_CC) = inflow ⇔ (I − Q_CC)ᵀ xᵀ = inflowᵀ, the
    equation of the cycle's k-th state as a sparse row {k': coefficient}, x_k − Σ x_k' Q[k', k]."""
    members = {s: k for k, s in enumerate(component)}
    equations: list[dict] = [{k: ONE} for k in range(len(component))]
    for s, k in members.items():
        for t, p in rows[s].items():
            j = members.get(t)
            if j is not None:
                equations[j][k] = equations[j].get(k, ZERO) - p
    return equations


def gauss(matrix: list[list[Fraction]]) -> list[Fraction]:
    """Solve an augmented square system exactly (Gauss-Jordan with pivot search), in place. For a
    small dense system whose matrix is no M-matrix (a bet's long-run shares, solve.bets): the
    chain's own solves use `sparse_solve`, which needs no pivots and bounds its work."""
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
